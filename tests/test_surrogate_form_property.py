"""A surrogate's written form depends on how the original was written, never on its value.

Dates have their own properties (``test_date_format_property.py``); these
pin the same for identifiers (length, character class per position,
punctuation), phone numbers (grouping), names (case style) and ZIP codes
(Safe Harbor's 000 zone and nothing more).
"""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_core.anonymizer import pools
from deid_core.anonymizer.fpe import IdCipher
from deid_core.anonymizer.names import NameSurrogates
from deid_core.anonymizer.places import RESTRICTED_ZIP3, PlaceSurrogates
from deid_core.keys import Purpose, StudyKey

KEY = StudyKey.generate("surrogate-form")
IDS = IdCipher(KEY)
NAMES = NameSurrogates(KEY.subkey(Purpose.NAMES))
PLACES = PlaceSurrogates(KEY.subkey(Purpose.PLACES))


def _classes(text: str) -> str:
    """Each character as its class: 9 digit, A upper, a lower, anything else as itself."""
    return "".join("9" if c.isdigit() else "A" if c.isupper() else "a" if c.islower() else c for c in text)


# -- identifiers -------------------------------------------------------------------

_id_chars = st.sampled_from(string.digits + string.ascii_uppercase + string.ascii_lowercase)
_ids = st.lists(
    st.one_of(st.text(_id_chars, min_size=1, max_size=8), st.sampled_from(["-", "/", ".", " ", ":"])),
    min_size=1, max_size=5,
).map("".join).filter(lambda t: sum(c.isalnum() for c in t) >= 3 and t.strip() == t)


@settings(max_examples=400, deadline=None)
@given(identifier=_ids)
def test_an_identifier_keeps_its_length_classes_and_punctuation_whatever_its_value(identifier):
    out = IDS.encrypt(identifier, entity="ID")
    assert _classes(out) == _classes(identifier)


@settings(max_examples=200, deadline=None)
@given(digits=st.text(st.sampled_from(string.digits), min_size=3, max_size=12))
def test_leading_zeros_are_digits_like_any_other(digits):
    """An ID with leading zeros is written as digits of its length, not as a shorter number."""
    assert re.fullmatch(rf"[0-9]{{{len(digits)}}}", IDS.encrypt(digits, entity="ID"))


RADIX62 = IdCipher(KEY, alphabet="radix62")


@settings(max_examples=200, deadline=None)
@given(identifier=_ids)
def test_the_radix62_alphabet_keeps_length_punctuation_and_digits_only_ids_digits(identifier):
    """radix62 gives up classes by design; what it keeps must still come from the form alone."""
    out = RADIX62.encrypt(identifier, entity="ID")
    assert re.sub(r"[0-9A-Za-z]", "x", out) == re.sub(r"[0-9A-Za-z]", "x", identifier)
    content = re.sub(r"[^0-9A-Za-z]", "", identifier)
    if content.isdigit():
        assert re.sub(r"[^0-9A-Za-z]", "", out).isdigit()


# -- phone numbers -----------------------------------------------------------------

GROUPINGS = [
    "{3}-{3}-{4}", "({3}) {3}-{4}", "{3}.{3}.{4}", "{10}", "+1 {3} {3} {4}", "1-{3}-{3}-{4}",
    "+44 {2} {4} {4}", "{3}-{3}-{4} x{3}", "{3}-{4}",
]


@settings(max_examples=300, deadline=None)
@given(grouping=st.sampled_from(GROUPINGS), data=st.data())
def test_a_phone_number_keeps_its_grouping_whatever_its_digits(grouping, data):
    def group(match: re.Match[str]) -> str:
        n = int(match.group(1))
        first = data.draw(st.sampled_from("23456789"))  # a number, not a trunk prefix
        return first + data.draw(st.text(st.sampled_from(string.digits), min_size=n - 1, max_size=n - 1))

    phone = re.sub(r"\{(\d+)\}", group, grouping)
    out = IDS.encrypt(phone, entity="PHONE")
    assert re.sub(r"[0-9]", "9", out) == re.sub(r"[0-9]", "9", phone)
    for country in ("+1 ", "1-", "+44 "):  # a country code or trunk prefix is no part of the subscriber
        assert phone.startswith(country) == out.startswith(country)


# -- names -------------------------------------------------------------------------


def _plain_pool_names() -> list[str]:
    """Pool names whose own spelling is plain Title case (no inner capital, apostrophe or space)."""
    return [n for n in (*pools.first_names()[:3000], *pools.last_names()[:3000]) if re.fullmatch(r"[A-Z][a-z]+", n)]


PLAIN = _plain_pool_names()


@settings(max_examples=300, deadline=None)
@given(first=st.sampled_from(PLAIN), last=st.sampled_from(PLAIN),
       case=st.sampled_from(["upper", "lower", "title"]))
def test_a_name_keeps_its_case_style_whatever_the_name(first, last, case):
    written = {"upper": str.upper, "lower": str.lower, "title": str}[case](f"{first} {last}")
    out = NAMES.replace(written)
    letters = [c for c in out if c.isalpha()]
    if case == "upper":
        assert all(c.isupper() for c in letters if c.lower() != c)
    elif case == "lower":
        assert all(c.islower() for c in letters if c.upper() != c)
    else:
        assert all(word[0].isupper() for word in out.split())


@pytest.mark.xfail(
    strict=False,
    reason="names.py copies a mixed-case pattern letter by letter, so a Title-case surname with an inner "
    "capital (McDonald, DeShawn, LaToya) gives a surrogate with a capital at the same place, which says "
    "the original had a Mc/De/La-style spelling; names.py is not this module's to change",
)
@pytest.mark.parametrize("written", ["McDonald", "DeShawn", "LaToya", "MacArthur", "DiMaggio"])
def test_an_inner_capital_of_the_original_does_not_show_in_the_surrogate(written):
    out = NAMES.replace(written)
    pool_spelled = any(out == n for n in (*pools.first_names(), *pools.last_names()))
    assert pool_spelled or out == out.capitalize()


# -- ZIP codes ---------------------------------------------------------------------


@settings(max_examples=500, deadline=None)
@given(zone=st.integers(0, 999).map(lambda z: f"{z:03d}"), rest=st.integers(0, 99).map(lambda r: f"{r:02d}"),
       plus4=st.one_of(st.none(), st.integers(0, 9999).map(lambda p: f"{p:04d}")))
def test_a_zip_shows_its_released_zone_and_nothing_else_of_its_value(zone, rest, plus4):
    written = zone + rest + (f"-{plus4}" if plus4 else "")
    out = PLACES.zip_code(written)
    assert re.fullmatch(r"[0-9]{5}-[0-9]{4}" if plus4 else r"[0-9]{5}", out)
    assert out[:3] == ("000" if zone in RESTRICTED_ZIP3 else zone)
