"""How model spans join the rules' spans: the shape check, the join score and the arbiter."""

import pytest

from deid_core.recognizers.pipeline import DetectConfig, DetectConfigError
from deid_core.recognizers.plausibility import PlausibilityCheck, join_fragments, unite_with_rules
from deid_core.spans import Category, Evidence, Span


@pytest.fixture(scope="module")
def check() -> PlausibilityCheck:
    return PlausibilityCheck()


@pytest.mark.parametrize(
    "text,category",
    [
        ("Okonkwo-Baptiste", Category.PATIENT),
        ("Sinéad O'Halloran", Category.DOCTOR),
        ("Wapakoneta", Category.LOCATION),
        ("Briar Hollow Elementary", Category.HOSPITAL),
        ("9/29", Category.DATE),
        ("March 3, 2021", Category.DATE),
        ("sixty-two-year-old", Category.AGE),
        ("89Y", Category.AGE),
        ("(07) 5555 0142", Category.PHONE),
        ("GEN-48215", Category.ID),
        ("k.obrien@clinic.org", Category.WEB),
    ],
)
def test_identifier_shapes_pass(check, text, category):
    assert check.plausible(text, category)


@pytest.mark.parametrize(
    "text,category",
    [
        ("adalimumab", Category.PATIENT),   # drug stem
        ("furosemide", Category.DOCTOR),
        ("CIWA", Category.PATIENT),         # short acronym
        ("palliative", Category.PATIENT),   # ordinary word
        ("Braden 12", Category.PATIENT),    # a score, with a digit
        ("pediatrician", Category.HOSPITAL),
        ("office", Category.LOCATION),
        ("06:05", Category.DATE),           # clock time
        ("2/2", Category.DATE),             # as likely a score as a date
        ("last spring", Category.DATE),
        ("/", Category.AGE),
        ("486", Category.PHONE),
        ("3120/2450", Category.PHONE),      # intake over output
        ("0212", Category.ID),
        ("@ 2145", Category.WEB),
        ("7.29/44/71/21", Category.DATE),   # a blood gas
        ("12/40/2020", Category.DATE),      # no month and day in it
    ],
)
def test_clinical_text_the_model_mistakes_is_rejected(check, text, category):
    assert not check.plausible(text, category)


def test_fragments_split_at_a_space_are_rejoined():
    text = "Seen by Sinéad O'Halloran today"
    a, b = text.index("Sinéad"), text.index("O'Halloran")
    joined = join_fragments(text, [Span(b, b + 10, Category.DOCTOR, 0.9), Span(a, a + 6, Category.DOCTOR, 0.8)])
    assert [(s.start, s.end, s.score) for s in joined] == [(a, b + 10, 0.8)]


def _at(text: str, value: str, category: Category, score: float = 0.995, source: str = "encoder") -> Span:
    start = text.index(value)
    evidence = Evidence.MODEL if source == "encoder" else Evidence.GUESS if source in ("names/listed", "names/inverted", "gazetteer/place") else Evidence.CUE
    return Span(start, start + len(value), category, score, source, evidence)


def _joined(text: str, rules: list[Span], model: list[Span], check: PlausibilityCheck) -> list[tuple[str, str]]:
    return sorted((text[s.start : s.end], s.category.value) for s in unite_with_rules(text, rules, [model], check))


def test_only_new_plausible_model_spans_are_added(check):
    text = "Pt Ines Waterhouse seen with CIWA 12, lives in Wapakoneta."
    rule = Span(3, 18, Category.PATIENT, 1.0, "names/patient_inline")
    model = [
        Span(8, 18, Category.PATIENT, 0.999),                      # inside a rule span: nothing new
        _at(text, "CIWA", Category.PATIENT),
        _at(text, "Wapakoneta", Category.LOCATION),
    ]
    assert _joined(text, [rule], model, check) == [("Ines Waterhouse", "PATIENT"), ("Wapakoneta", "LOCATION")]


