"""Unit ``facility``."""

from deid_core.spans import Category
from tests.rules import LOWER_TAIL


def test_name_with_a_facility_type_word_is_a_hospital(unit_finds):
    assert unit_finds("facility", "Transferred from Mercy General Hospital yesterday.") == {
        "Mercy General Hospital": Category.HOSPITAL
    }


def test_short_form_after_presented_to_is_a_hospital(unit_finds):
    assert unit_finds("facility", "presented to HRMC with chest pain") == {"HRMC": Category.HOSPITAL}


def test_specialty_or_service_is_no_facility(unit_finds):
    assert unit_finds("facility", "Plastic Surgery consulted. Cardiology Clinic follow up.") == {}


def test_clinical_unit_and_saint_named_herb_are_no_facility(unit_finds):
    assert unit_finds("facility", "TRANSFER TO MICU. St. John's wort daily.") == {}


def test_switched_off_facility_names_are_not_detected(detect):
    text = "Transferred from Mercy General Hospital yesterday."
    assert detect(text) == {"Mercy General Hospital": Category.HOSPITAL}
    assert detect(text, without="facility") == {}


def test_a_facility_name_starts_after_the_clause_before_it_in_any_case(unit_finds):
    assert unit_finds("facility", "DISPO: SCREENED BY CEDAR KNOLL REHAB, BED POSSIBLE") == {"CEDAR KNOLL REHAB": Category.HOSPITAL}
    assert unit_finds("facility", "SOCIAL: SW MET W/ WIFE, PT LIKELY TO REHAB.") == {}


def test_a_long_term_acute_care_hospital_is_named_by_the_word_before_it_in_any_case(unit_finds):
    assert unit_finds("facility", "family prefers meadowbrook ltac because it is closer") == {"meadowbrook ltac": Category.HOSPITAL}
    assert unit_finds("facility", "DISPO: NORTHGATE LTACH VS SNF") == {"NORTHGATE LTACH": Category.HOSPITAL}
    assert unit_finds("facility", "awaiting ltach bed") == {}


def test_a_facility_typed_in_lowercase_after_a_cue_is_found_but_a_service_is_not(unit_finds):
    assert unit_finds("facility", "76 yo f s/p fall at fairhaven rehab where she was recovering") == {"fairhaven rehab": Category.HOSPITAL}
    assert unit_finds("facility", "pt ordinarily dialyzes mwf at sandpiper dialysis, missed 2 sessions") == {"sandpiper dialysis": Category.HOSPITAL}
    assert unit_finds("facility", "intubated. transferred from lakeside community hosp earlier today") == {"lakeside community hosp": Category.HOSPITAL}
    assert unit_finds("facility", "pt to pulmonary rehab in am, then back to acute rehab; dialyzes at outpatient dialysis") == {}


def test_hosp_is_a_facility_type_and_gi_is_a_weak_one(unit_finds):
    assert unit_finds("facility", "PT ADMITTED FROM BEVERLY HOSP W/ VT STORM") == {"BEVERLY HOSP": Category.HOSPITAL}
    assert unit_finds("facility", "MICU NPN\nUpper GI bleed, EtOH cirrhosis. Hct 19") == {}


def test_a_named_dialysis_unit_hospice_or_urgent_care_is_a_facility_but_dialysis_itself_is_not(unit_finds):
    assert unit_finds("facility", "ESRD ON HD MWF @ NORTHGATE DIALYSIS, ADMITTED. NEEDS DIALYSIS TODAY.") == {"NORTHGATE DIALYSIS": Category.HOSPITAL}
    assert unit_finds("facility", "l leg dvt on us, sent over from cedar hill urgent care") == {"cedar hill urgent care": Category.HOSPITAL}
    assert unit_finds("facility", "hospice agency lotus blossom hospice to do eval") == {"lotus blossom hospice": Category.HOSPITAL}
    assert unit_finds("facility", "going home w home hospice; Peritoneal Dialysis at home; to the hospital") == {}


def test_a_unit_or_a_service_shortened_as_icu_notes_write_it_is_no_facility(unit_finds):
    assert unit_finds("facility", "JP DRAIN BILI 2.4, TXP SURGERY AWARE, NO CHANGE") == {}
    assert unit_finds("facility", "PLAN: TRANSFER BACK TO BMT FLOOR IN 24H") == {}
    assert unit_finds("facility", "d/c home, anticoag clinic f/u set") == {}
    assert unit_finds("facility", "DISPO: SCREENED BY CEDAR KNOLL REHAB, BED POSSIBLE") == {"CEDAR KNOLL REHAB": Category.HOSPITAL}


def test_clinical_words_among_ordinary_ones_before_a_type_word_in_capitals_are_no_facility(unit_finds):
    assert unit_finds("facility", "FAMILY ASKING ABOUT SPINAL CORD REHAB, CM WORKING ON REFERRALS.") == {}
    assert unit_finds("facility", "PSYCH: PTSD SCREEN +, BURN SW AND PSYCHIATRY C/S.") == {}
    assert unit_finds("facility", "SW TO FOLLOW UP RE: AA AND OUTPT PROGRAM.") == {}
    # a place's name in capitals is still one
    assert unit_finds("facility", "TRANSFERRED FROM SPRING VALLEY HOSPITAL.") == {"SPRING VALLEY HOSPITAL": Category.HOSPITAL}


def test_a_saints_name_in_capitals_and_a_home_with_its_kind_after_it_are_facilities(unit_finds):
    assert unit_finds("facility", "74 YO M TRANSFERRED FROM ST. COLMAN'S ED W/ SSCP") == {"ST. COLMAN'S": Category.HOSPITAL}
    assert unit_finds("facility", "63 y/o f from kessling manor nh w fever") == {"kessling manor nh": Category.HOSPITAL}
    assert unit_finds("facility", "f/u w/ pcp at esperanza chc next wk") == {"esperanza chc": Category.HOSPITAL}
    assert unit_finds("facility", "GAVE ST. JOHN'S WORT AT HS") == {}


def test_a_saint_no_list_holds_after_a_place_preposition_is_a_facility_but_st_johns_wort_is_not(unit_finds):
    assert unit_finds("facility", "noncompliant w/ lamictal transfered from st eligius in status") == {"st eligius": Category.HOSPITAL}
    assert unit_finds("facility", "pt on st johns wort at home") == {}


