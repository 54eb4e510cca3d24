"""AGE: ages above 89 (in years) are capped; others are left as written.

Safe Harbor allows ages up to 89.  The unit matters: "1100 days" is three
years and stays; "91 y/o" becomes "89 y/o" (or "90+ y/o").
"""

from __future__ import annotations

import re

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_UNIT_DIVISORS = (
    (re.compile(r"\b(?:months?|mos?|mths?)\b|\d\s*mo\b", re.I), 12.0),
    (re.compile(r"\b(?:weeks?|wks?)\b|\d\s*w\b", re.I), 52.0),
    (re.compile(r"\b(?:days?)\b|\d\s*d\b", re.I), 365.0),
)


class AgeParseError(ValueError):
    pass


def age_in_years(text: str) -> float:
    match = _NUMBER.search(text)
    if match is None:
        raise AgeParseError("age span has no number")
    value = float(match.group())
    rest = text[match.start():]
    for pattern, divisor in _UNIT_DIVISORS:
        if pattern.search(rest):
            return value / divisor
    return value


def cap_age(text: str, cap: str = "89") -> str:
    """Replace the number of an age above 89 years by ``cap``; keep the rest of the span."""
    if age_in_years(text) <= 89:
        return text
    match = _NUMBER.search(text)
    assert match is not None
    return text[: match.start()] + cap + text[match.end():]
