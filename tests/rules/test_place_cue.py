"""Unit ``place_cue``."""

import pytest

from deid_core.spans import Category
from tests.rules import LOWER_TAIL


def test_unlisted_town_after_lives_in_is_a_location(unit_finds):
    assert unit_finds("place_cue", "She lives in Wapakoneta with her son.") == {"Wapakoneta": Category.LOCATION}


def test_unlisted_town_ending_a_from_phrase_is_a_location(unit_finds):
    assert unit_finds("place_cue", "a retired teacher from Wapakoneta.") == {"Wapakoneta": Category.LOCATION}


def test_a_town_after_the_patients_age_and_sex_and_from_is_a_location_in_any_case(unit_finds):
    assert unit_finds("place_cue", "58 yo man from marrowfield w/ alcoholic hepatitis" + LOWER_TAIL) == {"marrowfield": Category.LOCATION}
    assert unit_finds("place_cue", "34M FROM DEXTERVILLE AFTER MVC, INTOX") == {"DEXTERVILLE": Category.LOCATION}
    assert unit_finds("place_cue", "81 yo f from nursing home, 72m from rehab, 70 yo from osh" + LOWER_TAIL) == {}


def test_device_or_drug_after_weaned_or_switched_from_is_no_place(unit_finds):
    assert unit_finds("place_cue", "weaned from Bipap overnight; switched from Humira to Enbrel") == {}


def test_switched_off_cued_towns_are_not_detected(detect):
    text = "a retired teacher from Wapakoneta."
    assert detect(text) == {"Wapakoneta": Category.LOCATION}
    assert detect(text, without="place_cue") == {}


def test_a_cued_town_in_a_lower_case_note_or_a_capitals_line_is_a_location(unit_finds):
    note = "sfer to renal floor today, stable overnight. dtr lives in hartwell and wants pt to move in w/ her"
    assert unit_finds("place_cue", note) == {"hartwell": Category.LOCATION}
    note = "cousin joao also in overnight w/ wife, they drove up from tiverton this am"
    assert unit_finds("place_cue", note) == {"tiverton": Category.LOCATION}
    note = "supraglottic edema on fob, stable. lives in lewiston, me, came down by ambulance"
    assert unit_finds("place_cue", note) == {"lewiston, me": Category.LOCATION}
    assert unit_finds("place_cue", "SOCIAL: PT LIVES IN SCITUATE WITH WIFE.") == {"SCITUATE": Category.LOCATION}


def test_a_dwelling_or_an_ordinary_word_after_a_caseless_cue_is_no_town(unit_finds):
    note = "pt lives in group home, lives alone in apt, moved from 4w to icu, transferred from osh at 1400"
    assert unit_finds("place_cue", note) == {}
    assert unit_finds("place_cue", "PT LIVES IN SNF. DAUGHTER DROVE UP FROM WORK. TUBING 50 FT TRIP HAZARD.") == {}


def test_a_place_shaped_phrase_after_a_bare_from_or_near_is_a_location_where_case_says_nothing(unit_finds):
    cases = {
        "metoprolol given, pt from saltmarsh point 2hrs drive": "saltmarsh point",  # a word and a place word
        "parents en route from dunmore county plan repeat ct": "dunmore county",
        "pt from new bedford wants to go close to her son": "new bedford",  # a listed town of two words
        "pt's sister from new hampshire arrived 1400": "new hampshire",  # a state
        "wife came in from waco, tx this am": "waco, tx",  # a town and its state
        "pt orginally from goiania brazil": "goiania brazil",  # a town and its country
    }
    for note, place in cases.items():
        assert unit_finds("place_cue", note + LOWER_TAIL) == {place: Category.LOCATION}, note


def test_a_single_word_after_a_bare_from_or_near_is_no_place_without_its_state(unit_finds):
    note = "blood from art line, sputum from ett, pt from pacu, drainage from jp drain, near mid line, from insertion point"
    assert unit_finds("place_cue", note + LOWER_TAIL) == {}


def test_a_town_after_home_in_or_home_to_is_a_location(unit_finds):
    assert unit_finds("place_cue", "SOCIAL: HUSBAND HOME IN BRANSCOMB, CALLED AT 2030.") == {"BRANSCOMB": Category.LOCATION}
    note = "wife went home to north attleboro to shower will be back in am, pt resting on the vent overnight no events"
    assert unit_finds("place_cue", note) == {"north attleboro": Category.LOCATION}
    assert unit_finds("place_cue", "SOCIAL: WIFE WENT HOME TO REST.") == {}


