from __future__ import annotations

import pytest

from deid_core.recognizers.completion import complete_names
from deid_core.recognizers.lexicon import default_lexicon
from deid_core.recognizers.pipeline import build_default_pipeline
from deid_core.spans import Category, Evidence, Span

H, L, P = Category.HOSPITAL, Category.LOCATION, Category.PATIENT


def _complete(text: str, part: str, category: Category, evidence: Evidence = Evidence.RULE) -> list[tuple[str, Category]]:
    start = text.index(part)
    spans = complete_names(text, [Span(start, start + len(part), category, 0.6, "test", evidence)], default_lexicon())
    return [(text[s.start : s.end], s.category) for s in spans]


@pytest.mark.parametrize(
    "text, part, whole",
    [
        ("EP NOTIFIED, TRANSFER FOR ABLATION AT BRYAN HEART PENDING BED.", "BRYAN", "BRYAN HEART"),
        ("transfer to nebraska medicine discussed", "nebraska", "nebraska medicine"),
        ("88 Y/O F FROM SUN VALLEY POST-ACUTE WHERE THE AC BROKE", "SUN VALLEY", "SUN VALLEY POST-ACUTE"),
        ("FOLLOWED AT UPMC PRESBYTERIAN. NEURO INTACT.", "UPMC", "UPMC PRESBYTERIAN"),
    ],
)
def test_a_place_or_facility_before_a_facility_word_becomes_the_whole_facility(text, part, whole):
    assert _complete(text, part, L) == [(whole, H)]


def test_a_place_takes_in_the_words_that_begin_and_end_a_places_name():
    assert _complete("FOUND IN SAN JOAQUIN RIVER BOTTOMS", "JOAQUIN RIVER", L) == [("SAN JOAQUIN RIVER", L)]
    assert _complete("pt from dodge city, 30 wk pregnant", "dodge", L) == [("dodge city", L)]
    assert _complete("THEY LIVE UP BUFFALO CREEK HOLLOW, 40 MIN", "BUFFALO CREEK", L) == [("BUFFALO CREEK HOLLOW", L)]
    assert _complete("avalanche burial in big cottonwood canyon ~15 min", "cottonwood canyon", L) == [("big cottonwood canyon", L)]


def test_a_facility_word_that_heads_a_clinical_phrase_or_changes_case_joins_nothing():
    assert _complete("FROM DOVER HEART FAILURE CLINIC F/U", "DOVER", L) == [("DOVER", L)]
    assert _complete("called boston medicine team", "boston", L) == [("boston", L)]
    assert _complete("Lives in Dover HEART rate 80s", "Dover", L) == [("Dover", L)]


def test_only_a_name_no_cue_stood_beside_becomes_a_pharmacy():
    text = "meds clarified w kinney drugs pharmacist"
    assert _complete(text, "kinney", P, Evidence.GUESS) == [("kinney drugs", H)]
    assert _complete(text, "kinney", P, Evidence.CUE) == [("kinney", P)]


def test_a_completed_name_stops_at_the_next_span():
    text = "AT BRYAN HEART 555-0100"
    spans = [Span(3, 8, L, 0.6, "a"), Span(9, 14, P, 0.6, "b")]
    assert complete_names(text, spans, default_lexicon()) == spans


def test_the_rules_pipeline_completes_what_its_units_found_in_part():
    pipeline = build_default_pipeline()
    text = "EP NOTIFIED, TRANSFER FOR ABLATION AT UPMC PRESBYTERIAN PENDING BED. PT FROM SAN JOAQUIN RIVER BOTTOMS."
    found = {text[s.start : s.end]: s.category for s in pipeline.analyze(text)}
    assert found["UPMC PRESBYTERIAN"] is H
    assert found["SAN JOAQUIN RIVER"] is L


def test_a_name_no_cue_found_before_two_facility_words_becomes_the_facility():
    text = "f/u at greenwood heart clinic in 2 wks"
    assert _complete(text, "greenwood", P, Evidence.GUESS) == [("greenwood heart clinic", H)]
    assert _complete(text, "greenwood", P, Evidence.CUE) == [("greenwood", P)]


def test_a_town_the_name_lists_took_for_a_person_after_a_facility_is_its_site():
    text = "ESRD ON HD MWF AT FRESENIUS BLAKELY, ADMITTED W/ FISTULA INFECTION"
    spans = [Span(18, 27, H, 0.8, "gazetteer/hospital"), Span(28, 35, P, 0.5, "names/listed", Evidence.GUESS)]
    assert text[18:27] == "FRESENIUS" and text[28:35] == "BLAKELY"
    completed = complete_names(text, spans, default_lexicon())
    assert [(text[s.start : s.end], s.category) for s in completed] == [("FRESENIUS BLAKELY", H)]
    cued = [spans[0], Span(28, 35, P, 0.9, "names/relation", Evidence.CUE)]
    assert [(text[s.start : s.end], s.category) for s in complete_names(text, cued, default_lexicon())] == [("FRESENIUS", H), ("BLAKELY", P)]