def test_our_lady_of_a_place_is_a_facility_in_any_case_but_not_before_a_church(unit_finds, detect):
    assert unit_finds("facility", "transferred from our lady of the vale w/ pre-eclampsia") == {"our lady of the vale": Category.HOSPITAL}
    assert detect("TRANSFERRED FROM OUR LADY OF MERCY MEDICAL CENTER") == {"OUR LADY OF MERCY MEDICAL CENTER": Category.HOSPITAL}
    assert unit_finds("facility", "family attends our lady of grace church") == {}


def test_a_hospital_shaped_short_form_after_a_transfer_is_a_facility(unit_finds):
    assert unit_finds("facility", "transfered from smh w tbi sdh 6mm no shift" + LOWER_TAIL) == {"smh": Category.HOSPITAL}
    assert unit_finds("facility", "PT ADMITTED FROM GH ED AT 2200 S/P FALL AT HOME.") == {"GH": Category.HOSPITAL}
    # the outside hospital, mental health, and a frequent word are no facility's name
    assert unit_finds("facility", "transferred from osh, referred to MH, sent from oh" + LOWER_TAIL) == {}


def test_a_hospital_shaped_short_form_where_dialysis_or_the_pcp_is_a_facility_but_the_bedside_is_not(unit_finds):
    assert unit_finds("facility", "gets hd at kvh tues/thurs/sat normally" + LOWER_TAIL) == {"kvh": Category.HOSPITAL}
    assert unit_finds("facility", "PCP AT NWH AWARE OF ADMISSION") == {"NWH": Category.HOSPITAL}
    assert unit_finds("facility", "FAMILY REQUESTING TX TO SLMC, ATTENDING TO DISCUSS") == {"SLMC": Category.HOSPITAL}
    assert unit_finds("facility", "hd at bedside tonight, pcp at home visit" + LOWER_TAIL) == {}


def test_two_words_before_assisted_living_name_a_home(unit_finds):
    note = "stepdown adm - 91 yo f from willow crest assisted living w/ cough x3d"
    assert unit_finds("facility", note) == {"willow crest assisted living": Category.HOSPITAL}


def test_a_lower_case_nursing_and_rehab_is_a_facility(unit_finds):
    note = "micu nsg 7p-7a 89 yo f from alder brook nursing and rehab w rll pna"
    assert unit_finds("facility", note) == {"alder brook nursing and rehab": Category.HOSPITAL}


def test_in_capitals_rehab_after_one_everyday_word_or_a_service_short_form_is_no_facility(unit_finds):
    assert unit_finds("facility", "DISPO TBD, LIKELY REHAB.") == {}
    assert unit_finds("facility", "HF CLINIC F/U NEXT WEEK. SCALE ORDERED.") == {}
    assert unit_finds("facility", "D/C TO HARROWGATE REHAB TOMORROW.") == {"HARROWGATE REHAB": Category.HOSPITAL}


def test_a_frequent_word_heads_a_lowercase_facility_with_a_second_word_and_short_type_words(unit_finds):
    assert unit_finds("facility", "tearing cp, transferred from cape ann hosp ed by ground" + LOWER_TAIL) == {"cape ann hosp": Category.HOSPITAL}
    assert unit_finds("facility", "csru type a dissection flown from cape harbor medical ctr" + LOWER_TAIL) == {
        "cape harbor medical ctr": Category.HOSPITAL
    }
    assert unit_finds("facility", "flown from quabbin regional ed, intubated there" + LOWER_TAIL) == {"quabbin regional": Category.HOSPITAL}
    # one frequent word before a type is still no facility
    assert unit_finds("facility", "seen at local hosp ed" + LOWER_TAIL) == {}


def test_a_regional_hospital_named_by_its_place_in_any_case(detect):
    assert detect("UNRESTRAINED DRIVER, TRANSFER FROM PELL VALLEY REGIONAL. INJURIES: L RIB FX") == {
        "PELL VALLEY REGIONAL": Category.HOSPITAL
    }
    assert detect("Employer: Great Basin Regional Transit Authority") == {"Great Basin Regional Transit Authority": Category.OTHER}  # an employer


def test_a_specialty_clinic_is_a_service_in_any_case(unit_finds):
    assert unit_finds("facility", "F/U IN EPILEPSY CLINIC NEXT WEEK.") == {}
    assert unit_finds("facility", "neuro f/u 3/18 in epilepsy clinic" + LOWER_TAIL) == {}


def test_a_facility_name_does_not_reach_back_across_a_full_stop(unit_finds):
    assert unit_finds("facility", "VOIDED X2. AWAITING BED. LAB CALLED, AM COAGS TUBE MISLABELED.") == {}
    assert unit_finds("facility", "HALDOL 2 MG X1. BLOOD BANK CALLED RE: T&S LABEL.") == {}


def test_a_lowercase_facility_after_two_prepositions_or_a_direction(unit_finds):
    assert unit_finds("facility", "neuro icu pt came in from winchester hosp w l basal ganglia ich" + LOWER_TAIL) == {
        "winchester hosp": Category.HOSPITAL
    }
    assert unit_finds("facility", "pt and wife want transfer back to south shore hosp to be near home" + LOWER_TAIL) == {
        "south shore hosp": Category.HOSPITAL
    }
    assert unit_finds("facility", "transferred from small rural hosp" + LOWER_TAIL) == {}


def test_in_capitals_w_is_with_and_starts_no_facility_name(unit_finds):
    assert unit_finds("facility", "REFERRAL SENT. BACKUP HOME W VNA.") == {}
    assert unit_finds("facility", "MRN VERIFIED W BLOOD BANK FOR EACH UNIT.") == {}


def test_a_type_word_before_a_line_names_a_catheter(unit_finds):
    assert unit_finds("facility", "PLEX #2 VIA R IJ TEMP DIALYSIS CATH. NEURO RESIDENT PAGED.") == {}


def test_a_care_home_named_before_its_type_in_brackets_is_a_facility_in_any_case(unit_finds):
    assert unit_finds("facility", "92 yo f urosepsis from linden court (alf). a&o x1" + LOWER_TAIL) == {"linden court": Category.HOSPITAL}
    assert unit_finds("facility", "RESIDENT OF THE PINES (SNF) SINCE 2019.") == {"PINES": Category.HOSPITAL}
    assert unit_finds("facility", "back to her facility (snf) when stable" + LOWER_TAIL) == {}
    assert unit_finds("facility", "LIVES AT HOME (ALF) WITH SUPPORT.") == {}


