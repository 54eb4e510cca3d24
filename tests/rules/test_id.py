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
