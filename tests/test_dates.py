import hashlib
import hmac
import inspect
from datetime import date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_core import dates as dates_module
from deid_core.dates import (
    DateParseError,
    DateShifter,
    MissingPatientIdError,
    patient_offset_days,
)
from deid_core.keys import Purpose, StudyKey

REF = date(2020, 1, 1)
SHIFTER = DateShifter(reference=REF)
SUBKEY = bytes(range(32))

# (written date, detected format, resolved value, the same date shifted by +30 days)
# 2019-03-04 is a Monday; +30 days is Wednesday 2019-04-03.  Year-less dates
# resolve in 2020: 2020-03-04 (Wednesday) + 30 is Friday 2020-04-03.
FULL_DATES = [
    ("3/4/2019", "M/D/YYYY", date(2019, 3, 4), "4/3/2019"),
    ("03/04/2019", "MM/DD/YYYY", date(2019, 3, 4), "04/03/2019"),
    ("3/4/19", "M/D/YY", date(2019, 3, 4), "4/3/19"),
    ("03/04/19", "MM/DD/YY", date(2019, 3, 4), "04/03/19"),
    ("03-04-2019", "MM-DD-YYYY", date(2019, 3, 4), "04-03-2019"),
    ("3-4-2019", "M-D-YYYY", date(2019, 3, 4), "4-3-2019"),
    ("04.03.2019", "DD.MM.YYYY", date(2019, 3, 4), "03.04.2019"),
    ("4.3.19", "D.M.YY", date(2019, 3, 4), "3.4.19"),
    ("2019-03-04", "YYYY-MM-DD", date(2019, 3, 4), "2019-04-03"),
    ("2019/03/04", "YYYY/MM/DD", date(2019, 3, 4), "2019/04/03"),
    ("2019-03-04T14:30", "YYYY-MM-DDT{time}", datetime(2019, 3, 4, 14, 30), "2019-04-03T14:30"),
    ("2019-03-04 14:30:00", "YYYY-MM-DD {time}", datetime(2019, 3, 4, 14, 30), "2019-04-03 14:30:00"),
    ("3/4/2019 2:30 PM", "M/D/YYYY {time}", datetime(2019, 3, 4, 14, 30), "4/3/2019 2:30 PM"),
    ("20190304", "YYYYMMDD", date(2019, 3, 4), "20190403"),
    ("March 4, 2019", "MMMM D, YYYY", date(2019, 3, 4), "April 3, 2019"),
    ("Mar. 4, 2019", "MMM. D, YYYY", date(2019, 3, 4), "Apr. 3, 2019"),
    ("Mar 4 2019", "MMM D YYYY", date(2019, 3, 4), "Apr 3 2019"),
    ("March 4th, 2019", "MMMM Do, YYYY", date(2019, 3, 4), "April 3rd, 2019"),
    ("4 March 2019", "D MMMM YYYY", date(2019, 3, 4), "3 April 2019"),
    ("4th of March, 2019", "Do of MMMM, YYYY", date(2019, 3, 4), "3rd of April, 2019"),
    ("the 4th of March 2019", "the Do of MMMM YYYY", date(2019, 3, 4), "the 3rd of April 2019"),
    ("04-Mar-2019", "DD-MMM-YYYY", date(2019, 3, 4), "03-Apr-2019"),
    ("4-MAR-19", "D-MMM-YY", date(2019, 3, 4), "3-APR-19"),
    ("04Mar2019", "DDMMMYYYY", date(2019, 3, 4), "03Apr2019"),
    ("2019-Mar-04", "YYYY-MMM-DD", date(2019, 3, 4), "2019-Apr-03"),
    ("Monday, March 4, 2019", "dddd, MMMM D, YYYY", date(2019, 3, 4), "Wednesday, April 3, 2019"),
    ("Mon 03/04/2019", "ddd MM/DD/YYYY", date(2019, 3, 4), "Wed 04/03/2019"),
]
MONTH_YEAR = [  # anchored on the 15th: 2019-03-15 + 30 = 2019-04-14
    ("March 2019", "MMMM YYYY", date(2019, 3, 15), "April 2019"),
    ("Mar. 2019", "MMM. YYYY", date(2019, 3, 15), "Apr. 2019"),
    ("Mar-19", "MMM-YY", date(2019, 3, 15), "Apr-19"),
    ("Mar '19", "MMM 'YY", date(2019, 3, 15), "Apr '19"),
    ("03/2019", "MM/YYYY", date(2019, 3, 15), "04/2019"),
    ("2019-03", "YYYY-MM", date(2019, 3, 15), "2019-04"),
]
MONTH_DAY = [
    ("3/4", "M/D", date(2020, 3, 4), "4/3"),
    ("March 4", "MMMM D", date(2020, 3, 4), "April 3"),
    ("Mar 4th", "MMM Do", date(2020, 3, 4), "Apr 3rd"),
    ("4 March", "D MMMM", date(2020, 3, 4), "3 April"),
    ("the 4th of March", "the Do of MMMM", date(2020, 3, 4), "the 3rd of April"),
    ("04-Mar", "DD-MMM", date(2020, 3, 4), "03-Apr"),
    ("Wednesday, March 4", "dddd, MMMM D", date(2020, 3, 4), "Friday, April 3"),
]
YEAR_ONLY = [("2019", "YYYY", date(2019, 7, 1), "2019")]
ALL_FORMATS = FULL_DATES + MONTH_YEAR + MONTH_DAY + YEAR_ONLY
TWO_DIGIT_YEAR = {text for text, label, _, _ in ALL_FORMATS if "YY" in label and "YYYY" not in label}

