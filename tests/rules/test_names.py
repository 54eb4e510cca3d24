"""Unit ``names``."""

import pytest

from deid_core.spans import Category
from tests.rules import LOWER_TAIL


def test_unlisted_surname_after_a_title_is_a_doctor(unit_finds):
    assert unit_finds("names", "Seen by Dr. Wierzbicki today.") == {"Wierzbicki": Category.DOCTOR}


def test_name_before_a_credential_is_a_doctor(unit_finds):
    assert unit_finds("names", "Eleanor Whitcombe, MD") == {"Eleanor Whitcombe": Category.DOCTOR}


def test_name_after_a_patient_header_or_a_relation_is_a_patient(unit_finds):
    assert unit_finds("names", "Patient: Imke Achterberg") == {"Imke Achterberg": Category.PATIENT}
    assert unit_finds("names", "daughter Ana at bedside") == {"Ana": Category.PATIENT}


def test_eponyms_and_devices_are_not_names(unit_finds):
    assert unit_finds("names", "Foley catheter placed. Positive Murphy's sign. Babinski negative.") == {}


def test_words_of_a_line_in_capitals_are_not_names(unit_finds):
    assert unit_finds("names", "PT RESTING COMFORTABLY") == {}


def test_switched_off_cued_names_are_not_detected(detect):
    text = "Seen by Dr. Wierzbicki today."
    assert detect(text) == {"Wierzbicki": Category.DOCTOR}
    assert detect(text, without="names") == {}


LOWER_NOTE = "no bleeding from gums or piv sites, foley draining clear yellow urine. pt's husband {} at bedside, hcp, aware of plan."


def test_a_given_name_that_is_also_a_word_is_a_name_right_after_a_relation_in_a_lowercase_note(unit_finds):
    assert unit_finds("names", LOWER_NOTE.format("frank")) == {"frank": Category.PATIENT}
    assert unit_finds("names", "SON RICH CALLED AT 1400 FROM WORK, UPDATED.") == {"RICH": Category.PATIENT}


def test_after_a_relation_a_word_listed_only_as_a_surname_or_a_modal_stays_a_word(unit_finds):
    assert unit_finds("names", "SON PRESENT AT BEDSIDE, UPDATED ON PLAN OF CARE.") == {}
    assert unit_finds("names", "husband will call tonight after work, number on the board.") == {}


def test_nursing_short_forms_of_relations_are_cues(unit_finds):
    assert unit_finds("names", "pt's dtr ellen called from home, updated on plan.") == {"ellen": Category.PATIENT}


def test_a_month_that_is_a_given_name_names_the_person_right_after_a_relation(unit_finds):
    note = "pt on vent overnight, sedated, no changes. daughter {} at bedside, she is hcp."
    assert unit_finds("names", note.format("june")) == {"june": Category.PATIENT}
    assert unit_finds("names", "pt on vent overnight, sedated, no changes. daughter may call later tonight.") == {}


def test_what_a_person_is_called_names_them(unit_finds):
    assert unit_finds("names", 'teaching re coumadin done. pt states "just call me dottie". ambulating in hall.') == {"dottie": Category.PATIENT}
    assert unit_finds("names", 'pt says everybody calls him "tito", family unable to locate.') == {"tito": Category.PATIENT}
    assert unit_finds("names", 'hoh, keeps asking for "walt" who per chart is her late husband.') == {"walt": Category.PATIENT}
    assert unit_finds("names", "call me back if any questions about the plan overnight.") == {}


def test_a_hand_off_names_the_nurse_taking_over(unit_finds):
    note = "tolerating reg diet, pain controlled on po meds. called out, report to {} on 10 west"
    assert unit_finds("names", note.format("imani")) == {"imani": Category.DOCTOR}
    assert unit_finds("names", note.format("the floor")) == {}


def test_after_pt_an_everyday_word_describes_the_patient(unit_finds):
    assert unit_finds("names", "repeat ct stable. pt pleasant, hoh, hearing aid in l ear, oriented x3 this shift.") == {}
    assert unit_finds("names", "Will call out in AM. Pt pleasant, says he is in no hurry to go.") == {}


def test_a_given_name_that_is_a_verb_before_a_particle_is_the_verb(unit_finds):
    assert unit_finds("names", "Neg 1.8L today. Wife rose to leave at 2000, brought him glasses.") == {}
    assert unit_finds("names", "comfort care, daughter and granddaughter sang to her. mouth care q2h.") == {}
    assert unit_finds("names", "comfort care, family at bedside. wife rose at bedside all night, hcp.") == {"rose": Category.PATIENT}


def test_a_modal_before_a_past_tense_after_a_relation_is_a_name(unit_finds):
    assert unit_finds("names", "pt very frightened overnight. brother will came, read to him.") == {"will": Category.PATIENT}
    assert unit_finds("names", "pt very frightened overnight. brother will need a ride home.") == {}


def test_a_month_after_a_relation_is_no_drug_for_its_ending(unit_finds):
    # "-pril" ends ACE inhibitors (lisinopril); "april" after a relation is a person
    note = "pt's girlfriend april visited, brought clothes. pt became upset when asked to leave early, calmed with reassurance."
    assert unit_finds("names", note) == {"april": Category.PATIENT}


def test_the_plural_of_a_clinical_word_is_no_name(unit_finds):
    assert unit_finds("names", "tpa infusing through bilat pa catheters @ 1mg/hr per catheter.") == {}


def test_a_case_manager_named_after_cm_is_staff_but_centimetres_are_not(unit_finds):
    assert unit_finds("names", "plan 6 wks iv abx, pt upset, cm delphine looking into snf for iv abx") == {"delphine": Category.DOCTOR}
    assert unit_finds("names", "wound 2 x 3 cm granulation, 4 cm hyperechoic lesion on us") == {}


def test_an_eponym_written_in_capitals_with_its_possessive_is_no_name(detect):
    assert detect("JP'S SEROSANG 10-20CC. MURPHY'S SIGN N/A (S/P CCY). ABD SOFT, NONTENDER.") == {}
    assert detect("Seen by DR MURPHY'S TEAM today.") == {"MURPHY": Category.DOCTOR}


def test_a_given_name_that_opens_a_clause_and_does_what_people_do_is_a_name_in_any_case(unit_finds):
    assert unit_finds("names", "tele on. dawn at bedside until 2200, aware of plan") == {"dawn": Category.PATIENT}
    assert unit_finds("names", "SOCIAL: APRIL CALLED FOR UPDATE") == {"APRIL": Category.PATIENT}
    assert unit_finds("names", "abx changed. june requesting sw visit") == {"june": Category.PATIENT}
    # a modal, a clinical word or a word that names no one opens no name
    assert unit_finds("names", "pain controlled. may called if worse") == {}
    assert unit_finds("names", "PT STATES PAIN 3/10. WIFE CALLED.") == {}


def test_two_names_and_a_grade_in_capitals_are_a_scale(unit_finds):
    assert unit_finds("names", "CT: SAH, HUNT HESS 2, FISHER 3. TO ANGIO.") == {}
    assert unit_finds("names", "SOCIAL: WIFE MARGARET FISHER AT BEDSIDE") == {"MARGARET FISHER": Category.PATIENT}


def test_a_given_name_that_is_also_a_word_names_the_staff_member_after_a_role_or_hand_off(unit_finds):
    assert unit_finds("names", "tele floor 1400 report to hope rn, pt + wife aware") == {"hope": Category.DOCTOR}
    assert unit_finds("names", "reassured by np august that its common") == {"august": Category.DOCTOR}
    assert unit_finds("names", "D/W ENDO NP ROSE RE: PUMP") == {"ROSE": Category.DOCTOR}
    # a modal names the person only with a surname after it
    assert unit_finds("names", "pheresis done by pheresis rn will pruitt. nif -34") == {"will pruitt": Category.DOCTOR}
    assert unit_finds("names", "rn will call family. md may change gtt") == {}
    # a verb with its object, a word that qualifies a role and a rank are no names
    assert unit_finds("names", "TECH MARK SITE. STAFF AWARE.") == {}
    assert unit_finds("names", "Updated by foster parent today; Staff Captain informed") == {}
    assert unit_finds("names", "d/w charge nurse re: bed") == {}


def test_a_given_name_that_is_a_word_after_pt_is_the_patient_when_what_a_person_says_or_does_follows(unit_finds):
    assert unit_finds("names", "pt rose states pain 4/10. overnight pt ruby slept in 2 hr stretches.") == {
        "rose": Category.PATIENT,
        "ruby": Category.PATIENT,
    }
    assert unit_finds("names", "pt rose to chair w/ 2 assist. pt will states need for pain meds.") == {}


def test_a_hand_off_report_on_a_person_names_the_patient(unit_finds):
    assert unit_finds("names", "REPORT ON ROSE - S/P L MASTECTOMY W/ JP X2.") == {"ROSE": Category.PATIENT}
    # a word after the name that no list holds and English does not use joins it
    assert unit_finds("names", "bmt handoff. report on xu wenjing, day -1 rest day.") == {"xu wenjing": Category.PATIENT}
    assert unit_finds("names", "report on labs given, report on new admit to charge.") == {}


def test_the_units_own_staff_as_nurses_shorten_them_are_roles_before_a_given_name(unit_finds):
    note = "charge dawn aware, will page resident. pca sky helped w/ bath. house sup faith notified. unit sec ruby called family."
    assert unit_finds("names", note) == {"dawn": Category.DOCTOR, "sky": Category.DOCTOR, "faith": Category.DOCTOR, "ruby": Category.DOCTOR}
    assert unit_finds("names", "manager odette came by. case mgmt gwenda aware. handoff to dale at 0700.") == {
        "odette": Category.DOCTOR,
        "gwenda": Category.DOCTOR,
        "dale": Category.DOCTOR,
    }
    # the analgesia pump and being in charge of something name no one
    assert unit_finds("names", "dilaudid pca 0.2 mg q10 min lockout, pca demand x14. wife in charge of meds at home.") == {}
    assert unit_finds("names", "handoff to night shift at 1900. nurse manager aware.") == {}


