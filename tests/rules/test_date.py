"""Unit ``date``."""

from deid_core.spans import Category


def test_full_numeric_date_is_a_date(unit_finds):
    assert unit_finds("date", "Seen 03/14/2019 in clinic.") == {"03/14/2019": Category.DATE}


def test_bare_month_day_after_a_clinical_event_is_a_date(unit_finds):
    assert unit_finds("date", "Surgery 3/4, doing well.") == {"3/4": Category.DATE}


def test_bare_month_day_past_twelve_needs_no_cue(unit_finds):
    assert unit_finds("date", "Discharged 3/18.") == {"3/18": Category.DATE}


def test_strength_score_and_ventilator_setting_are_not_dates(unit_finds):
    assert unit_finds("date", "Motor strength 4/5 in all extremities. PEEP 5/10.") == {}


def test_lowercase_may_is_a_verb_not_a_month(unit_finds):
    assert unit_finds("date", "She may return next week.") == {}


def test_military_time_after_since_is_not_a_year(unit_finds):
    assert unit_finds("date", "off sedation since 2015") == {}


def test_switched_off_dates_are_not_detected(detect):
    text = "Seen 03/14/2019 in clinic."
    assert detect(text) == {"03/14/2019": Category.DATE}
    assert detect(text, without="date") == {}


def test_a_day_of_a_course_counted_out_of_its_length_is_no_date(unit_finds):
    assert unit_finds("date", "ID: OSELTAMIVIR DAY 6/10, IVIG DAY 3/5, bactrim day 4/21.") == {}
    assert unit_finds("date", "LBM 11/5, cx from 10/12 pending.") == {"11/5": Category.DATE, "10/12": Category.DATE}


def test_a_count_out_of_a_total_before_bottles_is_no_date(unit_finds):
    assert unit_finds("date", "Tmax 101.8. Bcx 2/2 bottles GPC.") == {}
    assert unit_finds("date", "bcx 2/14 pending, ucx neg.") == {"2/14": Category.DATE}


def test_prior_to_admission_cues_a_date(unit_finds):
    assert unit_finds("date", "INCENTIVE SPIROMETER 750. LBM PTA 9/30.") == {"9/30": Category.DATE}


def test_a_clock_time_between_an_event_and_its_day_keeps_the_date(unit_finds):
    assert unit_finds("date", "intubated 0200 7/15 w fiberoptic by anesthesia") == {"7/15": Category.DATE}


def test_a_date_cue_after_a_trap_word_takes_the_month_day_back(unit_finds):
    assert unit_finds("date", "long term vent pt, in micu since 10/12, s/p trach") == {"10/12": Category.DATE}
    assert unit_finds("date", "DAY 6 ON VENT, INTUBATED 1/30 AT OSH") == {"1/30": Category.DATE}
    # the trap holds where no cue follows it
    assert unit_finds("date", "vent settings ac 14/5. pain 4/10 since 0800. PS 10/5 weaned to 8/5") == {}


def test_a_follow_up_with_someone_then_a_month_day_is_a_date(unit_finds):
    assert unit_finds("date", "REFERRAL SENT. F/U W/ CARDS 12/4.") == {"12/4": Category.DATE}
    assert unit_finds("date", "f/u w cardiologist dr oduya 10/7, pt aware") == {"10/7": Category.DATE}


def test_a_lower_case_month_that_is_no_word_with_its_day_is_a_date(unit_finds):
    note = "lives w wife fu w cards clinic aug 14"
    assert unit_finds("date", note) == {"aug 14": Category.DATE}
    assert unit_finds("date", "dialysis mwf, last hd was sept 26 missed since") == {"sept 26": Category.DATE}
    assert unit_finds("date", "sutures out oct 29. screener to see pt jan 9.") == {"oct 29": Category.DATE, "jan 9": Category.DATE}
    assert unit_finds("date", "oct 3 mm thick, aug 2 x daily") == {}
    # "may", "mar" and "dec" stay words after an event: "uop dec 3 hrs", "clinic may 2"
    assert unit_finds("date", "seen in clinic may 2 wks ago, uop dec 3 hrs") == {}


def test_a_month_day_after_a_shortened_scheduled_is_a_date(unit_finds):
    assert unit_finds("date", "pex #3 sched for 5/8. plan: repeat nif") == {"5/8": Category.DATE}


def test_a_round_hour_after_a_visitors_stay_is_a_clock_time_not_a_year(unit_finds):
    assert unit_finds("date", "cardiac diet, tolerating. wife stayed until 2000.") == {}
    assert unit_finds("date", "DM2 diagnosed in 2000, insulin since 2004.") == {"2000": Category.DATE, "2004": Category.DATE}


