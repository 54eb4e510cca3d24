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