def test_a_given_name_that_is_also_a_word_joins_the_surname_before_a_credential(unit_finds):
    assert unit_finds("names", "CALL BACK W/ ANY CHANGE.\n-JUNE MORALES, RN") == {"JUNE MORALES": Category.DOCTOR}
    assert unit_finds("names", "REPORT GIVEN TO HOPE DELACRUZ RN.") == {"HOPE DELACRUZ": Category.DOCTOR}
    assert unit_finds("names", "REPORT GIVEN TO STEP-DOWN RN BY PHONE.") == {}


def test_names_joined_by_and_after_a_relation_are_both_relatives(unit_finds):
    assert unit_finds("names", "wt 1420g up 20, parents ivy and rob in 1100-1500 did kangaroo care") == {
        "ivy": Category.PATIENT,
        "rob": Category.PATIENT,
    }
    assert unit_finds("names", "cardiac rehab referral placed, coworker hector ybarra visited") == {"hector ybarra": Category.PATIENT}
    # a relation word after "and" is no second name
    assert unit_finds("names", "GRANDDAUGHTER WILLOW AND GREAT-GRANDSON AT BEDSIDE.") == {"WILLOW": Category.PATIENT}
    assert unit_finds("names", "wife mary and daughter at bs") == {"mary": Category.PATIENT}
    # "en route" is no name after a relation
    assert unit_finds("names", "ex-fix pin sites cleaned social parents en route from home") == {}


def test_an_o_apostrophe_surname_typed_in_lower_case_after_a_title_is_a_name(unit_finds):
    assert unit_finds("names", "no pressors, avoiding inotropes per dr. o'malley. bp 95-110/55-65") == {"o'malley": Category.DOCTOR}


def test_an_unlisted_surname_before_a_credential_carries_the_given_name_before_it(unit_finds):
    assert unit_finds("names", "LINES RECONCILED.\n-PATIENCE OKONJO, RN") == {"PATIENCE OKONJO": Category.DOCTOR}


def test_a_rhythm_or_a_mental_status_before_a_drug_in_capitals_is_no_title(unit_finds):
    assert unit_finds("names", "CV: HR 70S-80S SR. LEVO OFF SINCE 0200, MAPS >65.") == {}
    assert unit_finds("names", "SEEN BY DR. FOLEY. MS. LOPEZ CALLED") == {"FOLEY": Category.DOCTOR, "LOPEZ": Category.PATIENT}


def test_ordinary_words_after_a_role_without_a_colon_name_no_one(unit_finds):
    assert unit_finds("names", "INTENSIVE OUTPT PROGRAM, SW GAVE LIST. TIP POSITION CONFIRMED BY XRAY.") == {}


def test_a_given_name_before_a_staff_role_after_per_is_staff(unit_finds):
    assert unit_finds("names", "sats 93-95 ncp/cpt done per tomas rt pt coughing") == {"tomas": Category.DOCTOR}
    assert unit_finds("names", "afraid to sleep per marguerite charge rn chaplain visit set") == {"marguerite": Category.DOCTOR}
    assert unit_finds("names", "per protocol rn aware. per will rn. d/w charge rn. cpt per rt.") == {}


def test_initials_alone_on_a_notes_last_line_sign_it(unit_finds):
    assert unit_finds("names", "plan wean sedation sat/sbt tomorrow\n-tk\n\n") == {"tk": Category.DOCTOR}
    assert unit_finds("names", "PLAN: CONT CURRENT MGMT.\n-JM RN\n") == {"JM": Category.DOCTOR}
    # a list item, a frequent word or an abbreviation on the last line signs nothing
    assert unit_finds("names", "plan: cont abx\n-ivf\n") == {}
    assert unit_finds("names", "plan: cont abx\n-no\n") == {}
    assert unit_finds("names", "-tk called, plan: cont abx\n") == {}
    # dotted initials with a credential need no dash
    assert unit_finds("names", "NO PRNS NEEDED THIS SHIFT.\nJ.C. RN\n") == {"J.C.": Category.DOCTOR}
    assert unit_finds("names", "NO PRNS NEEDED THIS SHIFT.\nJ.C.\n") == {}


def test_an_initial_a_dot_and_a_surname_after_a_dash_is_a_handle(unit_finds):
    assert unit_finds("names", "PLAN: TRACH DISCUSSION W/ FAMILY.\n-p.vandermolen rn\n") == {"p.vandermolen": Category.DOCTOR}
    assert unit_finds("names", "PLAN: CALLOUT TO 8W WHEN BED.\n-r.santamaria\n") == {"r.santamaria": Category.DOCTOR}
    assert unit_finds("names", "plan:\n-d.c. foley\n") == {}


def test_short_relation_words_and_a_wound_nurse_credential_are_cues(unit_finds):
    assert unit_finds("names", "social gf tanisha in waiting room police at bs" + LOWER_TAIL) == {"tanisha": Category.PATIENT}
    assert unit_finds("names", "ex-boyfriend tyler called asking for info" + LOWER_TAIL) == {"tyler": Category.PATIENT}
    assert unit_finds("names", "wound vac to midline changed by tobias wocn" + LOWER_TAIL) == {"tobias": Category.DOCTOR}
    # "fu" after a relation is the follow-up, not a name
    assert unit_finds("names", "lives in town w wife fu w cards clinic" + LOWER_TAIL) == {}


def test_a_listed_name_before_a_device_word_is_an_eponym(unit_finds):
    note = "MURPHY'S NEG NOW. SALEM SUMP TO LOW INTERMITTENT SX, 220CC BILIOUS."
    assert unit_finds("names", note) == {}


def test_in_capitals_a_word_no_list_holds_before_a_comma_and_a_service_is_no_name(unit_finds):
    assert unit_finds("names", "AMB 150 FT W/ WALKER, UNSTEADY, PT RECOMMENDS REHAB.") == {}
    assert unit_finds("names", "CR 2.1 (FROM 2.6). TOL SIPS, SLP TO EVAL.") == {}
    assert unit_finds("names", "SEEN TODAY BY OKAFOR, PT") == {"OKAFOR": Category.DOCTOR}


def test_a_sitter_and_a_resident_by_short_form_name_staff_but_cc_after_a_number_is_a_unit(unit_finds):
    assert unit_finds("names", "CIWA 14, ATIVAN 1 MG IV X2. 1:1 SITTER MAKANA AT BS.") == {"MAKANA": Category.DOCTOR}
    assert unit_finds("names", "BLADDER PRESSURE 21 MMHG, SICU RES MWANGI AWARE, OGT TO LIS") == {"MWANGI": Category.DOCTOR}
    assert unit_finds("names", "ng tube flushed 20 ml q8, outputs 70/110 cc brown. meropenem" + LOWER_TAIL) == {}


def test_short_forms_of_roles_requests_and_diets_are_no_names(unit_finds):
    text = "WOC RN IN FOR OSTOMY TEACHING. BROTHER REQ UPDATES. VISITED W/ DOG (APPROVED BY MGR)."
    assert unit_finds("names", text) == {}
    assert unit_finds("names", "CAMINO BOLT R FRONTAL, ICP 12-16, CPP >60") == {}


def test_a_capitalised_modal_before_a_verb_after_a_relation_and_child_life_name_no_one(unit_finds):
    assert unit_finds("names", "Child Life at bedside with a tablet; mom Will stay overnight.") == {}
    assert unit_finds("names", "Son Will visited today.") == {"Will": Category.PATIENT}
    assert unit_finds("names", "Son Will is here.") == {"Will": Category.PATIENT}


def test_after_a_relation_a_name_that_is_also_a_word_names_the_person_when_a_person_verb_follows(unit_finds):
    assert unit_finds("names", "wife peg called 2130, updated" + LOWER_TAIL) == {"peg": Category.PATIENT}
    assert unit_finds("names", "SOCIAL: WIFE PEG CALLED, UPDATED.") == {"PEG": Category.PATIENT}
    assert unit_finds("names", "son wisly called from the airport" + LOWER_TAIL) == {"wisly": Category.PATIENT}
    # the clinical word stays a thing where no person verb follows it
    assert unit_finds("names", "wife peg site c/d/i" + LOWER_TAIL) == {}
    assert unit_finds("names", "wife also called twice" + LOWER_TAIL) == {}


def test_a_verb_name_with_its_object_after_a_relation_is_the_verb(unit_finds):
    assert unit_finds("names", "SISTER DREW PT A PICTURE FOR HIS WALL.") == {}
    assert unit_finds("names", "sister drew him a card" + LOWER_TAIL) == {}


def test_a_shortened_verb_and_an_adjective_after_a_relation_are_no_names(unit_finds):
    assert unit_finds("names", "pt's brother called, pt ok'd to give updates to brother only" + LOWER_TAIL) == {}
    assert unit_finds("names", "pt speaking creole w son, tearful, team plans return" + LOWER_TAIL) == {}


def test_a_lowercase_credential_after_a_given_name_and_an_initial_takes_both(detect):
    assert detect("team to reassess dispo, gave report to dana p rn" + LOWER_TAIL) == {"dana p": Category.DOCTOR}
    assert detect("hypercoag w/u sent, c/o tmrw. -jess t. rn" + LOWER_TAIL) == {"jess t.": Category.DOCTOR}


def test_a_listed_given_name_that_is_no_word_before_a_relation_names_the_relative_in_any_case(unit_finds):
    assert unit_finds("names", "lives in town w jules partner who uses wheelchair" + LOWER_TAIL) == {"jules": Category.PATIENT}
    assert unit_finds("names", "SPOKE W MARIA DAUGHTER BY PHONE.") == {"MARIA": Category.PATIENT}
    assert unit_finds("names", "updated pts wife at bedside" + LOWER_TAIL) == {}


def test_a_company_before_rep_and_a_list_of_therapies_name_no_one(unit_finds):
    assert unit_finds("names", "LIFEVEST FITTED BY ZOLL REP.") == {}
    assert unit_finds("names", "PLAN: SPEECH/SWALLOW, PT/OT, ?CALLOUT TO FLOOR.") == {}


