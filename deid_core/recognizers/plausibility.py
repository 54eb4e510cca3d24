"""How a model's spans join the rules' spans: a shape check and an arbiter.

A token classifier trained only on synthetic notes is confidently wrong on
text unlike its training data: it tags drug names as patients, clock times
as dates, billing codes as identifiers, foreign words as names.  The rules
already know what each category looks like, so a model span that no rule
confirmed is kept only when the model is very sure of it (:data:`JOIN_SCORE`)
and its text could be that category at all: a name has a word that is not
an ordinary word (English, or one of the European languages notes are
often mixed with), a date has a month or a full numeric
form (a year alone is not an identifier under Safe Harbor), an age has a
unit or a sex after it and is not a duration, a phone has seven digits, an
identifier is not a billing or diagnosis code.  This costs little recall
(the checks are about shape and the words just before the span, not about
any list of known identifiers) and removes most of the model's false
positives.  A span the model is very sure of (:data:`CONFIDENT`) may pass
with less: a place or facility written in lower case or in ordinary words
("valley general er", "Pioneer Square"), a month/day whose parts could
both be months.

Where a rule and the model both found something, the rules' span stands,
with one exception (:func:`arbitrate`): a rule span found only because its
word is on a name or place list carries no evidence of its category (an
uncued "Tamsin Achterberg" is called a patient by default), while the model
read the context.  A confident model span that covers such guesses replaces
them, with its own category and boundaries (the interpreter "Tran Minh Khoa"
in a table row is a DOCTOR; "Fairhaven General" is a HOSPITAL, not the town
"Fairhaven").

:func:`join_fragments` first rejoins pieces a model split at a space or a
hyphen ("Sinéad" + "O'Halloran"), so the check sees the whole span.
"""

from __future__ import annotations

from dataclasses import replace
import re
from bisect import bisect_left
from collections.abc import Sequence

from deid_core.recognizers.gazetteer import after_eponym_modifier, followed_by_eponym_trigger, in_eponym_pair, landform_after_the
from deid_core.recognizers.lexicon import COMMON_WORD_FREQ, NAME_PARTICLES, Lexicon, default_lexicon, rule_list
from deid_core.recognizers.pipeline import DetectConfig
from deid_core.recognizers.rules.common_words import ANIMAL_BEFORE, LANGUAGE_BEFORE, REGIMEN_TYPES, TRADES
from deid_core.recognizers.rules.dates import in_score_or_count
from deid_core.recognizers.rules.nearby import CLOCK_TIME
from deid_core.recognizers.rules.tokens import CaseBlind
from deid_core.spans import Category, Evidence, Span

