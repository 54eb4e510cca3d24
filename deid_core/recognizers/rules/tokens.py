"""Word tokens of a note and where letter case says nothing.

The names unit reads the note as word tokens; it and the facility unit (and
name propagation) need to know when a capital is no evidence: on a line
typed in capitals, or in a note typed all in lower case. ``CaseBlind`` asks
the same of one word where a unit reads words, not tokens (place_cue,
organization).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from deid_core.recognizers.case import note_is_lower

# "s/o" (significant other) and "w/f" (wife) are one word: relations written with a slash, before the name as any
# relation is; a word starts after no letter or digit ("4TH" holds none, not a "H"), nor after a number and a hyphen
# ("4-WHEELER" is a compound)
_WORD = re.compile(r"(?<![\w/])(?:[sS]/[oO]|[wW]/[fF])(?![\w/])|(?<![^\W_])(?<!\d-)[^\W\d_](?:[^\W\d_]|['’](?=[^\W\d_])|-(?=[^\W\d_]))*")
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)


@dataclass
class Token:
    start: int
    end: int  # excludes a possessive 's
    text: str
    line_caps: bool
    #: in a note typed all in lower case: letter case says nothing of names there either
    note_lower: bool = False
    #: a lone lowercase letter with a full stop after it, in such a note ("barbara j. parrilli")
    dotted: bool = False

    @property
    def caseless(self) -> bool:
        """Is this word where capitals carry no evidence (an all-caps line, an all-lowercase note)?"""
        return self.line_caps or self.note_lower

    @property
    def lower(self) -> str:
        return self.text.lower()

    @property
    def shape(self) -> str:
        t = self.text
        if len(t) == 1:
            return "initial" if t.isupper() or self.dotted else "lower"
        if t.isupper():
            return "upper"
        if t.islower():
            return "lower"
        return "title" if t[0].isupper() else "mixed"

    @property
    def capitalised(self) -> bool:
        return self.shape in ("title", "upper", "initial")


def tokenize(text: str) -> list[Token]:
    lines = caps_lines(text)
    lower = note_is_lower(text)
    out: list[Token] = []
    for m in _WORD.finditer(text):
        word = m.group(0)
        end = m.end()
        poss = _POSSESSIVE.search(word)
        if poss and len(word) > 3:
            word = word[: poss.start()]
            end = m.start() + len(word)
        dotted = lower and len(word) == 1 and text[end : end + 1] == "."
        out.append(Token(m.start(), end, word, line_is_caps(lines, m.start()), lower, dotted))
    return out


def caps_lines(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, typed in capitals) for each line of ``text``."""
    out = []
    pos = 0
    for line in text.split("\n"):
        letters = [c for c in line if c.isalpha()]
        upper = sum(1 for c in letters if c.isupper())
        out.append((pos, pos + len(line), len(letters) >= 8 and upper >= 0.8 * len(letters)))
        pos += len(line) + 1
    return out


def caps_line_at(text: str, pos: int) -> bool:
    """Is ``pos`` on a line written in capitals, where a capital says nothing?"""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return caps_lines(text[start : end if end >= 0 else len(text)])[0][2]


def line_is_caps(lines: list[tuple[int, int, bool]], pos: int) -> bool:
    """Is ``pos`` on a line that :func:`caps_lines` marked as typed in capitals?"""
    lo, hi = 0, len(lines) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        a, b, caps = lines[mid]
        if pos < a:
            hi = mid - 1
        elif pos > b:
            lo = mid + 1
        else:
            return caps
    return False


class CaseBlind:
    """Where letter case says nothing in one note: a word in lower case in a note typed so, or a word in capitals on a
    line typed so. The note's capitals and its lines are read once, and only when first asked."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lower_note: bool | None = None
        self._lines: list[tuple[int, int, bool]] | None = None

    def at(self, word: str, pos: int) -> bool:
        """Does the case of ``word``, written at ``pos``, say nothing of what it is?"""
        if word.islower():
            if self._lower_note is None:
                self._lower_note = note_is_lower(self.text)
            return self._lower_note
        if word.isupper():
            if self._lines is None:
                self._lines = caps_lines(self.text)
            return line_is_caps(self._lines, pos)
        return False
