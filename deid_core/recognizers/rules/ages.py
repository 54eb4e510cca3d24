"""Unit ``age``: ages with their unit (``67 y/o``, ``3-week-old``), after a cue (``age 54``) or against the sex (``47F``).

A bare number is an age only where the sentence says so (``she is 79``,
``died at 47``); gestational, bone and corrected ages, French-gauge sizes
(``14F Foley``) and vitals in a decade (``sats in the 80s``) are left alone.
Tests: ``tests/rules/test_age.py``.
"""

from __future__ import annotations

import re

from deid_core.recognizers.lexicon import default_lexicon
from deid_core.recognizers.rules.base import PatternRecognizer, PatternRule
from deid_core.recognizers.rules.common_words import CLINICAL_ACRONYMS
from deid_core.recognizers.rules.nearby import clause_before
from deid_core.spans import Category

_I = re.IGNORECASE


_AGE_N = r"(?P<n>1[0-4]\d|\d{1,2})(?:\.\d)?"
_Y = r"(?:years?|yrs?|yr|y)"
_SMALL = r"(?:months?|mos?|mths?|weeks?|wks?|wk|days?|d|hours?|hrs?|h)"


def _age_value_ok(text: str, m: re.Match[str]) -> bool:
    return int(m.group("n")) <= 125


#: a device or a sample before "48 hrs old" is what is that old, not a person ("filter 48 hrs old", "PIV 4 DAYS OLD")
_THING_BEFORE = re.compile(
    r"\b(?:filter|circuit|tubing|line|lines|piv|iv|picc|cvc|catheter|cath|foley|dressing|drsg|bag|bags|site|sites|tube|drain|ett|trach"
    r"|culture|cultures|sample|specimen|blood|platelets|plts|prbc|ffp|dialysate|cartridge|syringe|infusion|drip|gtt|wound|incision|clot"
    r"|patch|sheet|bottle|canister|set|lab|labs|film|cxr|ekg|ecg|study|result|results)(?:[ \t]+(?:is|was|now|are|were))?[ \t]*[:,-]?[ \t]*$",
    _I,
)


#: minutes after the number: no one's age ("flight crew eta 45 min", where "eta" is no Italian "età")
_MINUTES_AFTER = re.compile(r"[ \t]*(?:min|mins|minutes|mn)\b", _I)


def _age_cue_ok(text: str, m: re.Match[str]) -> bool:
    if not _age_value_ok(text, m) or _MINUTES_AFTER.match(text, m.end()):
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


#: what before a number joined to F makes it a temperature ("TMAX 101F"), a size or a setting
#: (a colon only after a digit: "1:1 24F" is a ratio, "HPI: 24M w/ acne" a label)
_NOT_AGE_BEFORE = re.compile(r"(?:\b(?:t|temp|tmax|tm|max|febrile|fever|afebrile|to|x|peep|ps|fio2|size|sz|room|rm|bed|bay|#)|[\d°/-]|\d:)[ \t]*$", _I)

_DISTANCE_BEFORE = re.compile(r"\b(?:amb|ambulat\w*|walk\w*|distance|gait|hallway|hall)\b[^.;\n]*$", _I)


def _is_diagnosis(word: str) -> bool:
    """A clinical word or short form that may follow an opening age and sex ("chf", "copd", "dka"), not a device's size
    ("12 f foley") or what was done ("40 m ambulated")."""
    if _GAUGE_AFTER.match(word) or word.endswith(("ed", "ing")) or word.startswith(("amb", "walk")):
        return False
    return default_lexicon().is_clinical(word) or word.upper() in CLINICAL_ACRONYMS