def test_a_place_shaped_phrase_before_a_facility_word_is_left_to_the_facility(unit_finds):
    assert unit_finds("place_cue", "L MCA SYNDROME, ARRIVED FROM HOLLIS CREEK REGIONAL BY MEDFLIGHT.") == {}


def test_a_town_and_its_state_without_a_comma_after_a_bare_from(unit_finds):
    assert unit_finds("place_cue", "trans to stepdown planned. pt from woonsocket ri, daughter driving" + LOWER_TAIL) == {
        "woonsocket ri": Category.LOCATION
    }
    # a state short form that is also a word or a clinical short form needs its comma
    assert unit_finds("place_cue", "transferred from ed me, then from pacu ok" + LOWER_TAIL) == {}


def test_a_towns_state_in_the_towns_own_case_joins_it_without_a_comma(detect):
    assert detect("aking him home when ready, they live in cranston ri. teaching done" + LOWER_TAIL) == {"cranston ri": Category.LOCATION}
    assert detect("daughter drives, home is 2 hrs away in keene nh" + LOWER_TAIL) == {"keene nh": Category.LOCATION}
    # a short form that is also a word needs its comma
    assert detect("LIVES IN BANGOR ME WITH WIFE.") == {"BANGOR": Category.LOCATION}


def test_a_word_that_is_no_word_outside_which_someone_lives_is_a_town(detect):
    assert detect("LIVES IN A CAMPER OUTSIDE TULLOCK, NO PHONE.") == {"TULLOCK": Category.LOCATION}
    assert detect("outside hospital films reviewed, no change" + LOWER_TAIL) == {}


def test_a_word_that_is_no_word_some_distance_from_which_someone_lives_is_a_town(detect):
    assert detect("family on a farm ~30 mi from dunmoor, driving in am" + LOWER_TAIL) == {"dunmoor": Category.LOCATION}
    assert detect("2 hrs from baseline, 30 min from onset" + LOWER_TAIL) == {}


def test_an_ordinary_word_after_outside_is_no_town(detect):
    assert detect("rough night, gale outside rattling the windows" + LOWER_TAIL) == {}


@pytest.mark.parametrize(
    "note, place",
    [
        ("lives in twin buttes w/ daughter", "twin buttes"),
        ("lives out at little water, 2 hrs away", "little water"),
        ("dtr lives in pine ridge", "pine ridge"),
        # who someone lives with may stand between the cue and the place
        ("83 y/o f lives w/ son in south forge, admitted w/ urosepsis", "south forge"),
        ("she drove in from cold spring, tearful", "cold spring"),
        # a state's short form after it, without its comma, unless it is a function word
        ("lives alone in sturbridge ma w/ his cat", "sturbridge ma"),
        ("lives in boston in a condo", "boston"),
        # a dwelling, a state of life or a function word after the cue is no place
        ("lives in fear of falling, lives in same building as son, raised in foster care", None),
        ("lives with daughter in an apartment, lives w/ wife in assisted living, daughter drove up from work", None),
    ],
)
def test_after_a_residence_cue_ordinary_words_name_the_place_where_case_says_nothing(unit_finds, note, place):
    expected = {place: Category.LOCATION} if place else {}
    assert unit_finds("place_cue", note + LOWER_TAIL) == expected


def test_where_a_relative_comes_or_calls_from_is_a_place_even_of_ordinary_words(unit_finds):
    note = "MOM FROM ANTELOPE FLATS ARRIVED 0100. BROTHER CALLED FROM SWEETWATER WASH, NO PHONE AT HOME."
    assert unit_finds("place_cue", note) == {"ANTELOPE FLATS": Category.LOCATION, "SWEETWATER WASH": Category.LOCATION}
    note = "wife called from work, son called from the road, dtr from college, daughter here from out of state"
    assert unit_finds("place_cue", note + LOWER_TAIL) == {}
    assert unit_finds("place_cue", "MOM FROM HOLLIS CREEK REGIONAL CALLED.") == {}


def test_where_someone_lives_up_down_or_out_is_a_place_even_of_ordinary_words(unit_finds):
    assert unit_finds("place_cue", "lives up bear branch w/ wife, no running water" + LOWER_TAIL) == {"bear branch": Category.LOCATION}
    assert unit_finds("place_cue", "SOCIAL: LIVES ALONE UP BEARWALLOW HOLLOW, NO PHONE.") == {"BEARWALLOW HOLLOW": Category.LOCATION}
    note = "lives out on orca rock island, ferry only" + LOWER_TAIL
    assert unit_finds("place_cue", note) == {"orca rock island": Category.LOCATION}
    note = "lives up north w/ dtr. lives out back in a trailer. lives down the road. lives up there alone" + LOWER_TAIL
    assert unit_finds("place_cue", note) == {}