def test_in_capitals_colours_burns_and_a_procedure_eponym_are_no_names(unit_finds):
    assert unit_finds("names", "RESP: SX SM AMT GRAY SPUTUM, NO SOOT TODAY.") == {}
    assert unit_finds("names", "41 YO M W/ 30% TBSA FLAME BURNS TO FACE AND CHEST.") == {}
    assert unit_finds("names", "POD 1 S/P SIGMOID COLECTOMY W/ HARTMANN'S FOR PERF.") == {}
    # a title still makes a name of the same words
    assert unit_finds("names", "SPOKE WITH DR GRAY RE: PLAN.") == {"GRAY": Category.DOCTOR}


def test_two_letters_after_a_dash_at_a_notes_end_sign_it_even_where_they_spell_a_short_form(detect):
    assert detect("PLAN: CALL OUT TOMORROW IF STABLE.\n-LT\n\n") == {"LT": Category.DOCTOR}
    assert detect("call out to tele pending bed -mb rn\n\n") == {"mb": Category.DOCTOR}
    assert detect("pt gave # and she was updated. ~ap\n\n") == {"ap": Category.DOCTOR}
    assert detect("NO SX. CALL OUT TOMORROW IF STABLE.\n-T.O. RN\n\n") == {"T.O.": Category.DOCTOR}
    # a sign-off word or a credential alone signs nothing
    assert detect("PLAN: CONT.\n-OK\n") == {}
    assert detect("PLAN: CONT.\n-RN\n") == {}


def test_sentence_ends_roles_in_passing_and_a_pulse_name_no_one(unit_finds):
    assert unit_finds("names", "RASS -1, CAM-ICU NEG. MD NOTIFIED OF UOP <30 X2H.") == {}
    assert unit_finds("names", "cryo x2 plt x1 for ongoing ooze, still chasing bp" + LOWER_TAIL) == {}
    assert unit_finds("names", "lower ext checks q1h stable dp/pt dopp. hct 30 stable" + LOWER_TAIL) == {}
    assert unit_finds("names", "HUSBAND CALLED X2 OVERNIGHT, REASSURED, NEIGHBOR CHECKING ON HIM.") == {}


def test_spoke_with_written_short_is_a_cue_and_eponyms_in_capitals_name_no_one(detect):
    # found and masked; whether a relative or a clinician, the words around her do not say
    assert set(detect("spoke w/ amber by phone, she agrees, will call back" + LOWER_TAIL)) == {"amber"}
    assert detect("CORE 29.8 ON ARRIVAL, OSBORN WAVES ON ECG. HX GRAVES' S/P RAI.") == {}
    assert detect("pt slept 0100-0500. will pass on to day shift. -nsg\n\n") == {}


def test_relatives_listed_in_brackets_after_a_relation_are_names_in_any_case(unit_finds):
    assert unit_finds("names", "agitated, family (joy and lance) want rehab close to home" + LOWER_TAIL) == {
        "joy": Category.PATIENT,
        "lance": Category.PATIENT,
    }
    assert unit_finds("names", "FAMILY (JOY AND LANCE) WANT REHAB CLOSE TO HOME.") == {"JOY": Category.PATIENT, "LANCE": Category.PATIENT}
    # relations or a remark in brackets name no one
    assert unit_finds("names", "family (wife and son) at bedside" + LOWER_TAIL) == {}
    assert "Media" not in unit_finds("names", "Daughter Lynn is POA (document in Media tab, dated 11/2021).")


def test_a_given_name_before_a_role_and_what_staff_do_names_the_clinician(unit_finds):
    assert unit_finds("names", "pt/ot cleared for acute rehab, lorraine cm working on auth" + LOWER_TAIL) == {"lorraine": Category.DOCTOR}
    assert unit_finds("names", "DISPO ISSUES. JOAN SW AWARE.") == {"JOAN": Category.DOCTOR}
    assert unit_finds("names", "pt cm working on auth, the rn will call back" + LOWER_TAIL) == {}


def test_a_word_between_a_dash_and_the_credential_that_ends_a_note_signs_it(detect):
    body = "pt resting comfortably overnight, vss, afebrile, pain controlled with oxy. titrate map >65"
    assert detect(body + " - tiff rn\n\n") == {"tiff": Category.DOCTOR}
    assert detect(body.upper() + " - TIFF RN\n") == {"TIFF": Category.DOCTOR}
    # a role word is no name, and the credential must end the note
    assert detect(body + " - float rn\n") == {}
    assert detect(body + " - tiff rn. more to follow on days") == {}
    # a relation's short form after a tilde at the end is the writer's initials
    assert detect("will call linden court nurse w/ report ~bf\n\n") == {"bf": Category.DOCTOR}


def test_initials_before_a_credential_after_a_hand_off_or_with_the_credential_in_brackets(unit_finds):
    assert unit_finds("names", "NEURO: A+O X3. REPORT RECEIVED FROM LG RN ON DAYS.") == {"LG": Category.DOCTOR}
    assert unit_finds("names", "held lopressor. jt (np) aware." + LOWER_TAIL) == {"jt": Category.DOCTOR}
    assert unit_finds("names", "PER GI RN OK TO FEED.") == {}


def test_whoever_a_patient_likes_to_be_called_is_named_in_any_case(unit_finds):
    assert unit_finds("names", "pt very pleasant, likes to be called sunny." + LOWER_TAIL) == {"sunny": Category.PATIENT}
    assert unit_finds("names", "PT WANTS TO BE CALLED BY CARDIOLOGY.") == {}


def test_a_modal_given_name_after_a_relation_before_no_verb_is_the_name(unit_finds):
    assert unit_finds("names", "pt's son will in this eve, will bring glasses" + LOWER_TAIL) == {"will": Category.PATIENT}
    assert unit_finds("names", "son will call later, wife will be in" + LOWER_TAIL) == {}


def test_a_given_name_from_a_service_is_a_clinician(unit_finds):
    assert unit_finds("names", "pt asked if joy from pt (physical therapy) is coming back" + LOWER_TAIL) == {"joy": Category.DOCTOR}
    assert unit_finds("names", "CALLED BY DEB FROM CASE MGMT RE: DISPO.") == {"DEB": Category.DOCTOR}
    assert unit_finds("names", "pain from pt perspective, relief from pt" + LOWER_TAIL) == {}


def test_a_signature_with_an_initial_and_a_word_closes_a_note(detect):
    assert detect("senna. will page ho if no bm by am.\nplan: cont.\n- c. page rn\n\n") == {"c. page": Category.DOCTOR}


def test_staff_shorthand_and_a_pager_word_name_no_one(unit_finds):
    assert unit_finds("names", "CV: HR 110S ST. PAGED HO RE: TACHY, NO NEW ORDERS.") == {}
    assert unit_finds("names", "neuro checks q1h. nsurg resident (beeper 31220) aware of inr." + LOWER_TAIL) == {}


def test_a_rare_word_after_per_and_one_word_after_a_hand_off_name_the_clinician(unit_finds):
    assert unit_finds("names", "PLAN: KUB IF NO MORE OUTPUT, ?RELISTOR PER LINDQVIST, BOWEL REGIMEN.") == {"LINDQVIST": Category.DOCTOR}
    assert unit_finds("names", "per protocol, per pharm, per policy, per nsgy, per nomogram, per riss, per protcol" + LOWER_TAIL) == {}
    assert unit_finds("names", "REPORT GIVEN TO BROOKS ON STEP DOWN 0615.") == {"BROOKS": Category.DOCTOR}
    assert unit_finds("names", "report given to floor at 1400" + LOWER_TAIL) == {}


def test_the_words_before_a_date_of_birth_name_the_patient(unit_finds):
    text = "PT IDS VERIFIED W/ 2ND RN BEFORE PRBC: SUMMER ALBRIGHT, DOB 4/17/1958. CONSENT ON CHART."
    assert unit_finds("names", text) == {"SUMMER ALBRIGHT": Category.PATIENT}


def test_a_quoted_name_after_called_and_a_house_officer_before_a_name(unit_finds):
    assert unit_finds("names", 'PT CALLED "BUD" BY FAMILY AND RESPONDS BEST TO THAT.') == {"BUD": Category.PATIENT}
    assert "VANTERPOOL" in " ".join(unit_finds("names", "PT DIZZY. PAGED HO VANTERPOOL @ 4-7718, 500CC NS BOLUS."))


def test_initials_after_a_slash_or_with_a_comma_before_the_credential_sign_a_note(detect):
    assert detect("PLAN: CIWA Q4, TERTIARY SURVEY AM.\n/LRB\n\n") == {"LRB": Category.DOCTOR}
    assert detect("plan stress test am if neg x3.\n-- m.k., rn\n\n") == {"m.k.": Category.DOCTOR}


def test_a_house_officer_made_aware_and_a_hyphenated_given_name_name_no_clinician(unit_finds):
    assert unit_finds("names", "TROP PENDING. HO MADE AWARE. REST OF NIGHT UNEVENTFUL.") == {}
    found = unit_finds("names", "Patient verified: Jun-ho Baek, DOB 5 Nov 1983; address on file")
    assert found.get("Jun-ho Baek") is Category.PATIENT


def test_a_significant_other_written_s_slash_o_is_a_relation_but_suggestive_of_names_no_one(unit_finds):
    assert unit_finds("names", "s/o hal called, updated on plan") == {"hal": Category.PATIENT}
    assert unit_finds("names", "S/O DENNIS AT BEDSIDE") == {"DENNIS": Category.PATIENT}
    assert unit_finds("names", "cxr s/o pna, spoke with s/o, updated") == {}


def test_initials_signing_a_note_with_a_slash_before_the_credential_are_a_name(detect):
    assert detect("PT RESTING. CERV COLLAR CLEARED. OOB TO CHAIR.\n-DMK/RN\n") == {"DMK": Category.DOCTOR}
    assert detect("PT RESTING.\n- ICU/RN\n") == {}


def test_in_capitals_a_rhythm_title_before_an_everyday_word_names_no_one(detect):
    assert detect("PAIN CONTROLLED W/ PO OXY 5MG Q4 PRN X2. TELE SR. AWAITING STEP-DOWN BED ON 6 NORTH") == {}


