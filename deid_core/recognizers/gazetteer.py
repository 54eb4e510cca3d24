"""An Aho–Corasick gazetteer: every list in one automaton, one pass over a note.

The automaton holds given names, surnames, US cities, counties, states,
countries, facility names and any site lists.  Text and entries are
normalised the same way (lowercase, every run of non-alphanumerics one
space, padded with spaces), so a match is always a whole-word match and
``St. Mary's`` finds ``st mary s`` however it is punctuated.

A site adds lists without code: plain-text files in a directory, one entry a
line, the file name giving what the entries are:

==========================  ====================================================
``hospital.txt``            facility names and abbreviations -> HOSPITAL
``doctor.txt``              clinician names -> DOCTOR
``patient.txt``             patient or relative names -> PATIENT
``location.txt``            place names -> LOCATION (also ``city.txt``)
``<category>.txt``          any other category name (``id.txt``, ``other.txt``)
``first_names.txt``         extra given names for the name rules
``last_names.txt``          extra surnames for the name rules
``stoplist.txt``            words never taken as names without a title
==========================  ====================================================

Any other file name is an error, so a misspelt list is noticed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from deid_core.recognizers.base import NoteContext, RuleRecognizer
from deid_core.recognizers.case import note_is_lower
from deid_core.recognizers.lexicon import (
    AMBIGUOUS_STATE_ABBRS,
    DATA_DIR,
    STATE_ABBRS,
    STATES,
    VERY_COMMON_WORD_FREQ,
    Lexicon,
    alternation,
    countries,
    default_lexicon,
    prominent_places,
    read_list,
    rule_list,
    us_cities,
    us_counties,
    us_postal_towns,
)
from deid_core.spans import Category, Evidence, Span, UnknownCategoryError


#: what makes a listed short form that is also a clinical abbreviation a facility: a store word or
#: number after it, or a preposition of place before it
_FACILITY_AFTER = re.compile(r"[ \t]*(?:pharmacy|pharmacies|store|#[ \t]*\d|on[ \t]+[A-Z0-9]|in[ \t]+[A-Z])", re.IGNORECASE)
_FACILITY_BEFORE = re.compile(r"\b(?:at|from|to|via|@)[ \t]+(?:the[ \t]+)?$", re.IGNORECASE)


#: a store's or branch's number after its name: "Rite Aid #4471", "CVS Store 2231"
STORE_NUMBER = re.compile(r"[ \t]*(?:#|(?:Store|Branch|Location)[ \t]*#?|No\.)[ \t]*\d{2,6}(?![\w/-])")


_BRANCH_CITY = re.compile(r"[ \t]+([A-Z][a-z]+)(?:[ \t]+([A-Z][a-z]+))?\b")
_BRANCH_CITY_CAPS = re.compile(r"[ \t]+([A-Z]{3,})(?:[ \t]+([A-Z]{3,}))?\b")
_BRANCH_CITY_LOWER = re.compile(r"[ \t]+([a-z]{3,})(?:[ \t]+([a-z]{3,}))?\b")


#: a post-office town English writes less often than this is no word ("blackfoot", "rumford", "orr", "ely", "kiln");
#: one it writes as often or more is a word first ("camp", "canoe", "orchard")
RARE_TOWN_WORD_FREQ = 2e-6


#: where a prescription is sent, got or called: before it a short chain's name in lower case is the chain ("to cvs")
_WHERE_MEDS_GO = re.compile(r"\b(?:sent[ \t]+to|send[ \t]+to|called|fill(?:ed)?[ \t]+at|from|thru|through|via|at)[ \t]+(?:the[ \t]+)?$", re.I)


def branch_city_end(text: str, end: int, lexicon: Lexicon, *, caps: bool = False, lower: bool = False) -> int:
    """Where a known city written right after a facility ends ("Kindred Hospital San Antonio"; with ``caps``, a
    facility in capitals: "FRESENIUS STEUBENVILLE"; with ``lower``, one typed in lower case: "teton kidney care idaho
    falls"), else ``end``. A city that is an ordinary word or a name is none."""
    m = (_BRANCH_CITY_CAPS if caps else _BRANCH_CITY_LOWER if lower else _BRANCH_CITY).match(text, end)
    if not m:
        return end
    if m.group(2) and f"{m.group(1)} {m.group(2)}".lower() in us_cities():
        return m.end()
    word = m.group(1).lower()
    if word in us_cities() and not lexicon.is_common_word(word, strict=True) and not lexicon.is_name(word):
        return m.end(1)
    if word in us_postal_towns() and lexicon.frequency(word) < RARE_TOWN_WORD_FREQ and not lexicon.is_name(word):
        return m.end(1)  # "HERITAGE PHARMACY BLACKFOOT": a post-office town English never writes
    return end


#: the last words of places' names, which alone after "the" are the land itself ("the mesa", "the bayou")
_LANDFORMS = rule_list("place_cues", "place_tail_words")
_THE_BEFORE = re.compile(r"\bthe[ \t]+$", re.IGNORECASE)


def landform_after_the(text: str, start: int, end: int) -> bool:
    """One word that ends places' names, after "the": the land itself ("GO HOME TO THE MESA"), not a town of that name."""
    return text[start:end].lower() in _LANDFORMS and bool(_THE_BEFORE.search(text, max(0, start - 8), start))


def _facility_shape(text: str, start: int, end: int) -> bool:
    return bool(_FACILITY_AFTER.match(text, end) or _FACILITY_BEFORE.search(text[max(0, start - 12) : start]))


class GazetteerError(ValueError):
    """A gazetteer directory or list that cannot be used."""


_TOKEN = re.compile(r"[^\W_]+")

#: kinds that stand for a category directly
SITE_KIND_PREFIX = "site:"
NAME_KINDS = frozenset({"first", "last"})
PLACE_KINDS = frozenset({"city", "county", "state", "country"})
#: states and countries that are as often a food, a garment or a given name in a note typed in lower case
_EVERYDAY_PLACE_WORDS = frozenset({"turkey", "chile", "jersey", "guinea", "chad", "jordan", "niger", "china"})

_SPECIAL_STEMS = {
    "first_names": "first",
    "first_name": "first",
    "last_names": "last",
    "last_name": "last",
    "stoplist": "stop",
    "city": "site:LOCATION",
    "cities": "site:LOCATION",
}


@lru_cache(maxsize=64)
def normalise(text: str) -> tuple[str, Mapping[int, int], Mapping[int, int]]:
    """Lowercased, single-spaced, space-padded text and maps back to offsets.

    Returns ``(norm, starts, ends)``: ``starts[i]`` is the original offset of
    the token that begins at ``norm[i]``, ``ends[j]`` the original end offset
    of the token that ends at ``norm[j]``.  Cached (read-only maps), because
    every list and propagation scans the same note again.
    """
    parts: list[str] = []
    starts: dict[int, int] = {}
    ends: dict[int, int] = {}
    pos = 1
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        low = tok.lower()
        if len(low) != len(tok):  # a few characters lowercase to two
            low = "".join(c.lower() if len(c.lower()) == 1 else c for c in tok)
        starts[pos] = m.start()
        ends[pos + len(low)] = m.end()
        parts.append(low)
        pos += len(low) + 1
    return " " + " ".join(parts) + " ", MappingProxyType(starts), MappingProxyType(ends)


def normalise_entry(entry: str) -> str:
    return " ".join(t.lower() for t in _TOKEN.findall(entry))


@dataclass(frozen=True, slots=True)
class GazetteerHit:
    start: int
    end: int
    kinds: frozenset[str]
    #: the list entries (original spelling) that produced the hit
    entries: tuple[str, ...] = ()


class Gazetteer:
    """Phrases grouped by kind, compiled into one automaton."""

    def __init__(self, phrases: Mapping[str, Iterable[str]]) -> None:
        try:
            import ahocorasick
        except ImportError as exc:  # pragma: no cover - dependency missing
            raise GazetteerError("the gazetteer needs the 'pyahocorasick' package") from exc
        kinds_of: dict[str, frozenset[str]] = {}
        spellings_of: dict[str, list[str]] = {}
        interned: dict[frozenset[str], frozenset[str]] = {}

        def kinds_with(old: frozenset[str] | None, kind: str) -> frozenset[str]:
            fs = frozenset({kind}) if old is None else old | {kind}
            return interned.setdefault(fs, fs)

        for kind, entries in phrases.items():
            single = kinds_with(None, kind)
            for entry in entries:
                # most entries are one lowercase word already: skip the tokenizer for them
                key = entry if entry.isalnum() and entry.islower() else normalise_entry(entry)
                if not key:
                    continue
                old = kinds_of.get(key)
                kinds_of[key] = single if old is None else (old if kind in old else kinds_with(old, kind))
                # name lists are lowercase: only the other lists' spellings say how an entry is written
                if kind not in NAME_KINDS:
                    spelled = spellings_of.setdefault(key, [])
                    if entry not in spelled and len(spelled) < 4:
                        spelled.append(entry)
        # the automaton stores an index; the payloads live in Python lists
        self._keys: list[str] = list(kinds_of)
        self._kinds: list[frozenset[str]] = [kinds_of[k] for k in self._keys]
        self._spellings: list[tuple[str, ...]] = [tuple(spellings_of.get(k, ())) for k in self._keys]
        self._automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
        add = self._automaton.add_word
        for i, key in enumerate(self._keys):
            add(f" {key} ", i)
        self.size = len(self._keys)
        if self.size:
            self._automaton.make_automaton()

    def scan(self, text: str) -> list[GazetteerHit]:
        """Every whole-word entry in ``text`` (overlapping hits included)."""
        if not self.size:
            return []
        norm, starts, ends = normalise(text)
        hits: list[GazetteerHit] = []
        for last, index in self._automaton.iter(norm):
            first = last - len(self._keys[index])  # first character after the leading space
            begin = starts.get(first)
            finish = ends.get(last)
            if begin is None or finish is None:
                continue
            hits.append(GazetteerHit(begin, finish, self._kinds[index], self._spellings[index]))
        return hits


def _site_kind(stem: str) -> str:
    low = stem.lower()
    if low in _SPECIAL_STEMS:
        return _SPECIAL_STEMS[low]
    if low in {"hospital", "hospitals", "facility", "facilities"}:
        return "hospital"
    singular = low[:-1] if low.endswith("s") and low[:-1].upper() in Category.__members__ else low
    try:
        return SITE_KIND_PREFIX + Category.parse(singular).value
    except UnknownCategoryError:
        known = ", ".join(sorted({"hospital", "doctor", "patient", "location", *_SPECIAL_STEMS}))
        raise GazetteerError(
            f"gazetteer list {stem!r}.txt: the file name must be a category or one of {known}"
        ) from None


def load_site_lists(directory: Path | str) -> dict[str, list[str]]:
    """Read every ``*.txt`` in ``directory`` into ``{kind: entries}``."""
    path = Path(directory)
    if not path.is_dir():
        raise GazetteerError(f"gazetteer directory {path} does not exist")
    out: dict[str, list[str]] = {}
    for file in sorted(path.glob("*.txt")):
        kind = _site_kind(file.stem)
        try:
            out.setdefault(kind, []).extend(read_list(file))
        except UnicodeDecodeError as exc:
            raise GazetteerError(f"gazetteer list {file} is not UTF-8: {exc}") from None
    return out


@dataclass
class GazetteerResources:
    """The automata (shipped lists, then each site's) and the lexicon built from the same lists."""

    gazetteers: tuple[Gazetteer, ...]
    lexicon: Lexicon
    site_lists: dict[str, list[str]] = field(default_factory=dict)

    def scan(self, text: str) -> list[GazetteerHit]:
        hits: list[GazetteerHit] = []
        for g in self.gazetteers:
            hits.extend(g.scan(text))
        return hits


def _shipped_phrases(lexicon: Lexicon) -> dict[str, Iterable[str]]:
    return {
        "first": lexicon.first_names,
        "last": lexicon.last_names,
        "city": us_cities().values(),
        "county": us_counties().values(),
        "state": STATES.keys(),
        "country": countries().values(),
        "hospital": read_list(DATA_DIR / "hospital.txt"),
    }


@lru_cache(maxsize=1)
def default_resources() -> GazetteerResources:
    lexicon = default_lexicon()
    return GazetteerResources((Gazetteer(_shipped_phrases(lexicon)),), lexicon)


def build_resources(site_dirs: Sequence[Path | str] = ()) -> GazetteerResources:
    """The shipped resources plus each site directory's lists.

    The shipped automaton is built once per process; a site's lists get a
    small automaton of their own, scanned in the same pass.
    """
    base = default_resources()
    site: dict[str, list[str]] = {}
    for d in site_dirs:
        for kind, entries in load_site_lists(d).items():
            site.setdefault(kind, []).extend(entries)
    if not site:
        return base
    lexicon = base.lexicon.with_extras(first=site.get("first", ()), last=site.get("last", ()), stop=site.get("stop", ()))
    phrases = {k: v for k, v in site.items() if k != "stop"}
    return GazetteerResources((*base.gazetteers, Gazetteer(phrases)), lexicon, site)


# --------------------------------------------------------------- recognizer
_PLACE_CUE = re.compile(
    r"(?:\b(?:in|from|to|near|of|at|lives|living|live|resides|residing|reside|moved|born|raised|grew\s+up|"
    r"visiting|visited|relocated|travel(?:l)?ed|trip|vacation|hometown|native|outside|county|city|town|state)"
    r"(?:[ \t]+(?:in|to|from|at|of|near))?[ \t]+(?:the[ \t]+)?(?:city[ \t]+of[ \t]+|town[ \t]+of[ \t]+)?)$",
    re.IGNORECASE,
)
_LOWER_PLACE_CUE = re.compile(
    r"\b(?:lives|living|live|resides|moved|born|raised|visiting|staying|drove|came|flew)?[ \t]*(?:over[ \t]+)?(?:in|from|to|near|at)[ \t]+$",
    re.IGNORECASE,
)
_LOWER_HOME_CUE = re.compile(
    r"\b(?:lives|living|resides|moved|born|raised|visiting|staying|stays)"
    r"(?:[ \t]+(?:alone|(?:with|w/?)(?:[ \t]+[a-z'’]+){1,3}|at[ \t]+(?:a|the|her|his)[ \t]+[a-z]+))?[ \t]+(?:over[ \t]+)?(?:in|to|near)[ \t]+$"
    r"|\bfrom[ \t]+$",
    re.I,
)
_TITLE_BEFORE = re.compile(r"\b(?:Dr|Drs|Mr|Mrs|Ms|Miss|Prof|Doctor)\.?[ \t]*$", re.IGNORECASE)
_PLACE_COMMA_BEFORE = re.compile(r"(?<![\w'’-])[A-Z][a-z][\w'’.-]*(?:[ \t]+[A-Z][\w'’.-]*){0,2},[ \t]*$")
#: a prominent place's name is taken without a cue only when fewer people than this share bear it ("Jordan" and "Austin" need one)
PROMINENT_NAME_SHARE = 1e-4
_MINOR_WORDS = frozenset({"of", "the", "and", "de", "la", "del", "du", "des", "da", "di", "&", "s", "for", "on", "upon", "at"})

EPONYM_TRIGGERS = frozenset(
    """sign signs syndrome disease palsy test maneuver manoeuvre catheter procedure operation repair fracture score
    scale classification criteria tube drain line stockings hose lift clamp scissors retractor blade esophagus cyst
    ulcer sump incision position reflex lymphoma sarcoma tumor tumour node nodes phenomenon triad law rule equation
    formula ratio index type stage method technique shunt valve filter bag mask splint brace boot cast wrap bandage
    dressing needle forceps stitch suture anastomosis pouch fundoplication gastrectomy resection flap block nerve
    point area cells cell body bodies canal duct gland space ligament membrane hernia diverticulum deformity contracture
    aneurysm tremor chorea dementia encephalopathy apnea respiration breathing murmur rub spots nodules bundle fibers
    coma agitation hugger pump port drip solution disorder lesion reaction response effect circle pattern fall oesophagus
    grass dynamometer grade class wort protocol regimen collar bolt monitor rules paralysis wave waves cath tear
    tears boots stedy straps stool eye vent ventilator chair lotion cream ointment gel spray wipes powder crackers angina
    pillow definition gangrene lens lenses
    """.split()
)


#: after a possessive only: "Murphy's negative", "Tinel's positive bilaterally"
_POSSESSIVE_EPONYM_TRIGGERS = frozenset({"negative", "positive", "neg", "pos", "present", "absent", "equivocal"})


#: a lone capital letter after a place, with no period: a device's model ("Miami J"), not an initial; letters
#: that notes use as shorthand ("W/" with, "X" times, "L"/"R" sides, "C" with, "S" without, "N"/"E") do not count
_MODEL_LETTER_AFTER = re.compile(r"[ \t]+[DFGHJKMQTUVYZ](?![\w'’/&-]|\.\w)")


_STATE_AFTER = re.compile(r"(?P<comma>[ \t]*,)?[ \t]*(?P<abbr>[A-Za-z]{2})(?![\w'’-])")
#: "PORTLAND, MAINE", "eugene, oregon": a state written out after its comma
_STATE_NAME_AFTER = re.compile(r"[ \t]*,[ \t]*(?P<name>" + alternation(STATES) + r")(?![\w'’-])", re.I)


#: "EUNICE, TX FROM SAVOY": after a town, "tx" before where to or from is a transfer, not Texas
_TRANSFER_AFTER = re.compile(r"[ \t]+(?:from|to|for|via|back|out)\b", re.I)


def transfer_not_state(text: str, abbr: str, end: int) -> bool:
    """Is the short form ``abbr`` that ends at ``end`` a transfer ("TX FROM", "tx to floor") rather than a state?"""
    return abbr.upper() == "TX" and bool(_TRANSFER_AFTER.match(text, end))


def state_after(text: str, end: int, *, needs_comma: frozenset[str] = AMBIGUOUS_STATE_ABBRS) -> int:
    """Where a town ends when its state follows it in the town's own case ("keene nh", "LEWISTON, ME", "PORTLAND,
    MAINE"); a short form that is also a word or a clinical one ("in", "me", "ct") needs the comma.
    ``needs_comma``: the short forms (upper case) that need it; a strong cue before the town may ask it of fewer."""
    town = text[max(0, end - 3) : end]
    named = _STATE_NAME_AFTER.match(text, end)
    if named and ((named.group("name").islower() and town.islower()) or (named.group("name").isupper() and town.isupper())):
        return named.end()
    m = _STATE_AFTER.match(text, end)
    if not m:
        return end
    abbr = m.group("abbr")
    if abbr.upper() not in STATE_ABBRS or not ((abbr.islower() and town.islower()) or (abbr.isupper() and town.isupper())):
        return end
    if (not m.group("comma") and abbr.upper() in needs_comma) or transfer_not_state(text, abbr, m.end()):
        return end
    return m.end()


_STYLE_AFTER = re.compile(r"-(?:style|type|like|based|esque)\b", re.I)
_NEXT_WORD = re.compile(r"[ \t]+([^\W\d_]+)")


def word_after(text: str, end: int) -> str | None:
    """The word right after ``end`` on the same line, blanks between, or None."""
    m = _NEXT_WORD.match(text, end)
    return m.group(1) if m else None


#: a device's model number after its maker ("HAMILTON C6", "zoll r3"); a resident's year is no model ("PATEL R2")
_MODEL_CODE_AFTER = re.compile(r"[ \t]+(?![Rr][1-7]\b)[A-Za-z]\d{1,3}(?![\w/.-])")

#: a capital here is the sentence's, not the word's
_OPENS_SENTENCE = re.compile(r"(?:^|[.!?]\s+|\n\s*)$")


def followed_by_eponym_trigger(text: str, end: int) -> bool:
    # "Parkinson's disease", "Graves' disease", "Miami J collar" (a model letter between name and device)
    if _MODEL_CODE_AFTER.match(text, end):
        return True  # "HAMILTON C6 ON ASV", "zoll r3": a device's model number after its maker
    m = re.match(r"(['’][sS]?)?[ \t-]+(?:[B-HJ-Z][ \t-]+)?([A-Za-z]+)(?:[ \t]+([A-Za-z]+))?", text[end : end + 40])
    if not m:
        return False
    word = m.group(2).lower()
    if word in EPONYM_TRIGGERS or (bool(m.group(1)) and word in _POSSESSIVE_EPONYM_TRIGGERS):
        return True
    # "Ottawa ankle rules", "Glasgow coma scale": a clinical word between the name and the trigger
    return bool(m.group(3)) and m.group(3).lower() in EPONYM_TRIGGERS and default_lexicon().is_clinical(word)


#: two words joined by a hyphen, "&", "and" or a space, read at every word ("Lund and Browder", "Grey Turner")
_EPONYM_PAIR = re.compile(r"(?=\b([^\W\d_]+)(?:[ \t]*[-&][ \t]*|[ \t]+and[ \t]+|[ \t]+)([^\W\d_]+))", re.I)


def in_eponym_pair(text: str, start: int, end: int) -> bool:
    """Does ``text[start:end]`` overlap a listed two-name eponym, however the two names are joined?"""
    lex = default_lexicon()
    return any(
        m.start(1) < end and start < m.end(2) and lex.is_eponym(f"{m.group(1)}-{m.group(2)}")
        for m in _EPONYM_PAIR.finditer(text, max(0, start - 30), min(len(text), end + 30))
    )


_EPONYM_MODIFIER = re.compile(r"\b(?:high|semi|low|modified|reverse|revised)[ \t-]*$", re.I)
_SIGN_POLARITY = re.compile(r"(?:^|[\s(:;,])(?:\+|\(\+\)|\(-\)|pos(?:itive)?|neg(?:ative)?)[ \t]*$", re.I)


def after_eponym_modifier(text: str, start: int, end: int | None = None) -> bool:
    """A word that only an eponym follows: "high Fowler's", "semi-Fowler", "Modified Rankin", "reverse Trendelenburg";
    or, given where the word ends, a sign found positive or negative: "+MURPHY'S", "neg Homan's"."""
    if _EPONYM_MODIFIER.search(text[max(0, start - 12) : start]):
        return True
    if end is None or not _SIGN_POLARITY.search(text[max(0, start - 12) : start]):
        return False
    return text[end : end + 1] in ("'", "’") or text[max(0, end - 2) : end].lower() in ("'s", "’s")


def is_titled(surface: str) -> bool:
    """Every significant word capitalised (``Mercy General``, ``MGH``, ``Hospital of the ...``)."""
    words = [w for w in _TOKEN.findall(surface)]
    significant = [w for w in words if w.lower() not in _MINOR_WORDS]
    return bool(significant) and all(w[0].isupper() for w in significant)


class GazetteerRecognizer(RuleRecognizer):
    """Facility names, places and site lists found by the automaton.

    Names from the name lists are not reported here: whether a listed name
    is a person depends on context, which :mod:`deid_core.recognizers.rules.names`
    judges using the same automaton.  A single-word city, state or country
    that is also a name or a common word (``Eugene``, ``Virginia``,
    ``Mobile``) needs a place cue before it (``lives in``, ``from``).
    """

    name = "gazetteer"
    version = "1"

    def __init__(self, resources: GazetteerResources | None = None) -> None:
        self.resources = resources or default_resources()
        site_cats = {
            Category.parse(k[len(SITE_KIND_PREFIX) :]) for k in self.resources.site_lists if k.startswith(SITE_KIND_PREFIX)
        }
        self.categories = frozenset({Category.HOSPITAL, Category.LOCATION} | site_cats)

    @property
    def lexicon(self) -> Lexicon:
        return self.resources.lexicon

    def _case_ok(self, surface: str, entries: tuple[str, ...]) -> bool:
        if surface in entries:
            return True
        letters = [c for c in surface if c.isalpha()]
        if len(letters) <= 3:
            return False  # short forms (MGH, Ohio's "OH") must match the list's case exactly
        return is_titled(surface)

    def _listed_facility_case_ok(self, text: str, hit: GazetteerHit, surface: str) -> bool:
        """A listed facility as the list writes it or titled, or typed in lower case in a note typed so ("on hd at davita"),
        unless it is one word English uses often ("begging for mercy")."""
        if self._case_ok(surface, hit.entries):
            return True
        if surface.islower() and len(surface) == 3 and note_is_lower(text) and _WHERE_MEDS_GO.search(text, max(0, hit.start - 30), hit.start):
            return True  # "wants list sent to cvs": a short chain's name needs where something is sent or got from
        if not (surface.islower() and len(surface) > 3) or (" " not in surface and self.lexicon.is_common_word(surface, strict=True)):
            return False
        return note_is_lower(text)

    def _place_ok(self, text: str, hit: GazetteerHit) -> bool:
        surface = text[hit.start : hit.end]
        words = _TOKEN.findall(surface)
        lex = self.lexicon
        if followed_by_eponym_trigger(text, hit.end) or _TITLE_BEFORE.search(text[max(0, hit.start - 8) : hit.start]):
            return False
        if _STYLE_AFTER.match(text, hit.end):
            return False  # "per Portland-style protocol": a place made an adjective
        if _MODEL_LETTER_AFTER.match(text, hit.end):
            return False  # "MIAMI J ON", "Miami J removed": a collar's model, named for a place
        if landform_after_the(text, hit.start, hit.end):
            return False  # "HOME TO THE MESA", "down in the valley": a landform, not the town that bears its name
        cue = bool(_PLACE_CUE.search(text[max(0, hit.start - 30) : hit.start]))
        if not cue and "country" in hit.kinds and _PLACE_COMMA_BEFORE.search(text[max(0, hit.start - 40) : hit.start]):
            cue = True  # "Manila, Philippines": a country after a capitalised place and a comma
        if len(words) >= 2 and re.search(r"[\w)],[ \t]*$", text[max(0, hit.start - 4) : hit.start]):
            return True  # "Hy-Vee Pharmacy #1422, Cedar Rapids": a listed city of two words after a comma
        if len(words) >= 2:
            return cue or any(not lex.is_common_word(w) for w in words if w.lower() not in _MINOR_WORDS)
        word = words[0]
        if lex.is_common_word(word, strict=True) and re.match(r"[ \t]+[A-Z][a-z]", text[hit.end : hit.end + 3]):
            return False  # "University Hospital Limerick", "Ward 3B of University ...": part of a longer name
        if lex.is_eponym(word) or lex.is_stop(word):
            return cue and not lex.is_eponym(word)
        if cue:
            nxt = word_after(text, hit.end)
            if lex.is_everyday(word) and nxt and lex.is_clinical(nxt):
                return False  # "NO RESPONSE TO CENTRAL PAIN": an everyday word before a clinical one qualifies it
            # "MURMUR 3/6 AT APEX": in capitals a clinical word after a place cue is where in the body,
            # unless its state or country follows ("TO LIMA, OHIO")
            return not (lex.is_clinical(word) and word.isupper()) or bool(re.match(r"[ \t]*,[ \t]*[A-Z]{2}", text[hit.end : hit.end + 6]))
        if (
            word.lower() in prominent_places()
            and lex.census_share(word) < PROMINENT_NAME_SHARE
            and word.lower() not in lex.ambiguous
            and not (lex.is_clinical(word) and (not word.istitle() or _OPENS_SENTENCE.search(text[max(0, hit.start - 4) : hit.start])))
        ):
            # "Country of birth: Ethiopia", "Munich to Boise": a well-known place that few people are named;
            # one that is also a clinical word needs a cue unless written as a place is ("ORAL SXN" and
            # "LIMA-LAD" are no places, "Lima -> Cusco" is), and a sentence's capital says nothing ("Oral care")
            return True
        return not lex.is_name(word) and not lex.is_common_word(word)

    def _lowercase_place_ok(self, text: str, hit: GazetteerHit) -> bool:
        """``lives in stone mountain``, ``drove in from fergus falls``: a place typed in lowercase, after a place cue."""
        before = text[max(0, hit.start - 30) : hit.start]
        if not _LOWER_PLACE_CUE.search(before):
            return False
        lex = self.lexicon
        words = [w for w in _TOKEN.findall(text[hit.start : hit.end]) if w not in _MINOR_WORDS]
        if not words or len("".join(words)) < 4 or followed_by_eponym_trigger(text, hit.end):
            return False
        if hit.kinds & {"state", "country"} and len(words) == 1 and not lex.is_stop(words[0]) and not lex.is_clinical(words[0]):
            # "a long car ride from florida", "son (by phone from ohio)": a state or a country after a place
            # cue is a place in any case, unless it is as often a thing or a name ("to turkey", "from chad")
            return words[0].lower() not in lex.ambiguous and words[0].lower() not in _EVERYDAY_PLACE_WORDS
        home = bool(_LOWER_HOME_CUE.search(before))
        lower_note = note_is_lower(text)
        if len(words) >= 2 and (home or lower_note):
            # "lives in stone mountain", "her kids in fall river": a listed town of ordinary words
            return not any(lex.is_stop(w) or lex.is_clinical(w) for w in words)
        if lower_note and len(words) == 1:
            # "called from montreal", "kids are in seoul", "found down in somerville": in a note typed in lower
            # case the cue is all the evidence there is; the word must be a place before it is anything else
            word = words[0].lower()
            if lex.is_stop(word) or lex.is_clinical(word) or lex.is_eponym(word):
                return False
            if home:
                # "lives with her husband in quincy", "lives w mom in dorchester": after a home cue, a listed
                # town that English rarely uses otherwise, even one that is a given name
                return lex.frequency(word) < VERY_COMMON_WORD_FREQ or self._mainly_a_place(word)
            return not lex.is_first(word) and (not lex.is_common_word(word) or self._mainly_a_place(word))
        return all(not lex.is_common_word(w) and not lex.is_stop(w) and lex.census_share(w) < 1e-5 for w in words)

    def _mainly_a_place(self, word: str) -> bool:
        """A prominent place that English uses as no other word ("seoul", "montreal"; not "turkey" or "lima")."""
        return word in prominent_places() and word not in self.lexicon.ambiguous and word not in _EVERYDAY_PLACE_WORDS

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        out: list[Span] = []
        for hit in self.resources.scan(text):
            surface = text[hit.start : hit.end]
            site = [k for k in hit.kinds if k.startswith(SITE_KIND_PREFIX)]
            if (site or "hospital" in hit.kinds) and self._listed_facility_case_ok(text, hit, surface):
                if self.lexicon.is_clinical(surface) and not _facility_shape(text, hit.start, hit.end):
                    continue  # "CVS STABLE" is the cardiovascular system; "CVS Pharmacy", "at CVS" a store
                for k in site:
                    out.append(Span(hit.start, hit.end, Category.parse(k[len(SITE_KIND_PREFIX) :]), 0.85, "gazetteer/site"))
                if "hospital" in hit.kinds:
                    store = STORE_NUMBER.match(text, hit.end)
                    end = store.end() if store else branch_city_end(text, hit.end, self.lexicon, caps=surface.isupper())
                    out.append(Span(hit.start, end, Category.HOSPITAL, 0.85, "gazetteer/hospital"))
                continue
            if hit.kinds & PLACE_KINDS and self._case_ok(surface, hit.entries) and self._place_ok(text, hit):
                out.append(Span(hit.start, state_after(text, hit.end), Category.LOCATION, 0.7, "gazetteer/place", Evidence.GUESS))
            elif hit.kinds & PLACE_KINDS and surface.islower() and self._lowercase_place_ok(text, hit):
                out.append(Span(hit.start, state_after(text, hit.end), Category.LOCATION, 0.6, "gazetteer/place_lower"))
        return out
