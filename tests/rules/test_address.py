"""Unit ``address``."""

from deid_core.spans import Category
from tests.rules import LOWER_TAIL


def test_street_address_with_city_state_and_zip_is_one_span(detect, unit_finds):
    text = "Lives at 1187 Juniper Hollow Rd, Salem, OR 97301."
    assert "1187 Juniper Hollow Rd, Salem, OR 97301" in unit_finds("address", text)
    assert detect(text) == {"1187 Juniper Hollow Rd, Salem, OR 97301": Category.LOCATION}


def test_po_box_and_room_are_locations(unit_finds):
    assert unit_finds("address", "Mail to PO Box 4412. Pt transferred to Room 5112.") == {
        "PO Box 4412": Category.LOCATION,
        "Room 5112": Category.LOCATION,
    }


def test_credential_after_a_name_is_not_a_state(unit_finds):
    assert unit_finds("address", "Eleanor Whitcombe, MD signed. Dr. Lopez, PA") == {}


def test_county_after_an_article_is_no_county_name(unit_finds):
    assert unit_finds("address", "the County nurse") == {}


def test_switched_off_street_addresses_are_not_detected(detect):
    text = "Mail to PO Box 4412."
    assert detect(text) == {"PO Box 4412": Category.LOCATION}
    assert detect(text, without="address") == {}


def test_a_cell_phone_number_is_no_cell_number(detect):
    assert detect("DTR'S CELL 410 202-6694, CALL IF CHANGES") == {"410 202-6694": Category.PHONE}
    assert detect("Held in Cell 12 overnight.").get("Cell 12") is Category.LOCATION


def test_a_time_and_a_title_are_no_street_and_times_two_is_no_room(unit_finds):
    assert unit_finds("address", "DRAIN PULLED @ 1600 BY DR PELLETIER-NWOSU. CXR NO PTX.") == {}
    assert unit_finds("address", "PT OOB TO CHAIR X2 W/ ASSIST. TOL WELL.") == {}
    assert unit_finds("address", "Lives at 12 Elm Dr, Salem") == {"12 Elm Dr, Salem": Category.LOCATION}


def test_a_chair_at_an_hour_and_a_range_of_vitals_are_no_rooms(unit_finds):
    assert unit_finds("address", "ACTIVITY: OOB TO CHAIR 1300-1500, TOL WELL") == {}
    assert unit_finds("address", "CV: HR 80S-100S, SBP 110S") == {}
    assert unit_finds("address", "infusion CHAIR 12 today") == {"CHAIR 12": Category.LOCATION}
    assert unit_finds("address", "bed moved to 5N-512") == {"5N-512": Category.LOCATION}


def test_hours_in_a_chair_and_a_share_of_a_wound_bed_are_no_rooms(unit_finds):
    assert unit_finds("address", "UP IN CHAIR 2 HRS. wound bed 70% red granulation") == {}
    assert unit_finds("address", "moved to room 12 at 0400") == {"room 12": Category.LOCATION}


def test_a_street_name_holds_no_from_or_with(unit_finds):
    assert unit_finds("address", "74 YO M TRANSFERRED FROM ST. COLMAN'S ED") == {}
    assert unit_finds("address", "Lives at 12 Avenue of the Pines and 55 Main St.") == {"55 Main St.": Category.LOCATION}


def test_a_sex_or_an_ordinary_word_in_capitals_before_a_short_form_is_no_town(unit_finds):
    assert unit_finds("address", "58 YO M, VT STORM, 11 ICD SHOCKS") == {}
    assert unit_finds("address", "RENAL US WITH DOPPLER: GOOD FLOW, RI 0.68") == {}
    # a capitalised town, a listed one, and a town in capitals that is no ordinary word stay places
    assert unit_finds("address", "grandmother in Brazil, IN; moved from Bristol, RI") == {
        "Brazil, IN": Category.LOCATION,
        "Bristol, RI": Category.LOCATION,
    }


def test_a_run_of_a_rhythm_is_no_street(unit_finds):
    assert unit_finds("address", "CV: SR 60'S-70'S, 4 BEAT RUN NSVT @ 0312. 30 SEC RUN AFIB @ 0115") == {}
    assert unit_finds("address", "lives at 12 Mill Run") == {"12 Mill Run": Category.LOCATION}


