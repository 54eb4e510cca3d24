"""A shifted date is written in its input's format, whatever the input's value.

An independent writer below renders a date from an explicit format (order,
separators, padding, year width, month and weekday spelling scheme, case,
ordinal); the shifted text must equal that writer's rendering of the shifted
date, so the surrogate parses back with the same format and the same case.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from deid_core.date_formats import MONTH_SCHEMES, WEEKDAY_SCHEMES
from deid_core.dates import DateShifter
from deid_core.anonymizer.engine import Anonymizer, Note
from deid_core.keys import StudyKey
from deid_core.spans import Category, Span
from deid_core.verification import DATE_STYLES, written_in, verify_date_styles

REF = date(2020, 1, 1)
SHIFTER = DateShifter(reference=REF)
# Dates whose text shows every choice: Tuesday to Thursday tell the weekday
# schemes apart, June and September the month schemes, single-digit days
# and months the padding.  All fall in the reference year, for year-less styles.
REVEALING = (date(2020, 6, 2), date(2020, 6, 3), date(2020, 6, 4), date(2020, 9, 1))
LEAP_DAYS = [date(y, 2, 29) for y in (1904, 1944, 1996, 2000, 2004, 2020, 2024, 2036)]


def _case(word: str, case: str) -> str:
    return word.upper() if case == "upper" else word.lower() if case == "lower" else word.capitalize()


def _suffix(day: int) -> str:
    return "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


@dataclass(frozen=True)
class Style:
    """One way of writing dates; ``write`` is the reference writer the shifter must agree with."""

    layout: str  # mdy ymd dmy-dot joined month-first day-first md-numeric md-month-first md-day-first
    sep: str = "/"
    pad_m: bool = True
    pad_d: bool = True
    year_digits: int = 4
    months: str = "abbr"
    case: str = "title"
    point: bool = False  # "Mar." with an abbreviation point
    comma: bool = True
    ordinal: bool = False
    of: bool = False  # "the 3rd of March"
    weekday: str | None = None  # a weekday scheme, written before the date
    weekday_after: str = ""  # or after it: " (" gives "03/04/2019 (Monday)", ", " gives "..., Monday"

    def write(self, d: date) -> str:
        m = f"{d.month:02d}" if self.pad_m else str(d.month)
        dd = f"{d.day:02d}" if self.pad_d else str(d.day)
        if self.ordinal:
            dd += _suffix(d.day).upper() if self.case == "upper" else _suffix(d.day)
        y = f"{d.year:04d}" if self.year_digits == 4 else f"{d.year % 100:02d}"
        mon = _case(MONTH_SCHEMES[self.months][d.month - 1], self.case) + ("." if self.point else "")
        body = {
            "mdy": f"{m}{self.sep}{dd}{self.sep}{y}",
            "ymd": f"{y}{self.sep}{m}{self.sep}{dd}",
            "dmy-dot": f"{dd}.{m}.{y}",
            "joined": f"{dd}{self.sep}{mon}{self.sep}{y}",
            "month-first": f"{mon} {dd}{',' if self.comma else ''} {y}",
            "day-first": f"the {dd} of {mon}, {y}" if self.of else f"{dd} {mon} {y}",
            "md-numeric": f"{m}/{dd}",
            "md-month-first": f"{mon} {dd}",
            "md-day-first": f"the {dd} of {mon}" if self.of else f"{dd} {mon}",
        }[self.layout]
        if self.weekday is None:
            return body
        wd = _case(WEEKDAY_SCHEMES[self.weekday][d.weekday()], self.case)
        point = "." if self.weekday != "full" and self.point else ""
        if self.weekday_after:
            return f"{body}{self.weekday_after}{wd}{point}{')' if '(' in self.weekday_after else ''}"
        return f"{wd}{point}, {body}"

    @property
    def has_year(self) -> bool:
        return not self.layout.startswith("md-")


_case_st = st.sampled_from(["title", "upper", "lower"])
_months = st.sampled_from(sorted(MONTH_SCHEMES))
_weekdays = st.one_of(st.none(), st.sampled_from(sorted(WEEKDAY_SCHEMES)))


@st.composite
def styles(draw) -> Style:
    layout = draw(st.sampled_from(
        ["mdy", "ymd", "dmy-dot", "joined", "month-first", "day-first", "md-numeric", "md-month-first",
         "md-day-first"]
    ))
    months = draw(_months)
    named = layout in ("joined", "month-first", "day-first", "md-month-first", "md-day-first")
    ordinal = named and layout != "joined" and draw(st.booleans())
    weekday = draw(_weekdays)
    return Style(
        layout=layout,
        sep=draw(st.sampled_from(["/", "-"] if layout == "mdy" else ["-", "/", "."] if layout == "ymd"
                                 else ["-", "/", ""] if layout == "joined" else ["/"])),
        pad_m=draw(st.booleans()),
        pad_d=False if ordinal else draw(st.booleans()),
        year_digits=draw(st.sampled_from([2, 4])) if layout in ("mdy", "dmy-dot", "joined") else 4,
        months=months,
        case=draw(_case_st),
        point=named and layout not in ("joined",) and months != "full" and draw(st.booleans()),
        comma=draw(st.booleans()),
        ordinal=ordinal,
        of=ordinal and layout in ("day-first", "md-day-first") and draw(st.booleans()),
        weekday=weekday,
        weekday_after=draw(st.sampled_from(["", " (", ", "])) if weekday else "",
    )


def _day_for(style: Style, data) -> date:
    if not style.has_year:
        return data.draw(st.dates(min_value=date(2020, 1, 1), max_value=date(2020, 12, 31)))
    if style.year_digits == 2:  # both centuries of the default window, 1941-2040
        return data.draw(st.one_of(
            st.dates(min_value=date(1941, 1, 1), max_value=date(1999, 12, 31)),
            st.dates(min_value=date(2000, 1, 1), max_value=date(2040, 12, 31)),
            st.sampled_from([d for d in LEAP_DAYS if 1941 <= d.year <= 2040]),
        ))
    return data.draw(st.one_of(
        st.dates(min_value=date(1901, 1, 1), max_value=date(2099, 12, 31)), st.sampled_from(LEAP_DAYS)
    ))


def _shift_in_note(style: Style, day: date, days: int) -> str:
    text = style.write(day)
    note = [style.write(d) for d in REVEALING] + [text]
    return SHIFTER.shift(text, days, SHIFTER.note_style(note))


@settings(max_examples=1500, deadline=None)
@given(style=styles(), data=st.data(), days=st.integers(min_value=-180, max_value=180))
def test_surrogate_is_written_in_the_format_its_note_shows_for_every_date(style, data, days):
    day = _day_for(style, data)
    assert _shift_in_note(style, day, days) == style.write(day + timedelta(days=days))


@settings(max_examples=300, deadline=None)
@given(day=st.dates(min_value=date(2019, 12, 1), max_value=date(2019, 12, 31)), days=st.integers(3, 60),
       style=st.sampled_from([Style("md-month-first", months="abbr"), Style("md-day-first", months="full", pad_d=False),
                              Style("md-numeric", pad_m=False, pad_d=False),
                              Style("md-month-first", months="short", ordinal=True, pad_d=False, weekday="short")]))
def test_dates_without_a_year_keep_their_format_across_new_year(day, days, style):
    day = day.replace(year=2020)  # year-less dates resolve in the reference year
    assert _shift_in_note(style, day, days) == style.write(day + timedelta(days=days))


# -- a date alone: its own style decides, never its value -------------------------

# The default of each style: what a date written alone is taken to be when its
# text leaves a choice open ("May", a day of 10 or more).
LONE_STYLES = [
    Style("mdy"), Style("mdy", year_digits=2), Style("ymd", sep="-"), Style("dmy-dot"),
    Style("joined", sep="-"), Style("joined", sep="-", case="upper"), Style("joined", sep="", year_digits=2),
    Style("month-first", months="full", pad_d=False), Style("month-first", months="abbr"),
    Style("day-first", months="full", pad_d=False), Style("month-first", months="full", pad_d=False, weekday="full"),
]


@settings(max_examples=400, deadline=None)
@given(day=st.one_of(st.dates(min_value=date(1950, 1, 1), max_value=date(2035, 12, 31)), st.sampled_from(LEAP_DAYS)),
       days=st.integers(min_value=-180, max_value=180), style=st.sampled_from(LONE_STYLES))
@example(day=date(2017, 5, 27), days=-141, style=Style("joined", sep="-"))
@example(day=date(2019, 5, 6), days=-54, style=Style("month-first", months="abbr"))
def test_a_date_alone_keeps_its_styles_format(day, days, style):
    text = style.write(day)
    undecidable = style.layout == "month-first" and style.months == "abbr" and day.month == 5 and day.day >= 10
    if undecidable:  # "May 15, 2019" is written alike in "Mon dd, yyyy" and "Month d, yyyy"
        return
    assert SHIFTER.shift(text, days) == style.write(day + timedelta(days=days))


@pytest.mark.parametrize("day", range(1, 32))
@pytest.mark.parametrize("written", ["{d:02d}-May-2017", "{d:02d}-MAY-17", "{d}May2017", "2017-May-{d:02d}",
                                     "{d:02d}-May"])
def test_may_in_a_joined_style_stays_abbreviated_on_every_day(written, day):
    out = SHIFTER.shift(written.format(d=day), 60)
    assert not any(word in out.lower() for word in ("june", "july", "august"))


def test_a_padded_day_reads_may_as_the_abbreviated_style():
    assert SHIFTER.shift("May 06, 2019", -54) == "Mar 13, 2019"
    assert SHIFTER.shift("May 6, 2019", -54) == "March 13, 2019"


def test_may_takes_the_spelling_the_rest_of_the_note_uses():
    note = SHIFTER.note_style(["Apr 30, 2019", "May 15, 2019"])
    assert SHIFTER.shift("May 15, 2019", 30, note) == "Jun 14, 2019"
    note = SHIFTER.note_style(["April 30, 2019", "May 15, 2019"])
    assert SHIFTER.shift("May 15, 2019", 30, note) == "June 14, 2019"
    note = SHIFTER.note_style(["Jun 3", "May 15, 2019"])  # same family, another skeleton
    assert SHIFTER.shift("May 15, 2019", 30, note) == "Jun 14, 2019"


def test_an_undecidable_date_is_written_in_its_styles_default():
    """Every month-first date a "May" with a two-digit day: the note cannot show which style it is in."""
    note = SHIFTER.note_style(["May 16, 2018", "May 15, 2019"])
    assert SHIFTER.shift("May 16, 2018", 30, note) == "June 15, 2018"


def test_sept_june_and_july_follow_the_notes_scheme():
    assert SHIFTER.shift("Sept 3, 2019", 1) == "Sept 4, 2019"
    assert SHIFTER.shift("Aug 30, 2019", 5) == "Sep 04, 2019"  # alone: the standard abbreviation
    short = SHIFTER.note_style(["June 3, 2019", "Sept 3, 2019", "Aug 30, 2019"])
    assert SHIFTER.shift("Aug 30, 2019", 5, short) == "Sept 4, 2019"
    assert SHIFTER.shift("Sept 3, 2019", -90, short) == "June 5, 2019"
    sept = SHIFTER.note_style(["Jun 3, 2019", "Sept 3, 2019"])
    assert SHIFTER.shift("Sept 3, 2019", -90, sept) == "Jun 5, 2019"


def test_a_weekday_variant_is_a_scheme_not_kept_only_for_its_own_day():
    """Keeping "Tues" only when the new date is a Tuesday would say the offset is a whole number of weeks."""
    assert SHIFTER.shift("Tues 3/5/2019", 7) == "Tues 3/12/2019"
    assert SHIFTER.shift("Mon 3/4/2019", 1) == "Tue 3/5/2019"
    note = SHIFTER.note_style(["Tues 3/5/2019", "Mon 3/4/2019"])
    assert SHIFTER.shift("Mon 3/4/2019", 1, note) == "Tues 3/5/2019"
    assert SHIFTER.shift("Mon 3/4/2019", 3, note) == "Thurs 3/7/2019"


def test_padding_the_text_does_not_show_follows_the_note():
    assert SHIFTER.shift("Mar 15, 2019", -10) == "Mar 05, 2019"  # alone: "Mon dd, yyyy"
    note = SHIFTER.note_style(["Mar 15, 2019", "Apr 2, 2019"])
    assert SHIFTER.shift("Mar 15, 2019", -10, note) == "Mar 5, 2019"
    note = SHIFTER.note_style(["15 Mar 2019", "02 Apr 2019"])
    assert SHIFTER.shift("15 Mar 2019", -10, note) == "05 Mar 2019"
    assert SHIFTER.shift("15 Mar 2019", -10) == "5 Mar 2019"


def test_the_compact_form_is_always_padded_whatever_the_note_says():
    note = SHIFTER.note_style(["3/4/2019", "20191215"])
    assert SHIFTER.shift("20191215", -10, note) == "20191205"


# -- through the anonymizer: the note's own dates settle the form -----------------


def _patient_with_offset(anonymizer: Anonymizer, low: int, high: int) -> str:
    return next(p for p in (f"P{i}" for i in range(10_000)) if low <= anonymizer.patient_offset(p) <= high)


@pytest.mark.parametrize("written,fmt", [("Apr 03, 2019", "%b %d, %Y"), ("April 3, 2019", "%B %d, %Y")])
def test_the_anonymizer_writes_may_in_the_notes_own_style(written, fmt):
    anonymizer = Anonymizer(StudyKey.generate("format-property"))
    patient = _patient_with_offset(anonymizer, 20, 180)  # moves May 28 out of May
    text = f"Seen {written}; admitted May 28, 2019."
    start = text.index("May")
    note = Note("N1", text, patient, (Span(5, 5 + len(written), Category.DATE), Span(start, start + 12, Category.DATE)))
    out = anonymizer.anonymize(note)
    for span in out.spans:
        surrogate = span.text_in(out.text)
        parsed = datetime.strptime(surrogate, fmt)
        assert parsed.strftime(fmt).replace(" 0", " ") == surrogate.replace(" 0", " ")
        assert (" 0" in surrogate) == (fmt == "%b %d, %Y" and parsed.day < 10)


# -- the verification table's date styles ------------------------------------------


def test_every_stress_style_keeps_intervals_and_its_format_wherever_the_note_shows_it():
    rows = verify_date_styles(StudyKey.generate("styles"), n=2000)
    assert [r.style for r in rows] == list(DATE_STYLES)
    for row in rows:
        assert (row.notes, row.dates) == (400, 800)
        assert row.interval == 100.0 and row.format_kept_shown == 100.0 and row.alike_kept == 100.0
        assert row.passed
    strict = {r.style: r.format_kept for r in rows}
    assert strict["mm/dd/yyyy"] == strict["yyyy-mm-dd"] == strict["dd-Mon-yyyy"] == 100.0


def test_format_kept_is_measured_against_the_styles_own_writer():
    assert written_in("Mar 05, 2017", "%b %d, %Y") and not written_in("Mar 5, 2017", "%b %d, %Y")
    assert written_in("March 5, 2017", "%B %-d, %Y") and not written_in("March 05, 2017", "%B %-d, %Y")
    assert not written_in("06-January-2017", "%d-%b-%Y") and not written_in("MAR 05, 2017", "%b %d, %Y")


@pytest.mark.parametrize(
    "text",
    ["Seen 03/04/2019 (Monday) for follow-up.", "Seen on 03/04/2019 Mon. for review.", "Seen 03/04/2019, Monday at clinic"],
)
def test_a_weekday_after_a_date_is_part_of_its_date_span(text):
    from deid_core.recognizers.pipeline import build_default_pipeline

    spans = build_default_pipeline().analyze(text)
    assert any("Mon" in s.text_in(text) for s in spans if s.category is Category.DATE)


EVERY_DAY_STYLES = [
    Style("mdy", pad_m=False, pad_d=False, year_digits=2), Style("joined", sep="-", case="upper"),
    Style("month-first", months="abbr"), Style("month-first", months="abbr", pad_d=False, point=True),
    Style("month-first", months="full", pad_d=False, weekday="full"), Style("month-first", months="short", pad_d=False),
    Style("day-first", months="sept", ordinal=True, pad_d=False, case="lower", weekday="thur", weekday_after=" ("),
    Style("md-month-first", months="full", pad_d=False),
]


@pytest.mark.parametrize("style", EVERY_DAY_STYLES, ids=lambda s: s.write(date(2020, 5, 16)))
@pytest.mark.parametrize("days", [-180, -3, 17, 180])
def test_every_day_of_a_leap_year_keeps_its_format(style, days):
    """All twelve months and every day 1-31, Feb 29 among them, each in a note that shows its style."""
    first = date(2020, 1, 1)
    for n in range(366):
        day = first + timedelta(days=n)
        assert _shift_in_note(style, day, days) == style.write(day + timedelta(days=days))