_WEAK_NAME_CUE = re.compile(r"\b(?:pt|patient)[ \t]*$", re.I)
#: a month's name or its short form, never a word it begins ("febrile", "decreased", "augmentin")
_MONTH = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?"
    r"|dec(?:ember)?)\b",
    re.I,
)
_CLOCK = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_NUMERIC_DATE = re.compile(r"\b\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}\b")
_MONTH_DAY = re.compile(r"^(\d{1,2})[/-](\d{1,2})$")
_BLOOD_GAS = re.compile(r"^[67]\.\d{1,2}/\d")
# "2019", "1986-1998", "maybe 2012", "2023-24": a year or a span of years, with no month or day in it
_YEARS_ONLY = re.compile(r"^(?:\w+[ \t]+)?(?:19|20)\d{2}(?:[ \t]*[-–][ \t]*(?:(?:19|20)\d{2}|(?:1[3-9]|[2-9]\d)))?$")
# an age needs a letter in it (its unit, the sex, a number word) or its unit or the sex right after it
_AGE_MARKED = re.compile(r"[a-z]", re.I)
_AGE_AFTER = re.compile(r"^[ \t]*(?:-?[ \t]*(?:y|yo|y/o|yrs?|years?)\b|[MFmf]\b)")
# what, just before a number, makes it a duration, a count or a measure rather than an age
_DURATION_BEFORE = re.compile(
    r"(?:\bx|\bfor|\bof|\bover|\bpast|\blast|\bsince|\bwithin|\bin|\bafter|\bevery|\bq|education|school(?:ing)?|smoked?|pack|duration"
    r"|\bmarried|\bsober|\btogether|\bwidowed)[ \t:]*$",
    re.I,
)
_DURATION_AFTER = re.compile(r"^[ \t]*(?:ago|prior|earlier|later|duration|of[ \t]+(?:marriage|school|education|sobriety|use))\b", re.I)
# billing and diagnosis codes, which a model trained on identifiers takes for identifiers
# (and protocol numbers, which name a study, not its participant)
_CODE_CUE = re.compile(r"\b(?:CPT|HCPCS|ICD(?:-?(?:9|10)(?:-CM)?)?|NDC|DRG|SNOMED|LOINC|Dx|codes?|modifier|protocol)\b[^\n]*$", re.I)
_CODE_SHAPE = re.compile(r"^(?:[A-Z]\d{2}(?:\.[0-9A-Z]{1,4})?|[A-Z]\d{4}(?:[- ]?[A-Z]{2})?)(?:[ \t]*x[ \t]?\d+)?$")
# organisations that are not places of care: a model calls any organisation a facility
_NOT_CARE = frozenset(
    "church chapel parish mosque synagogue temple ministries funeral mortuary cemetery freight lines logistics trucking "
    "transport transit auto body motors garage bank fire engine police sheriff court courthouse collegium college school "
    "academy inc llc corp co company industries foods restaurant diner hotel service".split()
)
_CARE = frozenset(
    "hospital clinic medical health healthcare center centre hospice pharmacy infirmary surgery surgical care rehab "
    "rehabilitation nursing physicians practice laboratory lab labs er ed uc".split()
)
#: a common word in another language still counts as a name when this share of people bear it (Maria, Rosa, Paz)
FOREIGN_NAME_SHARE = 1e-5
_NUMBER_WORD = re.compile(r"(?:ty|teen|one|two|three|four|five|six|seven|eight|nine|ten)\b", re.I)
_WEB = re.compile(r"[^\W_]@[^\W_]|://|\bwww\.|\b[a-z0-9-]+\.(?:com|org|net|edu|gov|io|us|uk|ca|au)\b", re.I)
_TOKEN = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*")
# Generic-name stems of drug classes: a token ending so is a drug before it is a name.
_DRUG_STEM = re.compile(
    r"(?:mab|pril|olol|sartan|statin|mycin|cillin|azole|tinib|zepam|floxacin|parin|xaban|gliptin|glutide|formin|semide|thasone|olone)$",
    re.I,
)
_EDGE = " \t\r\n,;:()[]/"
#: words that alone name no facility ("Cardiology Clinic"): shared with the facility rules
_GENERIC_FACILITY_WORDS = rule_list("facilities", "generic_words")
#: where people live, work or were hurt that no name says which: "in bank barn", "fell from ladder at orchard"
_KINDS_OF_PLACE = rule_list("place_cues", "not_place_words") - {"town", "city", "state", "area", "country", "county", "village", "suburbs"}
#: what a care home is, with no name: "return to manor vs hospice"
_CARE_HOME_KINDS = frozenset({"manor", "lodge", "villa", "villas", "terrace", "haven", "house", "home"})
#: "67 YO M MENNONITE": a faith says who the patient is, never which person
_DENOMINATIONS = rule_list("organizations", "denominations")
#: what a road is made of or who keeps it, which names no road: "STUCK IN DRIFT ON GRAVEL RD"
_ROAD_KINDS = frozenset({"gravel", "dirt", "paved", "unpaved", "icy", "back", "county", "logging", "farm", "ranch", "private", "rural", "forest", "service", "access", "two-lane"})
_ROAD_WORDS = frozenset({"rd", "road", "roads", "hwy", "highway", "lane"})
#: an animal's or a thing's blow or bite, perhaps with where it struck ("bitten r hand by"): what follows is what did it
_STRUCK_BY = re.compile(
    r"\b(?:bit(?:ten)?|stung|kicked|gored|mauled|trampled|attacked|butted|stepped[ \t]+on|pinned)(?:[ \t]+[a-z]+){0,3}?[ \t]+by[ \t]+"
    r"(?:a[ \t]+|an[ \t]+|the[ \t]+)?$",
    re.I,
)
#: "PRAYS TO LA VIRGEN", "prayed to st jude": whom a person prays to is a saint or a god, no one's name and no place
_PRAYED_TO = re.compile(r"\bpray(?:s|ed|ing)?[ \t]+to[ \t]+(?:the[ \t]+)?$", re.I)
_NAMES = frozenset({Category.PATIENT, Category.DOCTOR})
_PLACES = frozenset({Category.HOSPITAL, Category.LOCATION})

