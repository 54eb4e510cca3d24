"""Unit ``id``: record, account, device and licence numbers, SSNs, with or without a label.

The span is the value without its label (``MRN: [00123456]``).  A labelled
value that is a measure (``Ht 108 cm``), a date or a clinical finding is no
identifier, nor is a code that names a standard (``ICD-10``, ``PHQ-9``).
Lists: ``deid_core/data/rules/ids/``.  Tests: ``tests/rules/test_id.py``.
"""

from __future__ import annotations

import re

from deid_core.recognizers.lexicon import default_lexicon, rule_list
from deid_core.recognizers.rules.base import PatternRecognizer, PatternRule
from deid_core.recognizers.rules.nearby import CLOCK_TIME, digit_count
from deid_core.spans import Category

_I = re.IGNORECASE


_ID_LABELS = (
    r"MRN|MR#|MR[ \t]+(?:number|no\.?|#)|med(?:ical)?[ \t]*rec(?:ord)?s?(?:[ \t]+(?:number|no\.?|#))?|record[ \t]*(?:number|no\.?|#)"
    r"|unit[ \t]+(?:number|no\.?|#)|acct|account(?:[ \t]+(?:number|no\.?|#))?|acc(?:ession)?[ \t]*(?:number|no\.?|#)|accession"
    r"|member[ \t]*(?:id|number|no\.?|#)|subscriber[ \t]*(?:id|number|no\.?|#)|policy(?:[ \t]+(?:number|no\.?|#|id))?"
    r"|group[ \t]*(?:number|no\.?|#)|insurance[ \t]*(?:id|number|no\.?|#)|health[ \t]*plan(?:[ \t]+(?:id|number|no\.?|#))?"
    r"|beneficiary[ \t]*(?:id|number|no\.?|#)|medicare(?:[ \t]+(?:id|number|no\.?|#))|medicaid(?:[ \t]+(?:id|number|no\.?|#))"
    r"|hospital[ \t]*(?:number|no\.?|#)|NHS[ \t]*(?:number|no\.?|#)|CHI[ \t]*(?:number|no\.?|#)"
    r"|participant[ \t]*(?:id|number|no\.?|#)|enrollee[ \t]*(?:id|number|no\.?|#)|recipient[ \t]*(?:id|number|no\.?|#)"
    r"|lot(?=[ \t]*[:#]?[ \t]*(?-i:(?=[A-Z]*\d)[A-Z0-9]{4,12})(?![\w-]))"
    r"|NPI|DEA(?:[ \t]*(?:number|no\.?|#))?|licen[cs]e[ \t]*(?:number|no\.?|#)|lic\.?[ \t]*#|lic\.?(?=[ \t]*[:#]?[ \t]*[A-Z]{0,5}-?\d)"
    r"|encounter(?:[ \t]+(?:id|number|no\.?|#))?|enc[ \t]*(?:id|#|no\.?)|CSN|FIN|HAR|visit[ \t]*(?:id|number|no\.?|#)"
    r"|case[ \t]*(?:id|number|no\.?|#)|order[ \t]*(?:id|number|no\.?|#)|specimen(?:[ \t]+(?:id|number|no\.?|#))?"
    r"|sample[ \t]*(?:id|number|no\.?|#)|requisition(?:[ \t]+(?:number|no\.?|#))?|req[ \t]*#"
    r"|serial(?:[ \t]+(?:number|no\.?|#))?|S/N|device[ \t]*(?:id|serial|number|no\.?|#)|lot[ \t]*(?:number|no\.?|#)"
    r"|model[ \t]*(?:number|no\.?|#)|UDI|patient[ \t]*(?:id|number|no\.?|#)|pt[ \t]*(?:id|#)|study[ \t]*(?:id|number|no\.?|#)"
    r"|subject[ \t]*(?:id|number|no\.?|#)|claim[ \t]*(?:id|number|no\.?|#)|confirmation[ \t]*(?:number|no\.?|#)"
    r"|ref(?:erence)?[ \t]*(?:number|no\.?|#)|badge(?:[ \t]+(?:number|no\.?|#))?|employee[ \t]*(?:id|number|no\.?|#)"
    r"|passport(?:[ \t]+(?:number|no\.?|#))?|driver'?s?[ \t]+licen[cs]e(?:[ \t]+(?:number|no\.?|#))?|DL[ \t]*#|VIN"
    r"|plate[ \t]*(?:number|no\.?|#)|plate(?=[ \t]*:?[ \t]*(?=[A-Z0-9-]*[A-Z])(?=[A-Z0-9-]*\d)[A-Z0-9]{2,4}-?[A-Z0-9]{2,5}(?![\w-]))|tag(?=[ \t]*:?[ \t]*[A-Z]{2,4}-\d{3,5}(?![\w-]))|certificate[ \t]*(?:number|no\.?|#)|ID[ \t]*(?:number|no\.?|#)|identifier"
    r"|acc#|acct#|mrn#|id(?=[ \t]*[:#])|chart[ \t]*(?:number|no\.?|#)|barcode|tracking[ \t]*(?:number|no\.?|#)"
    # health-card and record numbers outside the US, and labels that take any identifier after them
    r"|URN|UR[ \t]*(?:number|no\.?|#)|RAMQ|OHIP|IHI|MBI|HIC|PHN|health[ \t]*card(?:[ \t]+(?:number|no\.?|#))?"
    r"|licen[cs]e(?=[ \t]*[:#]?[ \t]*[A-Z]{0,5}[-.]?\d)|(?:case[ \t]+)?ref(?:erence)?(?=[ \t]*[:#]?[ \t]*[A-Z]{0,5}[-/]?[A-Z]{0,4}[-/]?\d)"
    r"|medicare|medicaid|last[ \t]*(?:4|four)(?:[ \t]+(?:of[ \t]+)?(?:SSN|SS\#|social))?|group(?=[ \t]*[:#]?[ \t]*[A-Z]{0,4}-?\d{4})"
    r"|EDIPI|DoD[ \t]*ID|DVA|TRN|CHI(?=[ \t]*[:#]?[ \t]*\d)|(?-i:SN)(?=[ \t]*[:#]?[ \t]*[A-Z0-9]{0,6}-?\d)"
    # a blood unit or a membership written with its value and no "number": "unit W0362 24 118457", "member GSH-4471098-02"
    r"|unit(?=[ \t]+[A-Z]\d{3,})|member(?=[ \t]+[A-Z]{1,5}-?\d{4,})|service[ \t]*(?:number|no\.?|#)|SUS|CNS|NHC|NIR|NSS|CURP|RFC|NHI|PPSN?|BSN|AHV|SVNR|expediente"
    r"|(?:n[úu]mero[ \t]+de[ \t]+)?historia(?:[ \t]+cl[íi]nica)?|prontu[áa]rio|dossier|hosp\.?[ \t]*(?:no\.?|#|number)"
    r"|(?-i:ID)(?=[ \t]+(?:[A-Z]{1,5}-?)?\d)|(?-i:INC|Inc)(?=[ \t]*[:#]?[ \t]*\d)|inmate[ \t]*(?:id|number|no\.?|#)|DOC[ \t]*(?:id|number|no\.?|#)"
    r"|IMEI|MEID|A-?Number|Alien[ \t]+(?:number|no\.?|#)|EID|Emirates[ \t]+ID|Aadhaar|CPF|RNOKPP|AMKA|AFM|Fallnummer|Cart[ãa]o[ \t]+Nacional[ \t]+de[ \t]+Sa[úu]de"
    r"|chart(?=[ \t]+[A-Z]{1,5}-?\d)|donor[ \t]*#|straw|vial(?:[ \t]+lot)?(?=[ \t]*[:#]?[ \t]*[A-Z]{1,4}-?\d)"
    r"|docket|run[ \t]*(?:number|no\.?|#)|file[ \t]*(?:number|no\.?|#)|incident[ \t]*(?:report[ \t]*)?(?:number|no\.?|#)"
    # the number an unnamed trauma patient is registered under: "unknown male trauma alias 77-4410"
    r"|(?:trauma[ \t]+)?alias(?=[ \t]*[:#]?[ \t]*[A-Z]{0,5}-?\d)"
    r"|rx[ \t]*(?:number|no\.?|#)|prescription[ \t]*(?:number|no\.?|#)|permit[ \t]*(?:number|no\.?|#)"
    r"|(?:case|order|visit|encounter|specimen|sample|lab|ticket|claim|accession|requisition|report|exam|study|series|kit|"
    r"tube|slide|block|batch|voucher|authorization|auth|referral|prescription|rx)(?=[ \t]*(?:[:#]|\b[A-Z]{0,4}-?\d))"
)
_STRONG_ID_LABEL = re.compile(r"^(?:MRN|MR|med|record|unit|acct|account|acc|NPI|CSN|FIN|SSN|ss)", _I)
_ID_VALUE = (
    # "23 441 908", "C 28 419 660", "2123 45670 1": digits in spaced groups, a lone check digit last
    r"(?P<v>(?:[A-Z]{1,4}[ ])?(?:\d{1,4}(?:[ ]\d{2,4}){2,4}|\d{4,5}[ ]\d{4,5}(?:[ ]\d)?)(?![\w-])"
    r"|(?:[A-Za-z]{2,4}[ ](?=\d{3}))?(?=[A-Za-z0-9/-]*(?:\.[A-Za-z0-9/-]*)?\d)[A-Za-z0-9](?:[A-Za-z0-9]|[-/.](?=[A-Za-z0-9])){2,30}"
    r"(?:[ ](?=[A-Za-z0-9]{0,3}\d)[A-Za-z0-9]{3,8}(?![\w-])){0,3})(?![\w-])"
)


