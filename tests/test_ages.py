import pytest

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


@pytest.mark.parametrize("text,expected", [("92M", "89M"), ("92 M", "89 M"), ("92 F", "89 F"), ("92yo F", "89yo F")])
def test_age_with_sex_letter_is_read_in_years(text, expected):
    assert cap_age(text) == expected


def test_other_numbers_in_the_span_are_not_ages():
    assert cap_age("92 y/o G3P2") == "89 y/o G3P2"


def test_age_without_number_is_an_error():
    with pytest.raises(AgeParseError):
        cap_age("elderly")


def test_age_decade_setting_reaches_the_engine(study_key):
    text = "Seen today, in her 90s, for a fall."
    start = text.index("in her")
    note = Note("n1", text, "p1", (Span(start, start + len("in her 90s"), Category.AGE),))
    plain = Anonymizer(study_key, AnonymizerConfig(age_cap="90+")).anonymize(note)
    eighties = Anonymizer(study_key, AnonymizerConfig(age_cap="90+", age_decade="80s")).anonymize(note)
    assert plain.text == text
    assert eighties.text == "Seen today, in her 80s, for a fall."
