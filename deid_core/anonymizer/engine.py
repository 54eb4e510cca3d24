"""Apply the configured strategy to every span of a note, failing closed.

Overlapping spans are first united into one region by
:func:`deid_core.resolution.resolve`, which types it by the documented
precedence, so no character of either survives.  As a last guard, a region
whose replacement would keep a word of a span of another category, or keep
the region as written when it holds another category's span, is masked.
Any error while replacing a region
masks it with a typed placeholder and records the error class, never the
original text.  A note with dates to shift and no patient id is an error
for the whole note, not a random offset.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable, Mapping

from deid_core.anonymizer.ages import cap_age
from deid_core.anonymizer.birth_dates import birth_dates_over_age
from deid_core.dates import DateShifter, patient_offset_days
from deid_core.anonymizer.fpe import IdCipher
from deid_core.anonymizer.hashing import OpaqueHasher
from deid_core.anonymizer.pseudonyms import RecordPseudonyms
from deid_core.config import AnonymizerConfig
from deid_core.keys import Purpose, StudyKey
from deid_core.resolution import KEPT_CATEGORIES, resolve
from deid_core.spans import Category, Span, SpanError, validate_spans


class AnonymizationError(ValueError):
    """The note cannot be anonymized at all; nothing of it is written."""


class BirthDateShowsAgeOver89(ValueError):
    """A birth date that, with another date of the note, shows an age over 89 (Safe Harbor)."""


class ForeignTextKept(ValueError):
    """A region's replacement kept text that a span of another category marks."""


#: Words compared by the overlap guard: three or more letters or digits.
_WORD = re.compile(r"[^\W_]{3,}")


@dataclass(frozen=True, slots=True)
class Note:
    id: str
    text: str
    patient_id: str | None = None
    spans: tuple[Span, ...] = ()
    #: name words written misspelled -> the record's spelling (known identifiers), so both get one surrogate
    spellings: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Replacement:
    """What happened to one region: for audit, without any original text."""

    start: int
    end: int
    out_start: int
    out_end: int
    category: Category
    strategy: str
    masked_because: str | None = None


@dataclass(frozen=True, slots=True)
class AnonymizedNote:
    """``id`` is the input id, for errors; an output record carries ``release_id``
    and ``patient_pseudonym`` (see :mod:`deid_core.anonymizer.pseudonyms`)."""

    id: str
    release_id: str
    patient_pseudonym: str | None
    text: str
    spans: tuple[Span, ...]
    key_id: str
    replacements: tuple[Replacement, ...] = field(default=())

    @property
    def masked_count(self) -> int:
        return sum(1 for r in self.replacements if r.masked_because)


@dataclass(frozen=True, slots=True)
class _Region:
    start: int
    end: int
    category: Category
    members: tuple[int, ...]  # indices of the input spans it covers


def _regions(spans: tuple[Span, ...]) -> list[_Region]:
    """Unite overlapping spans with :func:`deid_core.resolution.resolve` and
    remember which input spans each united region covers."""
    merged = resolve(spans)
    starts = [m.start for m in merged]
    members: list[list[int]] = [[] for _ in merged]
    for i, span in enumerate(spans):
        members[bisect_right(starts, span.start) - 1].append(i)
    return [_Region(m.start, m.end, m.category, tuple(idx)) for m, idx in zip(merged, members)]


def _foreign(region: _Region, spans: tuple[Span, ...]) -> list[Span]:
    """The spans of ``region`` of another category than the one it was replaced as, kept ones aside."""
    return [
        spans[i]
        for i in region.members
        if spans[i].category is not region.category and spans[i].category not in KEPT_CATEGORIES
    ]


def _keeps_foreign_text(text: str, foreign: list[Span], surrogate: str) -> bool:
    kept = set(_WORD.findall(surrogate.casefold()))
    return any(w in kept for s in foreign for w in _WORD.findall(s.text_in(text).casefold()))