def test_bedside_words_devices_and_scales_with_a_names_shape_are_clinical(detect):
    assert detect("EXTUBATED 1115 TO 4L NC. + CUFF LEAK PRIOR. RESP 2L NC SATS 95 CLEAR DIM BASES GI NPO") == {}
    assert detect("hypotension to 70s/40s while 1 L Lactated Ringer's was bolused. placement confirmed by xr at 2230") == {}


def test_a_cue_opening_a_long_line_in_capitals_names_the_person_but_a_short_heading_does_not(detect):
    assert detect("SPOKE W/ NKEM IN ADMITTING RE BED ASSIGNMENT, NO TELE BEDS TIL LATER THIS PM. PT AWARE.") == {"NKEM": Category.DOCTOR}
    assert detect("INTERPRETER FARID (ARABIC) AT BS FOR CONSENT FOR CENTRAL LINE, PT AND SON AGREED.") == {"FARID": Category.DOCTOR}
    assert detect("ANESTHESIA PRE-OP EVAL\nASA II.") == {}


def test_a_bracket_with_no_name_after_it_stays_out_of_the_name(detect):
    assert detect("Interpreter Farid (Arabic) at bs for consent, pt agreed.") == {"Farid": Category.DOCTOR}


def test_whoever_covers_a_break_is_named_in_any_case(detect):
    assert detect("PT OOB TO CHAIR X2. RELIEVED FOR BREAK BY HOPE 1200-1230, NO EVENTS.") == {"HOPE": Category.DOCTOR}
    assert detect("covered for my break by patience 1230-1300, no events per her." + LOWER_TAIL) == {"patience": Category.DOCTOR}


def test_after_a_relation_a_listed_name_english_seldom_uses_is_the_relative(detect):
    assert detect("SOCIAL: PT'S PARTNER JOJO IN AT 1900, STAYED THE NIGHT, VERY SUPPORTIVE.") == {"JOJO": Category.PATIENT}
    assert detect("SON PRESENT, WIFE AWARE, DAUGHTER VISITING, SON STATES PT WAS CONFUSED AT HOME.") == {}


def test_in_capitals_sr_before_an_everyday_word_and_a_function_word_is_the_rhythm(detect):
    assert detect("BG 180S X2. TELE SR. PLAN TO TRANSFER TO FLOOR WHEN BED AVAIL.") == {}
    assert detect("VISITED BY MS HOPE OKONKWO FROM PASTORAL CARE TODAY, PT CALM AFTER.") == {"HOPE OKONKWO": Category.PATIENT}


def test_a_language_before_an_interpreter_is_no_name(detect):
    assert detect("PT ORIGINALLY FROM HAVANA, PREFERS KRIOLU, PHONE INTERPRETER USED FOR ASSESSMENT.").get("KRIOLU") is None
    assert detect("Seen with Maria Gomez, interpreter, at bedside for consent.") == {"Maria Gomez": Category.DOCTOR}


@pytest.mark.parametrize(
    "text",
    [
        "Burns: 32% TBSA, Lund and Browder chart updated by Burn Surgery. Parkland formula used.",
        "Pt with Grey Turner and Cullen signs noted on exam this AM. Pain 6/10.",
    ],
)
def test_two_names_that_together_are_a_listed_eponym_are_no_names(detect, text):
    assert not any(c in (Category.PATIENT, Category.DOCTOR) for c in detect(text).values())


def test_short_and_misspelt_relation_words_name_the_relative(detect):
    assert detect("HUSB LORCAN CALLED 0300, PT HAD BEEN ASKING FOR HIM, REASSURED, SLEPT AFTER.") == {"LORCAN": Category.PATIENT}
    assert detect("grandaughter kiki at bs, brought pt's hearing aids from home" + LOWER_TAIL) == {"kiki": Category.PATIENT}


def test_a_given_name_that_is_a_verb_after_a_role_is_named_when_what_staff_do_follows(detect):
    assert detect("ON CALL PHARMACIST BILL CALLED RE: VANC TROUGH 24, HELD 2100 DOSE PER HIM.") == {"BILL": Category.DOCTOR}
    assert detect("pharmacist rose verified vanc dose, recheck in am" + LOWER_TAIL) == {"rose": Category.DOCTOR}
    assert detect("TECH MARK SITE FOR CATH, PT TOLERATED WELL, NO EVENTS OVERNIGHT, VSS.") == {}


def test_a_short_title_with_its_full_stop_is_a_title_in_lower_case(detect):
    assert detect("pt asked that her pastor, rev. okwuosa, be called" + LOWER_TAIL) == {"okwuosa": Category.PATIENT}
    assert detect("discussed w/ team, rev. plan for am labs" + LOWER_TAIL) == {}


@pytest.mark.parametrize(
    "text",
    [
        "Patient comfortable sitting in high Fowler's, denies orthopnea.",
        "Aphasia improving. Modified Rankin pending at discharge.",
        "OOB W/ 2 ASSIST & SARA STEDY. MORSE 55. FALL PRECAUTIONS.",
        "ADMIT ICU FOR HYPOTENSION, EBL 900 ML. +MURPHY'S PRE-OP. NEG HOMAN'S. HGB 9.2.",
        "ruq pain, +murphy's on exam, hgb 9.2 and lactate 1.1, surgery aware, pt resting comfortably with sats in the 90s",
        "skin: s/p debridement fournier gangrene, wet to dry dsg perineum, pt resting comfortably with sats in the 90s",
    ],
)
def test_a_name_after_an_eponym_modifier_or_before_a_device_is_no_name(detect, text):
    assert not any(c in (Category.PATIENT, Category.DOCTOR) for c in detect(text).values())


def test_an_attending_written_short_is_a_role(detect):
    assert detect("LASIX 40 IV X1. ATTG LINDQVIST AT BEDSIDE ON ROUNDS, AWARE.") == {"LINDQVIST": Category.DOCTOR}
    assert detect("proning discussed on rounds w/ attg oyelaran, plan to prone at 1600" + LOWER_TAIL) == {"oyelaran": Category.DOCTOR}


def test_after_a_role_a_modal_or_verb_given_name_is_named_when_no_verb_or_a_past_tense_follows(detect):
    assert detect("DESAT TO 84%, RT WILL AT BEDSIDE, SATS RECOVERED.") == {"WILL": Category.DOCTOR}
    assert detect("rt bill changed circuit, placed on hme" + LOWER_TAIL) == {"bill": Category.DOCTOR}
    assert detect("RN WILL CHECK BG AT 2100, INSULIN PER SCALE.") == {}
    assert detect("TECH MARK SITE FOR CATH, PT TOLERATED WELL, NO EVENTS OVERNIGHT, VSS.") == {}


def test_a_given_name_before_a_bracketed_role_is_the_staff_member(detect):
    assert detect("STRAIGHT CATH'D FOR 500CC BY JOY (FLOAT RN).") == {"JOY": Category.DOCTOR}


def test_a_modal_given_name_written_twice_after_a_relation_is_the_name_then_the_verb(detect):
    assert detect("mom at bedside, stepdad will will come after work" + LOWER_TAIL) == {"will": Category.PATIENT}
    assert detect("wife may may follow by car" + LOWER_TAIL) == {"may": Category.PATIENT}
    assert detect("wife may follow by car" + LOWER_TAIL) == {}


def test_in_laws_written_short_are_relations(detect):
    assert detect("HUSB AND MIL CHUNHUA AT BEDSIDE, BABY IN NICU.") == {"CHUNHUA": Category.PATIENT}


def test_surname_comma_given_name_in_a_lower_case_note_is_one_name(detect):
    assert detect("admit: wojcik, dorota, f, from home" + LOWER_TAIL) == {"wojcik, dorota": Category.PATIENT}


def test_a_rare_form_of_a_frequent_word_after_a_name_is_no_surname(detect):
    assert detect("WIFE IRYNA INTERPRETS FOR PT AT BEDSIDE.") == {"IRYNA": Category.PATIENT}
    assert detect("SPEAKS UKRAINIAN ONLY, DTR IRYNA INTERPRETS, DTR PHONE ON FACESHEET.") == {"IRYNA": Category.PATIENT}
    assert detect("SON TOMASZ KOWALCZYK CALLED, UPDATED.") == {"TOMASZ KOWALCZYK": Category.PATIENT}


def test_a_participle_role_without_its_colon_is_the_act(detect):
    assert detect("FAMILY REQUESTING IMAM VISIT, CHAPLAIN PAGED.") == {}
    assert detect("Requesting: Dr Ames") == {"Ames": Category.DOCTOR}


def test_a_given_name_before_a_role_with_its_unit_is_the_staff_member(detect):
    assert detect("labs sent, pt tolerated. per tomasz cath lab rn, site soft" + LOWER_TAIL) == {"tomasz": Category.DOCTOR}


def test_a_modal_given_name_before_the_service_the_person_is_from_is_the_name(detect):
    assert detect("may from the float pool took pt while rn at lunch, no events" + LOWER_TAIL) == {"may": Category.DOCTOR}
    assert detect("pt may go home tomorrow if stable, family aware" + LOWER_TAIL) == {}


def test_a_listed_name_then_whose_relative_the_person_is_names_the_relative(detect):
    assert detect("left vm for tito - pt's brother, will retry in am" + LOWER_TAIL) == {"tito": Category.PATIENT}
    assert detect("SPOKE W/ CHARGE RN, PT'S DAUGHTER TO CALL BACK.") == {}


def test_a_compound_of_ordinary_words_after_a_relation_is_no_name(detect):
    assert detect("VOIDED 350. BABY SKIN-TO-SKIN, LATCHING W/ HELP. HUSBAND AT BS.") == {}
    assert detect("FOB CHANCE AT BS, DOING SKIN-TO-SKIN.") == {"CHANCE": Category.PATIENT}


def test_a_thing_after_a_possessive_before_a_relation_is_no_name(detect):
    assert detect("PT ASKED FOR HER ROSARY, SON BROUGHT IT.") == {}


