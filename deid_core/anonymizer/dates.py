"""DATE: a per-patient keyed offset, and dates written back as they were written.

Offset.  One offset per patient, ``HMAC-SHA256(subkey, b"date_jitter_v1:" +
patient_id)``: the first four digest bytes (big-endian) give the magnitude
``3 + u32 % 178`` and byte 4 the sign, negative when that byte is odd.  Every
date of a patient moves by the same number of days, so every interval in the
record survives; nothing is stored, and a new study key gives new offsets.
The patient id is used exactly as given (no trimming or case folding): it is
an opaque key, and normalizing it could merge two patients.

Formats.  A date is parsed by hand (``re`` + ``datetime``) into a template of
literal text and fields, and the shifted date is rendered into the same
template: separators, commas, "of", "the", spacing, zero padding per field,
2- or 4-digit years, full or abbreviated month and weekday names, their
case, and ordinal suffixes all survive; the weekday and the ordinal suffix
are recomputed for the new date; a time of day is kept as written.
Recognized shapes include::

    3/4/2019  03/04/2019  3/4/19  03-04-2019  04.03.2019  2019-03-04  2019/03/04
    2019-03-04T14:30  2019-03-04 14:30:00  3/4/2019 2:30 PM  20190304
    March 3, 2019  Mar. 3, 2019  Mar 3 2019  March 3rd, 2019  3 March 2019
    3rd of March, 2019  the 3rd of March 2019  03-Mar-2019  3-MAR-19  03Mar2019
    2019-Mar-03  Monday, March 4, 2019  Mon 03/04/2019
    March 2019  Mar. 2019  Mar-19  Mar '19  03/2019  2019-03
    3/4  March 3  Mar 3rd  3 March  the 3rd of March  Monday, March 4
    2019

Ambiguity and the clock.  Nothing reads today's date (``dateutil``-style
guessing fills missing fields from the clock, so a re-run would differ):

* numeric dates with ``/`` or ``-`` are month-first unless ``day_first``;
  dot-separated ones (``04.03.2019``) are day-first, the convention wherever
  dots are used.  A reading that is impossible (``15/03/2019`` month-first)
  falls back to the other order; if neither is a real date it is an error;
* a date written without a year takes the year of ``reference``
  (so "Feb 29" is an error when that year is not a leap year);
* a two-digit year means the year with those last digits in the 100-year
  window ending at ``two_digit_window_end`` (default ``reference.year + 20``),
  and a shifted date is written with its own last two digits.

Coarse dates cannot carry a day, so an anchor is shifted and the result
rendered at the written precision: month-year uses the 15th of the month,
year-only uses July 1st.  With offsets of at most 180 days a year-only date
therefore never changes, and a month-year date keeps its month whenever the
offset stays inside it.  A month-day date is shifted within the reference
year and rendered as month-day only.

Errors.  Unrecognized text, an impossible date (Feb 30, 13/13/2019, 25:00)
or a result outside the calendar raises :class:`DateParseError`; the caller
masks the span.  Messages never echo the text, which is PHI and may reach a
log.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import operator
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Literal

__all__ = [
    "DateParseError",
    "DateShifter",
    "MissingPatientIdError",
    "ParsedDate",
    "patient_offset_days",
]

_JITTER_TAG = b"date_jitter_v1:"
_MAX_LENGTH = 96  # far above any shape listed above; bounds the regex work
MIN_OFFSET_DAYS = 3
MAX_OFFSET_DAYS = 180


class MissingPatientIdError(ValueError):
    """Dates cannot be shifted without a patient: a random offset would break intervals."""


class DateParseError(ValueError):
    """The text is not a date this module can shift; the caller masks the span."""


def patient_offset_days(subkey: bytes, patient_id: str) -> int:
    """The patient's offset in days, in [-180, -3] ∪ [3, 180].

    ``subkey`` is the study key's dates subkey.  The modulo bias of
    ``u32 % 178`` is below 1e-7 and is accepted for a stable, documented map.
    """
    if patient_id is None or not isinstance(patient_id, str) or not patient_id.strip():
        raise MissingPatientIdError("date shifting needs a non-empty patient id")
    digest = hmac.new(subkey, _JITTER_TAG + patient_id.encode("utf-8"), hashlib.sha256).digest()
    span = MAX_OFFSET_DAYS - MIN_OFFSET_DAYS + 1
    magnitude = MIN_OFFSET_DAYS + int.from_bytes(digest[:4], "big") % span
    return -magnitude if digest[4] & 1 else magnitude


# -- names --------------------------------------------------------------------

_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_MONTH_ABBR = tuple(name[:3] for name in _MONTHS)
_MONTH_VARIANTS = {"sept": 8}
_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_WEEKDAY_ABBR = tuple(name[:3] for name in _WEEKDAYS)
_WEEKDAY_VARIANTS = {"tues": 1, "weds": 2, "thur": 3, "thurs": 3}


def _alternation(*names: str) -> str:
    return "|".join(sorted(set(names), key=len, reverse=True))


_MON = rf"(?P<mon>{_alternation(*_MONTHS, *_MONTH_ABBR, *_MONTH_VARIANTS)})"
_WD = rf"(?P<wd>{_alternation(*_WEEKDAYS, *_WEEKDAY_ABBR, *_WEEKDAY_VARIANTS)})"

# -- patterns -----------------------------------------------------------------

_WEEKDAY = rf"(?:{_WD}\.?,?\s+)?"
_TIME_TEXT = (
    r"[0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,6})?)?"
    r"(?:\s*[ap]\.?m\.?)?(?:\s*(?:z|utc|[+-][0-9]{2}:?[0-9]{2}))?"
)
_TIME = rf"(?:(?:t|,?\s+(?:at\s+|@\s*)?|\s*@\s*)(?P<time>{_TIME_TEXT}))?"
_D = r"(?P<d>[0-9]{1,2})"
_DO = r"(?P<d>[0-9]{1,2})(?P<sfx>st|nd|rd|th)?"
_M = r"(?P<m>[0-9]{1,2})"
_Y = r"(?P<y>[0-9]{4}|[0-9]{2})"
_Y4 = r"(?P<y>[0-9]{4})"
_YSEP = r"(?:,\s*|\s+)"

Granularity = Literal["day", "month", "year"]


@dataclass(frozen=True, slots=True)
class _Pattern:
    regex: re.Pattern[str]
    granularity: Granularity
    has_year: bool = True
    pad_default: bool = True  # for a 2-digit field >= 10, whose padding the text does not show


def _p(source: str, granularity: Granularity = "day", *, has_year: bool = True, pad: bool = True) -> _Pattern:
    return _Pattern(re.compile(source, re.IGNORECASE), granularity, has_year, pad)


# Tried in order; the first full match decides.  Groups ``a``/``b`` are the two
# numeric fields whose order (month/day) is resolved at parse time.
_PATTERNS: tuple[_Pattern, ...] = (
    # year first: 2019-03-04, 2019/03/04, 2019.03.04, with an optional time
    _p(rf"{_WEEKDAY}{_Y4}(?P<s>[-/.]){_M}(?P=s){_D}{_TIME}"),
    # compact 20190304
    _p(r"(?P<y>[0-9]{4})(?P<m>[0-9]{2})(?P<d>[0-9]{2})"),
    # numeric, order resolved: 3/4/2019, 03-04-19, 04.03.2019, with an optional time
    _p(rf"{_WEEKDAY}(?P<a>[0-9]{{1,2}})(?P<s>[-/.])(?P<b>[0-9]{{1,2}})(?P=s){_Y}{_TIME}"),
    # 2019-Mar-03
    _p(rf"{_WEEKDAY}{_Y4}(?P<s>[-/ ]){_MON}(?P=s){_D}{_TIME}"),
    # 03-Mar-2019, 3-MAR-19, 03/Mar/2019, 03Mar2019
    _p(rf"{_WEEKDAY}{_D}(?P<s>[-/]?){_MON}(?P=s){_Y}{_TIME}"),
    # March 3, 2019 / Mar. 3 2019 / March 3rd, 2019 / Monday, March 4, 2019
    _p(rf"{_WEEKDAY}{_MON}\.?\s+{_DO}{_YSEP}{_Y}{_TIME}", pad=False),
    # 3 March 2019 / 3rd of March, 2019 / the 3rd of March 2019
    _p(rf"{_WEEKDAY}(?:the\s+)?{_DO}(?:\s+of)?\s+{_MON}\.?{_YSEP}{_Y}{_TIME}", pad=False),
    # month-year: March 2019, Mar. 2019, March, 2019
    _p(rf"{_MON}\.?,?\s+{_Y4}", "month"),
    # month-year: Mar-19, Mar '19, Mar-2019, Mar/19
    _p(rf"{_MON}(?:[-/]|\s*'){_Y}", "month"),
    # month-year: 03/2019, 3-2019, 03.2019
    _p(rf"{_M}(?P<s>[-/.]){_Y4}", "month"),
    # year-month: 2019-03, 2019/03
    _p(rf"{_Y4}(?P<s>[-/]){_M}", "month"),
    # month-day: 3/4 (order resolved)
    _p(rf"{_WEEKDAY}(?P<a>[0-9]{{1,2}})/(?P<b>[0-9]{{1,2}})", has_year=False, pad=False),
    # month-day: 03-Mar
    _p(rf"{_WEEKDAY}{_D}-{_MON}", has_year=False),
    # month-day: March 3 / Mar 3rd / Monday, March 4
    _p(rf"{_WEEKDAY}{_MON}\.?\s+{_DO}", has_year=False, pad=False),
    # month-day: 3 March / the 3rd of March
    _p(rf"{_WEEKDAY}(?:the\s+)?{_DO}(?:\s+of)?\s+{_MON}\.?", has_year=False, pad=False),
    # year only
    _p(r"(?P<y>[12][0-9]{3})", "year"),
)

_FIELD_GROUPS = ("wd", "a", "b", "y", "m", "d", "sfx", "mon", "time")
_TIME_PARTS = re.compile(
    r"(?P<h>[0-9]{1,2}):(?P<mi>[0-9]{2})(?::(?P<s>[0-9]{2})(?:\.(?P<f>[0-9]{1,6}))?)?\s*(?P<ap>[ap])?",
    re.IGNORECASE,
)


# -- templates ----------------------------------------------------------------


def _case_of(token: str) -> str:
    if token.isupper():
        return "upper"
    if token.islower():
        return "lower"
    return "title"


def _recase(word: str, case: str) -> str:
    return word.upper() if case == "upper" else word.lower() if case == "lower" else word.capitalize()


def _ordinal(day: int) -> str:
    if 11 <= day % 100 <= 13:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


@dataclass(frozen=True, slots=True)
class _Field:
    """One rendered component; ``token`` is the text as written."""

    kind: str  # y m d sfx mon wd time
    token: str
    padded: bool = False
    abbreviated: bool = False
    index: int = -1  # month (0-11) or weekday (0-6) of the token

    def render(self, value: date) -> str:
        if self.kind == "y":
            return f"{value.year % 100:02d}" if len(self.token) == 2 else f"{value.year:04d}"
        if self.kind in ("m", "d"):
            number = value.month if self.kind == "m" else value.day
            return f"{number:02d}" if self.padded else str(number)
        if self.kind == "sfx":
            suffix = _ordinal(value.day)
            return self.token if suffix == self.token.lower() else _recase(suffix, _case_of(self.token))
        if self.kind in ("mon", "wd"):
            index = value.month - 1 if self.kind == "mon" else value.weekday()
            if index == self.index:  # keeps variants such as "Sept" or "Tues" as written
                return self.token
            full, abbr = (_MONTHS, _MONTH_ABBR) if self.kind == "mon" else (_WEEKDAYS, _WEEKDAY_ABBR)
            word = abbr[index] if self.abbreviated else full[index]
            return _recase(word, _case_of(self.token))
        return self.token  # time of day: kept as written

    @property
    def label(self) -> str:
        if self.kind == "y":
            return "YY" if len(self.token) == 2 else "YYYY"
        if self.kind in ("m", "d"):
            letter = self.kind.upper()
            return letter * 2 if self.padded else letter
        if self.kind == "sfx":
            return "o"
        if self.kind == "mon":
            return "MMM" if self.abbreviated else "MMMM"
        if self.kind == "wd":
            return "ddd" if self.abbreviated else "dddd"
        return "{time}"


@dataclass(frozen=True, slots=True)
class ParsedDate:
    """A recognized date: its resolved value and the template to write a new one into.

    For coarse dates ``value`` is the anchor that gets shifted (the 15th of
    the month, or July 1st); a date without a year is resolved in the
    reference year.
    """

    value: _dt.date | _dt.datetime
    format: str
    granularity: Granularity
    has_year: bool
    parts: tuple[str | _Field, ...]
    leading: str = ""
    trailing: str = ""

    def render(self, value: _dt.date) -> str:
        """Write ``value`` (its date part) in this date's format, at its precision."""
        body = "".join(p if isinstance(p, str) else p.render(value) for p in self.parts)
        return self.leading + body + self.trailing

    @property
    def date(self) -> _dt.date:
        """The calendar date (or anchor) that a shift moves."""
        return self.value.date() if isinstance(self.value, datetime) else self.value