def test_a_model_span_below_the_join_score_stays_out(check):
    text = "Family from Wapakoneta visited."
    assert _joined(text, [], [_at(text, "Wapakoneta", Category.LOCATION, score=0.9)], check) == []
    assert _joined(text, [], [_at(text, "Wapakoneta", Category.LOCATION, score=0.9)], PlausibilityCheck(join_score=0.5)) == [
        ("Wapakoneta", "LOCATION")
    ]


def test_join_score_is_validated_in_the_configuration():
    assert DetectConfig.from_mapping({"join_score": 0.9}).join_score == 0.9
    for bad in (1.5, -0.1, "high", True):
        with pytest.raises(DetectConfigError, match="join_score"):
            DetectConfig.from_mapping({"join_score": bad})


def test_a_sure_model_span_replaces_an_uncued_list_guess(check):
    text = "Reported to hemovigilance by Dana Pettibone at 1410."
    guess = _at(text, "Dana Pettibone", Category.PATIENT, 0.5, "names/listed")
    model = [_at(text, "Dana Pettibone", Category.DOCTOR, 0.97)]
    assert _joined(text, [guess], model, check) == [("Dana Pettibone", "DOCTOR")]


def test_a_sure_model_span_widens_list_guesses_it_covers(check):
    text = "Follow-up at Fairhaven General next week; family in Krakow, Poland."
    rules = [_at(text, "Fairhaven", Category.LOCATION, 0.6, "gazetteer/place"), _at(text, "Poland", Category.LOCATION, 0.6, "gazetteer/place")]
    model = [_at(text, "Fairhaven General", Category.HOSPITAL, 0.99), _at(text, "Krakow, Poland", Category.LOCATION, 0.99)]
    assert _joined(text, rules, model, check) == [("Fairhaven General", "HOSPITAL"), ("Krakow, Poland", "LOCATION")]


def test_a_cued_rule_span_is_never_replaced(check):
    text = "Patient: Dana Pettibone, seen today."
    cued = _at(text, "Dana Pettibone", Category.PATIENT, 0.9, "names/patient_header")
    assert _joined(text, [cued], [_at(text, "Dana Pettibone", Category.DOCTOR, 1.0)], check) == [("Dana Pettibone", "PATIENT")]


def test_a_model_span_of_ordinary_words_does_not_swallow_a_name(check):
    text = "soy carmen la mamá de isabella rojas, gracias"
    guess = _at(text, "isabella rojas", Category.PATIENT, 0.5, "names/listed")
    model = [_at(text, "carmen la mamá de isabella rojas", Category.PATIENT, 0.98)]
    assert _joined(text, [guess], model, check) == [("isabella rojas", "PATIENT")]


def test_an_unsure_model_span_does_not_replace_a_guess(check):
    text = "Seen with Tamsin Achterberg today."
    guess = _at(text, "Tamsin Achterberg", Category.PATIENT, 0.5, "names/listed")
    assert _joined(text, [guess], [_at(text, "Tamsin Achterberg", Category.DOCTOR, 0.6)], check) == [("Tamsin Achterberg", "PATIENT")]


