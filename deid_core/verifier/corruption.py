"""Candidate annotations for training a verifier, made by corrupting gold.

Paper 001 trains its verifier on gold annotations corrupted four ways:
entities dropped, spans truncated, whole categories deleted, and spurious
entities added.  Spurious additions alone leave an annotation complete (a
false alarm hides nothing), so they also give the verifier complete
candidates that do not look exactly like gold.  Every candidate carries its
label from :func:`~deid_core.verifier.base.is_incomplete`, computed on the
result, never assumed from the kind of corruption: a truncation that only
trims whitespace, say, stays complete.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from deid_core.spans import SCORED_CATEGORIES, Span
from deid_core.verifier.base import is_incomplete

KINDS: tuple[str, ...] = ("gold", "spurious", "drop", "truncate", "delete_category", "drop_and_spurious")

_WORD = re.compile(r"[^\W_][\w'’.-]*")


@dataclass(frozen=True, slots=True)
class Candidate:
    """One annotation of one note, with the verifier's target."""

    note_id: str
    text: str
    spans: tuple[Span, ...]
    incomplete: bool
    kind: str


def _drop(spans: list[Span], rng: random.Random) -> list[Span]:
    k = min(len(spans), rng.choice((1, 1, 1, 2, 3)))
    gone = set(rng.sample(range(len(spans)), k))
    return [s for i, s in enumerate(spans) if i not in gone]


def _truncate(spans: list[Span], rng: random.Random) -> list[Span]:
    out = list(spans)
    for i in rng.sample(range(len(out)), min(len(out), rng.choice((1, 1, 2)))):
        s = out[i]
        if s.length < 2:
            continue
        cut = rng.randint(1, s.length - 1)
        if rng.random() < 0.5:
            out[i] = Span(s.start, s.end - cut, s.category, s.score, s.source)
        else:
            out[i] = Span(s.start + cut, s.end, s.category, s.score, s.source)
    return out


def _truncate_at_word(text: str, spans: list[Span], rng: random.Random) -> list[Span] | None:
    multi = [i for i, s in enumerate(spans) if " " in text[s.start : s.end].strip()]
    if not multi:
        return None
    i = rng.choice(multi)
    s = spans[i]
    inner = text[s.start : s.end]
    cuts = [m.start() for m in re.finditer(r"\s+", inner) if 0 < m.start()]
    if not cuts:
        return None
    cut = rng.choice(cuts)
    out = list(spans)
    if rng.random() < 0.6:
        out[i] = Span(s.start, s.start + cut, s.category, s.score, s.source)
    else:
        rest = inner[cut:]
        offset = cut + (len(rest) - len(rest.lstrip()))
        if s.start + offset >= s.end:
            return None
        out[i] = Span(s.start + offset, s.end, s.category, s.score, s.source)
    return out


def _delete_category(spans: list[Span], rng: random.Random) -> list[Span]:
    present = sorted({s.category for s in spans}, key=lambda c: c.value)
    gone = rng.choice(present)
    return [s for s in spans if s.category is not gone]


def _spurious(text: str, spans: list[Span], rng: random.Random) -> list[Span]:
    taken = [(s.start, s.end) for s in spans]
    words = [m for m in _WORD.finditer(text) if not any(a < m.end() and m.start() < b for a, b in taken)]
    if not words:
        return list(spans)
    extra = [
        Span(m.start(), m.end(), rng.choice(SCORED_CATEGORIES), 1.0, "spurious")
        for m in rng.sample(words, min(len(words), rng.choice((1, 2, 3))))
    ]
    return sorted([*spans, *extra], key=lambda s: (s.start, s.end))


def corrupt(note_id: str, text: str, gold: Sequence[Span], rng: random.Random, kind: str) -> Candidate:
    """One candidate of ``kind`` (see :data:`KINDS`) from the gold spans of a note."""
    spans = sorted(gold, key=lambda s: (s.start, s.end))
    if kind not in KINDS:
        raise ValueError(f"unknown corruption {kind!r} (known: {', '.join(KINDS)})")
    if spans:
        if kind == "spurious":
            spans = _spurious(text, spans, rng)
        elif kind == "drop":
            spans = _drop(spans, rng)
        elif kind == "truncate":
            # Half the truncations stop at a word gap: recognizers that stop
            # early usually lose a whole surname or the year of a date.
            spans = (rng.random() < 0.5 and _truncate_at_word(text, spans, rng)) or _truncate(spans, rng)
        elif kind == "delete_category":
            spans = _delete_category(spans, rng)
        elif kind == "drop_and_spurious":
            spans = _spurious(text, _drop(spans, rng), rng)
    elif kind != "gold":
        spans = _spurious(text, spans, rng)
    return Candidate(note_id, text, tuple(spans), is_incomplete(gold, spans), kind)


def corrupted_candidates(
    notes: Sequence[tuple[str, str, Sequence[Span]]], seed: int, kinds: Sequence[str] = KINDS
) -> list[Candidate]:
    """Every kind of candidate for every ``(id, text, gold)`` note, seeded."""
    rng = random.Random(seed)
    return [corrupt(note_id, text, gold, rng, kind) for note_id, text, gold in notes for kind in kinds]