ids = [case[0] for case in ALL_FORMATS]


# -- formats ------------------------------------------------------------------


def test_there_are_at_least_twenty_distinct_formats():
    assert len({label for _, label, _, _ in ALL_FORMATS}) >= 20


@pytest.mark.parametrize("text,label,value,_shifted", ALL_FORMATS, ids=ids)
def test_each_format_is_detected_and_resolved(text, label, value, _shifted):
    parsed = SHIFTER.parse(text)
    assert parsed.format == label
    assert parsed.value == value


@pytest.mark.parametrize("text,_label,_value,shifted", ALL_FORMATS, ids=ids)
def test_each_format_is_written_back_in_its_own_format(text, _label, _value, shifted):
    assert SHIFTER.shift(text, 30) == shifted


@pytest.mark.parametrize("text", ids)
def test_zero_shift_round_trips_every_format(text):
    assert SHIFTER.shift(text, 0) == text


@pytest.mark.parametrize(
    "text,shifted",
    [("  March 4, 2019 ", "  April 3, 2019 "), ("\t3/4/2019\n", "\t4/3/2019\n"), (" 2019 ", " 2019 ")],
)
def test_surrounding_whitespace_is_kept(text, shifted):
    assert SHIFTER.shift(text, 30) == shifted


# -- interval preservation ----------------------------------------------------

FOUR_DIGIT_DAY_FORMATS = [text for text, _, _, _ in FULL_DATES if text not in TWO_DIGIT_YEAR]
TWO_DIGIT_DAY_FORMATS = [text for text, _, _, _ in FULL_DATES if text in TWO_DIGIT_YEAR]


@settings(max_examples=60, deadline=None)
@given(
    day=st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31)),
    days=st.integers(min_value=-400, max_value=400),
)
@pytest.mark.parametrize("template", FOUR_DIGIT_DAY_FORMATS)
def test_shift_moves_every_full_date_by_exactly_the_offset(template, day, days):
    written = SHIFTER.parse(template).render(day)
    assert SHIFTER.parse(written).date == day
    assert SHIFTER.parse(SHIFTER.shift(written, days)).date - day == timedelta(days=days)