@pytest.mark.parametrize(
    "text,value,category",
    [
        ("Dx: S61.412A. CPT 12002, 90715.", "12002", Category.ID),           # a CPT code after its cue
        ("HAND THERAPY (CPT 97166, 97760)", "CPT 97166", Category.ID),
        ("Items: 1. E0277 powered air mattress", "E0277", Category.ID),      # HCPCS
        ("Dx: L89.154, Z74.01", "L89.154, Z74.01", Category.ID),             # ICD-10
        ("qty 2 syringes; NDC 0024-5915-02", "NDC 0024-5915-02", Category.PHONE),
        ("Protocol HX-2210 not applicable.", "HX-2210", Category.ID),        # names a study, not a person
        ("apnea test PaCO2 41 -> 72", "PaCO2 41", Category.ID),
        ("Seen 2019 and again in 2021.", "2019", Category.DATE),             # a year alone is not PHI
        ("Worked there 1986-1998 as a welder.", "1986-1998", Category.DATE),
        ("unhoused x 3 yrs, sleeps outside", "3 yrs", Category.AGE),          # a duration
        ("Education: 16 yrs", "16 yrs", Category.AGE),
        ("Wt 162 lb (down from 190)", "190", Category.AGE),                  # a bare number
        ("spouse of 51 years", "51 years", Category.AGE),
        ("la niña tiene fiebre, gracias", "gracias", Category.DOCTOR),       # common words of other languages
        ("Esercizi due volte al giorno", "Esercizi", Category.PATIENT),
        ("Paziente italiano, nata a Bari", "italiano", Category.PATIENT),
        ("Bereavement: Hillcrest Covenant Church", "Hillcrest Covenant Church", Category.HOSPITAL),
        ("Employer: Pleasant Valley Auto Body", "Pleasant Valley Auto Body", Category.HOSPITAL),
        ("S/P CABG X3 (LIMA-LAD, SVG-OM, SVG-PDA)", "LIMA-LAD", Category.PATIENT),  # a compound of clinical words
        ("SOCIAL: DAUGHTER IN TO VISIT 1500-1700.", "1500-1700", Category.PHONE),  # two clock times
        ("ID: afb #2 neg. bactrim day 4/21.", "4/21", Category.DATE),  # a day of a course
        ("LAST DRINK THIS AM PER SISTER. THIAMINE/FOLATE.", "THIAMINE", Category.PATIENT),  # a vitamin
        ("MICU NPN 7P-7A / PT TACHYPNEIC OVERNIGHT RR 30'S", "TACHYPNEIC", Category.PATIENT),  # a finding
        ("YOUNG MALE S/P 4-WHEELER ROLLOVER IN A RICE FIELD", "-WHEELER", Category.PATIENT),  # glued to a number
        ("SOCIAL: RICE FARMER, WIFE SAYS HE SLEEPS IN A RECLINER.", "RICE FARMER", Category.PATIENT),  # a trade
        ("44 YO M ROUSTABOUT WORKS OFFSHORE FOR HALLIBURTON", "ROUSTABOUT", Category.PATIENT),
        ("brought photo of his dog sadie, asking about home", "sadie", Category.PATIENT),  # a pet's name
        ("PT EATING JELL-O AND A BANANA", "JELL-O", Category.PATIENT),  # a food, listed with its hyphen
        ("PT WANTS TO GO HOME TO THE MESA BEFORE LAMBING SEASON.", "MESA", Category.LOCATION),  # the land, not the town
    ],
)
def test_what_a_model_mistakes_for_an_identifier_stays_out(check, text, value, category):
    assert _joined(text, [], [_at(text, value, category)], check) == []


@pytest.mark.parametrize(
    "text,value,category",
    [
        ("please go to the valley general er tonight", "valley general er", Category.HOSPITAL),
        ("she lives over on greenleaf avenue in town", "greenleaf avenue", Category.LOCATION),
        ("sleeps near Pioneer Square most nights", "Pioneer Square", Category.LOCATION),
        ("returned to full duty 3/4 without limits", "3/4", Category.DATE),
        ("Bed 12: Abernethy-Cole 79F, CHF", "79F", Category.AGE),
        ("pod 1 pt ravi 54m s/p lap chole", "54m", Category.AGE),
        ("Pt is 44 years old", "44", Category.AGE),                           # its unit right after it
        ("hola, soy Rosa Quintero", "Rosa Quintero", Category.PATIENT),      # a common word that is a common name
        ("Inmate: DUQUESNE, MARCUS T.", "DUQUESNE, MARCUS T.", Category.PATIENT),  # an initial is no acronym
        ("unit SN NPW-55K-20831 on the pump", "NPW-55K-20831", Category.ID),
    ],
)
def test_what_a_sure_model_finds_joins(check, text, value, category):
    assert _joined(text, [], [_at(text, value, category)], check) == [(value, category.value)]


def test_each_model_is_judged_against_the_rules_not_against_another_model(check):
    text = "Family drove down from Wapakoneta, Ohio yesterday."
    encoder = [_at(text, "Wapakoneta", Category.LOCATION)]
    generative = [_at(text, "Wapakoneta, Ohio", Category.LOCATION)]
    joined = unite_with_rules(text, [], [encoder, generative], check)
    assert sorted(text[s.start : s.end] for s in joined) == ["Wapakoneta", "Wapakoneta, Ohio"]


