"""The leak report: does a de-identified note still contain what was found in it?

Two scans over each output, both gold-free:

* **span text** -- the exact original text of every detected span, searched
  case-insensitively in the output.  A hit means the anonymizer left a copy
  of an identifier it had found (a second mention that detection missed, or
  a surrogate that reproduced it).
* **patterns** -- the fixed-format recognizers (dates, phone numbers, IDs,
  e-mail addresses and URLs) run over the output.

Both scans compare NFC text (:mod:`deid_core.normalization`), so a name
left in the output with a combining accent is found from its precomposed
span text, and the other way round; offsets are the output's as written.

Hits inside a region the anonymizer itself wrote are excluded: those are
the surrogates.  The rules for short and ordinary-word span texts (so the
name "Al" or "Will" does not flag every "al." or "will") are in
:func:`needle_rule`; ``docs/custody.md`` states them for users.

A leak records its kind, category, rule and output offsets only, never the
text it found, so the report itself can be stored and logged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from deid_core.normalization import nfc
from deid_core.spans import Category, Span

#: Span texts with fewer letters and digits than this are not searched for.
MIN_NEEDLE_CHARS = 3
#: Names are also searched for word by word (except ordinary words such as "Rose").
_NAME_CATEGORIES = frozenset({Category.PATIENT, Category.DOCTOR})


class Region(Protocol):
    """What the anonymizer replaced: original ``[start, end)`` became output ``[out_start, out_end)``."""

    start: int
    end: int
    out_start: int
    out_end: int


@dataclass(frozen=True, slots=True)
class Leak:
    kind: str  # "span-text" or "pattern"
    category: Category
    rule: str
    out_start: int
    out_end: int

    def describe(self) -> str:
        return f"{self.kind} {self.category.value} ({self.rule}) at output {self.out_start}-{self.out_end}"

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "category": self.category.value,
            "rule": self.rule,
            "out_start": self.out_start,
            "out_end": self.out_end,
        }


@lru_cache(maxsize=1)
def _lexicon():
    from deid_core.recognizers.lexicon import default_lexicon

    return default_lexicon()


@lru_cache(maxsize=1)
def _pattern_recognizers():
    from deid_core.recognizers.rules.dates import DateRecognizer
    from deid_core.recognizers.rules.ids import id_recognizer
    from deid_core.recognizers.rules.phones import phone_recognizer
    from deid_core.recognizers.rules.web import web_recognizer

    return (DateRecognizer(), phone_recognizer(), id_recognizer(), web_recognizer())


def needle_rule(needle: str) -> str | None:
    """How a span text is searched for: ``"nocase"``, ``"case"`` or ``None`` (not searched).

    * fewer than :data:`MIN_NEEDLE_CHARS` letters and digits: not searched
      ("Al", "Jo", "12" occur as ordinary abbreviations and numbers);
    * one word that is also an ordinary English word ("Will", "Hope",
      "May"): searched with its case as written, so the verb "will" is no hit;
    * anything else: case-insensitive.

    Patient and doctor names are searched whole and word by word, leaving
    out words that are ordinary English words.

    In every case a hit must stand alone: not preceded or followed by a
    letter or digit, so "Ann" is not found in "Annual", nor "1234" in "912345".
    """
    stripped = needle.strip()
    if sum(ch.isalnum() for ch in stripped) < MIN_NEEDLE_CHARS:
        return None
    if stripped.isalpha() and _lexicon().is_common_word(stripped):
        return "case"
    return "nocase"


def _needle_pattern(needle: str, rule: str) -> re.Pattern[str]:
    body = r"\s+".join(re.escape(part) for part in needle.strip().split())
    flags = re.IGNORECASE if rule == "nocase" else 0
    return re.compile(rf"(?<![^\W_]){body}(?![^\W_])", flags)


def _overlaps(start: int, end: int, covered: Sequence[tuple[int, int]]) -> bool:
    return any(start < b and a < end for a, b in covered)


def scan_output(
    original: str,
    spans: Sequence[Span],
    output: str,
    regions: Sequence[Region],
    patient_id: str | None = None,
) -> list[Leak]:
    """Every leak in ``output``, the anonymization of ``original`` with ``spans`` detected.

    ``regions`` are the anonymizer's replacements.  A region whose output is
    its original text (the anonymizer's sanctioned identities: ages under 90,
    coarse dates, retained regions) is not searched for: keeping it was the
    policy, not a leak.  The note's ``patient_id``, which the output record
    carries only as a pseudonym, is searched for as an ID, so a record
    number used as patient id cannot stay in the text undetected.
    """
    written = [(r.out_start, r.out_end) for r in regions]
    form = nfc(output)
    kept = [(r.start, r.end) for r in regions if output[r.out_start : r.out_end] == original[r.start : r.end]]
    leaks: list[Leak] = []
    seen: set[tuple[int, int]] = set()
    needles: dict[str, Category] = {}
    if patient_id and patient_id.strip():
        needles[nfc(patient_id).text.strip()] = Category.ID
    for s in spans:
        if any(a <= s.start and s.end <= b for a, b in kept):
            continue
        found = nfc(original[s.start : s.end]).text.strip()
        needles.setdefault(found, s.category)
        if s.category in _NAME_CATEGORIES:
            # "Okafor" alone is the usual second mention of "John Okafor"
            for token in re.findall(r"[^\W\d_]+(?:['’-][^\W\d_]+)*", found):
                if not _lexicon().is_common_word(token):
                    needles.setdefault(token, s.category)
    for needle, category in needles.items():
        rule = needle_rule(needle)
        if rule is None:
            continue
        for m in _needle_pattern(needle, rule).finditer(form.text):
            start, end = form.to_original(m.start(), m.end())
            if _overlaps(start, end, written) or (start, end) in seen:
                continue
            seen.add((start, end))
            leaks.append(Leak("span-text", category, rule, start, end))
    for hit in pattern_hits(form.text):
        start, end = form.to_original(hit.start, hit.end)
        if _overlaps(start, end, written) or any(_overlaps(start, end, [k]) for k in seen):
            continue
        seen.add((start, end))
        leaks.append(Leak("pattern", hit.category, hit.source, start, end))
    return sorted(leaks, key=lambda x: (x.out_start, x.out_end, x.kind))


def pattern_hits(text: str) -> Iterable[Span]:
    for recognizer in _pattern_recognizers():
        yield from recognizer.analyze(text)


def summarize(leaks: Sequence[Leak], limit: int = 5) -> str:
    """A short, text-free reason for a reviewer: how many, and the first few where."""
    if not leaks:
        return ""
    head = "; ".join(leak.describe() for leak in leaks[:limit])
    more = f"; and {len(leaks) - limit} more" if len(leaks) > limit else ""
    return f"leak report: {len(leaks)} hit(s): {head}{more}"
