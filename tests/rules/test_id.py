"""Unit ``id``."""

from deid_core.spans import Category


def test_labelled_record_number_is_the_value_without_its_label(unit_finds):
    assert unit_finds("id", "MRN: 00123456") == {"00123456": Category.ID}


def test_social_security_number_is_an_id(unit_finds):
    assert unit_finds("id", "SSN 123-45-6789") == {"123-45-6789": Category.ID}


def test_measurement_after_a_label_is_not_an_id(unit_finds):
    assert unit_finds("id", "Ht 108 cm") == {}


def test_room_number_and_standard_codes_are_not_ids(unit_finds):
    assert unit_finds("id", "Room No. 4412. ICD-10 code I50.9. PHQ-9 score 12.") == {}


def test_switched_off_ids_are_not_detected(detect):
    text = "MRN: 00123456"
    assert detect(text) == {"00123456": Category.ID}
    assert detect(text, without="id") == {}


def test_a_word_that_ends_in_a_label_is_no_label_but_an_acronym_label_is(unit_finds):
    # "FLUID", "VOID", "DILAUDID" end in "ID" and "PIANO" in "NO": none of them labels the number after it
    assert unit_finds("id", "PARACENTESIS: ASCITIC FLUID PMN 240, CULTURE SENT") == {}
    assert unit_finds("id", "FOLEY OUT AT 0400, DUE TO VOID BY 1000.") == {}
    assert unit_finds("id", "PCA DILAUDID 0.2MG/8MIN LOCKOUT") == {}
    assert unit_finds("id", "referred for valve opinion, UHID KRP7719042") == {"KRP7719042": Category.ID}


def test_a_clock_time_after_a_weak_label_is_a_time(unit_finds):
    assert unit_finds("id", "RETURNED FROM CATH LAB 1415, GROIN SOFT") == {}
    assert unit_finds("id", "family plans to visit 1600-1800 daily") == {}
    assert unit_finds("id", "MRN 0915") == {"0915": Category.ID}
    assert unit_finds("id", "Visit #: 1415") == {"1415": Category.ID}


def test_a_volume_after_a_label_is_no_identifier(unit_finds):
    assert unit_finds("id", "GI/GU: NEPH TUBE 350CC, VOIDED X3.") == {}


def test_a_temperature_under_the_infectious_disease_heading_is_no_identifier(unit_finds):
    assert unit_finds("id", "cv: sr 80s, neo @ .5. id: temp 100.9, on vanc/zosyn. gi: ogt to lws.") == {}


def test_a_record_number_a_few_words_after_its_label_is_an_identifier(unit_finds):
    assert unit_finds("id", "mrn on transfer paperwork 0762-3391 doesnt match ours") == {"0762-3391": Category.ID}
    assert unit_finds("id", "mrn checked on 2023-12-01 with armband") == {}
    assert unit_finds("id", "mrn verified x2, on 2l nc, sat 96") == {}


def test_a_case_number_typed_in_lower_case_is_an_identifier_but_a_lab_name_is_not(unit_finds):
    assert unit_finds("id", "aps case opened (aps-2291-0047) re: concern for neglect") == {"aps-2291-0047": Category.ID}
    assert unit_finds("id", "sars-cov-2 pcr neg, covid-19 neg, ca-125 pending, il-6 sent") == {}


def test_a_tubes_french_size_is_no_identifier(unit_finds):
    assert unit_finds("id", "STAT CXR R PTX -> CHEST TUBE 28FR R 5TH ICS, 400ML SEROSANG.") == {}


def test_a_small_decimal_is_a_reading_even_after_a_strong_label(unit_finds):
    assert unit_finds("id", "Pupil check with the pupillometer: NPi 4.2 bilaterally.") == {}
    assert unit_finds("id", "Referring NPI: 1234567893") == {"1234567893": Category.ID}


def test_a_rate_of_output_after_a_label_is_no_identifier(unit_finds):
    assert unit_finds("id", "GU: NEPH TUBE 250ML/SHIFT CLEARING, DRAIN 40CC/HR") == {}


def test_a_licence_plate_after_its_label_is_an_identifier(unit_finds):
    assert unit_finds("id", "car in visitor lot since admit, plate zkt-5512, security tagged") == {"zkt-5512": Category.ID}
    assert unit_finds("id", "ORIF L TIB PLATE 3.5MM, 7 HOLE PLATE. PLATE AND SCREWS INTACT.") == {}
    assert unit_finds("id", "ASKING ABOUT TRUCK LEFT AT GAME LANDS, TAG HKR-3391.") == {"HKR-3391": Category.ID}
    assert unit_finds("id", "SKIN TAG 3MM. TAG 2 UNITS.") == {}


def test_a_number_shaped_as_two_clock_times_is_an_identifier_after_a_label_that_says_number(unit_finds):
    assert unit_finds("id", "organ procurement called, ref # 2231-0457 given") == {"2231-0457": Category.ID}
    assert unit_finds("id", "order 1400-1600, visit 1400") == {}


def test_a_trauma_alias_number_is_an_identifier(unit_finds):
    assert unit_finds("id", "registered as unknown male trauma alias 77-4410") == {"77-4410": Category.ID}


def test_a_record_number_a_few_words_after_its_label_may_end_the_sentence(unit_finds):
    assert unit_finds("id", "MRN MERGED TO 0081-55-204. CASE MGR LOOKING FOR FAMILY.") == {"0081-55-204": Category.ID}
