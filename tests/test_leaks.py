"""The leak report's scanner: what counts as original text left in an output."""

from __future__ import annotations

from deid_core.anonymizer.engine import Anonymizer, Note
from deid_core.keys import StudyKey
from deid_core.leaks import needle_rule, scan_output, summarize
from deid_core.spans import Category, Span

KEY = StudyKey(study="leaks", salt=bytes(range(32)), key=bytes(range(32, 64)))


def _span(text: str, needle: str, category: Category, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    return Span(start, start + len(needle), category)


def _scan(text: str, spans: list[Span]):
    out = Anonymizer(KEY).anonymize(Note("n1", text, "P1", tuple(spans)))
    return out, scan_output(text, spans, out.text, out.replacements)


def test_a_missed_second_mention_of_a_surname_is_a_leak():
    text = "Seen: John Okafor, today. Later OKAFOR phoned the ward."
    out, leaks = _scan(text, [_span(text, "John Okafor", Category.PATIENT)])
    assert [leak.kind for leak in leaks] == ["span-text"]
    assert out.text[leaks[0].out_start : leaks[0].out_end] == "OKAFOR"
    assert leaks[0].category is Category.PATIENT


def test_a_fully_anonymized_note_has_no_leaks():
    text = "Seen: John Okafor on 3/4/2021, MRN 40718823. Okafor to return."
    spans = [
        _span(text, "John Okafor", Category.PATIENT),
        _span(text, "3/4/2021", Category.DATE),
        _span(text, "40718823", Category.ID),
        _span(text, "Okafor", Category.PATIENT, nth=1),
    ]
    _, leaks = _scan(text, spans)
    assert leaks == []


def test_an_undetected_phone_number_is_a_pattern_leak_but_the_surrogate_phone_is_not():
    text = "Call 503-555-0199 or 971-555-0142 after discharge."
    out, leaks = _scan(text, [_span(text, "503-555-0199", Category.PHONE)])
    assert [(leak.kind, leak.category) for leak in leaks] == [("pattern", Category.PHONE)]
    assert out.text[leaks[0].out_start : leaks[0].out_end] == "971-555-0142"


def test_short_span_texts_are_not_searched_and_words_must_stand_alone():
    assert needle_rule("Al") is None and needle_rule("12") is None
    text = "Ann Lee seen. Annual review; al. dose; Leeward unit."
    _, leaks = _scan(text, [_span(text, "Ann Lee", Category.PATIENT)])
    assert leaks == []


def test_a_name_that_is_an_ordinary_word_is_matched_with_its_case_only():
    assert needle_rule("Will") == "case" and needle_rule("Okafor") == "nocase"
    text = "Will seen today. She will return. Will said so."
    out, leaks = _scan(text, [_span(text, "Will", Category.PATIENT)])
    assert [out.text[x.out_start : x.out_end] for x in leaks] == ["Will"]
    assert leaks[0].out_start > out.text.index("will return")


def test_an_age_the_policy_keeps_is_not_a_leak_anywhere():
    text = "45 year old seen; recheck in 45 days."
    out, leaks = _scan(text, [_span(text, "45 year old", Category.AGE)])
    assert "45 year old" in out.text and leaks == []


def test_leak_reasons_name_no_original_text():
    text = "Seen: John Okafor. Okafor phoned from 503-555-0199."
    _, leaks = _scan(text, [_span(text, "John Okafor", Category.PATIENT)])
    reason = summarize(leaks)
    assert reason.startswith("leak report: 2 hit(s)")
    assert "Okafor" not in reason and "503" not in reason
    assert all("Okafor" not in str(leak.to_dict()) for leak in leaks)
