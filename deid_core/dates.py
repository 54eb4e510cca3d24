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
2- or 4-digit years, the spelling scheme of month and weekday names
(full, three letters, or with "Sept", "June", "Tues" and kin), their case,
and ordinal suffixes all survive; the weekday and the ordinal suffix are
recomputed for the new date; a time of day is kept as written.
Recognized shapes include::

    3/4/2019  03/04/2019  3/4/19  03-04-2019  04.03.2019  2019-03-04  2019/03/04
    2019-03-04T14:30  2019-03-04 14:30:00  3/4/2019 2:30 PM  20190304
    March 3, 2019  Mar. 3, 2019  Mar 3 2019  March 3rd, 2019  3 March 2019
    3rd of March, 2019  the 3rd of March 2019  03-Mar-2019  3-MAR-19  03Mar2019
    2019-Mar-03  Monday, March 4, 2019  Mon 03/04/2019  03/04/2019 (Monday)
    March 2019  Mar. 2019  Mar-19  Mar '19  03/2019  2019-03
    3/4  March 3  Mar 3rd  3 March  the 3rd of March  Monday, March 4
    2019

Written form.  What the text leaves open ("May" is its own abbreviation;
"June", "July", "Sept", "Tues" belong to more than one spelling scheme; "15"
shows no zero padding) is never settled from the date's value, or the
output's form would tell the original: :mod:`date_formats` settles it from
the note's other dates written the same way (``note_style``), then from the
style's default ("27-May-2017" is abbreviated, "May 06, 2019" too, "May 6,
2019" is spelled out).  The output's form is thus a function of how the
note is written, never of the dates in it.

Ambiguity and the clock.  Nothing reads today's date (``dateutil``-style
guessing fills missing fields from the clock, so a re-run would differ):

* numeric dates with ``/`` or ``-`` are month-first unless ``day_first``;
  dot-separated ones (``04.03.2019``) are day-first, the convention wherever
  dots are used.  A reading that is impossible (``15/03/2019`` month-first)
  falls back to the other order; if neither is a real date it is an error;
* a date written without a year takes the year of ``reference``, except
  "Feb 29", which takes the last leap year up to it: an error there would
  mask exactly the leap days and so name them;
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

import calendar
import datetime as _dt
import hashlib
import hmac
import operator
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Iterable, Literal, Sequence

from deid_core.date_formats import (
    MONTH_SCHEMES,
    WEEKDAY_SCHEMES,
    DateForm,
    Evidence,
    Names,
    NoteStyle,
    index_of,
    month_schemes,
    spell,
    weekday_schemes,
)
from deid_core.spans import Category, Span

__all__ = [
    "DateParseError",
    "DateShifter",
    "MissingPatientIdError",
    "NoteDates",
    "ParsedDate",
    "patient_offset_days",
]

_JITTER_TAG = b"date_jitter_v1:"
_ANY_LEAP_YEAR = 2000  # checks a year-less month and day, so that Feb 29 is a real one
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



def _alternation(schemes: dict[str, tuple[str, ...]]) -> str:
    return "|".join(sorted({w for words in schemes.values() for w in words}, key=len, reverse=True))


_MON = rf"(?P<mon>{_alternation(MONTH_SCHEMES)})"
_WD = rf"(?P<wd>{_alternation(WEEKDAY_SCHEMES)})"

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
    family: str  # styles whose dates settle each other's open choices (see date_formats)
    granularity: Granularity = "day"
    has_year: bool = True
    names: Names = "abbr"  # which spelling an ambiguous month word takes by default
    pad_default: bool | None = True  # for a 2-digit field >= 10, whose padding the text does not show


def _p(
    source: str,
    family: str,
    granularity: Granularity = "day",
    *,
    has_year: bool = True,
    names: Names = "abbr",
    pad: bool | None = True,
) -> _Pattern:
    return _Pattern(re.compile(source, re.IGNORECASE), family, granularity, has_year, names, pad)