def test_a_word_english_hardly_uses_where_a_disposition_sends_the_patient_is_a_facility(unit_finds):
    assert unit_finds("facility", "cm sent referral to youville and one other" + LOWER_TAIL) == {"youville": Category.HOSPITAL}
    assert unit_finds("facility", "REFERRAL TO HOSPICE MADE. TRANSFERRED TO MICU.") == {}
    assert unit_finds("facility", "discharged to home with vna, admitted to tele" + LOWER_TAIL) == {}
    assert unit_finds("facility", "Referred to Dari-speaking counselor.") == {}
    # a unit or a service is where a patient goes too, but names no facility
    assert unit_finds("facility", "transferred from nsicu, referred to nephro and neuroradiology" + LOWER_TAIL) == {}


def test_a_saint_written_out_or_with_its_full_stop_where_a_patient_comes_from_is_a_facility(unit_finds):
    assert unit_finds("facility", "PT TRANSFERRED FROM ST. ELSEWHERE ON 10/29 W/ NSTEMI.") == {"ST. ELSEWHERE": Category.HOSPITAL}
    assert unit_finds("facility", "back to saint anselm when stable" + LOWER_TAIL) == {"saint anselm": Category.HOSPITAL}
    assert unit_finds("facility", "hr converted from st to nsr" + LOWER_TAIL) == {}


def test_in_capitals_for_opens_a_clause_before_a_type_word(unit_finds):
    assert unit_finds("facility", "PLAN: SCREEN FOR REHAB, CONT TRACH CARE.") == {}
    assert unit_finds("facility", "Referred to Center for Sight Hospital today.") == {"Center for Sight Hospital": Category.HOSPITAL}


def test_in_capitals_a_verb_in_ing_before_a_type_word_names_no_facility(unit_finds):
    assert unit_finds("facility", "NEURO: A+OX3, SLEEPING IN NAPS. MR WARD REFUSING AM LABS @ 0400, STATES LET ME SLEEP.") == {}
    assert unit_finds("facility", "Transferred from Flushing Hospital today.") == {"Flushing Hospital": Category.HOSPITAL}


def test_the_outside_hospital_in_brackets_and_a_home_after_its_type_and_a_dash_are_facilities(detect):
    assert detect("PT ADM FROM OSH (MCH) FOR NSTEMI + GI BLEED. HGB 6.6")["MCH"] is Category.HOSPITAL
    assert detect("DISPO: LTACH - GRAYSON POINT ACCEPTED, BED AVAILABLE FRI.") == {"GRAYSON POINT": Category.HOSPITAL}
    assert detect("came from osh (ED) after fall, transferred for higher level of care" + LOWER_TAIL) == {}


def test_a_dialysis_schedule_in_brackets_is_no_short_form_of_the_unit(detect):
    assert detect("PT GOES TO RIVERMEAD DIALYSIS (MWF), MISSED HD FRI.") == {"RIVERMEAD DIALYSIS": Category.HOSPITAL}


def test_a_town_before_er_or_ed_where_the_patient_comes_from_is_its_hospital(detect):
    assert detect("pt came in from athol er w/ stroke sx, lkw 1900" + LOWER_TAIL)["athol"] is Category.HOSPITAL
    assert detect("PT SENT FROM FRAMINGHAM ED AFTER FALL.")["FRAMINGHAM"] is Category.HOSPITAL
    assert detect("came up from the er, then from main ed to cath lab" + LOWER_TAIL) == {}


def test_a_place_and_general_in_capitals_is_a_hospital(detect):
    assert detect("ADMIT FROM BRIDGEWATER GENERAL W/ NSTEMI AND CHF EXAC.") == {"BRIDGEWATER GENERAL": Category.HOSPITAL}
    assert detect("PT IN GOOD GENERAL CONDITION, TO GENERAL SURGERY IN AM.") == {}


def test_a_care_home_typed_in_lower_case_after_where_the_patient_goes(detect):
    assert detect("transfer to riverside ltach at 1000 via ambulance" + LOWER_TAIL) == {"riverside ltach": Category.HOSPITAL}
    assert detect("long term resident at willowmere care center, returning today" + LOWER_TAIL) == {"willowmere care center": Category.HOSPITAL}


def test_a_hospital_short_form_where_the_patient_arrived_from_in_capitals(detect):
    assert detect("PT ARRIVED FROM SMH VIA MEDFLIGHT 1630 W/ UGIB.") == {"SMH": Category.HOSPITAL}
    assert detect("PT ARRIVED FROM PACU VIA STRETCHER AT 1630.") == {}


def test_a_treatment_qualifier_before_dialysis_names_no_unit(detect):
    assert detect("pt hopes to avoid permanent dialysis, may need another session" + LOWER_TAIL) == {}


def test_where_a_patient_returns_or_was_seen_a_word_english_hardly_uses_is_the_facility(unit_finds):
    assert unit_finds("facility", "PT SEEN AT NORTHGATE LAST WEEK FOR SAME COMPLAINT.") == {"NORTHGATE": Category.HOSPITAL}
    assert unit_finds("facility", "plan to return to westmoreland when stable" + LOWER_TAIL) == {"westmoreland": Category.HOSPITAL}
    assert unit_finds("facility", "PT SEEN BY OKONKWO FROM RENAL, RETURNED TO BED.") == {}


def test_a_lower_case_facility_may_begin_with_a_short_word_when_a_second_follows(detect):
    assert detect("pt sent from oak hill urgent care w/ svt" + LOWER_TAIL) == {"oak hill urgent care": Category.HOSPITAL}
    assert detect("plan transfer to icu hosp if worse" + LOWER_TAIL) == {}


def test_a_function_word_right_before_a_type_word_ends_a_clause_not_a_name(detect):
    assert detect("WANTS TO KNOW WHEN HE CAN DRIVE, WORKS AS SCHOOL BUS DRIVER.") == {}
    assert detect("TRANSFERRED FROM OUR LADY OF THE LAKE HOSPITAL") == {"OUR LADY OF THE LAKE HOSPITAL": Category.HOSPITAL}


