"""Unit ``organization``."""

import pytest

from deid_core.spans import Category
from tests.rules import LOWER_TAIL

O = Category.OTHER


@pytest.mark.parametrize(
    "note, name",
    [
        ("PASTOR FROM MT. ZION M.B. CHURCH VISITED.", "MT. ZION M.B. CHURCH"),
        ("VAN FROM GREATER NEW HOPE MB CHURCH MAY HELP.", "GREATER NEW HOPE MB CHURCH"),
        ("pt wants to get home before revival at little zion baptist church" + LOWER_TAIL, "little zion baptist church"),
        ("WIFE SAYS HE'S A DEACON AT ST. JOHN'S LUTHERAN, CHURCH LADIES DROPPING OFF FOOD", "ST. JOHN'S LUTHERAN"),
        ("Her pastor, Rev. Okwuosa of Grace Lutheran Church, called.", "Grace Lutheran Church"),
    ],
)
def test_a_congregation_by_its_name_is_an_organisation_in_any_case(unit_finds, note, name):
    assert unit_finds("organization", note) == {name: O}


def test_a_denomination_or_a_kind_of_church_names_no_congregation(unit_finds):
    assert unit_finds("organization", "PASTOR FROM HIS CHURCH VISITED. FAMILY PLANS TO VISIT AFTER CHURCH. BAPTIST CHURCH VAN.") == {}
    assert unit_finds("organization", "Pt is Lutheran; directions: past the Methodist church, a small country church.") == {}
    assert unit_finds("organization", "FOUND BY NEIGHBOR WILL CAMP. KJV BIBLE AT BEDSIDE. FREE WILL BAPTIST CHURCH.") == {}
    assert unit_finds("organization", "family brought gospel radio, he says the lord will decide" + LOWER_TAIL) == {}


@pytest.mark.parametrize(
    "note, name",
    [
        ("works for delta planting co outside leland" + LOWER_TAIL, "delta planting co"),
        ("foreman from pine belt timber came by" + LOWER_TAIL, "pine belt timber"),
        ("pt works as a cook at ma's catfish cabin" + LOWER_TAIL, "ma's catfish cabin"),
        ("works at westbelt steel in vance" + LOWER_TAIL, "westbelt steel"),
        ("WORKS AT LONE CEDAR RANCH. WIFE ON WAY.", "LONE CEDAR RANCH"),
        ("BOSS FROM CROSSROADS HAY & FEED CALLED.", "CROSSROADS HAY & FEED"),
        ("She works nights at Foster Farms.", "Foster Farms"),
    ],
)
def test_an_employer_after_a_cue_of_work_is_an_organisation(unit_finds, note, name):
    assert unit_finds("organization", note) == {name: O}


def test_a_workplace_named_by_its_kind_is_no_employer(unit_finds):
    note = "works at the paper mill, works for the county road crew, works at a chicken plant, works from home," + LOWER_TAIL
    assert unit_finds("organization", note) == {}
    assert unit_finds("organization", "EMPLOYED BY STATE OF MS. WORKS AT HOME DEPOT. M WORKS AT SAWMILL IN DEMOPOLIS.") == {}
    assert unit_finds("organization", "SOCIAL: WORKS NIGHTS AT FEEDYARD, 3 KIDS.") == {}


def test_switched_off_organisations_are_not_detected(detect):
    note = "PASTOR FROM MT. ZION M.B. CHURCH VISITED."
    assert detect(note)["MT. ZION M.B. CHURCH"] is O
    assert "MT. ZION M.B. CHURCH" not in detect(note, without="organization")


def test_one_rare_word_after_a_cue_of_work_is_an_employer_only_when_it_is_a_name_or_english_never_writes_it(unit_finds):
    assert unit_finds("organization", "worked at tyson for 20 yrs" + LOWER_TAIL) == {"tyson": O}
    assert unit_finds("organization", "pt 19 yo student at transy, ran out of insulin" + LOWER_TAIL) == {"transy": O}
    assert unit_finds("organization", "works at cannery in king cove" + LOWER_TAIL) == {}


def test_a_trade_names_where_it_is_plied(unit_finds):
    text = "HORSE TRAINER AT MEADOWVIEW STABLES IN WOODFORD CO, WANTS TO KNOW WHEN SHE CAN RIDE."
    assert unit_finds("organization", text) == {"MEADOWVIEW STABLES": O}
    assert unit_finds("organization", "INTERPRETER AT BEDSIDE. DEPUTY AT BEDSIDE. SHERIFF FOR UPDATE. NURSE AT BEDSIDE.") == {}
    assert unit_finds("organization", "SWEEP ADJUSTED PER PERFUSIONIST FOR PCO2. MAP 70-75.") == {}


def test_an_employer_named_without_a_verb_or_in_a_work_note_is_an_employer(unit_finds):
    text = "EMPLOYER BLUE GRASS FREIGHT LINES CALLED FOR UPDATE. WIFE ASKING ABOUT WORK NOTE FOR ELKHORN CREEK DISTILLING, PT IS A BARREL ROLLER."
    assert unit_finds("organization", text) == {"BLUE GRASS FREIGHT LINES": O, "ELKHORN CREEK DISTILLING": O}
    assert unit_finds("organization", "employer called x2, no info given" + LOWER_TAIL) == {}
    assert unit_finds("organization", "Job demands (employer JDA): lift 50 lb floor-to-waist occasionally.") == {}


def test_a_teachers_school_follows_the_grade_she_teaches(unit_finds):
    text = "she teaches 6th grade at woodford county middle, worried about her class" + LOWER_TAIL
    assert unit_finds("organization", text) == {"woodford county middle": O}


def test_after_the_a_workplace_needs_a_business_last_word_and_words_that_say_which_not_what_kind(unit_finds):
    assert unit_finds("organization", "works nights at the toyota plant in georgetown" + LOWER_TAIL) == {"toyota plant": O}
    assert unit_finds("organization", "chest pain while at work at the supreme rice mill" + LOWER_TAIL) == {"supreme rice mill": O}
    none = "works at the casino nights, works at the feed store, works at the horse farm, works at the cheese plant" + LOWER_TAIL
    assert unit_finds("organization", none) == {}


def test_where_a_person_studies_or_is_stationed_is_named_as_an_employer_is(unit_finds):
    text = "pt is a student at chipola college. active duty airman stationed at hurlburt field." + LOWER_TAIL
    assert unit_finds("organization", text) == {"chipola college": Category.OTHER, "hurlburt field": Category.OTHER}
    none = "PT IS A SENIOR AT HIGH SCHOOL, STATIONED AT BASE, STUDENT AT COMMUNITY COLLEGE, STUDENT AT THE UNIVERSITY."
    assert unit_finds("organization", none) == {}


def test_a_schools_name_ends_at_its_kind_and_before_a_relative(unit_finds):
    text = "student at reedley college home for summer. kelsie is a student at castle valley tech mom darla at bedside." + LOWER_TAIL
    assert unit_finds("organization", text) == {"reedley college": Category.OTHER, "castle valley tech": Category.OTHER}