def test_a_device_before_a_clinical_short_form_is_no_town_and_state(unit_finds):
    assert unit_finds("address", "SCDS RLE ONLY, L LEG IN IMMOBILIZER, NV CHECKS OK.") == {}


def test_a_post_operative_day_after_a_unit_a_count_of_chair_sits_and_a_house_numbered_0_are_no_addresses(unit_finds):
    assert unit_finds("address", "SICU POD 1 Whipple procedure. Epidural in place.") == {}
    assert unit_finds("address", "ADVANCED TO LOW FAT DIET. OOB TO CHAIR 3X. DAUGHTER VISITED.") == {}
    assert unit_finds("address", "CSRU POD 0 CABG x4. AV paced at 90 via epicardial wires.") == {}
    assert unit_finds("address", "moved to Pod 3 bed 4 overnight") == {"Pod 3 bed 4": Category.LOCATION}


def test_a_street_typed_where_case_says_nothing_after_on_or_off(unit_finds):
    assert unit_finds("address", "shot outside his cousins house on maple st, hypotensive in bay" + LOWER_TAIL) == {
        "maple st": Category.LOCATION
    }
    assert unit_finds("address", "LIVES OFF ELM STREET WITH WIFE.") == {"ELM STREET": Category.LOCATION}
    # a drip, a rhythm or a way is no street
    assert unit_finds("address", "hr 110s on neo st, on his way to ct" + LOWER_TAIL) == {}


def test_the_head_of_the_bed_and_a_chest_tube_size_are_no_addresses(unit_finds):
    assert unit_finds("address", "LACTATE 5.1 -> 3.2. HEAD OF BED 30. NGT NOT TO BE PLACED BLINDLY.") == {}
    assert unit_finds("address", "L PTX (28 FR CT PLACED IN TRAUMA BAY), GRADE III SPLENIC LAC") == {}


def test_a_numbered_street_after_a_home_cue_in_any_case_takes_its_town(unit_finds):
    note = "out of bed, precedex started. lives at 18 pleasant st apt 2, malden alone per ems" + LOWER_TAIL
    assert unit_finds("address", note) == {"18 pleasant st apt 2, malden": Category.LOCATION}
    assert unit_finds("address", "SON TO PICK UP RX. LIVES W/ SON AT 44 HAWTHORNE ST, LYNN.") == {"44 HAWTHORNE ST, LYNN": Category.LOCATION}
    assert unit_finds("address", "gave 20 mg iv st now, lives at home" + LOWER_TAIL) == {}


def test_a_caseless_street_takes_its_town_and_after_at_needs_a_home(unit_finds):
    assert unit_finds("address", "pedestrian struck on main st, wareham, pelvic fx" + LOWER_TAIL) == {"main st, wareham": Category.LOCATION}
    assert unit_finds("address", "THEY LIVE AT WARREN AVE, BROCKTON.") == {"WARREN AVE, BROCKTON": Category.LOCATION}
    assert unit_finds("address", "fall down stairs at home (14 quarry rd) found by neighbor" + LOWER_TAIL) == {"14 quarry rd": Category.LOCATION}
    assert unit_finds("address", "PT WAS FOUND AT 118 LINDEN ST, QUINCY, DOWN UNKNOWN DURATION.") == {"118 LINDEN ST, QUINCY": Category.LOCATION}
    assert unit_finds("address", "MEETING AT FRONT ST DESK" + LOWER_TAIL.upper()) == {}


def test_a_street_name_does_not_reach_back_across_a_full_stop(unit_finds):
    assert unit_finds("address", "HGB 8.9 -> 1 U PRBC. CT -20 SXN, 180 ML SEROSANG.") == {}
    assert unit_finds("address", "A-PACED 90 VIA EPICARDIAL WIRES. CT OUTPUT 120 ML.") == {}


def test_a_town_typed_in_capitals_after_a_street_joins_the_address(unit_finds):
    text = "HOME ADDRESS UPDATED IN CHART PER PT: 27 TANNERY LN, MILLBURY. PT A&OX4, SITTING UP, WATCHING TV."
    assert unit_finds("address", text) == {"27 TANNERY LN, MILLBURY": Category.LOCATION}