def test_an_everyday_given_name_before_a_clinical_word_qualifies_it(detect):
    assert detect("EDD CONFIRMED BY EARLY US. BREASTFEEDING, LATCH SCORE 8.") == {}
    assert detect("WEANED TO PS 10/5 AT 0900 BY RT BILL, RSBI 62, TOL X4H.") == {"BILL": Category.DOCTOR}
    assert detect("PRONING + CRRT, CHARGE RN DEAN AWARE OF ACUITY.") == {"DEAN": Category.DOCTOR}


def test_a_quoted_name_the_patient_prefers_names_the_patient(detect):
    assert detect('ADMITTED FROM HOME. PREFERS "PAT". NGT TO LIS.') == {"PAT": Category.PATIENT}


def test_a_name_is_never_propagated_into_a_hyphenated_word(detect):
    note = "pna on cxr. nephew ray at bedside, updated. ceftriaxone started. x-ray of chest clear" + LOWER_TAIL
    assert detect(note) == {"ray": Category.PATIENT}


def test_a_modal_given_name_before_to_or_a_verb_in_s_is_the_name(detect):
    assert detect("husb at bedside. chaplain may to visit in am" + LOWER_TAIL) == {"may": Category.DOCTOR}
    assert detect("tmax 37.9. rn will takes over at 1900" + LOWER_TAIL) == {"will": Category.DOCTOR}
    assert detect("sitter rose reports pt slept 6h, no prns" + LOWER_TAIL) == {"rose": Category.DOCTOR}
    assert detect("RN WILL CHECK BG AT 2100, INSULIN PER SCALE.") == {}


def test_wife_written_w_slash_f_is_a_relation_and_onc_a_role(detect):
    assert detect("cpap at home - w/f dolores to bring machine" + LOWER_TAIL) == {"dolores": Category.PATIENT}
    assert detect("CBC OK PER ONC OYELARAN, SAME DOSE.") == {"OYELARAN": Category.DOCTOR}
    assert detect("ONC AWARE, WILL ADJUST DOSE.") == {}
    assert detect("HEME ONC ATTG DR BAKER WANTS POST-TRANSFUSION CBC.") == {"BAKER": Category.DOCTOR}


def test_a_title_and_a_given_name_vouch_for_a_surname_that_is_also_a_word(detect):
    assert detect("TRANSFER ACCEPTED BY DR MARCUS BELL, CRITICAL CARE. PT RESTING.") == {"MARCUS BELL": Category.DOCTOR}
    assert detect("d/w dr priya page re: k replacement" + LOWER_TAIL) == {"priya page": Category.DOCTOR}
    # the given name itself may be a word: then the title vouches for one word only
    assert detect("PER DR WILL BELL CALLED") == {"WILL": Category.DOCTOR}
    assert detect("PER DR KENNEY OK TO TRANSFER. PT RESTING. SON AT BS.") == {"KENNEY": Category.DOCTOR}


def test_an_irish_or_italian_prefixed_surname_in_lower_case_follows_the_given_name(detect):
    assert detect("pt's wife brigid o'neill here 1100-1900" + LOWER_TAIL) == {"brigid o'neill": Category.PATIENT}
    assert detect("extubated at 9 o'clock, tolerating 4l nc" + LOWER_TAIL) == {}


def test_a_given_name_from_a_rehab_or_procedure_service_is_the_staff_member(detect):
    assert detect("AMB 300 FT W/ DEB FROM CARDIAC REHAB, ROLLING WALKER.") == {"DEB": Category.DOCTOR}
    assert detect("PT BACK FROM IR, SITE C/D/I. VSS. NO ISSUES.") == {}


def test_any_quoted_word_after_a_naming_verb_is_what_the_person_is_called(detect):
    assert detect('PT GOES BY "TANK", PREFERS MALE RN.') == {"TANK": Category.PATIENT}
    assert detect('known as "big mike" on the unit' + LOWER_TAIL) == {"big mike": Category.PATIENT}
    # asking or looking for a quoted thing names no one, nor does a weekday after a call
    assert detect('asks for "water" often' + LOWER_TAIL) == {}
    assert detect("CASE MGR TO CALL THEM MON. PT STATES HIS DAUGHTER WORKS THERE.") == {}


def test_a_past_tense_after_a_relation_is_what_the_person_did(detect):
    assert detect("pt's wife rode with him in the ambulance, updated on plan" + LOWER_TAIL) == {}
    assert detect("SON RAN TO GET THE CAR. DAUGHTER ANA AT BS.") == {"ANA": Category.PATIENT}


def test_an_eponym_after_pt_in_a_lower_case_note_is_no_name(detect):
    assert detect("bicarb 8. pt kussmaul breathing on arrival, rr 30s" + LOWER_TAIL) == {}
    # a surname that is also an eponym still follows a given name
    assert detect("wound care rn tamsin kell in for dsg, pt on ra, walked hall x2" + LOWER_TAIL) == {"tamsin kell": Category.DOCTOR}


def test_a_word_ending_like_a_verb_before_a_date_of_birth_is_no_name(detect):
    assert detect("ID BAND RECHECKED, DOB 8/30/71 VERIFIED W/ PT BEFORE BLOOD.") == {"8/30/71": Category.DATE}


def test_a_spaced_in_law_relation_names_the_person_after_law(detect):
    assert detect("pts son in law marcus called from work for update" + LOWER_TAIL) == {"marcus": Category.PATIENT}
    assert detect("DAUGHTER IN LAW JOY AT BS, TEARFUL.") == {"JOY": Category.PATIENT}
    assert detect("daughter in law at bedside, updated" + LOWER_TAIL) == {}


def test_a_dash_line_that_ends_a_note_signs_it_with_a_given_name_that_is_a_word(detect):
    note = "wife at bs until 2100, asked good questions about the trach, teaching started." + LOWER_TAIL
    # whoever signs a note is on its staff; after "thanks" a message is signed by whoever wrote it
    assert detect(note + "\n-mark\n") == {"mark": Category.DOCTOR}
    assert detect("PLAN: REPEAT CBC 1600. -NATE") == {"NATE": Category.DOCTOR}
    assert detect("can you call me back about the refill? thanks\n- Alyssa") == {"Alyssa": Category.PATIENT}
    assert detect(note + "\n-will\n") == {}
    # the last item of a dashed list is no signature
    assert detect(note + "\nplan:\n- wean\n- walker\n") == {}


def test_a_staff_given_name_before_a_verb_in_ing_is_the_staff_member(detect):
    assert detect("CM ROSE ARRANGING LTACH TRANSFER, AUTH PENDING.") == {"ROSE": Category.DOCTOR}
    assert detect("TECH MARK SITE FOR THE BIOPSY.") == {}


def test_a_modal_after_a_title_or_a_title_after_an_article_is_no_name(detect):
    assert detect("WIFE ASKING IF SHE SHOULD COME IN. DR WILL CALL HER AFTER ROUNDS.") == {}
    assert detect("son wants the dr call him in am re plan" + LOWER_TAIL) == {}
    # a modal that is a given name stays a name where no verb follows
    assert detect("PER DR MAY HOLLIS AT BS, CONT LEVO.") == {"MAY HOLLIS": Category.DOCTOR}


def test_an_article_before_a_job_title_names_no_one(detect):
    assert detect("PT ASKED FOR A PRIEST, CHAPLAIN PAGED.") == {}


def test_a_drug_after_a_title_short_form_is_no_name(detect):
    assert detect("MS CONTIN 15 BID, SENNA HS. PAIN 3/10.") == {}


def test_one_word_that_ends_the_clause_after_goes_by_is_the_nickname(detect):
    assert detect("PT GOES BY SMOKEY, ASKING FOR COFFEE.") == {"SMOKEY": Category.PATIENT}
    assert detect("pt goes by peanut on the unit" + LOWER_TAIL) == {"peanut": Category.PATIENT}
    # how the patient travels, or a part of the name, is no nickname
    assert detect("goes by wheelchair to dialysis mwf" + LOWER_TAIL) == {}
    assert detect("goes by his middle name per wife" + LOWER_TAIL) == {}


def test_a_word_beside_a_bracketed_role_or_after_an_interpreters_language_is_the_staff_member(detect):
    assert detect("k 5.9, lindqvist (night res) aware, repeat sent" + LOWER_TAIL) == {"lindqvist": Category.DOCTOR}
    assert detect("interpreter (somali) hodan at bs for consent" + LOWER_TAIL) == {"hodan": Category.DOCTOR}
    # a team, a service or a language alone names no one
    assert detect("plan d/w team (np) and family" + LOWER_TAIL) == {}
    assert detect("INTERPRETER (SPANISH) AT BS FOR CONSENT. VSS.") == {}


def test_after_s_p_a_surgeons_name_is_the_operation(detect):
    assert detect("S/P BIDIRECTIONAL GLENN POD 1. CVP 14.") == {}
    assert detect("S/P NORWOOD W/ RV-PA (SANO) CONDUIT, CHEST OPEN.") == {}
    assert detect("s/p visit with dr glenn, f/u 2 wks" + LOWER_TAIL) == {"glenn": Category.DOCTOR}


def test_a_kind_of_relation_or_the_child_life_service_is_no_name_before_it(detect):
    assert detect("foster mom bernadette called at 2145 from home" + LOWER_TAIL) == {"bernadette": Category.PATIENT}
    assert detect("PT SCARED OF NEEDLES, CHILD LIFE CONSULT PLACED.") == {}


def test_a_past_tense_after_a_relation_is_the_verb_even_when_listed_as_a_given_name(detect):
    assert detect("NO INFO GIVEN PER PRIVACY LIST. DAD MADE AWARE.") == {}


def test_a_word_with_a_prefix_is_no_name(detect):
    assert detect("pt ex-nicu graduate w malrotation repair hx" + LOWER_TAIL) == {}


def test_the_person_in_brackets_after_a_service_is_the_staff_member(detect):
    assert detect("CHILD LIFE (TAMSIN) DID MEDICAL PLAY BEFORE PIV.") == {"TAMSIN": Category.DOCTOR}
    assert detect("rt (aware) placed pt on bipap" + LOWER_TAIL) == {}


def test_a_past_tense_after_a_lower_case_dr_is_what_the_doctor_did(detect):
    assert detect("dr came by at 2200, stopped mivf" + LOWER_TAIL) == {}