class Anonymizer:
    """Keyed anonymizer for one study key and one configuration."""

    def __init__(self, key: StudyKey, config: AnonymizerConfig | None = None) -> None:
        self.key = key
        self.config = config or AnonymizerConfig()
        self._dates_key = key.subkey(Purpose.DATES)

    # Strategy backends are built on first use: a run without names never loads name pools.
    @cached_property
    def _ids(self) -> IdCipher:
        return IdCipher(self.key, mode=self.config.fpe_mode, alphabet=self.config.fpe_alphabet)

    @cached_property
    def _pseudonyms(self) -> RecordPseudonyms:
        return RecordPseudonyms(self.key)

    def record_fields(self, note_id: str, patient_id: str | None) -> tuple[str, str | None]:
        """The id and patient id an output record carries: the patient id always as a
        keyed pseudonym, the id too when ``pseudonymize_id`` is set."""
        release_id = self._pseudonyms.pseudonym("id", note_id) if self.config.pseudonymize_id else note_id
        return release_id, None if patient_id is None else self._pseudonyms.pseudonym("patient_id", patient_id)

    @cached_property
    def _hasher(self) -> OpaqueHasher:
        return OpaqueHasher(self.key)

    @cached_property
    def date_shifter(self) -> DateShifter:
        return DateShifter(
            reference=self.config.reference_date,
            day_first=self.config.day_first,
            two_digit_window_end=self.config.two_digit_year_window_end,
        )

    @cached_property
    def _names(self):
        from deid_core.anonymizer.names import NameSurrogates

        return NameSurrogates(self.key.subkey(Purpose.NAMES))

    @cached_property
    def _places(self):
        from deid_core.anonymizer.places import PlaceSurrogates

        return PlaceSurrogates(self.key.subkey(Purpose.PLACES))

    @cached_property
    def _web(self):
        from deid_core.anonymizer.web import WebSurrogates

        return WebSurrogates(self.key.subkey(Purpose.WEB))

    def mask(self, category: Category) -> str:
        return self.config.mask_format.format(category=category.value)

    def strategy_for(self, category: Category) -> str:
        return self.config.strategies[category]

    def patient_offset(self, patient_id: str) -> int:
        return patient_offset_days(self._dates_key, patient_id)

    def _replacer(self, category: Category, strategy: str, note: Note) -> Callable[[str], str]:
        entity = category.value
        if strategy == "mask":
            return lambda _text: self.mask(category)
        if strategy == "hash":
            return lambda text: self._hasher(text, entity=entity)
        if category is Category.DATE:
            days = self.patient_offset(note.patient_id or "")
            style = self.date_shifter.note_dates(note.text, note.spans)
            return lambda text: self.date_shifter.shift(text, days, style)
        if category is Category.AGE:
            return lambda text: cap_age(text, self.config.age_cap, self.config.age_decade)
        if category in (Category.ID, Category.PHONE):
            return lambda text: self._ids.encrypt(text, entity=entity)
        if category in (Category.PATIENT, Category.DOCTOR):
            people = (Category.PATIENT, Category.DOCTOR)
            names = " ".join(s.text_in(note.text) for s in note.spans if s.category in people)
            if note.spellings:
                longest_first = "|".join(map(re.escape, sorted(note.spellings, key=len, reverse=True)))
                words = re.compile(rf"(?<![^\W\d_])(?:{longest_first})(?![^\W\d_])")
                spelled = lambda text: words.sub(lambda m: note.spellings[m.group()], text)  # noqa: E731
                return lambda text: self._names.replace(spelled(text), note_names=names)
            return lambda text: self._names.replace(text, note_names=names)
        if category is Category.LOCATION:
            return self._places.location
        if category is Category.HOSPITAL:
            return self._places.hospital
        if category is Category.WEB:
            return self._web.replace
        raise AnonymizationError(f"no {strategy!r} strategy for {category.value}")  # config prevents this

    def anonymize(self, note: Note) -> AnonymizedNote:
        try:
            spans = validate_spans(note.id, note.text, note.spans)
        except SpanError as exc:
            raise AnonymizationError(str(exc)) from None
        regions = _regions(spans)
        needs_offset = any(
            r.category is Category.DATE and self.strategy_for(Category.DATE) == "shift" for r in regions
        )
        if needs_offset and not (note.patient_id and note.patient_id.strip()):
            raise AnonymizationError(
                f"note {note.id!r} has dates to shift but no patient_id; "
                "date shifting needs one offset per patient"
            )

        over_age = self._birth_dates_to_mask(note.text, regions)
        pieces: list[str] = []
        replacements: list[Replacement] = []
        out_ranges: dict[int, tuple[int, int]] = {}
        cursor = 0
        out_len = 0
        for index, region in enumerate(regions):
            gap = note.text[cursor : region.start]
            pieces.append(gap)
            out_len += len(gap)
            original = note.text[region.start : region.end]
            strategy = self.strategy_for(region.category)
            masked_because = None
            try:
                if index in over_age:
                    raise BirthDateShowsAgeOver89("masked: with another date it shows an age over 89")
                surrogate = self._replacer(region.category, strategy, note)(original)
                if not isinstance(surrogate, str) or not surrogate:
                    raise ValueError("strategy returned no text")
                mixed = any(spans[i].category is not region.category for i in region.members)
                if surrogate == original and (mixed or not self._may_keep(region.category, strategy, original)):
                    raise ValueError("strategy returned the original text")
                foreign = _foreign(region, spans)
                if foreign and _keeps_foreign_text(note.text, foreign, surrogate):
                    raise ForeignTextKept(f"the {region.category.value} replacement kept text of an overlapping span")
            except Exception as exc:  # fail closed: whatever went wrong, the original never passes
                masked_because = type(exc).__name__
                surrogate = self.mask(region.category)
            pieces.append(surrogate)
            replacements.append(
                Replacement(
                    start=region.start,
                    end=region.end,
                    out_start=out_len,
                    out_end=out_len + len(surrogate),
                    category=region.category,
                    strategy="mask" if masked_because else strategy,
                    masked_because=masked_because,
                )
            )
            for i in region.members:
                out_ranges[i] = (out_len, out_len + len(surrogate))
            out_len += len(surrogate)
            cursor = region.end
        pieces.append(note.text[cursor:])

        out_spans = tuple(
            Span(out_ranges[i][0], out_ranges[i][1], s.category, s.score, s.source)
            for i, s in enumerate(spans)
            if out_ranges[i][1] > out_ranges[i][0]
        )
        release_id, patient_pseudonym = self.record_fields(note.id, note.patient_id)
        return AnonymizedNote(
            id=note.id,
            release_id=release_id,
            patient_pseudonym=patient_pseudonym,
            text="".join(pieces),
            spans=out_spans,
            key_id=self.key.key_id,
            replacements=tuple(replacements),
        )

    def _birth_dates_to_mask(self, text: str, regions: list[_Region]) -> set[int]:
        """Indices of the DATE regions that are birth dates showing an age over 89."""
        if self.strategy_for(Category.DATE) != "shift":
            return set()
        dated = [i for i, r in enumerate(regions) if r.category is Category.DATE]
        found = birth_dates_over_age(text, [(regions[i].start, regions[i].end) for i in dated], self.date_shifter)
        return {dated[j] for j in found}

    def _may_keep(self, category: Category, strategy: str, original: str) -> bool:
        """The only sanctioned identity outputs: ages of 89 or less, retained regions,
        coarse dates (a year, or a month and year) that the shift left in place, and
        the rare fixed point of a cipher over a domain of at least 10**6 values."""
        if category is Category.AGE and strategy == "cap":
            return True
        if category in (Category.ID, Category.PHONE) and strategy == "fpe":
            return self._ids.may_fix(original)
        if category is Category.DATE and strategy == "shift":
            return self.date_shifter.parse(original).granularity != "day"
        if category is Category.LOCATION and strategy == "surrogate":
            from deid_core.anonymizer.places import is_retained_region

            return is_retained_region(original)
        return False

    def anonymize_many(self, notes: Iterable[Note]) -> Iterable[AnonymizedNote]:
        for note in notes:
            yield self.anonymize(note)
