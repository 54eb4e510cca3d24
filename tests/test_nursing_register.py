"""ICU nursing notes: telegraphic capitals, lowercase free text, and the clinical words in them.

Letter case carries no evidence in these notes, so names need a listed name
that is no clinical or ordinary word, or a strong cue; the clinical
vocabulary keeps drug names and abbreviations from being read as names,
facilities or identifiers; propagation cannot turn one guess into many.
"""

from __future__ import annotations

from deid_core.notes import ClinicalNote
import pytest

from deid_core.recognizers.case import note_is_lower
from deid_core.recognizers.rules.names import NameRecognizer
from deid_core.recognizers.rules.tokens import tokenize
from deid_core.recognizers.lexicon import default_lexicon
from deid_core.recognizers.pipeline import DetectConfig, RulesPipeline, build_default_pipeline
from deid_core.recognizers.propagation import is_seed
from deid_core.spans import Category, Evidence, Span

NAMES = (Category.PATIENT, Category.DOCTOR)


@pytest.fixture(scope="module")
def pipeline() -> RulesPipeline:
    return build_default_pipeline()


def found(pipeline: RulesPipeline, text: str, *categories: Category) -> list[str]:
    return [text[s.start : s.end] for s in pipeline.analyze(text) if not categories or s.category in categories]


# ------------------------------------------------------------- vocabulary
@pytest.mark.parametrize(
    "word", ["levo", "DOPA", "neo", "Lasix", "gtt", "TRACH", "sedated", "furosemide", "vancomycin", "foley", "hem", "eta", "BLS"]
)
def test_clinical_words_are_in_the_lexicon_and_are_no_names(word):
    lex = default_lexicon()
    assert lex.is_clinical(word)
    assert lex.is_common_word(word) and not lex.is_strong_name(word)


def test_a_clinical_short_form_written_with_a_hyphen_is_the_same_clinical_word():
    lex = default_lexicon()
    assert lex.is_clinical("med-surg") and lex.is_clinical("MEDSURG")
    assert not lex.is_clinical("castellanos-ibe")


@pytest.mark.parametrize("surname", ["lopez", "kenney", "souza", "parrilli", "nguyen"])
def test_surnames_are_not_hidden_by_the_drug_list(surname):
    lex = default_lexicon()
    assert not lex.is_clinical(surname) and lex.is_name(surname)


@pytest.mark.parametrize("name", ["sanjay", "chidi", "vikram", "oksana", "tevita", "jomar"])
def test_given_names_common_in_the_us_for_decades_are_listed(name):
    lex = default_lexicon()
    assert lex.is_first(name) and not lex.is_common_word(name)


@pytest.mark.parametrize("word", ["tel", "girl", "levo", "trach"])
def test_the_baby_name_list_adds_no_word_english_uses_more_than_parents(word):
    assert not default_lexicon().is_first(word)


@pytest.mark.parametrize("word", ["Young", "Bell", "Hope", "Foley", "Page"])
def test_names_that_are_also_words_need_a_cue(word):
    assert default_lexicon().is_word_too(word)


def test_a_note_typed_in_lower_case_is_caseless():
    text = "npn days\nneuro: a&ox3. cv: nsr 70s. plan: transfer to floor, report given to rn."
    assert note_is_lower(text)
    assert all(t.caseless for t in tokenize(text))
    assert not note_is_lower("Neuro: A&Ox3. CV: NSR 70s. Plan: transfer to floor when a bed is available.")


# --------------------------------------------------------- names, capitals
@pytest.mark.parametrize(
    "text",
    [
        "NEURO: PT SEDATED ON PROPOFOL 20MCG/KG/MIN, RASS -2. PERRL.",
        "CV: HR 88 NSR. PER DOPA AT 3MCG/KG/MIN, WEANED TO OFF BY 1400.",
        "CV: LEVO GTT OFF SINCE 0200. CVS STABLE. TRACH SITE CDI.",
        "NEURO: SEDATION LIGHTENED, PT NODS TO Q'S, FOLLOWS COMMANDS.",
        "PLAN: SPEECH AND SWALLOW EVAL, PT/OT CONSULTS.",
    ],
)
def test_clinical_words_in_capitals_are_no_names(pipeline, text):
    assert found(pipeline, text, *NAMES, Category.HOSPITAL) == []


