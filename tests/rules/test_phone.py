"""Unit ``phone``."""

from deid_core.spans import Category


def test_north_american_number_is_a_phone(unit_finds):
    assert unit_finds("phone", "Call me at (617) 555-0142.") == {"(617) 555-0142": Category.PHONE}


def test_short_pager_number_after_its_label_is_a_phone(unit_finds):
    assert unit_finds("phone", "pager 4-1234") == {"4-1234": Category.PHONE}


def test_number_after_an_identifier_label_is_left_to_the_id_unit(unit_finds, detect):
    assert unit_finds("phone", "NHS No. 485 777 3456") == {}
    assert detect("NHS No. 485 777 3456") == {"485 777 3456": Category.ID}


def test_dose_and_count_are_not_phones(unit_finds):
    assert unit_finds("phone", "Given 325 mg x 2") == {}


def test_switched_off_phones_are_not_detected(detect):
    text = "Call me at (617) 555-0142."
    assert detect(text) == {"(617) 555-0142": Category.PHONE}
    assert detect(text, without="phone") == {}


def test_the_number_a_person_is_paged_at_is_a_phone_but_a_time_is_not(unit_finds):
    assert unit_finds("phone", "page ho at 5-2231 with any changes") == {"5-2231": Category.PHONE}
    assert unit_finds("phone", "paged ho at 0200 re: low uop") == {}
    # four bare digits no clock reads, or a number in brackets after the page
    assert unit_finds("phone", "CR 1.4 -> 1.6, PAGED HO @ 3318, NO NEW ORDERS.") == {"3318": Category.PHONE}
    assert unit_finds("phone", "resident paged (3-4410) re: bp") == {"3-4410": Category.PHONE}
    assert unit_finds("phone", "PAGED HO AT 2215, NO RETURN CALL") == {}


def test_a_pager_with_its_owner_between_label_and_number_is_a_phone(unit_finds):
    assert unit_finds("phone", "wound vac changed. pager for plastics on call np is 4-7719") == {"4-7719": Category.PHONE}
    assert unit_finds("phone", "pager for plastics on call np is at bedside") == {}


def test_a_local_number_without_its_area_code_after_a_phone_word_is_a_phone(unit_finds):
    assert unit_finds("phone", "voiding urinal social son called again 555-0152 wants call") == {"555-0152": Category.PHONE}
    assert unit_finds("phone", "SOCIAL: BROTHER CALLED FROM WORK, PH (555)-0118.") == {"(555)-0118": Category.PHONE}
    # no phone word before it: a range or a count keeps its shape
    assert unit_finds("phone", "uop 200-1400 over shift, plts 150-2200 range") == {}


def test_a_pager_paged_at_directly_or_named_by_its_owner_without_is_is_a_phone(unit_finds):
    assert unit_finds("phone", "CSRU FELLOW BEDSIDE, PAGED AT 4-0172.") == {"4-0172": Category.PHONE}
    assert unit_finds("phone", "mom has pager for diabetes educator 7-3019") == {"7-3019": Category.PHONE}
    assert unit_finds("phone", "paged at 0200 re low uop") == {}


def test_a_pager_paged_at_an_at_sign_is_a_phone_but_an_hour_is_not(unit_finds):
    assert unit_finds("phone", "NEURO RESIDENT PAGED @ 4-6718, CAME TO BEDSIDE") == {"4-6718": Category.PHONE}
    assert unit_finds("phone", "paged ho @0200 re bp") == {}


def test_a_phone_number_wrapped_after_its_area_code_is_one_number(unit_finds):
    text = "ASKED THAT NURSES CALL HER AT 617\n555-0148 AFTER 0700 FOR UPDATES."
    assert unit_finds("phone", text)["617\n555-0148"] is Category.PHONE


def test_a_local_number_keeps_its_extension(unit_finds):
    assert unit_finds("phone", "report called to rn at 555-0160 ext 212. belongings sent") == {"555-0160 ext 212": Category.PHONE}


def test_a_local_number_with_an_extension_needs_no_phone_word(unit_finds):
    assert unit_finds("phone", "report to accepting rn at 555-0177 ext 318 before transport") == {"555-0177 ext 318": Category.PHONE}
    # a range of amounts times a count is no telephone
    assert unit_finds("phone", "plt goal 250-1000 x 2 doses") == {}