_MEASURE_AFTER = re.compile(r"[ \t]*(?:cm|mm|m|kg|g|lbs?|in|ft|%|mg|mcg|ml|mL|L|mmhg|mmHg|bpm|kcal|°[CF]?)\b")


def _clinical_value(v: str) -> bool:
    """``ID: TMAX 100.2``, ``ED 300CC``: a value that opens with a clinical word is a finding, not an identifier."""
    word = re.fullmatch(r"([^\W\d_]+)[ \t]+\d{1,4}(?:\.\d+)?[^\W\d_%]*%?", v)
    return bool(word) and default_lexicon().is_clinical(word.group(1))


#: "VOIDED 300CC", "CHEST TUBE 28FR": a number with its unit or a tube's size is a measure, whatever word stands before it
#: a measure, or a rate of one ("NEPH TUBE 250ML/SHIFT", "40CC/HR")
_MEASURE_VALUE = re.compile(
    r"\d+(?:\.\d+)?[ \t]?(?:cc|ml|l|mg|mcg|g|kg|meq|units?|u|%|fr|french|ga|gauge|cm|mm)(?:/(?:shift|hr|h|hour|day|d|min|kg|24h?))?", _I
)


#: a 24-hour clock time or a range of them: "BACK FROM CATH LAB 1330", "VISIT 1500-1700"
_CLOCK_TIME = re.compile(CLOCK_TIME)