def test_a_word_ending_in_a_state_code_is_no_city_and_state(unit_finds):
    text = "PT LIVES AT 14 OAK ST, ALONE. FAMILY NEARBY, WILL VISIT TOMORROW."
    assert unit_finds("address", text) == {"14 OAK ST": Category.LOCATION}


def test_a_dose_in_units_given_subcutaneously_is_no_street(unit_finds):
    assert unit_finds("address", "TRANSITIONED TO LANTUS 22 U SQ + HUMALOG SS AT 0700.") == {}


def test_back_to_bed_at_a_clock_time_is_no_bed_number(unit_finds):
    assert unit_finds("address", "OOB TO CHAIR X2 HRS, BACK TO BED 1500.") == {}
    assert unit_finds("address", "moved to bed 14 on 6e") == {"bed 14": Category.LOCATION}


def test_a_numbered_street_is_a_street_in_any_case(unit_finds):
    assert unit_finds("address", "found down on w 51st st near the bus stop") == {"w 51st st": Category.LOCATION}
    assert unit_finds("address", "LIVES OFF 9TH AVE W/ SISTER") == {"9TH AVE": Category.LOCATION}
    assert unit_finds("address", "on 2nd rd of abx, on 3rd day of vanc") == {}


def test_a_cell_number_of_seven_digits_is_a_telephone_not_a_cell(detect):
    assert detect("DAD UPDATED VIA CELL 555-0163, WILL CALL BACK.") == {"555-0163": Category.PHONE}


def test_what_a_road_is_made_of_is_no_street_name(unit_finds):
    assert unit_finds("address", "fell off a moving truck on gravel rd, + loc" + LOWER_TAIL) == {}
    assert unit_finds("address", "struck while walking on maple st" + LOWER_TAIL) == {"maple st": Category.LOCATION}


def test_an_ordinary_word_and_a_state_short_form_inside_a_sentence_are_no_town(unit_finds):
    assert unit_finds("address", "TEG: R NORMAL, MA LOW -> PLT 1 U.") == {}
    assert unit_finds("address", "LIVES IN SALEM, MA WITH WIFE") == {"SALEM, MA": Category.LOCATION}


def test_a_county_typed_where_case_says_nothing_is_a_location_unless_an_ordinary_word_names_it(unit_finds):
    assert unit_finds("address", "DUNHAM COUNTY DEPUTY HERE 2300 FOR BLOOD ALCOHOL KIT.") == {"DUNHAM COUNTY": Category.LOCATION}
    note = "admitted from wrmc in ravenna county by helicopter" + LOWER_TAIL
    assert unit_finds("address", note) == {"ravenna county": Category.LOCATION}
    assert unit_finds("address", "BROUGHT BY COUNTY DEPUTY FROM SAME COUNTY, HOME COUNTY, THIS PARISH.") == {}
    text = "CHICKASAW BLUFF COUNTY E-911 COMMUNICATIONS. DEPUTY FROM DUNHAM COUNTY."
    assert unit_finds("address", text) == {"CHICKASAW BLUFF COUNTY": Category.LOCATION, "DUNHAM COUNTY": Category.LOCATION}


def test_old_or_new_before_a_streets_own_name_is_part_of_it(unit_finds):
    text = "SOCIAL: PT LIVES ALONE IN TRAILER OFF OLD MILL RD, NEIGHBOR FOUND HIM DOWN."
    assert unit_finds("address", text) == {"OLD MILL RD": Category.LOCATION}
    assert unit_finds("address", "FELL ON OLD RD. WALKED ON NEW ST.") == {}


def test_a_town_of_two_words_after_a_street_typed_in_capitals_is_part_of_the_address(unit_finds):
    text = "LIVES AT 22 TANNERY LN, MILLBURY FALLS W/ SON."
    assert unit_finds("address", text) == {"22 TANNERY LN, MILLBURY FALLS": Category.LOCATION}
    assert unit_finds("address", "LIVES AT 27 TANNERY LN, MILLBURY. WIFE HERE.") == {"27 TANNERY LN, MILLBURY": Category.LOCATION}


