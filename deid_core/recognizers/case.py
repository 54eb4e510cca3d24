"""Is letter case evidence in this note? A note typed all in lower case says nothing by its capitals."""

from __future__ import annotations

#: a note with fewer capitals than this share of its letters is written in lower case
LOWER_NOTE_CAPITALS = 0.02
_LOWER_NOTE_MIN_LETTERS = 40


def note_is_lower(text: str) -> bool:
    """Typed in lower case throughout, so that a capital, or its absence, says nothing."""
    # counted by str methods mapped in C: every rule unit asks this of every note
    letters = sum(map(str.isalpha, text))
    upper = sum(map(str.isupper, filter(str.isalpha, text)))
    return letters >= _LOWER_NOTE_MIN_LETTERS and upper <= LOWER_NOTE_CAPITALS * letters
