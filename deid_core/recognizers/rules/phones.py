"""Unit ``phone``: telephone, fax and pager numbers, North American and international.

A bare run of digits is a phone only after a phone word (``call``, ``cell``)
or in a phone's own shape; one after an identifier's label (``NHS No.``)
is left to the ``id`` unit.  Tests: ``tests/rules/test_phone.py``.
"""

from __future__ import annotations

import re

from deid_core.recognizers.rules.base import PatternRecognizer, PatternRule
from deid_core.recognizers.rules.nearby import digit_count
from deid_core.spans import Category

_I = re.IGNORECASE


_EXT_REQUIRED = r"[ \t]*,?[ \t]*(?i:x|ext\.?|extension|#)[ \t]*\d{1,6}(?!\d)"
_EXT = rf"(?:{_EXT_REQUIRED})?"
#: an extension spelt as one ("ext 230"), where "x 2" may count times
_EXT_WORD = re.compile(r"ext", re.I)
_PHONE_END = rf"(?:{_EXT_REQUIRED}|(?![\w/-]|\.\d))"
_PHONE_LABEL_LONG = (
    r"\b(?:phone|ph|t[ée]l|t[ée]l[ée]phone|telephone|cell|cellphone|mobile|mob|home|work|fax|facsimile|contact|call(?:ed)?|reach(?:ed)?|text|number)"
)
_PHONE_LABEL_SHORT = r"\b(?:pager|pgr|beeper|bpr|bleep|blp|page|paged|ext|extension)"
#: "their # 555-0103": a number sign right before a local number
_NUMBER_SIGN_BEFORE = re.compile(r"#[ \t]*\Z")
_PHONE_WORDS_BEFORE = re.compile(
    r"\b(?:phone|phoned|ph|t[ée]l|telephone|cell|cellphone|mobile|mob|call|called|calling|reach|reached|contact|text|texted|fax|faxed|ring|"
    r"pager|beeper|bleep|page|paged|number|voicemail|vm|line|hotline|home|work|office)\b[^\n]{0,30}$",
    _I,
)


#: words that label an identifier: a phone-shaped number after them is the identifier ("NHS No. 485 777 3456")
_ID_WORD_BEFORE = re.compile(
    r"(?:\b(?:NHS|CHI|MRN|SSN|SIN|medicare|medicaid|policy|member|subscriber|account|acct|claim|RAMQ|OHIP|IHI|URN|NPI|DEA)\b\.?"
    r"[ \t]*(?:no\.?|number|num|#|id)?"
    r"|\b(?:MR|UR|hosp(?:ital)?|clinic|chart|record|case|group|licen[cs]e|patient|pt)\b\.?[ \t]*(?:no\.?|number|num|#|id)|\bID)"
    r"[ \t]*[:#.=|]?[ \t]*$",
    re.IGNORECASE,
)


#: "ext" is also the short form of extubated: after it a clock time is when ("EXT 0930 TO 2L"), and three digits are
#: an extension only after it ("CALL CHARGE RN EXT 214"), never a pager
_EXT_LABEL = re.compile(r"ext|extension", re.I)


#: whose line an extension is: before it, four digits a clock could read are still the extension ("WORK EXT 2219",
#: "front desk ext 2204")
_LINE_OWNER_BEFORE = re.compile(r"\b(?:desk|work|office|phone|line|clinic|station|unit|nurse|charge|cell|home|main|direct|or|at)[ \t]*$", re.I)


def _pager_ok(text: str, m: re.Match[str]) -> bool:
    value = m.group("v")
    if not _EXT_LABEL.match(m.group(0)):
        return not (value.isdigit() and len(value) == 3)
    if re.search(r"\d[ \t]*,?[ \t]*$", text[max(0, m.start() - 4) : m.start()]):
        return False  # "555-0160 ext 212": the number it extends holds it
    return not _clock_time(value) or bool(_LINE_OWNER_BEFORE.search(text, max(0, m.start() - 16), m.start()))


def _not_id_labelled(text: str, m: re.Match[str]) -> bool:
    return not _ID_WORD_BEFORE.search(text[max(0, m.start() - 24) : m.start()])