def test_a_month_day_after_what_the_patient_is_status_post_is_a_date(unit_finds):
    assert unit_finds("date", "sicu nsg 7p-7a pod1 s/p whipple 10/6 for panc head mass") == {"10/6": Category.DATE}
    assert unit_finds("date", "s/p cabg x3, peep 5/5") == {}


def test_a_fraction_of_saline_and_a_headache_score_are_no_dates(unit_finds):
    assert unit_finds("date", "NGT 300CC OVERNIGHT, REPLACED 1/2 NS + 20 KCL PER ORDER.") == {}
    assert unit_finds("date", "NEURO CHECKS Q1H STABLE, GCS 13-14. HA IMPROVED 3/10.") == {}


def test_bottles_positive_out_of_those_drawn_are_no_dates(unit_finds):
    assert unit_finds("date", "ID: TMAX 39.1. VANC/CEFEPIME. BCX 2/2 GNR.") == {}
    assert unit_finds("date", "ID: AFEBRILE. 1/2 BCX GROWING GPC IN CLUSTERS.") == {}
    assert unit_finds("date", "bcx 2/14 pending, ucx neg.") == {"2/14": Category.DATE}


def test_a_second_reading_on_the_scale_of_a_first_in_the_same_sentence_is_no_date(unit_finds):
    assert unit_finds("date", "Pain 4/10 at rest, 7/10 with cough.") == {}
    assert unit_finds("date", "pain 7/10, dilaudid 0.5mg iv x2 with relief to 3/10.") == {}
    assert unit_finds("date", "chest pain 6/10 at 0200. next hd 6/10 at 0700.") == {"6/10": Category.DATE}


def test_since_a_round_hour_in_a_note_on_the_24_hour_clock_is_no_year(unit_finds):
    assert unit_finds("date", "CIWA 4-8, NO VALIUM NEEDED SINCE 2000. LEVO OFF AT 0700.") == {}
    assert unit_finds("date", "on insulin since 2000, a1c 7.2") == {"2000": Category.DATE}


def test_a_month_day_before_what_a_study_showed_is_a_date(unit_finds):
    assert unit_finds("date", "neuro checks q2h. repeat ct head 12/3 showed expected evolution.") == {"12/3": Category.DATE}


def test_around_a_half_hour_on_a_night_shift_is_a_clock_time(unit_finds):
    assert unit_finds("date", "nursing 7p-7a pt came up from ed around 2030 w rll pna") == {}


def test_around_a_half_hour_in_a_note_that_gives_a_late_hour_is_a_clock_time_but_years_stay(unit_finds):
    assert unit_finds("date", "received pt from ed around 2030, lasix 80 iv given at 2100") == {}
    assert unit_finds("date", "moved to the area around 2015, retired in 2019") == {"2015": Category.DATE, "2019": Category.DATE}


def test_status_post_a_procedure_of_several_words_cues_its_day_and_chest_pain_is_scored(unit_finds):
    assert unit_finds("date", "NEURO ICU: S/P VP SHUNT REVISION 12/7 FOR MALFUNCTION.") == {"12/7": Category.DATE}
    assert unit_finds("date", "ccu sbar s: cp 7/10 at 2310 b: nstemi 2 days ago") == {}


def test_a_month_and_day_right_after_a_procedure_that_ends_its_clause_is_its_day(unit_finds):
    assert unit_finds("date", "ORTHO: L FEMUR IMN 10/4, DRESSING CDI.") == {"10/4": Category.DATE}
    # a strength grade, a fraction, and days out of seven are no dates
    assert unit_finds("date", "NEURO: MAE, LUE 4/5. TF AT GOAL 2/3.") == {}
    assert unit_finds("date", "thank you for seeing this lady with fever 5/7, retro-orbital pain") == {}


def test_a_round_hour_after_an_output_counted_since_it_is_a_clock_time(unit_finds):
    assert unit_finds("date", "PERICARDIAL DRAIN TO GRAVITY, 40CC SINCE 2000. HR 90S") == {}
    assert unit_finds("date", "has not smoked since 2000") == {"2000": Category.DATE}


def test_an_order_held_until_a_round_hour_is_a_clock_time(unit_finds):
    assert unit_finds("date", "S/P TAVR. HOB FLAT UNTIL 2030, THEN HOB 30.") == {}
    assert unit_finds("date", "hold tf until 2000 for ogt check, bedrest until 2015") == {}
    assert unit_finds("date", "HELD HIS JOB AT THE PLANT UNTIL 2015 WHEN HE RETIRED") == {"2015": Category.DATE}


def test_a_round_hour_after_someone_sat_with_the_patient_is_a_clock_time(unit_finds):
    assert unit_finds("date", "family brought phone charger, sat w/ pt until 2000.") == {}


