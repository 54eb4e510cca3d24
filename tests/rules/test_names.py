"""Unit ``names``."""

from deid_core.spans import Category


def test_unlisted_surname_after_a_title_is_a_doctor(unit_finds):
    assert unit_finds("names", "Seen by Dr. Wierzbicki today.") == {"Wierzbicki": Category.DOCTOR}


def test_name_before_a_credential_is_a_doctor(unit_finds):
    assert unit_finds("names", "Eleanor Whitcombe, MD") == {"Eleanor Whitcombe": Category.DOCTOR}


def test_name_after_a_patient_header_or_a_relation_is_a_patient(unit_finds):
    assert unit_finds("names", "Patient: Imke Achterberg") == {"Imke Achterberg": Category.PATIENT}
    assert unit_finds("names", "daughter Ana at bedside") == {"Ana": Category.PATIENT}


def test_eponyms_and_devices_are_not_names(unit_finds):
    assert unit_finds("names", "Foley catheter placed. Positive Murphy's sign. Babinski negative.") == {}


def test_words_of_a_line_in_capitals_are_not_names(unit_finds):
    assert unit_finds("names", "PT RESTING COMFORTABLY") == {}


def test_switched_off_cued_names_are_not_detected(detect):
    text = "Seen by Dr. Wierzbicki today."
    assert detect(text) == {"Wierzbicki": Category.DOCTOR}
    assert detect(text, without="names") == {}


LOWER_NOTE = "no bleeding from gums or piv sites, foley draining clear yellow urine. pt's husband {} at bedside, hcp, aware of plan."


def test_a_given_name_that_is_also_a_word_is_a_name_right_after_a_relation_in_a_lowercase_note(unit_finds):
    assert unit_finds("names", LOWER_NOTE.format("frank")) == {"frank": Category.PATIENT}
    assert unit_finds("names", "SON RICH CALLED AT 1400 FROM WORK, UPDATED.") == {"RICH": Category.PATIENT}


def test_after_a_relation_a_word_listed_only_as_a_surname_or_a_modal_stays_a_word(unit_finds):
    assert unit_finds("names", "SON PRESENT AT BEDSIDE, UPDATED ON PLAN OF CARE.") == {}
    assert unit_finds("names", "husband will call tonight after work, number on the board.") == {}


def test_nursing_short_forms_of_relations_are_cues(unit_finds):
    assert unit_finds("names", "pt's dtr ellen called from home, updated on plan.") == {"ellen": Category.PATIENT}


def test_a_month_that_is_a_given_name_names_the_person_right_after_a_relation(unit_finds):
    note = "pt on vent overnight, sedated, no changes. daughter {} at bedside, she is hcp."
    assert unit_finds("names", note.format("june")) == {"june": Category.PATIENT}
    assert unit_finds("names", "pt on vent overnight, sedated, no changes. daughter may call later tonight.") == {}
