"""The known-identifier recognizer: every form of what the record says about the patient.

Given a patient's known identifiers (:mod:`deid_core.known`), it finds:

* names (the patient's and relatives' as PATIENT, staff as DOCTOR): each
  token and each whole name in any case and order (``LOPEZ, MARIA``,
  ``Maria T. Lopez``, ``M. Lopez``, ``maria``), hyphenated parts, particles
  and possessives, and one-letter misspellings of tokens of five letters or
  more that are no word in their own right.  A token that is also an
  ordinary word (``Hope``, ``Young``, ``Bell``) counts only after a title or
  cue or beside another token of the same person;
* identifiers and phones by their characters alone, whatever the spacing,
  punctuation or grouping (``617 555 0134``, ``(617) 555-0134``,
  ``+1 617.555.0134``);
* dates (of birth) in every format the anonymizer parses
  (:class:`deid_core.dates.DateShifter`), month-day order either way;
* emails in any case; addresses as the street line (number and street, the
  street type abbreviated or not), the city and the ZIP code.

Its spans carry the source ``known/<kind>`` and score 1.0, and
:func:`known_wins` lets them decide category and boundaries wherever they
overlap another recognizer's spans.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import ClassVar

from deid_core.dates import DateParseError, DateShifter
from deid_core.known import KnownPatient, KnownSet
from deid_core.recognizers.base import NoteContext, RuleRecognizer
from deid_core.recognizers.lexicon import (
    COMMON_WORD_FREQ,
    DOCTOR_TITLES,
    NAME_PARTICLES,
    PATIENT_TITLES,
    RANKS,
    RELATIONS,
    VERY_COMMON_WORD_FREQ,
    Lexicon,
    default_lexicon,
)
from deid_core.resolution import join_sources, merge_adjacent, resolve
from deid_core.spans import Category, Evidence, Span

SOURCE = "known"
SCORE = 1.0
#: shortest token a misspelling may be matched for
FUZZY_MIN = 5
#: shortest identifier (letters and digits) worth matching on its own
ID_MIN = 4

_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_POSSESSIVE = re.compile(r"['’]s$", re.I)
#: what may stand between two words of one written name: "LOPEZ, MARIA", "M. Lopez", 'Harold "Hal" Pettibone',
#: "VAN BUSKIRK/CODY", "MENGISTU^SELAMAWIT"
_JOIN_GAP = re.compile(r"[ \t]*[.,]?[ \t]*(?:[\"“”(][ \t]*)?|[ \t]*[\"“”)][ \t]*(?:[.,][ \t]*)?|[/^]")
_TITLES = frozenset(t.casefold() for t in (*DOCTOR_TITLES, *PATIENT_TITLES, *RANKS))
_DOCTOR_TITLES = frozenset(t.casefold() for t in DOCTOR_TITLES)
_CUE_WORDS = frozenset(r.casefold() for r in RELATIONS) | {"patient", "pt", "name", "mother", "father"}
_CUE_BEFORE = re.compile(r"([^\W\d_]+)\.?[ \t]*:?[ \t]*$")
_SEPARATORS = r"[\s().\-/]{0,3}"
_STREET_TYPES: tuple[tuple[str, ...], ...] = (
    ("street", "st"), ("avenue", "ave", "av"), ("road", "rd"), ("drive", "dr"), ("lane", "ln"),
    ("boulevard", "blvd"), ("court", "ct"), ("place", "pl"), ("terrace", "ter"), ("circle", "cir"),
    ("parkway", "pkwy"), ("highway", "hwy"), ("way", "wy"), ("square", "sq"), ("trail", "trl"),
)  # fmt: skip
_STREET_TYPE_OF = {w: forms for forms in _STREET_TYPES for w in forms}
_ZIP = re.compile(r"\b\d{5}(?:-\d{4})?\b")
_STATE = re.compile(r"^[A-Z]{2}$")
_NAMES = frozenset({Category.PATIENT, Category.DOCTOR})
#: emails, addresses on the web and handles ("mwatson@x.org", "dfields38"): a name inside one is part of it
_WEB_ZONE = re.compile(r"[\w.+-]*@[\w.-]+|\b(?:https?://|www\.)\S+|\b[^\W\d_]+\d+\b|\w*_\w*")


def fold(token: str) -> str:
    """Case- and accent-blind form of a token (``Núñez`` = ``NUNEZ``)."""
    decomposed = unicodedata.normalize("NFKD", token.replace("’", "'"))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def within_one_edit(a: str, b: str) -> bool:
    """One insertion, deletion, substitution or swap of neighbours apart (or equal)."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        diff = [i for i in range(la) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long_ = (a, b) if la < lb else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


