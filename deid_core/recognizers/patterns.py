"""Regular-expression recognizers for identifiers with a shape.

Each recognizer is a list of compiled rules run over the note; a rule may
carry an ``accept`` check that looks at the words around a match, which is
how a date like ``3/4`` is told from a score like ``strength 3/5``.  The
clinical traps (times, vitals, ventilator settings, doses, scores, shift
times, ICD codes) are excluded by construction or by those checks, and the
tests pin each one.

Span boundaries follow ``docs/annotation.md``: the identifier value without
its label (``MRN: [00123456]``), ages with their unit, a whole street
address as one span.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

from deid_core.recognizers.base import NoteContext, RuleRecognizer
from deid_core.recognizers.lexicon import (
    AMBIGUOUS_REGIONS,
    AMBIGUOUS_STATE_ABBRS,
    NUMBERED_BEFORE_PLACE,
    REGIONS,
    STATE_ABBRS,
    STATES,
    Lexicon,
    alternation,
    countries,
    default_lexicon,
    us_cities,
)
from deid_core.spans import Category, Span

Accept = Callable[[str, "re.Match[str]"], bool]


@dataclass(frozen=True)
class PatternRule:
    """One regular expression; ``group`` selects the part that is the identifier."""

    name: str
    category: Category
    regex: re.Pattern[str]
    score: float = 0.9
    group: int | str = 0
    accept: Accept | None = None


class PatternRecognizer(RuleRecognizer):
    """Runs its rules in order and reports every accepted match."""

    def __init__(self, name: str, rules: Sequence[PatternRule], version: str = "1") -> None:
        self.name = name
        self.version = version
        self.rules = tuple(rules)
        self.categories = frozenset(r.category for r in self.rules)

    def matches(self, text: str) -> Iterator[tuple[PatternRule, re.Match[str]]]:
        for rule in self.rules:
            for m in rule.regex.finditer(text):
                if rule.accept is None or rule.accept(text, m):
                    yield rule, m

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        for rule, m in self.matches(text):
            start, end = m.span(rule.group)
            if 0 <= start < end:
                yield Span(start, end, rule.category, score=rule.score, source=f"{self.name}/{rule.name}")


# ---------------------------------------------------------------- helpers
def _clause_before(text: str, pos: int, limit: int = 40) -> str:
    """Text before ``pos`` on the same line and in the same clause."""
    lo = max(0, pos - limit)
    chunk = text[lo:pos]
    cut = max(chunk.rfind("\n"), chunk.rfind(";"), chunk.rfind(". "))
    return chunk[cut + 1 :] if cut >= 0 else chunk


def _after(text: str, pos: int, limit: int = 20) -> str:
    chunk = text[pos : pos + limit]
    nl = chunk.find("\n")
    return chunk if nl < 0 else chunk[:nl]


# ------------------------------------------------------------------ dates
_MONTH = (
    r"(?P<mon>January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)(?![a-z])\.?"
)
_DAY = r"(?P<d>3[01]|[12]\d|0?[1-9])(?!\d)(?:st|nd|rd|th)?"
_YEAR4 = r"(?:18|19|20)\d{2}(?!\d)"
_TIME = r"(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?"
_I = re.IGNORECASE

_LOWER_MONTH_NEEDS_YEAR = {"may", "mar", "dec", "jan", "feb", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "march"}


def _month_case_ok(text: str, m: re.Match[str]) -> bool:
    """A lowercase ``may``/``dec``/``mar`` is a verb or an abbreviation unless a year or ``on`` says otherwise."""
    mon = m.group("mon")
    if mon.islower() and mon.lower() in _LOWER_MONTH_NEEDS_YEAR:
        if m.groupdict().get("y"):
            return True
        return mon.lower() != "may" and bool(_MD_CUE_BEFORE.search(_clause_before(text, m.start())))
    return True


def _day_month_case_ok(text: str, m: re.Match[str]) -> bool:
    """``9 oct``: a day written before a lowercase month abbreviation is a date; ``2 may``/``3 mar``/``1 dec`` stay verbs and words."""
    mon = m.group("mon")
    if mon.islower() and mon.lower() not in ("may", "mar", "dec") and not text[m.end() : m.end() + 1].isalpha():
        return True
    return _month_case_ok(text, m)


def _valid_md(a: int, b: int) -> bool:
    return (1 <= a <= 12 and 1 <= b <= 31) or (1 <= a <= 31 and 1 <= b <= 12)


def _numeric_date_ok(text: str, m: re.Match[str]) -> bool:
    a, b, y = int(m.group("a")), int(m.group("b")), m.group("y")
    if not _valid_md(a, b):
        return False
    if len(y) == 4 and not 1800 <= int(y) <= 2099:
        return False
    if m.group("sep") == "." and len(y) == 2 and (len(m.group("a")) < 2 or len(m.group("b")) < 2):
        return False  # 1.2.10 is more often a list number or a version than a date
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
    r"this\s+(?:morning|evening|afternoon)|last\s+(?:dose|seen)|hrs?|hours?)\b",
    _I,
)
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
        if year < 1960 or _CLOCK_CONTEXT.search(_clause_before(text, m.start(), 30)):
            return False  # "off sedation since 2015" is a military time
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
    # "the sleep study was on the 12th": a day of the month on its own
    PatternRule(
        "ordinal_day",
        Category.DATE,
        re.compile(
            r"\b(?:on|since|from|until|by|before|after)[ \t]+the[ \t]+(?P<v>(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th))\b"
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
    r"surgery|surgeries|scheduled|due|expires?|expired|circa|week\s+of|between|performed|done|obtained|drawn|"
    r"collected|placed|removed|changed|resumed|held|stopped|discontinued|restarted|recheck|re-check|repeat|redraw)[ \t]*(?:the[ \t]+)?(?:\(|\[)?$)",
    _I,
)
#: denominators of scores and counts that a yearless m/d shares: MMSE 8/30, 3/24 hours, 7/20
_SCORE_DENOMINATORS = frozenset({15, 16, 20, 24, 25, 30})
#: "echo 8/87": a month and a two-digit year that cannot be a day, after the same cues as a month/day
_MY = re.compile(r"(?<![\w/.:+-])(?P<a>1[0-2]|0?[1-9])/(?P<y>3[2-9]|[4-9]\d)(?![\w/+]|\.\d|:\d)")
_MD_CHAIN_BEFORE = re.compile(r"(?:,|\band\b|\bor\b|&|-|\bto\b|\bthrough\b|\bthru\b|\bvs\.?)[ \t]*$", _I)
_MD_LINE_START = re.compile(r"(?:^|\n)[ \t]*(?:[-*•>][ \t]*)?$")
#: words after which a bare m/d is a date: events, tests and procedures, note titles
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
    # "last drink 3/9", "next clinic 4/8": a last or next event
    r"|\b(?:last|next|first|prior|previous|latest|most[ \t]+recent)[ \t]+"
    r"(?!(?:steps?|items?|questions?|trials?|attempts?|sets?|levels?|stages?|phases?|cycles?|doses?|lines?|pages?|one|time|few)\b)[a-z]+[ \t]*[:#-]?[ \t]*$",
    _I,
)
_MD_EVENT_AFTER = re.compile(
    r"^[ \t]*(?:at[ \t]+\d|@[ \t]*\d|\d{1,2}:\d{2}|[01]\d{3}\b|2[0-3]\d{2}\b|(?:AM|PM|a\.m\.|p\.m\.)(?![\w])"
    r"|(?:specimens?|labs?|results?|visit|appt|note|draw|culture|films?|imaging)\b)",
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
_MD_LINE_START_AFTER = re.compile(r"^[ \t]*(?::|-[ \t]|–|—|\))")
_MD_TRAP_BEFORE = re.compile(
    r"\b(?:bp|b/p|blood[ \t]+pressures?|pressures?|peep|ps|psv|cpap|bipap|ipap|epap|vent|ventilator|settings?|simv|prvc|"
    r"ac|strength|motor|power|pain|scores?|scored|grades?|reflex(?:es)?|ratio|dose|doses|tabs?|tablets?|rated|scale|"
    r"gcs|apgars?|murmur|dtrs?|vision|acuity|mmhg|sbp|dbp|fio2|spo2|weaned|wean|weaning|titrated|rass|cam)\b[^/]*$",
    _I,
)
_MD_TRAP_AFTER = re.compile(
    r"^[ \t]*(?:pain|strength|power|motor|mg|mcg|g\b|gm|ml|tabs?|tablets?|caps?|puffs?|units?|scale|score|reflex|"
    r"murmur|ps\b|peep|cpap|cm|mmhg|on\s+\d|of\s+\d|with\s+\d|/|bilat|b/l|throughout|in\s+(?:all|the|both|upper|lower|bilateral)|"
    r"(?:upper|lower|proximal|distal|bilateral|left|right|lue|rue|lle|rle)\b|\+|(?:lymph[ \t]+)?nodes?\b|cores?\b|positive\b|involved\b"
    r"|items?\b|questions?\b|criteria\b|points?\b|correct\b|trials?\b|sites?\b|(?-i:[RL])\b)",
    _I,
)


class DateRecognizer(PatternRecognizer):
    """Calendar dates in the formats clinical notes use, plus yearless ``on 3/4``."""

    def __init__(self) -> None:
        super().__init__("date", _DATE_RULES)

    def _md_ok(self, text: str, m: re.Match[str], prev_end: int) -> bool:
        before = _clause_before(text, m.start())
        after = _after(text, m.end())
        if _MD_TRAP_AFTER.match(after) or _MD_TRAP_BEFORE.search(before[-24:]):
            return False
        if _MD_CUE_BEFORE.search(before) or _MD_EVENT_BEFORE.search(before) or _MD_EVENT_AFTER.match(after):
            return True
        # "full duty 3/18": a day past 12 cannot be a month, and scores out of 20, 24 or 30 are left to the traps above
        if int(m.group("b")) > 12 and int(m.group("b")) not in _SCORE_DENOMINATORS:
            return True
        if _MD_LINE_START.search(text[max(0, m.start() - 8) : m.start()]) and _MD_LINE_START_AFTER.match(after):
            return True
        # "on 3/4 and 3/6", "3/4-3/9": chained to a date just found
        if prev_end >= 0 and m.start() - prev_end <= 8 and _MD_CHAIN_BEFORE.search(text[prev_end : m.start()]):
            return True
        return False

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
        for m in _MY.finditer(text):
            if any(covered[m.start() : m.end()]):
                continue
            before = _clause_before(text, m.start())
            if _MD_TRAP_BEFORE.search(before[-24:]) or _MD_TRAP_AFTER.match(_after(text, m.end())):
                continue
            if _MD_CUE_BEFORE.search(before) or _MD_EVENT_BEFORE.search(before):
                spans.append(Span(m.start(), m.end(), Category.DATE, score=0.75, source="date/month_year_numeric"))
        return spans


# ------------------------------------------------------------------- ages
_AGE_N = r"(?P<n>1[0-4]\d|\d{1,2})(?:\.\d)?"
_Y = r"(?:years?|yrs?|yr|y)"
_SMALL = r"(?:months?|mos?|mths?|weeks?|wks?|wk|days?|d|hours?|hrs?|h)"


def _age_value_ok(text: str, m: re.Match[str]) -> bool:
    return int(m.group("n")) <= 125


def _age_cue_ok(text: str, m: re.Match[str]) -> bool:
    if not _age_value_ok(text, m):
        return False
    before = text[max(0, m.start() - 16) : m.start()].lower()
    return not re.search(r"(?:gestational|bone|mental|developmental|corrected|post[- ]?menstrual)\s*$", before)


#: what a French-gauge size is written against: "14F Foley", "8F sheath"
_GAUGE_AFTER = re.compile(
    r"[ \t]*(?:Foley|sheath|catheter|cath|chest|tube|NG|OG|NGT|drain|trach|Fr\b|french|coud[eé]|introducer|dilator|stent|JP|Blake|pigtail|suction|feeding|Dobhoff|rectal)",
    _I,
)


def _age_sex_ok(text: str, m: re.Match[str]) -> bool:
    return _age_value_ok(text, m) and not _GAUGE_AFTER.match(text, m.end() + 1)


_AGE_RULES: tuple[PatternRule, ...] = (
    PatternRule(
        "years_old",
        Category.AGE,
        re.compile(rf"\b{_AGE_N}[ \t]*-?[ \t]*{_Y}\.?[ \t]*-?[ \t]*(?:old|of[ \t]+age)\b", _I),
        score=0.95,
        accept=_age_value_ok,
    ),
    PatternRule(
        "y_o",
        Category.AGE,
        re.compile(rf"\b{_AGE_N}[ \t]*-?[ \t]*(?:y/o|y\.o\.|y\.o|yo|y/a|yoa)(?![a-z])", _I),
        score=0.95,
        accept=_age_value_ok,
    ),
    PatternRule(
        "small_units_old",
        Category.AGE,
        re.compile(rf"\b{_AGE_N}[ \t]*-?[ \t]*{_SMALL}\.?[ \t]*-?[ \t]*old\b", _I),
        score=0.9,
        accept=_age_value_ok,
    ),
    PatternRule(
        "age_cue",
        Category.AGE,
        re.compile(
            rf"\b(?:age|aged|ages|age[ \t]+of|at[ \t]+the[ \t]+age[ \t]+of|age[ \t]+at[ \t]+\w+|edad|idade|[âa]ge|tu[ổo]i|ya[şs]|et[àa]|alter|leeftijd|wiek|возраст|vozrast)\b[ \t]*[:=|]?[ \t]*"
            rf"(?P<v>{_AGE_N}(?:[ \t]*-?[ \t]*(?:{_Y}|{_SMALL}|años|anos|ans)(?![\w])\.?(?:,?[ \t]*(?:and[ \t]+)?\d{{1,2}}[ \t]*{_SMALL}\b)?"
            rf"(?:[ \t]*-?[ \t]*old\b)?)?)(?![\d/:-]|\.\d)",
            _I,
        ),
        score=0.9,
        group="v",
        accept=_age_cue_ok,
    ),
    # "He is 79 and lives alone": a bare number said of the patient
    PatternRule(
        "is_age",
        Category.AGE,
        re.compile(
            r"\b(?:he|she|they|pt|patient|who|client)[ \t]+(?:is|was|turned|turns|is[ \t]+now)[ \t]+(?:only[ \t]+)?"
            rf"(?P<v>{_AGE_N})(?![\d./:%-])(?=[ \t]*(?:,|;|\.(?!\d)|\band\b|\bbut\b|\bwith\b|$|\n))",
            _I,
        ),
        score=0.75,
        group="v",
        accept=_age_value_ok,
    ),
    PatternRule(
        "decade",
        Category.AGE,
        re.compile(r"\bin[ \t]+(?P<det>his|her|their|the)[ \t]+(?:(?:early|mid|late)[ \t-]*)?(?P<v>[1-9]0'?s)\b", _I),
        score=0.8,
        group="v",
        accept=lambda text, m: m.group("det").lower() != "the" or not _VITAL_BEFORE.search(_clause_before(text, m.start())),
    ),
    PatternRule(
        "age_sex",
        Category.AGE,
        re.compile(
            r"(?:(?<=^)|(?<=\n)|(?<=\b[Aa] )|(?<=\b[Aa]n )|(?<=\bPt )|(?<=\bpt )|(?<=\())"
            r"(?P<v>(?P<n>1[0-4]\d|\d{1,2})(?:[ \t]?yo)?)[ \t]?(?=[MF]\b)(?![MF][ \t]*\d)"
        ),
        score=0.7,
        group="v",
        accept=_age_sex_ok,
    ),
)


#: "bp in the 90s", "sats in the 80s": a decade after a vital sign or a lab is its value, not an age
_VITAL_BEFORE = re.compile(
    r"\b(?:bp|b/p|sbp|dbp|map|hr|rr|pulse|heart[ \t]+rate|resp(?:irations)?|sats?|spo2|o2|temps?|temperature|tmax|pressures?"
    r"|glucose|fs|fsbs|bg|sugars?|cvp|pap|uo|urine|k|na|hct|hgb|plt|platelets|inr|ptt|pco2|po2|ph)\b",
    _I,
)
_NUMBER_WORD = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[ \t-](?:one|two|three|four|five|six|seven|eight|nine))?"
    r"|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen"
    r"|nineteen|one[ \t-]hundred(?:[ \t-](?:and[ \t-])?(?:one|two|three|four|five))?)"
)
#: a clause about an event in a life ("died at 47", "breast cancer at 41") makes "at NN" that person's age
_LIFE_EVENT = re.compile(
    r"\b(?:died|passed[ \t]+away|deceased|death|diagnosed|dx(?:['’]?d)?|onset|menarche|menopause|cancer|carcinoma|lymphoma"
    r"|leuka?emia|melanoma|sarcoma|tumou?r|MI|stroke|CVA|dementia|transplant(?:ed)?|amputation|widowed|married|retired)\b",
    _I,
)


def _life_event_age_ok(text: str, m: re.Match[str]) -> bool:
    return _age_value_ok(text, m) and bool(_LIFE_EVENT.search(_clause_before(text, m.start(), 60)))


_AGE_RULES = _AGE_RULES + (
    # "45 años", "58 ans", "67 anos", "73 anni", "44 lata" (lat), "3 meses": ages in other languages
    PatternRule(
        "foreign_years",
        Category.AGE,
        re.compile(rf"\b{_AGE_N}[ \t]*(?:años|anos|ans|meses|mois|anni|mesi|lata?|jahre|jaar)(?![\w])", _I),
        score=0.9,
        accept=_age_value_ok,
    ),
    # "2 mo M brought by mom", "6 wk F": an infant's age written against the sex
    PatternRule(
        "small_unit_sex",
        Category.AGE,
        re.compile(rf"(?<![\w/.-])(?P<v>{_AGE_N}[ \t]?(?:mo|mos|months?|wks?|weeks?|days?|d|yr|yrs|y)\.?)[ \t]?(?=[MF]\b)(?![MF][ \t]*\d)"),
        score=0.8,
        group="v",
        accept=_age_value_ok,
    ),
    # "Age sixteen", "age: forty-two"
    PatternRule(
        "age_cue_words",
        Category.AGE,
        re.compile(rf"\b(?:age|aged|edad|idade)\b[ \t]*[:=|]?[ \t]*(?P<v>{_NUMBER_WORD})\b(?![ \t-]*(?:years?|months?|weeks?|days?)[ \t-]*old)", _I),
        score=0.85,
        group="v",
    ),
    # "she's nineteen she came in", "he is seventy two": an age dictated in words
    PatternRule(
        "is_age_words",
        Category.AGE,
        re.compile(
            rf"\b(?:he|she)(?:['’]s|[ \t]+is|[ \t]+was)[ \t]+(?:only[ \t]+)?(?P<v>{_NUMBER_WORD})\b"
            r"(?![ \t-]*(?:years?|months?|weeks?|days?|hours?|minutes?|times?|of|more|out|units?|pounds?|lbs?|kilos?|percent|doses?"
            r"|pills?|tablets?|cm|inches|feet|steps|blocks|flights|miles|am|pm|o['’]?clock|or|to|and|-)\b)",
            _I,
        ),
        score=0.75,
        group="v",
        accept=lambda text, m: m.group("v").lower() not in ("one", "two", "three", "four"),
    ),
    # "sixty-two-year-old man", "a ninety year old": ages spelled out
    PatternRule(
        "words_old",
        Category.AGE,
        re.compile(rf"\b{_NUMBER_WORD}[ \t]*-?[ \t]*(?:years?|months?|weeks?|days?)[ \t]*-?[ \t]*old\b", _I),
        score=0.9,
    ),
    # "89Y F", "47/F", "Age/Sex: 47/F": an age written against the sex
    PatternRule(
        "age_slash_sex",
        Category.AGE,
        re.compile(
            r"(?<![\w/.-])(?P<v>(?P<n>1[0-4]\d|\d{1,2})(?:[ \t]?(?:Y|y|yr|yrs|yo))?)[ \t]?(?:/[ \t]?|[ \t])(?=(?:[MF]|male|female|Male|Female)\b)"
            r"(?![MF][ \t]*\d)"
        ),
        score=0.75,
        group="v",
        accept=lambda text, m: _age_value_ok(text, m)
        and (bool(re.search(r"(?i:\bage\b|\bsex\b|\bdob\b|\bpt\b|\bpatient\b)[^\n]{0,40}$", text[max(0, m.start() - 45) : m.start()])) or "Y" in m.group("v").upper()),
    ),
    # "diagnosed with breast cancer at 41 and died at 47": a family history gives ages without units
    PatternRule(
        "life_event_at",
        Category.AGE,
        re.compile(
            r"\bat[ \t]+(?:(?:the[ \t]+)?age[ \t]+(?:of[ \t]+)?)?(?P<v>(?P<n>1[0-4]\d|\d{1,2})(?:[ \t]*(?:y/o|yo|yrs?|years?)\b(?:[ \t]+old\b)?)?)"
            r"(?![\d/:%-]|\.\d|[ \t]*(?:am|pm|a\.m|p\.m|h\b|hrs?|hours?|min|mg|mcg|ml|cm|mm|kg|lbs?|%|o['’]?clock|weeks?|wks?|days?|months?|percent|degrees?|bpm|mmhg))",
            _I,
        ),
        score=0.7,
        group="v",
        accept=_life_event_age_ok,
    ),
)


_DATE_BEFORE = re.compile(r"(?:\d{1,4}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}[ \t-]+[A-Za-z]{3,9}\.?[ \t-]+\d{4}|[A-Za-z]{3,9}\.?[ \t]+\d{1,2},?[ \t]+\d{4})[ \t]*\Z")
_AGE_RULES = _AGE_RULES + (
    # "DOB 01/30/1948 (76 yrs)", "b. 14.02.1988 (36 J.)", "DOB 3/2/2005 (19)", "born 23.06.1961, 63 years.", "(2 y 5 mo)":
    # the age written right after a birth date
    PatternRule(
        "after_birth_date",
        Category.AGE,
        re.compile(
            rf"(?:\(|,[ \t]*)(?P<v>{_AGE_N}(?:[ \t]?(?:y|yo|yrs?|years?|J\.?|a|ans|años|anos)(?:[ \t]+\d{{1,2}}[ \t]?(?:m|mo|mos|months?))?)?)"
            r"(?:\)|(?=[ \t]*(?:[,.;|]|$|\n)))",
            _I,
        ),
        score=0.85,
        group="v",
        accept=lambda text, m: _age_value_ok(text, m)
        and bool(_DATE_BEFORE.search(text, max(0, m.start() - 24), m.start()))
        and (text[m.start()] == "(" or not m.group("v").isdigit()),
    ),
    # "Eulalia Marchbanks, 84 years, DOB 3/30/1940": an age with its unit just before the birth date
    PatternRule(
        "before_birth_date",
        Category.AGE,
        re.compile(rf"(?P<v>{_AGE_N}[ \t]?(?:y|yo|yrs?|years?)\.?)[ \t]*[,;(][ \t]*(?:DOB|D\.O\.B\.?|born|b\.|date[ \t]+of[ \t]+birth)", _I),
        score=0.85,
        group="v",
        accept=_age_value_ok,
    ),
    # "MRN 7730215, 38F, RLQ pain", "| 79M |", "| 67/M |", "OGUNLEYE, 67 YRS, M": an age against the sex in a list or a table
    PatternRule(
        "listed_age_sex",
        Category.AGE,
        re.compile(
            rf"(?:(?<=, )|(?<=,)|(?<=\| )|(?<=\|)|(?<=  ))(?P<v>{_AGE_N}(?:[ \t]?(?:YRS?|yrs?|Y|y|yo|YO)\b)?)"
            r"(?:[ \t]?/?[ \t]?|,[ \t]*)(?:[MF]|male|female|Male|Female|MALE|FEMALE)(?=[ \t]*(?:[,|;)]|$|\n|-[ \t]))"
        ),
        score=0.75,
        group="v",
        accept=_age_sex_ok,
    ),
    PatternRule(
        "small_units_of_age",
        Category.AGE,
        re.compile(rf"\b{_AGE_N}[ \t]*-?[ \t]*{_SMALL}[ \t]+of[ \t]+age\b", _I),
        score=0.9,
        accept=_age_value_ok,
    ),
)


def age_recognizer() -> PatternRecognizer:
    return PatternRecognizer("age", _AGE_RULES)


# ----------------------------------------------------------------- phones
_EXT_REQUIRED = r"[ \t]*,?[ \t]*(?:x|ext\.?|extension|#)[ \t]*\d{1,6}(?!\d)"
_EXT = rf"(?:{_EXT_REQUIRED})?"
_PHONE_END = rf"(?:{_EXT_REQUIRED}|(?![\w/-]|\.\d))"
_PHONE_LABEL_LONG = (
    r"\b(?:phone|ph|t[ée]l|t[ée]l[ée]phone|telephone|cell|cellphone|mobile|mob|home|work|fax|facsimile|contact|call(?:ed)?|reach(?:ed)?|text|number)"
)
_PHONE_LABEL_SHORT = r"\b(?:pager|pgr|beeper|bpr|bleep|blp|page|paged|ext|extension)"
_PHONE_WORDS_BEFORE = re.compile(
    r"\b(?:phone|phoned|ph|t[ée]l|telephone|cell|cellphone|mobile|mob|call|called|calling|reach|reached|contact|text|texted|fax|faxed|ring|"
    r"pager|beeper|bleep|page|paged|number|voicemail|vm|line|hotline|home|work|office)\b[^\n]{0,30}$",
    _I,
)


def _digits(s: str) -> int:
    return sum(ch.isdigit() for ch in s)


#: words that label an identifier: a phone-shaped number after them is the identifier ("NHS No. 485 777 3456")
_ID_WORD_BEFORE = re.compile(
    r"(?:\b(?:NHS|CHI|MRN|SSN|SIN|medicare|medicaid|policy|member|subscriber|account|acct|claim|RAMQ|OHIP|IHI|URN|NPI|DEA)\b\.?"
    r"[ \t]*(?:no\.?|number|num|#|id)?"
    r"|\b(?:MR|UR|hosp(?:ital)?|clinic|chart|record|case|group|licen[cs]e|patient|pt)\b\.?[ \t]*(?:no\.?|number|num|#|id)|\bID)"
    r"[ \t]*[:#.=|]?[ \t]*$",
    re.IGNORECASE,
)


def _not_id_labelled(text: str, m: re.Match[str]) -> bool:
    return not _ID_WORD_BEFORE.search(text[max(0, m.start() - 24) : m.start()])


_PHONE_RULES: tuple[PatternRule, ...] = (
    PatternRule(
        "nanp",
        Category.PHONE,
        re.compile(
            r"(?<![\w.+/-])(?:\+?1[ \t.-]?)?(?:\(\d{3}\)[ \t]?|\d{3}[ \t./-])\d{3}[ \t.-]\d{4}" + _PHONE_END,
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
        accept=lambda text, m: 8 <= _digits(m.group(0)) <= 16,
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
            _PHONE_LABEL_SHORT + r"\b\.?[ \t]*(?:#|no\.?|number)?[ \t]*[:#]?[ \t]*(?P<v>\d{1,2}-\d{4}|\d{4,5}|\d{3}-\d{4}|\d{10})(?![\w/-]|\.\d)",
            _I,
        ),
        score=0.85,
        group="v",
    ),
)


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
    if not 8 <= _digits(v) <= 11 or not _bare_phone_ok(text, m) or not _not_id_labelled(text, m):
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
    return 10 <= _digits(m.group(0)) <= 11 and _not_id_labelled(text, m)


_PHONE_RULES = _PHONE_RULES + (
    # "07700 900461", "0131 555 0140", "020 7946 0958": spaced trunk-prefixed numbers of ten or eleven digits need no cue
    PatternRule(
        "trunk_spaced",
        Category.PHONE,
        re.compile(r"(?<![\w+/.:-])0\d{2,4}[ \t](?:\d{6}|\d{3,4}[ \t]\d{3,4})(?![\w/:-]|[.,]\d|[ \t]\d)" + _EXT),
        score=0.75,
        accept=_spaced_trunk_ok,
    ),
    # "212- 476- 8356", "410 / 202 6694": a US number typed with loose separators, spaces around them
    PatternRule(
        "nanp_spaced",
        Category.PHONE,
        re.compile(r"(?<![\w.+/-])\(?[2-9]\d{2}\)?(?:[ \t]*[-./][ \t]+|[ \t]+[-./][ \t]*)[2-9]\d{2}[ \t]*[-./]?[ \t]*\d{4}(?![\w/-]|[.,]\d)"),
        score=0.8,
        accept=_not_id_labelled,
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


# -------------------------------------------------------------------- IDs
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
    r"|plate[ \t]*(?:number|no\.?|#)|certificate[ \t]*(?:number|no\.?|#)|ID[ \t]*(?:number|no\.?|#)|identifier"
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


#: "VOIDED 300CC": a number with its unit is a measure, whatever word stands before it
_MEASURE_VALUE = re.compile(r"\d+(?:\.\d+)?[ \t]?(?:cc|ml|l|mg|mcg|g|kg|meq|units?|u|%)", _I)


def _labelled_id_ok(text: str, m: re.Match[str]) -> bool:
    v = m.group("v")
    if _clinical_value(v):
        return False
    if re.fullmatch(r"\d{1,2}/\d{1,2}(?:/(?:\d{2}|\d{4}))?", v):
        return False  # "Next visit 9/21" is a date
    if (re.fullmatch(r"\d+[.,]\d+", v) or _MEASURE_AFTER.match(text, m.end("v"))) and not _STRONG_ID_LABEL.match(m.group("label")):
        return False  # "self-report 63.5 kg", "Exam: Ht 108 cm" are measurements
    if _digits(v) >= 2 and len(v) >= 4:
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
_NOT_ID_WORDS = frozenset(
    """room rm bed bay unit apt apartment suite ste floor fl level lot phone tel telephone fax cell mobile pager page pages
    visit step grade chair item line question table figure fig dose cycle day week stage type size pod hd station box
    tube lead port lumen wire gauge catheter needle site slot track ward exam trial attempt cassette chapter section
    part round session list page""".split()
)


def _any_label_id_ok(text: str, m: re.Match[str]) -> bool:
    v = m.group("v")
    if m.group("word").lower().rstrip(".") in _NOT_ID_WORDS or _clinical_value(v) or _MEASURE_VALUE.fullmatch(v):
        return False
    return _digits(v) >= 3 and len(v) >= 5


_ID_RULES = _ID_RULES + (
    # "Clinic no. GEN-48215", "Hosp No. R0784412", "Docket No.: CR-2023-004417", "Run #: 24-118732": any label
    PatternRule(
        "any_label",
        Category.ID,
        re.compile(
            r"(?<![\w])(?P<word>[A-Z][A-Za-z]{1,14}\.?|[A-Z]{2,6})[ \t]*(?:No\.?|no\.|NO\b\.?|Number|number|NUMBER|Nbr|#|ID(?![A-Za-z]))[ \t]*[:#=|]?[ \t]*"
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
_CODE_PREFIXES = frozenset(
    """ICD CPT HCPCS NDC LOINC SNOMED COVID SARS HLA CD IL TNF HER BRCA ISO IEC EN BS ASTM ANSI DSM PHQ GAD NCT UN UNII CAS
    RXCUI MCSA FORM VAERS HL ISBN ISSN DOI PMID PMC EC GS1 GTIN SOP REV VER V USP NF AAMI ATCC""".split()
)


def _structured_code_ok(text: str, m: re.Match[str]) -> bool:
    v = m.group(0)
    groups = v.split("-")
    if groups[0].upper() in _CODE_PREFIXES:
        return False
    before = text[max(0, m.start() - 12) : m.start()].lower()
    if re.search(r"(?:policy|protocol|form|version|ver|rev|sop|standard|guideline)[ \t#:.]*$", before):
        return False
    digits = _digits(v)
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
    # an ISBT 128 blood donation number: "W0412 24 118832"
    PatternRule("blood_unit", Category.ID, re.compile(r"(?<![\w-])[A-Z]\d{4}[ ]\d{2}[ ]\d{6}(?![\w-])"), score=0.85),
)


def id_recognizer() -> PatternRecognizer:
    return PatternRecognizer("id", _ID_RULES)


# -------------------------------------------------------------------- web
_TLDS = r"(?:com|org|net|edu|gov|mil|int|io|us|uk|ca|info|biz|health|care|med|example|test|local|me|co|app|online)"
_WEB_RULES: tuple[PatternRule, ...] = (
    PatternRule(
        "email",
        Category.WEB,
        re.compile(r"(?<![\w.+-])[^\W_][\w.%+-]*@[^\W_](?:[\w-]*[^\W_])?(?:\.[\w-]+)*\.[A-Za-z]{2,}\b"),
        score=0.97,
    ),
    PatternRule(
        "url",
        Category.WEB,
        re.compile(r"\b(?:https?://|ftp://|www\.)[^\s<>\"'()\[\]{}]+(?<![.,;:!?])", _I),
        score=0.95,
    ),
    PatternRule(
        "domain",
        Category.WEB,
        re.compile(
            rf"(?<![\w@./-])(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+{_TLDS}\b(?:/[^\s<>\"'()]*)?(?<![.,;:!?])",
            _I,
        ),
        score=0.8,
    ),
    PatternRule(
        "ipv4",
        Category.WEB,
        re.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?!\w|\.\d)"),
        score=0.9,
    ),
    PatternRule(
        "ipv6",
        Category.WEB,
        re.compile(r"(?<![\w:])(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(?![\w:])", _I),
        score=0.9,
    ),
    PatternRule(
        "username",
        Category.WEB,
        re.compile(
            r"\b(?:user[ \t]?name|user[ \t]?id|login|log-?in[ \t]+name|handle|screen[ \t]?name|portal[ \t]+id)\b"
            r"(?:[ \t]+is|[ \t]*[:=])[ \t]*(?P<v>(?=[\w.-]*[A-Za-z])[A-Za-z0-9][\w.-]{2,40})(?<![.-])",
            _I,
        ),
        score=0.85,
        group="v",
    ),
    # "From: jtrevino88": a message header naming a lowercase account, not a person
    PatternRule(
        "header_handle",
        Category.WEB,
        re.compile(
            r"(?:^|(?<=\n))[ \t]*(?i:from|to|sender|sent[ \t]+by|reply[ \t]+from)[ \t]*:[ \t]*"
            r"(?P<v>(?=[a-z0-9._-]*(?:\d|[._]))[a-z][a-z0-9._-]{1,30}[a-z0-9])(?=[ \t]*(?:\n|$|\(|<))"
        ),
        score=0.8,
        group="v",
    ),
    PatternRule(
        "handle",
        Category.WEB,
        re.compile(r"(?<![\w@.])@(?=[A-Za-z0-9_.]*[a-z])[A-Za-z][A-Za-z0-9_.]{2,29}(?<!\.)\b"),
        score=0.7,
    ),
)


def web_recognizer() -> PatternRecognizer:
    return PatternRecognizer("web", _WEB_RULES)


# -------------------------------------------------------------- locations
_STREET_SUFFIX = (
    r"(?:Street|St|Avenue|Ave|Av|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Circle|Cir|Way|Place|Pl|Terrace|Ter"
    r"|Parkway|Pkwy|Highway|Hwy|Route|Rte|Square|Sq|Trail|Trl|Plaza|Plz|Loop|Alley|Row|Crescent|Path|Pike|Turnpike"
    r"|Tpke|Run|Point|Ridge|Heights|Hts|Crossing|Grove|Pass|Walk|Commons|Landing|Bend|Cove|Glen|Hollow|Meadows?"
    r"|Mews|Expressway|Expy|Freeway|Fwy|Causeway|Wharf|Pier|Concourse|Close|Gardens|Parade|Esplanade|Promenade|Quay)"
)
_DIR = r"(?:N|S|E|W|NE|NW|SE|SW|N\.E\.|N\.W\.|S\.E\.|S\.W\.|North|South|East|West|Northeast|Northwest|Southeast|Southwest)\.?"
_WORD = r"(?:[^\W\d_][\w'’.-]*|\d{1,4}(?:st|nd|rd|th))"
_STATE_NAMES = alternation(STATES)
_STATE_ABBR = "|".join(sorted(STATE_ABBRS))
_ZIP = r"\d{5}(?:-\d{4})?(?!\d)"
_UPPER = "A-ZÀ-ÖØ-ÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮİĴĶĹĻĽĿŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽ"
_CITY_TOKEN = rf"[{_UPPER}][^\W\d_'’.-]*(?:['’.-][^\W\d_]+)*\.?"
_CITY = rf"(?:{_CITY_TOKEN}[ \t]+){{0,2}}{_CITY_TOKEN}"

_STREET = re.compile(
    rf"(?<![\w/.-])(?P<num>\d{{1,6}}(?:-\d{{1,4}})?[A-Za-z]?)[ \t]+(?:{_DIR}[ \t]+)?(?:{_WORD}[ \t]+){{1,4}}?"
    rf"(?i:{_STREET_SUFFIX})\.?(?![A-Za-z])(?:[ \t]+{_DIR}(?![A-Za-z]))?"
)
_SECOND_SUFFIX = re.compile(rf"[ \t]+(?i:{_STREET_SUFFIX})\.?(?![A-Za-z])")
_PO_BOX = re.compile(r"\b(?:P\.?[ \t]?O\.?[ \t]*Box|Post[ \t]+Office[ \t]+Box)[ \t]+\d{1,6}\b", _I)
_UNIT = re.compile(
    r"[ \t]*,?[ \t]*(?:(?:Apt|Apartment|Unit|Suite|Ste|Fl|Floor|Rm|Room|Bldg|Building|Lot|Space)\b\.?|#)[ \t]*#?[ \t]*"
    r"(?=[A-Za-z]{0,2}\d|[A-Za-z]\b)[A-Za-z0-9-]{1,6}\b",
    _I,
)
_CITY_STATE_TAIL = re.compile(
    rf"[ \t]*,?[ \t]*\n?[ \t]*(?P<city>{_CITY})[ \t]*,?[ \t]*(?P<state>{_STATE_NAMES}|{_STATE_ABBR})\b(?:[ \t]*,?[ \t]*(?P<zip>{_ZIP}))?"
)
_CITY_ONLY_TAIL = re.compile(rf"[ \t]*,[ \t]*(?P<city>{_CITY})(?=[ \t]*(?:[.;\n)]|$))")
_ZIP_TAIL = re.compile(rf"[ \t]*,?[ \t]*(?P<zip>{_ZIP})")

_CITY_STATE = re.compile(
    rf"(?<![\w'’-])(?P<city>{_CITY}),[ \t]*(?P<state>{_STATE_NAMES}|{_STATE_ABBR})\b(?:[ \t]*,?[ \t]+(?P<zip>{_ZIP}))?"
)
_ANY_CASE_ADDRESS = re.compile(
    rf"(?<![\w/.-])\d{{1,6}}[A-Za-z]?[ \t]+(?:[^\W\d_][\w'’.-]*[ \t]+){{1,4}}?(?i:{_STREET_SUFFIX})\.?(?![A-Za-z])"
    rf"(?:[ \t]*,?[ \t]*(?i:apt|unit|suite|ste|#)\.?[ \t]*#?[ \t]*[A-Za-z0-9-]{{1,6}})?"
    rf"[ \t]*,?[ \t]+(?:[^\W\d_][\w'’.-]*[ \t]+){{0,2}}[^\W\d_][\w'’.-]*[ \t]*,?[ \t]+(?P<state>[A-Za-z]{{2}}|(?i:{_STATE_NAMES}))[ \t]+{_ZIP}"
)
_COUNTY = re.compile(r"(?<![\w'’-])(?:(?:St\.|[A-Z][a-z'’]+)[ \t]+){1,2}(?:County|Parish|Borough)\b(?![ \t]+(?:of\b|[A-Z]))")
#: a ward written as a floor and a wing: "Unit 5 East", "Ward 4 North"
_WARD = re.compile(r"\b(?:Unit|Ward|Floor|Wing)[ \t]+\d{1,2}[ \t]?(?:East|West|North|South|NE|NW|SE|SW|E|W|N|S)\b")
#: numbered roads: "Interstate 80", "I-95", "Highway 287", "County Road 40", "Route 9"
_ROAD = re.compile(
    r"(?<![\w-])(?:(?:Interstate|Highway|Hwy\.?|Route|Rte\.?|State[ \t]+(?:Route|Road|Highway)|County[ \t]+(?:Road|Rd\.?|Route)"
    r"|U\.?S\.?[ \t]+(?:Route|Highway|Hwy\.?)|Farm[ \t]+to[ \t]+Market|FM)[ \t]*-?[ \t]*\d{1,4}[A-Z]?"
    r"|(?:I|US)-(?!12[35]\b|131\b)\d{1,3})(?![\w/.-]|\.\d)(?:[ \t]+Box[ \t]+\d{1,5}\b)?"
)
#: an unnumbered street after "on", "off", "near": "pick up at Walgreens on Fremont Ave"
_NAMED_STREET = re.compile(
    r"\b(?:on|off|near|along|at|of)[ \t]+(?P<street>(?:[A-Z][a-z'’]+[ \t]+){1,2}"
    r"(?:Ave|Avenue|St|Street|Rd|Road|Blvd|Boulevard|Ln|Lane|Pkwy|Parkway|Dr|Drive|Pike|Terrace|Ct|Court|Pl|Place|Way)\b\.?)"
    r"(?![ \t]+[A-Z])"
)
#: "1187 County Road 40": the number after a road word belongs to the street
_ROAD_NUMBER = re.compile(r"(?:(?<=Road)|(?<=Route)|(?<=Highway))[ \t]+\d{1,4}[A-Z]?(?=[ \t]*(?:,|\n|$))")
_ZIP_LABELLED = re.compile(rf"\b(?:zip|zip[ \t]*code|postal[ \t]*code|zipcode)\b[ \t]*[:#]?[ \t]*(?P<zip>{_ZIP})", _I)
#: the ward or block written before a room: "5 North, Rm 5112", "Neuro ICU Bed 14", "C-Block, Cell 214", "6 East Tele, Rm 614-B"
_ROOM_WARD = (
    r"(?-i:(?:\d{1,2}[ \t]?(?:North|South|East|West|N|S|E|W)(?:[ \t]+[A-Z][a-z]+)?|[A-Z]-(?:Unit|Block|Pod|Wing)"
    r"|(?:(?:Neuro|Cardiac|Surgical|Medical|Pediatric|Paediatric|Burn|Trauma|Cardiothoracic)[ \t]+)?(?:ICU|CCU|PACU|NICU|PICU|MICU|SICU|CVICU|HDU)"
    r"|[A-Z][a-z]+[ \t]+Hall)[ \t]*,?[ \t]*)?"
)
_ROOM = re.compile(
    r"(?<![\w-])" + _ROOM_WARD + r"\b(?:room|rm|bed|bay|ward|cubicle|suite|pod|cabin|zimmer|stretcher|isolette|berth|(?-i:Cell|CELL|Chair|CHAIR|Crib))\.?[ \t]*#?[ \t]*(?:\d{1,5}[A-Za-z]?(?:-(?:\d{1,4}[A-Za-z]?|[A-Za-z]))?|[A-Za-z]\d{1,4}[A-Za-z]?)\b"
    r"(?:[ \t]*[-/,]?[ \t]*(?:bed|b)[ \t]*#?[ \t]*\d{1,3}[A-Za-z]?\b)?",
    _I,
)
_POST_OP_DAY = re.compile(r"pod\.?[ \t]*#?[ \t]*\d{1,2}", _I)
#: a bed on a bed board: floor and wing then the room, "4W-406", "5N-512", "8S-822", "4W-401A", "5E-522 bed 2"
_BED_CODE = re.compile(
    r"(?<![\w/.-])(?:\d{1,2}[NSEW]-\d{3}[A-Z]?|(?:ED|MICU|SICU|CCU|ICU|PICU|NICU|PACU|CVICU|TCU|OBS)-[A-Z]?\d{1,3}[A-Z]?)"
    r"(?:[ \t]+bed[ \t]+\d{1,2})?(?![\w/-])"
)
_DOSE_WORD = re.compile(
    r"(?:mg|mcg|ug|g|gm|kg|lbs?|oz|ft|cm|mm|ml|mL|L|units?|iu|IU|mEq|mmol|tabs?|caps?|puffs?|drops?|bid|tid|qid|qd|qhs|qam|qpm|prn|daily|po|iv|im|sc|sq|x"
    r"|level|times|days?|weeks?|hours?|hrs?|mins?|minutes)",
    _I,
)
_CREDENTIAL_LIKE = frozenset({"MD", "PA", "MA", "MS", "DO", "RN", "NP", "OT", "PT"})
_NUMBERED_BEFORE = re.compile(rf"(?:{NUMBERED_BEFORE_PLACE})[ \t]*,[ \t]*$", _I)
_PLACE_CUE = re.compile(
    r"\b(?:in|from|to|near|of|at|lives|living|live|resides|residing|moved|born|visiting|relocated|transferred)[ \t]*$", _I
)
#: a city and its country or province: "Chennai, India", "Montréal (Québec)", "Townsville, QLD"
_CITY_REGION = re.compile(
    rf"(?<![\w'’-])(?P<city>{_CITY})(?:[ \t]*,[ \t]*|[ \t]+\()(?P<region>[{_UPPER}][^\W\d_]*(?:[ \t]+(?:and[ \t]+)?[{_UPPER}][^\W\d_]*){{0,3}})"
)
# Postcodes of the UK, Canada, Ireland (Eircode) and Australia (state + 4 digits)
_FOREIGN_POSTAL = re.compile(
    r"(?<![\w-])(?:[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]?[ \t]?\d[ABD-HJLNP-UW-Z]{2}"
    r"|[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ \t-]?\d[ABCEGHJ-NPRSTV-Z]\d"
    r"|(?:[AC-FHKNPRTV-Y]\d{2}|D6W)[ \t]?(?=[0-9AC-FHKNPRTV-Y]{0,3}[A-Z])[0-9AC-FHKNPRTV-Y]{4}"
    r"|(?:NSW|VIC|QLD|SA|WA|TAS|NT|ACT|Vic|Qld|Tas)[ \t]+\d{4})(?![\w-])"
)
_ADDRESS_WORD = re.compile(
    rf"(?:\d[\w/-]*|[{_UPPER}][\w'’.-]*|\((?:[{_UPPER}][\w'’.-]*[ \t]?){{1,3}}\)|upon|on|de|la|du|des|le|sur|the|of|and|&"
    r"|rue|boul\.?|boulevard|bd\.?|av\.?|avenue|ch\.?|chemin|route|rang|c/o)"
)
_NOT_ADDRESS_HEAD = frozenset(
    """centre center hospital clinic surgery practice infirmary medicine department dept service services unit ward
    health pharmacy school university college institute programme program""".split()
)
_TITLE_WORDS = frozenset("dr mr mrs ms miss mx prof doctor".split())


class LocationPatternRecognizer(RuleRecognizer):
    """Street addresses (with unit, city, state, ZIP), ``City, ST ZIP``, ZIP codes, rooms and beds.

    A two-letter state after ``Name,`` is often a credential (``Lopez, MD``,
    ``Jones, PA``) or a clinical abbreviation; those need a ZIP, a known
    city or a place cue (``lives in``) before they count as a place.
    """

    name = "address"
    version = "1"
    categories = frozenset({Category.LOCATION})

    def __init__(self, lexicon: "Lexicon | None" = None) -> None:
        self._lexicon = lexicon

    @property
    def lexicon(self) -> "Lexicon":
        if self._lexicon is None:
            self._lexicon = default_lexicon()
        return self._lexicon

    @staticmethod
    def _city_known(city: str) -> bool:
        return city.lower() in us_cities()

    def _trim_city(self, text: str, start: int, end: int) -> int:
        """Drop leading words of a city match that are not part of it (``LIVES IN PORTLAND``)."""
        words = list(re.finditer(r"\S+", text[start:end]))
        for w in words:
            if self._city_known(text[start + w.start() : end]):
                return start + w.start()
        for i, w in enumerate(words[:-1]):
            token = w.group(0).strip(".,")
            if not (self.lexicon.is_stop(token) or self.lexicon.is_common_word(token)):
                return start + w.start()
        return start + words[-1].start() if words else start

    def _state_ok(self, text: str, city_start: int, city: str, state: str, zip_code: str | None, after_street: bool) -> bool:
        if zip_code or after_street:
            return True
        if len(state) > 2:
            return True
        if state in _CREDENTIAL_LIKE:
            if _NUMBERED_BEFORE.search(text[max(0, city_start - 12) : city_start]):
                return True
            known = self._city_known(city)
            cue = bool(_PLACE_CUE.search(text[max(0, city_start - 16) : city_start]))
            head = city.split()[0]
            if cue and not self.lexicon.is_first(head) and self.lexicon.census_share(head) < 1e-5:
                return True  # "FROM DUNMORE, PA": a town too small for the lists, after a place cue
            return known and (not self.lexicon.is_name(city) or cue)
        if state in AMBIGUOUS_STATE_ABBRS:
            return self._city_known(city) or bool(_PLACE_CUE.search(text[max(0, city_start - 16) : city_start]))
        return True

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        out: list[Span] = []
        for m in list(_STREET.finditer(text)) + list(_PO_BOX.finditer(text)):
            start, end = m.start(), m.end()
            if m.re is _STREET and not self._street_ok(m):
                continue
            second = _SECOND_SUFFIX.match(text, end)
            if second:
                end = second.end()  # "77 Juniper Hollow Rd": the first street word was part of the name
            road_number = _ROAD_NUMBER.match(text, end)
            if road_number:
                end = road_number.end()
            unit = _UNIT.match(text, end)
            if unit:
                end = unit.end()
            tail = _CITY_STATE_TAIL.match(text, end)
            if tail:
                end = tail.end()
            else:
                city = _CITY_ONLY_TAIL.match(text, end)
                if city and self._city_known(city.group("city")):
                    end = city.end()
                z = _ZIP_TAIL.match(text, end)
                if z:
                    end = z.end()
            out.append(Span(start, end, Category.LOCATION, score=0.9, source="address/street"))
        for m in _CITY_STATE.finditer(text):
            city_start = self._trim_city(text, m.start("city"), m.end("city"))
            city = text[city_start : m.end("city")]
            if not self._state_ok(text, city_start, city, m.group("state"), m.group("zip"), after_street=False):
                continue
            # "lives in Salem, Oregon": city and state are one place, as an address is (docs/annotation.md)
            out.append(Span(city_start, m.end(), Category.LOCATION, score=0.85, source="address/city_state"))
        out.extend(self._city_regions(text))
        out.extend(self._foreign_addresses(text))
        for m in _ANY_CASE_ADDRESS.finditer(text):
            # a lowercase address ("576 nw washington ln, fairfield, wi 56812") needs its state and ZIP
            if m.group("state").upper() in STATE_ABBRS or len(m.group("state")) > 2:
                out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.85, source="address/any_case"))
        for m in _COUNTY.finditer(text):
            first = m.group(0).split()[0]
            if first.lower() in ("the", "this", "that", "our", "each", "every", "a", "an", "in", "of", "from", "and") or self.lexicon.is_stop(first):
                continue
            out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.75, source="address/county"))
        for m in _ZIP_LABELLED.finditer(text):
            out.append(Span(m.start("zip"), m.end("zip"), Category.LOCATION, score=0.85, source="address/zip"))
        for m in _WARD.finditer(text):
            out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.75, source="address/ward"))
        for m in _ROAD.finditer(text):
            out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.75, source="address/road"))
        for m in _NAMED_STREET.finditer(text):
            first = m.group("street").split()[0]
            if self.lexicon.is_stop(first) or first.lower() in ("the", "this", "that"):
                continue
            out.append(Span(m.start("street"), m.end("street"), Category.LOCATION, score=0.7, source="address/named_street"))
        for m in _ROOM.finditer(text):
            if re.match(r"[-.][ \t]?\d", text[m.end() : m.end() + 3]):
                continue  # "cell 503-555-0148" is a telephone
            if _POST_OP_DAY.fullmatch(m.group(0)):
                continue  # "s/p cabg, pod #2", "AMBULATE POD 1": a post-operative day, not a bed pod
            out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.8, source="address/room"))
        for m in _BED_CODE.finditer(text):
            out.append(Span(m.start(), m.end(), Category.LOCATION, score=0.7, source="address/bed_code"))
        return out

    def _city_regions(self, text: str) -> list[Span]:
        """``Chennai, India``, ``Montréal (Québec)``, ``Townsville, QLD``: a city with its country or province."""
        out = []
        lex = self.lexicon
        known_countries = countries()
        for m in _CITY_REGION.finditer(text):
            words = m.group("region").split()
            region_end = None
            for n in range(len(words), 0, -1):
                cand = " ".join(words[:n])
                if cand in REGIONS or (cand.lower() in known_countries and cand[:1].isupper() and len(cand) > 3):
                    region_end = m.start("region") + len(cand)
                    region = cand
                    break
            if region_end is None:
                continue
            if text[m.end("city") : m.start("region")].strip().startswith("("):
                if text[region_end : region_end + 1] != ")":
                    continue
                region_end += 1
            city_start = self._trim_city(text, m.start("city"), m.end("city"))
            city = text[city_start : m.end("city")]
            first = city.split()[0].strip(".,")
            if len(city) < 3 or lex.is_stop(first) or first.lower() in ("the", "and", "of") or (city.isupper() and len(city) <= 3):
                continue
            cue = bool(_PLACE_CUE.search(text[max(0, city_start - 16) : city_start]))
            known = self._city_known(city)
            if (region in AMBIGUOUS_REGIONS or lex.is_name(region.lower())) and not (known or cue):
                continue  # "Lopez, Jordan" is a name written surname first
            if not (known or cue) and (lex.is_name(first.lower()) or lex.is_common_word(first.lower(), strict=True)):
                continue
            out.append(Span(city_start, region_end, Category.LOCATION, score=0.8, source="address/city_region"))
        return out

    @staticmethod
    def _foreign_addresses(text: str) -> list[Span]:
        """A UK, Canadian, Irish or Australian postcode and the address pieces before it on its line."""
        out = []
        for m in _FOREIGN_POSTAL.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            head = text[line_start : m.start()]
            cut = max(head.rfind(": "), head.rfind(";"), head.rfind("\t"), head.rfind("  "))
            base = line_start + (cut + 1 if cut >= 0 else 0)
            head = text[base : m.start()]
            parts = head.split(",")
            start = None
            offset = len(head)
            for k, part in enumerate(reversed(parts)):
                offset -= len(part)
                piece = part.strip()
                if not piece:
                    if k == 0:
                        offset -= 1
                        continue
                    break
                words = piece.split()
                if len(words) > 7 or any(not _ADDRESS_WORD.fullmatch(w) for w in words):
                    break
                if words[-1].lower().strip(".") in _NOT_ADDRESS_HEAD or words[0].lower().strip(".") in _TITLE_WORDS:
                    break
                start = base + offset + (len(part) - len(part.lstrip()))
                if k >= 5:
                    break
                offset -= 1  # the comma
            if start is None:
                continue
            out.append(Span(start, m.end(), Category.LOCATION, score=0.85, source="address/postcode"))
        return out

    @staticmethod
    def _street_ok(m: re.Match[str]) -> bool:
        # the street name must be capitalised (it is, in practice, or all caps)
        name_words = m.group(0).split()[1:-1]
        if any(_DOSE_WORD.fullmatch(w.rstrip(".,")) for w in name_words):
            return False  # "200 mg BID. Sees Dr. Lee" is a dose and a sentence, not "... Dr."
        if any(w.upper() in ("AM", "PM", "HRS", "H") for w in name_words):
            return False  # "0715 AM med pass" is a time and a round
        if any(w in ("and", "at", "to", "in", "on", "for", "with", "from", "by", "is", "was", "then", "or") for w in name_words):
            return False  # "level 3 and respite at Mercy Place" is prose that ends on a street word
        return any(w[:1].isupper() or w[:1].isdigit() for w in name_words)


def default_pattern_recognizers() -> list[RuleRecognizer]:
    return [DateRecognizer(), age_recognizer(), phone_recognizer(), id_recognizer(), web_recognizer(), LocationPatternRecognizer()]