@pytest.mark.parametrize("text", ["Levo", "LEVO", "Sedated", "Zosyn", "Lasix", "Trach", "Dopa"])
def test_a_model_name_made_of_a_clinical_word_is_rejected(check, text):
    assert not check.plausible(text, Category.PATIENT)
    assert not check.name_like(text)


def test_after_pt_an_everyday_word_from_the_model_is_rejected_but_a_name_is_not(check):
    text = "Will call out in AM. Pt pleasant, says he is in no hurry. Wife Pleasant called. Pt Okonkwo resting."

    def span(word):
        start = text.index(word)
        return Span(start, start + len(word), Category.PATIENT, 0.99, "encoder", Evidence.MODEL)

    assert not check.plausible_at(text, span("pleasant"))
    assert check.plausible_at(text, span("Pleasant"))
    assert check.plausible_at(text, span("Okonkwo"))


def test_a_model_date_where_the_date_rule_sees_a_score_or_a_count_is_rejected(check):
    text = "hd 3 chest pain 6/10 at 0200, ekg unchanged. tof 3/4 at 1000. next hd 6/10 at 0700."

    def span(word, nth=0):
        start = -1
        for _ in range(nth + 1):
            start = text.index(word, start + 1)
        return Span(start, start + len(word), Category.DATE, 0.99, "encoder", Evidence.MODEL)

    assert not check.plausible_at(text, span("6/10"))
    assert not check.plausible_at(text, span("3/4"))
    assert check.plausible_at(text, span("6/10", nth=1))


def _sure(text: str, word: str, category: Category) -> Span:
    start = text.index(word)
    return Span(start, start + len(word), category, 0.99, "encoder", Evidence.MODEL)


def test_a_model_facility_made_only_of_service_words_is_rejected(check):
    text = "will f/u at anticoag clinic, inr in 3 days. PLAN: PULM REHAB REFERRAL. back to Fairhaven Rehab."
    assert not check.plausible_at(text, _sure(text, "anticoag clinic", Category.HOSPITAL))
    assert not check.plausible_at(text, _sure(text, "PULM REHAB", Category.HOSPITAL))
    assert check.plausible_at(text, _sure(text, "Fairhaven Rehab", Category.HOSPITAL))


def test_a_sure_model_place_needs_two_words_that_are_not_all_clinical_or_single_letters(check):
    text = "AMBULATED IN HALL W/ PT. transitioned to po oxy. PT TO CALL COASTLINE RESP 508-555-0181. bring to valley general er"
    assert not check.plausible_at(text, _sure(text, "HALL W", Category.LOCATION))
    assert not check.plausible_at(text, _sure(text, "po oxy", Category.LOCATION))
    assert check.plausible_at(text, _sure(text, "COASTLINE RESP", Category.HOSPITAL))
    assert check.plausible_at(text, _sure(text, "valley general er", Category.HOSPITAL))


def test_a_model_date_that_is_bottles_or_a_second_pain_reading_is_rejected(check):
    text = "CHECK 2/2 BCX. Pain 4/10 at rest, 7/10 with cough. CXR 3/2 clear."
    assert not check.plausible_at(text, _sure(text, "2/2", Category.DATE))
    assert not check.plausible_at(text, _sure(text, "7/10", Category.DATE))
    assert check.plausible_at(text, _sure(text, "3/2", Category.DATE))


def test_a_model_name_that_is_an_eponym_written_with_and_or_before_a_scale_is_rejected(check):
    text = "pt w/ sah (hunt and hess 3, fisher 4), glasgow coma scale 14; spoke with wife Tamsin and Jo"
    assert not check.plausible_at(text, _at(text, "hunt and hess", Category.PATIENT))
    assert not check.plausible_at(text, _at(text, "hess", Category.DOCTOR))
    assert not check.plausible_at(text, _at(text, "glasgow", Category.PATIENT))
    assert check.plausible_at(text, _at(text, "Tamsin", Category.PATIENT))