def test_a_care_home_in_a_line_of_capitals_with_its_type_after_a_place_preposition(detect):
    assert detect("RETURNING TO WILLOW CREST ALF IN AM. VSS.") == {"WILLOW CREST ALF": Category.HOSPITAL}
    assert detect("DISPO: BACK TO SNF VS ALF. CM AWARE.") == {}
    assert detect("pt from golden meadows snf, dnr/dni" + LOWER_TAIL) == {"golden meadows snf": Category.HOSPITAL}


def test_a_va_community_living_center_is_a_facility_type(detect):
    assert detect("ADMITTED FROM SPRUCE RIDGE CLC W/ PNA.") == {"SPRUCE RIDGE CLC": Category.HOSPITAL}
    assert detect("plan back to aspen hill va clc when stable" + LOWER_TAIL) == {"aspen hill va clc": Category.HOSPITAL}
    assert detect("BASELINE PER CLC STAFF, A&OX2.") == {}


def test_a_lab_named_by_what_it_handles_is_no_facility(detect):
    assert detect("PRODUCT ARRIVED FROM CELL LAB 1400.") == {}
    assert detect("tumor lysis labs q6h, k 5.1" + LOWER_TAIL) == {}
    assert detect("Specimen sent to Harrow Valley Reference Laboratory.") == {"Harrow Valley Reference Laboratory": Category.HOSPITAL}


def test_a_name_many_hospitals_share_is_the_hospital_after_a_transfer_cue(detect):
    assert detect("TRANSFERRED FROM MERCY NORTH ED FOR NARCAN GTT.") == {"MERCY NORTH ED": Category.HOSPITAL}
    assert detect("plan to transfer to good sam once bed available" + LOWER_TAIL) == {"good sam": Category.HOSPITAL}
    assert detect("FLOWN TO CHILDREN'S, PARENTS DRIVING.") == {"CHILDREN'S": Category.HOSPITAL}
    # without the cue the words are ordinary ones
    assert detect("family asked for mercy, chaplain at bs" + LOWER_TAIL) == {}


def test_a_named_jail_is_a_facility(detect):
    assert detect("PT BROUGHT IN FROM TALLIS CO JAIL W/ GUARD.") == {"TALLIS CO JAIL": Category.HOSPITAL}
    assert detect("RELEASED FROM COUNTY JAIL 2 DAYS AGO.") == {}


def test_a_program_named_by_clinical_words_is_a_regimen_not_a_facility(detect):
    assert detect("NEUROGENIC BOWEL PROGRAM, DIG STIM W/ RESULTS.") == {}
    assert detect("Enrolled in the Riverbend Bowel Program last year.") == {"Riverbend Bowel Program": Category.HOSPITAL}


def test_lower_case_homes_kidney_centers_and_shelters_after_a_place_preposition_are_facilities(detect):
    text = "dialyzes m/w/f at riverside kidney center. accepted at birchwood behavioral health. found at open door shelter."
    assert detect(text) == {
        "riverside kidney center": Category.HOSPITAL,
        "birchwood behavioral health": Category.HOSPITAL,
        "open door shelter": Category.HOSPITAL,
    }


def test_a_lower_case_care_type_after_a_pronoun_or_an_article_is_no_facility(unit_finds):
    assert unit_finds("facility", "d/c to home w/ home health. wants to go back to her group home. staff at the shelter called.") == {}


def test_tribal_and_federal_clinics_and_family_practices_typed_in_lower_case_are_facilities(detect):
    text = "transferred from canyon wells ihs. followed at rocky wash health ctr. pcp at north fork family medicine."
    assert detect(text + LOWER_TAIL) == {
        "canyon wells ihs": Category.HOSPITAL,
        "rocky wash health ctr": Category.HOSPITAL,
        "north fork family medicine": Category.HOSPITAL,
    }


def test_a_named_pharmacy_typed_in_lower_case_is_a_facility_but_a_kind_of_pharmacy_is_not(detect):
    assert detect("meds filled at redwood pharmacy." + LOWER_TAIL) == {"redwood pharmacy": Category.HOSPITAL}
    assert detect("sent to inpatient pharmacy, uses mail order pharmacy, via compounding pharmacy." + LOWER_TAIL) == {}


def test_a_less_frequent_word_before_a_hospitals_type_word_heads_its_name_but_a_kind_of_hospital_does_not(detect):
    assert detect("transfer from mercy regional, then from valley general ed." + LOWER_TAIL) == {
        "mercy regional": Category.HOSPITAL,
        "valley general": Category.HOSPITAL,
    }
    assert detect("plan transfer to larger hospital. from critical access hospital. sent from big hospital." + LOWER_TAIL) == {}
    assert detect("invited to spring memorial service next week." + LOWER_TAIL) == {}


def test_a_saints_given_name_after_st_without_its_full_stop_in_capitals_is_a_facility_where_the_patient_comes_from(detect):
    assert detect("CAME FROM ST JOES. SEEN AT ST ANNE ER 2 DAYS AGO.") == {"ST JOES": Category.HOSPITAL, "ST ANNE": Category.HOSPITAL}
    # sinus tachycardia and speech therapy
    assert detect("CONVERTED FROM ST TO SR. REFERRAL TO ST FOR SWALLOW EVAL.") == {}


def test_a_name_many_hospitals_share_is_the_hospital_where_an_earlier_stay_was(detect):
    assert detect("LAST ADMIT AT GOOD SAM. HOSPITALIZED AT PRESBY IN MAY.") == {
        "GOOD SAM": Category.HOSPITAL,
        "PRESBY": Category.HOSPITAL,
    }


def test_a_service_paged_or_consulted_is_no_facility_and_a_care_level_names_none(unit_finds):
    assert unit_finds("facility", "PAGE GENERAL SURGERY IF UOP < 30 X 2H. CONSULT PLASTIC SURGERY IN AM.") == {}
    assert unit_finds("facility", "TRANSFER TO TERTIARY CENTER DISCUSSED W/ FAMILY.") == {}
    assert unit_finds("facility", "ADMITTED FROM PAGE MEMORIAL HOSPITAL.") == {"PAGE MEMORIAL HOSPITAL": Category.HOSPITAL}


def test_whose_a_thing_is_opens_a_facilitys_name_and_a_kind_of_school_is_none(unit_finds):
    assert unit_finds("facility", "PT ASKED WIFE TO BRING HIS SUNDAY SCHOOL LESSON BOOK FROM HOME.") == {}
    assert unit_finds("facility", "HIS CARDIOLOGIST AT ST. LUKE'S HOSPITAL")["ST. LUKE'S HOSPITAL"] is Category.HOSPITAL


