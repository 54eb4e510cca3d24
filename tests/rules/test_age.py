"""Unit ``age``."""

from deid_core.spans import Category
from tests.rules import LOWER_TAIL


def test_age_with_its_unit_is_one_span(unit_finds):
    assert unit_finds("age", "67 y/o male with CHF.") == {"67 y/o": Category.AGE}


def test_bare_number_said_of_the_patient_is_an_age(unit_finds):
    assert unit_finds("age", "She is 79 and lives alone.") == {"79": Category.AGE}


def test_labelled_age_is_the_value_without_its_label(unit_finds):
    assert unit_finds("age", "Age: 54") == {"54": Category.AGE}


def test_french_gauge_size_is_not_an_age_and_sex(unit_finds):
    assert unit_finds("age", "Placed 14F Foley.") == {}


def test_gestational_age_and_a_vital_in_a_decade_are_not_ages(unit_finds):
    assert unit_finds("age", "gestational age 32 weeks; sats in the 80s") == {}


def test_switched_off_ages_are_not_detected(detect):
    text = "67 y/o male with CHF."
    assert detect(text) == {"67 y/o": Category.AGE}
    assert detect(text, without="age") == {}


def test_just_turned_gives_an_age(unit_finds):
    assert unit_finds("age", 'line site ok. wife says he just turned 62 and "doesn\'t care anymore"') == {"62": Category.AGE}


def test_telegraphic_ages_with_sex_and_birthdays_to_come(unit_finds):
    assert unit_finds("age", "tsicu pt 48 yom roofer fell 20ft, c5 burst fx") == {"48 yom": Category.AGE}
    assert unit_finds("age", "ccu nursing pt 66 m s/p cath w 3vd, impella cp") == {"66": Category.AGE}
    assert unit_finds("age", "MICU NSG: PT IS 74 YRS, M, W/ SEVERE COPD") == {"74 YRS": Category.AGE}
    assert unit_finds("age", "PT WILL TURN 78 ON DEC 2ND, HOPES TO BE HOME") == {"78": Category.AGE}
    assert unit_finds("age", "pt turned q2h, turned 30 degrees. pt 5 ft tall, pt 2 mg iv") == {}


def test_an_infants_age_against_a_lower_case_sex_is_an_age_but_a_follow_up_is_not(unit_finds):
    assert unit_finds("age", "picu 4 mo m rsv+ bronchiolitis from ed") == {"4 mo": Category.AGE}
    assert unit_finds("age", "return in 3 mo f/u w pulm") == {}


def test_a_decade_after_into_her_is_an_age(unit_finds):
    assert unit_finds("age", "daughter says she was still gardening well into her 80s") == {"80s": Category.AGE}


def test_an_age_said_of_the_patient_with_a_plus(unit_finds):
    assert unit_finds("age", "micu npn 7p-7a. pt is 90+, copd on home o2 2l") == {"90+": Category.AGE}


def test_a_unit_joined_to_old_in_one_word_is_no_age(unit_finds):
    assert unit_finds("age", "if sbp <90 hold epidural per apn") == {}
    assert unit_finds("age", "a 3 day old infant") == {"3 day old": Category.AGE}


def test_an_age_joined_to_the_sex_letter_mid_sentence_is_an_age(unit_finds):
    assert unit_finds("age", "EMS BROUGHT 34M AFTER MVC, INTOX") == {"34M": Category.AGE}
    assert unit_finds("age", "transferred 58f w/ copd flare") == {"58f": Category.AGE}


def test_a_fever_a_gauge_a_bed_or_metres_walked_joined_to_a_letter_are_no_ages(unit_finds):
    assert unit_finds("age", "TMAX 101F OVERNIGHT, 16F FOLEY PLACED WITH 20F CHEST TUBE") == {}
    assert unit_finds("age", "ambulated in hall 40m with pt, back in bed 12f with family") == {}


def test_a_birthday_just_past_is_an_age(unit_finds):
    assert unit_finds("age", "pt turned 101 last week per family") == {"101": Category.AGE}


def test_a_birthday_written_in_short_forms_is_an_age(unit_finds):
    assert unit_finds("age", "visits limited to 2, pt turns 24 tmrw and wants to be home for it") == {"24": Category.AGE}
    assert unit_finds("age", "PT TURNS 90 SOON PER DTR") == {"90": Category.AGE}
    assert unit_finds("age", "turned 30 degrees tonight, turns 2 hrs") == {}