#: what says a number follows a label: "#", ":", "number", "no."
_NUMBER_MARK = re.compile(r"[#:]|\b(?:number|no)\b", _I)


def _labelled_id_ok(text: str, m: re.Match[str]) -> bool:
    v = m.group("v")
    if _clinical_value(v) or _MEASURE_VALUE.fullmatch(v):
        return False  # "NEPH TUBE 350CC": a volume
    if _CLOCK_TIME.fullmatch(v) and not _STRONG_ID_LABEL.match(m.group("label")) and not _NUMBER_MARK.search(text, m.start("label"), m.start("v")):
        # a weak label followed by a clock time with nothing that says number: a time ("order 1400"), not a number
        # ("ref # 2231-0457")
        return False
    if re.fullmatch(r"\d{1,3}[.,]\d{1,2}", v):
        return False  # "NPi 4.2": a small decimal is a reading even after a strong label (an NPI has ten digits)
    if re.fullmatch(r"\d{1,2}/\d{1,2}(?:/(?:\d{2}|\d{4}))?", v):
        return False  # "Next visit 9/21" is a date
    if (re.fullmatch(r"\d+[.,]\d+", v) or _MEASURE_AFTER.match(text, m.end("v"))) and not _STRONG_ID_LABEL.match(m.group("label")):
        return False  # "self-report 63.5 kg", "Exam: Ht 108 cm" are measurements
    if digit_count(v) >= 2 and len(v) >= 4:
        return True
    return bool(_STRONG_ID_LABEL.match(m.group("label"))) and len(v) >= 3