def test_a_numbered_road_typed_in_one_case_is_a_location(unit_finds):
    text = "SNOWMOBILE VS FENCE ON CO RD 12, NO HELMET. MVC ON HWY 112 ROLLOVER."
    assert unit_finds("address", text) == {"CO RD 12": Category.LOCATION, "HWY 112": Category.LOCATION}
    assert unit_finds("address", "rollover on hwy 61 near the bridge" + LOWER_TAIL) == {"hwy 61": Category.LOCATION}
    assert unit_finds("address", "iv route 2 sites. ROUTE: PO. CO2 40. SR 70S. CR 1.2." + LOWER_TAIL) == {}


def test_a_clinical_word_before_tx_or_nh_is_no_town(unit_finds):
    assert unit_finds("address", "84F ASP PNA, NH RESIDENT. PLAN: CONT POTASSIUM REPLETION, TX TO FLOOR.") == {}
    assert unit_finds("address", "Seen in Houston, TX and Keene, NH last year.") == {
        "Houston, TX": Category.LOCATION,
        "Keene, NH": Category.LOCATION,
    }


def test_a_road_known_by_its_number_after_a_preposition_of_place_is_a_location(unit_finds):
    assert unit_finds("address", "SOCIAL: LIVES ON A DAIRY OFF RD 144, WIFE AT BEDSIDE.") == {"RD 144": Category.LOCATION}
    note = "atv rollover at ave 9 and rd 31, helmeted" + LOWER_TAIL
    assert unit_finds("address", note) == {"ave 9 and rd 31": Category.LOCATION}
    assert unit_finds("address", "FOUND IN DITCH AT CR 7 AND K. INTUBATED IN FIELD.") == {"CR 7 AND K": Category.LOCATION}
    assert unit_finds("address", "CR 2.1 TODAY, ON CR 1.9 YESTERDAY. RD CONSULT 2 PM.") == {}


def test_a_route_written_rt_with_its_number_is_a_road_unless_a_unit_follows(unit_finds):
    assert unit_finds("address", "PER POLICE, CAR VS LOG TRUCK ON RT 13 S OF TOWN.") == {"RT 13": Category.LOCATION}
    note = "chainsaw injury at the sawmill on rt 50, tourniquet placed by ems" + LOWER_TAIL
    assert unit_finds("address", note) == {"rt 50": Category.LOCATION}
    assert unit_finds("address", "PT ON RT 2L NC, ON RT 40%, PLACED ON RT 3 LPM. PAIN ON RT 2ND FINGER.") == {}


def test_a_highway_named_by_a_word_is_a_road_in_any_case(unit_finds):
    note = "fall from hotel balcony off coastal hwy, etoh 280" + LOWER_TAIL
    assert unit_finds("address", note) == {"coastal hwy": Category.LOCATION}
    assert unit_finds("address", "MVC on Coastal Hwy, restrained driver.") == {"Coastal Hwy": Category.LOCATION}
    note = "on cardiopulmonary bypass 90 min, found on the highway by ems" + LOWER_TAIL
    assert unit_finds("address", note) == {}


def test_a_clock_time_after_where_the_patient_sat_or_lay_is_no_bed(unit_finds):
    assert unit_finds("address", "FOUND SITTING ON EDGE OF BED 0215, NO FALL. OUT OF BED 1400 TO CHAIR.") == {}
    assert unit_finds("address", "MOVED TO BED 14 AFTER CLEANING.") == {"BED 14": Category.LOCATION}


def test_a_less_common_word_before_a_state_short_form_that_is_also_a_word_is_no_town(unit_finds):
    assert unit_finds("address", "L TIBIA IN TRACTION, OR IN AM FOR IMN. CONT NPO.") == {}
    assert unit_finds("address", "RETIRED, LIVES IN BEND, OR WITH WIFE.") == {"BEND, OR": Category.LOCATION}


def test_a_rural_routes_box_is_an_address_in_any_case(unit_finds):
    assert unit_finds("address", "LIVES AT RR 1 BOX 22A") == {"RR 1 BOX 22A": Category.LOCATION}
    assert unit_finds("address", "lives at hc 63 box 10 up the holler") == {"hc 63 box 10": Category.LOCATION}