def test_a_ratio_a_plus_before_a_finding_and_an_oxygen_share_read_the_numbers_beside_them(unit_finds):
    assert unit_finds("date", "IABP 1:1 AUG 110, DIASTOLIC 70S.") == {}
    assert unit_finds("date", "BLOOD CX FROM 12/2 +GPC IN CLUSTERS 2/2 BOTTLES.") == {"12/2": Category.DATE}
    assert unit_finds("date", "sats 92 on 12/6 40%. hr 80s.") == {}
    assert unit_finds("date", "Nausea 2/10. IS 750.") == {}


def test_a_month_above_its_day_is_a_date_without_a_cue(unit_finds):
    # scores, grades, counts and fractions never exceed their total, so 11/3 can only be a day
    assert unit_finds("date", "L RADIAL ART LINE 11/3. LBM PER WIFE ~11/5. CMV PCR SENT 11/7, PENDING.") == {
        "11/3": Category.DATE,
        "11/5": Category.DATE,
        "11/7": Category.DATE,
    }


def test_ventilator_settings_with_the_first_number_higher_stay_settings(unit_finds):
    text = "RESP: PS 10/5 X 2 HRS. BIPAP 12/6 OVERNIGHT. NIV 12/5 ON ARRIVAL. back on 12/6 40%. pain 7/10 -> 4/10."
    assert unit_finds("date", text) == {}


def test_a_day_a_score_could_be_out_of_is_a_date_unless_the_score_is_named(unit_finds):
    assert unit_finds("date", "L MCA SYNDROME, LKW 1515 11/20, ARRIVED FROM OSH. START OF CARE 11/15.") == {
        "11/20": Category.DATE,
        "11/15": Category.DATE,
    }
    assert unit_finds("date", "MMSE 8/30, MoCA 12/30, GCS 9/15, Session 3/16 of the program.") == {}
    assert unit_finds("date", "Plan: continue CPT, next session 4/23.") == {"4/23": Category.DATE}


def test_a_cell_under_a_header_of_paired_readings_is_no_date(unit_finds):
    table = "Tx | Date     | In   | BP pre | Ears R/L (TEED) | Notes\n3  | 07/17/24 | 0810 | 150/86 | 2/1             | aborted\n"
    assert unit_finds("date", table) == {"07/17/24": Category.DATE}
    table = "BED  | PATIENT   | D/C date | BARRIER\n4W   | ABERNATHY | 4/3      | SNF\n"
    assert unit_finds("date", table) == {"4/3": Category.DATE}


def test_a_dashed_month_and_day_before_a_clock_time_is_a_date_but_a_range_is_not(unit_finds):
    assert unit_finds("date", "late entry for 11-19 0300 - pt found w/ art line disconnected") == {"11-19 0300": Category.DATE}
    assert unit_finds("date", "CIWA 14-19 ALL NIGHT. RR 12-20 0300. PAIN 8-10 0300. MAP 60-65 0100.") == {}


def test_the_day_of_a_last_dose_is_a_date_though_a_dose_before_a_ratio_is_a_trap(unit_finds):
    assert unit_finds("date", "last lovenox dose 11/13 at 2100, held since for lp") == {"11/13": Category.DATE}
    assert unit_finds("date", "last home coumadin dose was 9/20 per son.") == {"9/20": Category.DATE}
    assert unit_finds("date", "percocet dose 5/325, dose 1/2 tab") == {}


def test_a_fraction_of_dextrose_and_cultures_that_grew_are_no_dates(unit_finds):
    assert unit_finds("date", "bg 140s on d5 1/2 at 100/hr, gap closed") == {}
    assert unit_finds("date", "BCX FROM ADMISSION 2/2 GPC, REPEAT SENT 8/14.") == {"8/14": Category.DATE}


def test_a_month_day_after_an_irregular_past_or_an_imaged_body_part_is_a_date(unit_finds):
    assert unit_finds("date", "CX SENT 4/10, PENDING. CT HEAD 4/12 NEG. mri l-spine 3/30 showed disc") == {
        "4/10": Category.DATE,
        "4/12": Category.DATE,
        "3/30": Category.DATE,
    }


def test_a_fraction_after_given_or_sent_with_its_count_stays_a_fraction(unit_finds):
    assert unit_finds("date", "DIET GIVEN 1/2 EATEN. BCX SENT 2/2 SETS. SENT 2/2 BCX.") == {}


def test_a_day_of_the_month_after_since_around_or_about_is_a_date(unit_finds):
    assert unit_finds("date", "per wife pt had been dizzy since around the 14th, syncopized today") == {"14th": Category.DATE}
    assert unit_finds("date", "walked since about the 3rd floor landing") == {}


def test_a_grade_of_an_air_leak_or_a_liver_segment_is_no_date(unit_finds):
    assert unit_finds("date", "CT TUBE TO -20 CM H2O, AIR LEAK 2/7 ON PLEUR-EVAC") == {}
    assert unit_finds("date", "Loculated collection R hepatic lobe (seg 7/8). Drain placed.") == {}