def test_a_word_english_writes_often_is_no_short_form_of_a_facility(unit_finds):
    assert unit_finds("facility", "PT WORKS AT THE COTTON GIN DURING HARVEST.") == {}
    assert unit_finds("facility", "PRESENTED TO HRMC AFTER FALL.") == {"HRMC": Category.HOSPITAL}


def test_a_facility_name_never_runs_back_over_a_sentence_end_or_across_versus(unit_finds):
    assert unit_finds("facility", "LIMITED TO 2 AT BS, REST IN WAITING RM. PLAN CARDIAC REHAB REFERRAL.") == {}
    assert unit_finds("facility", "WOUND VAC -125 CONT. AFEBRILE. A&O. SHELTER CASE MGR LEFT VM.") == {}
    assert unit_finds("facility", "WANTS PT BACK HOME W/ HH VS ACUTE REHAB, SW AWARE.") == {}
    saints = unit_finds("facility", "TRANSFERRED FROM ST. MARYS HOSPITAL. Seen at Mt. Sinai Hospital.")
    assert {"ST. MARYS HOSPITAL", "Mt. Sinai Hospital"} <= set(saints)  # "St." and "Mt." end no sentence


def test_a_post_office_town_english_never_writes_after_a_facility_in_capitals_is_its_branch(unit_finds):
    found = unit_finds("facility", "MEDS VERIFIED W/ HERITAGE PHARMACY BLACKFOOT, PT TAKING DOUBLE DOSE. NEURO: A&OX4. GI: BRBPR X1.")
    assert found == {"HERITAGE PHARMACY BLACKFOOT": Category.HOSPITAL}


def test_an_ambulance_or_flight_service_named_by_its_town_or_its_own_word_is_a_facility(unit_finds):
    assert unit_finds("facility", "BROUGHT IN BY SCIPIO AMBULANCE AFTER ROLLOVER. GCS 14.") == {"SCIPIO AMBULANCE": Category.HOSPITAL}
    note = "brought in by ocean city ems after fall, crew from bayhawk air arrived 0210" + LOWER_TAIL
    assert unit_finds("facility", note) == {"ocean city ems": Category.HOSPITAL, "bayhawk air": Category.HOSPITAL}
    note = "transferred via douglas co ambulance, ivf running" + LOWER_TAIL
    assert unit_finds("facility", note) == {"douglas co ambulance": Category.HOSPITAL}


def test_an_ambulance_or_air_named_by_its_kind_is_no_facility(unit_finds):
    note = "by ground ems, via private ambulance, per ems, local fire and rescue, county ems, on room air, humidified air via tc"
    assert unit_finds("facility", note + LOWER_TAIL) == {}
    assert unit_finds("facility", "tnk given at 0910, no reperfusion, rescue pci lad 1230, albuterol rescue inhaler" + LOWER_TAIL) == {}
    assert unit_finds("facility", "RA AIR. AIR EVAC. HOME VIA WHEELCHAIR AMBULANCE. CODE RESCUE. HELICOPTER EMS. BY BLS AMBULANCE.") == {}


def test_a_facility_typed_in_lower_case_takes_a_listed_city_after_it(unit_finds):
    note = "gets hd at teton kidney care idaho falls mwf, rn from lakes region dialysis called" + LOWER_TAIL
    assert unit_finds("facility", note) == {"teton kidney care idaho falls": Category.HOSPITAL, "lakes region dialysis": Category.HOSPITAL}


def test_a_drugstore_or_a_critical_access_hospital_typed_in_lower_case_is_a_facility(unit_finds):
    note = "couldnt afford refill at hometown drug, came from juniper springs critical access at 0245"
    found = unit_finds("facility", note + LOWER_TAIL)
    assert found == {"hometown drug": Category.HOSPITAL, "juniper springs critical access": Category.HOSPITAL}
    assert unit_finds("facility", "admitted due to illicit drug use, sent for urine drug screen" + LOWER_TAIL) == {}


def test_a_fire_department_named_by_its_town_is_a_facility_and_a_rescue_named_by_its_kind_is_not(unit_finds):
    found = unit_finds("facility", "ROSC AFTER 2 ROUNDS CPR PER KERRVILLE FIRE. EXTRICATED BY BANDERA VOLUNTEER FIRE DEPT.")
    assert found == {"KERRVILLE FIRE": Category.HOSPITAL, "BANDERA VOLUNTEER FIRE DEPT": Category.HOSPITAL}
    none = "SWIFTWATER RESCUE AT LOW WATER CROSSING. burns from house fire, brush fire. per volunteer fire dept. rope rescue"
    assert unit_finds("facility", none) == {}


def test_a_county_hospital_written_short_is_one_facility(unit_finds):
    assert unit_finds("facility", "tpa given at gillespie co hosp at 1612") == {"gillespie co hosp": Category.HOSPITAL}


def test_a_short_forms_possessive_after_referred_to_is_no_destination(unit_finds):
    assert unit_finds("facility", "MAN CALLED FOR UPDATE, REFERRED TO PT'S MOTHER AS NEXT OF KIN.") == {}


def test_a_place_beside_a_facility_is_no_part_of_its_name(unit_finds):
    assert unit_finds("facility", "SOCIAL: WIFE STAYING AT MOTEL NEAR HOSP.\nPLAN: SAME") == {}
    assert unit_finds("facility", "TRANSFERRED FROM KIMBLE HOSPITAL TONIGHT")["KIMBLE HOSPITAL"] == Category.HOSPITAL


def test_a_hospital_named_by_its_kind_is_a_facility_once_its_city_follows(unit_finds):
    assert unit_finds("facility", "accepted for tips at university hospital in san antonio, awaiting air") == {"university hospital": Category.HOSPITAL}
    assert unit_finds("facility", "sent to a hospital in denver. county hospital in the area. university hospital in the morning") == {}


def test_a_town_with_a_post_office_is_no_facility_short_form(unit_finds):
    assert unit_finds("facility", "FLOWN BY AIR EVAC FROM SONORA. WORKS AT WALMART IN BOERNE.") == {}
    assert unit_finds("facility", "TRANSFERRED FROM HRMC ICU") == {"HRMC": Category.HOSPITAL}