@dataclass(frozen=True)
class _Person:
    category: Category
    tokens: frozenset[str]  # folded name tokens of two letters or more
    initials: frozenset[str]  # folded first letters of those tokens
    particles: frozenset[str] = frozenset()  # "de", "van", "ó" as the record writes them


@dataclass
class _Word:
    start: int
    end: int
    folded: str
    persons: frozenset[int] = frozenset()
    weak: bool = False
    initial: bool = False
    particle: bool = False
    spelled: str | None = None  # the record's token this word misspells


@dataclass
class KnownIndex:
    """One patient's known identifiers, compiled once for matching."""

    persons: list[_Person] = field(default_factory=list)
    by_token: dict[str, set[int]] = field(default_factory=dict)
    fuzzy_tokens: dict[str, set[int]] = field(default_factory=dict)
    numbers: list[tuple[re.Pattern[str], Category, str]] = field(default_factory=list)
    dates: list[date] = field(default_factory=list)
    emails: list[str] = field(default_factory=list)
    places: list[tuple[re.Pattern[str], str]] = field(default_factory=list)

    def holds(self, category: Category, text: str) -> bool:
        """Is ``text``, written as one span of ``category``, a form of a known value?

        For scoring: the gold spans a known list should guarantee.  A name
        qualifies when every token (initials aside) is a token of one known
        person of that category, or one edit from one.
        """
        if category in (Category.PATIENT, Category.DOCTOR):
            tokens = _name_tokens(text)
            people = [p for p in self.persons if p.category is category]
            return bool(tokens) and any(
                all(t in p.tokens or (len(t) >= FUZZY_MIN and any(within_one_edit(t, k) for k in p.tokens)) for t in tokens)
                for p in people
            )
        if category in (Category.ID, Category.PHONE):
            return any(p.fullmatch(text.strip()) for p, c, _ in self.numbers if c is category)
        if category is Category.DATE:
            return any(_same_day(d, got) for got in _parse_date(text.strip()) for d in self.dates)
        return False


def _name_tokens(name: str) -> list[str]:
    out: list[str] = []
    for w in _WORD.findall(name):
        w = _POSSESSIVE.sub("", w)
        for part in [w, *re.split(r"-", w)] if "-" in w else [w]:
            f = fold(part)
            if len(f) >= 2 and f not in NAME_PARTICLES and f not in _TITLES:
                out.append(f)
    return out


def _number_pattern(chars: str) -> str:
    """Each character in turn, with any spacing or punctuation between them."""
    return _SEPARATORS.join(re.escape(c) for c in chars)


def _id_forms(value: str) -> set[str]:
    alnum = "".join(c for c in value if c.isalnum()).upper()
    forms = {alnum} if len(alnum) >= ID_MIN else set()
    digits = "".join(c for c in value if c.isdigit())
    if digits != alnum and len(digits) >= 6:
        forms.add(digits)  # "MRN-00123456" is written "00123456" too
    return forms


def _phone_forms(value: str) -> set[str]:
    digits = "".join(c for c in value if c.isdigit())
    if len(digits) < 7:
        return set()
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    return {digits}


def _parse_date(text: str) -> list[date]:
    """Every reading of ``text`` as a full date (month-first and day-first), or none."""
    out: list[date] = []
    for shifter in _SHIFTERS:
        try:
            parsed = shifter.parse(text)
        except DateParseError:
            continue
        if parsed.granularity == "day" and parsed.has_year:
            out.append(parsed.date)
    return out


_SHIFTERS = (DateShifter(date(2000, 1, 1)), DateShifter(date(2000, 1, 1), day_first=True))
_DATE_TOKEN = re.compile(r"\d+|[^\W\d_]+")