_ID_RULES: tuple[PatternRule, ...] = (
    PatternRule(
        "ssn",
        Category.ID,
        re.compile(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])"),
        score=0.95,
    ),
    PatternRule(
        "ssn_labelled",
        Category.ID,
        re.compile(
            r"\b(?:SSN|SS#|SS[ \t]+(?:no\.?|number)|social[ \t]+security(?:[ \t]+(?:number|no\.?|#))?|soc[ \t]+sec(?:[ \t]*#)?)"
            r"[ \t]*[:#=]?[ \t]*(?P<v>[\dXx*]{3}[- ]?[\dXx*]{2}[- ]?\d{4})(?![\w-])",
            _I,
        ),
        score=0.95,
        group="v",
    ),
    PatternRule(
        "labelled",
        Category.ID,
        re.compile(
            rf"(?<![\w])(?P<label>{_ID_LABELS})(?:(?<=[#.])|\b)\.?[ \t]*(?:(?:is|of)[ \t]+)?[:#=|]?[ \t]*(?:#[ \t]*)?" + _ID_VALUE,
            _I,
        ),
        score=0.9,
        group="v",
        accept=_labelled_id_ok,
    ),
    PatternRule(
        "long_number",
        Category.ID,
        re.compile(r"(?<![\w./:,+-])\d{7,14}(?![\w/:-]|[.,]\d|\s*(?:mg|mcg|ml|units?|%|cells))", _I),
        score=0.5,
    ),
)


#: words before "No."/"#" that number something other than an identifier
_NOT_ID_WORDS = rule_list("ids", "not_id_words")


def _any_label_id_ok(text: str, m: re.Match[str]) -> bool:
    v = m.group("v")
    if m.group("word").lower().rstrip(".") in _NOT_ID_WORDS or _clinical_value(v) or _MEASURE_VALUE.fullmatch(v):
        return False
    if m.group("label")[0].isalpha() and m.end("word") == m.start("label"):
        # a label run into the word before it: "UHID" is one, "FLUID", "VOID", "DILAUDID" and "PIANO" are words
        lex, joined = default_lexicon(), text[m.start("word") : m.end("label")].lower()
        if lex.is_common_word(joined) or lex.is_clinical(joined):
            return False
    return digit_count(v) >= 3 and len(v) >= 5


_DASHED_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}-\d{2,4}")

_ID_RULES = _ID_RULES + (
    # "Clinic no. GEN-48215", "Hosp No. R0784412", "Docket No.: CR-2023-004417", "Run #: 24-118732": any label
    PatternRule(
        "any_label",
        Category.ID,
        re.compile(
            r"(?<![\w])(?P<word>[A-Z][A-Za-z]{1,14}\.?|[A-Z]{2,6})[ \t]*(?P<label>No\.?|no\.|NO\b\.?|Number|number|NUMBER|Nbr|#|ID(?![A-Za-z]))[ \t]*[:#=|]?[ \t]*"
            + _ID_VALUE
        ),
        score=0.85,
        group="v",
        accept=_any_label_id_ok,
    ),
)