def test_a_natural_feature_named_with_an_ordinary_word_after_a_cue_is_a_place(unit_finds):
    assert unit_finds("place_cue", "she is from bitter creek, works at the mill" + LOWER_TAIL) == {"bitter creek": Category.LOCATION}
    assert unit_finds("place_cue", "pt from sand lick, retired miner" + LOWER_TAIL) == {"sand lick": Category.LOCATION}
    assert unit_finds("place_cue", "pulled from icy river by bystanders, fell in nearby creek" + LOWER_TAIL) == {}
    note = "found on the floor at home by neighbor. from cedar mesa village." + LOWER_TAIL
    assert unit_finds("place_cue", note) == {"cedar mesa village": Category.LOCATION}
    note = "arrived via helicopter from juniper springs critical access at 0245" + LOWER_TAIL
    assert unit_finds("place_cue", note) == {}


def test_a_word_that_is_no_word_before_river_or_after_lake_is_a_place_anywhere(unit_finds):
    text = "PT FISHING ALONE ON THE TOLMIE RIVER, BOAT FLIPPED, IN WATER ~40 MIN."
    assert unit_finds("place_cue", text) == {"TOLMIE RIVER": Category.LOCATION}
    assert unit_finds("place_cue", "ice fishing on lake vermilion, fell thru" + LOWER_TAIL) == {"lake vermilion": Category.LOCATION}
    assert unit_finds("place_cue", "ANION GAP 14, TRIGGER POINT INJ, SIDE BRANCH OCCLUDED, FELL IN THE LAKE.") == {}


def test_a_disease_named_for_a_river_or_a_mountain_is_no_place(unit_finds):
    assert unit_finds("place_cue", "r/o rocky mountain spotted fever, doxy started" + LOWER_TAIL) == {}


def test_a_town_with_a_post_office_after_from_near_around_or_out_of_is_a_place(unit_finds):
    assert unit_finds("place_cue", "rollover around ekalaka per ems, restrained" + LOWER_TAIL) == {"ekalaka": Category.LOCATION}
    assert unit_finds("place_cue", "PMH COPD. FROM GRAND MARAIS, RETIRED LOGGER.") == {"GRAND MARAIS": Category.LOCATION}
    assert unit_finds("place_cue", "pt ranches out of wibaux, kicked by a cow" + LOWER_TAIL) == {"wibaux": Category.LOCATION}
    assert unit_finds("place_cue", "neighbor from out in hysham found him" + LOWER_TAIL) == {"hysham": Category.LOCATION}


def test_a_word_after_a_bare_preposition_that_no_post_office_or_shape_makes_a_place_is_none(unit_finds):
    note = "got out of bed around midnight, came from home, out of work since may, from floor around 0300" + LOWER_TAIL
    assert unit_finds("place_cue", note) == {}
    assert unit_finds("place_cue", "TURNED AROUND CIRCLE OF BED. OUT OF ROOM FOR CT.") == {}


def test_where_a_relative_is_after_in_is_a_place_with_a_places_shape(unit_finds):
    assert unit_finds("place_cue", "INR 2.4. SON IN LINDSBORG CALLED, WILL DRIVE UP IN AM.") == {"LINDSBORG": Category.LOCATION}
    note = "son in law called, wife in waiting room, dtr in icu earlier" + LOWER_TAIL
    assert unit_finds("place_cue", note) == {}


def test_a_town_after_a_compass_direction_and_of_is_a_place(unit_finds):
    assert unit_finds("place_cue", "TRUCK ROLLOVER ON GRAVEL RD 3 MI N OF KREMMLING. PELVIC FX.") == {"KREMMLING": Category.LOCATION}
    assert unit_finds("place_cue", "flown in from critical access, tnk given there" + LOWER_TAIL) == {}


def test_an_ordinary_word_after_a_post_office_town_makes_the_two_a_thing(unit_finds):
    assert unit_finds("place_cue", "FELL FROM ORCHARD LADDER, L WRIST FX.") == {}
    assert unit_finds("place_cue", "mvc around ekalaka per ems" + LOWER_TAIL) == {"ekalaka": Category.LOCATION}
    assert unit_finds("place_cue", "2 OTHERS FROM CAMP TREATED IN ED. FISHING FROM CANOE ON THE POND.") == {}