def _address_patterns(address: str) -> list[tuple[re.Pattern[str], str]]:
    """The street line, the city and the ZIP code of a written address."""
    out: list[tuple[re.Pattern[str], str]] = []
    parts = [p.strip() for p in address.split(",") if p.strip()]
    for zip_code in _ZIP.findall(address):
        out.append((re.compile(rf"(?<!\d){re.escape(zip_code)}(?![\d-])"), "zip"))
    if not parts:
        return out
    street = re.match(r"^(\d+[A-Za-z]?)\s+(.+)$", parts[0])
    if street:
        words = street.group(2).split()
        kind = _STREET_TYPE_OF.get(words[-1].rstrip(".").casefold()) if len(words) > 1 else None
        body = r"\s+".join(re.escape(w) for w in (words[:-1] if kind else words))
        tail = rf"\s+(?:{'|'.join(kind)})\b\.?" if kind else r"\b"
        out.append((re.compile(rf"(?<![\w-]){re.escape(street.group(1))}\s+{body}{tail}", re.I), "street"))
    for part in parts[1:]:
        city = _ZIP.sub("", part).strip()
        words = city.split()
        if words and _STATE.match(words[-1]):
            words = words[:-1]  # "Salem MA 01970": the state is kept, the city is the identifier
        if words and any(len(w) > 2 for w in words):
            out.append((re.compile(r"(?<![\w-])" + r"\s+".join(re.escape(w) for w in words) + r"(?![\w-])", re.I), "city"))
    return out


def compile_known(record: KnownPatient) -> KnownIndex:
    """Compile one patient's record for :class:`KnownIdentifierRecognizer`."""
    index = KnownIndex()
    # every entry of `names` is the patient (a legal and a preferred name); relatives and staff are one person each
    people = [(" ".join(record.names), Category.PATIENT)] if record.names else []
    people += [(n, Category.PATIENT) for n in record.relatives] + [(n, Category.DOCTOR) for n in record.staff]
    for name, category in people:
        tokens = _name_tokens(name)
        if tokens:
            pid = len(index.persons)
            particles = frozenset(fold(w) for w in _WORD.findall(name) if fold(w) in NAME_PARTICLES or w.casefold() in NAME_PARTICLES)
            index.persons.append(_Person(category, frozenset(tokens), frozenset(t[0] for t in tokens), particles))
            for t in tokens:
                index.by_token.setdefault(t, set()).add(pid)
                if len(t) >= FUZZY_MIN:
                    index.fuzzy_tokens.setdefault(t, set()).add(pid)
    numbers: dict[str, tuple[Category, str]] = {}
    for value in record.ids:
        for form in _id_forms(value):
            numbers.setdefault(form, (Category.ID, "id"))
    for value in record.phones:
        for form in _phone_forms(value):
            numbers[form] = (Category.PHONE, "phone")
    for form, (category, kind) in sorted(numbers.items(), key=lambda kv: -len(kv[0])):
        prefix = r"(?:\+?1[\s.\-]{0,2})?\(?" if category is Category.PHONE else ""
        pattern = re.compile(rf"(?<![A-Za-z0-9]){prefix}{_number_pattern(form)}(?![A-Za-z0-9])", re.I)
        index.numbers.append((pattern, category, kind))
    for value in record.dates:
        index.dates.extend(_parse_date(value)[:1])
    index.emails = [e.casefold() for e in record.emails if "@" in e]
    for address in record.addresses:
        index.places.extend(_address_patterns(address))
    return index