@settings(max_examples=60, deadline=None)
@given(
    # inside the default window 1941..2040, with room for the shift
    day=st.dates(min_value=date(1943, 1, 1), max_value=date(2038, 12, 31)),
    days=st.integers(min_value=-400, max_value=400),
)
@pytest.mark.parametrize("template", TWO_DIGIT_DAY_FORMATS)
def test_shift_moves_two_digit_year_dates_by_exactly_the_offset(template, day, days):
    written = SHIFTER.parse(template).render(day)
    assert SHIFTER.parse(SHIFTER.shift(written, days)).date - day == timedelta(days=days)


@settings(max_examples=60, deadline=None)
@given(
    day=st.dates(min_value=date(2020, 1, 1), max_value=date(2020, 12, 31)),
    days=st.integers(min_value=-180, max_value=180),
)
@pytest.mark.parametrize("template", [text for text, _, _, _ in MONTH_DAY])
def test_month_day_dates_shift_within_the_reference_year(template, day, days):
    written = SHIFTER.parse(template).render(day)
    out = SHIFTER.parse(SHIFTER.shift(written, days))
    expected = day + timedelta(days=days)
    assert (out.date.month, out.date.day) == (expected.month, expected.day)
    assert not out.has_year


@settings(max_examples=100, deadline=None)
@given(days=st.integers(min_value=-180, max_value=180))
def test_coarse_dates_shift_their_anchor_and_keep_their_precision(days):
    month = date(2019, 3, 15) + timedelta(days=days)
    out = SHIFTER.parse(SHIFTER.shift("March 2019", days))
    assert (out.date.year, out.date.month) == (month.year, month.month)
    assert out.granularity == "month"
    year = date(2019, 7, 1) + timedelta(days=days)
    assert SHIFTER.shift("2019", days) == str(year.year)


@given(
    first=st.dates(min_value=date(1950, 1, 1), max_value=date(2050, 12, 31)),
    gap=st.integers(min_value=0, max_value=3650),
    patient=st.text(min_size=1, max_size=12).filter(str.strip),
)
def test_two_dates_of_one_patient_keep_their_interval(first, gap, patient):
    offset = patient_offset_days(SUBKEY, patient)
    second = first + timedelta(days=gap)
    a = SHIFTER.shift(first.strftime("%m/%d/%Y"), offset)
    b = SHIFTER.shift(second.isoformat(), offset)
    assert SHIFTER.parse(b).date - SHIFTER.parse(a).date == timedelta(days=gap)


# -- rendering details ----------------------------------------------------------


def test_weekday_is_recomputed_for_the_shifted_date():
    assert SHIFTER.shift("Monday, March 4, 2019", 1) == "Tuesday, March 5, 2019"
    assert SHIFTER.shift("Mon., Mar. 4, 2019", 5) == "Sat., Mar. 9, 2019"
    assert SHIFTER.shift("Tues 3/5/2019", 9) == "Thurs 3/14/2019"  # "Tues" names a scheme, not one day


@pytest.mark.parametrize(
    "text,shifted",
    [
        ("03/04/2019 (Monday)", "04/03/2019 (Wednesday)"),
        ("March 4, 2019, Mon.", "April 3, 2019, Wed."),
        ("04-MAR-2019 MON", "03-APR-2019 WED"),
        ("Mar 4 (Wed)", "Apr 3 (Fri)"),
    ],
)
def test_a_weekday_written_after_the_date_is_recomputed_too(text, shifted):
    assert SHIFTER.shift(text, 30) == shifted


@pytest.mark.parametrize(
    "text,shifted",
    [
        ("MARCH 4, 2019", "APRIL 3, 2019"),
        ("march 4, 2019", "april 3, 2019"),
        ("March 4, 2019", "April 3, 2019"),
        ("MONDAY 04-MAR-2019", "WEDNESDAY 03-APR-2019"),
        ("4TH OF MARCH, 2019", "3RD OF APRIL, 2019"),
    ],
)
def test_case_of_names_and_suffixes_is_kept(text, shifted):
    assert SHIFTER.shift(text, 30) == shifted


