"""What stands next to a match: the clause before it, the rest of its line, how many digits it has.

Several units judge a match by its neighbours (a date cue before ``3/4``, a
phone word before a bare number); these are the windows they look through.
"""

from __future__ import annotations

import re

#: a 24-hour clock time or a range of two, "1330", "1500-1700", "1400 - 1600"
CLOCK_TIME = r"(?:[01]\d|2[0-3])[0-5]\d(?:[ \t]*-[ \t]*(?:[01]\d|2[0-3])[0-5]\d)?"


def clause_before(text: str, pos: int, limit: int = 40) -> str:
    """Text before ``pos`` on the same line and in the same clause."""
    lo = max(0, pos - limit)
    chunk = text[lo:pos]
    cut = max(chunk.rfind("\n"), chunk.rfind(";"), chunk.rfind(". "))
    return chunk[cut + 1 :] if cut >= 0 else chunk


def line_after(text: str, pos: int, limit: int = 20) -> str:
    """Up to ``limit`` characters after ``pos``, stopping at the end of the line."""
    chunk = text[pos : pos + limit]
    nl = chunk.find("\n")
    return chunk if nl < 0 else chunk[:nl]


def digit_count(s: str) -> int:
    return sum(ch.isdigit() for ch in s)