class KnownIdentifierRecognizer(RuleRecognizer):
    """Finds a patient's known identifiers (see the module docstring); others' notes are untouched."""

    name: ClassVar[str] = "known"
    version: ClassVar[str] = "1"
    categories: ClassVar[frozenset[Category]] = frozenset(
        {Category.PATIENT, Category.DOCTOR, Category.ID, Category.PHONE, Category.DATE, Category.WEB, Category.LOCATION}
    )

    def __init__(self, known: KnownSet, lexicon: Lexicon | None = None) -> None:
        self.known = known
        self._lexicon = lexicon
        self._compiled: dict[str, KnownIndex] = {}

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = default_lexicon()
        return self._lexicon

    def index_for(self, patient_id: str | None) -> KnownIndex | None:
        record = self.known.get(patient_id)
        if record is None:
            return None
        found = self._compiled.get(record.patient_id)
        if found is None:
            found = self._compiled[record.patient_id] = compile_known(record)
        return found

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        index = self.index_for(context.patient_id if context is not None else None)
        if index is None:
            return []
        spans = self._names(text, index) + self._numbers(text, index) + self._dates(text, index)
        spans += self._emails(text, index) + self._places(text, index)
        return _longest_first(spans)

    # -- names ------------------------------------------------------------
    def _common(self, token: str) -> bool:
        lex = self.lexicon
        return lex.is_stop(token) or lex.is_eponym(token) or lex.is_common_word(token)

    def _word(self, text: str, m: re.Match[str], index: KnownIndex) -> _Word:
        raw = _POSSESSIVE.sub("", m.group())
        word = _Word(m.start(), m.start() + len(raw), fold(raw))
        f = word.folded
        if len(f) == 1 and (raw.isupper() or text.startswith(".", word.end)):
            word.initial = True
            return word
        if f in NAME_PARTICLES or raw.casefold() in NAME_PARTICLES:
            word.particle = True
            return word
        persons = set(index.by_token.get(f, ()))
        if "-" in f:
            for part in f.split("-"):
                persons |= index.by_token.get(part, set())
        if persons:
            word.persons = frozenset(persons)
            word.weak = len(f) <= 2 or self._common(raw)
            return word
        if len(f) >= FUZZY_MIN and not self._common(raw) and self.lexicon.frequency(raw) < COMMON_WORD_FREQ:
            near = sorted(t for t in index.fuzzy_tokens if within_one_edit(f, t))
            if near:
                word.persons = frozenset(p for t in near for p in index.fuzzy_tokens[t])
                word.spelled = near[0]
        return word

    def spellings(self, text: str, patient_id: str | None) -> dict[str, str]:
        """Misspelled name words of ``text`` and the record's spelling of each, in the word's case.

        For the anonymizer, so ``Quinteros`` gets the surrogate of ``Quintero``.
        """
        index = self.index_for(patient_id)
        if index is None or not index.persons:
            return {}
        zones = [(m.start(), m.end()) for m in _WEB_ZONE.finditer(text)]
        out: dict[str, str] = {}
        for m in _WORD.finditer(text):
            if _inside(m, zones):
                continue
            w = self._word(text, m, index)
            if w.spelled is not None:
                written = text[w.start : w.end]
                out[written] = w.spelled.upper() if written.isupper() else w.spelled.capitalize() if written[:1].isupper() else w.spelled
        return out

    def _cued(self, text: str, start: int) -> str | None:
        """The title or cue word right before a name ("Ms.", "Dr", "daughter", "Patient:"), folded."""
        m = _CUE_BEFORE.search(text, max(0, start - 20), start)
        if m is None:
            return None
        cue = fold(m.group(1))
        return cue if cue in _TITLES or cue in _CUE_WORDS else None

    def _names(self, text: str, index: KnownIndex) -> list[Span]:
        if not index.persons:
            return []
        zones = [(m.start(), m.end()) for m in _WEB_ZONE.finditer(text)]
        words = [self._word(text, m, index) for m in _WORD.finditer(text) if not _inside(m, zones)]
        spans: list[Span] = []
        i = 0
        while i < len(words):
            if not words[i].persons:
                i += 1
                continue
            group = [words[i]]
            persons = set(words[i].persons)
            comma_at: int | None = None
            j = i + 1
            while j < len(words):
                w, prev = words[j], group[-1]
                gap = text[prev.end : w.start]
                if not _JOIN_GAP.fullmatch(gap) or ("." in gap and not prev.initial):
                    break
                if "," in gap:
                    if comma_at is not None:
                        break
                    comma_at = len(group)
                if w.persons and any(w.folded == g.folded for g in group):
                    # a name said again ("marisol marisol batista"); after a comma, two mentions ("Maria Lopez, M. Lopez")
                    if comma_at is not None:
                        del group[comma_at:]
                        j = i + len(group)
                    break
                shared = persons & w.persons
                if shared:
                    persons = shared
                elif not (w.initial or w.particle):
                    break
                group.append(w)
                j += 1
            # a particle counts only inside a name, an initial only when it is one of the person's
            while not group[-1].persons and not (group[-1].initial and _initial_of(group[-1], persons, index)):
                group.pop()
            # an initial or the person's particle before the name: "M. Lopez", "ó Dearáin"
            k = i - 1
            while k >= 0 and (words[k].initial or words[k].particle) and _JOIN_GAP.fullmatch(text[words[k].end : group[0].start]):
                if not (_initial_of(words[k], persons, index) or any(words[k].folded in index.persons[p].particles for p in persons)):
                    break
                group.insert(0, words[k])
                k -= 1
            spans.extend(self._name_span(text, group, persons, index))
            i = j
        return spans

    def _name_span(self, text: str, group: list[_Word], persons: set[int], index: KnownIndex) -> list[Span]:
        matched = [w for w in group if w.persons]
        start = group[0].start
        cue = self._cued(text, start)
        if len(matched) < 2 and all(w.weak for w in matched) and cue is None and not any(w.initial for w in group):
            return []  # an ordinary word alone ("Price"); "A. Price" has the person's initial beside it
        cats = {index.persons[p].category for p in persons}
        if cue in _DOCTOR_TITLES:
            category = Category.DOCTOR  # a clinician who shares the patient's surname
        else:
            category = Category.PATIENT if Category.PATIENT in cats else Category.DOCTOR
        return [Span(start, group[-1].end, category, SCORE, f"{SOURCE}/name", Evidence.KNOWN)]

    # -- numbers, dates, emails, places ----------------------------------
    @staticmethod
    def _numbers(text: str, index: KnownIndex) -> list[Span]:
        out: list[Span] = []
        for pattern, category, kind in index.numbers:
            for m in pattern.finditer(text):
                start, end = m.start(), m.end()
                if text[start] == "(" and ")" not in text[start:end]:
                    start += 1
                out.append(Span(start, end, category, SCORE, f"{SOURCE}/{kind}", Evidence.KNOWN))
        return out

    @staticmethod
    def _dates(text: str, index: KnownIndex) -> list[Span]:
        if not index.dates:
            return []
        years = {str(d.year) for d in index.dates} | {f"{d.year % 100:02d}" for d in index.dates}
        compact = {d.strftime("%Y%m%d") for d in index.dates} | {d.strftime("%m%d%Y") for d in index.dates}
        tokens = list(_DATE_TOKEN.finditer(text))
        out: list[Span] = []
        for i, tok in enumerate(tokens):
            value = tok.group()
            if value in compact:
                out.append(Span(tok.start(), tok.end(), Category.DATE, SCORE, f"{SOURCE}/date", Evidence.KNOWN))
                continue
            if value not in years and not any(value.endswith(y) and len(value) > 4 for y in years):
                continue
            best: tuple[int, int] | None = None
            for a in range(max(0, i - 6), i + 1):
                for b in range(i, min(len(tokens), i + 7)):
                    start, end = tokens[a].start(), tokens[b].end()
                    if end - start > 40 or (best and end - start <= best[1] - best[0]):
                        continue
                    if any(_same_day(d, got) for got in _parse_date(text[start:end]) for d in index.dates):
                        best = (start, end)
            if best:
                out.append(Span(best[0], best[1], Category.DATE, SCORE, f"{SOURCE}/date", Evidence.KNOWN))
        return out

    @staticmethod
    def _emails(text: str, index: KnownIndex) -> list[Span]:
        out: list[Span] = []
        low = text.casefold() if len(text.casefold()) == len(text) else None
        for email in index.emails:
            if low is None:
                pattern = re.compile(re.escape(email), re.I)
                hits = [(m.start(), m.end()) for m in pattern.finditer(text)]
            else:
                hits = [(m.start(), m.end()) for m in re.finditer(re.escape(email), low)]
            out.extend(Span(s, e, Category.WEB, SCORE, f"{SOURCE}/email", Evidence.KNOWN) for s, e in hits)
        return out

    def _places(self, text: str, index: KnownIndex) -> list[Span]:
        out: list[Span] = []
        for pattern, kind in index.places:
            for m in pattern.finditer(text):
                found = m.group()
                if kind == "city" and not found[:1].isupper() and self._common(found.split()[0]):
                    continue  # a town named Reading is not every "reading"
                out.append(Span(m.start(), m.end(), Category.LOCATION, SCORE, f"{SOURCE}/{kind}", Evidence.KNOWN))
        return out


