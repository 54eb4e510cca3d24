"""Completing a place or a facility whose name a recognizer found only in part.

A rule or the model often finds one piece of a longer name: ``JOAQUIN RIVER``
of ``SAN JOAQUIN RIVER``, ``BRYAN`` of ``BRYAN HEART``, ``dodge`` of ``dodge
city``.  The disclosure protocol counts a half-covered name as missed, and the
anonymizer would leave the rest beside a surrogate.  After resolution, a place
or a facility takes in the words right beside it that only begin or end such a
name; the lists are ``deid_core/data/rules/completion/`` and the shared facility words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from deid_core.recognizers.lexicon import Lexicon, rule_list, us_cities, us_counties, us_postal_towns
from deid_core.recognizers.rules.common_words import CLINICAL_ACRONYMS, FACILITY_TAILS, PLACE_TAILS
from deid_core.spans import Category, Evidence, Span

#: the tails that make a facility even of a name no cue stood beside ("kinney drugs"); a cued name keeps its type
PERSON_FACILITY_TAILS = rule_list("completion", "person_facility_tails")
#: a word that begins a place's name ("SAN JOAQUIN RIVER", "fort kent")
PLACE_LEADS = rule_list("completion", "place_leads")
#: a word that ends a place's name, beside the shared place tails ("dodge city", "SIERRA VIEW")
PLACE_END_WORDS = PLACE_TAILS | rule_list("completion", "place_tails")

_PLACES = frozenset({Category.LOCATION, Category.HOSPITAL})
_PEOPLE = frozenset({Category.PATIENT, Category.DOCTOR})
#: how a person span was found when nothing beside it said it is a person: a list, a place list, the model
_UNCUED = frozenset({Evidence.GUESS, Evidence.RULE, Evidence.MODEL})
_WORD_AFTER = re.compile(r"[ \t]([A-Za-z][\w'’.-]*[\w'’])")
_WORD_BEFORE = re.compile(r"(?<![\w'’.-])([A-Za-z][\w.'’-]*)[ \t]$")
_NEXT_WORD = re.compile(r"[ \t]+([A-Za-z]+)")
#: what a town's rescue service or its hospital written short is called after its name ("PENNS VALLEY EMS", "twin rivers reg")
SERVICE_TAILS = rule_list("completion", "service_tails")
#: street words that make a road of a congregation's name before them ("SHADY GROVE CHURCH RD")
ROAD_TAILS = rule_list("completion", "road_tails")
#: nouns that a facility word heads in clinical prose: "heart failure", "care plan", "medicine team"
_TAIL_HEADS = rule_list("completion", "tail_heads")


def _same_case(word: str, model: str) -> bool:
    """A neighbour written in the case of the name it joins: both capitals, both lower case, or both capitalised."""
    letters = model.replace("'", "")
    if letters.isupper():
        return word.isupper()
    if letters.islower():
        return word.islower()
    return word[:1].isupper() and not word.isupper()


def _tail_heads_a_phrase(text: str, end: int, lexicon: Lexicon) -> bool:
    """The tail begins a clinical phrase rather than ending a name: "dover heart failure", "boston medicine team"."""
    m = _NEXT_WORD.match(text, end)
    if not m:
        return False
    word = m.group(1).lower()
    return word not in FACILITY_TAILS and (word in _TAIL_HEADS or lexicon.is_clinical(word))


def _makes_facility_of_a_name(text: str, m: re.Match[str], lexicon: Lexicon) -> bool:
    """A facility word after a name no cue found: a pharmacy's or a community's ("kinney drugs"), or any facility word
    with another after it ("greenwood heart clinic", "tate memorial hospital")."""
    low = m.group(1).lower()
    if low in PERSON_FACILITY_TAILS:
        return not _tail_heads_a_phrase(text, m.end(1), lexicon)
    after = _NEXT_WORD.match(text, m.end(1))
    return low in FACILITY_TAILS and bool(after) and after.group(1).lower() in FACILITY_TAILS


def _is_town(word: str, lexicon: Lexicon) -> bool:
    """A listed city that English does not write often, or a listed town or county that is no ordinary word."""
    if word.upper() in CLINICAL_ACRONYMS or lexicon.is_clinical(word):
        return False
    if word in us_cities():
        return not lexicon.is_everyday(word)  # "SOVAH DANVILLE": a city's name that is also a surname
    return (word in us_postal_towns() or f"{word} county" in us_counties()) and not lexicon.is_common_word(word)


def _grown(span: Span, text: str, lexicon: Lexicon, taken: Sequence[tuple[int, int]]) -> Span:
    def free(start: int, end: int) -> bool:
        return not any(s < end and start < e for s, e in taken)

    for _ in range(2):  # "BUFFALO CREEK" + "HOLLOW"; a name takes in two words after it at most, and one before
        m = _WORD_AFTER.match(text, span.end)
        if not m or not free(m.start(1), m.end(1)):
            break
        word, last = m.group(1), text[span.start : span.end].split()[-1]
        low = word.lower()
        if not _same_case(word, last):
            break
        if span.category is Category.OTHER:
            if low in ROAD_TAILS:
                span = replace(span, end=m.end(1), category=Category.LOCATION, source=f"{span.source}+completion/road_tail")
            break
        tail = low in FACILITY_TAILS or low in SERVICE_TAILS
        place_facility = span.category in _PLACES and tail and not _tail_heads_a_phrase(text, m.end(1), lexicon)
        if place_facility or (span.category in _PEOPLE and span.evidence in _UNCUED and _makes_facility_of_a_name(text, m, lexicon)):
            span = replace(span, end=m.end(1), category=Category.HOSPITAL, source=f"{span.source}+completion/facility_tail")
        elif span.category in _PLACES and low in PLACE_END_WORDS:
            span = replace(span, end=m.end(1), source=f"{span.source}+completion/place_tail")
        elif span.category is Category.HOSPITAL and _is_town(low, lexicon):
            # "LVH SCHUYLKILL", "davita sunbury": a hospital group's or a chain's site is named by its town
            span = replace(span, end=m.end(1), source=f"{span.source}+completion/site_town")
        else:
            break
    if span.category is Category.LOCATION:
        m = _WORD_BEFORE.search(text, max(0, span.start - 12), span.start)
        if m and m.group(1).lower() in PLACE_LEADS and free(m.start(1), m.end(1)) and _same_case(m.group(1), text[span.start : span.end].split()[0]):
            span = replace(span, start=m.start(1), source=f"{span.source}+completion/place_lead")
    return span


def _guessed_sites(text: str, spans: Sequence[Span], lexicon: Lexicon) -> list[Span]:
    """``FRESENIUS BLAKELY``: a town right after a facility is its site, even where the name lists alone took the
    town for a person (a guess, which nothing beside it supports)."""
    out: list[Span] = []
    for span in spans:
        prev = out[-1] if out else None
        word = text[span.start : span.end]
        if (
            prev is not None
            and prev.category is Category.HOSPITAL
            and span.category in _PEOPLE
            and span.evidence is Evidence.GUESS
            and text[prev.end : span.start] == " "
            and " " not in word
            and _same_case(word, text[prev.start : prev.end].split()[-1])
            and _is_town(word.lower(), lexicon)
        ):
            out[-1] = replace(prev, end=span.end, source=f"{prev.source}+completion/site_town")
            continue
        out.append(span)
    return out


def complete_names(text: str, spans: Sequence[Span], lexicon: Lexicon) -> list[Span]:
    """Each place and facility in ``spans`` (resolved, sorted) with the words that finish its name taken in."""
    spans = _guessed_sites(text, spans, lexicon)
    taken = [(s.start, s.end) for s in spans]
    out = []
    for i, span in enumerate(spans):
        if span.category in _PLACES or span.category in _PEOPLE or span.category is Category.OTHER:
            others = taken[:i] + taken[i + 1 :]
            span = _grown(span, text, lexicon, others)
        out.append(span)
    return out
