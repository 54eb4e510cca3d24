"""AGE: ages above 89 (in years) are capped; others are left as written.

Safe Harbor allows ages up to 89.  An age span is read as a sequence of
numbers, each with its unit, so every form a note uses is capped in place:

* units: "1100 days" is three years and stays; "1100 months" is 91 years
  and becomes the cap counted in months ("1068 months");
* years and months together ("92 years 3 months", "92 y 6 mo") add up, and
  a capped age drops its smaller parts ("89 years");
* ranges ("age 85-95", "92 to 95 years") cap each end, and collapse to the
  cap when both ends are above it;
* decades ("in her 90s", "nineties") become the configured decade;
* numbers spelled out ("ninety-two") are capped in words ("eighty-nine").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: The two sanctioned caps, in figures and in words.
_CAP_WORDS = {"89": "eighty-nine", "90+": "ninety-plus"}
_CAP_YEARS = {"89": 89, "90+": 90}
_MAX_YEARS = 89

_UNITS = {
    "ninety": 90, "eighty": 80, "seventy": 70, "sixty": 60, "fifty": 50, "forty": 40,
    "thirty": 30, "twenty": 20, "nineteen": 19, "eighteen": 18, "seventeen": 17,
    "sixteen": 16, "fifteen": 15, "fourteen": 14, "thirteen": 13, "twelve": 12,
    "eleven": 11, "ten": 10, "nine": 9, "eight": 8, "seven": 7, "six": 6, "five": 5,
    "four": 4, "three": 3, "two": 2, "one": 1, "zero": 0,
}
_DECADE_WORDS = {
    "nineties": 90, "eighties": 80, "seventies": 70, "sixties": 60, "fifties": 50,
    "forties": 40, "thirties": 30, "twenties": 20, "teens": 10,
}
_WORD_NUMBER = "|".join(sorted(_UNITS, key=len, reverse=True))
#: "ninety-two", "one hundred and one", "a hundred": the words of one number.
_SPELLED = (
    rf"(?:(?:a|one|{_WORD_NUMBER})[\s-]+hundred"
    rf"(?:[\s-]+(?:and[\s-]+)?(?:{_WORD_NUMBER})(?:[\s-]+(?:{_WORD_NUMBER}))?)?"
    rf"|(?:{_WORD_NUMBER})(?:[\s-]+(?:{_WORD_NUMBER}))?)"
)
_TOKEN = re.compile(
    rf"(?P<decade>(?<![\w.])(?:\d{{2,3}}(?:'|’)?s|{'|'.join(_DECADE_WORDS)})\b)"
    rf"|(?P<figure>(?<![\w.])\d+(?:\.\d+)?)"
    rf"|(?P<words>\b{_SPELLED}\b)",
    re.I,
)
#: A unit right after a number, and what it divides by to give years.
#: A bare "m" is no unit: "92M" and "92 M" are an age and a sex, so they are years.
_UNIT = re.compile(
    r"\s*-?\s*(?:(?P<years>years?|yrs?|y)(?![a-z])"
    r"|(?P<months>months?|mos?|mths?)(?![a-z])"
    r"|(?P<weeks>weeks?|wks?|(?-i:w))(?![a-z])"
    r"|(?P<days>days?|(?-i:d))(?![a-z]))",
    re.I,
)
_PER_YEAR = {"years": 1.0, "months": 12.0, "weeks": 52.0, "days": 365.0}
#: What joins two ends of a range, or the parts of "92 years 3 months".
_RANGE = re.compile(r"\s*(?:-|–|—|to)\s*", re.I)
_AND = re.compile(r"\s*(?:,|and)?\s*", re.I)


class AgeParseError(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class _Number:
    start: int
    end: int
    value: float
    spelled: bool
    unit: str | None  # None when no unit follows; a bare number is read in years
    unit_end: int


def _spelled_value(words: str) -> int:
    """"ninety-two" is 92, "a hundred and one" 101."""
    value = 0
    for word in re.split(r"[\s-]+", words.casefold()):
        if word == "hundred":
            value = max(value, 1) * 100
        elif word not in ("a", "and"):
            value += _UNITS[word]
    return value


def _numbers(text: str) -> tuple[list[_Number], list[tuple[int, int, int]]]:
    """The counts of an age span with their units, and its decades (start, end, decade)."""
    numbers: list[_Number] = []
    decades: list[tuple[int, int, int]] = []
    for m in _TOKEN.finditer(text):
        if m.group("decade"):
            word = m.group("decade")
            value = _DECADE_WORDS.get(word.casefold()) or int(re.match(r"\d+", word).group())
            decades.append((m.start(), m.end(), value))
            continue
        spelled = m.group("words") is not None
        value = float(_spelled_value(m.group()) if spelled else m.group())
        unit = _UNIT.match(text, m.end())
        name = next((k for k, v in unit.groupdict().items() if v), None) if unit else None
        numbers.append(_Number(m.start(), m.end(), value, spelled, name, unit.end() if unit else m.end()))
    return numbers, decades


def _groups(text: str, numbers: list[_Number]) -> list[list[_Number]]:
    """One age per group: a count with its smaller parts ("92 years 3 months")."""
    groups: list[list[_Number]] = []
    for number in numbers:
        if groups:
            last = groups[-1][-1]
            joined = _AND.fullmatch(text, last.unit_end, number.start)
            if (
                joined
                and last.unit is not None
                and number.unit is not None
                and _PER_YEAR[number.unit] > _PER_YEAR[last.unit]
            ):
                groups[-1].append(number)
                continue
        groups.append([number])
    return groups


def _units_of(text: str, groups: list[list[_Number]]) -> list[str]:
    """The unit of each group; the first end of a range ("85-95 years") takes the second's."""
    units = [g[0].unit or "years" for g in groups]
    for i in range(len(groups) - 1, 0, -1):
        first, second = groups[i - 1], groups[i]
        if first[0].unit is None and len(first) == 1 and _RANGE.fullmatch(text, first[0].end, second[0].start):
            units[i - 1] = units[i]
    return units