def test_a_post_office_town_english_never_writes_is_a_place_after_in_on_off_at_or_to(unit_finds):
    assert unit_finds("place_cue", "hand crushed at the paper mill in rumford 4/6" + LOWER_TAIL) == {"rumford": Category.LOCATION}
    assert unit_finds("place_cue", "77 YO F, SOB, FLOWN OFF MONHEGAN. SUBMASSIVE PE.") == {"MONHEGAN": Category.LOCATION}
    assert unit_finds("place_cue", "CAR VS MOOSE NR GILEAD ~2200, ROOF CRUSHED.") == {"GILEAD": Category.LOCATION}


def test_a_post_office_town_english_writes_as_a_word_is_no_place_after_in_on_off_at_or_to(unit_finds):
    note = "pt agreeable to walker, on holiday last wk, peep 5 on puritan bennett 840, in afib, off bipap" + LOWER_TAIL
    assert unit_finds("place_cue", note) == {}
    assert unit_finds("place_cue", "WATCHING THE SUNSET AT SUNRISE POINT? NO. UP TO CHAIR, TO SPRING CLINIC.") == {}


def test_a_post_office_town_before_a_conjunction_of_time_is_a_place(unit_finds):
    note = "pt brought by ems from eutaw after found down in his chicken house" + LOWER_TAIL
    assert unit_finds("place_cue", note) == {"eutaw": Category.LOCATION}


def test_a_word_that_is_no_word_and_a_places_last_word_after_at_or_in_is_a_place(unit_finds):
    assert unit_finds("place_cue", "M, WORKS 2 WKS ON/2 OFF AT PRUDHOE BAY, FELL FROM CATWALK ~12 FT.") == {"PRUDHOE BAY": Category.LOCATION}
    assert unit_finds("place_cue", "ANION GAP 14. TRIGGER POINT INJ. AT INSERTION SITE.") == {}
    assert unit_finds("place_cue", "pt fell thru ice on skidoo crossing river, hypothermic" + LOWER_TAIL) == {}
    assert unit_finds("place_cue", "PICC TIP AT CAVOATRIAL JUNCTION ON CXR.") == {}


def test_a_word_english_never_writes_right_after_lives_is_where_someone_lives(unit_finds):
    assert unit_finds("place_cue", "PT LIVES MILILANI, INDEPENDENT AT BASELINE. CHF.") == {"MILILANI": Category.LOCATION}
    assert unit_finds("place_cue", "family at bs, lives waianae w grandkids" + LOWER_TAIL) == {"waianae": Category.LOCATION}
    assert unit_finds("place_cue", "PT LIVES INDEPENDENTLY, LIVES ALONE, LIVES LOCALLY, LIVES DOWNSTAIRS. NO EVENTS.") == {}
    assert unit_finds("place_cue", "lives alone, lives nearby, lives upstairs w son" + LOWER_TAIL) == {}


def test_a_park_beach_or_basin_named_by_a_word_that_is_no_word_is_a_place_without_a_preposition(unit_finds):
    assert unit_finds("place_cue", "found down kapiolani park near the bandstand by police" + LOWER_TAIL) == {"kapiolani park": Category.LOCATION}
    found = unit_finds("place_cue", "found slumped on deck by harbor master at kewalo basin this am" + LOWER_TAIL)
    assert found == {"kewalo basin": Category.LOCATION}
    assert unit_finds("place_cue", "walks in the park, sat at the beach, emesis basin at bedside" + LOWER_TAIL) == {}
    assert unit_finds("place_cue", "went over the side, aspirated bay water" + LOWER_TAIL) == {}


def test_a_town_named_with_city_after_from_is_a_place_and_an_ordinary_city_is_none(unit_finds):
    assert unit_finds("place_cue", "FROM LANAI CITY, LANDSCAPER AT A RESORT. NO EVENTS OVERNIGHT.") == {"LANAI CITY": Category.LOCATION}
    assert unit_finds("place_cue", "MOVED FROM INNER CITY, FROM BIG CITY. NO EVENTS OVERNIGHT.") == {}