@pytest.mark.parametrize(
    "days,suffix", [(-2, "1st"), (-1, "2nd"), (0, "3rd"), (1, "4th"), (8, "11th"), (9, "12th"), (10, "13th"),
                    (18, "21st"), (19, "22nd"), (20, "23rd")]
)
def test_ordinal_suffix_is_recomputed(days, suffix):
    assert SHIFTER.shift("March 3rd, 2019", days) == f"March {suffix}, 2019"


def test_sept_abbreviates_the_other_months_in_three_letters():
    assert SHIFTER.shift("Sept 3, 2019", 1) == "Sept 4, 2019"
    assert SHIFTER.shift("Sept 3, 2019", 30) == "Oct 3, 2019"


def test_may_with_a_period_is_read_as_an_abbreviation():
    assert SHIFTER.shift("May. 3, 2019", 30) == "Jun. 2, 2019"
    assert SHIFTER.shift("May 3, 2019", 30) == "June 2, 2019"


def test_zero_padding_is_kept_per_field():
    assert SHIFTER.shift("3/04/2019", 30) == "4/03/2019"
    assert SHIFTER.shift("03/4/2019", 30) == "04/3/2019"


def test_field_whose_padding_is_unseen_follows_its_sibling():
    assert SHIFTER.shift("12/5/2019", 30) == "1/4/2020"
    assert SHIFTER.shift("12/05/2019", 30) == "01/04/2020"
    assert SHIFTER.shift("11/15/2019", 60) == "01/14/2020"  # numeric default: padded
    assert SHIFTER.shift("March 15, 2019", -10) == "March 5, 2019"  # prose default: not padded


def test_time_of_day_is_kept_and_validated():
    assert SHIFTER.shift("2019-03-04T23:59:59.5Z", -4) == "2019-02-28T23:59:59.5Z"
    assert SHIFTER.parse("3/4/2019 12:05 am").value == datetime(2019, 3, 4, 0, 5)
    for bad in ("2019-03-04T24:00", "2019-03-04 10:61", "3/4/2019 13:00 PM"):
        with pytest.raises(DateParseError, match="time of day"):
            SHIFTER.parse(bad)


# -- ambiguity and the reference date -------------------------------------------


def test_numeric_dates_are_month_first_unless_day_first():
    assert SHIFTER.parse("03/04/2019").date == date(2019, 3, 4)
    european = DateShifter(reference=REF, day_first=True)
    assert european.parse("03/04/2019").date == date(2019, 4, 3)
    assert european.shift("03/04/2019", 30) == "03/05/2019"


def test_a_numeric_order_that_cannot_be_a_date_falls_back_to_the_other():
    assert SHIFTER.parse("15/03/2019").date == date(2019, 3, 15)
    assert SHIFTER.shift("15/03/2019", 30) == "14/04/2019"
    assert DateShifter(reference=REF, day_first=True).parse("03/15/2019").date == date(2019, 3, 15)


def test_dotted_numeric_dates_are_day_first():
    assert SHIFTER.parse("04.03.2019").date == date(2019, 3, 4)


def test_dates_without_a_year_take_the_reference_year():
    assert SHIFTER.parse("Feb 29").date == date(2020, 2, 29)
    later = DateShifter(reference=date(2023, 6, 30))
    assert later.parse("March 4").date == date(2023, 3, 4)
    assert later.shift("Wednesday, March 4", 0) == "Saturday, March 4"  # 2023-03-04 was a Saturday


@pytest.mark.parametrize("written", ["Feb 29", "29 February", "2/29", "29-Feb"])
def test_a_year_less_leap_day_takes_the_last_leap_year_instead_of_being_masked(written):
    """Masking only Feb 29 would name the masked date; it resolves in the last leap year up to the reference."""
    later = DateShifter(reference=date(2023, 6, 30))
    assert later.parse(written).date == date(2020, 2, 29)
    assert later.parse(later.shift(written, 1)).date.timetuple()[1:3] == (3, 1)


def test_month_day_shift_may_cross_the_year_and_still_shows_no_year():
    assert SHIFTER.shift("December 20", 20) == "January 9"