def test_a_model_name_before_a_tear_or_boots_or_that_is_an_icu_drug_is_rejected(check):
    text = "S/p EGD: Mallory-Weiss tear, clipped. Heels in Prevalon boots. Mannitol PRN available."
    assert not check.plausible_at(text, _at(text, "Mallory-Weiss", Category.PATIENT))
    assert not check.plausible_at(text, _at(text, "Prevalon", Category.LOCATION, score=0.9))
    assert not check.plausible_at(text, _at(text, "Mannitol", Category.DOCTOR))


def test_a_model_name_in_a_table_before_a_grade_column_is_kept(check):
    text = "To the parent/guardian of: Mei-Ling Tsao   Grade 3, Room 14"
    assert check.plausible_at(text, _at(text, "Mei-Ling Tsao", Category.PATIENT))


def test_after_pt_a_model_span_of_everyday_and_clinical_words_is_rejected(check):
    text = "PAIN 0/10. PT PLEASANT, HOH, SPEAKS PORTUGUESE"
    assert not check.plausible_at(text, _at(text, "PLEASANT, HOH", Category.PATIENT))


@pytest.mark.parametrize("text, name", [("Pt Hope Okonkwo resting comfortably.", "Hope Okonkwo"), ("PT GRACE ADEYEMI ASLEEP", "GRACE ADEYEMI")])
def test_after_pt_a_model_name_opening_with_an_everyday_word_is_kept_when_a_name_follows(check, text, name):
    assert check.plausible_at(text, _at(text, name, Category.PATIENT))


def test_a_model_date_that_starts_inside_a_number_is_rejected(check):
    text = "2 UNITS PRBC GIVEN, H/H 6.9/21 -> 8.2/25. NEXT CHECK 9/21 AM."
    assert not check.plausible_at(text, _at(text, "9/21", Category.DATE))
    later = text.rindex("9/21")
    assert check.plausible_at(text, Span(later, later + 4, Category.DATE, 0.995, "encoder", Evidence.MODEL))


def test_a_model_name_inside_a_listed_eponym_joined_by_a_space_is_rejected(check):
    text = "Pt with Grey Turner sign on exam."
    assert not check.plausible_at(text, _at(text, "Turner", Category.PATIENT))


def test_a_model_name_of_one_word_after_prefers_or_speaks_is_a_language(check):
    text = "PT ORIGINALLY FROM CABO VERDE, PREFERS KRIOLU, PHONE INTERPRETER USED."
    assert not check.plausible_at(text, _at(text, "KRIOLU", Category.DOCTOR))
    named = "Pt prefers Amara Okafor as her contact."
    assert check.plausible_at(named, _at(named, "Amara Okafor", Category.PATIENT))


def test_a_model_name_after_an_eponym_modifier_is_rejected(check):
    text = "Sitting in high Fowler's. PASSY-MUIR USED YESTERDAY."
    assert not check.plausible_at(text, _at(text, "Fowler", Category.PATIENT))
    assert not check.plausible_at(text, _at(text, "PASSY-MUIR", Category.DOCTOR))


def test_a_model_date_that_is_a_fraction_of_a_rate_or_a_dose_is_rejected(check):
    text = "stopped mivf, changed to 3/4 maint. 1/2 strength feeds. echo 3/4 showed ef 55%."
    assert not check.plausible_at(text, _sure(text, "3/4", Category.DATE))
    assert not check.plausible_at(text, _sure(text, "1/2", Category.DATE))
    later = text.rindex("3/4")
    assert check.plausible_at(text, Span(later, later + 3, Category.DATE, 0.995, "encoder", Evidence.MODEL))