def test_a_day_before_status_post_or_a_post_op_day_is_the_day_of_the_event(unit_finds):
    assert unit_finds("date", "pt is s/p ex lap for gsw abd 3/9 pod 3 now, abd soft") == {"3/9": Category.DATE}
    assert unit_finds("date", "hand crushed at the paper mill 4/6 s/p k wires and flap") == {"4/6": Category.DATE}
    assert unit_finds("date", "PS 10/5 S/P EXTUBATION. PEEP 5/5 POD 2.") == {}


def test_an_event_after_a_comma_takes_back_a_day_from_a_vital_before_it(unit_finds):
    assert unit_finds("date", "crrt vs hd in am since bp soft, last hd 4/11 via l av fistula") == {"4/11": Category.DATE}
    assert unit_finds("date", "BP SOFT, BIPAP INCREASED 12/6.") == {}


def test_a_day_that_ends_a_clause_opened_by_a_past_tense_is_when_it_happened(unit_finds):
    assert unit_finds("date", "FELL ON ICE IN DRIVEWAY 3/8, FOUND BY MAILMAN NEXT AM.") == {"3/8": Category.DATE}
    assert unit_finds("date", "ATE 3/4, DRANK 6/8 OZ. RATED 6/10. PT WEANED 6/8, FELL 2/7.") == {}


def test_a_ventilator_setting_ending_in_its_oxygen_per_cent_is_no_date(unit_finds):
    assert unit_finds("date", "vent weaned to cpap/ps 10/8/40%, on ps 12/8/40 % overnight") == {}
    assert unit_finds("date", "last seen 10/8/24, ok") == {"10/8/24": Category.DATE}


def test_a_breathing_trial_on_its_setting_is_no_date(unit_finds):
    assert unit_finds("date", "sbt this am on 5/5 x30 min, rsbi 48. extubated after passing sbt on 5/5.") == {}
    assert unit_finds("date", "echo 5/5 showed ef 30. vent settings changed on 11/3") == {"5/5": Category.DATE, "11/3": Category.DATE}


def test_a_month_that_is_also_a_word_is_a_date_right_after_a_study(unit_finds):
    assert unit_finds("date", "kcentra in ed. egd dec 3: bleeding du ulcer, clipped.") == {"dec 3": Category.DATE}
    assert unit_finds("date", "uop dec 30 ml/hr. hgb dec 2 pts. bp dec 20 after lasix.") == {}


def test_how_many_staff_a_task_takes_is_no_date(unit_finds):
    found = unit_finds("date", "PT/OT: MAX ASSIST, 2/1 ASSIST TO CHAIR. 1/1 sitter overnight. lbm 11/5")
    assert found == {"11/5": Category.DATE}


def test_a_doses_strengths_before_how_often_it_is_given_are_no_date(unit_finds):
    assert unit_finds("date", "ON SUBOXONE 8/2 BID, VERIFIED W/ PDMP. LBM 8/2.") == {"8/2": Category.DATE}


def test_a_fall_or_a_crash_before_a_month_and_day_dates_it(unit_finds):
    found = unit_finds("date", "states pt lives alone, fell 1/9 going out to fill the feeder. mvc 12/30 w/ airbag. MORSE FALL RISK. 2/2 SIDERAILS UP")
    assert found == {"1/9": Category.DATE, "12/30": Category.DATE}


def test_a_month_that_is_no_word_after_a_word_of_time_is_a_date_in_any_case(unit_finds):
    found = unit_finds("date", "states pt was sober since july and relapsed. PLANS TO RETIRE IN AUGUST. SEEN BY JUNE RN.")
    assert found == {"july": Category.DATE, "AUGUST": Category.DATE}


def test_a_limbs_strength_out_of_five_is_no_date(unit_finds):
    assert unit_finds("date", "pt following commands w/ r side, l arm 2/5 leg 3/5. pt/ot recommend rehab.") == {}
    assert unit_finds("date", "RUE 4/5, LLE 3/5 PER PT EVAL") == {}
    assert unit_finds("date", "l leg swelling since 3/5, duplex neg.") == {"3/5": Category.DATE}
    assert unit_finds("date", "LOBSTERMAN, R ARM CAUGHT IN HAULER 4/13. S/P I&D") == {"4/13": Category.DATE}


def test_a_reading_out_of_ten_after_the_pain_it_scores_is_no_date(unit_finds):
    assert unit_finds("date", "PAIN BETTER W/ PCA + SCHEDULED TYLENOL, NOW 5/10. IS UP TO 1000.") == {}
    assert unit_finds("date", "PAIN SINCE 5/10, WORSE TODAY") == {"5/10": Category.DATE}
    assert unit_finds("date", "LBM 5/10. NO PAIN.") == {"5/10": Category.DATE}