def test_two_digit_years_resolve_in_a_window_ending_twenty_years_after_reference():
    assert SHIFTER.parse("3/4/40").date.year == 2040
    assert SHIFTER.parse("3/4/41").date.year == 1941
    custom = DateShifter(reference=REF, two_digit_window_end=2025)
    assert custom.parse("3/4/25").date.year == 2025
    assert custom.parse("3/4/26").date.year == 1926


def test_two_digit_year_is_written_with_the_shifted_years_last_digits():
    assert SHIFTER.shift("12/31/99", 1) == "01/01/00"
    assert SHIFTER.shift("1-JAN-00", -1) == "31-DEC-99"


def test_same_input_and_reference_give_the_same_output():
    a = DateShifter(reference=date(2021, 5, 5))
    b = DateShifter(reference=date(2021, 5, 5))
    for text in ids:
        assert a.shift(text, 17) == b.shift(text, 17)


def test_nothing_reads_the_clock():
    source = inspect.getsource(dates_module)
    for call in ("today(", "now(", "utcnow(", "time.time", "localtime"):
        assert call not in source


# -- errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["feast day", "", "   ", "Feb 30, 2019", "13/13/2019", "00/10/2019", "2019-02-29", "Smarch 3, 2019",
     "3/4/2019/5", "2019-13", "the 32nd of March", "20191301", "3" * 200],
)
def test_unparseable_or_impossible_dates_raise(text):
    with pytest.raises(DateParseError):
        SHIFTER.shift(text, 10)


def test_error_messages_do_not_echo_the_text():
    for text in ("Feb 30, 2019", "feast day 1234"):
        with pytest.raises(DateParseError) as info:
            SHIFTER.parse(text)
        assert text not in str(info.value) and "2019" not in str(info.value)


def test_shift_past_the_calendar_raises():
    with pytest.raises(DateParseError):
        SHIFTER.shift("12/31/9999", 1)


# -- per-patient offsets ----------------------------------------------------------

PATIENTS = [f"P{i:05d}" for i in range(3000)]


def test_offset_is_the_documented_hmac_construction():
    for patient in ("P1", "MRN-0042", "ünïcode"):
        digest = hmac.new(SUBKEY, b"date_jitter_v1:" + patient.encode("utf-8"), hashlib.sha256).digest()
        magnitude = 3 + int.from_bytes(digest[:4], "big") % 178
        expected = -magnitude if digest[4] % 2 else magnitude
        assert patient_offset_days(SUBKEY, patient) == expected


def test_offsets_stay_in_range_and_take_both_signs():
    offsets = [patient_offset_days(SUBKEY, p) for p in PATIENTS]
    assert all(3 <= abs(d) <= 180 for d in offsets)
    negative = sum(d < 0 for d in offsets)
    assert 0.4 < negative / len(offsets) < 0.6
    assert min(offsets) <= -170 and max(offsets) >= 170
    assert len(set(offsets)) > 330  # of the 356 possible values


def test_different_patients_mostly_get_different_offsets():
    offsets = [patient_offset_days(SUBKEY, p) for p in PATIENTS[:500]]
    pairs = list(zip(offsets, offsets[1:]))
    assert sum(a == b for a, b in pairs) < 10  # ~1/356 expected


def test_offset_is_deterministic_and_depends_on_the_key(study_key, other_key):
    key = study_key.subkey(Purpose.DATES)
    same = StudyKey(study_key.study, salt=study_key.salt, key=study_key.key).subkey(Purpose.DATES)
    assert [patient_offset_days(key, p) for p in PATIENTS[:50]] == [
        patient_offset_days(same, p) for p in PATIENTS[:50]
    ]
    other = other_key.subkey(Purpose.DATES)
    differing = sum(patient_offset_days(key, p) != patient_offset_days(other, p) for p in PATIENTS[:50])
    assert differing > 40


@pytest.mark.parametrize("patient", ["", "   ", None])
def test_missing_patient_id_raises(patient):
    with pytest.raises(MissingPatientIdError):
        patient_offset_days(SUBKEY, patient)
    assert issubclass(MissingPatientIdError, ValueError)