def test_a_town_service_named_with_its_fire_department_or_squad_is_a_facility(unit_finds):
    text = "NARCAN BY CORNING FIRE EMS. SHOCKED X2 BY OWEGO EMERGENCY SQUAD. BROUGHT BY BATH VOL AMBULANCE."
    assert unit_finds("facility", text) == {
        "CORNING FIRE EMS": Category.HOSPITAL,
        "OWEGO EMERGENCY SQUAD": Category.HOSPITAL,
        "BATH VOL AMBULANCE": Category.HOSPITAL,
    }
    assert unit_finds("facility", "house fire ems. no emergency. by fire ems. emergency squad arrived. per volunteer ambulance") == {}


def test_a_regional_general_or_critical_access_hospital_written_short_is_a_facility(unit_finds):
    found = unit_finds("facility", "TRANSFERRED FROM DELHI MERCY CAH W/ K 7.2. TRANSFERRED FROM CORTLAND REG FOR GBS. TOL REG DIET.")
    assert found["DELHI MERCY CAH"] == found["CORTLAND REG"] == Category.HOSPITAL
    assert not any("DIET" in span for span in found)
    assert unit_finds("facility", "2u prbc given at tioga gen prior to transfer. to gen surg. on reg insulin")["tioga gen"] == Category.HOSPITAL
    assert unit_finds("facility", "tol reg diet. under gen anesthesia. on reg insulin") == {}


def test_a_care_homes_first_word_that_is_no_word_is_part_of_its_name(unit_finds):
    found = unit_finds("facility", "in her 90s, long term resident of sutton willows care center, returning there today")
    assert found == {"sutton willows care center": Category.HOSPITAL}
    assert unit_finds("facility", "plan transition to ihd then ltach. bring her dentures from alf.") == {}


def test_a_service_that_carried_the_patient_is_named_by_its_words_after_by(unit_finds):
    text = "NARCAN X3 BY AMERICAN LEGION AMBULANCE. PPH, FLOWN BY LIFE LION FROM LEWISTOWN. EXTRICATED BY MIFFLINBURG HOSE CO. FLOWN BY SOUTHERN TIER AIR."
    assert unit_finds("facility", text) == {
        "AMERICAN LEGION AMBULANCE": Category.HOSPITAL,
        "LIFE LION": Category.HOSPITAL,
        "MIFFLINBURG HOSE CO": Category.HOSPITAL,
        "SOUTHERN TIER AIR": Category.HOSPITAL,
    }
    text = "BY PRIVATE AMBULANCE. BY COUNTY ALS AMBULANCE. FLOWN BY HELICOPTER FROM SCENE. flown by the crew to us. flown by medevac. suction hose co2"
    assert unit_finds("facility", text) == {}


def test_where_a_rehab_or_detox_stay_will_be_is_a_facility_when_its_words_end_the_clause(unit_finds):
    assert unit_finds("facility", "SW CONSULTED RE: REHAB AT WHITE DEER RUN.") == {"WHITE DEER RUN": Category.HOSPITAL}
    text = "PLAN REHAB AT THIS TIME. DETOX AT EARLIEST OPPORTUNITY. rehab at acute level. treatment at the va."
    assert unit_finds("facility", text) == {}


def test_a_rescue_service_or_a_chains_site_takes_in_the_words_that_finish_its_name(detect):
    found = detect("BROUGHT FROM PENNS CREEK BY PENNS VALLEY EMS, CORE TEMP 31.2. XFER FROM LVH SCHUYLKILL. DIALYZES AT DAVITA SUNBURY.")
    assert found["PENNS VALLEY EMS"] == found["LVH SCHUYLKILL"] == Category.HOSPITAL
    assert "DAVITA SUNBURY" in found
    assert detect("TRANSFERRED FROM UPMC ED TODAY. CT HEAD NEG.") == {"UPMC": Category.HOSPITAL}


def test_what_an_outside_hospital_did_cues_its_short_name(detect):
    found = detect("TOBACCO FARMER W/ AECOPD, INTUBATED AT SOVAH DANVILLE, FLOWN HERE.")
    assert found == {"SOVAH DANVILLE": Category.HOSPITAL}
    assert detect("INTUBATED AT BEDSIDE. INTUBATED AT 0300. STENTED AT CATH LAB. INTUBATED AT SCENE.") == {}


def test_a_congregations_name_before_a_street_word_is_a_road(detect):
    found = detect("PICKUP VS TREE ON SHADY GROVE CHURCH RD. PASTOR FROM SHADY GROVE CHURCH VISITED.")
    assert found["SHADY GROVE CHURCH RD"] == Category.LOCATION
    assert found["SHADY GROVE CHURCH"] == Category.OTHER


def test_a_name_with_health_after_it_and_no_cue_is_a_facility(detect):
    assert detect("transfer from randolph health in asheboro." + LOWER_TAIL)["randolph health"] == Category.HOSPITAL


def test_a_hospital_named_for_its_doctors_or_community_is_a_facility_after_a_transfer(unit_finds):
    text = "54 YO F TRANSFERRED FROM DOCTORS MEMORIAL W/ UROSEPSIS. PRIOR STAY AT COMMUNITY MEMORIAL."
    assert unit_finds("facility", text) == {"DOCTORS MEMORIAL": Category.HOSPITAL, "COMMUNITY MEMORIAL": Category.HOSPITAL}
    found = unit_finds("facility", "transferred from memorial hospital and manor w/ fever" + LOWER_TAIL)
    assert found == {"memorial hospital and manor": Category.HOSPITAL}
    assert unit_finds("facility", "FAMILY WENT TO MEMORIAL SERVICE SAT. SENT FROM DOCTORS OFFICE W/ SOB.") == {}


def test_a_nursing_pavilion_is_a_care_home(unit_finds):
    assert unit_finds("facility", "83 YO F FROM CHIPOLA NURSING PAVILION W/ ASPIRATION PNA")["CHIPOLA NURSING PAVILION"] == Category.HOSPITAL
    assert unit_finds("facility", "83 yo f from chipola nursing pavilion w/ pna." + LOWER_TAIL) == {"chipola nursing pavilion": Category.HOSPITAL}


def test_the_pharmacy_that_checked_the_medicines_is_a_facility(unit_finds):
    found = unit_finds("facility", "home meds verified w/ hartford drug, on glipizide." + LOWER_TAIL)
    assert found == {"hartford drug": Category.HOSPITAL}
    text = "meds verified with home pharmacy. verified w/ pt's pharmacy. called outpatient pharmacy." + LOWER_TAIL
    assert unit_finds("facility", text) == {}