def _joined_age_sex_ok(text: str, m: re.Match[str]) -> bool:
    if not _age_sex_ok(text, m) or _NOT_AGE_BEFORE.search(text, max(0, m.start() - 10), m.start()):
        return False
    if _DISTANCE_BEFORE.search(text, max(0, m.start() - 40), m.start()):
        return False  # "ambulated 40m with pt": metres walked
    return not (m.group("v")[-1] in "Ff" and 93 <= int(m.group("n")) <= 108)  # "101F": a fever written without its cue


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
        re.compile(rf"\b{_AGE_N}[ \t]*-?[ \t]*(?:y/o[mf]?|y\.o\.|y\.o|yo[mf]?|yow[mf]|yob[mf]|y/a|yoa)(?![a-z])", _I),
        score=0.95,
        accept=_age_value_ok,
    ),
    # "71 YEARS F ADMITTED", "82 yrs, male": the years and the sex letter after them
    PatternRule(
        "years_sex",
        Category.AGE,
        re.compile(rf"\b{_AGE_N}[ \t]*-?[ \t]*(?:years?|yrs?)\.?(?=[ \t]*,?[ \t]*(?:[MF]|male|female|man|woman)\b(?!/))", _I),
        score=0.9,
        accept=_age_value_ok,
    ),
    PatternRule(
        "small_units_old",
        Category.AGE,
        # a unit written apart from "old" ("90 hold" is no "90 h old")
        re.compile(rf"\b{_AGE_N}[ \t]*-?[ \t]*{_SMALL}(?:\.?[ \t]*-[ \t]*|\.?[ \t]+|\.)old\b", _I),
        score=0.9,
        accept=lambda text, m: _age_value_ok(text, m) and not _THING_BEFORE.search(text, max(0, m.start() - 30), m.start()),
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
    # "He is 79 and lives alone", "pt is 90+,": a bare number said of the patient
    PatternRule(
        "is_age",
        Category.AGE,
        re.compile(
            r"\b(?:he|she|they|pt|patient|who|client)[ \t]+(?:is|was|(?:(?:just|recently)[ \t]+)?(?:turned|turns)|is[ \t]+now)[ \t]+(?:only[ \t]+)?"
            rf"(?P<v>{_AGE_N}(?:[ \t]*(?:yrs?|years)|\+)?)(?![\d./:%-])(?=[ \t]*(?:,|;|\.(?!\d)|\band\b|\bbut\b|\bwith\b|$|\n))",
            _I,
        ),
        score=0.75,
        group="v",
        accept=_age_value_ok,
    ),
    PatternRule(
        "decade",
        Category.AGE,
        re.compile(r"\b(?:in|into)[ \t]+(?P<det>his|her|their|the)[ \t]+(?:(?:early|mid|late)[ \t-]*)?(?P<v>[1-9]0'?s)\b", _I),
        score=0.8,
        group="v",
        accept=lambda text, m: m.group("det").lower() != "the" or not _VITAL_BEFORE.search(clause_before(text, m.start())),
    ),
    # "PT WILL TURN 78 ON DEC 2ND", "turns 90 next week", "turns 24 tmrw", "turned 101 last week": a birthday to come or just past
    PatternRule(
        "turns",
        Category.AGE,
        re.compile(
            rf"\b(?:will[ \t]+turn|turns|turning|turned)[ \t]+(?P<v>{_AGE_N})(?![\d./:%-])"
            r"(?=[ \t]+(?:on|next|last|this|today|tomorrow|tmrw|tmw|tomorow|tonight|tonite|yesterday|soon|in)\b|[ \t]*(?:[,;.]|$))",
            _I,
        ),
        score=0.8,
        group="v",
        accept=_age_value_ok,
    ),
    # "pt 66 m s/p cath": after "pt", an age and a lower-case sex letter
    PatternRule(
        "age_sex_lower",
        Category.AGE,
        re.compile(r"(?<=\bpt )(?P<v>(?P<n>1[0-4]\d|\d{1,2}))[ \t]?(?=[mf]\b)(?![mf][ \t]*\d)"),
        score=0.7,
        group="v",
        accept=_age_sex_ok,
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
    # "55 f, s/p whipple", "31m oil field mechanic": a note or a line typed in lower case that opens with an age and
    # the sex letter, apart or joined (the letter goes with a joined age, as in capitals)
    PatternRule(
        "age_sex_line_start",
        Category.AGE,
        re.compile(
            r"(?:(?<=^)|(?<=\n))[ \t]*(?P<v>(?P<n>1[0-4]\d|[1-9]\d)(?:[mf](?=[ \t]*[,a-z])"
            r"|(?=[ \t]?(?:yo[ \t]?)?[mf][ \t]*(?:,|w/|s/p|h/o|c/o|p/w|(?:with|after|admitted|admit|presents|presenting|brought|found|transferred|from|pmh|hx)\b"
            # "62 m chf ef 20%": the sex, then what the patient has
            r"|[ \t](?P<dx>[a-z][a-z0-9/]{1,11})\b))))"
            r"(?![ \t]*(?:amb|walk))"
        ),
        score=0.7,
        group="v",
        accept=lambda text, m: _joined_age_sex_ok(text, m) and (not m.group("dx") or _is_diagnosis(m.group("dx"))),
    ),
    # "BROUGHT 34M AFTER MVC": an age written joined to the sex letter anywhere, the letter with it
    PatternRule(
        "age_sex_joined",
        Category.AGE,
        re.compile(
            r"(?<![\w.,/:°+-])(?P<v>(?P<n>1[0-4]\d|[1-9]\d)[MFmf])(?=[ \t]*(?:,|[ \t](?:w/|w(?=[ \t])|s/p|h/o|c/o|p/w|"
            r"(?:with|after|admitted|admit|presents|presenting|presented|brought|found|transferred|who|pmh|hx|from)\b)))",
            _I,
        ),
        score=0.7,
        group="v",
        accept=_joined_age_sex_ok,
    ),
)


#: "bp in the 90s", "sats in the 80s": a decade after a vital sign or a lab is its value, not an age
_VITAL_BEFORE = re.compile(
    r"\b(?:bp|b/p|sbp|dbp|map|hr|rr|pulse|heart[ \t]+rate|resp(?:irations)?|sats?|spo2|o2|temps?|temperature|tmax|pressures?"
    r"|glucose|fs|fsbs|bg|sugars?|cvp|pap|uo|urine|k|na|hct|hgb|plt|platelets|inr|ptt|pco2|po2|ph"
    # "heart rhythm sinus in the 70s", "WBC IN THE 20S": a rhythm's rate and a lab's value
    r"|sinus|rhythm|rate|nsr|sr|afib|a-fib|paced|fio2|etco2|wbc|cr|bun|lactate|ck|ammonia)\b",
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
    return _age_value_ok(text, m) and bool(_LIFE_EVENT.search(clause_before(text, m.start(), 60)))


_AGE_RULES = _AGE_RULES + (
    # "45 años", "58 ans", "67 anos", "73 anni", "44 lata" (lat), "3 meses": ages in other languages
    PatternRule(
        "foreign_years",
        Category.AGE,
        re.compile(rf"\b{_AGE_N}[ \t]*(?:años|anos|ans|meses|mois|anni|mesi|lata?|jahre|jaar)(?![\w])", _I),
        score=0.9,
        accept=_age_value_ok,
    ),
    # "2 mo M brought by mom", "6 wk F", "11 MO F", "4 mo male": an infant's age written against the sex; "type 1 dm"
    # is diabetes
    PatternRule(
        "small_unit_sex",
        Category.AGE,
        re.compile(
            rf"(?<![\w/.-])(?P<v>{_AGE_N}[ \t]?(?:mo|mos|months?|wks?|weeks?|days?|d(?!m\b)|yr|yrs|y|(?-i:MO|MOS|MONTHS?|WKS?|WEEKS?|DAYS?|YRS?))\.?)"
            r"[ \t]?(?=(?:[MF](?!/)|[mf](?!/)|male|female|MALE|FEMALE|boy|girl|BOY|GIRL)\b)(?![MFmf][ \t]*\d)"
        ),
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
        # and with the short forms a note writes it in: "SEVENTY-EIGHT Y/O M", "eighty yo"
        re.compile(rf"\b{_NUMBER_WORD}(?:[ \t]*-?[ \t]*(?:years?|months?|weeks?|days?)[ \t]*-?[ \t]*old\b|[ \t]+(?:y/o|yo|y\.o\.)(?![\w/]))", _I),
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