#: A model span that no rule overlaps joins only when the model is at least this sure
#: (``[detect] join_score``): on hand-written dev notes, most of the spans a
#: synthetic-trained encoder added below 0.95 were wrong, two in three between
#: 0.95 and 0.99, fewer than two in five above it (docs/detection.md).
JOIN_SCORE = DetectConfig.join_score
#: A model span at least this sure passes the shape checks that otherwise need
#: capitals or an unambiguous form.
CONFIDENT = 0.95
#: A model span at least this sure may replace rule spans that only guessed (:func:`arbitrate`).
ARBITER = 0.9
#: Rule sources that find a span by list membership alone, with no cue for its category.
#: Languages whose common words a model, trained on English, takes for names.
FOREIGN_LANGUAGES = ("es", "it", "pt", "fr", "pl", "de", "nl")
FOREIGN_TOP_WORDS = 5000


class PlausibilityCheck:
    """``plausible(text, category)``: could this string be an identifier of that category?"""

    def __init__(self, lexicon: Lexicon | None = None, join_score: float = JOIN_SCORE) -> None:
        if not 0.0 <= join_score <= 1.0:
            raise ValueError(f"join_score must be in [0, 1], got {join_score}")
        self.lexicon = lexicon or default_lexicon()
        self.join_score = join_score
        self._foreign: frozenset[str] | None = None

    @property
    def foreign_words(self) -> frozenset[str]:
        """The commonest words of :data:`FOREIGN_LANGUAGES`, read once on first use."""
        if self._foreign is None:
            self._foreign = _foreign_common_words()
        return self._foreign

    def _acronym(self, token: str) -> bool:
        return token.isupper() and 2 <= len(token) <= 5 and not self.lexicon.is_name(token)

    def _informative(self, token: str) -> bool:
        lex = self.lexicon
        if lex.is_stop(token) or lex.is_eponym(token) or self._acronym(token) or token.lower() in _DENOMINATIONS:
            return False
        if not lex.is_name(token) and _DRUG_STEM.search(token):
            return False
        parts = [p for p in token.split("-") if p]
        if len(parts) > 1 and all(lex.is_common_word(p) or lex.is_clinical(p) for p in parts):
            return False  # "LIMA-LAD", "non-op": a compound of clinical or ordinary words
        if token.lower() in self.foreign_words and lex.census_share(token) < FOREIGN_NAME_SHARE:
            return False
        if not token.istitle() and lex.is_plural_of_word(token.lower()):
            return False  # "wife cooks", "off winters": untitled, a word with an "s" is a plural or a verb
        return not lex.is_common_word(token)

    @staticmethod
    def _eponym_before_trigger(text: str, span: Span, core: str) -> bool:
        # one word, one space or hyphen before the trigger: a table's "Mei-Ling Tsao   Grade 3" is a name and a column
        return not any(ch.isspace() for ch in core) and not text.startswith(("  ", "\t"), span.end) and followed_by_eponym_trigger(text, span.end)

    def _describes(self, core: str) -> bool:
        words = _TOKEN.findall(core)
        lex = self.lexicon
        return bool(words) and all(lex.is_everyday(w) or lex.is_clinical(w) for w in words)

    def _kind_of_place(self, core: str) -> bool:
        words = [w.lower() for w in _TOKEN.findall(core)]
        lex = self.lexicon
        return (
            bool(words)
            and words[-1] in _KINDS_OF_PLACE
            and all(w in _KINDS_OF_PLACE or w in _DENOMINATIONS or lex.frequency(w) >= COMMON_WORD_FREQ or lex.is_clinical(w) or lex.is_stop(w) for w in words)
            and not any(lex.is_first(w) for w in words)
        )

    def _trade_and_words(self, core: str) -> bool:
        """A trade among clinical or frequent words only."""
        words = [w.lower() for w in _TOKEN.findall(core)]
        lex = self.lexicon
        return any(w in TRADES for w in words) and all(w in TRADES or lex.is_clinical(w) or lex.is_common_word(w, strict=True) for w in words)

    @staticmethod
    def _unnamed_road(core: str) -> bool:
        """"GRAVEL RD N", "icy county road": a road named only by what it is made of or who keeps it."""
        words = [w.lower() for w in _TOKEN.findall(core) if not (len(w) == 1 and w.lower() in "nsew")]
        return len(words) >= 2 and words[-1] in _ROAD_WORDS and all(w in _ROAD_KINDS for w in words[:-1])

    def plausible_at(self, text: str, span: Span) -> bool:
        """:meth:`plausible` for a span in its note: the words before it and the model's confidence count too."""
        t = text[span.start : span.end]
        line_before = text[text.rfind("\n", 0, span.start) + 1 : span.start]
        sure = span.score >= CONFIDENT
        core = t.strip(_EDGE)
        if span.category in (Category.ID, Category.PHONE) and (
            _CODE_CUE.search(line_before + core) or all(_CODE_SHAPE.match(p.strip()) for p in core.split(","))
        ):
            return False
        if span.category in (Category.PHONE, Category.DATE) and re.fullmatch(CLOCK_TIME, core):
            return False  # "VISIT 1500-1700", "transfused 1830-2030": clock times
        if span.category is Category.HOSPITAL:
            words = {w.lower() for w in _TOKEN.findall(core)}
            if words & _NOT_CARE and not words & _CARE:
                return False
            if all(w in _GENERIC_FACILITY_WORDS or w in _CARE_HOME_KINDS or self.lexicon.is_stop(w) or self.lexicon.is_clinical(w) for w in words):
                return False  # "liver clinic", "PULM REHAB", "manor vs hospice": a service or a kind, not a named place
            if (
                len(words) > 1
                and not words & _CARE
                and self._describes(core)
                and not any(self.lexicon.is_first(w) for w in words)
                and CaseBlind(text).at(core, span.start)
            ):
                # "IN THE DEER CAMP TRAILER", "no signal at fish camp": where case says nothing, everyday words, none a
                # given name ("HOPE LODGE", "WEST ALABAMA TIMBER") and no word of care
                return False
            named = [w.lower() for w in _TOKEN.findall(core)]
            if named[-1:] and named[-1] in REGIMEN_TYPES and all(self.lexicon.is_common_word(w) for w in named) and CaseBlind(text).at(core, span.start):
                return False  # "30 day insulin supply from pharmacy assistance program": a regimen of ordinary words
        if span.category in _PLACES and CaseBlind(text).at(core, span.start) and self._trade_and_words(core):
            return False  # "58 yo m commercial fisherman, stemi": where case says nothing, the patient's trade is no place
        if span.category in _NAMES | _PLACES and _PRAYED_TO.search(line_before):
            return False  # "PRAYS TO LA VIRGEN WITH CANDLE": a saint, not a person of the note or a place
        if span.category in _PLACES and _STRUCK_BY.search(line_before):
            return False  # "bitten by eastern diamondback", "KICKED BY BLACK ANGUS": what struck the patient is no place
        if span.category is Category.LOCATION and self._kind_of_place(core) and CaseBlind(text).at(core, span.start):
            return False  # "hay mow in bank barn": where case says nothing, everyday words ending in a kind of place
        if span.category is Category.LOCATION and landform_after_the(text, span.start, span.end):
            return False  # "GO HOME TO THE MESA": the land, not the town
        if span.category is Category.LOCATION and self._unnamed_road(core):
            return False  # "STUCK IN DRIFT ON GRAVEL RD N OF ROUNDUP": a road's surface names no road
        if span.category is Category.AGE:
            if _DURATION_BEFORE.search(line_before) or _DURATION_AFTER.match(text[span.end : span.end + 30]):
                return False
            if not _AGE_MARKED.search(core) and not _AGE_AFTER.match(text[span.end : span.end + 12]):
                return False
        if span.category in _NAMES and (
            self._eponym_before_trigger(text, span, core)
            or in_eponym_pair(text, span.start, span.end)
            or (" " not in core and after_eponym_modifier(text, span.start, span.end))
        ):
            return False  # "Glasgow coma scale", "hunt and hess 3": a scale or a sign, named for its authors
        if span.category in _NAMES | _PLACES and _in_hyphened_scale(text, span):
            return False  # "GLASGOW-BLATCHFORD 12", "hunt-hess 3": two names joined by a hyphen before a score are a scale
        if span.category in _NAMES and re.search(r"\d-", text[max(0, span.start - 2) : span.start] + t[:1]):
            return False  # "S/P 4-WHEELER ROLLOVER": a word a hyphen glues to a number makes a compound, no name
        if span.category in _NAMES and (_TOKEN.findall(core) or [""])[-1].lower() in TRADES and CaseBlind(text).at(core, span.start):
            return False  # "SOCIAL: RICE FARMER", "44 YO M ROUSTABOUT": where case says nothing, a trade is the patient's work
        if span.category in _NAMES and ANIMAL_BEFORE.search(line_before):
            return False  # "photo of his dog sadie": a pet's name
        if span.category in _NAMES and LANGUAGE_BEFORE.search(line_before) and " " not in core:
            return False  # "PREFERS KRIOLU": one word after "prefers" or "speaks" is a language
        if span.category in _NAMES and _WEAK_NAME_CUE.search(line_before) and self._describes(core):
            return False  # "Pt pleasant, HOH": after "pt", everyday and clinical words describe the patient; "Pt Hope Okonkwo" is named
        if span.category is Category.DATE and core == "2/2" and _WORD_AFTER.match(text, span.end):
            return False  # "SEPTIC SHOCK 2/2 PNA": "2/2" before a word is "secondary to"
        if span.category is Category.DATE and _BLOOD_GAS.match(core):
            return False  # "abg 7.29/52/68": a pH, then the gases
        if span.category is Category.DATE and re.search(r"\d[.,]?$", text[max(0, span.start - 2) : span.start]):
            return False  # "H/H 6.9/21": the model's date starts inside a number
        if span.category is Category.DATE and _MONTH_DAY.match(core) and in_score_or_count(text, span.start, span.end):
            return False  # "chest pain 4/10", "bactrim day 4/21": the date rule's own traps hold for a model's m/d
        if span.category is Category.DATE and _MONTH_DAY.match(core) and _FRACTION_AFTER.match(text, span.end):
            return False  # "changed to 3/4 maint", "1/2 strength": a fraction of a rate or a dose
        if sure and span.category is Category.DATE:
            md = _MONTH_DAY.match(core)
            if md and 1 <= int(md.group(1)) <= 12 and 1 <= int(md.group(2)) <= 31:
                return True
        if sure and span.category in _PLACES:
            tokens = _TOKEN.findall(core)
            words = [tok for tok in tokens if tok.isalpha()]
            # "HALL W", "po oxy": single letters, or clinical words alone, do not make a place of two words
            named = [w for w in words if len(w) > 1]
            if len(named) >= 2 and not all(self.lexicon.is_stop(w) for w in named) and not all(self.lexicon.is_clinical(w) for w in named):
                return True
            if any(self._informative(tok) for tok in words):
                return True
        return self.plausible(t, span.category)

    def name_like(self, text: str) -> bool:
        """Every word could be part of a name: a listed name that is no clinical word, an initial, a particle or an unusual word."""
        tokens = _TOKEN.findall(text)
        lex = self.lexicon
        return bool(tokens) and all(
            (lex.is_name(tok) and not lex.is_clinical(tok)) or len(tok) == 1 or tok.lower() in NAME_PARTICLES or self._informative(tok)
            for tok in tokens
        )

    def plausible(self, text: str, category: Category) -> bool:
        t = text.strip(_EDGE)
        if sum(ch.isalnum() for ch in t) < 2:
            return False
        digits = sum(ch.isdigit() for ch in t)
        if category is Category.DATE:
            if _CLOCK.match(t):
                return False
            if _YEARS_ONLY.match(t):
                return False
            if t.count("/") >= 3 and not re.search(r"[^\d/. ]", t):
                return False  # "7.29/44/71/21" is a blood gas, "100/60/12/98" a row of values
            numeric = _NUMERIC_DATE.search(t)
            if numeric and not _MONTH.search(t):
                a, b = (int(p) for p in re.split(r"[/.-]", numeric.group(0))[:2])
                return (b <= 12 if a > 999 else (a <= 12 and b <= 31) or (b <= 12 and a <= 31))  # "12/40/2020" is none
            if _MONTH.search(t) or _YEAR.search(t) or numeric:
                return True
            md = _MONTH_DAY.match(t)  # "9/29" is a date; "2/2" and "8/9" are as likely scores
            return bool(md) and int(md.group(1)) <= 12 < int(md.group(2)) <= 31
        if category is Category.AGE:
            return digits > 0 or bool(_NUMBER_WORD.search(t))
        if category is Category.PHONE:
            # "I/O 3120/2450": two amounts of three or four digits across a slash are a ratio, not a number to call
            return digits >= 7 and not re.fullmatch(r"\d{3,4}/\d{3,4}", t)
        if category is Category.ID:
            # "PaCO2 41" has three digits but no run of three; an identifier has one
            return sum(ch.isalnum() for ch in t) >= 5 and bool(re.search(r"\d{3}", t)) and not _CODE_SHAPE.match(t)
        if category is Category.WEB:
            return bool(_WEB.search(t))
        tokens = _TOKEN.findall(t)
        if not tokens:
            return False
        if category in _NAMES:
            if digits or any(self._acronym(tok) for tok in tokens):
                return False
            return any(self._informative(tok) and (tok[:1].isupper() or self.lexicon.is_name(tok)) for tok in tokens)
        if category in (Category.HOSPITAL, Category.LOCATION):
            return any(self._informative(tok) and tok[:1].isupper() for tok in tokens)
        return True