def test_a_verbs_particle_before_a_type_word_ends_the_clause(unit_finds):
    assert unit_finds("facility", "HE KEPT PUTTING OFF SURGERY TILL AFTER PEANUT HARVEST. SIGNED UP FOR REHAB.") == {}


def test_a_home_named_by_no_word_is_a_care_home(unit_finds):
    assert unit_finds("facility", "ELDERLY M VETERAN FROM JACOBETTI HOME, SENT IN FOR AMS") == {"JACOBETTI HOME": Category.HOSPITAL}
    none = "from nursing home. from group home. from foster home. from daughter's home. from dtr home. to home health." + LOWER_TAIL
    assert unit_finds("facility", none) == {}


def test_a_flight_service_named_by_no_word_before_medevac_is_a_facility(unit_finds):
    found = unit_finds("facility", "PULLED OUT BY FRIENDS. ARRIVED VIA ASPIRUS MEDEVAC. CORE TEMP 29.8. VIA HELICOPTER MEDEVAC.")
    assert found == {"ASPIRUS MEDEVAC": Category.HOSPITAL}


def test_a_medical_care_facility_is_a_facility_but_a_kind_of_care_is_none(unit_finds):
    text = "CASE MGMT LOOKING INTO HOUGHTON COUNTY MEDICAL CARE FACILITY FOR REHAB. TO LONG TERM CARE FACILITY."
    assert unit_finds("facility", text) == {"HOUGHTON COUNTY MEDICAL CARE FACILITY": Category.HOSPITAL}


def test_a_health_systems_short_name_before_a_saint_is_part_of_the_hospital(unit_finds):
    found = unit_finds("facility", "M W/ AFIB RVR 150S, SENT FROM OSF ST. FRANCIS FOR DILT GTT. PT TO ICU ST. JOHN.")
    assert found["OSF ST. FRANCIS"] == Category.HOSPITAL
    assert not any("JOHN" in name for name in found)


def test_a_tribal_service_is_a_kind_not_a_name(unit_finds):
    assert unit_finds("facility", "SW AND TRIBAL BEHAVIORAL HEALTH LIAISON CONTACTED. PLAN: SAT/SBT IN AM.") == {}
    found = unit_finds("facility", "TRANSFERRED FROM CANYON WELLS TRIBAL HEALTH CLINIC W/ DKA.")
    assert found == {"CANYON WELLS TRIBAL HEALTH CLINIC": Category.HOSPITAL}


def test_a_hospital_named_in_three_lower_case_words_before_its_type_is_one_facility(unit_finds):
    found = unit_finds("facility", "on eliquis, transferred from upper connecticut valley hospital, 2 units given there." + LOWER_TAIL)
    assert found == {"upper connecticut valley hospital": Category.HOSPITAL}
    assert unit_finds("facility", "transferred to the icu from the floor hospital." + LOWER_TAIL) == {}


def test_a_short_form_of_a_hospitals_shape_where_something_was_done_needs_no_cue(unit_finds):
    assert unit_finds("facility", "VARICEAL BLEED, BANDED X4 AT AVH THEN TX.") == {"AVH": Category.HOSPITAL}
    assert unit_finds("facility", "SEEN AT ICH CLINIC. LOOKED AT ETOH LEVEL. PROGRESSED TO IVH.") == {}
    assert unit_finds("facility", "hug a pillow to cough. Jackson-Pratt at EVH site minimal.") == {}


def test_a_saint_after_a_place_preposition_in_a_lower_case_note_is_a_facility_with_its_particle(unit_finds):
    found = unit_finds("facility", "81 yo f from st vincent de paul w/ urosepsis." + LOWER_TAIL)
    assert found == {"st vincent de paul": Category.HOSPITAL}
    assert unit_finds("facility", "81 YO F FROM ST VINCENT DE PAUL W/ UROSEPSIS") == {"ST VINCENT DE PAUL": Category.HOSPITAL}
    assert unit_finds("facility", "converted from st to nsr. to st eval in am." + LOWER_TAIL) == {}


def test_a_verb_before_a_type_word_in_capitals_opens_no_facility(unit_finds):
    assert unit_finds("facility", "CM FOUND PATIENT ASSISTANCE PROGRAM FOR INSULIN. PT RECOMMENDS ACUTE REHAB.") == {}
    assert unit_finds("facility", "SENT FROM SHRINERS CHILDRENS HOSPITAL.")["SHRINERS CHILDRENS HOSPITAL"] == Category.HOSPITAL


def test_where_a_patient_lives_named_by_a_residences_last_word_is_a_facility(unit_finds):
    assert unit_finds("facility", "78 yo f lives at quarry hill, afib rvr." + LOWER_TAIL) == {"quarry hill": Category.HOSPITAL}
    none = "lives at her sister's place. lives at group home. resides at the village." + LOWER_TAIL
    assert unit_finds("facility", none) == {}


def test_where_an_outside_hospital_intubated_or_treated_the_patient_is_a_facility(unit_finds):
    assert unit_finds("facility", "NARCAN X3 BY EMS, INTUB AT PEN BAY FOR AIRWAY PROTECTION.") == {"PEN BAY": Category.HOSPITAL}
    assert unit_finds("facility", "intubated at pen bay for airway protection." + LOWER_TAIL) == {"pen bay": Category.HOSPITAL}
    none = (
        "INTUBATED AT BEDSIDE FOR AIRWAY. INTUBATED AT SCENE. INTUBATED AT OSH, TNK GIVEN AT 1415. STENTED AT CATH LAB. "
        "INTUBATED AT THAT TIME. INTUBATED AT OUTSIDE HOSPITAL, STABILIZED AT HOME THEN SENT. INTUBATED AT NIGHT."
    )
    assert unit_finds("facility", none) == {}


def test_a_manor_where_the_patient_comes_from_is_named_by_any_word_but_a_plain_one(unit_finds):
    assert unit_finds("facility", "82 yo f sent from heritage manor for urosepsis." + LOWER_TAIL) == {"heritage manor": Category.HOSPITAL}
    assert unit_finds("facility", "back to the manor. from local manor. from old manor house." + LOWER_TAIL) == {}


