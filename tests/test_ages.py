import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from deid_core.anonymizer.ages import AgeParseError, age_in_years, cap_age
from deid_core.anonymizer.engine import Anonymizer, Note
from deid_core.config import AnonymizerConfig
from deid_core.spans import Category, Span


@pytest.mark.parametrize(
    "text,expected",
    [
        ("91 y/o", "89 y/o"),
        ("95-year-old", "89-year-old"),
        ("age 103", "age 89"),
        ("89 years old", "89 years old"),
        ("72 yo", "72 yo"),
        ("18 months", "18 months"),
        ("1100 days", "1100 days"),
    ],
)
def test_ages_above_89_years_are_capped_and_others_kept(text, expected):
    assert cap_age(text) == expected


def test_cap_can_be_written_as_90_plus():
    assert cap_age("92 years", "90+") == "90+ years"


@pytest.mark.parametrize(
    "text,expected",
    [
        ("ninety-two", "eighty-nine"),
        ("Ninety-two year old", "Eighty-nine year old"),
        ("NINETY TWO", "EIGHTY-NINE"),
        ("one hundred and two years", "eighty-nine years"),
        ("seventy-two", "seventy-two"),
    ],
)
def test_spelled_out_ages_are_capped_in_words_not_masked(text, expected):
    assert cap_age(text) == expected


def test_spelled_out_age_under_90_plus_cap():
    assert cap_age("ninety-two years", "90+") == "ninety-plus years"


@pytest.mark.parametrize(
    "text,expected",
    [
        ("92 years 3 months", "89 years"),
        ("92 y 6 mo", "89 y"),
        ("92 years and 3 months old", "89 years old"),
        ("3 years 6 months", "3 years 6 months"),
    ],
)
def test_years_and_months_are_read_as_one_age_in_years(text, expected):
    assert cap_age(text) == expected


def test_years_and_months_add_up():
    assert age_in_years("92 y 6 mo") == pytest.approx(92.5)


@pytest.mark.parametrize(
    "text,cap,expected",
    [
        ("age 85-95", "89", "age 85-89"),
        ("age 85-95", "90+", "age 85-90+"),
        ("age 92-95", "89", "age 89"),
        ("92 to 95 years", "89", "89 years"),
        ("age 70-80", "89", "age 70-80"),
    ],
)
def test_each_end_of_an_age_range_is_capped(text, cap, expected):
    assert cap_age(text, cap) == expected


@pytest.mark.parametrize(
    "text,cap,decade,expected",
    [
        ("in her 90s", "89", None, "in her 80s"),
        ("in her 90s", "90+", None, "in her 90s"),
        ("in her 90s", "90+", "80s", "in her 80s"),
        ("in her 90s", "89", "90s", "in her 90s"),
        ("in his 100s", "90+", None, "in his 90s"),
        ("in her 90's", "89", None, "in her 80's"),
        ("in her nineties", "89", None, "in her eighties"),
        ("in her 80s", "89", None, "in her 80s"),
    ],
)
def test_decades_of_90_or_more_become_the_configured_decade(text, cap, decade, expected):
    assert cap_age(text, cap, decade) == expected


@pytest.mark.parametrize(
    "text,cap,expected",
    [
        ("1100 months", "89", "1068 months"),
        ("1100 months", "90+", "1080+ months"),
        ("40000 days", "89", "32485 days"),
        ("5000 weeks", "89", "4628 weeks"),
    ],
)
def test_month_week_and_day_counts_over_89_years_keep_their_unit(text, cap, expected):
    out = cap_age(text, cap)
    assert out == expected


@pytest.mark.parametrize("text,expected", [("９２歳", "８９歳"), ("٩٥ سنة", "٨٩ سنة")])
def test_age_in_other_digits_is_capped_in_the_same_digits(text, expected):
    assert cap_age(text) == expected


@pytest.mark.parametrize(
    "text,expected", [("92M", "89M"), ("92 M", "89 M"), ("92 F", "89 F"), ("92yo F", "89yo F")]
)
def test_age_with_sex_letter_is_read_in_years(text, expected):
    assert cap_age(text) == expected


def test_other_numbers_in_the_span_are_not_ages():
    assert cap_age("92 y/o G3P2") == "89 y/o G3P2"


def test_age_without_number_is_an_error():
    with pytest.raises(AgeParseError):
        cap_age("elderly")


def test_age_decade_setting_is_validated():
    with pytest.raises(ValidationError):
        AnonymizerConfig(age_decade="70s")


def test_age_decade_setting_reaches_the_engine(study_key):
    text = "Seen today, in her 90s, for a fall."
    start = text.index("in her")
    note = Note("n1", text, "p1", (Span(start, start + len("in her 90s"), Category.AGE),))
    plain = Anonymizer(study_key, AnonymizerConfig(age_cap="90+")).anonymize(note)
    eighties = Anonymizer(study_key, AnonymizerConfig(age_cap="90+", age_decade="80s")).anonymize(note)
    assert plain.text == text
    assert eighties.text == "Seen today, in her 80s, for a fall."


# -- property: no age above 89 years survives, whatever its form ------------------

_ONES = """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
fifteen sixteen seventeen eighteen nineteen""".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def _words(n: int) -> str:
    if n >= 100:
        rest = n - 100
        return "one hundred" + (f" and {_words(rest)}" if rest else "")
    if n < 20:
        return _ONES[n]
    return _TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else "")


_UNIT_WORDS = {"years": 1, "y": 1, "yo": 1, "-year-old": 1, "months": 12, "mo": 12, "weeks": 52, "days": 365}


@st.composite
def _age_spans(draw) -> tuple[str, float, int]:
    unit = draw(st.sampled_from(sorted(_UNIT_WORDS)))
    per_year = _UNIT_WORDS[unit]
    value = draw(st.integers(0, 130 * per_year))
    spelled = per_year == 1 and value < 200 and draw(st.booleans())
    number = _words(value) if spelled else str(value)
    form = draw(st.sampled_from(["plain", "range", "months-after"]))
    sep = "" if unit.startswith("-") else " "
    if form == "range":
        low = draw(st.integers(0, value))
        return f"age {low}-{number}{sep}{unit}", value / per_year, per_year
    if form == "months-after" and per_year == 1 and not unit.startswith("-"):
        months = draw(st.integers(1, 11))
        return f"{number} {unit} {months} mo", value + months / 12, per_year
    return f"{number}{sep}{unit}", value / per_year, per_year


@settings(max_examples=400, deadline=None)
@given(span=_age_spans())
def test_no_age_above_89_years_survives_in_any_form(span):
    text, years, per_year = span
    out = cap_age(text)
    assert age_in_years(out) <= 89
    assert all(int(figure) / per_year <= 89 for figure in re.findall(r"\d+", out))
    if years > 89:
        assert "ninety" not in out and "hundred" not in out
    else:
        assert out == text
