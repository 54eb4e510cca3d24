"""Unicode NFC for detection and the leak report, with offsets back to the text as written.

"Müller" can be written with one code point for the ü or with a "u" and a
combining diaeresis.  Rules, gazetteers and models know the first form, so
a note is normalized to NFC before detection and the spans found are
mapped back to the original: a span never cuts a character from its
accents, it widens to whole clusters (a base character and its combining
marks) instead.  The leak report searches normalized text the same way, so
an identifier left in the output in the other form is still found.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from deid_core.spans import Span

N = TypeVar("N")
E = TypeVar("E")

#: Hangul vowel and trailing consonant jamo compose with the syllable before them although they are starters.
_JOINING_STARTERS = range(0x1160, 0x1200)


@dataclass(frozen=True)
class Normalized:
    """``text`` is the NFC of ``original``; ``to_original`` maps a span of ``text`` back."""

    original: str
    text: str
    starts: tuple[int, ...] | None = None  # per character of text: where its cluster starts in original
    ends: tuple[int, ...] | None = None  # per character of text: where its cluster ends in original

    @property
    def changed(self) -> bool:
        return self.starts is not None

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """The original offsets of ``text[start:end]``, widened to whole clusters."""
        if self.starts is None or self.ends is None:
            return start, end
        if start >= end:
            at = self.starts[start] if start < len(self.starts) else len(self.original)
            return at, at
        return self.starts[start], self.ends[end - 1]


def _clusters(text: str) -> list[tuple[int, int]]:
    bounds = [0]
    for i in range(1, len(text)):
        ch = text[i]
        if unicodedata.combining(ch) == 0 and ord(ch) not in _JOINING_STARTERS:
            bounds.append(i)
    bounds.append(len(text))
    return list(zip(bounds, bounds[1:]))


def nfc(text: str) -> Normalized:
    """``text`` in NFC with its offset map; the identity, without a map, when it already is NFC."""
    if unicodedata.is_normalized("NFC", text):
        return Normalized(text, text)
    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for a, b in _clusters(text):
        piece = unicodedata.normalize("NFC", text[a:b])
        pieces.append(piece)
        starts.extend([a] * len(piece))
        ends.extend([b] * len(piece))
    joined = "".join(pieces)
    if joined != unicodedata.normalize("NFC", text):
        # a composition across clusters this split does not know: one cluster, so every span covers the whole note
        whole = unicodedata.normalize("NFC", text)
        return Normalized(text, whole, (0,) * len(whole), (len(text),) * len(whole))
    return Normalized(text, joined, tuple(starts), tuple(ends))


def to_original_spans(spans: Sequence[Span], form: Normalized) -> list[Span]:
    """``spans`` found in ``form.text``, in the offsets of ``form.original``."""
    if not form.changed:
        return list(spans)
    return [replace(s, start=a, end=b) for s in spans for a, b in [form.to_original(s.start, s.end)]]


def nfc_notes(notes: Sequence[N]) -> list[N]:
    """``notes`` with each ``text`` in NFC (offsets then refer to that form)."""
    return [replace(n, text=nfc(n.text).text) for n in notes]  # type: ignore[type-var]


def detect_on_nfc(notes: Sequence[N], detect: Callable[[list[N]], Sequence[list[Span] | E]]) -> list[list[Span] | E]:
    """Run ``detect`` on the NFC form of each note's ``text``; spans come back in the original's offsets.

    ``notes`` are dataclasses with a ``text`` field; a result that is not a
    list of spans (a note's error) passes through as it is.
    """
    forms = [nfc(n.text) for n in notes]
    found = detect([replace(n, text=f.text) if f.changed else n for n, f in zip(notes, forms)])  # type: ignore[type-var]
    return [r if not isinstance(r, list) else to_original_spans(r, f) for r, f in zip(found, forms)]