def test_a_regimen_named_by_ordinary_words_in_capitals_is_no_facility(unit_finds):
    assert unit_finds("facility", "SW ENROLLED HER IN A MED ASSIST PROGRAM, WILL F/U AT THE CLINIC.") == {}
    found = unit_finds("facility", "STROKE ALERT XFER FROM BIG SPRINGS REGIONAL, TNK GIVEN 1412 THERE.")
    assert found == {"BIG SPRINGS REGIONAL": Category.HOSPITAL}


def test_center_written_short_ends_a_facility_of_any_type(unit_finds):
    found = unit_finds("facility", "71 YO M RANCHER FLOWN FIXED WING FROM GARFIELD CO HEALTH CTR W/ PERFORATED SIGMOID")
    assert found == {"GARFIELD CO HEALTH CTR": Category.HOSPITAL}


def test_a_deaconess_hospital_is_named_by_its_founder_or_alone(unit_finds):
    assert unit_finds("facility", "FLOWN FROM FRANCES MAHON DEACONESS IN GLASGOW. EBL ~5L") == {"FRANCES MAHON DEACONESS": Category.HOSPITAL}
    found = unit_finds("facility", "transferred from frances mahon deaconess in glasgow w/ pancreatitis." + LOWER_TAIL)
    assert found == {"frances mahon deaconess": Category.HOSPITAL}
    assert unit_finds("facility", "transferred from deaconess for cath." + LOWER_TAIL) == {"deaconess": Category.HOSPITAL}


def test_a_holy_name_where_the_patient_was_or_goes_is_a_hospital(unit_finds):
    found = unit_finds("facility", "declined over ~2 hr to gcs 7 at holy rosary. intubated, ct there showed r sdh." + LOWER_TAIL)
    assert found == {"holy rosary": Category.HOSPITAL}
    assert unit_finds("facility", "FLOWN TO HOLY CROSS FOR NSGY EVAL") == {"HOLY CROSS": Category.HOSPITAL}
    assert unit_finds("facility", "wife brought holy water from church, pt from holy family parish." + LOWER_TAIL) == {}


def test_a_behavioral_health_unit_written_short_after_a_word_english_never_writes_is_a_facility(unit_finds):
    assert unit_finds("facility", "PSYCH BED SEARCH STARTED, BENEFIS BH FULL.") == {"BENEFIS": Category.HOSPITAL}
    assert unit_finds("facility", "ADOL BH FULL, PEDS BH CONSULTED, INPT BH REFERRAL, ACUTE BH") == {}


def test_a_shared_hospital_name_with_its_branch_town_is_a_facility(unit_finds):
    found = unit_finds("facility", "TELESTROKE CONSULT, TNK GIVEN 1535 AT ADVENTIST TILLAMOOK, TRANSFERRED FOR MONITORING.")
    assert found == {"ADVENTIST TILLAMOOK": Category.HOSPITAL}
    assert unit_finds("facility", "MEMORIAL DAY WEEKEND. METHODIST CHURCH FRIDAY.") == {}


def test_in_capitals_a_verb_or_clinical_short_forms_before_a_type_word_name_no_facility(unit_finds):
    assert unit_finds("facility", "POOR PROGNOSIS DISCUSSED. FAMILY ELECTS ACUTE INPATIENT REHAB IF ACCEPTED, PEG NEXT WEEK.") == {}
    assert unit_finds("facility", "PT UPDATED ON PLAN FOR HOME O2 EVAL AND PULM REHAB REFERRAL. POLST UPDATED") == {}
    found = unit_finds("facility", "PT WANTS INFO FAXED TO PCP AT PLAINS MEDICAL CLINIC, FAX 620-555-0166.")
    assert found == {"PLAINS MEDICAL CLINIC": Category.HOSPITAL}


def test_a_homes_spanish_name_is_the_homes_whole_name(unit_finds):
    found = unit_finds("facility", "pt is 81 yo male from la casa de san juan nursing home admitted w/ urosepsis." + LOWER_TAIL)
    assert found == {"la casa de san juan nursing home": Category.HOSPITAL}
    assert unit_finds("facility", "back to villa de san antonio snf when stable." + LOWER_TAIL) == {"villa de san antonio snf": Category.HOSPITAL}
    assert unit_finds("facility", "back to the nursing home when stable." + LOWER_TAIL) == {}


def test_a_shared_hospital_name_opened_by_an_ordinary_word_keeps_it(unit_finds):
    found = unit_finds("facility", "REFERRAL TO GOOD SAMARITAN HOSPICE PLACED")
    assert found == {"GOOD SAMARITAN HOSPICE": Category.HOSPITAL}
    assert unit_finds("facility", "FEELS GOOD. SAMARITAN HOSPICE CALLED") == {"SAMARITAN HOSPICE": Category.HOSPITAL}


def test_an_outreach_clinic_is_a_service_not_a_named_place(unit_finds):
    assert unit_finds("facility", "TEACHING DONE. F/U W/ CARDIOLOGY OUTREACH CLINIC IN GORDON NEXT WK.") == {}


def test_a_verb_after_to_opens_what_is_to_be_done_not_a_facilitys_name(unit_finds):
    text = "RENAL TEAM TO DISCUSS LONG TERM DIALYSIS. FAMILY WANTS TO DISCUSS HOME HOSPICE."
    assert unit_finds("facility", text) == {}
    assert unit_finds("facility", "PLAN TO ARRANGE BLUEGRASS HOSPICE CARE.") == {"BLUEGRASS HOSPICE": Category.HOSPITAL}


def test_a_practice_named_by_its_kind_and_a_listed_town_is_a_facility(unit_finds):
    assert unit_finds("facility", "SW FAXED H&P TO PCP AT FAMILY CARE OF NICHOLASVILLE.") == {"FAMILY CARE OF NICHOLASVILLE": Category.HOSPITAL}
    text = "pcp is family medicine of mount sterling, history of dialysis of the fistula" + LOWER_TAIL
    assert unit_finds("facility", text) == {"family medicine of mount sterling": Category.HOSPITAL}


def test_a_community_hospital_named_before_its_emergency_room_is_a_facility(unit_finds):
    text = "wife drove him to georgetown community er, flown here" + LOWER_TAIL
    assert unit_finds("facility", text) == {"georgetown community": Category.HOSPITAL}


def test_drugs_written_short_are_no_facilitys_name(unit_finds):
    assert unit_finds("facility", "HOUSEHOLD CONTACTS GETTING DOXY PPX THROUGH PUBLIC HEALTH. CAT TAKEN TO THE VET.") == {}
