"""Span resolution: many recognizers' overlapping spans become one clean set.

:func:`resolve` sorts the spans once and sweeps them, so it runs in
O(n log n).  The sweep groups spans into *clusters*: maximal runs in which
every span overlaps the cluster built so far (transitively).  Each cluster
becomes exactly one output span covering the union of its members, so no
character that any recognizer flagged is left out of the result:

* One category in the cluster: the spans unite (highest score kept, every
  recognizer's name kept in ``source``, joined with ``+``).
* Several categories: one category wins the whole union, and the union
  takes the strongest replacement among them.  A *kept* category
  (:data:`KEPT_CATEGORIES`: AGE, whose ages of 89 or less stay as written)
  never wins a cluster that holds another category, since its strategy
  would pass the other spans' text through.

  1. If some spans cover the whole cluster by themselves, the winner is
     among them, the highest-scoring first.  The broader reading is the one
     to keep: a hospital named after a person (``St. Mary's Hospital``), a
     city inside an address, a name inside an email address.  Score never
     overrides precedence between a person and a LOCATION, whose strategy
     keeps a state or country as written: when a PATIENT or DOCTOR span
     covers the cluster, a covering LOCATION span does not win it by score
     (``Georgia`` read as a state and as a patient's name stays a name).  A
     facility still may: its strategy replaces every naming word.  Only
     where the name lists alone took the words for a person (a guess) and
     a cue or a pattern found them as a place (``PCP IN GORHAM``, ``59m
     from ellsworth``) does the place win.
  2. Otherwise, if the spans of some categories together cover the cluster
     without a gap (a street and a ``City, ST ZIP`` that overlap it), the
     winner is among those categories.
  3. Ties, and clusters where neither holds, go to the category earliest in
     :data:`deid_core.spans.PRECEDENCE`:
     WEB, ID, PHONE, DATE, AGE, PATIENT, DOCTOR, HOSPITAL, LOCATION, OTHER.
     Structured categories come first because their replacement strategies
     (format-preserving encryption, date shift) are exact and fail closed on
     text they cannot parse; PATIENT before DOCTOR because a patient's name
     is the more sensitive one; OTHER last because it is unscored.

The output score is the best score of the winning category's members; the
source lists every member's recognizer, losers included, for audit.
Touching spans (one ends where the next starts) do not overlap and stay
separate; :func:`merge_adjacent` joins the address pieces that should not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from deid_core.spans import EVIDENCE_ORDER, PRECEDENCE, Category, Evidence, Span

__all__ = ["KEPT_CATEGORIES", "resolve", "merge_adjacent", "join_name_parts", "join_sources"]

#: Categories whose strategy may leave a value as written (ages of 89 or less).
KEPT_CATEGORIES: frozenset[Category] = frozenset({Category.AGE})
_PEOPLE = frozenset({Category.PATIENT, Category.DOCTOR})
#: Places whose strategy keeps a state or country as written: a score never lets them outrank a name.
_PLACES = frozenset({Category.LOCATION})


def join_sources(spans: Iterable[Span]) -> str:
    """Recognizer names of ``spans``, each once, in order of first appearance."""
    seen: dict[str, None] = {}
    for s in spans:
        for part in s.source.split("+"):
            if part:
                seen.setdefault(part, None)
    return "+".join(seen)


def _covers(members: list[Span], category: Category, start: int, end: int) -> bool:
    """Do the spans of ``category`` together cover ``[start, end)`` without a gap?"""
    reach = start
    for s in sorted((m for m in members if m.category is category), key=lambda m: m.start):
        if s.start > reach:
            return False
        reach = max(reach, s.end)
    return reach >= end


def _resolve_cluster(members: list[Span], start: int, end: int, rank: dict[Category, int]) -> Span:
    categories = {s.category for s in members}
    if len(categories) == 1:
        winner = members[0].category
    else:
        contenders = [s for s in members if s.category not in KEPT_CATEGORIES]
        covering = [s for s in contenders if s.start == start and s.end == end]
        covering_categories = {s.category for s in covering}
        if covering_categories & _PEOPLE and covering_categories & _PLACES:
            people = [s for s in covering if s.category in _PEOPLE]
            if all(s.evidence is Evidence.GUESS for s in people) and any(s.evidence is not Evidence.GUESS for s in covering if s.category in _PLACES):
                covering = [s for s in covering if s.category not in _PEOPLE]  # "F/U W/ PCP IN GORHAM": a cue beats a list
            else:
                covering = [s for s in covering if s.category not in _PLACES]
        if covering:
            best = max(s.score for s in covering)
            pool = {s.category for s in covering if s.score == best}
        else:
            candidates = {s.category for s in contenders}
            pool = {c for c in candidates if _covers(contenders, c, start, end)} or candidates
        winner = min(pool, key=lambda c: rank.get(c, len(rank)))
    score = max(s.score for s in members if s.category is winner)
    return Span(start, end, winner, score=score, source=join_sources(members), evidence=Evidence.united(members))


def resolve(spans: Iterable[Span], *, precedence: Sequence[Category] = PRECEDENCE) -> list[Span]:
    """Unite overlapping spans into non-overlapping ones, sorted by offset.

    See the module docstring for the rules.  ``precedence`` may reorder the
    categories; any category it leaves out ranks last.
    """
    rank = {c: i for i, c in enumerate(precedence)}
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    out: list[Span] = []
    members: list[Span] = []
    start = end = -1
    for span in ordered:
        if members and span.start < end:
            members.append(span)
            end = max(end, span.end)
            continue
        if members:
            out.append(_resolve_cluster(members, start, end, rank))
        members = [span]
        start, end = span.start, span.end
    if members:
        out.append(_resolve_cluster(members, start, end, rank))
    return out


_DEFAULT_GAP = re.compile(r"[ \t]*(?:,|\n)?[ \t]*\Z")


_LIST_GOES_ON = re.compile(r"[ \t]*(?:,|and\b|or\b|&)")


def _place_and_region(text: str, prev: Span, span: Span, between: str) -> bool:
    """``Dunga, Kisumu``, ``Krakow, Poland``: a place and the larger one it lies in, on one line.

    Only a pair: places with another after them ("Boston, Chicago, Denver") are a list.
    """
    return (
        between.strip(" \t") == ","
        and not any(ch in text[prev.start : prev.end] for ch in ",\n")
        and not _LIST_GOES_ON.match(text, span.end)
        and text[max(0, prev.start - 2) : prev.start].strip(" \t") != ","
    )


def _join_runs(spans: Iterable[Span], joined_category: Callable[[Span, Span], Category | None]) -> list[Span]:
    """Walk ``spans`` in order and unite each with the one before it wherever ``joined_category(prev, span)``
    names the category the united span takes (None: keep them apart)."""
    out: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        category = joined_category(out[-1], span) if out else None
        if category is None:
            out.append(span)
            continue
        prev = out[-1]
        out[-1] = Span(
            prev.start,
            max(prev.end, span.end),
            category,
            score=max(prev.score, span.score),
            source=join_sources((prev, span)),
            evidence=Evidence.united((prev, span)),
        )
    return out


def merge_adjacent(
    spans: Iterable[Span],
    text: str,
    *,
    categories: frozenset[Category] = frozenset({Category.LOCATION}),
    max_gap: int = 3,
    gap: re.Pattern[str] = _DEFAULT_GAP,
    require: re.Pattern[str] | None = re.compile(r"\d"),
) -> list[Span]:
    """Join same-category spans separated only by a short gap (``12 Elm St``, ``Salem, MA 01970``).

    The annotation convention makes a whole address one LOCATION span, and
    recognizers often find its pieces separately.  A join happens where the
    joined text matches ``require`` (by default: has a digit, so a street
    number or a ZIP makes it an address), and for a place and its region
    written with a comma on one line (``Salem, Oregon``), which the
    conventions also make one span.
    ``spans`` must not overlap (run :func:`resolve` first); the result is sorted.
    """

    def joined_category(prev: Span, span: Span) -> Category | None:
        between = text[prev.end : span.start]
        if (
            prev.category is span.category
            and span.category in categories
            and 0 <= len(between) <= max_gap
            and gap.match(between)
            and (
                require is None
                or require.search(text[prev.start : max(prev.end, span.end)])
                or _place_and_region(text, prev, span, between)
            )
        ):
            return span.category
        return None

    return _join_runs(spans, joined_category)


_PERSON = frozenset({Category.PATIENT, Category.DOCTOR})


def join_name_parts(spans: Iterable[Span], text: str) -> list[Span]:
    """Join two person spans one space apart (``TOMAS`` ``ECHEVERRIA``) into one name.

    Recognizers may find a given name and a surname apart, and may even type
    them differently; the annotation convention, and one surrogate per person,
    want the whole name.  The joined span takes the category of the part with
    the stronger evidence (the first on a tie).  ``spans`` must not overlap.
    """

    def joined_category(prev: Span, span: Span) -> Category | None:
        if prev.category in _PERSON and span.category in _PERSON and text[prev.end : span.start] == " ":
            return min((prev, span), key=lambda s: EVIDENCE_ORDER.index(s.evidence)).category
        return None

    return _join_runs(spans, joined_category)