def _inside(m: re.Match[str], zones: Sequence[tuple[int, int]]) -> bool:
    return any(a <= m.start() and m.end() <= b for a, b in zones)


def _initial_of(word: _Word, persons: set[int], index: KnownIndex) -> bool:
    return any(word.folded in index.persons[p].initials for p in persons)


def _same_day(known: date, found: date) -> bool:
    """The same day, a two-digit year read in any century."""
    return (known.month, known.day) == (found.month, found.day) and known.year % 100 == found.year % 100


def _longest_first(spans: Sequence[Span]) -> list[Span]:
    """Non-overlapping spans, the longer kept where two overlap (a whole name over its token)."""
    out: list[Span] = []
    for s in sorted(spans, key=lambda s: (-s.length, s.start)):
        if not any(s.overlaps(o) for o in out):
            out.append(s)
    return sorted(out, key=lambda s: s.start)


_TITLE_ONLY = re.compile(r"[\W_]*(?:" + "|".join(sorted(_TITLES, key=len, reverse=True)) + r")?[\W_]*", re.I)


def known_wins(text: str, spans: Sequence[Span], known: Sequence[Span], lexicon: Lexicon | None = None) -> list[Span]:
    """``spans`` united with ``known`` spans that decide category and boundaries where they overlap.

    Where the other span reads the same category it stands whole (a longer
    address, a name with a middle name the record lacks), unless what it
    adds to a name is only ordinary words that are no given names
    (``Baby Boy``); where it reads
    another, its part outside the known span keeps that category unless it is
    only punctuation or a title.  One exception: a longer name of the other
    category around a known name token is another person sharing that name
    (``Dr. Mikako Clark`` beside a patient named Clark), and it stands.  A
    known span records the sources of the spans it overlapped, for audit.
    """
    if not known:
        return list(spans)
    known = sorted(known, key=lambda s: s.start)
    kept: list[Span] = []
    absorbed: dict[int, list[Span]] = {}
    yielded: set[int] = set()
    for s in spans:
        over = [i for i, k in enumerate(known) if k.overlaps(s)]
        if not over:
            kept.append(s)
            continue
        for i in over:
            absorbed.setdefault(i, []).append(s)
        if all(known[i].category is s.category for i in over) and not _only_ordinary_beyond(text, s, [known[i] for i in over], lexicon):
            kept.append(replace(s, score=SCORE))  # the same reading, perhaps longer
            continue
        if s.category in _NAMES and all(known[i].category in _NAMES and _within(text, known[i], s) for i in over) and not _only_ordinary_beyond(
            text, s, [known[i] for i in over], lexicon
        ):
            # "Dr. Mikako Clark" beside a patient named Clark: a longer name holding a known token is another person's
            yielded.update(over)
            kept.append(replace(s, source=join_sources([s, *(known[i] for i in over)]), evidence=Evidence.united([s, *(known[i] for i in over)])))
            continue
        cursor = s.start
        for i in over:
            kept.extend(_remainder(text, s, cursor, known[i].start))
            cursor = max(cursor, known[i].end)
        kept.extend(_remainder(text, s, cursor, s.end))
    winners = [
        replace(k, source=join_sources([k, *absorbed.get(i, [])]), evidence=Evidence.united([k, *absorbed.get(i, [])]))
        for i, k in enumerate(known)
        if i not in yielded
    ]
    return merge_adjacent(resolve(kept + winners), text)