# -- the shifter --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DateShifter:
    """Parses and shifts dates against an explicit reference date, never the clock."""

    reference: date
    day_first: bool = False
    two_digit_window_end: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.reference, date):
            raise TypeError("reference must be a datetime.date")

    @property
    def window_end(self) -> int:
        """The last year a two-digit year may mean; the window holds 100 years."""
        if self.two_digit_window_end is not None:
            return self.two_digit_window_end
        return self.reference.year + 20

    def shift(self, text: str, days: int) -> str:
        """``text`` moved by ``days`` days, written in its own format."""
        days = operator.index(days)
        parsed = self.parse(text)
        try:
            moved = parsed.date + timedelta(days=days)
        except OverflowError:
            raise DateParseError("the shifted date falls outside the supported calendar") from None
        return parsed.render(moved)

    def parse(self, text: str) -> ParsedDate:
        if not isinstance(text, str):
            raise DateParseError("a date span must be text")
        core = text.strip()
        if not core:
            raise DateParseError("the date span is empty")
        if len(core) > _MAX_LENGTH:
            raise DateParseError(f"the date span is longer than {_MAX_LENGTH} characters")
        leading = text[: len(text) - len(text.lstrip())]
        trailing = text[len(text.rstrip()) :]
        for pattern in _PATTERNS:
            match = pattern.regex.fullmatch(core)
            if match is not None:
                return self._build(pattern, match, core, leading, trailing)
        raise DateParseError("the text matches no known date format")

    # -- internals ---------------------------------------------------------

    def _year(self, token: str) -> int:
        if len(token) == 4:
            return int(token)
        start = self.window_end - 99
        return start + (int(token) - start) % 100

    def _build(
        self, pattern: _Pattern, match: re.Match[str], core: str, leading: str, trailing: str
    ) -> ParsedDate:
        found = match.groupdict()
        groups = {name: found[name] for name in _FIELD_GROUPS if found.get(name) is not None}
        year = self._year(groups["y"]) if "y" in groups else self.reference.year
        kinds = {name: name for name in groups}
        month_text, day_text = groups.get("m"), groups.get("d")
        month_index = None
        if "mon" in groups:
            month_index = _month_index(groups["mon"])

        if "a" in groups:  # numeric pair: month/day order resolved here
            day_first = self.day_first or found.get("s") == "."
            orders = [("b", "a"), ("a", "b")] if day_first else [("a", "b"), ("b", "a")]
            for m_name, d_name in orders:
                if _valid(year, int(groups[m_name]), int(groups[d_name])):
                    break
            kinds.update({m_name: "m", d_name: "d"})
            month_text, day_text = groups[m_name], groups[d_name]

        month = month_index + 1 if month_index is not None else int(month_text) if month_text else 7
        if pattern.granularity == "day":
            day = int(day_text)  # type: ignore[arg-type]
        else:
            day = 15 if pattern.granularity == "month" else 1
        try:
            resolved = date(year, month, day)
        except ValueError as exc:
            raise DateParseError(f"impossible calendar date ({exc})") from None

        padded = _padding([t for t in (month_text, day_text) if t is not None], pattern.pad_default)
        parts: list[str | _Field] = []
        cursor = 0
        for name in sorted(groups, key=match.start):
            start, end = match.span(name)
            if start > cursor:
                parts.append(core[cursor:start])
            parts.append(_field(kinds[name], groups[name], padded, core[end : end + 1]))
            cursor = end
        if cursor < len(core):
            parts.append(core[cursor:])

        value: date | datetime = resolved
        if "time" in groups:
            value = datetime.combine(resolved, _parse_time(groups["time"]))
        label = "".join(p if isinstance(p, str) else p.label for p in parts)
        return ParsedDate(value, label, pattern.granularity, pattern.has_year, tuple(parts), leading, trailing)