def test_where_a_relative_drives_from_or_back_to_is_a_place(unit_finds):
    note = "wife at bedside, drives up from crisfield daily, updated by np" + LOWER_TAIL
    assert unit_finds("place_cue", note) == {"crisfield": Category.LOCATION}
    assert unit_finds("place_cue", "SOCIAL: WIFE AT BEDSIDE, DRIVING BACK TO PRICE TONIGHT. NO EVENTS.") == {"PRICE": Category.LOCATION}
    note = "son driving back to work, dtr heading back to bed, wife going home to sleep, back to camp" + LOWER_TAIL
    assert unit_finds("place_cue", note) == {}
    assert unit_finds("place_cue", "DTR GOING BACK TO LAKE, HUSBAND GOING HOME TO WIFE. NO EVENTS OVERNIGHT.") == {}
    assert unit_finds("place_cue", "ROLLOVER N OF TOWN, FLOWN FROM SCENE. L1 BURST FX.") == {}
    note = "husband went home to check on the horses, son went back to check on the cattle"
    assert unit_finds("place_cue", note + LOWER_TAIL) == {}


def test_where_someone_lives_alone_or_independently_is_a_place(unit_finds):
    note = "pt lives independently in cape charles w/ power chair" + LOWER_TAIL
    assert unit_finds("place_cue", note) == {"cape charles": Category.LOCATION}
    assert unit_finds("place_cue", "PT LIVES BY HERSELF IN CHINCOTEAGUE. NO EVENTS.") == {"CHINCOTEAGUE": Category.LOCATION}
    assert unit_finds("place_cue", "LIVES ALONE IN APT, LIVES INDEPENDENTLY IN SENIOR HOUSING. NO EVENTS.") == {}


def test_a_familys_land_named_by_its_surname_is_a_place(unit_finds):
    found = unit_finds("place_cue", "FOUND DOWN OUT AT THE SORENSEN PLACE BY NEIGHBOR. NO EVENTS.")
    assert found == {"SORENSEN PLACE": Category.LOCATION}
    assert unit_finds("place_cue", "kicked by cow at the yoder farm" + LOWER_TAIL) == {"yoder farm": Category.LOCATION}
    note = "the dairy farm, the family farm, the home place, the old place, the mussel farm, the cattle ranch, the apple orchard"
    assert unit_finds("place_cue", note + LOWER_TAIL) == {}


def test_a_time_after_a_journey_is_no_place_and_a_town_after_a_second_in_is_read(detect):
    assert detect("pt will need to walk on long drives from now on. report called to floor.") == {}
    found = detect("ASKING IF HE CAN RIDE IN RODEO IN BANDERA NEXT MONTH - NO CONTACT SPORTS")
    assert found == {"BANDERA": Category.LOCATION}


def test_a_county_written_short_after_a_place_is_part_of_it(detect):
    assert detect("rattlesnake bite while moving hay at home in menard co, rec'd 6 vials crofab")["menard co"] == Category.LOCATION


def test_a_lake_or_river_named_with_ordinary_words_after_a_pastime_on_water_is_a_place(unit_finds):
    found = unit_finds("place_cue", "found down in her canoe on a float trip on the jacks fork. FELL OFF BOAT WHILE FISHING ON TABLE ROCK LAKE")
    assert found == {"jacks fork": Category.LOCATION, "TABLE ROCK LAKE": Category.LOCATION}
    none = "swimming in the river, fishing on the frozen lake, fishing in his own creek, kayaking on the big lake, boating on the lake"
    assert unit_finds("place_cue", none) == {}


def test_a_mount_or_port_named_with_no_word_is_a_place(unit_finds):
    assert unit_finds("place_cue", "ems -> mount nittany -> here by air." + LOWER_TAIL) == {"mount nittany": Category.LOCATION}
    assert unit_finds("place_cue", "PORT ACCESSED. PORT DEACCESSED. PORT FLUSHING WELL. port heparin locked.") == {}


def test_after_what_people_do_on_land_a_dam_or_ridge_named_with_words_is_a_place(unit_finds, detect):
    found = detect("worst h/a of life while hiking at whipple dam. fell while hunting on bald eagle ridge." + LOWER_TAIL)
    assert found == {"whipple dam": Category.LOCATION, "bald eagle ridge": Category.LOCATION}
    assert unit_finds("place_cue", "hiking in the state park. hunting on the steep ridge." + LOWER_TAIL) == {}


def test_outside_or_upstate_is_no_town_after_a_journey(unit_finds):
    assert unit_finds("place_cue", "flown in from outside hosp. drove in from upstate." + LOWER_TAIL) == {}