def _only_ordinary_beyond(text: str, span: Span, known: Sequence[Span], lexicon: Lexicon | None) -> bool:
    """Does a name span add to the known spans in it only ordinary words or titles before or after them?

    Words between known spans are never dropped: ``Maria Rose Lopez`` keeps a
    middle name the record lacks, even one that is an ordinary word.
    """
    if span.category not in _NAMES:
        return False
    ordered = sorted(known, key=lambda k: k.start)
    if any(_WORD.search(text[a.end : b.start]) for a, b in zip(ordered, ordered[1:])):
        return False
    first, last = ordered[0].start, max(k.end for k in ordered)
    lex = lexicon or default_lexicon()
    words = _WORD.findall(text[span.start : max(span.start, first)]) + _WORD.findall(text[min(span.end, last) : span.end])
    return bool(words) and all(len(w) > 1 and (fold(w) in _TITLES or _ordinary(w, lex)) for w in words)


def _ordinary(word: str, lex: Lexicon) -> bool:
    """An everyday word ("Boy", "Pastor"), not a given name that is also common ("Barbara")."""
    return lex.is_common_word(word) or (lex.frequency(word) >= VERY_COMMON_WORD_FREQ and not lex.is_first(word))


def _within(text: str, inner: Span, outer: Span) -> bool:
    """``outer`` holds ``inner`` and more words than a title."""
    if not (outer.start <= inner.start and inner.end <= outer.end):
        return False
    rest = text[outer.start : inner.start] + " " + text[inner.end : outer.end]
    return not _TITLE_ONLY.fullmatch(rest)


def _remainder(text: str, span: Span, start: int, end: int) -> list[Span]:
    if end <= start:
        return []
    piece = text[start:end]
    if _TITLE_ONLY.fullmatch(piece):
        return []
    lead = len(piece) - len(piece.lstrip(" \t\n,;:-"))
    trail = len(piece) - len(piece.rstrip(" \t\n,;:-"))
    s, e = start + lead, end - trail
    return [replace(span, start=s, end=e)] if e > s else []
