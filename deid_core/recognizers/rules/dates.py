"""Unit ``date``: calendar dates in the formats clinical notes use, and yearless ``on 3/4``.

A month/day without a year shares its shape with scores, vitals, ventilator
settings and fractions (``strength 3/5``, ``PEEP 5/10``), so it needs a cue:
a date word or a clinical event before it, a time after it, or a day past 12.
Times, shifts and doses are excluded by construction or by ``accept`` checks.
Lists: ``deid_core/data/rules/dates/``.  Tests: ``tests/rules/test_date.py``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import replace

from deid_core.recognizers.base import NoteContext
from deid_core.recognizers.lexicon import alternation, default_lexicon, rule_list
from deid_core.recognizers.rules.base import PatternRecognizer, PatternRule
from deid_core.recognizers.rules.common_words import past_tense
from deid_core.recognizers.rules.nearby import clause_before, line_after
from deid_core.recognizers.tables import in_paired_column
from deid_core.spans import Category, Span


_MONTH = (
    r"(?P<mon>January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)(?![a-z])\.?"
)
_DAY = r"(?P<d>3[01]|[12]\d|0?[1-9])(?!\d)(?:st|nd|rd|th)?"
_YEAR4 = r"(?:18|19|20)\d{2}(?!\d)"
_TIME = r"(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?"
_I = re.IGNORECASE

_LOWER_MONTH_NEEDS_YEAR = rule_list("dates", "lowercase_months_needing_year")
#: lowercase month forms that are also words ("may", "mar", "dec" for decreased, "march"): an event before them is no cue
_LOWER_MONTH_WORDS = frozenset({"may", "mar", "dec", "march"})
#: a study or procedure right before a month word that is also a word: "egd dec 3: bleeding du ulcer" (no test is
#: decreased or marred)
_STUDY_BEFORE = re.compile(
    r"\b(?:egd|echo|tte|tee|mri|mra|cxr|cath|bronch|colonoscopy|ercp|eeg|emg|ekg|ecg|biopsy|surgery|admit|admission|dx|diagnosed)[ \t]*$",
    re.IGNORECASE,
)
#: a unit after the number makes it a measure, not a day ("oct 3 mm", "aug 2 x")
_UNIT_AFTER_DAY = re.compile(
    r"[ \t]*(?:%|[.:/]\d|(?:mm|cm|mg|mcg|ml|l|x|d|h|u|days?|hrs?|hours?|min|mins|units?|weeks?|wks?|mos?|months?|yrs?|years?)(?![a-z]))",
    re.IGNORECASE,
)


def _month_case_ok(text: str, m: re.Match[str]) -> bool:
    """A lowercase ``may``/``dec``/``mar`` is a verb or an abbreviation unless a year or ``on`` says otherwise."""
    mon = m.group("mon")
    if re.search(r"\d:$", text[max(0, m.start() - 2) : m.start()]):
        return False  # "IABP 1:1 AUG 110": the day is the second term of a ratio
    if mon.islower() and mon.lower() in _LOWER_MONTH_NEEDS_YEAR:
        if m.groupdict().get("y"):
            return True
        if mon.lower() == "may":
            return False
        before = clause_before(text, m.start())
        if _MD_CUE_BEFORE.search(before):
            return True
        day = bool(m.groupdict().get("d")) and not _UNIT_AFTER_DAY.match(text, m.end())
        if day and _STUDY_BEFORE.search(text, max(0, m.start() - 20), m.start()):
            return True
        # "sutures out oct 29", "bed avail dec 14" is no date ("dec" is decreased) but "screener to see pt jan 9" is:
        # a month that is no word, with its day and no unit after that, whatever precedes it
        return mon.lower() not in _LOWER_MONTH_WORDS and day
    return True


def _day_month_case_ok(text: str, m: re.Match[str]) -> bool:
    """``9 oct``: a day written before a lowercase month abbreviation is a date; ``2 may``/``3 mar``/``1 dec`` stay verbs and words."""
    mon = m.group("mon")
    if mon.islower() and mon.lower() not in ("may", "mar", "dec") and not text[m.end() : m.end() + 1].isalpha():
        return True
    return _month_case_ok(text, m)


def _valid_md(a: int, b: int) -> bool:
    return (1 <= a <= 12 and 1 <= b <= 31) or (1 <= a <= 31 and 1 <= b <= 12)


#: a per cent sign after the last number: no date ends so
_PERCENT_AFTER = re.compile(r"[ \t]*%")


def _numeric_date_ok(text: str, m: re.Match[str]) -> bool:
    a, b, y = int(m.group("a")), int(m.group("b")), m.group("y")
    if not _valid_md(a, b):
        return False
    if len(y) == 4 and not 1800 <= int(y) <= 2099:
        return False
    if m.group("sep") == "." and len(y) == 2 and (len(m.group("a")) < 2 or len(m.group("b")) < 2):
        return False  # 1.2.10 is more often a list number or a version than a date
    if _PERCENT_AFTER.match(text, m.end()):
        return False  # "cpap/ps 10/8/40%": pressures and the oxygen of a ventilator's setting
    return True


def _ymd_ok(text: str, m: re.Match[str]) -> bool:
    return 1 <= int(m.group("mo")) <= 12 and 1 <= int(m.group("dd")) <= 31


_COMPACT_LABEL = (
    r"(?:\b(?:DOB|D\.O\.B\.?|date\s+of\s+(?:birth|service|admission|discharge|surgery|procedure|visit)|birth\s*date|"
    r"DOS|date|dated|collected|received|admitted|discharged|visit|service\s+date)\b\.?[ \t]*[:#=-]?[ \t]*)"
)

_YEAR_CUE = r"\b(?:in|since|from|until|till|through|circa|during|around|early|late|mid|spring|summer|fall|autumn|winter)[ \t]+"
_CLOCK_CONTEXT = re.compile(
    r"\b(?:off|sedat\w*|pressors?|drips?|gtt|npo|asleep|awake|sleeping|resting|extubated|intubated|shift|overnight|tonight|"
    r"this\s+(?:morning|evening|afternoon)|last\s+(?:dose|seen)|hrs?|hours?"
    # a visitor's stay: "wife stayed until 2000", "family at bedside since 1900"
    r"|stay(?:ed|ing|s)?|visit(?:ed|ing)?|remained|bedside|slept|napp(?:ed|ing)|sat|sitting|sits"
    # an output counted since a time: "DRAIN TO GRAVITY, 40CC SINCE 2000", "uop 200 ml since 1900"
    r"|\d+[ \t]*(?:cc|ml|mls)"
    # an order that holds for hours: "HOB FLAT UNTIL 2030", "bedrest until 0600", "hold tf until 2015"
    r"|flat|bed[ \t]*rest|supine|immobiliz\w*|hold|keep)\b",
    _I,
)
#: a 24-hour clock time no year can be, before ten in the morning or late at night ("0700", "@0430", "at 2100"):
#: the note keeps time on that clock
_CLOCK_NO_YEAR = re.compile(r"(?<![\d/.:-])(?:0\d|2[1-3]|20[4-5])[0-5]\d(?![\d/:-])")
#: a nursing shift written as its hours: "7p-7a", "7A-7P", "11-7"
_SHIFT = re.compile(r"\b(?:[1-9]|1[0-2])[ap]?[ \t]*-[ \t]*(?:[1-9]|1[0-2])[ap]\b|\b(?:7|11|3)[ \t]*-[ \t]*(?:7|11|3)\b", _I)
_YEAR_UNIT_AFTER = re.compile(
    r"^\s*(?:mg|mcg|g\b|gm|kg|ml|mL|cc|l\b|units?|u\b|iu|kcal|cal|%|/|x\b|hrs?\b|hours|h\b|times|patients|cases|people|pts)",
    _I,
)
_RANGE_AFTER = re.compile(r"^\s*(?:-|to|until|till)\s*(\d{4})\b", _I)


def _year_ok(text: str, m: re.Match[str]) -> bool:
    year = int(m.group("y"))
    if not 1930 <= year <= 2035:
        return False
    if re.match(r"(?:since|from|until|till|through)\b", m.group(0), _I) and int(m.group("y")[2:]) < 60:
        if year < 1960 or _CLOCK_CONTEXT.search(clause_before(text, m.start(), 30)):
            return False  # "off sedation since 2015" is a military time
    if re.match(r"(?:since|from|until|till|through|around)\b", m.group(0), _I) and m.group("y")[2:] in ("00", "15", "30", "45"):
        if _CLOCK_NO_YEAR.search(text) or _SHIFT.search(text):
            # "NO VALIUM NEEDED SINCE 2000" in a note that writes "0700", "up from ed around 2030" on a 7p-7a
            # shift or before "lasix given at 2100": an hour on the note's own clock
            return False
    rest = text[m.end("y") : m.end("y") + 20]
    if _YEAR_UNIT_AFTER.match(rest):
        return False
    rng = _RANGE_AFTER.match(rest)
    if rng and not rng.group(1).startswith(("19", "20")):
        return False  # "from 1900 to 0700" is a shift, not a year
    return True


_DATE_RULES: tuple[PatternRule, ...] = (
    PatternRule(
        "iso",
        Category.DATE,
        re.compile(
            rf"(?<![\d/.-])(?:18|19|20)\d{{2}}(?P<s>[-/.])(?P<mo>0?[1-9]|1[0-2])(?P=s)(?P<dd>3[01]|[12]\d|0?[1-9])(?![\d/-])"
            rf"(?:T{_TIME})?"
        ),
        score=0.95,
        accept=_ymd_ok,
    ),
    PatternRule(
        "numeric",
        Category.DATE,
        re.compile(
            r"(?<![\d/.:-])(?P<a>\d{1,2})(?P<sep>[/.-])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})(?![\d/-]|\.\d|:\d)"
        ),
        score=0.95,
        accept=_numeric_date_ok,
    ),
    PatternRule(
        "month_day",
        Category.DATE,
        re.compile(
            rf"\b{_MONTH}[ \t]*-?[ \t]*{_DAY}\b(?:(?:[ \t]*,[ \t]*|[ \t]+|-)(?P<y>{_YEAR4}|'\d{{2}}(?!\d)))?",
            _I,
        ),
        score=0.9,
        accept=_month_case_ok,
    ),
    PatternRule(
        "day_month",
        Category.DATE,
        re.compile(
            rf"\b{_DAY}(?:(?:[ \t]+day)?[ \t]+of)?(?:[ \t]*-[ \t]*|[ \t]*){_MONTH}"
            rf"(?:(?:[ \t]*,?[ \t]*|-)(?P<y>{_YEAR4}|(?<=-)\d{{2}}(?!\d)|'\d{{2}}(?!\d)))?",
            _I,
        ),
        score=0.9,
        accept=_day_month_case_ok,
    ),
    PatternRule(
        "month_year",
        Category.DATE,
        re.compile(rf"\b{_MONTH}(?:[ \t]*,[ \t]*|[ \t]+of[ \t]+|[ \t]*-[ \t]*|[ \t]+)(?P<y>{_YEAR4}|'\d{{2}}(?!\d))", _I),
        score=0.9,
        accept=_month_case_ok,
    ),
    PatternRule(
        "numeric_month_year",
        Category.DATE,
        re.compile(r"(?<![\d/.:-])(?:0?[1-9]|1[0-2])/(?:19|20)\d{2}(?![\d/])"),
        score=0.85,
    ),
    PatternRule(
        "compact_labelled",
        Category.DATE,
        re.compile(
            _COMPACT_LABEL
            + r"(?P<v>(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:19|20)\d{2})(?!\d)",
            _I,
        ),
        score=0.9,
        group="v",
    ),
    PatternRule(
        "year",
        Category.DATE,
        re.compile(_YEAR_CUE + r"(?P<y>(?:19|20)\d{2})(?![\d/.,]\d|\d)", _I),
        score=0.7,
        group="y",
        accept=_year_ok,
    ),
    PatternRule(
        "month_alone",
        Category.DATE,
        re.compile(
            r"\b(?:in|since|until|till|during|through|last|next|early|late|mid|by|of|from|than|before|after|around)[ \t]+(?:early[ \t]+|late[ \t]+|mid-?[ \t]*)?"
            r"(?P<v>January|February|March|April|May|June|July|August|September|October|November|December)\b(?![ \t]*\d)"
        ),
        score=0.6,
        group="v",
    ),
    # "sober since july", "PLANS TO RETIRE IN AUGUST": typed in any case, a month that is no verb after a word of time
    # ("by june" and "from june" may be a person's)
    PatternRule(
        "month_alone_caseless",
        Category.DATE,
        re.compile(
            r"\b(?:in|since|until|till|during|through|last|next|early|late|mid|before|after|around)[ \t]+(?:early[ \t]+|late[ \t]+|mid-?[ \t]*)?"
            r"(?P<v>january|february|april|june|july|august|september|october|november|december)\b(?![ \t]*\d)",
            _I,
        ),
        score=0.6,
        group="v",
    ),
    # "the sleep study was on the 12th", "dizzy since around the 14th": a day of the month on its own
    PatternRule(
        "ordinal_day",
        Category.DATE,
        re.compile(
            r"\b(?:on|since|from|until|by|before|after)(?:[ \t]+(?:around|about|approx|approximately|roughly|~))?[ \t]+the[ \t]+"
            r"(?P<v>(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th))\b"
            r"(?![ \t]*(?:-|of\b|day|week|month|year|floor|percentile|centile|time|visit|dose|cycle|grade|rib|ics|intercostal|"
            r"vertebra|toe|finger|digit|metatarsal|cranial|nerve|trimester|decade|attempt|try|session|round|line|place|hour|minute))",
            _I,
        ),
        score=0.7,
        group="v",
    ),
    # "Comparison MRI 2021", "colonoscopy 2019": the year a test or procedure was done
    PatternRule(
        "test_year",
        Category.DATE,
        re.compile(
            r"\b(?:MRI|MRA|CT|CTA|CXR|PET|echo|TTE|TEE|EGD|colonoscopy|mammogram|DEXA|biopsy|surgery|cath|EKG|ECG|EEG|EMG|"
            r"ultrasound|US|x-?ray|PFTs?|stress[ \t]+test|vaccine|booster)[ \t]+(?:(?:done|performed|dated|from|in)[ \t]+)?"
            r"(?P<y>(?:19|20)\d{2})(?![\d/.,]\d|\d)"
        ),
        score=0.7,
        group="y",
        accept=_year_ok,
    ),
    PatternRule(
        "holiday",
        Category.DATE,
        re.compile(
            r"\b(?:Christmas(?:[ \t]+(?:Eve|Day))?|Thanksgiving(?:[ \t]+Day)?|Easter(?:[ \t]+Sunday)?|New[ \t]+Year'?s(?:[ \t]+(?:Eve|Day))?"
            r"|Halloween|Independence[ \t]+Day|Fourth[ \t]+of[ \t]+July|Memorial[ \t]+Day|Labor[ \t]+Day|Veterans'?[ \t]+Day"
            r"|Valentine'?s[ \t]+Day|Mother'?s[ \t]+Day|Father'?s[ \t]+Day)\b"
        ),
        score=0.7,
    ),
)

_FOREIGN_MONTH = (
    r"(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre"
    r"|janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[ûu]t|septembre|octobre|novembre|d[ée]cembre"
    r"|janeiro|fevereiro|mar[çc]o|maio|junho|julho|setembro|outubro|novembro|dezembro"
    # Italian, German, Dutch, Polish (the genitive a date takes) and Welsh
    r"|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre"
    r"|januar|februar|m[äa]rz|juni|juli|oktober|dezember|januari|februari|maart|mei|augustus"
    r"|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|wrze[śs]nia|pa[źz]dziernika|listopada|grudnia"
    r"|ionawr|chwefror|mawrth|ebrill|mehefin|gorffennaf|awst|medi|hydref|tachwedd|rhagfyr)"
)
_FOREIGN_WEEKDAY = (
    r"(?:lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
    r"|segunda|ter[çc]a|quarta|quinta|sexta|luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabato|domenica"
    r"|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag"
    r"|poniedzia[łl]ek|wtorek|[śs]roda|czwartek|pi[ąa]tek|sobota|niedziela)(?:-feira)?,?[ \t]+(?:(?:el|le|o|a|il)[ \t]+)?"
)
_ORDINAL_WORD = (
    r"(?:(?:twenty|thirty)[ \t-](?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|first|second|third|fourth|fifth"
    r"|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth"
    r"|nineteenth|twentieth|thirtieth)"
)
_SPOKEN_YEAR = (
    r"(?:nineteen|twenty|two[ \t]+thousand(?:[ \t]+and)?)(?:[ \t-](?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
    r"(?:[ \t-](?:one|two|three|four|five|six|seven|eight|nine))?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
    r"|seventeen|eighteen|nineteen|oh[ \t-](?:one|two|three|four|five|six|seven|eight|nine)|one|two|three|four|five|six|seven|eight|nine))"
)
_WEEKDAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\.?"

_DATE_RULES = _DATE_RULES + (
    # "3 de mayo de 2024", "le 12 mars", "15 de abril", "lunes 22 de enero de 2024": Spanish, French, Portuguese
    PatternRule(
        "foreign_day_month",
        Category.DATE,
        re.compile(
            rf"(?<![\w/.-])(?:{_FOREIGN_WEEKDAY})?(?:1er|{_DAY}\.?)(?:[ \t]+de)?[ \t]+{_FOREIGN_MONTH}(?![\w])"
            rf"(?:(?:[ \t]+de(?:l)?|,)?[ \t]+{_YEAR4})?",
            _I,
        ),
        score=0.9,
    ),
    # "listopada 2023", "Mawrth 2024", "aprile 2024": a month and year
    PatternRule(
        "foreign_month_year",
        Category.DATE,
        re.compile(rf"(?<![\w/.-]){_FOREIGN_MONTH}(?:[ \t]+de(?:l)?)?[ \t]+{_YEAR4}(?!\d)", _I),
        score=0.85,
    ),
    # dictated: "march eleventh", "june fourth nineteen fifty two"
    PatternRule(
        "spoken_month_day",
        Category.DATE,
        re.compile(rf"\b{_MONTH}[ \t]+(?:the[ \t]+)?{_ORDINAL_WORD}\b(?:,?[ \t]+{_SPOKEN_YEAR}\b)?", _I),
        score=0.85,
        accept=lambda text, m: m.group("mon").lower() != "may" or not m.group("mon").islower(),
    ),
    # "last thursday the 14th", "Friday the 3rd": a weekday with its day of the month
    PatternRule(
        "weekday_ordinal",
        Category.DATE,
        re.compile(rf"\b{_WEEKDAY},?[ \t]+the[ \t]+(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\b", _I),
        score=0.85,
    ),
)

# Month/day without a year ("on 3/4", "3/4:") needs positive context, and
# scores, vitals, ventilator settings and fractions share its shape.
_MD = re.compile(r"(?<![\w/.:+-])(?P<a>1[0-2]|0?[1-9])/(?P<b>3[01]|[12]\d|0?[1-9])(?![\w/+]|\.\d|:\d)")
_MD_CUE_BEFORE = re.compile(
    r"(?:\b(?:on|since|from|until|till|thru|through|dated?|starting|started|start|began|begun|beginning|effective|"
    r"last|next|by|before|after|admitted|admission|discharged?|d/c|seen|visit|dos|as\s+of|returns?|f/u|follow[- ]?up|"
    r"surgery|surgeries|(?:scheduled|sched|schd)(?:[ \t]+for)?|due|expires?|expired|circa|week\s+of|between|performed|done|obtained|drawn|"
    r"collected|placed|removed|changed|resumed|held|stopped|discontinued|restarted|recheck|re-check|repeat|redraw|pta|"
    r"intubated|extubated|transferred)[ \t]*(?:the[ \t]+)?(?:\(|\[)?$"
    # "f/u w/ cards 12/4", "f/u w cardiologist dr oduya 10/7": a follow-up with someone, then its day
    r"|\b(?:f/u|follow[- ]?up|appt|appointment)[ \t]+(?:w/?|with)[ \t]+[^\n.;,/]{1,30}?[ \t]+$)",
    _I,
)
#: denominators of scores and counts that a yearless m/d shares: MMSE 8/30, 3/24 hours, 7/20
_SCORE_DENOMINATORS = frozenset({15, 16, 20, 24, 25, 30})
#: "echo 8/87": a month and a two-digit year that cannot be a day, after the same cues as a month/day
_MY = re.compile(r"(?<![\w/.:+-])(?P<a>1[0-2]|0?[1-9])/(?P<y>3[2-9]|[4-9]\d)(?![\w/+]|\.\d|:\d)")
#: "late entry for 11-19 0300": a month and day with a dash, which ranges share ("CIWA 14-19", "RR 12-20"), count only
#: with a clock time after them
_MD_DASH = re.compile(r"(?<![\w/.:+-])(?P<a>1[0-2]|0?[1-9])-(?P<b>3[01]|[12]\d|0?[1-9])(?![\w/+-]|\.\d|:\d)")
_CLOCK_AFTER = re.compile(r"[ \t]+(?:@[ \t]*)?(?:[01]\d|2[0-3])[0-5]\d(?![\w:/.-])")
#: "last lovenox dose", "next home dose": which dose, so the m/d after it is when it was or will be given
_WHICH_DOSE = re.compile(r"\b(?:last|next|first|final|prior|previous)[ \t]+(?:[a-z]+[ \t]+){0,2}$", re.I)
_MD_CHAIN_BEFORE = re.compile(r"(?:,|\band\b|\bor\b|&|-|\bto\b|\bthrough\b|\bthru\b|\bvs\.?)[ \t]*$", _I)
_MD_LINE_START = re.compile(r"(?:^|\n)[ \t]*(?:[-*•>][ \t]*)?$")
#: words after which a bare m/d is a date: events, tests and procedures, note titles
#: what happened to the patient, in a past tense not in -ed or as a noun, right before its day
_MISHAP_BEFORE = re.compile(r"\b(?:fell|fall|mvc|mva|injury|injured|seizure|quit|broke)[ \t]*$", _I)
_MD_EVENT_BEFORE = re.compile(
    r"\b(?:[a-z]+ed|debridement|treatment|placement|replacement|assessment|adjustment|enrol?lment|deployment|made|fill|refill|duty|overnight|note|notes|events?|hd|pod|day|visit|appt|appointment|admission|ct|cta|mri|mra|cxr|x-?ray|echo|tte|tee|"
    r"lmp|lnmp|edd|edc|edd/edc|onset|dob|d\.o\.b\.?|dod|dos|"
    r"ekg|ecg|eeg|emg|egd|ercp|us|ultrasound|doppler|labs?|cultures?|bcx|ucx|cvl|picc|cath|bronch|bronchoscopy|lp|biopsy|"
    r"surgery|op|or|procedure|scan|study|imaging|film|films|vaccine|shot|infusion|transfusion|dialysis|hd|cycle|dose|"
    r"mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"clinic|home|here|mbss?|vfss|fees|aspirate|aspiration|swab|specimens?|tap|paracentesis|thoracentesis|inr|pt/inr|bmp|cmp|cbc|"
    # nursing notes: "LBM 11/5", "as of today 4/16", "to micu 10/12"
    r"l?bm|today|yesterday|tomorrow|tonight|icu|micu|sicu|ccu|csru|cvicu|nicu|picu|pacu|ed|er|osh|floor|rehab|hospital|extubation|intubation)"
    r"[ \t]*[:#~-]?[ \t]*$"
    # "s/p whipple 10/6", "s/p fall 4/1": the day of the event the patient is status post
    r"|\bs/p[ \t]+[a-z][\w/+-]*(?:[ \t]+[a-z][\w/+-]*){0,2}[ \t]*$"
    # "CX SENT 4/10": a past tense that does not end in -ed ("given" and "taken" measure: "given 1/2 amp")
    r"|\b(?:sent|begun|gotten)[ \t]*$"
    # "CT HEAD 4/12 NEG", "mri l-spine 3/30": imaging and the part of the body it looked at
    r"|\b(?:ct|cta|mri|mra|us|xr|x-?ray|pet)[ \t]+(?:head|brain|neck|chest|abd(?:omen)?|pelvis|abd/pelvis|a/p|c/a/p|[clt]-?spine|spine|sinus|face|extremity|le|ue)[ \t]*$"
    # "intubated 0200 7/15", "extubated @ 1100 on 3/2": a clock time between a past event and its day
    r"|\b[a-z]+ed[ \t]+@?[ \t]*(?:[01]\d|2[0-3])[0-5]\d(?:[ \t]+on)?[ \t]*$"
    # "last drink 3/9", "next clinic 4/8": a last or next event
    r"|\b(?:last|next|first|prior|previous|latest|most[ \t]+recent)[ \t]+"
    r"(?!(?:steps?|items?|questions?|trials?|attempts?|sets?|levels?|stages?|phases?|cycles?|doses?|lines?|pages?|one|time|few)\b)[a-z]+[ \t]*[:#-]?[ \t]*$",
    _I,
)
#: "bipap increased 12/6": a past tense right before the number may say what was done to a setting
_PAST_BEFORE_NUMBER = re.compile(r"[a-z]+ed[ \t]*$", re.I)
_MD_EVENT_AFTER = re.compile(
    # "gsw abd 3/9 pod 3", "paper mill in rumford 4/6 s/p k wires": the day of the event the patient is status post
    r"^[ \t]*(?:s/p\b|pod[ \t]*#?[ \t]*\d"
    r"|at[ \t]+\d|@[ \t]*\d|\d{1,2}:\d{2}|[01]\d{3}\b|2[0-3]\d{2}\b|(?:AM|PM|a\.m\.|p\.m\.)(?![\w])"
    r"|(?:specimens?|labs?|results?|visit|appt|note|draw|culture|films?|imaging|showed|shows|revealed|demonstrated)\b)",
    _I,
)
_TIME_AFTER = re.compile(
    r"(?:[ \t]|,[ \t]?)(?:(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:[ \t]?[AaPp]\.?[Mm]\.?(?![A-Za-z]))?|(?:[01]\d|2[0-3])[0-5]\d(?![\d:/.-]))"
    r"(?![\w/])"
)
_WEEKDAY_BEFORE = re.compile(
    r"\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\.?,?[ \t]+$",
    _I,
)
_FULL_WEEKDAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
# After a date a bare "sat" may be a saturation, so a short weekday counts only in brackets or with its full stop.
_WEEKDAY_AFTER = re.compile(
    rf"(?:[ \t]*\((?:{_FULL_WEEKDAY}|Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\.?\)"
    rf"|,?[ \t]+(?:{_FULL_WEEKDAY}(?![\w])|(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\.))",
    _I,
)
_MD_COURSE_DAY = re.compile(r"\bday[ \t]*#?[ \t]*$", _I)
_MD_LINE_START_AFTER = re.compile(r"^[ \t]*(?::|-[ \t]|–|—|\))")
#: the trap words of a ventilator, after which "on" leads a setting, not a day ("sbt this am on 5/5")
_VENTILATOR_WORDS = frozenset({"peep", "ps", "psv", "cpap", "bipap", "ipap", "epap", "niv", "nippv", "avaps", "vent", "ventilator", "simv", "prvc", "sbt", "sbts", "srt"})
_LIMB_BEFORE = re.compile(r"\b(?:arms?|legs?|lue|rue|lle|rle|bue|ble|grips?|grasps?|extremit(?:y|ies))[ \t:]*$", _I)
_MD_TRAP_BEFORE = re.compile(
    r"\b(?P<word>bp|b/p|blood[ \t]+pressures?|pressures?|" + alternation(_VENTILATOR_WORDS) + r"|settings?|"
    r"ac|strength|motor|power|pain|scores?|scored|grades?|reflex(?:es)?|ratio|dose|doses|tabs?|tablets?|rated|scale|"
    r"cp|chest[ \t]+pain|gcs|apgars?|murmur|dtrs?|vision|acuity|mmhg|sbp|dbp|fio2|spo2|weaned|wean|weaning|titrated|rass|cam|tof|twitch(?:es)?|"
    r"train[ \t]+of[ \t]+(?:four|4)|leak|segs?|segments?|d5w?|d10w?|dextrose|ha|h/a|headache|mmse|moca|slums|nihss|braden|morse|phq-?9|gad-?7|ciwa|cows|(?<!next[ \t])(?<!last[ \t])sessions?)\b[^/]*$",
    _I,
)
_MD_TRAP_AFTER = re.compile(
    r"^[ \t]*(?:pain|strength|power|motor|mg|mcg|g\b|gm|ml|tabs?|tablets?|caps?|puffs?|units?|scale|score|reflex|"
    r"murmur|ps\b|peep|cpap|cm|mmhg|on\s+\d|of\s+\d|with\s+\d|/|bilat|b/l|throughout|in\s+(?:all|the|both|upper|lower|bilateral)|"
    # "2/4+" is a grade, "12/2 +GPC" a day and what grew; "on 12/6 40%" a setting and its oxygen
    r"(?:upper|lower|proximal|distal|bilateral|left|right|lue|rue|lle|rle)\b|\+(?![A-Za-z])|\d{2,3}[ \t]*%|(?:lymph[ \t]+)?nodes?\b|cores?\b|positive\b|involved\b"
    r"|items?\b|questions?\b|criteria\b|points?\b|correct\b|trials?\b|sites?\b|(?-i:[RL])\b"
    # "bcx 2/2 bottles", "3/4 sets positive": a count out of a total
    r"|bottles?\b|sets?\b|vials?\b|views?\b|samples?\b"
    # "SUBOXONE 8/2 BID": a dose's strengths before how often it is given
    r"|bid\b|tid\b|qid\b|qhs\b|q[1-9]\d?h\b"
    # "2/1 ASSIST TO CHAIR", "1/1 sitter": how many staff a task takes
    r"|(?:person[ \t]+)?assist\b|sitter\b|staff\b|ratio\b"
    # "1/2 NS", "1/2 strength": a fraction of a fluid
    r"|ns\b|nss\b|ns[ \t]*\+|normal[ \t]+saline)",
    _I,
)


_WORD_BEFORE = re.compile(r"(?<![\w/-])([A-Za-z][A-Za-z]+)[ \t]+$")
#: the first word of the clause an m/d ends, after the last comma or the clause's start
_CLAUSE_OPENER = re.compile(r"(?:^|,)[ \t]*(?:(?:pt|patient|he|she|they)[ \t]+)?([A-Za-z]+)\b[^,]*$", re.I)


def _trap_shape(month: int, day: int) -> bool:
    """Both numbers up to 5 (a strength grade, a count: ``LUE 4/5``), days out of seven (``fever 5/7``), or a score's
    total (``2/10``): shapes a bare m/d shares with what is no date."""
    return (month <= 5 and day <= 5) or (day == 7 and month < 7) or day == 10 or day in _SCORE_DENOMINATORS
_CLAUSE_END = re.compile(r"[ \t]*(?:[,.;)]|$)")
#: "bcx 2/2 bottles", "2/2 gnr": out of the bottles drawn, those that grew (gram-negative rods, gram-positive cocci)
_CULTURE_AFTER = re.compile(r"^[ \t]*(?:[bu]cx|cx|cultures?|bottles?|gn[rcb]s?|gp[rcb]s?)\b", _I)
_CULTURE_BEFORE = re.compile(r"\b(?:[bu]cx|cx|cultures?|bottles?)[ \t:]*$", _I)


def _sentence_start(text: str, start: int) -> int:
    """Where the sentence holding ``start`` begins: after a line break, a full stop or a semicolon."""
    return max(text.rfind("\n", 0, start), text.rfind(". ", 0, start), text.rfind(";", 0, start)) + 1


_PAIN_WORD = re.compile(r"\b(?:pain|painful|discomfort|ha|h/a|headache|cp|aches?|aching|soreness)\b", re.I)


def _pain_in_sentence(text: str, start: int) -> bool:
    """Pain named earlier in the sentence, and no date cue right before the number ("pain since 5/10" is a day)."""
    sentence_start = _sentence_start(text, start)
    before = text[sentence_start:start]
    return bool(_PAIN_WORD.search(before)) and not _MD_CUE_BEFORE.search(before)


def _earlier_score_in_sentence(text: str, start: int, denominator: str) -> bool:
    """An earlier m/d in the same sentence, out of the same total, that is itself a score."""
    sentence_start = _sentence_start(text, start)
    for m in re.finditer(rf"(?<![\d/])\d{{1,2}}/{denominator}(?![\d/])", text[sentence_start:start]):
        if in_score_or_count(text, sentence_start + m.start(), sentence_start + m.end()):
            return True
    return False


def in_score_or_count(text: str, start: int, end: int) -> bool:
    """A bare m/d that the words around it make a score, a setting, a count or a course day: "pain 4/10", "TOF 4/4",
    "2/2 bottles", "vanco day 4/14"."""
    if _MD_TRAP_AFTER.match(line_after(text, end)):
        return True
    if in_paired_column(text, start, end):
        return True  # "Ears R/L (TEED) | 2/1": a table column of paired readings
    clause = clause_before(text, start)
    md = re.match(r"(\d{1,2})/(\d{1,2})", text[start:end])
    if md and _MD_COURSE_DAY.search(clause) and int(md.group(1)) <= int(md.group(2)):
        return True  # "vanco day 4/14", "bactrim day 4/21": a day of a course, counted out of its length
    if md and int(md.group(1)) <= int(md.group(2)) <= 4 and (
        _CULTURE_AFTER.match(line_after(text, end)) or _CULTURE_BEFORE.search(clause[-12:])
    ):
        return True  # "BCX 2/2 GNR", "1/2 BCX GROWING GPC": bottles positive out of those drawn ("bcx 2/14" is a day)
    if md and md.group(2) == "5" and _LIMB_BEFORE.search(clause):
        return True  # "l arm 2/5 leg 3/5", "RUE 4/5": a limb's strength out of five ("R ARM CAUGHT IN HAULER 4/13" is a day)
    if md and md.group(2) == "10" and int(md.group(1)) <= 10 and _pain_in_sentence(text, start):
        return True  # "PAIN BETTER W/ PCA + SCHEDULED TYLENOL, NOW 5/10": a reading out of ten after the pain it scores
    if md and _earlier_score_in_sentence(text, start, md.group(2)):
        return True  # "pain 4/10 at rest, 7/10 with cough": a second reading on the scale of the first
    before = clause[-24:]
    trap = _MD_TRAP_BEFORE.search(before)
    if trap and trap.group("word").lower() in ("dose", "doses"):
        lead = clause[: len(clause) - len(before) + trap.start("word")]
        if _WHICH_DOSE.search(lead):
            return False  # "last lovenox dose 11/13 at 2100", "last home coumadin dose was 9/20": a dose given on a day
    # "long term vent pt, in micu since 10/12": a date cue after the trap word takes the number back, and so does an
    # event after a comma that closes the trap's clause ("since bp soft, last hd 4/11")
    if not trap:
        return False
    rest = before[trap.end("word") :]
    cue = _MD_CUE_BEFORE.search(rest)
    if cue and not (trap.group("word").lower() in _VENTILATOR_WORDS and re.fullmatch(r"on[ \t]*", cue.group(0), _I)):
        return False  # but "passing sbt on 5/5": a ventilator is on its setting
    comma = rest.rfind(",")
    return not (comma >= 0 and _MD_EVENT_BEFORE.search(rest[comma + 1 :]) and not _PAST_BEFORE_NUMBER.search(rest[comma + 1 :]))


class DateRecognizer(PatternRecognizer):
    """Calendar dates in the formats clinical notes use, plus yearless ``on 3/4``."""

    def __init__(self) -> None:
        super().__init__("date", _DATE_RULES)

    def _md_ok(self, text: str, m: re.Match[str], prev_end: int) -> bool:
        before = clause_before(text, m.start())
        after = line_after(text, m.end())
        if in_score_or_count(text, m.start(), m.end()):
            return False
        if _MD_CUE_BEFORE.search(before) or _MD_EVENT_BEFORE.search(before) or _MD_EVENT_AFTER.match(after):
            return True
        month, day = int(m.group("a")), int(m.group("b"))
        if self._after_clinical_term(before, after, month, day) or self._ends_past_event(before, after, month, day):
            return True
        if _MISHAP_BEFORE.search(before) and not _trap_shape(month, day):
            return True  # "fell 1/9 going out", "mvc 12/30 w/ airbag"; "FELL 2/7" is two days ago
        # "full duty 3/18", "LKW 1515 11/20": a day past 12 cannot be a month; scores out of 15, 20, 24 or 30 are
        # caught by the words before them (GCS 9/15, MMSE 8/30, session 3/16)
        if day > 12:
            return True
        # "ART LINE 11/3", "LBM PER WIFE ~11/5": scores, grades, counts and fractions never exceed their total, so a
        # first number above the second is a day, once the settings that do (PS 10/5, BiPAP 12/6) are trapped above
        if month > day:
            return True
        if _MD_LINE_START.search(text[max(0, m.start() - 8) : m.start()]) and _MD_LINE_START_AFTER.match(after):
            return True
        # "on 3/4 and 3/6", "3/4-3/9": chained to a date just found
        if prev_end >= 0 and m.start() - prev_end <= 8 and _MD_CHAIN_BEFORE.search(text[prev_end : m.start()]):
            return True
        return False

    @staticmethod
    def _md_dash_ok(text: str, m: re.Match[str]) -> bool:
        """A dashed month/day is a date before a clock time, unless a measure, a score or a setting stands before it."""
        if not _CLOCK_AFTER.match(text, m.end()) or in_score_or_count(text, m.start(), m.end()):
            return False
        before = clause_before(text, m.start())
        word = _WORD_BEFORE.search(before)
        return not _MD_TRAP_BEFORE.search(before[-24:]) and not (word and default_lexicon().is_clinical(word.group(1)))

    @staticmethod
    def _ends_past_event(before: str, after: str, month: int, day: int) -> bool:
        """``FELL ON ICE IN DRIVEWAY 3/8,``: an m/d that ends a clause opened by a past tense is the day it happened;
        the shapes of a grade, a fraction, a duration or a score stay out as after a clinical term."""
        if _trap_shape(month, day) or not _CLAUSE_END.match(after):
            return False
        opener = _CLAUSE_OPENER.search(before)
        return bool(opener) and past_tense(opener.group(1).lower())

    @staticmethod
    def _after_clinical_term(before: str, after: str, month: int, day: int) -> bool:
        """``L FEMUR IMN 10/4,``, ``s/p vats 11/9.``: right after a clinical term, an m/d that ends its clause is
        the day of that test or procedure. Both numbers up to 5 are the shape of a strength grade or a count
        (``LUE 4/5.``), a number of days out of seven a duration (``fever 5/7``), and a score's total is no day
        (``Nausea 2/10.``):
        those are left to the cues above."""
        if _trap_shape(month, day):
            return False
        word = _WORD_BEFORE.search(before)
        return bool(word) and bool(_CLAUSE_END.match(after)) and default_lexicon().is_clinical(word.group(1))

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        return [self._with_time(text, self._with_weekday(text, s)) for s in self._dates(text, context)]

    @staticmethod
    def _with_weekday_after(text: str, span: Span) -> Span:
        m = _WEEKDAY_AFTER.match(text, span.end)
        return replace(span, end=m.end()) if m else span

    @staticmethod
    def _with_time(text: str, span: Span) -> Span:
        """``03/14/2019 14:30``: a time written right after a date is one timestamp with it."""
        if span.category is not Category.DATE or not text[span.end - 1 : span.end].isdigit():
            return span
        m = _TIME_AFTER.match(text, span.end)
        if not m or _YEAR_UNIT_AFTER.match(text[m.end() : m.end() + 8]):
            return span
        return replace(span, end=m.end())

    @staticmethod
    def _with_weekday(text: str, span: Span) -> Span:
        """A weekday written next to a date belongs to it: left behind, it gives away the shift."""
        if span.category is Category.DATE:
            span = DateRecognizer._with_weekday_after(text, span)
        m = _WEEKDAY_BEFORE.search(text[max(0, span.start - 12) : span.start])
        if not m:
            return span
        start = span.start - (len(text[max(0, span.start - 12) : span.start]) - m.start())
        return replace(span, start=start)

    def _dates(self, text: str, context: NoteContext | None) -> list[Span]:
        spans = list(super().find(text, context))
        ends = sorted(s.end for s in spans)
        covered = bytearray(len(text) + 1)  # characters already inside a full date
        for s in spans:
            covered[s.start : s.end] = b"\x01" * (s.end - s.start)
        prev_end = -1
        for m in _MD.finditer(text):
            if any(covered[m.start() : m.end()]):
                continue
            i = bisect_right(ends, m.start())
            last = max(ends[i - 1] if i else -1, prev_end)
            if self._md_ok(text, m, last):
                spans.append(Span(m.start(), m.end(), Category.DATE, score=0.75, source="date/month_day_numeric"))
                prev_end = m.end()
        for m in _MD_DASH.finditer(text):
            if not any(covered[m.start() : m.end()]) and self._md_dash_ok(text, m):
                spans.append(Span(m.start(), m.end(), Category.DATE, score=0.7, source="date/month_day_dash"))
        for m in _MY.finditer(text):
            if any(covered[m.start() : m.end()]):
                continue
            before = clause_before(text, m.start())
            if _MD_TRAP_BEFORE.search(before[-24:]) or _MD_TRAP_AFTER.match(line_after(text, m.end())):
                continue
            if _MD_CUE_BEFORE.search(before) or _MD_EVENT_BEFORE.search(before):
                spans.append(Span(m.start(), m.end(), Category.DATE, score=0.75, source="date/month_year_numeric"))
        return spans