_WORD_AFTER = re.compile(r"[ \t]+[^\W\d_]{2,}")
_HYPHENED_BEFORE = re.compile(r"[^\W\d_]{2,}-$")
_HYPHENED_AFTER = re.compile(r"-[^\W\d_]{2,}")
#: a score or a class after a scale's name: "12", "score 3", ": 2", "class B"
_SCALE_VALUE_AFTER = re.compile(
    r"[ \t]*(?:(?:score|scale|grade|class)[ \t]*)?[:=]?[ \t]*(?:\d{1,2}(?![\d/-]|\.\d)(?![ \t]*(?:y|yo|y/o|yrs?|years?|mos?|months?|d|days?|wks?|weeks?"
    r"|h|hrs?|hours?|kg|lbs?|%|sons?|daughters?|kids|children)\b)|[A-C]\b)",
    re.I,
)


def _in_hyphened_scale(text: str, span: Span) -> bool:
    """The span is one or both halves of two words joined by a hyphen, and a score follows the pair."""
    start, end = span.start, span.end
    score_inside = re.search(r"[ \t]+\d{1,2}$", text[start:end])
    if score_inside:
        end = start + score_inside.start()  # the model took the score into the span: "GLASGOW-BLATCHFORD 12"
    if re.search(r"\s", text[start:end].strip()):
        return False  # "Mei-Ling Tsao   Grade 3": a name of two words before a column
    if "-" not in text[start:end].strip("-"):
        before = _HYPHENED_BEFORE.search(text, max(0, start - 24), start)
        after = _HYPHENED_AFTER.match(text, end)
        if not (before or after):
            return False
        start = before.start() if before else start
        end = after.end() if after else end
    return bool(_SCALE_VALUE_AFTER.match(text, end))