_PHONE_RULES: tuple[PatternRule, ...] = (
    PatternRule(
        "nanp",
        Category.PHONE,
        re.compile(
            # "617\n555-0148": a number the line wrapped after its area code; area codes and exchanges never begin
            # with 0 or 1, which a range and a clock time do ("SBP 100-120 0400")
            r"(?<![\w.+/-])(?:\+?1[ \t.-]?)?(?:\([2-9]\d{2}\)[ \t]?|[2-9]\d{2}[ \t./-]|[2-9]\d{2}[ \t]*\n[ \t]*(?=[2-9]\d{2}-\d{4}))[2-9]\d{2}[ \t.-]\d{4}" + _PHONE_END,
            _I,
        ),
        score=0.95,
        accept=_not_id_labelled,
    ),
    PatternRule(
        "international",
        Category.PHONE,
        re.compile(r"(?<![\w+])\+[1-9]\d{0,2}(?:[ \t.-]?\(?\d{1,4}\)?){2,5}(?![\w])" + _EXT),
        score=0.9,
        accept=lambda text, m: 8 <= digit_count(m.group(0)) <= 16,
    ),
    PatternRule(
        "labelled",
        Category.PHONE,
        re.compile(
            _PHONE_LABEL_LONG
            + r"\b\.?[ \t]*(?:(?:is|at|me\s+at|back\s+at|number|no\.?|#)[ \t]*)*[:#=]?[ \t]*"
            r"(?P<v>(?:\d{3}[ \t.-]\d{4}|\d{10}|\d{3}\.\d{3}\.\d{4})" + _PHONE_END + ")",
            _I,
        ),
        score=0.85,
        group="v",
    ),
    PatternRule(
        "pager",
        Category.PHONE,
        re.compile(
            _PHONE_LABEL_SHORT + r"\b\.?[ \t]*(?:#|no\.?|number)?[ \t]*[:#,]?[ \t]*(?P<v>x?(?:\d{1,2}-\d{4}|\d{3,5})|\d{3}-\d{4}|\d{10})(?![\w/-]|\.\d)",
            _I,
        ),
        accept=_pager_ok,
        score=0.85,
        group="v",
    ),
    # "page ho at 5-2231", "paged dr. lee at 4-1187", "PAGED @ 4-6718", "paged (3-4410)", "PAGED HO @ 3318": the
    # number a person is paged at; four bare digits only where no clock reads them, since "paged ho at 0200" gives a time;
    # below, a dashed number needs no "at" ("PAGED NSGY 4-7719")
    PatternRule(
        "pager_addressed",
        Category.PHONE,
        re.compile(
            r"\b(?:page|paged|paging|beep|beeped|bleep|bleeped)(?:[ \t]+(?:[A-Za-z][\w.'-]*[ \t]+){0,3}(?:at|@|via)|[ \t]*\()[ \t]*"
            r"(?P<v>\d{1,2}-\d{4}|\d{3}-\d{4}|\d{4,5})(?![\w/-]|\.\d)",
            _I,
        ),
        accept=lambda text, m: not _clock_time(m.group("v")),
        score=0.8,
        group="v",
    ),
    PatternRule(
        "pager_paged",
        Category.PHONE,
        re.compile(
            r"\b(?:page|paged|paging|beeped|bleeped)[ \t]+(?:[A-Za-z][\w.'-]*[ \t]+){0,3}"
            r"(?P<v>\d{1,2}-\d{4}|\d{4,5})(?![\w/:-]|\.\d)",
            _I,
        ),
        accept=lambda text, m: not _clock_time(m.group("v")),  # "paged md 2300 re bp"; "page rt 5521 w/ questions" is a pager
        score=0.8,
        group="v",
    ),
    # "pager for plastics on call np is 4-7719", "pager for diabetes educator 7-3019": the pager's owner between label and number
    PatternRule(
        "pager_owner",
        Category.PHONE,
        re.compile(
            r"\b(?:pager|pgr|beeper|bleep)[ \t]+(?:for|of)(?:[ \t]+[A-Za-z][\w./'-]*){1,5}[ \t]*(?:(?:is|at|[:=])[ \t]*)?"
            r"(?P<v>\d{1,2}-\d{4}|\d{3}-\d{4})(?![\w/-]|\.\d)",
            _I,
        ),
        score=0.8,
        group="v",
    ),
)


def _clock_time(value: str) -> bool:
    """Four digits a 24-hour clock could read ("0200", "2359")."""
    return len(value) == 4 and value.isdigit() and int(value[:2]) <= 24 and int(value[2:]) <= 59


def _bare_phone_ok(text: str, m: re.Match[str]) -> bool:
    return bool(_PHONE_WORDS_BEFORE.search(text[max(0, m.start() - 45) : m.start()]))


_PHONE_RULES = _PHONE_RULES + (
    PatternRule(
        "bare_ten_digits",
        Category.PHONE,
        re.compile(r"(?<![\w./:,+-])(?:\+?1)?[2-9]\d{2}[2-9]\d{6}(?![\w/:-]|[.,]\d)" + _EXT),
        score=0.8,
        accept=_bare_phone_ok,
    ),
    # "LICSW, x5521": an extension on its own after a name or a comma
    PatternRule(
        "extension",
        Category.PHONE,
        re.compile(r"(?:(?<=, )|(?<=,)|(?<=\n))x[ \t]?(?P<v>\d{4,5})\b(?![ \t]*(?:mg|mcg|ml|units?|cells|times|/))", _I),
        score=0.6,
        group="v",
    ),
    # "CALL TRANSFER CTR X4417", "paged ortho x 5521", "UNIT PHONE X4471": an extension a few words after a calling word
    PatternRule(
        "extension_called",
        Category.PHONE,
        re.compile(
            r"\b(?:call|calls|called|calling|page|paged|paging|reach|reached|text|texted|phone|ph|tel)\b[^.\n;]{0,25}?(?<!ext)[ \t](?P<v>x[ \t]?\d{4,5})\b"
            r"(?![ \t]*(?:mg|mcg|ml|units?|cells|times|/))",
            _I,
        ),
        score=0.6,
        group="v",
    ),
    # An unlabelled ten-digit number shaped like a US phone number is more often a phone than an ID.
    PatternRule(
        "bare_nanp",
        Category.PHONE,
        re.compile(r"(?<![\w./:,+#-])[2-9]\d{2}[2-9]\d{6}(?![\w/:-]|[.,]\d)"),
        score=0.55,
    ),
)