_ID_RULES = _ID_RULES + (
    # dictated: "medical record number 4 4 7 1 9 0 2", digits read out one by one
    PatternRule(
        "spoken_digits",
        Category.ID,
        re.compile(
            r"\b(?:MRN|medical[ \t]+record(?:[ \t]+number)?|record[ \t]+number|account[ \t]+number|member[ \t]+(?:id|number)|ID[ \t]+number)"
            r"[ \t]*(?:is[ \t]+)?[:#]?[ \t]*(?P<v>\d(?:[ \t]\d){4,13})(?![\w])",
            _I,
        ),
        score=0.85,
        group="v",
    ),
)


#: letter prefixes of codes that name a standard, a test or a form, not a person's record
_CODE_PREFIXES = rule_list("ids", "code_prefixes")


def _structured_code_ok(text: str, m: re.Match[str]) -> bool:
    v = m.group(0)
    groups = v.split("-")
    if groups[0].upper() in _CODE_PREFIXES:
        return False
    before = text[max(0, m.start() - 12) : m.start()].lower()
    if re.search(r"(?:policy|protocol|form|version|ver|rev|sop|standard|guideline)[ \t#:.]*$", before):
        return False
    digits = digit_count(v)
    return digits >= 5 or (digits >= 4 and len(groups) >= 3)


_ID_RULES = _ID_RULES + (
    # a record number written with no label: "(CRR-2024-1187)", "Chart PTM-06614", "clinic no EB-24-07712"
    PatternRule(
        "structured_code",
        Category.ID,
        re.compile(r"(?<![\w/.#-])[A-Z]{1,5}(?:-[A-Z0-9]{1,5}){0,2}-\d{2,10}(?:-[A-Z0-9]{1,5})?(?![\w/-]|\.\d)"),
        score=0.6,
        accept=_structured_code_ok,
    ),
    # "aps case opened (aps-2291-0047)": the same in a note typed in lower case, with more digits than a lab's name has
    PatternRule(
        "structured_code_lower",
        Category.ID,
        re.compile(r"(?<![\w/.#-])[a-z]{2,5}(?:-[a-z0-9]{1,5}){0,2}-\d{2,10}(?:-[a-z0-9]{1,5})?(?![\w/-]|\.\d)"),
        score=0.6,
        accept=lambda text, m: _structured_code_ok(text, m)
        and digit_count(m.group(0)) >= 6
        and any(len(g) >= 4 and g.isdigit() for g in m.group(0).split("-")),
    ),
    # "mrn on transfer paperwork 0762-3391": a record label, a few words, then the number in the same clause
    PatternRule(
        "label_near",
        Category.ID,
        re.compile(
            r"\b(?:MRN|MR#|med(?:ical)?[ \t]+rec(?:ord)?[ \t]+(?:number|no\.?|#)|record[ \t]+(?:number|no\.?|#)|acct|account[ \t]+(?:number|no\.?|#))"
            r"(?P<gap>(?:[ \t]+[A-Za-z][A-Za-z'’/]*){1,5})[ \t]+(?:(?:is|of|=|:|#)[ \t]*)?(?P<v>\d[\d-]{5,14}\d)(?![\w/-]|\.\d)",
            _I,
        ),
        score=0.8,
        group="v",
        accept=lambda text, m: digit_count(m.group("v")) >= 6 and not _DASHED_DATE.fullmatch(m.group("v")),
    ),
    # an ISBT 128 blood donation number: "W0412 24 118832"
    PatternRule("blood_unit", Category.ID, re.compile(r"(?<![\w-])[A-Z]\d{4}[ ]\d{2}[ ]\d{6}(?![\w-])"), score=0.85),
)


def id_recognizer() -> PatternRecognizer:
    return PatternRecognizer("id", _ID_RULES)