def age_in_years(text: str) -> float:
    """The oldest age a span states, in years."""
    numbers, decades = _numbers(text)
    if not numbers and not decades:
        raise AgeParseError("age span has no number")
    groups = _groups(text, numbers)
    ages = [_years(group, unit) for group, unit in zip(groups, _units_of(text, groups))]
    return max(ages + [float(d) for _, _, d in decades])


def _years(group: list[_Number], unit: str) -> float:
    return sum(n.value / _PER_YEAR[n.unit or unit] for n in group)


def _match_case(model: str, word: str) -> str:
    if model.isupper():
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _in_script(figures: str, model: str) -> str:
    """ASCII figures written in the digits of ``model`` ("９２" is capped as "８９")."""
    zero = ord(model) - unicodedata.decimal(model)
    return "".join(chr(zero + int(d)) for d in figures)


def _decade_surrogate(written: str, decade: str) -> str:
    """"90s", "90's" or "nineties" as the configured decade, in the same form."""
    if written[0].isdigit():
        return decade[:-1] + written[re.match(r"\d+", written).end():]
    return _match_case(written, "nineties" if decade == "90s" else "eighties")


def cap_age(text: str, cap: str = "89", decade: str | None = None) -> str:
    """Cap every age above 89 years in an age span; keep the rest of the span.

    ``cap`` is "89" or "90+"; ``decade`` ("90s" or "80s") is what a decade of
    90 or more becomes, by default "90s" under the "90+" cap and "80s" otherwise.
    """
    if cap not in _CAP_YEARS:
        raise ValueError(f"unknown age cap {cap!r}")
    decade = decade or ("90s" if cap == "90+" else "80s")
    if decade not in ("90s", "80s"):
        raise ValueError(f"unknown age decade {decade!r}")
    numbers, decades = _numbers(text)
    if not numbers and not decades:
        raise AgeParseError("age span has no number")
    edits: list[tuple[int, int, str]] = []
    for start, end, value in decades:
        if value > _MAX_YEARS // 10 * 10:
            edits.append((start, end, _decade_surrogate(text[start:end], decade)))
    groups = _groups(text, numbers)
    units = _units_of(text, groups)
    capped = [_years(g, u) > _MAX_YEARS for g, u in zip(groups, units)]
    for i, (group, unit) in enumerate(zip(groups, units)):
        if not capped[i]:
            continue
        head = group[0]
        if head.spelled:
            written = _match_case(text[head.start : head.end], _CAP_WORDS[cap])
        else:
            count = _CAP_YEARS[cap] * int(_PER_YEAR[unit])
            written = _in_script(str(count), text[head.start]) + ("+" if cap == "90+" else "")
        end = group[-1].unit_end if len(group) > 1 else head.end
        if len(group) > 1:
            written += text[head.end : head.unit_end]
        previous = groups[i - 1][-1] if i > 0 else None
        if previous and capped[i - 1] and _RANGE.fullmatch(text, previous.end, head.start):
            edits.append((previous.end, head.end, ""))  # both ends above the cap: one cap
        else:
            edits.append((head.start, end, written))
    out = text
    for start, end, written in sorted(edits, reverse=True):
        out = out[:start] + written + out[end:]
    return out