def _local_phone_ok(text: str, m: re.Match[str]) -> bool:
    v = m.group(0)
    if not 8 <= digit_count(v) <= 11 or not _bare_phone_ok(text, m) or not _not_id_labelled(text, m):
        return False
    groups = re.findall(r"\d+", v)
    # "01 02 2024" is a date written with spaces
    return not (len(groups) == 3 and len(groups[2]) == 4 and groups[2][:2] in ("19", "20") and int(groups[1]) <= 12)


_PHONE_RULES = _PHONE_RULES + (
    # Trunk-prefixed numbers outside North America: "(07) 5555 0142", "0412 555 018", "061 555 018", "020 7946 0958"
    PatternRule(
        "trunk_prefixed",
        Category.PHONE,
        re.compile(r"(?<![\w+/.:-])(?:\(0\d{1,4}\)|0\d{1,4})(?:[ \t.-]?\d{2,4}){2,3}(?![\w/:-]|[.,]\d)" + _EXT),
        score=0.8,
        accept=_local_phone_ok,
    ),
)


def _spaced_trunk_ok(text: str, m: re.Match[str]) -> bool:
    return 10 <= digit_count(m.group(0)) <= 11 and _not_id_labelled(text, m)


_PHONE_RULES = _PHONE_RULES + (
    # "07700 900461", "0131 555 0140", "020 7946 0958": spaced trunk-prefixed numbers of ten or eleven digits need no cue
    PatternRule(
        "trunk_spaced",
        Category.PHONE,
        re.compile(r"(?<![\w+/.:-])0\d{2,4}[ \t](?:\d{6}|\d{3,4}[ \t]\d{3,4})(?![\w/:-]|[.,]\d|[ \t]\d)" + _EXT),
        score=0.75,
        accept=_spaced_trunk_ok,
    ),
    # "212- 476- 8356", "410 / 202 6694", "617-555- 0107", "(781) 555 - 0123": a US number typed with loose
    # separators, spaces around one of them
    PatternRule(
        "nanp_spaced",
        Category.PHONE,
        re.compile(
            r"(?<![\w.+/-])(?:\(?[2-9]\d{2}\)?(?:[ \t]*[-./][ \t]+|[ \t]+[-./][ \t]*)[2-9]\d{2}[ \t]*[-./]?[ \t]*"
            # the loose separator second: after an area code in brackets, or a dash typed against the exchange
            r"|\([2-9]\d{2}\)[ \t]*[2-9]\d{2}[ \t]*[-.][ \t]*|[2-9]\d{2}[ \t]*[-./]?[ \t]*[2-9]\d{2}-[ \t]+)"
            r"\d{4}(?![\w/-]|[.,]\d)"
        ),
        score=0.8,
        accept=_not_id_labelled,
    ),
    # "son called again 555-0152", "PH (555)-0118", "at 555-0160 ext 212": a local number without its area code,
    # after a phone word, or with an extension, which only a telephone has ("rn at 555-0181 ext 230")
    PatternRule(
        "local_seven",
        Category.PHONE,
        re.compile(r"(?<![\w./:(-])(?<!\) )(?<![\d)][ \t])(?:\([2-9]\d{2}\)[ \t-]?|[2-9]\d{2}-)\d{4}(?:(?P<ext>" + _EXT_REQUIRED + r")|(?![\w/-]|[.,]\d))"),
        score=0.75,
        accept=lambda text, m: (_EXT_WORD.search(m.group("ext") or "") or _bare_phone_ok(text, m) or _NUMBER_SIGN_BEFORE.search(text, max(0, m.start() - 4), m.start()))
        and _not_id_labelled(text, m),
    ),
    # "call after rounds x4-5521": an internal extension with its exchange digit
    PatternRule(
        "extension_dashed",
        Category.PHONE,
        re.compile(r"(?<![\w-])x[ \t]?\d{1,2}-\d{4}(?![\w-])"),
        score=0.7,
    ),
)


def phone_recognizer() -> PatternRecognizer:
    return PatternRecognizer("phone", _PHONE_RULES)