#: what a fraction is a fraction of: "3/4 maint", "1/2 NS", "1/2 tab", "2/3 of feeds"
_FRACTION_AFTER = re.compile(r"[ \t]*(?:maint\w*|mivf|strength|ns|nss|tabs?|tsp|cups?|of|full|volume|rate|feeds?|l|lpm|liters?|nc)\b", re.I)


def join_fragments(text: str, spans: Sequence[Span]) -> list[Span]:
    """Unite same-category spans separated only by up to two spaces or hyphens."""
    out: list[Span] = []
    for s in sorted(spans, key=lambda x: (x.start, x.end)):
        prev = out[-1] if out else None
        if (
            prev is not None
            and prev.category is s.category
            and 0 <= s.start - prev.end <= 2
            and text[prev.end : s.start].strip(" -") == ""
        ):
            out[-1] = replace(prev, end=max(prev.end, s.end), category=s.category, score=min(prev.score, s.score))
        else:
            out.append(s)
    return out


def _is_guess(span: Span) -> bool:
    return span.evidence is Evidence.GUESS


def arbitrate(text: str, model: Span, overlapped: Sequence[Span], check: PlausibilityCheck) -> bool:
    """Should ``model`` replace the rule spans it overlaps?

    Only when every one of them is a list guess (:attr:`~deid_core.spans.Evidence.GUESS`) that
    the model span covers, the model is sure (:data:`ARBITER`), it says
    something the rules did not (another category, or more text), and its
    span passes the shape check; a name must be made of name-like words, so
    "carmen la mamá de isabella rojas" does not replace "isabella rojas".
    """
    if model.score < ARBITER or not all(_is_guess(r) and model.start <= r.start and r.end <= model.end for r in overlapped):
        return False
    if all(r.category is model.category for r in overlapped) and sum(r.length for r in overlapped) >= model.length:
        return False
    if model.category in _NAMES and not check.name_like(text[model.start : model.end]):
        return False
    return check.plausible_at(text, model)