@pytest.mark.parametrize(
    "text, value, category, plausible",
    [
        ("SEPTIC SHOCK 2/2 PNA. LEVO 14.", "2/2", Category.DATE, False),  # "secondary to"
        ("pt seen in clinic on 2/2. no events since.", "2/2", Category.DATE, True),
        ("MOTHER FOUND HIM IN THE DEER CAMP TRAILER WITH EMPTY BOTTLES. NO EVENTS OVERNIGHT.", "DEER CAMP", Category.HOSPITAL, False),
        ("family not reachable, no signal at fish camp. ct back, small bleed, neuros stable overnight", "fish camp", Category.HOSPITAL, False),
        ("TRANSFERRED FROM SUN VALLEY MEDICAL FOR HIGHER LEVEL OF CARE.", "SUN VALLEY MEDICAL", Category.HOSPITAL, True),
        ("WIFE HERE FROM HOME, STAYING AT HOPE LODGE. SBP 130S.", "HOPE LODGE", Category.HOSPITAL, True),
        # a hyphened scale, a hospital's own unit, a graded leak
        ("1 UNIT ON HOLD. GLASGOW-BLATCHFORD 12. EGD SCHED 0800.", "GLASGOW-BLATCHFORD 12", Category.LOCATION, False),
        ("SAH, HUNT-HESS 3, FISHER 4.", "HUNT", Category.DOCTOR, False),
        ("Pt Mary Smith-Jones 45 yo seen today.", "Mary Smith-Jones", Category.PATIENT, True),
        ("ancef on call to ep lab, k 4.5 mg 2.2", "ep lab", Category.HOSPITAL, False),
        ("CT TUBE TO -20 CM H2O, AIR LEAK 2/7 ON PLEUR-EVAC, TIDALING +.", "2/7", Category.DATE, False),
        ("CT TUBE PLACED 2/7, NO AIR LEAK.", "2/7", Category.DATE, True),
        # a word a month's short form begins is no month
        ("watch for delayed ards, no abx unless febrile.", "febrile", Category.DATE, False),
        ("seen in clinic feb 3, no events.", "feb 3", Category.DATE, True),
        # a kind of place in everyday words, a faith, a word with an "s" that is a verb, a care home's kind alone
        ("fell ~12 ft from hay mow in bank barn near belleville, l rib fx", "bank barn", Category.LOCATION, False),
        ("fell from ladder at orchard near new berlin, spanish speaking", "orchard", Category.LOCATION, False),
        ("S/P FALL FROM HAY LOFT, MULTIPLE RIB FX L 4-8", "HAY LOFT", Category.LOCATION, False),
        ("no pcp since moving to garden city. sw consult placed", "garden city", Category.LOCATION, True),
        ("FELL FROM LADDER AT BLUE RIDGE ORCHARD, SPANISH SPEAKING", "BLUE RIDGE ORCHARD", Category.LOCATION, True),
        ("67 YO M MENNONITE, HEMATEMESIS AT HOME", "MENNONITE", Category.PATIENT, False),
        ('2 g na teaching, pt says wife cooks "with plenty of salt"', "cooks", Category.PATIENT, False),
        ("son asks about return to manor vs hospice, family mtg tomorrow", "manor vs hospice", Category.HOSPITAL, False),
    ],
)
def test_a_model_span_that_a_shape_of_clinical_writing_explains_is_rejected(check, text, value, category, plausible):
    """"2/2" before a word, everyday words as a facility where case says nothing, a hyphened scale, a unit, a leak."""
    assert check.plausible_at(text, _sure(text, value, category)) is plausible


def test_what_bit_or_struck_the_patient_is_no_place_from_the_model(check):
    text = "41 yo m bitten by eastern diamondback on r lower leg. transferred from eastern shore."
    assert not check.plausible_at(text, _sure(text, "eastern diamondback", Category.HOSPITAL))
    assert check.plausible_at(text, _sure(text, "eastern shore", Category.LOCATION))


def test_a_model_date_that_is_a_blood_gas_or_an_oxygen_flow_is_rejected(check):
    text = "abg 0400: 7.29/52/68 on bipap. extubated in or, 1/2 l nc sats 99. next echo 1/2 at 0900."
    assert not check.plausible_at(text, _sure(text, "7.29/52/68", Category.DATE))
    assert not check.plausible_at(text, _sure(text, "1/2", Category.DATE))
    start = text.rindex("1/2")
    assert check.plausible_at(text, Span(start, start + 3, Category.DATE, 0.99, "encoder", Evidence.MODEL))


def test_a_model_name_after_speak_is_a_language(check):
    text = "WIFE SUSANNA AND BROTHER JAKE STAYING NIGHTS, SPEAK HUTTERISCH TOGETHER, ENGLISH FINE W/ STAFF."
    assert not check.plausible_at(text, _sure(text, "HUTTERISCH", Category.PATIENT))
    assert check.plausible_at(text, _sure(text, "SUSANNA", Category.PATIENT))