# Tried in order; the first full match decides.  Groups ``a``/``b`` are the two
# numeric fields whose order (month/day) is resolved at parse time.
_PATTERNS: tuple[_Pattern, ...] = (
    # year first: 2019-03-04, 2019/03/04, 2019.03.04, with an optional time
    _p(rf"{_WEEKDAY}{_Y4}(?P<s>[-/.]){_M}(?P=s){_D}{_TIME}", "year-first"),
    # compact 20190304
    _p(r"(?P<y>[0-9]{4})(?P<m>[0-9]{2})(?P<d>[0-9]{2})", "compact"),
    # numeric, order resolved: 3/4/2019, 03-04-19, 04.03.2019, with an optional time
    _p(rf"{_WEEKDAY}(?P<a>[0-9]{{1,2}})(?P<s>[-/.])(?P<b>[0-9]{{1,2}})(?P=s){_Y}{_TIME}", "numeric"),
    # 2019-Mar-03
    _p(rf"{_WEEKDAY}{_Y4}(?P<s>[-/ ]){_MON}(?P=s){_D}{_TIME}", "joined-name"),
    # 03-Mar-2019, 3-MAR-19, 03/Mar/2019, 03Mar2019
    _p(rf"{_WEEKDAY}{_D}(?P<s>[-/]?){_MON}(?P=s){_Y}{_TIME}", "joined-name"),
    # March 3, 2019 / Mar. 3 2019 / March 3rd, 2019 / Monday, March 4, 2019
    _p(rf"{_WEEKDAY}{_MON}\.?\s+{_DO}{_YSEP}{_Y}{_TIME}", "month-first", names="by-padding", pad=None),
    # 3 March 2019 / 3rd of March, 2019 / the 3rd of March 2019
    _p(rf"{_WEEKDAY}(?:the\s+)?{_DO}(?:\s+of)?\s+{_MON}\.?{_YSEP}{_Y}{_TIME}", "day-first", names="full", pad=False),
    # month-year: March 2019, Mar. 2019, March, 2019
    _p(rf"{_MON}\.?,?\s+{_Y4}", "month-first", "month", names="by-padding", pad=None),
    # month-year: Mar-19, Mar '19, Mar-2019, Mar/19
    _p(rf"{_MON}(?:[-/]|\s*'){_Y}", "joined-name", "month"),
    # month-year: 03/2019, 3-2019, 03.2019
    _p(rf"{_M}(?P<s>[-/.]){_Y4}", "numeric", "month"),
    # year-month: 2019-03, 2019/03
    _p(rf"{_Y4}(?P<s>[-/]){_M}", "year-first", "month"),
    # month-day: 3/4 (order resolved)
    _p(rf"{_WEEKDAY}(?P<a>[0-9]{{1,2}})/(?P<b>[0-9]{{1,2}})", "numeric", has_year=False, pad=False),
    # month-day: 03-Mar
    _p(rf"{_WEEKDAY}{_D}-{_MON}", "joined-name", has_year=False),
    # month-day: March 3 / Mar 3rd / Monday, March 4
    _p(rf"{_WEEKDAY}{_MON}\.?\s+{_DO}", "month-first", has_year=False, names="by-padding", pad=None),
    # month-day: 3 March / the 3rd of March
    _p(rf"{_WEEKDAY}(?:the\s+)?{_DO}(?:\s+of)?\s+{_MON}\.?", "day-first", has_year=False, names="full", pad=False),
    # year only
    _p(r"(?P<y>[12][0-9]{3})", "year", "year"),
)