def test_a_relation_in_capitals_stops_at_an_ordinary_word(pipeline):
    text = "FAMILY MET WITH MD'S. SISTER JOAN AND NIECE PRESENT. MORPHINE GTT STARTED."
    assert found(pipeline, text, *NAMES) == ["JOAN"]


def test_a_titled_name_in_capitals_is_found(pipeline):
    text = "PLAN: FAMILY MEETING TOMORROW WITH DR. HOPE RE GOALS OF CARE."
    assert found(pipeline, text, Category.DOCTOR) == ["HOPE"]


# -------------------------------------------------------- names, lowercase
def test_lowercase_names_after_a_title_or_a_staff_cue_are_found(pipeline):
    text = (
        "micu npn\npt admitted to micu from outside hospital with urosepsis.\n"
        "per dr kenney ok to transfer to floor in am if stable.\n"
        "house staff mary souza aware of low uo earlier, bolus 500cc ns given."
    )
    assert found(pipeline, text, Category.DOCTOR) == ["kenney", "mary souza"]


def test_a_lowercase_signature_with_its_credential_is_a_clinician(pipeline):
    text = "npn nights\npt slept in naps. lungs with crackles at bases, lasix 20 iv x1.\nbarbara j. parrilli bsn/rn"
    assert found(pipeline, text, Category.DOCTOR) == ["barbara j. parrilli"]


def test_staff_by_first_name_before_a_lowercase_credential(pipeline):
    text = "npn days\nneuro: a&ox3. cv: nsr 70s.\nplan: transfer to floor. report given to kathy rn on the floor."
    assert found(pipeline, text, Category.DOCTOR) == ["kathy"]


def test_a_title_vouches_for_one_lowercase_word_only(pipeline):
    text = "npn nights\npt slept in naps, no events.\nper dr kenney ok to transfer to floor in am if stable."
    assert found(pipeline, text, Category.DOCTOR) == ["kenney"]


# ------------------------------------------------------------ propagation
def test_a_clinical_word_guess_never_spreads_across_a_patients_notes(pipeline):
    notes = [
        ClinicalNote("a", "NPN\nNEURO: PT SEDATED, RASS -3. PER DOPA AT 5.", "P1"),
        ClinicalNote("b", "NPN DAYS\nPT REMAINS SEDATED. DOPA OFF. SEDATED FOR COMFORT.", "P1"),
    ]
    assert all(s.category not in NAMES for spans in pipeline.analyze_batch(notes) for s in spans)


def test_list_guesses_with_an_ordinary_word_do_not_seed_propagation():
    lex = default_lexicon()
    text = "Levo Wean and Maria Lopez"
    assert not is_seed(text, Span(0, 9, Category.PATIENT, 0.7, "names/listed", Evidence.GUESS), lex)
    assert is_seed(text, Span(14, 25, Category.PATIENT, 0.7, "names/listed", Evidence.GUESS), lex)
    assert not is_seed("SEDATED", Span(0, 7, Category.PATIENT, 0.75, "names/patient_inline"), lex)


def test_a_propagated_span_names_the_seed_it_came_from(pipeline):
    text = "Seen with Dr. Okonkwo-Hale today. Okonkwo-Hale will call the family."
    spans = [s for s in pipeline.analyze(text) if s.category is Category.DOCTOR]
    assert [text[s.start : s.end] for s in spans] == ["Okonkwo-Hale", "Okonkwo-Hale"]
    assert spans[1].source == "propagation<names/title"


def test_a_given_name_that_is_also_a_verb_spreads_only_where_it_reads_as_a_name(pipeline):
    text = "dka. sister robin and bro drew visited this am, drew up a list of his home meds for pharm. drew aware of plan."
    spans = [text[s.start : s.end] for s in pipeline.analyze(text) if s.category in NAMES]
    assert spans == ["robin", "drew", "drew"]
    assert text.index("drew up") not in {s.start for s in pipeline.analyze(text)}


