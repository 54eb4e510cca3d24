"""Unit ``table``."""

from deid_core.spans import Category

ROSTER = """Emp ID | Name | Dept | Phone | Lot # | Vaccinator
E104477 | Ostrowski-Vance, Helena | Pharmacy | 555-0142 | AB1234 | J. Amadi RN
"""


def test_value_in_an_identifier_column_is_an_id(unit_finds):
    assert unit_finds("table", ROSTER).get("E104477") is Category.ID


def test_lot_number_column_is_not_an_identifier(unit_finds):
    assert "AB1234" not in unit_finds("table", ROSTER)


def test_switched_off_identifier_columns_are_not_detected(detect):
    assert detect(ROSTER).get("E104477") is Category.ID
    assert "E104477" not in detect(ROSTER, without="table")
