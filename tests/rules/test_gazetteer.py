"""Unit ``gazetteer``."""

from deid_core.spans import Category
from tests.rules import LOWER_TAIL


def test_listed_hospital_and_country_are_found_by_the_lists(unit_finds):
    assert unit_finds("gazetteer", "Followed at Mass General. Travelled to Mexico last year.") == {
        "Mass General": Category.HOSPITAL,
        "Mexico": Category.LOCATION,
    }


def test_listed_state_that_is_also_a_given_name_needs_a_place_cue(unit_finds):
    assert unit_finds("gazetteer", "Virginia is her nurse.") == {}


def test_switched_off_listed_places_are_not_detected(detect):
    text = "Followed at Mass General."
    assert detect(text) == {"Mass General": Category.HOSPITAL}
    assert detect(text, without="gazetteer") == {}


def test_a_famous_place_that_is_a_clinical_word_needs_a_cue_unless_written_as_a_place(unit_finds):
    assert unit_finds("gazetteer", "POD 0 CABG X4 (LIMA-LAD, SVG-OM). WEAK COUGH, ORAL SXN FOR SECRETIONS.") == {}
    assert unit_finds("gazetteer", "Itinerary: departs Oct 12, Lima -> Cusco by bus.").get("Lima") is Category.LOCATION


def test_a_state_after_a_place_cue_is_a_place_in_a_lowercase_note_but_a_food_is_not(unit_finds):
    assert unit_finds("gazetteer", "she had a long car ride from florida on the 3rd") == {"florida": Category.LOCATION}
    assert unit_finds("gazetteer", "family went to turkey for the holiday") == {}


LOWER_PLACE_NOTE = "pt sedated on prop, vent ac 500x14. {} flying in tmrw, aware of plan, will call in am."


def test_a_prominent_place_after_a_cue_in_a_lowercase_note_is_a_place(unit_finds):
    assert unit_finds("gazetteer", LOWER_PLACE_NOTE.format("son called from montreal,")) == {"montreal": Category.LOCATION}
    assert unit_finds("gazetteer", LOWER_PLACE_NOTE.format("kids are in seoul,")) == {"seoul": Category.LOCATION}


def test_a_listed_town_after_in_in_a_lowercase_note_is_a_place_but_a_food_is_not(unit_finds):
    assert unit_finds("gazetteer", LOWER_PLACE_NOTE.format("found down on the street in somerville,")) == {"somerville": Category.LOCATION}
    assert unit_finds("gazetteer", LOWER_PLACE_NOTE.format("lives with her husband in quincy,")) == {"quincy": Category.LOCATION}
    assert unit_finds("gazetteer", LOWER_PLACE_NOTE.format("turkey sandwich eaten in part,")) == {}


def test_after_a_home_cue_with_company_a_town_english_rarely_uses_is_a_place(unit_finds):
    note = "non adherence w meds, lives w mom in {}, moms cell on chart, sw consulted today"
    assert unit_finds("gazetteer", note.format("dorchester")) == {"dorchester": Category.LOCATION}
    assert unit_finds("gazetteer", "pt lives in hope of recovery, lives alone in comfort, family supportive at bedside") == {}
    assert unit_finds("gazetteer", "pt wants to go home to her kids in fall river asap, neuro team aware") == {"fall river": Category.LOCATION}


def test_a_place_named_collar_is_a_device_not_a_place(detect):
    assert detect("C-SPINE PRECAUTIONS, MIAMI J COLLAR ON AT ALL TIMES") == {}
    assert detect("changed to philadelphia collar for bathing") == {}
    assert detect("LIVES IN MIAMI W/ HER SON") == {"MIAMI": Category.LOCATION}


def test_a_place_before_a_collar_letter_or_a_clinical_rule_is_an_eponym(unit_finds):
    assert unit_finds("gazetteer", "NEURO ICU NIGHTS: C5 SCI ASIA A, MIAMI J.\nNEURO: NO MOTOR BELOW C5.") == {}
    assert unit_finds("gazetteer", "TMAX 37.9. OTTAWA ANKLE RULES N/A, NO FALL.") == {}