def test_a_three_letter_name_in_capitals_reaches_the_patients_other_notes_unless_it_is_a_word(pipeline):
    notes = [
        ClinicalNote("a", "NPN\nSOCIAL: WIFE ANN CALLED, UPDATED.", "P1"),
        ClinicalNote("b", "NPN DAYS\nSOCIAL: ANN + SON IN @ 1100. TURNOVER 35 MIN.", "P1"),
    ]
    b = notes[1].text
    assert [b[s.start : s.end] for s in pipeline.analyze_batch(notes)[1] if s.category in NAMES] == ["ANN"]


def test_names_from_other_notes_are_marked_as_the_patients(pipeline):
    notes = [
        ClinicalNote("a", "Patient: Wiremu Tane-Kahu\nDOB 1/2/1950", "P1"),
        ClinicalNote("b", "Tane-Kahu called about refills.", "P1"),
    ]
    b = pipeline.analyze_batch(notes)[1]
    assert [s.source for s in b if s.category is Category.PATIENT] == ["propagation<patient"]


def test_a_name_that_is_a_word_spreads_only_where_it_is_capitalised_in_prose(pipeline):
    text = "Discussed with Dr. Young. Young agrees with the plan.\nYOUNG ADULT MALE, A YOUNG WIFE AT BEDSIDE."
    spans = found(pipeline, text, *NAMES)
    assert spans == ["Young", "Young"]


# ------------------------------------------------------------------ dates
@pytest.mark.parametrize(
    "text,date",
    [
        ("GI/GU: OGT TO LCWS. FOLEY PATENT. LBM 11/5.", "11/5"),
        ("as of today 4/16 pt is dnr per family meeting.", "4/16"),
        ("pt admitted to micu 10/12 from outside hospital.", "10/12"),
        ("LAST ECHO 8/87 PER OLD CHART.", "8/87"),
        ("lbm 3/2.", "3/2"),
    ],
)
def test_bare_month_day_after_a_nursing_event_is_a_date(pipeline, text, date):
    assert found(pipeline, text, Category.DATE) == [date]


@pytest.mark.parametrize(
    "text",
    [
        "CV: BP 120/80-140/90. HR 80.",
        "RESP: CPAP 5/5 TRIAL TOLERATED 2 HRS.",
        "CV: SR 80'S. BP 110-130/60-70. 4/4 MAE.",
        "NEURO: PAIN 4/10, FENTANYL 25MCG IV X1.",
        "RESP: PSV 10/5, RR 18. BIPAP 12/5 OVERNIGHT.",
        "resp: peep 5/5 tolerated briefly, back on ac.",
    ],
)
def test_ratios_settings_and_scores_are_no_dates(pipeline, text):
    assert found(pipeline, text, Category.DATE) == []


# ----------------------------------------------------------------- phones
@pytest.mark.parametrize(
    "text,phone",
    [
        ("SOCIAL: SON RICHARD (HCP) PHONE 212- 476- 8356.", "212- 476- 8356"),
        ("his cell 410 202-6694 if needed overnight.", "410 202-6694"),
        ("wife's number 617 / 555 0193", "617 / 555 0193"),
        ("RT PAGER 4-7719 FOR VENT CHANGES", "4-7719"),
    ],
)
def test_phones_with_loose_separators_and_labelled_pagers(pipeline, text, phone):
    assert found(pipeline, text, Category.PHONE) == [phone]


def test_a_blood_pressure_written_with_spaces_is_no_phone(pipeline):
    assert found(pipeline, "BP 120 / 80, HR 100 / 110 / 1200 CC", Category.PHONE) == []


# ------------------------------------------------------------------- ages
def test_a_decade_about_a_person_is_an_age(pipeline):
    assert found(pipeline, "pt is in her 80s, from home with husband.", Category.AGE) == ["80s"]


@pytest.mark.parametrize("text", ["CV: BP IN THE 90'S-100'S SYS.", "sats in the 90s on 2l nc.", "glucose in the 80s overnight."])
def test_a_decade_after_a_vital_sign_is_no_age(pipeline, text):
    assert found(pipeline, text, Category.AGE) == []