def test_a_model_place_that_is_a_road_named_by_its_surface_is_none(check):
    text = "FOUND BY NEIGHBOR IN PICKUP STUCK IN DRIFT ON GRAVEL RD N OF ROUNDUP, ~-20F OVERNIGHT."
    assert not check.plausible_at(text, _sure(text, "GRAVEL RD N", Category.LOCATION))
    text = "MVC ON CHIMNEY ROCK RD N OF ROUNDUP"
    assert check.plausible_at(text, _sure(text, "CHIMNEY ROCK RD", Category.LOCATION))


def test_a_model_place_of_a_faith_and_a_kind_of_place_is_none_where_case_says_nothing(check):
    text = "52 yo m from hutterite colony near harlowton, perforated appendix w/ diffuse peritonitis, s/p ex lap."
    assert not check.plausible_at(text, _sure(text, "hutterite colony", Category.LOCATION))
    text = "family asked to burn sage, can use sage bundle unlit at bedside and ceremony in chapel courtyard."
    assert not check.plausible_at(text, _sure(text, "chapel courtyard", Category.LOCATION))


def test_the_years_a_couple_has_been_married_are_no_age(check):
    text = "husband elmer at bedside, married 56 years, they still run a few cows on the place."
    assert not check.plausible_at(text, _sure(text, "56 years", Category.AGE))
    text = "husband elmer at bedside, he is 56 years old and healthy."
    assert check.plausible_at(text, _sure(text, "56 years old", Category.AGE))


def test_a_model_facility_that_is_a_regimen_or_the_patients_trade_is_none_where_case_says_nothing(check):
    text = "discharge planning: 30 day insulin supply from pharmacy assistance program. f/u w/ primary care."
    assert not check.plausible_at(text, _sure(text, "pharmacy assistance program", Category.HOSPITAL))
    text = "58 yo m commercial fisherman, stemi, outside hospital gave tnk and transferred."
    assert not check.plausible_at(text, _sure(text, "fisherman, stemi", Category.HOSPITAL))
    text = "58 yo m transferred from fishermen's memorial hospital after stemi."
    assert check.plausible_at(text, _sure(text, "fishermen's memorial hospital", Category.HOSPITAL))


def test_whom_a_person_prays_to_is_no_name_and_no_place(check):
    text = "DAUGHTER AT BEDSIDE MOST OF THE DAY, PRAYS TO LA VIRGEN WITH CANDLE. SON ROBERTO CALLED FROM LA JOYA."
    assert not check.plausible_at(text, _sure(text, "LA VIRGEN", Category.HOSPITAL))
    assert not check.plausible_at(text, _sure(text, "LA VIRGEN", Category.PATIENT))
    assert check.plausible_at(text, _sure(text, "LA JOYA", Category.LOCATION))


def test_a_care_home_written_short_with_its_nurse_is_no_named_facility(check):
    text = "REPORT TO BE CALLED TO NH NURSE BEFORE TRANSPORT. BACK TO VALLEY GRANDE MANOR SNF."
    assert not check.plausible_at(text, _sure(text, "NH NURSE", Category.HOSPITAL))
    assert check.plausible_at(text, _sure(text, "VALLEY GRANDE MANOR SNF", Category.HOSPITAL))


def test_what_bit_the_patient_where_it_bit_is_no_place(check):
    text = "34 yo m bitten r hand by prairie rattler while moving bales near thedford, swelling to mid forearm"
    assert not check.plausible_at(text, _sure(text, "prairie rattler", Category.HOSPITAL))
    assert check.plausible_at(text, _sure(text, "thedford", Category.LOCATION))


def test_a_models_pain_reading_out_of_ten_is_no_date(check):
    text = "PAIN BETTER W/ PCA + SCHEDULED TYLENOL, NOW 5/10. LBM 5/10."
    assert not check.plausible_at(text, _sure(text, "5/10", Category.DATE))
    second = text.rindex("5/10")
    assert check.plausible_at(text, Span(second, second + 4, Category.DATE, 0.99, "encoder", Evidence.MODEL))
