"""How a date is written, as far as its text shows it, and how the note settles the rest.

A date's text does not always show its format.  "May" is both a full month
name and its own abbreviation; "June", "July" and "Sept" belong to more than
one spelling scheme; the "15" of "Mar 15, 2019" shows no zero padding.
Deciding such a choice from the date's value would make the written form of
the shifted date depend on the original: a full month name among
abbreviations would say the original month was May, an unpadded "Apr 4"
among "Apr 04"s that the original day had two digits.

So every open choice is settled from written forms alone, in this order: the
date's own tokens; the other dates of the note written with the same
skeleton; the other dates of the same family of styles; the style's default.
The result is a function of how the note is written, never of which dates
it holds.  Only a note whose dates all leave a choice open (every text month
a "May" with a two-digit day, say) falls to the default, and the default
depends on the style alone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Literal

__all__ = ["DateForm", "Evidence", "NoteStyle", "index_of", "month_schemes", "spell", "weekday_schemes"]

# Spelling schemes: how a writer names each month or weekday.  A token fits
# every scheme that contains it; "may" fits all four month schemes.
MONTH_SCHEMES: dict[str, tuple[str, ...]] = {
    "full": tuple(
        "january february march april may june july august september october november december".split()
    ),
    "abbr": tuple("jan feb mar apr may jun jul aug sep oct nov dec".split()),
    "sept": tuple("jan feb mar apr may jun jul aug sept oct nov dec".split()),
    "short": tuple("jan feb mar apr may june july aug sept oct nov dec".split()),
}
WEEKDAY_SCHEMES: dict[str, tuple[str, ...]] = {
    "full": tuple("monday tuesday wednesday thursday friday saturday sunday".split()),
    "abbr": tuple("mon tue wed thu fri sat sun".split()),
    "thur": tuple("mon tue wed thur fri sat sun".split()),
    "short": tuple("mon tues wed thurs fri sat sun".split()),
    "weds": tuple("mon tues weds thurs fri sat sun".split()),
}
ABBREVIATED_FIRST = ("abbr", "sept", "short", "full")
FULL_FIRST = ("full", "abbr", "sept", "short")
WEEKDAY_ORDER = ("abbr", "thur", "short", "weds", "full")

# What a style's written form decides when nothing in the note does:
# "abbr" prefers abbreviations, "full" full names, and "by-padding" (month
# first, "May 06, 2019" / "May 6, 2019") reads a zero-padded day as the
# abbreviated style and anything else as the full one.
Names = Literal["abbr", "full", "by-padding"]


def _schemes_of(table: dict[str, tuple[str, ...]], token: str, period_follows: bool) -> frozenset[str]:
    low = token.lower()
    fits = frozenset(name for name, words in table.items() if low in words)
    if period_follows and fits - {"full"}:  # a full name takes no abbreviation point
        fits -= {"full"}
    return fits


def month_schemes(token: str, period_follows: bool = False) -> frozenset[str]:
    """The month-spelling schemes ``token`` fits (empty when it names no month)."""
    return _schemes_of(MONTH_SCHEMES, token, period_follows)


def weekday_schemes(token: str, period_follows: bool = False) -> frozenset[str]:
    """The weekday-spelling schemes ``token`` fits (empty when it names no weekday)."""
    return _schemes_of(WEEKDAY_SCHEMES, token, period_follows)


def index_of(kind: Literal["mon", "wd"], token: str) -> int:
    """Month (0-11) or weekday (0-6) that ``token`` names; the same in every scheme."""
    low = token.lower()
    table = MONTH_SCHEMES if kind == "mon" else WEEKDAY_SCHEMES
    for words in table.values():
        if low in words:
            return words.index(low)
    raise ValueError("not a month or weekday name")


def spell(kind: Literal["mon", "wd"], scheme: str, index: int) -> str:
    """The lower-case word ``scheme`` writes for month or weekday ``index``."""
    return (MONTH_SCHEMES if kind == "mon" else WEEKDAY_SCHEMES)[scheme][index]


@dataclass(frozen=True, slots=True)
class Evidence:
    """What one date's text shows of its format, and what its style defaults to."""

    skeleton: str  # the format with every open choice blanked out
    family: str  # styles that share conventions (month first in prose, dd-Mon-yyyy and kin, ...)
    names: Names
    pad_default: bool | None  # None: padded unless the month is spelled out or an ordinal is written
    month: frozenset[str] = frozenset()  # schemes the month word fits; empty without one
    weekday: frozenset[str] = frozenset()
    pad_m: bool | None = None  # padding the month number shows; None when unseen or absent
    pad_d: bool | None = None
    ordinal: bool = False