def test_a_us_highway_by_its_number_after_a_preposition_of_place_is_a_place_but_a_frequency_is_not(unit_finds):
    assert unit_finds("address", "motorcycle vs deer on us 80 at dusk") == {"us 80": Category.LOCATION}
    assert unit_finds("address", "PT ON US 2X DAILY") == {}


def test_a_street_after_address_or_address_on_file_is_an_address_in_any_case(unit_finds):
    note = "txf overnight w sepsis, home address on file 94-1120 lumiauau st, levo 0.08" + LOWER_TAIL
    assert unit_finds("address", note) == {"94-1120 lumiauau st": Category.LOCATION}
    note = "checked address 3 times on the armband, ambulated 20 ft to the chair" + LOWER_TAIL
    assert unit_finds("address", note) == {}


def test_a_street_grid_address_is_an_address_and_two_readings_with_compass_letters_are_none(unit_finds):
    note = "HOME ADDRESS CORRECTED TO 1187 W 400 S, VERNAL UT, HOME PH ON FILE."
    assert unit_finds("address", note) == {"1187 W 400 S, VERNAL UT": Category.LOCATION}
    assert unit_finds("address", "bp 120 s 80 e, then 95 w 60 n" + LOWER_TAIL) == {}


def test_a_hyphened_clinical_word_before_a_state_short_form_is_no_town(unit_finds):
    assert unit_finds("address", "ED BOARDING. PT IN C-COLLAR, CT NEG, COLLAR REMAINS PER TRAUMA.") == {}


def test_a_road_number_at_the_end_of_a_sentence_and_a_lettered_highway_are_roads(unit_finds):
    found = unit_finds("address", "FOUND AT TRAILER ON COUNTY ROAD 412. ROLLOVER ON HWY 19. LIVES OFF HWY KK, WOOD STOVE.")
    assert found == {"COUNTY ROAD 412": Category.LOCATION, "HWY 19": Category.LOCATION, "HWY KK": Category.LOCATION}
    assert unit_finds("address", "ROLLOVER ON HWY N OF TOWN. WALKING ON HWY AT NIGHT. MEDS ON ROUTE PO, ON ROUTE IV.") == {}


def test_texas_farm_to_market_roads_state_highways_and_interstates_are_roads(unit_finds):
    found = unit_finds("address", "atv rollover on own ranch off fm 1431, mvc on i-10 near town. ROLLOVER ON IH 35. LIVES OFF RANCH RD 337.")
    assert found == {"fm 1431": Category.LOCATION, "i-10": Category.LOCATION, "IH 35": Category.LOCATION, "RANCH RD 337": Category.LOCATION}


def test_a_road_named_for_what_it_serves_is_no_street(unit_finds):
    assert unit_finds("address", "OIL FIELD WORKER FOUND CONFUSED ON LEASE ROAD BY COWORKER, on caliche road to the tank") == {}
    assert unit_finds("address", "i-stat 7.3 on arrival, sh 2 episodes") == {}


def test_a_route_with_a_letter_is_a_road_and_a_seasonal_road_is_none(unit_finds):
    assert unit_finds("address", "lives on seasonal road off rt 17c and could not get out. on rt 2l nc.") == {"rt 17c": Category.LOCATION}


def test_how_long_a_patient_sat_up_is_no_chair_number(unit_finds):
    assert unit_finds("address", "PT UP TO CHAIR 2H, TOL. MOVED TO CHAIR 12.") == {"CHAIR 12": Category.LOCATION}


def test_numbered_public_hunting_land_is_a_place(unit_finds):
    assert unit_finds("address", "ATV ROLLOVER ON STATE GAME LANDS 176, FOUND BY HUNTERS") == {"STATE GAME LANDS 176": Category.LOCATION}
    assert unit_finds("address", "found by hunting buddy on sgl 84, ems to local hosp") == {"sgl 84": Category.LOCATION}


def test_a_coma_scale_written_as_one_word_is_no_postcode(unit_finds):
    assert unit_finds("address", "NEURO: GCS E3V4M6. R FACIAL DROOP") == {}
    assert unit_finds("address", "Moncton, NB E1C 4M6") != {}