def test_how_old_a_device_or_a_sample_is_is_no_age(unit_finds):
    assert unit_finds("age", "crrt filter 52 hrs old, tmp rising") == {}
    assert unit_finds("age", "PIV 4 DAYS OLD, FLUSHES WELL") == {}
    assert unit_finds("age", "infant is 6 wks old, feeding well") == {"6 wks old": Category.AGE}


def test_an_infants_age_in_capitals_or_before_male_is_an_age(unit_finds):
    assert unit_finds("age", "9 MO F, RSV W/ APNEA X2") == {"9 MO": Category.AGE}
    assert unit_finds("age", "4 mo male with croup") == {"4 mo": Category.AGE}
    # a follow-up in months is none
    assert unit_finds("age", "ECHO IN 3 MOS F/U W/ CARDS") == {}


def test_an_age_joined_to_its_sex_after_a_label_or_before_a_bare_w_is_an_age(unit_finds):
    assert unit_finds("age", "HPI: 24M w/ nodulocystic acne") == {"24M": Category.AGE}
    assert unit_finds("age", "66m w copd exac from home") == {"66m": Category.AGE}
    assert unit_finds("age", "ratio 1:1 24F foley, TMAX 101F W/ CHILLS") == {}


def test_years_then_the_sex_letter_is_an_age(unit_finds):
    assert unit_finds("age", "71 YEARS F ADMITTED FROM HOME") == {"71 YEARS": Category.AGE}
    assert unit_finds("age", "5 years F/U with cardiology") == {}


def test_an_age_joined_to_its_sex_after_a_sentence_or_glued_to_y_o_is_an_age(unit_finds):
    assert unit_finds("age", "NEW ADMIT FROM ED 2245. 44M, ATV ROLLOVER.") == {"44M": Category.AGE}
    assert unit_finds("age", "45 y/om, ivdu, tricuspid endocarditis") == {"45 y/om": Category.AGE}
    assert unit_finds("age", "TEMP 101. 24F. ETT 7.5 24F SHEATH.") == {}


def test_type_1_dm_is_diabetes_not_an_infants_age_and_sex(unit_finds):
    assert unit_finds("age", "dka, pt w/ type 1 dm, pump failed") == {}
    assert unit_finds("age", "3 d m infant w/ jaundice") == {"3 d": Category.AGE}


def test_a_lower_case_line_that_opens_with_an_age_and_the_sex_letter_holds_an_age(unit_finds):
    assert unit_finds("age", "55 f, s/p whipple pod 2, jp drain") == {"55": Category.AGE}
    assert unit_finds("age", "31m oil field mechanic, etoh w/d") == {"31m": Category.AGE}
    assert unit_finds("age", "66 m w/ cp since noon") == {"66": Category.AGE}


def test_metres_walked_at_a_lines_start_are_no_age(unit_finds):
    assert unit_finds("age", "40 m ambulated in hall\n40m walked with pt") == {}


def test_minutes_after_a_word_that_is_also_a_foreign_age_label_are_no_age(unit_finds):
    assert unit_finds("age", "accepting, flight crew eta 45 min weather permitting") == {}
    assert unit_finds("age", "paziente eta 45") == {"45": Category.AGE}


def test_an_age_spelled_out_before_its_short_unit_is_an_age(unit_finds):
    assert unit_finds("age", "SEVENTY-EIGHT Y/O M LKW 1340, NIHSS 14.") == {"SEVENTY-EIGHT Y/O": Category.AGE}


def test_a_decade_after_a_rhythm_or_a_lab_is_its_value(unit_finds):
    found = unit_finds("age", "heart rhythm sinus in the 70s. WBC IN THE 20S. grandmother in her 70s.")
    assert found == {"70s": Category.AGE}


def test_an_opening_age_and_sex_before_what_the_patient_has_is_an_age(unit_finds):
    found = unit_finds("age", "62 m chf ef 20%, retired from the mine.\n55 f copd exac.\n12 f foley placed.\n40 m walk in hall." + LOWER_TAIL)
    assert found == {"62": Category.AGE, "55": Category.AGE}