def test_twin_before_a_plural_of_land_or_water_begins_a_place(detect):
    found = detect("transfer from twin rivers reg. lives way out past twin buttes. twin sister at bedside." + LOWER_TAIL)
    assert found == {"twin rivers reg": Category.HOSPITAL, "twin buttes": Category.LOCATION}


def test_where_the_patient_is_from_after_the_opening_age_and_sex_is_a_place_even_in_words(unit_finds):
    found = unit_finds("place_cue", "71 yo m from king brought by stokes co ems. 41yo f from welcome, gallstone pancreatitis." + LOWER_TAIL)
    assert found == {"king": Category.LOCATION, "welcome": Category.LOCATION}
    text = "78 YO F FROM HOME W/ SOB. 80 YO M FROM SNF. 66 YO M FROM OSH. 55 yo f from group home. 44 yo m from work, fell."
    assert unit_finds("place_cue", text) == {}


def test_a_town_after_from_near_is_a_place(unit_finds):
    found = unit_finds("place_cue", "PEANUT AND COTTON FARMER FROM NEAR DONALSONVILLE. VENT: AC 380/28")
    assert found == {"DONALSONVILLE": Category.LOCATION}
    assert unit_finds("place_cue", "pt from near home, fell from near top of ladder." + LOWER_TAIL) == {}


def test_where_a_family_comes_from_is_a_place(unit_finds):
    assert unit_finds("place_cue", "FAMILY FROM SAMSON, ASKED ABOUT SWING BED CLOSER TO HOME.") == {"SAMSON": Category.LOCATION}
    none = "family from home at bedside. fam from work came by. family from out of town." + LOWER_TAIL
    assert unit_finds("place_cue", none) == {}


def test_a_town_before_a_preposition_written_short_is_a_place(unit_finds):
    found = unit_finds("place_cue", "54 YO F TRANSFERRED FROM A NURSING HOME IN BONIFAY W/ UROSEPSIS")
    assert found == {"BONIFAY": Category.LOCATION}


def test_a_listed_town_of_three_words_joined_by_a_particle_is_a_place(unit_finds):
    found = unit_finds("place_cue", "daughter came in from ponce de leon today. PT FROM PORT ST. JOE, LIVES ALONE." + LOWER_TAIL)
    assert found == {"ponce de leon": Category.LOCATION, "PORT ST. JOE": Category.LOCATION}
    assert unit_finds("place_cue", "pain in top of head. fell in bed of truck. sent to floor of icu." + LOWER_TAIL) == {}


def test_a_line_moved_from_peripheral_is_no_place(unit_finds):
    assert "PERIPHERAL" not in unit_finds("place_cue", "LEVO MOVED FROM PERIPHERAL TO CENTRAL. MAP 66-70")


def test_a_town_a_particle_opens_or_a_saint_joins_is_a_place(unit_finds):
    found = unit_finds("place_cue", "sister here from au train. found down in sault ste marie. in de novo fashion." + LOWER_TAIL)
    assert found == {"au train": Category.LOCATION, "sault ste marie": Category.LOCATION}


def test_where_a_relative_is_coming_from_is_a_place(unit_finds):
    assert unit_finds("place_cue", "SON COMING FROM EDMUNDSTON THIS EVE.") == {"EDMUNDSTON": Category.LOCATION}
    assert unit_finds("place_cue", "son is coming from edmundston tonight." + LOWER_TAIL) == {"edmundston": Category.LOCATION}
    assert unit_finds("place_cue", "son coming from work. dtr driving from home." + LOWER_TAIL) == {}


def test_a_listed_town_after_a_dwelling_is_a_place(unit_finds):
    found = unit_finds("place_cue", "sleeping in his truck since losing his apartment in berlin." + LOWER_TAIL)
    assert found == {"berlin": Category.LOCATION}
    assert unit_finds("place_cue", "PT'S HOUSE IN DISARRAY PER SON. LIVES IN A TRAILER IN THE WOODS.") == {}


def test_a_town_after_an_age_and_a_trade_is_a_place(unit_finds):
    found = unit_finds("place_cue", "67 y/o m lobsterman from stonington flown in." + LOWER_TAIL)
    assert found == {"stonington": Category.LOCATION}
    assert unit_finds("place_cue", "58 YO RETIRED LOGGER FROM RUMFORD, FELL.") == {"RUMFORD": Category.LOCATION}


def test_a_possessive_before_a_place_word_is_no_town(unit_finds):
    assert unit_finds("place_cue", "up to chair, walked to nurses' station x2 w/ walker." + LOWER_TAIL) == {}