def _valid(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def _month_index(token: str) -> int:
    low = token.lower()
    if low in _MONTH_VARIANTS:
        return _MONTH_VARIANTS[low]
    return _MONTHS.index(low) if low in _MONTHS else _MONTH_ABBR.index(low)


def _weekday_index(token: str) -> int:
    low = token.lower()
    if low in _WEEKDAY_VARIANTS:
        return _WEEKDAY_VARIANTS[low]
    return _WEEKDAYS.index(low) if low in _WEEKDAYS else _WEEKDAY_ABBR.index(low)


def _padding(tokens: list[str], default: bool) -> bool:
    """Zero padding as the text shows it: a leading 0 pads, a single digit does not.

    A field such as "12" shows neither; it follows its sibling, or the
    format's default when no field of the date shows it.
    """
    for token in tokens:
        if len(token) == 1:
            return False
        if token.startswith("0"):
            return True
    return default


def _field(kind: str, token: str, padded: bool, next_char: str) -> _Field:
    if kind == "mon":
        low = token.lower()
        # "May" is its own abbreviation; a following period says which was meant.
        abbreviated = low not in _MONTHS or (low == "may" and next_char == ".")
        return _Field(kind, token, abbreviated=abbreviated, index=_month_index(token))
    if kind == "wd":
        return _Field(kind, token, abbreviated=token.lower() not in _WEEKDAYS, index=_weekday_index(token))
    if kind in ("m", "d"):
        own = False if len(token) == 1 else True if token.startswith("0") else padded
        return _Field(kind, token, padded=own)
    return _Field(kind, token)


def _parse_time(text: str) -> time:
    match = _TIME_PARTS.match(text)
    assert match is not None  # the date pattern already matched the time's shape
    hour, minute = int(match["h"]), int(match["mi"])
    second = int(match["s"] or 0)
    micro = int((match["f"] or "0").ljust(6, "0"))
    if match["ap"]:
        if not 1 <= hour <= 12:
            raise DateParseError("impossible time of day (hour out of range for AM/PM)")
        hour = hour % 12 + (12 if match["ap"].lower() == "p" else 0)
    try:
        return time(hour, minute, second, micro)
    except ValueError as exc:
        raise DateParseError(f"impossible time of day ({exc})") from None
