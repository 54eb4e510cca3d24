"""Locating every string the model returned at every place it occurs in the note.

A generative model returns strings, not offsets, so offsets are recovered by
search.  The search forgives what a model changes without meaning to
(letter case, a line break written as a space) and nothing else: a string
that is not in the note is dropped and counted, never guessed at, because a
hallucinated identifier has no span to mask.  A match must start and end at
a word edge, so ``Ann`` is not found inside ``Annual``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from deid_core.recognizers.base import LabelMap
from deid_core.recognizers.generative.schema import Entity, category_of
from deid_core.spans import Category, Evidence, Span

#: A string needs this many letters or digits to be searched for; one
#: character would match all over a note.
MIN_ALNUM = 2
_WORD_START = r"(?<!\w)"
_WORD_END = r"(?!\w)"


@dataclass
class Grounding:
    """Spans found for a set of entities, with the counts the report needs."""

    spans: list[Span] = field(default_factory=list)
    strings: int = 0
    grounded: int = 0
    ungrounded: int = 0
    extended: int = 0  # cut-off strings completed to the end of their word


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def string_pattern(value: str, *, prefix: bool = False) -> re.Pattern[str] | None:
    """A case-insensitive, whitespace-tolerant pattern for ``value`` at word edges.

    With ``prefix`` the value may be cut short: the match runs on to the end
    of the word it stops in.
    """
    core = value.strip()
    if sum(ch.isalnum() for ch in core) < MIN_ALNUM:
        return None
    body = r"\s+".join(re.escape(piece) for piece in core.split())
    start = _WORD_START if _is_word_char(core[0]) else ""
    if prefix and _is_word_char(core[-1]):
        end = r"\w*"
    else:
        end = _WORD_END if _is_word_char(core[-1]) else ""
    return re.compile(start + body + end, re.IGNORECASE)


def ground(text: str, entities: Iterable[Entity], label_map: LabelMap, source: str, score: float = 0.9) -> Grounding:
    """Spans at every occurrence of every entity string (variants included).

    The same string returned twice (by two chunks, or as text and variant) is
    searched once and counted once.
    """
    out = Grounding()
    done: set[tuple[Category, str, bool]] = set()
    for entity in entities:
        category = category_of(entity, label_map)
        strings = entity.strings()
        for i, value in enumerate(strings):
            cut = entity.truncated and i == len(strings) - 1
            key = (category, " ".join(value.lower().split()), cut)
            if key in done:
                continue
            done.add(key)
            out.strings += 1
            pattern = string_pattern(value, prefix=cut)
            found = [] if pattern is None else [m.span() for m in pattern.finditer(text)]
            found = [(a, b) for a, b in found if b > a]
            if not found:
                out.ungrounded += 1
                continue
            out.grounded += 1
            if cut:
                out.extended += 1
            out.spans.extend(Span(a, b, category, score, source, Evidence.MODEL) for a, b in found)
    return out