def test_a_town_a_saint_opens_is_a_place_as_the_lists_spell_it(unit_finds):
    found = unit_finds("place_cue", "63 YO F FROM ST MARTINVILLE, TX FROM IBERIA MEDICAL CENTER W/ COVID")
    assert found == {"ST MARTINVILLE": Category.LOCATION}


def test_a_transfer_written_tx_after_a_town_is_no_state(unit_finds):
    found = unit_finds("place_cue", "ON 2L HOME O2, LIVES IN EUNICE, TX FROM SAVOY MEDICAL FOR HYPERCAPNIC RESP FAILURE.")
    assert found == {"EUNICE": Category.LOCATION}
    assert unit_finds("address", "LIVES IN EUNICE, TX FROM SAVOY. Moved from Houston, TX in 2019.") == {"Houston, TX": Category.LOCATION}


def test_where_people_live_out_past_is_a_place_even_of_a_word_that_names_no_place_alone(unit_finds):
    found = unit_finds("place_cue", "car broke down, they live way out past jeanerette, sw consulted." + LOWER_TAIL)
    assert found == {"jeanerette": Category.LOCATION}
    found = unit_finds("place_cue", "gets his meds from the va, lives alone in church point, admitted." + LOWER_TAIL)
    assert found == {"church point": Category.LOCATION}
    assert unit_finds("place_cue", "LIVES ALONE IN CHURCH HOUSING. GOES TO CHURCH IN TOWN.") == {}


def test_a_bayou_named_by_no_word_is_a_place(unit_finds):
    found = unit_finds("place_cue", "38 yo m pulled from bayou teche after his boat capsized." + LOWER_TAIL)
    assert found == {"bayou teche": Category.LOCATION}
    assert unit_finds("place_cue", "fell into the bayou behind house. bayou water aspiration." + LOWER_TAIL) == {}
    assert unit_finds("place_cue", "91 yo F from Bayou Teche Gardens NH, s/p unwitnessed fall.") == {}
    found = unit_finds("place_cue", "pt transferred to us from port alder clinic by boat at 0300." + LOWER_TAIL)
    assert found == {"port alder": Category.LOCATION}


def test_the_town_a_hospital_stands_in_is_a_place_even_where_it_names_a_scale(unit_finds, detect):
    found = detect("FLOWN FROM FRANCES MAHON DEACONESS IN GLASGOW. EBL ~5L")
    assert found == {"FRANCES MAHON DEACONESS": Category.HOSPITAL, "GLASGOW": Category.LOCATION}
    found = unit_finds("place_cue", "transferred from mercy hospital in glasgow w/ pancreatitis." + LOWER_TAIL)
    assert found == {"glasgow": Category.LOCATION}
    assert unit_finds("place_cue", "SEEN AT REGIONAL HOSPITAL IN JUNE FOR CP. GLASGOW 15.") == {}
    assert unit_finds("place_cue", "LAST SEEN AT THE CLINIC IN TOWN.") == {}


def test_a_place_after_a_thing_after_from_is_still_found(unit_finds):
    found = unit_finds("place_cue", "16 yo m from farm north of havre, engulfed in wheat bin." + LOWER_TAIL)
    assert found == {"havre": Category.LOCATION}


def test_a_listed_town_of_two_words_ending_in_a_place_word_is_a_place_after_in(unit_finds):
    found = unit_finds("place_cue", "thrown and stepped on at the rodeo in miles city sat afternoon." + LOWER_TAIL)
    assert found == {"miles city": Category.LOCATION}
    assert unit_finds("place_cue", "FAMILY IN MILES CITY, DRIVING UP") == {"MILES CITY": Category.LOCATION}
    assert unit_finds("place_cue", "walked 2 miles in the city before the fall." + LOWER_TAIL) == {}
    found = unit_finds("place_cue", "sd admit, tx from st. brigid's in laurel fork, ky. cellulitis." + LOWER_TAIL)
    assert found == {"laurel fork, ky": Category.LOCATION}


def test_the_and_a_word_after_a_bare_from_is_a_thing_even_where_a_town_is_so_called(unit_finds):
    assert unit_finds("place_cue", "large family group from the colony (~14) in waiting rm." + LOWER_TAIL) == {}
    assert unit_finds("place_cue", "pt from the dalles, flown in." + LOWER_TAIL) == {"the dalles": Category.LOCATION}
    assert unit_finds("place_cue", "lives in the villages w/ wife." + LOWER_TAIL) == {"the villages": Category.LOCATION}