def test_a_word_before_a_relatives_possession_is_no_name(detect):
    assert detect("ACCIDENTAL INGESTION, AMLODIPINE (GRANDPARENT'S PILLBOX). HR 60S.") == {}
    assert detect("ODALYS (DAUGHTER) CALLED FOR UPDATE.") == {"ODALYS": Category.PATIENT}


def test_a_name_before_a_devices_model_number_or_its_eye_is_the_device(detect):
    assert detect("PROP 30, FENT 50. HAMILTON C6 ON ASV MODE, THEN AC 16/450.") == {}
    assert detect("7.5 ETT 23 AT LIP, MURPHY EYE CLEAR.") == {}
    # a resident's year after a surname is no model number: the surname stays a name
    found = detect("K 5.9, PAGED RESIDENT OYELARAN R2, REPEAT SENT.")
    assert [category for text, category in found.items() if "OYELARAN" in text] == [Category.DOCTOR]


_LOWER_NOTE_TAIL = " pt resting comfortably, vss, no acute events overnight, plan unchanged."


def test_a_listed_name_no_word_is_a_name_in_a_lower_case_note(detect):
    # in a note typed all in lower case, capitals carry no evidence: the name lists do, as on a line in capitals
    text = "spoke w/ perfusion, teodoro on call tonight, flows 4.5." + _LOWER_NOTE_TAIL
    assert detect(text)["teodoro"] in (Category.PATIENT, Category.DOCTOR)
    text = "tsicu handoff: report on tomasz wierzbicki, mvc rollover." + _LOWER_NOTE_TAIL
    assert "tomasz wierzbicki" in detect(text)


def test_a_lone_name_english_uses_often_is_a_word_in_a_lower_case_note(detect):
    text = "trach aspirate w/ normal flora. pt in a clean johnny, asked for graham crackers. retired mason." + _LOWER_NOTE_TAIL
    assert detect(text) == {}
    assert detect("etoh a glass of sherry nightly, ciwa 0." + _LOWER_NOTE_TAIL) == {}


def test_the_same_names_in_mixed_case_are_left_to_cues(detect):
    assert "teodoro" not in detect("Spoke w/ perfusion, teodoro on call tonight. Flows 4.5, no chatter.")


def test_occupational_therapy_before_a_given_name_is_a_staff_cue(detect):
    assert detect("fitting scheduled w/ ot heather. mood better, joking w/ staff." + _LOWER_NOTE_TAIL) == {"heather": Category.DOCTOR}
    assert detect("OT EVAL DONE, REC REHAB. PT/OT TO FOLLOW. OT CONSULT PLACED.") == {}


def test_a_given_name_that_is_a_word_after_a_role_and_is_names_the_staff_member(detect):
    assert detect("night charge rn is ivy tonight. pt had 2 episodes svt at 2330, vagal w ice broke it.") == {"ivy": Category.DOCTOR}
    assert detect("charge rn is aware of plan, rn is here at bedside, pt resting comfortably overnight.") == {}


def test_a_given_name_that_is_a_word_before_a_surname_the_lists_take_is_part_of_the_name(detect):
    assert detect("neuro icu admit note. hope castillo, sah hunt-hess 2, fisher 3." + _LOWER_NOTE_TAIL) == {"hope castillo": Category.PATIENT}
    assert detect("NEURO ICU ADMIT. HOPE CASTILLO, SAH HUNT-HESS 2, FISHER 3, EVD OPEN AT 10.") == {"HOPE CASTILLO": Category.PATIENT}


def test_a_surname_that_is_a_word_after_a_given_name_the_lists_take_is_part_of_the_name(detect):
    assert detect("TRAUMA ICU HANDOFF - REPORT ON DESHAWN PRICE, HD 3 S/P MCC.") == {"DESHAWN PRICE": Category.PATIENT}
    assert detect("GAVE TYLENOL. DESHAWN WALKED IN HALL, TOLERATED WELL.") == {"DESHAWN": Category.PATIENT}


def test_a_priests_title_with_its_full_stop_names_him_but_a_catheters_french_size_names_no_one(detect):
    assert detect("PARISH PRIEST FR. O'DRISCOLL COMING ON 0700 BOAT FOR ANOINTING.") == {"O'DRISCOLL": Category.PATIENT}
    assert detect("16 FR FOLEY PLACED. 20 FR. CHEST TUBE TO SXN, DRAINING WELL.") == {}
    assert detect("FAMILY REQUESTED PRIEST, FR. DONNELLY FROM PASTORAL CARE IN AT 1930.") == {"DONNELLY": Category.DOCTOR}


def test_a_lower_case_dash_signature_closing_a_note_in_capitals_names_the_writer(detect):
    assert detect("PT RESTING, FAMILY AT BEDSIDE, PLAN UNCHANGED.\n- tiff rn\n") == {"tiff": Category.DOCTOR}
    assert detect("Pt resting, family at bedside.\n- c. page rn\n") == {"c. page": Category.DOCTOR}


def test_the_shift_between_a_signature_and_its_credential_is_no_obstacle(detect):
    assert detect("will pass on to day rn to keep regimen, pain controlled overnight.\n- ben, night rn\n") == {"ben": Category.DOCTOR}


def test_the_admit_or_handoff_label_a_note_opens_on_names_the_patient_after_it(detect):
    assert detect("ADMIT: KOVALENKO, MYKOLA FROM ED W/ NSTEMI, HEPARIN GTT.") == {"KOVALENKO, MYKOLA": Category.PATIENT}
    assert detect("ADMIT: CHF EXACERBATION, ON BIPAP. HANDOFF: PT STABLE OVERNIGHT. ADMIT: NEW ONSET DKA.") == {}


def test_a_listed_name_after_a_place_preposition_in_a_lower_case_note_is_the_place(detect):
    assert detect("pt is a dairy farmer in hardwick, worried about his cows." + _LOWER_NOTE_TAIL) == {"hardwick": Category.LOCATION}


def test_a_quoted_word_right_after_a_relative_or_a_hand_offs_patient_is_what_they_are_called(detect):
    text = 'NO KNOWN FAMILY, FRIEND "CRICKET" LISTED AS EMERGENCY CONTACT.'
    assert detect(text) == {"CRICKET": Category.PATIENT}
    assert detect('BMT HANDOFF. REPORT ON "BIG MIKE" (PREFERS), DAY +22.') == {"BIG MIKE": Category.PATIENT}
    assert detect('wife "upset" at bs, son "ok" with plan, dtr "worried".' + _LOWER_NOTE_TAIL) == {}


def test_a_quoted_subject_before_what_a_person_does_and_a_name_called_out_for_are_the_person(detect):
    assert detect('NEURO EXAM STABLE. "SKIP" HAD A ROUGH NIGHT. SUNDOWNING.') == {"SKIP": Category.PATIENT}
    assert detect('WOKE 0300 SCREAMING FOR "JUNIOR", HER GRANDSON.') == {"JUNIOR": Category.PATIENT}
    assert detect('"PAIN" WAS 8/10 AT 0200. PT CRYING FOR "HELP" X1.') == {}


def test_what_the_patient_calls_himself_or_says_his_name_is_names_him(detect):
    assert detect("pt calls himself hoot, says everybody at church does." + _LOWER_NOTE_TAIL) == {"hoot": Category.PATIENT}
    note = "says his name is junior and dont call him anything else." + _LOWER_NOTE_TAIL
    assert detect(note) == {"junior": Category.PATIENT}
    assert detect("her name is on the chart. his name is spelled wrong on band." + _LOWER_NOTE_TAIL) == {}


def test_a_hand_off_written_with_an_arrow_names_both_nurses(detect):
    assert detect("HANDOFF DEWAYNE -> JESS. CIWA 14-19 ALL NIGHT.") == {"DEWAYNE": Category.DOCTOR, "JESS": Category.DOCTOR}
    assert detect("HANDOFF DAYS -> NIGHTS. REPORT ICU -> FLOOR.") == {}


def test_a_brand_or_eponym_before_the_thing_it_names_is_no_person(detect):
    text = "Skin itchy, Sarna lotion applied. Out of bed to the Broda chair. Intubated for Ludwig's angina."
    assert detect(text) == {}
    assert detect("PT ACCEPTED ORANGE JUICE AND GRAHAM CRACKERS.") == {}
    assert detect("Seen by Dr. Broda, chair of surgery.") == {"Broda": Category.DOCTOR}


def test_surnames_english_uses_often_are_no_name_pair_where_case_says_nothing(unit_finds):
    assert unit_finds("names", "he cooks for the crew at the camp kitchen" + LOWER_TAIL) == {}
    assert unit_finds("names", "pt rocky balboa resting" + LOWER_TAIL) == {"rocky balboa": Category.PATIENT}


def test_a_farm_machine_is_no_name_but_a_title_still_names_the_person(unit_finds):
    assert unit_finds("names", "trauma: r hand caught in grain auger, degloving" + LOWER_TAIL) == {}
    assert unit_finds("names", "Seen by Dr. Auger in clinic.") == {"Auger": Category.DOCTOR}


def test_a_public_role_or_three_ordinary_words_after_a_staff_cue_name_no_one(unit_finds):
    assert unit_finds("names", "WIFE NOTIFIED BY SHERIFF AT 0300.") == {}
    assert unit_finds("names", "HANDOFF TO DAY RN: NEW CIRCUIT PRIMED AT BEDSIDE.") == {}
    assert unit_finds("names", "CHARGE RN: GRACE HILL.") == {"GRACE HILL": Category.DOCTOR}


def test_a_given_name_after_pt_before_prefers_names_the_patient(unit_finds):
    assert unit_finds("names", "pt homer prefers to sleep in the recliner" + LOWER_TAIL) == {"homer": Category.PATIENT}


def test_a_dash_before_the_last_word_of_a_note_signs_it(unit_finds):
    found = unit_finds("names", "foley draining, resting, no prns needed tonight -esteban")
    assert set(found) == {"esteban"}
    assert unit_finds("names", "Dr. Ricardo Antunes Falcão - Reumatologista\n\n").keys() == {"Ricardo Antunes Falcão"}


