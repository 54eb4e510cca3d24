"""Piecewise note assembly that records gold offsets as values are inserted.

Offsets are never recovered by searching the finished text: a surrogate
value can occur twice, or inside an unrelated word, and a search would then
label the wrong occurrence.  Every piece is appended in order and its range is
known the moment it lands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Union

from deid_core.spans import Category, Span

GOLD_SOURCE = "gold"


class SynthError(ValueError):
    """A generated value that would break the annotation conventions."""


@dataclass(frozen=True, slots=True)
class Phi:
    """A value that becomes one gold span."""

    text: str
    category: Category


@dataclass(frozen=True, slots=True)
class Trap:
    """Clinical text that looks like PHI but must stay unlabelled."""

    text: str
    kind: str


Part = Union[str, Phi, Trap, Iterable["Part"]]


@dataclass(frozen=True, slots=True)
class TrapSpan:
    """Where a trap landed; kept so tests and evaluations can score false positives."""

    start: int
    end: int
    kind: str


def phi(text: str, category: Category) -> Phi:
    return Phi(text, category)


def trap(text: str, kind: str) -> Trap:
    return Trap(text, kind)


class NoteBuilder:
    """Accumulates text pieces; ``case`` rewrites each piece before it lands.

    Case is applied per piece (not to the finished note) because
    ``str.upper`` can change a string's length ("ß" -> "SS"), which would
    shift every later offset.
    """

    def __init__(self, case: Callable[[str], str] | None = None) -> None:
        self._chunks: list[str] = []
        self._length = 0
        self._spans: list[Span] = []
        self._traps: list[TrapSpan] = []
        self.case = case

    def add(self, *parts: Part) -> "NoteBuilder":
        for part in parts:
            self._add_one(part)
        return self

    def line(self, *parts: Part) -> "NoteBuilder":
        """Append the parts and a newline."""
        self.add(*parts)
        self._append("\n")
        return self

    def _add_one(self, part: Part) -> None:
        if isinstance(part, str):
            self._append(part)
        elif isinstance(part, Phi):
            text = self._cased(part.text)
            if not text or text != text.strip():
                raise SynthError(f"{part.category.value} value {text!r} is empty or has edge whitespace")
            start = self._append(text, cased=True)
            self._spans.append(Span(start, start + len(text), part.category, 1.0, GOLD_SOURCE))
        elif isinstance(part, Trap):
            start = self._append(part.text)
            self._traps.append(TrapSpan(start, self._length, part.kind))
        else:
            for sub in part:
                self._add_one(sub)

    def _cased(self, text: str) -> str:
        return self.case(text) if self.case else text

    def _append(self, text: str, *, cased: bool = False) -> int:
        if not cased:
            text = self._cased(text)
        start = self._length
        self._chunks.append(text)
        self._length += len(text)
        return start

    @property
    def length(self) -> int:
        return self._length

    def build(self) -> tuple[str, tuple[Span, ...], tuple[TrapSpan, ...]]:
        text = "".join(self._chunks)
        spans = tuple(self._spans)
        for before, after in zip(spans, spans[1:]):
            if after.start < before.end:
                raise SynthError(f"gold spans overlap: {before} and {after}")
        return text, spans, tuple(self._traps)