def test_a_loose_separator_after_the_exchange_still_makes_a_phone(unit_finds):
    text = "best # 617-555- 0107, at home (781) 555 - 0123, or 603 555- 0178"
    assert unit_finds("phone", text) == {
        "617-555- 0107": Category.PHONE,
        "(781) 555 - 0123": Category.PHONE,
        "603 555- 0178": Category.PHONE,
    }


def test_ranges_of_outputs_and_volumes_are_no_loose_phones(unit_finds):
    assert unit_finds("phone", "UOP 200 400 - 1400. TV 450 500 - 2000. BP 120/80 110 - 1200 ML.") == {}


def test_an_extension_in_capitals_and_a_number_sign_belong_to_a_local_number(unit_finds):
    assert unit_finds("phone", "THEIR # 555-0103 EXT 12.") == {"555-0103 EXT 12": Category.PHONE}
    assert unit_finds("phone", "facility nurse tammy # 555-0172 if questions") == {"555-0172": Category.PHONE}


def test_a_range_and_a_clock_time_are_no_phone_number(unit_finds):
    assert unit_finds("phone", "SBP 100-120 0400, HR 100-110 0600") == {}
    assert unit_finds("phone", "call 617-555-0148") == {"617-555-0148": Category.PHONE}


def test_a_dashed_pager_number_after_paged_and_an_extension_after_its_label(unit_finds):
    assert unit_finds("phone", "K 6.4. PAGED RENAL VIA 4-7721, NO CALLBACK") == {"4-7721": Category.PHONE}
    assert unit_finds("phone", "0120 PAGED NSGY 4-7719 RE: ANISOCORIA") == {"4-7719": Category.PHONE}
    assert unit_finds("phone", "GAVE HER THE CHARGE RN'S EXTENSION, 4412.") == {"4412": Category.PHONE}
    assert unit_finds("phone", "reach her at front desk ext x5530") == {"x5530": Category.PHONE}
    assert unit_finds("phone", "PAGED MD 0200, PAGED X2 4-5 TIMES") == {}


def test_a_pager_number_after_paged_and_the_service_is_a_phone_but_a_clock_time_is_not(unit_finds):
    assert unit_finds("phone", "PAGED GEN SURG 5521 AT 0230 RE: DRAIN OUTPUT.") == {"5521": Category.PHONE}
    assert unit_finds("phone", "paged cards 41873 re rvr") == {"41873": Category.PHONE}
    assert unit_finds("phone", "PAGED MD 2300 RE BP. PAGED X2, PAGED RESIDENT 0145.") == {}


def test_an_extension_a_few_words_after_a_calling_word_is_a_phone(unit_finds):
    assert unit_finds("phone", "CALL TRANSFER CTR X4417 WHEN BED ASSIGNED.") == {"X4417": Category.PHONE}
    assert unit_finds("phone", "paged ortho x 5521 re splint")["x 5521"] is Category.PHONE
    assert unit_finds("phone", "CALLED PHARM RE VANC X 1250 MG. CALLED MD RE BOLUS X 1000 ML.") == {}


def test_four_digits_after_page_and_a_role_are_a_pager_and_a_clock_time_is_none(unit_finds):
    assert unit_finds("phone", "rpt abg 1 hr, page rt 5521 w/ questions") == {"5521": Category.PHONE}
    assert unit_finds("phone", "page md 2300 re bp") == {}


def test_three_digits_after_ext_are_an_extension_and_a_clock_time_after_it_is_when_extubated(unit_finds):
    assert unit_finds("phone", "CALL CHARGE RN EXT 214 WITH QUESTIONS.") == {"214": Category.PHONE}
    assert unit_finds("phone", "EXT 0930 TO 2L NC. BLE EXT 4/5. ext 1100 to 4l, pager 123") == {}
    assert unit_finds("phone", "CAN BE REACHED AT WORK EXT 2219, front desk ext 2204") == {"2219": Category.PHONE, "2204": Category.PHONE}
    assert unit_finds("phone", "UNIT PHONE X4471, PAGER 1130") == {"X4471": Category.PHONE, "1130": Category.PHONE}