# ------------------------------------------------------- facilities, ids
@pytest.mark.parametrize(
    "text",
    [
        "PLAN: HEME CHECK, ECHO IN AM, CK AM LABS.",
        "DISPO: ? TRANSFER TO FLOOR WHEN BED AVAIL.",
        "PT ADMITTED TO ED S/P FALL AT HOME.",
        "PLAN: PT/OT CONSULTS, CASE MANAGEMENT FOR REHAB SCREENING.",
        "CV: HR 90'S ST. GI: NG LAVAGE CLEAR. GI TEAM TO SCOPE IN AM.",
    ],
)
def test_clinical_and_ordinary_words_are_no_facilities(pipeline, text):
    assert found(pipeline, text, Category.HOSPITAL) == []


def test_a_listed_pharmacy_keeps_its_store_shape(pipeline):
    assert found(pipeline, "Refills sent to CVS Pharmacy on Route 17.", Category.HOSPITAL)


@pytest.mark.parametrize("text", ["ID: TMAX 100.2, CX PENDING.", "GU: FOLEY D/C'D, VOIDED 300CC.", "id: tmax 101.8, bc x2 sent."])
def test_findings_after_an_id_heading_are_no_identifiers(pipeline, text):
    assert found(pipeline, text, Category.ID) == []


def test_a_post_operative_day_is_no_room(pipeline):
    assert found(pipeline, "s/p cabg x3. pod #2. AMBULATE POD 1.", Category.LOCATION) == []
    assert found(pipeline, "moved to Pod 3 bed 4 overnight", Category.LOCATION) == ["Pod 3 bed 4"]


def test_a_site_lists_its_short_facility_names(tmp_path):
    # "GV" has no hospital's shape (a short form ending in H after a transfer would be found without a list)
    (tmp_path / "hospital.txt").write_text("# local short names\nGV\nGreenhill\n", encoding="utf-8")
    pipe = build_default_pipeline(DetectConfig(gazetteer_dirs=(tmp_path,)))
    text = "PT ADMITTED FROM GV ED AT 2200 S/P FALL. OLD RECORDS FROM Greenhill."
    assert found(pipe, text, Category.HOSPITAL) == ["GV", "Greenhill"]
    assert found(build_default_pipeline(), text, Category.HOSPITAL) == []


def test_the_name_rules_use_the_shared_lexicon():
    rec = NameRecognizer()
    assert rec.lexicon is default_lexicon()


def test_where_a_patient_lives_is_a_place_in_a_lowercase_note(pipeline):
    text = "nsg progress note\nsocial: pt lives with her husband in quincy. daughter is hcp, called for update."
    assert found(pipeline, text, Category.LOCATION) == ["quincy"]
    assert found(pipeline, "she lives in quincy", Category.LOCATION) == []


def test_a_place_before_a_model_letter_is_a_device(pipeline):
    assert found(pipeline, "C-SPINE NOT CLEARED, MIAMI J ON. PADS CHANGED.", Category.LOCATION) == []
    assert found(pipeline, "C-spine cleared by team, Miami J removed.", Category.LOCATION) == []
    assert found(pipeline, "Son called from Miami at 0100.", Category.LOCATION) == ["Miami"]
    assert found(pipeline, "HUSBAND IS HOME ALONE IN FRAMINGHAM W/ DEMENTIA.", Category.LOCATION) == ["FRAMINGHAM"]
    assert found(pipeline, "LIVES IN FRAMINGHAM W WIFE.", Category.LOCATION) == ["FRAMINGHAM"]


@pytest.mark.parametrize("word", ["lochia", "colostrum", "postpartum", "perfusion", "ttn", "skin-to-skin", "short-term"])
def test_labour_and_delivery_words_and_compounds_of_ordinary_words_are_words(word):
    assert default_lexicon().is_common_word(word)


@pytest.mark.parametrize("name", ["Rose-Marie", "Jun-ho", "Asante-Boateng", "Tri-River"])
def test_a_hyphenated_name_is_no_compound_of_words(name):
    assert not default_lexicon().is_common_word(name)