def test_a_state_trunkline_after_a_preposition_is_a_road(unit_finds):
    assert unit_finds("address", "RESTRAINED DRIVER CAR VS DEER ON M-28, VEHICLE IN DITCH") == {"M-28": Category.LOCATION}


def test_a_number_that_opens_a_staff_ratio_is_no_room(unit_finds):
    assert unit_finds("address", "LBM 4/30. UP IN CHAIR 2/1 ASSIST. SITTER BED 1:1.") == {}
    assert unit_finds("address", "MOVED TO CHAIR 4 BY WINDOW.") == {"CHAIR 4": Category.LOCATION}


def test_a_parish_whose_is_the_patients_is_no_place(unit_finds):
    assert unit_finds("address", "FR GUIDRY FROM PT'S PARISH VISITED, PRAYED W/ PT.") == {}
    assert unit_finds("address", "LIVES IN ACADIA PARISH, ALONE.") == {"ACADIA PARISH": Category.LOCATION}


def test_hours_after_a_treatment_before_a_scan_are_no_street(unit_finds):
    assert unit_finds("address", "24H POST TNK CT: NO HEMORRHAGE. ASA 81 STARTED, STATIN.") == {}


def test_a_bed_by_letter_or_by_floor_and_wing_belongs_to_the_room(unit_finds):
    assert unit_finds("address", "TRANSFER TO SURG FLOOR, BED ASSIGNED RM 512 BED B.") == {"RM 512 BED B": Category.LOCATION}
    found = unit_finds("address", "plan transfer to surgical floor bed 4 west 12 when available")
    assert found == {"bed 4 west 12": Category.LOCATION}
    assert unit_finds("address", "BED 12 A NEW ADMIT") == {"BED 12": Category.LOCATION}


def test_an_expressway_or_freeway_by_number_is_a_road(unit_finds):
    found = unit_finds("address", "PT STATES HE WAS DRIVING HIS TRUCK ON EXPRESSWAY 83 WHEN CP STARTED.")
    assert found == {"EXPRESSWAY 83": Category.LOCATION}
    assert unit_finds("address", "mvc on freeway 99, restrained driver") == {"freeway 99": Category.LOCATION}


def test_a_numbered_street_holds_no_function_word(unit_finds):
    assert unit_finds("address", "R IJ TUNNELED, DIALYSIS RN TO START @ 2300 PER NEPHRO DR PEÑA. PT REPORTS NO RIDE") == {}
    assert unit_finds("address", "LIVES AT 14 RIO GRANDE ST, ALONE") == {"14 RIO GRANDE ST": Category.LOCATION}


def test_a_drive_named_by_names_is_a_street_where_case_says_nothing(unit_finds):
    assert unit_finds("address", "LIVES ON LOMA DR. WIFE AT BS") == {"LOMA DR.": Category.LOCATION}
    assert unit_finds("address", "pt on call dr in to see pt, aware of labs" + LOWER_TAIL) == {}
    assert unit_finds("address", "went for a long drive with son on sunday" + LOWER_TAIL) == {}


def test_a_lettered_or_numbered_avenue_with_its_house_number_is_a_street(unit_finds):
    assert unit_finds("address", "dc planning home to 409 s ave b w/ husband") == {"409 s ave b": Category.LOCATION}
    assert unit_finds("address", "LIVES AT 1204 AVENUE J, ALONE") == {"1204 AVENUE J": Category.LOCATION}


def test_a_county_written_short_is_a_place_only_when_a_county_bears_that_name(unit_finds):
    text = "HORSE TRAINER AT MEADOWVIEW STABLES IN WOODFORD CO, FROM ST. CLAIR CO BEFORE THAT."
    assert unit_finds("address", text) == {"WOODFORD CO": Category.LOCATION, "ST. CLAIR CO": Category.LOCATION}
    assert unit_finds("address", "moved from san juan co. last year" + LOWER_TAIL) == {"san juan co.": Category.LOCATION}
    assert unit_finds("address", "PA CATH: CI 2.1, CO 4.5, FICK CO 4.9. CHECK CO IN AM. CO-PAY ISSUE.") == {}
