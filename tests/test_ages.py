import pytest

from deid_core.anonymizer.ages import AgeParseError, cap_age


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


def test_age_without_number_is_an_error():
    with pytest.raises(AgeParseError):
        cap_age("ninety")
