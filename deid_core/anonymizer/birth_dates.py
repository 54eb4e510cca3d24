"""Birth dates that, with another date of the same note, reveal an age over 89.

Safe Harbor lets ages up to 89 through but asks that an age over 89, and
every date element that shows one, be removed.  The date shift keeps
intervals, so a shifted birth date and a shifted visit date still give the
true age.  A birth date (a date written after "DOB", "date of birth",
"born", ...) is therefore masked when it lies more than 89 years before the
latest other dated mention of the note, or before the reference date when
the note has no other.  Masking, not moving the birth year, keeps every
other interval true and never invents a birth date.  Coarse dates are read
at their widest (a birth year from January 1, a visit year to December 31),
so an age that may be over 89 counts as one.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import date

from deid_core.dates import DateParseError, DateShifter, ParsedDate

#: Ages above this many years are not shown (Safe Harbor).
MAX_AGE = 89

_BIRTH_CUE = re.compile(
    r"(?:\bD\.?\s?O\.?\s?B\b\.?|\bdate\s+of\s+birth|\bbirth\s*date|\bbirthday|\bborn(?:\s+on)?|\bb\.)"
    r"[ \t]*(?:[:#=-][ \t]*)?\Z",
    re.IGNORECASE,
)
_CUE_WINDOW = 24


def _earliest(parsed: ParsedDate) -> date:
    d = parsed.date
    return date(d.year, 1, 1) if parsed.granularity == "year" else date(d.year, d.month, 1) if parsed.granularity == "month" else d


def _latest(parsed: ParsedDate) -> date:
    d = parsed.date
    if parsed.granularity == "year":
        return date(d.year, 12, 31)
    if parsed.granularity == "month":
        return date(d.year, d.month, calendar.monthrange(d.year, d.month)[1])
    return d


def _age(born: date, on: date) -> int:
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def is_birth_date(text: str, start: int) -> bool:
    """Is the date at ``start`` written as a birth date ("DOB: ...", "born ...")?"""
    before = text[max(0, start - _CUE_WINDOW) : start]
    return _BIRTH_CUE.search(before.rsplit("\n", 1)[-1]) is not None


def birth_dates_over_age(text: str, dates: Sequence[tuple[int, int]], shifter: DateShifter) -> set[int]:
    """Indices into ``dates`` (``(start, end)`` of each DATE region) of the birth dates to mask."""
    parsed: dict[int, ParsedDate] = {}
    for i, (start, end) in enumerate(dates):
        try:
            found = shifter.parse(text[start:end])
        except DateParseError:
            continue
        if found.has_year:
            parsed[i] = found
    births = {i for i in parsed if is_birth_date(text, dates[i][0])}
    others = [_latest(p) for i, p in parsed.items() if i not in births]
    latest = max(others, default=shifter.reference)
    return {i for i in births if _age(_earliest(parsed[i]), latest) > MAX_AGE}