@dataclass(frozen=True, slots=True)
class DateForm:
    """Every choice settled: how a shifted date is written."""

    month: str | None
    weekday: str | None
    pad_m: bool
    pad_d: bool


_Key = tuple[str, str]


class NoteStyle:
    """The written forms of a note's dates, tallied by skeleton and by family."""

    def __init__(self, evidence: Iterable[Evidence]) -> None:
        self._votes: dict[_Key, Counter[tuple[str, object]]] = {}
        self._settled: dict[Evidence, DateForm] = {}  # a note's dates mostly share a few forms
        for ev in evidence:
            for key in (("skeleton", ev.skeleton), ("family", ev.family)):
                votes = self._votes.setdefault(key, Counter())
                votes.update(("month", s) for s in ev.month)
                votes.update(("weekday", s) for s in ev.weekday)
                for field, shown in (("pad_m", ev.pad_m), ("pad_d", ev.pad_d)):
                    if shown is not None:
                        votes[(field, shown)] += 1

    def settle(self, ev: Evidence) -> DateForm:
        """The form to write ``ev``'s date in: its own tokens, then the note, then the default."""
        form = self._settled.get(ev)
        if form is None:
            form = self._settled[ev] = self._settle(ev)
        return form

    @staticmethod
    def alone(ev: Evidence) -> DateForm:
        """The form of a date with no note around it."""
        return _alone(ev)

    def _settle(self, ev: Evidence) -> DateForm:
        tiers = [self._votes.get(key, Counter()) for key in (("skeleton", ev.skeleton), ("family", ev.family))]
        pad_d = _first_shown(ev.pad_d, ev.pad_m, tiers, "pad_d", "pad_m")
        pad_m = _first_shown(ev.pad_m, ev.pad_d, tiers, "pad_m", "pad_d")
        if ev.names == "abbr" or (ev.names == "by-padding" and pad_d is True):
            order = ABBREVIATED_FIRST
        else:
            order = FULL_FIRST
        month = _choose(ev.month, tiers, "month", order)
        weekday = _choose(ev.weekday, tiers, "weekday", WEEKDAY_ORDER)
        default = ev.pad_default
        if default is None:
            default = month not in (None, "full") and not ev.ordinal
        return DateForm(
            month, weekday, default if pad_m is None else pad_m, default if pad_d is None else pad_d
        )


@lru_cache(maxsize=1024)
def _alone(ev: Evidence) -> DateForm:
    return NoteStyle([ev]).settle(ev)


def _narrow(options: Iterable[object], tiers: list[Counter], attribute: str) -> list[object]:
    """The options with the most votes, tier by tier: a tie passes to the next tier, and the end leaves the tied."""
    remaining = list(options)
    for votes in tiers:
        if len(remaining) < 2:
            break
        best = max(votes[(attribute, o)] for o in remaining)
        remaining = [o for o in remaining if votes[(attribute, o)] == best]
    return remaining


def _choose(fits: frozenset[str], tiers: list[Counter], attribute: str, order: tuple[str, ...]) -> str | None:
    if not fits:
        return None
    remaining = _narrow([s for s in order if s in fits], tiers, attribute)
    return remaining[0]


def _first_shown(own: bool | None, sibling: bool | None, tiers: list[Counter], field: str, other: str) -> bool | None:
    """Padding as shown by the field, the note's same field, the date's other field, the note's other field."""
    if own is not None:
        return own
    for attribute, shown in ((field, None), (other, sibling)):
        if shown is not None:
            return shown
        remaining = _narrow((True, False), tiers, attribute)
        if len(remaining) == 1:
            return bool(remaining[0])
    return None
