"""What lies outside a candidate annotation, as numbers a small model can weigh.

A missed identifier leaves traces in the uncovered text: a fixed-format
string the rules would catch, a capitalised word no dictionary knows, a
surname after "Dr." or "daughter", a listed city, a span that stops in the
middle of a word, a long note with few spans.  The note is analysed once
(:func:`analyze_note`); each candidate annotation then costs only interval
lookups (:func:`candidate_features`), so scoring many candidates of one note
is cheap.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from deid_core.spans import Category, Span
from deid_core.verifier.base import covered_intervals

#: Fixed-format recognizers re-run by the verifier (the shape of an identifier
#: does not depend on the recognizer that missed it).
FIXED_FORMAT = ("date", "age", "phone", "id", "web", "address")
_RULE_CATEGORIES = (Category.DATE, Category.AGE, Category.PHONE, Category.ID, Category.WEB, Category.LOCATION)

_REGEXES = {
    "digits5": re.compile(r"\b\d{5,}\b"),
    "email": re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    "url": re.compile(r"\bhttps?://\S+|\bwww\.\S+"),
    "numeric_date": re.compile(r"\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b"),
    "phone": re.compile(r"\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b"),
    "month": re.compile(
        r"\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|January|February|March|April|May|June|July|"
        r"August|September|October|November|December)\.?\s+\d{1,2}\b|\b\d{1,2}\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|"
        r"Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{2,4}\b"
    ),
    "alnum_id": re.compile(r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{2,}(?:-[A-Z0-9]+)+\b|\b[A-Z]{1,3}\d{4,}\b"),
}
_TITLE_CUE = re.compile(r"\b(?:Dr|Drs|Doctor|Prof|Mr|Mrs|Ms|Miss|Mx)\.?[ \t]+(?=[A-Z])")
_RELATION_CUE = re.compile(
    r"\b(?:daughter|son|wife|husband|mother|father|mom|dad|sister|brother|spouse|partner|niece|nephew|aunt|"
    r"uncle|cousin|guardian|caregiver|friend|neighbou?r|grand(?:daughter|son|mother|father))(?:'s)?[ \t,:(]+(?=[A-Z])",
    re.IGNORECASE,
)
_HEADER_CUE = re.compile(
    r"(?:^|\n)[ \t]*(?:patient|pt|name|attending|physician|provider|surgeon|pcp|referring|resident|nurse|rn|"
    r"signed|cc|re|to|from|contact|emergency contact|author|dictated by|seen by)[ \t]*(?:name)?[ \t]*[:#-][ \t]*",
    re.IGNORECASE,
)
_FIELD_CUE = re.compile(
    r"\b(?:MRN|DOB|D\.O\.B\.|SSN|acct|account|phone|tel|fax|cell|pager|email|e-mail|address|addr|zip|"
    r"date of birth|admitted|discharged|encounter|visit|record|ID|NPI|insurance|policy|member)\b[ \t#.]*[:#][ \t]*",
    re.IGNORECASE,
)
_CREDENTIAL_AFTER = re.compile(r"\A,?[ \t]*(?:MD|M\.D\.|DO|RN|NP|PA-C|PA|PhD|LCSW|DPT|PharmD|CNM|MBBS|FACS|DDS)\b")
_FACILITY_WORDS = frozenset(
    "hospital hospice center centre clinic medical health institute pediatrics practice rehab rehabilitation "
    "nursing care associates university infirmary pharmacy surgery surgical specialists".split()
)
_PLACE_CUE = re.compile(r"\b(?:in|at|from|near|to|of|moved to|lives in)[ \t]+(?=[A-Z][a-z])")
_STATE_AFTER_COMMA = re.compile(r",[ \t]*(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY])\b(?:[ \t]+\d{5})?")
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|\d+")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n]\s*|\n\s*[-*•]\s*)$")

FEATURE_NAMES: tuple[str, ...] = (
    "log_length",
    "n_spans",
    "spans_per_kchar",
    "covered_fraction",
    "n_categories",
    *(f"regex_{k}" for k in _REGEXES),
    *(f"rule_{c.value.lower()}" for c in _RULE_CATEGORIES),
    "rule_partial",
    "cap_unknown",
    "cap_unknown_share",
    "cap_unknown_midsentence",
    "name_tokens",
    "strong_name_tokens",
    "name_pair",
    "adjacent_cap",
    "title_cue",
    "relation_cue",
    "header_cue",
    "field_cue",
    "place_cue",
    "facility_word",
    "state_after_comma",
    "cap_next_to_span",
    "credential_cue",
    "gaz_person",
    "gaz_place",
    "gaz_hospital",
    "mid_word_boundary",
    "uncovered_digits",
    "uncovered_caps_lines",
)


@dataclass(frozen=True, slots=True)
class _Token:
    start: int
    end: int
    capitalized: bool
    unknown: bool  # capitalised and not an ordinary word
    name: bool
    strong_name: bool
    sentence_start: bool


@dataclass(frozen=True)
class NoteAnalysis:
    """Everything about a note that does not depend on the candidate."""

    text: str
    tokens: tuple[_Token, ...]
    regex_hits: dict[str, tuple[tuple[int, int], ...]]
    rule_hits: dict[Category, tuple[tuple[int, int], ...]]
    cue_ends: dict[str, tuple[int, ...]]
    gazetteer: dict[str, tuple[tuple[int, int], ...]]
    facility_words: tuple[tuple[int, int], ...]
    states_after_comma: tuple[tuple[int, int], ...]


@lru_cache(maxsize=1)
def _fixed_format_rules():
    from deid_core.recognizers.pipeline import DetectConfig, build_default_pipeline

    return build_default_pipeline(DetectConfig(recognizers=FIXED_FORMAT, propagate=False))


@lru_cache(maxsize=1)
def _resources():
    from deid_core.recognizers.gazetteer import default_resources

    return default_resources()


def analyze_note(text: str) -> NoteAnalysis:
    res = _resources()
    lex = res.lexicon
    tokens: list[_Token] = []
    for m in _TOKEN.finditer(text):
        word = m.group()
        cap = word[:1].isupper()
        bare = word.rstrip("'’-")
        common = lex.is_common_word(bare) if cap else True
        name = cap and lex.is_name(bare)
        start_of_sentence = bool(_SENTENCE_START.search(text[max(0, m.start() - 4) : m.start()])) or m.start() == 0
        # Short all-caps words are mostly clinical acronyms (HTN, COPD), not names.
        unknown = cap and not common and (not word.isupper() or len(word) > 4)
        tokens.append(_Token(m.start(), m.end(), cap, unknown, name, name and lex.is_strong_name(bare), start_of_sentence))
    regex_hits = {k: tuple((m.start(), m.end()) for m in r.finditer(text)) for k, r in _REGEXES.items()}
    facility = tuple(
        (t.start, t.end) for t in tokens if t.capitalized and text[t.start : t.end].lower() in _FACILITY_WORDS
    )
    rule_hits: dict[Category, list[tuple[int, int]]] = {c: [] for c in _RULE_CATEGORIES}
    for s in _fixed_format_rules().analyze(text):
        if s.category in rule_hits:
            rule_hits[s.category].append((s.start, s.end))
    cues = {
        "title_cue": tuple(m.end() for m in _TITLE_CUE.finditer(text)),
        "relation_cue": tuple(m.end() for m in _RELATION_CUE.finditer(text)),
        "header_cue": tuple(m.end() for m in _HEADER_CUE.finditer(text)),
        "field_cue": tuple(m.end() for m in _FIELD_CUE.finditer(text)),
        "place_cue": tuple(m.end() for m in _PLACE_CUE.finditer(text)),
    }
    states = tuple((m.start() + 1, m.end()) for m in _STATE_AFTER_COMMA.finditer(text))
    gaz: dict[str, list[tuple[int, int]]] = {"person": [], "place": [], "hospital": []}
    for hit in res.scan(text):
        surface = text[hit.start : hit.end]
        if not surface[:1].isupper():
            continue
        if hit.kinds & {"first", "last"}:
            if not lex.is_common_word(surface):
                gaz["person"].append((hit.start, hit.end))
        elif hit.kinds & {"city", "county", "state", "country"}:
            gaz["place"].append((hit.start, hit.end))
        elif any(k == "hospital" or k.startswith("site:") for k in hit.kinds):
            gaz["hospital"].append((hit.start, hit.end))
    return NoteAnalysis(
        text,
        tuple(tokens),
        regex_hits,
        {c: tuple(v) for c, v in rule_hits.items()},
        cues,
        {k: tuple(v) for k, v in gaz.items()},
        facility,
        states,
    )


class _Coverage:
    """Fast "is this range covered / touched" over merged intervals."""

    def __init__(self, spans: Sequence[Span]) -> None:
        self.intervals = covered_intervals(spans)
        self.starts = [a for a, _ in self.intervals]

    def _at(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos) - 1

    def covered(self, start: int, end: int) -> bool:
        i = self._at(start)
        return i >= 0 and self.intervals[i][1] >= end

    def touched(self, start: int, end: int) -> bool:
        i = self._at(end - 1)
        return i >= 0 and self.intervals[i][1] > start

    def near(self, start: int, end: int, text: str) -> bool:
        """An interval ends just before ``start`` or starts just after ``end`` (a space or comma apart)."""
        i = self._at(start)
        if i >= 0 and 0 <= start - self.intervals[i][1] <= 2 and text[self.intervals[i][1] : start].strip(" ,") == "":
            return True
        j = self._at(end + 2)
        return j >= 0 and 0 <= self.intervals[j][0] - end <= 2 and text[end : self.intervals[j][0]].strip(" ") == ""


def _uncovered(cov: _Coverage, hits: Sequence[tuple[int, int]]) -> int:
    return sum(1 for a, b in hits if not cov.covered(a, b))


def _cue_followed_by_uncovered(analysis: NoteAnalysis, cov: _Coverage, ends: Sequence[int]) -> int:
    if not ends:
        return 0
    starts = [t.start for t in analysis.tokens]
    n = 0
    for e in ends:
        i = bisect.bisect_left(starts, e)
        if i < len(starts) and starts[i] - e <= 1:
            t = analysis.tokens[i]
            if t.capitalized and not cov.touched(t.start, t.end) and (t.unknown or t.name):
                n += 1
    return n


def candidate_features(analysis: NoteAnalysis, spans: Sequence[Span]) -> np.ndarray:
    text = analysis.text
    cov = _Coverage(spans)
    covered_chars = sum(b - a for a, b in cov.intervals)
    length = max(1, len(text))
    caps = [t for t in analysis.tokens if t.unknown]
    cap_unknown = [t for t in caps if not cov.touched(t.start, t.end)]
    names = [t for t in analysis.tokens if t.name and not cov.touched(t.start, t.end) and not t.sentence_start]
    toks = analysis.tokens
    pairs = sum(
        1
        for a, b in zip(toks, toks[1:])
        if a.capitalized and b.capitalized and (a.unknown or a.name) and (b.unknown or b.name)
        and text[a.end : b.start] in (" ", ", ", " ")
        and not cov.touched(a.start, b.end)
    )
    adjacent = sum(1 for t in cap_unknown if cov.near(t.start, t.end, text))
    credential = sum(1 for t in cap_unknown if _CREDENTIAL_AFTER.match(text[t.end : t.end + 12]))
    mid_word = 0
    for s in spans:
        if s.start > 0 and text[s.start - 1].isalnum() and text[s.start].isalnum():
            mid_word += 1
        if s.end < len(text) and text[s.end].isalnum() and text[s.end - 1].isalnum():
            mid_word += 1
    partial = sum(
        1 for hits in analysis.rule_hits.values() for a, b in hits if cov.touched(a, b) and not cov.covered(a, b)
    )
    digits = 0
    pos = 0
    for a, b in cov.intervals:
        digits += sum(ch.isdigit() for ch in text[pos:a])
        pos = b
    digits += sum(ch.isdigit() for ch in text[pos:])
    lines_with_caps = len({text.count("\n", 0, t.start) for t in cap_unknown})
    values = [
        math.log1p(len(text)),
        len(spans),
        1000.0 * len(spans) / length,
        covered_chars / length,
        len({s.category for s in spans}),
        *(_uncovered(cov, analysis.regex_hits[k]) for k in _REGEXES),
        *(_uncovered(cov, analysis.rule_hits[c]) for c in _RULE_CATEGORIES),
        partial,
        len(cap_unknown),
        len(cap_unknown) / max(1, len(caps)),
        sum(1 for t in cap_unknown if not t.sentence_start),
        len(names),
        sum(1 for t in names if t.strong_name),
        pairs,
        adjacent,
        _cue_followed_by_uncovered(analysis, cov, analysis.cue_ends["title_cue"]),
        _cue_followed_by_uncovered(analysis, cov, analysis.cue_ends["relation_cue"]),
        _cue_followed_by_uncovered(analysis, cov, analysis.cue_ends["header_cue"]),
        sum(1 for e in analysis.cue_ends["field_cue"] if e < len(text) and not text[e].isspace() and not cov.touched(e, e + 1)),
        _cue_followed_by_uncovered(analysis, cov, analysis.cue_ends["place_cue"]),
        _uncovered(cov, analysis.facility_words),
        _uncovered(cov, analysis.states_after_comma),
        sum(1 for t in toks if t.capitalized and not t.sentence_start and not cov.touched(t.start, t.end) and cov.near(t.start, t.end, text)),
        credential,
        _uncovered(cov, analysis.gazetteer["person"]),
        _uncovered(cov, analysis.gazetteer["place"]),
        _uncovered(cov, analysis.gazetteer["hospital"]),
        mid_word,
        math.log1p(digits),
        lines_with_caps,
    ]
    return np.asarray(values, dtype=np.float64)


def features(text: str, spans: Sequence[Span]) -> np.ndarray:
    return candidate_features(analyze_note(text), spans)