# A weekday after the date: "03/04/2019 (Monday)", "March 4, 2019, Mon.", "04-Mar-2019 Mon"
_WEEKDAY_AFTER = re.compile(rf"(?P<body>.+?)(?P<gap>,?\s*\(|,?\s+){_WD}(?P<end>\.?\)?)", re.IGNORECASE)

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
    """One component as written; what its token leaves open is settled by a :class:`DateForm`."""

    kind: str  # y m d sfx mon wd time
    token: str

    @property
    def shown_padding(self) -> bool | None:
        """A leading 0 pads, a single digit does not, and "12" shows neither."""
        if len(self.token) == 1:
            return False
        return True if self.token.startswith("0") else None

    def render(self, value: date, form: DateForm) -> str:
        if self.kind == "y":
            return f"{value.year % 100:02d}" if len(self.token) == 2 else f"{value.year:04d}"
        if self.kind in ("m", "d"):
            number = value.month if self.kind == "m" else value.day
            padded = form.pad_m if self.kind == "m" else form.pad_d
            return f"{number:02d}" if padded else str(number)
        if self.kind == "sfx":
            return _recase(_ordinal(value.day), _case_of(self.token))
        if self.kind in ("mon", "wd"):
            index = value.month - 1 if self.kind == "mon" else value.weekday()
            scheme = form.month if self.kind == "mon" else form.weekday
            return _recase(spell(self.kind, scheme, index), _case_of(self.token))  # type: ignore[arg-type]
        return self.token  # time of day: kept as written

    def label(self, form: DateForm) -> str:
        if self.kind == "y":
            return "YY" if len(self.token) == 2 else "YYYY"
        if self.kind in ("m", "d"):
            letter = self.kind.upper()
            return letter * 2 if (form.pad_m if self.kind == "m" else form.pad_d) else letter
        if self.kind == "sfx":
            return "o"
        if self.kind == "mon":
            return "MMMM" if form.month == "full" else "MMM"
        if self.kind == "wd":
            return "dddd" if form.weekday == "full" else "ddd"
        return "{time}"


@dataclass(frozen=True, slots=True)
class ParsedDate:
    """A recognized date: its resolved value and the template to write a new one into.

    For coarse dates ``value`` is the anchor that gets shifted (the 15th of
    the month, or July 1st); a date without a year is resolved in the
    reference year.  ``format`` is the date's format as its own text settles
    it; in a note, :meth:`form` lets the note's other dates settle the rest.
    """

    value: _dt.date | _dt.datetime
    granularity: Granularity
    has_year: bool
    parts: tuple[str | _Field, ...]
    evidence: Evidence
    leading: str = ""
    trailing: str = ""

    def form(self, note: NoteStyle | None = None) -> DateForm:
        """How this date is written, settled by ``note`` (the note's dates) or by itself."""
        return note.settle(self.evidence) if note is not None else NoteStyle.alone(self.evidence)

    @property
    def format(self) -> str:
        """The format as the date's own text settles it, e.g. ``MMM DD, YYYY``."""
        form = self.form()
        return "".join(p if isinstance(p, str) else p.label(form) for p in self.parts)

    def render(self, value: _dt.date, form: DateForm | None = None) -> str:
        """Write ``value`` (its date part) in this date's format, at its precision."""
        form = form or self.form()
        body = "".join(p if isinstance(p, str) else p.render(value, form) for p in self.parts)
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

    def shift(self, text: str, days: int, note: NoteDates | None = None) -> str:
        """``text`` moved by ``days`` days, written in its own format.

        ``note`` (from :meth:`note_style` over all the note's dates) settles
        what the text leaves open, such as whether "May" is abbreviated.
        """
        days = operator.index(days)
        parsed = note.parsed.get(text) if note is not None else None
        parsed = parsed or self.parse(text)
        try:
            moved = parsed.date + timedelta(days=days)
        except OverflowError:
            raise DateParseError("the shifted date falls outside the supported calendar") from None
        return parsed.render(moved, parsed.form(note.style if note is not None else None))

    def note_style(self, texts: Iterable[str]) -> NoteDates:
        """A note's dates, parsed once, whose written forms settle each other's; texts that are no date are left out."""
        parsed: dict[str, ParsedDate] = {}
        for text in texts:
            try:
                parsed[text] = self.parse(text)
            except DateParseError:
                continue
        return NoteDates(parsed, NoteStyle(p.evidence for p in parsed.values()))

    def note_dates(self, text: str, spans: Sequence[Span]) -> NoteDates:
        """:meth:`note_style` of a note's DATE spans, kept for the note at hand.

        The anonymizer asks once per date of the note; answering from the
        last note seen (the very same text and spans objects) keeps a note
        of many dates linear.
        """
        last = _LAST_NOTE.get(self)
        if last is not None and last[0] is text and last[1] is spans:
            return last[2]
        dates = self.note_style(s.text_in(text) for s in spans if s.category is Category.DATE)
        _LAST_NOTE[self] = (text, spans, dates)
        return dates

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
        after = _WEEKDAY_AFTER.fullmatch(core)
        for body, weekday in ((core, None), *([(after["body"], after)] if after else [])):
            for pattern in _PATTERNS:
                match = pattern.regex.fullmatch(body)
                if match is not None and (weekday is None or pattern.granularity == "day"):
                    return self._build(pattern, match, body, leading, trailing, weekday)
        raise DateParseError("the text matches no known date format")

    # -- internals ---------------------------------------------------------

    def _year(self, token: str) -> int:
        if len(token) == 4:
            return int(token)
        start = self.window_end - 99
        return start + (int(token) - start) % 100

    def _build(
        self,
        pattern: _Pattern,
        match: re.Match[str],
        core: str,
        leading: str,
        trailing: str,
        weekday: re.Match[str] | None = None,
    ) -> ParsedDate:
        found = match.groupdict()
        groups = {name: found[name] for name in _FIELD_GROUPS if found.get(name) is not None}
        year = self._year(groups["y"]) if "y" in groups else _ANY_LEAP_YEAR
        kinds = {name: name for name in groups}
        month_text, day_text = groups.get("m"), groups.get("d")
        month_index = None
        if "mon" in groups:
            month_index = index_of("mon", groups["mon"])

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
        if "y" not in groups:
            year = self.reference.year
            while (month, day) == (2, 29) and not calendar.isleap(year):
                year -= 1
        try:
            resolved = date(year, month, day)
        except ValueError as exc:
            raise DateParseError(f"impossible calendar date ({exc})") from None

        parts: list[str | _Field] = []
        pointed: set[str] = set()  # month or weekday names followed by an abbreviation point
        cursor = 0
        for name in sorted(groups, key=match.start):
            start, end = match.span(name)
            if start > cursor:
                parts.append(core[cursor:start])
            parts.append(_Field(kinds[name], groups[name]))
            if core[end : end + 1] == ".":
                pointed.add(kinds[name])
            cursor = end
        if cursor < len(core):
            parts.append(core[cursor:])
        if weekday is not None:  # "03/04/2019 (Monday)": a weekday written after the date
            parts += [weekday["gap"], _Field("wd", weekday["wd"]), weekday["end"]]
            if weekday["end"].startswith("."):
                pointed.add("wd")
        evidence = _evidence(pattern, parts, pointed)

        value: date | datetime = resolved
        if "time" in groups:
            value = datetime.combine(resolved, _parse_time(groups["time"]))
        return ParsedDate(value, pattern.granularity, pattern.has_year, tuple(parts), evidence, leading, trailing)