def test_in_capitals_a_clinical_word_after_a_place_cue_is_where_in_the_body(unit_finds):
    assert unit_finds("gazetteer", "MURMUR 3/6 HOLOSYSTOLIC AT APEX. 2L NC.") == {}
    assert unit_finds("gazetteer", "TRANSFERRED TO LIMA, OHIO FOR CABG.") == {"LIMA, OHIO": Category.LOCATION}


def test_a_clinical_word_that_is_a_place_opening_a_sentence_is_no_place(unit_finds):
    assert unit_finds("gazetteer", "Thick white secretions x3. Oral care with chlorhexidine q12h.") == {}


def test_an_everyday_place_word_before_a_clinical_word_qualifies_it(unit_finds):
    assert unit_finds("gazetteer", "NO COUGH/GAG, NO RESPONSE TO CENTRAL PAIN. APNEA TEST PLANNED.") == {}
    assert unit_finds("gazetteer", "moved to Central Falls last year").get("Central Falls") is Category.LOCATION


def test_a_place_made_an_adjective_with_a_hyphen_is_no_place(unit_finds):
    assert unit_finds("gazetteer", "Endocrine: insulin drip per Portland-style protocol, glucose 140-180.") == {}


def test_a_state_written_out_after_a_town_in_the_towns_case_is_part_of_the_place(detect):
    text = "NEURO: ALERT. SON CALLED FROM PORTLAND, MAINE, UPDATED ON CONDITION."
    assert detect(text)["PORTLAND, MAINE"] is Category.LOCATION


def test_listed_plans_pharmacies_and_dialysis_chains_are_facilities_in_a_lower_case_note(unit_finds):
    note = "on hd tu/th/sa at davita, insurance medica, scripts from walgreens" + " pt resting comfortably with sats in the 90s overnight"
    assert unit_finds("gazetteer", note) == {"davita": Category.HOSPITAL, "medica": Category.HOSPITAL, "walgreens": Category.HOSPITAL}



def test_a_known_city_after_a_listed_chain_in_capitals_is_its_branch(unit_finds):
    found = unit_finds("gazetteer", "HD M/W/F AT DAVITA PARKERSBURG, LAST TX SAT.")
    assert found.get("DAVITA PARKERSBURG") is Category.HOSPITAL


def test_an_academic_centre_by_its_short_form_is_a_facility(unit_finds):
    assert unit_finds("gazetteer", "ECMO EVAL REQUESTED AT UCSF, NO BED. ACCEPTED TO OHSU.") == {"UCSF": Category.HOSPITAL, "OHSU": Category.HOSPITAL}
    assert unit_finds("gazetteer", "S/P R-CHOP X6, MUSC PAIN, UVA EXPOSURE.") == {}


def test_a_long_term_acute_care_chain_is_a_facility_but_its_word_alone_is_not(unit_finds):
    assert unit_finds("gazetteer", "DISPO: AWAITING LTACH BED AT SELECT SPECIALTY; AUTH PENDING") == {"SELECT SPECIALTY": Category.HOSPITAL}
    assert unit_finds("gazetteer", "a kindred spirit, she says" + LOWER_TAIL) == {}


def test_a_short_chain_typed_in_lower_case_is_named_where_medicines_are_sent_or_got(unit_finds):
    assert unit_finds("gazetteer", "wife wants list sent to cvs, per daughter." + LOWER_TAIL) == {"cvs": Category.HOSPITAL}
    assert unit_finds("gazetteer", "home meds from cvs per daughter." + LOWER_TAIL) == {"cvs": Category.HOSPITAL}
    assert unit_finds("gazetteer", "neuro: intact. cvs: sr 80s, map 70s. resp: 2l nc." + LOWER_TAIL) == {}


def test_a_landform_after_the_is_no_town_of_that_name(unit_finds):
    assert unit_finds("gazetteer", "PT WANTS TO GO HOME TO THE MESA BEFORE LAMBING SEASON.") == {}
    assert unit_finds("gazetteer", "PT LIVES IN MESA, AZ WITH HIS SON.") == {"MESA, AZ": Category.LOCATION}
