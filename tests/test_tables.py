"""Names and identifiers typed by the header of the table column they sit in."""

import pytest

from deid_core.recognizers.pipeline import build_default_pipeline
from deid_core.recognizers.tables import table_cells
from deid_core.spans import Category


@pytest.fixture(scope="module")
def pipeline():
    return build_default_pipeline()


def labelled(pipeline, text):
    return {text[s.start : s.end]: s.category for s in pipeline.analyze(text)}


SHOT_LOG = """Date | Vial 1 (mL/arm) | PEF | Local rxn | Given by
02/05/24 | 0.30 L | 540 | 8 mm | KT
02/20/24 | 0.50 L | 520 | 25 mm wheal | Rosaria Blackfeather
03/12/24 | 0.50 L | 555 | 6 mm | R. Blackfeather
"""

INVOICE = """| Date | Patient / MRN | Language | Interpreter | Amount |
|---|---|---|---|---|
| 03/05/2024 | Nguyen Thi Thu Ha / PRW-448102 | Vietnamese | Tran Minh Khoa | $150.00 |
| 03/12/2024 | N. T. T. Ha / PRW-448102 | Vietnamese | Linh Bui | $54.60 |
"""

ROSTER = """Emp ID | Name | Dept | Phone | Lot # | Vaccinator
E104477 | Ostrowski-Vance, Helena | Pharmacy | 555-0142 | AB1234 | J. Amadi RN
E221964 | Featherstone, Arlo J. | Security | 555-0188 | AB1234 | P. Haverford LPN
"""


def test_staff_in_a_given_by_column_are_doctors_even_as_initials(pipeline):
    found = labelled(pipeline, SHOT_LOG)
    assert found["KT"] is Category.DOCTOR
    assert found["Rosaria Blackfeather"] is Category.DOCTOR  # a listed name with no cue is typed by its column
    assert found["R. Blackfeather"] is Category.DOCTOR


def test_a_patient_and_mrn_column_is_split_at_its_slash(pipeline):
    found = labelled(pipeline, INVOICE)
    assert found["Nguyen Thi Thu Ha"] is Category.PATIENT
    assert found["N. T. T. Ha"] is Category.PATIENT
    assert found["PRW-448102"] is Category.ID
    assert found["Tran Minh Khoa"] is Category.DOCTOR and found["Linh Bui"] is Category.DOCTOR
    assert "Vietnamese" not in found and "$150.00" not in found


def test_identifier_and_name_columns_of_a_roster_are_found_and_phone_and_lot_columns_are_not_identifiers(pipeline):
    found = labelled(pipeline, ROSTER)
    assert found["E104477"] is Category.ID and found["E221964"] is Category.ID
    assert found["Ostrowski-Vance, Helena"] is Category.PATIENT
    assert found["Featherstone, Arlo J."] is Category.PATIENT
    assert "AB1234" not in found
    assert found.get("555-0142") is not Category.ID


def test_a_key_value_list_has_no_header_roles(pipeline):
    text = "| Patient | O'Neill, Caoimhe |\n| DOB | 14/02/1988 |\n| GP | Dr Ní Bhriain |\n"
    assert table_cells(text) == ()
    found = labelled(pipeline, text)
    assert "DOB" not in found and "GP" not in found


def test_a_comma_list_in_prose_is_not_a_table():
    text = "Patient, staff, visitors and family were told.\nShe ate eggs, toast, 2 coffees, juice.\n"
    assert table_cells(text) == ()


def test_a_clinical_word_in_a_name_column_is_not_a_name(pipeline):
    text = "Date | Name | Result | Reviewed by\n03/01 | Pending | negative | Nursing\n"
    found = labelled(pipeline, text)
    assert "Pending" not in found and "Nursing" not in found