def test_a_given_name_that_is_a_word_signs_with_its_credential_even_a_modal(unit_finds):
    assert unit_finds("names", "pt calm overnight, will continue to monitor -will rn to f/u in am," + LOWER_TAIL) == {}
    assert unit_finds("names", "pt calm overnight, sats 95 on 2l, will continue to monitor -will rn") == {"will": Category.DOCTOR}
    assert unit_finds("names", "PT CALM OVERNOC, SATS 95% 2L. -WILL RN\nDAY: UP TO CHAIR.") == {"WILL": Category.DOCTOR}
    assert unit_finds("names", "PT CALM OVERNOC. -MAY") == {}
    assert unit_finds("names", "pt calm overnight, sats 95 on 2l, mom at bedside -will rt") == {"will": Category.DOCTOR}


def test_a_given_name_that_is_a_word_after_a_staff_role_and_its_colon_names_the_nurse(unit_finds):
    assert unit_finds("names", "PT CALM OVERNOC. RN: HUNTER") == {"HUNTER": Category.DOCTOR}
    assert unit_finds("names", "PT CALM OVERNOC. RN: WILL FOLLOW UP. RN: AWARE OF K 3.1") == {}


def test_a_lone_word_after_a_field_label_that_does_not_end_the_field_is_no_name(unit_finds):
    assert unit_finds("names", "Plan: home w/ HHPT.\nOT: min assist LB dressing, bathing.") == {}


def test_a_role_or_an_occupation_after_an_article_is_no_name_where_case_says_nothing(unit_finds):
    assert unit_finds("names", "SOCIAL: PT IS A RETIRED DEACON, WIFE AT BEDSIDE, CHURCH FAMILY CALLING.") == {}
    assert unit_finds("names", "SPLINTED COUGH WITH PILLOW. PT A LOGGER, SAYS HE IS GOING BACK IN THE WOODS.") == {}
    assert unit_finds("names", "ARREST AT HOME, BYSTANDER CPR BY SON, ROSC AFTER 18 MIN.") == {}
    assert unit_finds("names", "Spoke with Deacon, son, by phone.") == {"Deacon": Category.PATIENT}


def test_an_aunty_a_nana_or_a_half_brother_is_a_relation_before_a_name(unit_finds):
    assert unit_finds("names", "HANAI SON JUSTIN AND AUNTY MALIA AT BS, ASKING RE GOALS.") == {
        "JUSTIN": Category.PATIENT,
        "MALIA": Category.PATIENT,
    }
    assert unit_finds("names", "auntie pua called, nana at bedside" + LOWER_TAIL) == {"pua": Category.PATIENT}


def test_an_unknown_patient_identified_as_a_name_is_named_and_identified_as_a_thing_is_not(unit_finds):
    assert unit_finds("names", "UNKNOWN M, NEAR-DROWNING. NOW ID'D AS FETU, BROTHER EN ROUTE.") == {"FETU": Category.PATIENT}
    assert unit_finds("names", "now identified as sione by family" + LOWER_TAIL) == {"sione": Category.PATIENT}
    things = "PT IDENTIFIED AS HIGH FALL RISK. ORGANISM IDENTIFIED AS MRSA. identified as pseudomonas, identified as the source."
    assert unit_finds("names", things) == {}


def test_a_word_that_is_no_word_signs_a_lower_case_note_with_rt_after_a_dash(unit_finds):
    assert unit_finds("names", "strong cough, speech eval am" + LOWER_TAIL + "\n-tavita rt") == {"tavita": Category.DOCTOR}
    assert unit_finds("names", "flushed, site c/d/i" + LOWER_TAIL + "\n-picc rt") == {}


def test_lines_drugs_scales_and_organisms_written_like_names_are_no_names(detect):
    caps = "TEMP HD CATH R FEM PLACED 2030. CRRT VIA R FEM QUINTON. NORTON AND BRADEN BOTH CHARTED. SPUTUM GROWING SERRATIA."
    assert detect(caps) == {}
    mixed = "Parkinson's pt, meds given on time. Ramsay Hunt ruled out. Grandchildren sang hymns by phone."
    assert detect(mixed) == {}
    assert detect("sitter returned to pool, referred to OPO coordinator" + LOWER_TAIL) == {}


def test_a_shift_or_a_service_before_a_credential_is_no_name(unit_finds):
    text = "Wound Care RN consult placed. Structural Heart NP to see in AM. Hand-off given to Day RN at 0700. Night RN updated."
    assert unit_finds("names", text) == {}
    assert unit_finds("names", "Report from Mary Rose RN at 0700.") == {"Mary Rose": Category.DOCTOR}


def test_a_trade_or_job_names_no_one_without_a_cue(detect):
    assert detect("UNEMPLOYED WELDER, BROTHER REPORTS HEAVY DAILY DRINKING. TLSO FITTED BY ORTHOTIST, HOB UP 30.") == {}
    assert detect("DR BARBER AWARE. SEEN BY DR WATERMAN") == {"BARBER": Category.DOCTOR, "WATERMAN": Category.DOCTOR}


def test_a_role_and_a_word_given_name_before_a_comma_and_the_next_person_names_the_staff_member(detect):
    found = detect("family meeting w/ dr okonkwo, chaplain grace, wife norma, and 3 children.")
    assert found == {"okonkwo": Category.DOCTOR, "grace": Category.DOCTOR, "norma": Category.PATIENT}


def test_surnames_with_no_given_name_on_a_line_in_capitals_are_words(detect):
    assert detect("RATTLESNAKE BITE R HAND WHILE MOVING HAY BALES IN BARN APPROX 1500.") == {}
    assert detect("CALLED TUCKER MCBRIDE AT 1500.") == {"TUCKER MCBRIDE": Category.PATIENT}


def test_the_emergency_department_written_short_is_no_name_after_by(detect):
    assert detect("r ij cvc placed by ed, cxr confirmed.") == {}
    assert detect("son ed called, updated.") == {"ed": Category.PATIENT}


def test_a_given_name_with_its_relation_alone_in_brackets_names_the_relative_even_when_it_is_a_word(detect):
    assert detect("HOPE (WIFE) CALLED FOR UPDATE.") == {"HOPE": Category.PATIENT}
    assert detect("called hope (wife) re plan. per rusty (brother) pt drinks daily.") == {"hope": Category.PATIENT, "rusty": Category.PATIENT}
    assert detect("pain (wife says) worse. will (son) call back. rest (family) aware") == {}


def test_a_trade_after_works_as_or_retired_names_no_one(detect):
    assert detect("PT TEARFUL, WORKS AS A MASON, ASKING WHEN HE CAN GO BACK TO WORK.") == {}
    assert detect("RETIRED BARBER, LIVES ALONE ABOVE HIS OLD SHOP.") == {}


def test_a_participle_after_pt_describes_the_patient(detect):
    assert detect("1.5L FLUID RESTRICTION, PT GRUMBLING.") == {}
    assert detect("PT MANNING ADMITTED FROM ED.") == {"MANNING": Category.PATIENT}


def test_a_relative_named_by_a_clinical_word_is_named_when_where_they_live_follows(detect):
    text = "daughter peg lives out of state, prefers update by phone. pt resting comfortably on the vent overnight no acute events"
    assert detect(text) == {"peg": Category.PATIENT}


def test_short_forms_of_recommend_possible_a_cardiac_surgery_unit_and_the_embolism_team_name_no_one(detect):
    text = "PT/OT EVAL DONE, REC ACUTE REHAB. AMBULATE WITH PT, POSS TRANSFER TO STEPDOWN. TPA PER PERT. TRANSFER TO CVSU."
    assert detect(text) == {}


def test_a_relatives_surname_that_is_a_word_joins_the_name_when_what_they_do_follows(detect):
    text = "friend terry bell called asking for info. nephew marcus young will pick pt up. wife mary still at bedside. pt resting on the vent"
    found = detect(text)
    assert found["terry bell"] == found["marcus young"] == found["mary"] == Category.PATIENT
    assert "mary still" not in found


def test_after_a_staff_role_a_surname_that_is_a_word_names_the_person_who_acts(detect):
    assert detect("SW YOUNG CONSULTED RE PAP PROGRAMS. CM BELL AWARE.") == {"YOUNG": Category.DOCTOR, "BELL": Category.DOCTOR}
    assert detect("EDD CONFIRMED BY EARLY US.") == {}


def test_a_word_with_an_s_after_a_relation_or_alone_in_a_caseless_note_is_no_name(detect):
    assert detect('2 g na teaching, pt says wife cooks "with plenty of salt".' + LOWER_TAIL) == {}
    assert detect("pt works seasonal at the food stand in summer, off winters." + LOWER_TAIL) == {}
    assert detect("DAUGHTER BROOKS CALLED. -JUNE MORALES, RN") == {"BROOKS": Category.PATIENT, "JUNE MORALES": Category.DOCTOR}


def test_what_a_patient_prefers_to_be_called_or_goes_by_names_the_patient(detect):
    assert detect("NOC: PT (PREFERS HOPE) TEARFUL 0300, HOMESICK, TALKED W/ MOM.") == {"HOPE": Category.PATIENT}
    assert detect("PT WILL, GOES BY HIS MIDDLE NAME PER FAMILY.") == {"WILL": Category.PATIENT}
    assert detect("pt boogie (what everybody calls him) pulled ngt." + LOWER_TAIL) == {"boogie": Category.PATIENT}
    assert detect("pt prefers sunny, states she ran out of lantus." + LOWER_TAIL) == {"sunny": Category.PATIENT}
    text = "pt prefers coffee, no cream. pt pleasant, prefers tea. pt (prefers ice chips). daughter (prefers text) 555-0161."
    assert detect(text + LOWER_TAIL) == {}
    assert detect("pt tearful (called her son). pt resting (calls him every night)." + LOWER_TAIL) == {}


def test_who_a_hand_off_was_with_is_a_clinician_when_the_name_ends_the_clause(detect):
    assert detect("RECEIVED REPORT FROM DEB 1900. NEURO: A&OX4.") == {"DEB": Category.DOCTOR}
    text = "report to floor. REPORT FROM ED 1900. report to pacu 1400. report received from or team. report to charge."
    assert detect(text + LOWER_TAIL) == {}