def _valid(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


_BLANKS = {"mon": "N", "wd": "W", "m": "M", "d": "D", "sfx": "o", "time": "{time}"}


def _evidence(pattern: _Pattern, parts: list[str | _Field], pointed: set[str]) -> Evidence:
    """What the written date shows of its format; its skeleton blanks every open choice."""
    fields = {p.kind: p for p in parts if isinstance(p, _Field)}
    skeleton = "".join(
        p if isinstance(p, str) else "Y" * len(p.token) if p.kind == "y" else _BLANKS[p.kind] for p in parts
    )
    mon, wd = fields.get("mon"), fields.get("wd")
    return Evidence(
        skeleton=skeleton,
        family=pattern.family,
        names=pattern.names,
        pad_default=pattern.pad_default,
        month=month_schemes(mon.token, "mon" in pointed) if mon else frozenset(),
        weekday=weekday_schemes(wd.token, "wd" in pointed) if wd else frozenset(),
        pad_m=fields["m"].shown_padding if "m" in fields else None,
        pad_d=fields["d"].shown_padding if "d" in fields else None,
        ordinal="sfx" in fields,
    )


@dataclass(frozen=True, slots=True)
class NoteDates:
    """The dates of one note, parsed, and the style their written forms make together."""

    parsed: dict[str, ParsedDate]
    style: NoteStyle


_LAST_NOTE: dict[DateShifter, tuple[str, Sequence[Span], NoteDates]] = {}


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