def test_where_a_plane_or_a_helicopter_brought_the_patient_from_is_a_place(unit_finds):
    found = unit_finds("place_cue", "adm to icu 2215 via fixed wing from jordan, 34 yo m ranch hand." + LOWER_TAIL)
    assert found == {"jordan": Category.LOCATION}
    assert unit_finds("place_cue", "arrived via fixed wing from outside hospital, intubated." + LOWER_TAIL) == {}


def test_the_town_a_shop_or_a_workplace_stands_in_is_a_place(unit_finds):
    found = unit_finds("place_cue", "ran out of insulin bc pharmacy in mercedes closed." + LOWER_TAIL)
    assert found == {"mercedes": Category.LOCATION}
    assert unit_finds("place_cue", "WORKS AT THE PACKING PLANT IN LEXINGTON, WIFE AWARE") == {"LEXINGTON": Category.LOCATION}
    assert unit_finds("place_cue", "works at the store in town." + LOWER_TAIL) == {}
    assert unit_finds("place_cue", "pt transported via service elevator in may." + LOWER_TAIL) == {}


def test_where_a_treatment_was_given_a_town_stands_for_its_hospital(unit_finds):
    found = unit_finds("place_cue", "0500 WHILE FEEDING CATTLE, GIVEN TNK AT VALENTINE THEN FLOWN HERE FOR CATH.")
    assert found == {"VALENTINE": Category.HOSPITAL}
    found = unit_finds("place_cue", "67 yo m inferior stemi tnk given at broken bow 90 min before helo arrived." + LOWER_TAIL)
    assert found == {"broken bow": Category.HOSPITAL}
    assert unit_finds("place_cue", "ABX GIVEN AT BEDSIDE, LINE PLACED AT 1400, PRBC STARTED AT NOON") == {}
    assert unit_finds("place_cue", "cvc r ij placed at osh, 2l lr given prior." + LOWER_TAIL) == {}


def test_a_rare_town_near_the_scene_is_a_place_with_a_clause_running_on(unit_finds):
    found = unit_finds("place_cue", "bitten r hand while moving bales near thedford swelling to mid forearm." + LOWER_TAIL)
    assert found == {"thedford": Category.LOCATION}
    assert unit_finds("place_cue", "NEAR SYNCOPE IN SHOWER, NEAR DROWNING HX. SAT NEAR WINDOW.") == {}


def test_one_ordinary_word_that_names_no_town_is_no_place_where_case_says_nothing(unit_finds):
    assert unit_finds("place_cue", "BP 110/60 POST. PT LIVES 18 MI FROM PAVEMENT, CASE MGR WORKING ON WINTER PLAN") == {}
    assert unit_finds("place_cue", "PT LIVES 40 MI FROM VALENTINE ON RANCH") == {"VALENTINE": Category.LOCATION}


def test_a_famous_town_after_a_facility_in_is_the_town_but_an_everyday_word_is_not(unit_finds):
    text = "pt dialyzes mwf at bluegrass kidney center in paris" + LOWER_TAIL
    assert unit_finds("place_cue", text) == {"paris": Category.LOCATION}
    assert unit_finds("place_cue", "PT TRANSFERRED FROM BLUEGRASS COMMUNITY HOSP IN VERSAILLES.")["VERSAILLES"] is Category.LOCATION
    none = "seen at clinic in general surgery, rehab in progress, dialysis in am, pharmacy in town closed" + LOWER_TAIL
    assert unit_finds("place_cue", none) == {}


def test_a_rare_town_past_which_someone_lives_is_a_place(unit_finds):
    text = "home is 40 min past chama on dirt road, case mgmt discussing" + LOWER_TAIL
    assert unit_finds("place_cue", text) == {"chama": Category.LOCATION}


def test_ordinary_words_before_a_kind_of_place_name_no_town(unit_finds):
    assert unit_finds("place_cue", "STATES PT WAS DRIVING BACK FROM FLEA MARKET. ASKED ABOUT POLICE REPORT.") == {}
    assert unit_finds("place_cue", "lives in twin buttes trailer park w wife" + LOWER_TAIL) == {"twin buttes": Category.LOCATION}


def test_a_pueblo_ends_a_places_name(unit_finds):
    text = "PT WANTS TO GO HOME TO ZUNI PUEBLO AND DECLINES REINTUBATION."
    assert unit_finds("place_cue", text) == {"ZUNI PUEBLO": Category.LOCATION}
