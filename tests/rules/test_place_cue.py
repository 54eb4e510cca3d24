"""Unit ``place_cue``."""

from deid_core.spans import Category


def test_unlisted_town_after_lives_in_is_a_location(unit_finds):
    assert unit_finds("place_cue", "She lives in Wapakoneta with her son.") == {"Wapakoneta": Category.LOCATION}


def test_unlisted_town_ending_a_from_phrase_is_a_location(unit_finds):
    assert unit_finds("place_cue", "a retired teacher from Wapakoneta.") == {"Wapakoneta": Category.LOCATION}


def test_device_or_drug_after_weaned_or_switched_from_is_no_place(unit_finds):
    assert unit_finds("place_cue", "weaned from Bipap overnight; switched from Humira to Enbrel") == {}


def test_switched_off_cued_towns_are_not_detected(detect):
    text = "a retired teacher from Wapakoneta."
    assert detect(text) == {"Wapakoneta": Category.LOCATION}
    assert detect(text, without="place_cue") == {}