def unite_with_rules(
    text: str, rule_spans: Sequence[Span], model_spans: Sequence[Sequence[Span]], check: PlausibilityCheck
) -> list[Span]:
    """The rules' spans with what each model adds or corrects.

    A model span that overlaps no rule span joins when :meth:`PlausibilityCheck.plausible_at`
    accepts it; one that overlaps rule spans replaces them only when
    :func:`arbitrate` says so, and is dropped otherwise: where both found
    something, the rules' boundaries are usually the better ones.
    """
    ruled = sorted(rule_spans, key=lambda r: r.start)
    starts = [r.start for r in ruled]
    added: list[Span] = []
    replaced: set[int] = set()
    for spans in model_spans:
        for s in join_fragments(text, spans):
            over = [i for i in range(bisect_left(starts, s.end)) if ruled[i].end > s.start]
            if not over:
                if s.score >= check.join_score and check.plausible_at(text, s):
                    added.append(s)
            elif arbitrate(text, s, [ruled[i] for i in over], check):
                replaced.update(over)
                sources = "+".join(dict.fromkeys([s.source, *(ruled[i].source for i in over)]))
                added.append(replace(s, source=sources))
    return [r for i, r in enumerate(ruled) if i not in replaced] + added


def _foreign_common_words() -> frozenset[str]:
    try:
        import wordfreq
    except ImportError:
        return frozenset()
    words: set[str] = set()
    for lang in FOREIGN_LANGUAGES:
        words.update(wordfreq.top_n_list(lang, FOREIGN_TOP_WORDS))
    # top_n_list keeps every language's whole frequency table cached; only the short lists are needed
    for cached in (getattr(wordfreq, "get_frequency_dict", None), getattr(wordfreq, "get_frequency_list", None)):
        if cached is not None and hasattr(cached, "cache_clear"):
            cached.cache_clear()
    return frozenset(words)