def test_a_modal_that_is_a_given_name_names_the_relative_when_the_clause_ends_after_it(detect):
    assert detect("GOING HOME TO ELKIN W/ DAUGHTER MAY. DEVICE CLINIC FRIDAY.")["MAY"] == Category.PATIENT
    assert detect("son will call back. daughter may come tomorrow." + LOWER_TAIL) == {}


def test_a_clinical_word_a_phrases_last_word_or_a_language_before_a_relation_is_no_name(detect):
    text = "74 Y/O M W/ PNA, WIFE PASSED. CP FREE. PT PREFERS NAVAJO, SON TRANSLATING AT BS."
    assert detect(text) == {"74 Y/O": Category.AGE}
    assert detect("Family meeting at 1400 with Palliative, Attending, Social Work, daughter and son-in-law.") == {}
    assert detect("Mary Grace, wife, at bedside. JUNE, DAUGHTER, CALLED.") == {"Mary Grace": Category.PATIENT, "JUNE": Category.PATIENT}


def test_letters_glued_to_a_number_make_no_initial(detect):
    assert detect("RAPID RESPONSE TO 4TH FLR, PT ACCEPTED TO UNIT AT 0120.") == {}


def test_a_buddy_is_a_relation_before_a_name_and_a_name_after_one(detect):
    assert detect("PT SAYS HIS BUDDY SWEDE FOUND HIM AFTER HE DIDN'T SHOW.") == {"SWEDE": Category.PATIENT}
    assert detect("TTWB L LE. SON BUDDY UPDATED AT BEDSIDE.") == {"BUDDY": Category.PATIENT}
    assert detect("buddy taped fingers. hunting buddy called." + LOWER_TAIL) == {}


def test_a_language_after_a_relation_is_no_name_where_case_says_nothing(detect):
    assert detect("A+OX3, SPEAKING FINNISH W/ DAUGHTER, ENGLISH OK W/ STAFF.") == {}
    assert detect("Daughter Joy English called, updated.") == {"Joy English": Category.PATIENT}


def test_a_nickname_quoted_after_a_cued_name_names_the_same_person(detect):
    assert detect("DTR GISELE (\"GIGI\") AT BEDSIDE, SHE IS HCP.") == {"GISELE": Category.PATIENT, "GIGI": Category.PATIENT}
    found = detect('son robert "bobby" called, updated.' + LOWER_TAIL)
    assert found == {"robert": Category.PATIENT, "bobby": Category.PATIENT}
    assert detect('WIFE MARIE "UPSET" ABOUT PLAN.') == {"MARIE": Category.PATIENT}


def test_a_hand_off_names_a_listed_name_english_seldom_writes(detect):
    assert detect("transferred to step down, report given to steph." + LOWER_TAIL) == {"steph": Category.DOCTOR}
    assert detect("report given to oncoming rn. REPORT GIVEN TO CHARGE." + LOWER_TAIL) == {}


def test_a_verb_in_es_after_a_relation_is_what_the_relative_does(detect):
    assert detect("WORKS NIGHTS AT THE PAPER MILL. WIFE SMOKES TOO, EDUCATED ON CESSATION.") == {}
    assert detect("WIFE JAMES AT BS. SON HAYES CALLED.") == {"JAMES": Category.PATIENT, "HAYES": Category.PATIENT}


def test_a_primary_language_names_no_provider(detect):
    assert detect("76 YO M FROM MADAWASKA, PRIMARY LANG FRENCH, L MCA CVA")["76 YO"] == Category.AGE
    assert "LANG FRENCH" not in detect("76 YO M FROM MADAWASKA, PRIMARY LANG FRENCH, L MCA CVA")
    assert detect("PRIMARY: DR OUELLETTE AWARE.") == {"OUELLETTE": Category.DOCTOR}


def test_a_language_that_is_a_given_name_first_names_the_relative(detect):
    assert detect("SPO2 95% RA. WIFE KAREN HERE FROM HOME.") == {"KAREN": Category.PATIENT}
    assert detect("A+OX3, SPEAKING FINNISH W/ DAUGHTER, ENGLISH OK W/ STAFF.") == {}


def test_a_word_a_hyphen_glues_to_a_number_is_no_name(detect):
    assert detect("YOUNG MALE S/P 4-WHEELER ROLLOVER IN A RICE FIELD, NO HELMET.") == {}


def test_the_name_a_newborn_is_given_is_a_name_even_when_it_is_a_word(detect):
    assert detect("BABY GIRL 34 WKS ON CPAP, THEY NAMED HER HOPE. PT CRYING") == {"HOPE": Category.PATIENT}
    assert detect("they named her after her grandmother, pt tearful." + LOWER_TAIL) == {}


def test_a_listed_name_after_an_article_is_a_word_where_case_says_nothing(detect):
    assert detect("PT PINNED AGAINST A CORRAL GATE BY A BULL DURING BRANDING") == {}
    assert detect("DTR CORRAL AT BS, UPDATED") == {"CORRAL": Category.PATIENT}


def test_who_works_a_boat_with_the_patient_is_named_as_a_relative_is(detect):
    found = detect("upset about the boat. deckhand travis called from the dock, pt gave verbal ok." + LOWER_TAIL)
    assert found == {"travis": Category.PATIENT}
    assert detect("STRONG COUGH. TEARFUL WHEN ASKING ABOUT CREWMATE, CHAPLAIN AT BEDSIDE.") == {}


def test_a_word_before_an_object_pronoun_is_a_verb_where_case_says_nothing(detect):
    assert detect("PINNED L LEG ~2 HRS BEFORE CREW FREED HIM. ARRIVED VIA ROTOR WING.") == {}
    assert detect("FLIGHT CREW JAKOBSEN AT BS, REPORT GIVEN") == {"JAKOBSEN": Category.DOCTOR}


def test_a_roles_office_or_team_names_no_one(detect):
    assert detect("PT DOES NOT WANT INTUBATION OR CPR, POLST FROM PCP OFFICE BROUGHT IN - DNR") == {}


def test_a_given_name_that_is_a_verb_before_for_or_that_is_the_verb(detect):
    assert detect("bed alarm on. wife and son hope for transfer out of unit tomorrow." + LOWER_TAIL) == {}
    assert detect("DAUGHTER HOPE AT BEDSIDE, UPDATED") == {"HOPE": Category.PATIENT}


def test_a_verb_and_its_particle_a_hyphen_joins_after_a_relation_are_no_name(detect):
    found = detect("teaching completed w/ pt and mother, teach-back on sick day rules, ketone strips." + LOWER_TAIL)
    assert found == {}
    assert detect("DTR MARY-KATE AT BEDSIDE") == {"MARY-KATE": Category.PATIENT}
    assert detect("NPO AFTER MN. WIFE YOUNG-SOON AT BEDSIDE, KOREAN INTERPRETER VIA IPAD") == {"YOUNG-SOON": Category.PATIENT}


def test_where_case_says_nothing_words_that_are_no_names_before_a_relation_name_no_one(detect):
    assert detect("DIABETES EDUCATOR CONSULTED, PT WATCHED VIDEO ON INSULIN PENS, MOTHER ASKED GOOD QUESTIONS.") == {}
    assert detect("SPOKE WITH ROSA, DAUGHTER, UPDATED") == {"ROSA": Category.PATIENT}


def test_a_reflex_grade_after_dtr_and_traction_gear_name_no_one(detect):
    assert detect("neuro: alert no ha dtr 2+\nsocial: husband javier visiting baby in nicu" + LOWER_TAIL) == {"javier": Category.PATIENT}
    assert detect("BALLOON INFLATED, TRACTION 1 KG VIA PULLEY TO FOOT OF BED.") == {}


def test_farm_words_devices_and_short_forms_that_are_surnames_name_no_one(detect):
    assert detect("BIL EYE IRRIGATION CONT W/ MORGAN LENS, PH 7.5 -> 7.0. OPHTHO CONSULTED.") == {}
    assert detect("rattlesnake bite to r hand while moving hay bales, fang marks x2." + LOWER_TAIL) == {}
    assert detect("FAILED REPERFUSION. PCI TO PROX LAD W/ DES X2. IMPELLA CP PLACED VIA R FEM.") == {}


def test_a_role_word_after_an_article_names_a_thing(detect):
    found = detect("ANHYDROUS AMMONIA EXPOSURE WHILE FILLING A NURSE TANK, HOSE COUPLING FAILED. DECON IN ER. INTUBATED FOR STRIDOR.")
    assert found == {}
    assert detect("REPORT CALLED TO NURSE TANYA AT 1900") != {}


def test_after_where_someone_lives_a_word_before_a_relation_is_still_masked(detect):
    found = detect("POD 1 EX-LAP/SBR. LIVES HANA, MAUI, SON DROVE 3 HRS THEN FLEW OVER. NEURO INTACT")
    assert "MAUI" in found and "HANA" in found


def test_a_name_after_an_animal_is_a_pets_unless_a_title_makes_it_a_persons(unit_finds):
    text = "wife brought photo of his dog sadie, asking when he can get back to the foals" + LOWER_TAIL
    assert unit_finds("names", text) == {}
    assert unit_finds("names", "MARE NAMED SUGAR FOALED LAST WEEK. SON SAM AT BEDSIDE.") == {"SAM": Category.PATIENT}
    assert unit_finds("names", "Seen by Dr. Colt today.") == {"Colt": Category.DOCTOR}


def test_a_function_word_before_dob_is_no_part_of_a_name(unit_finds):
    assert unit_finds("names", "pt age unknown, registration still working on dob" + LOWER_TAIL) == {}


def test_a_preference_written_short_after_a_relation_is_no_name(unit_finds):
    assert unit_finds("names", "NAVAJO INTERPRETER USED PER MOM PREF. SPANISH PREF, INTERPRETER USED.") == {}


def test_a_navajo_home_is_no_name(unit_finds):
    assert unit_finds("names", "propane heater flash burn in hogan, 22% tbsa" + LOWER_TAIL) == {}
