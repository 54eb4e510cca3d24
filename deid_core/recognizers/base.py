"""The recognizer slot: one interface that every detector fills.

The shape follows Presidio's ``analyze(text, entities)`` so that a Presidio
recognizer, a token classifier or a rule set can be exchanged without the
pipeline noticing.  Foreign label sets enter through an explicit
:class:`LabelMap`; a label nobody mapped is an error, never a silent drop,
because a dropped label is an identifier left in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol, runtime_checkable

from deid_core.detection import RecognizerError  # noqa: F401 - defined with the detection slot, named here too
from deid_core.spans import Category, Span


class LabelMapError(ValueError):
    """A foreign label has no mapping into our categories."""


@dataclass(frozen=True)
class NoteContext:
    """What a recognizer may know about a note beyond its text.

    ``known_names`` holds surface forms already detected as PATIENT or DOCTOR
    in the same patient's other notes, so a name caught once is caught in
    every note of that patient.
    """

    note_id: str | None = None
    patient_id: str | None = None
    known_names: Mapping[str, Category] = field(default_factory=dict)


@runtime_checkable
class Recognizer(Protocol):
    """Anything that turns a note into spans of our categories."""

    name: str
    version: str
    categories: frozenset[Category]
    label_map: Mapping[str, Category]

    def analyze(
        self,
        text: str,
        entities: Sequence[Category] | None = None,
        context: NoteContext | None = None,
    ) -> list[Span]: ...


def wanted_categories(entities: Iterable[Category | str] | None) -> frozenset[Category] | None:
    """Normalise an ``entities`` argument; None means every category."""
    if entities is None:
        return None
    return frozenset(Category.parse(e) for e in entities)


class RuleRecognizer:
    """Base for our own recognizers: subclasses implement :meth:`find`.

    ``analyze`` restricts the output to the requested categories, so a
    subclass never has to look at ``entities``.
    """

    name: ClassVar[str] = "rules"
    version: ClassVar[str] = "1"
    categories: ClassVar[frozenset[Category]] = frozenset()

    @property
    def label_map(self) -> Mapping[str, Category]:
        return {c.value: c for c in self.categories}

    def find(self, text: str, context: NoteContext | None) -> Iterable[Span]:
        raise NotImplementedError

    def analyze(
        self,
        text: str,
        entities: Sequence[Category] | None = None,
        context: NoteContext | None = None,
    ) -> list[Span]:
        want = wanted_categories(entities)
        if want is not None and not (want & self.categories):
            return []
        spans = self.find(text, context)
        if want is None:
            return list(spans)
        return [s for s in spans if s.category in want]


_BIO_PREFIX = re.compile(r"^(?:[BIESLU])[-_](?=.)")


def _normalise_label(label: str) -> str:
    return label.strip().upper().replace(" ", "_")


class LabelMap(Mapping[str, Category]):
    """Maps foreign labels (Presidio's PERSON, ``B-PATIENT``, ``name``...) to categories.

    Lookup ignores case and, with ``strip_bio``, a B-/I-/E-/S-/L-/U- tagging
    prefix.  ``O`` (outside) is never an entity.  Any other unmapped label
    raises :class:`LabelMapError`: to discard a label on purpose, map it to
    ``OTHER`` explicitly.
    """

    def __init__(self, mapping: Mapping[str, Category | str], *, strip_bio: bool = True) -> None:
        self._map: dict[str, Category] = {}
        for label, category in mapping.items():
            if not isinstance(label, str) or not label.strip():
                raise LabelMapError(f"label map keys must be non-empty strings, got {label!r}")
            self._map[_normalise_label(label)] = Category.parse(category)
        self.strip_bio = strip_bio

    # Mapping protocol -------------------------------------------------
    def __getitem__(self, label: str) -> Category:
        return self.map(label)

    def __iter__(self) -> Iterator[str]:
        return iter(self._map)

    def __len__(self) -> int:
        return len(self._map)

    def __contains__(self, label: object) -> bool:
        return isinstance(label, str) and self._key(label) in self._map

    def __repr__(self) -> str:
        return f"LabelMap({ {k: v.value for k, v in self._map.items()} !r})"

    # Lookup -----------------------------------------------------------
    def _key(self, label: str) -> str:
        key = _normalise_label(label)
        if key in self._map:
            return key
        if self.strip_bio:
            bare = _BIO_PREFIX.sub("", key)
            if bare in self._map:
                return bare
        return key

    @staticmethod
    def is_outside(label: str) -> bool:
        return _normalise_label(label) == "O"

    def map(self, label: str) -> Category:
        if not isinstance(label, str):
            raise LabelMapError(f"labels must be strings, got {label!r}")
        if self.is_outside(label):
            raise LabelMapError("label 'O' marks text outside any entity; it has no category")
        key = self._key(label)
        try:
            return self._map[key]
        except KeyError:
            known = ", ".join(sorted(self._map)) or "(none)"
            raise LabelMapError(
                f"no category for label {label!r}; map it explicitly (to OTHER to discard it). Known: {known}"
            ) from None

    __call__ = map

    def foreign_labels_for(self, categories: Iterable[Category]) -> list[str]:
        """The foreign labels that map into ``categories`` (to ask a backend only for those)."""
        cats = set(categories)
        return [label for label, cat in self._map.items() if cat in cats]

    # Construction -----------------------------------------------------
    def with_labels(self, extra: Mapping[str, Category | str]) -> "LabelMap":
        merged: dict[str, Category | str] = dict(self._map)
        merged.update({_normalise_label(k): v for k, v in extra.items()})
        return LabelMap(merged, strip_bio=self.strip_bio)

    @classmethod
    def identity(cls) -> "LabelMap":
        return cls({c.value: c for c in Category})

    @classmethod
    def presidio(cls, person: Category = Category.PATIENT) -> "LabelMap":
        """Presidio's predefined entity names.

        Presidio does not tell patients from clinicians, so ``person`` picks the
        category its PERSON spans get (both categories get name surrogates).
        """
        return cls(
            {
                "PERSON": person,
                "DATE_TIME": Category.DATE,
                "PHONE_NUMBER": Category.PHONE,
                "EMAIL_ADDRESS": Category.WEB,
                "URL": Category.WEB,
                "IP_ADDRESS": Category.WEB,
                "LOCATION": Category.LOCATION,
                "US_SSN": Category.ID,
                "US_ITIN": Category.ID,
                "US_PASSPORT": Category.ID,
                "US_DRIVER_LICENSE": Category.ID,
                "US_BANK_NUMBER": Category.ID,
                "MEDICAL_LICENSE": Category.ID,
                "CREDIT_CARD": Category.ID,
                "IBAN_CODE": Category.ID,
                "CRYPTO": Category.ID,
                "UK_NHS": Category.ID,
                "ORGANIZATION": Category.HOSPITAL,
            }
        )

    @classmethod
    def i2b2(cls) -> "LabelMap":
        """The i2b2 2014 tag set, as token classifiers trained on it emit it."""
        return cls(
            {
                "PATIENT": Category.PATIENT,
                "DOCTOR": Category.DOCTOR,
                "USERNAME": Category.ID,
                "HOSPITAL": Category.HOSPITAL,
                "ORGANIZATION": Category.OTHER,
                "AGE": Category.AGE,
                "DATE": Category.DATE,
                "CITY": Category.LOCATION,
                "STATE": Category.LOCATION,
                "STREET": Category.LOCATION,
                "ZIP": Category.LOCATION,
                "COUNTRY": Category.LOCATION,
                "LOCATION-OTHER": Category.LOCATION,
                "LOCATION_OTHER": Category.LOCATION,
                "PHONE": Category.PHONE,
                "FAX": Category.PHONE,
                "EMAIL": Category.WEB,
                "URL": Category.WEB,
                "MEDICALRECORD": Category.ID,
                "IDNUM": Category.ID,
                "DEVICE": Category.ID,
                "HEALTHPLAN": Category.ID,
                "BIOID": Category.ID,
            }
        )

    @classmethod
    def generative(cls, name: Category = Category.PATIENT) -> "LabelMap":
        """The generative recognizer's schema (name, age, date, place, ...)."""
        return cls(
            {
                "NAME": name,
                "AGE": Category.AGE,
                "DATE": Category.DATE,
                "PLACE": Category.LOCATION,
                "ADDRESS": Category.LOCATION,
                "PHONE": Category.PHONE,
                "EMAIL": Category.WEB,
                "URL": Category.WEB,
                "ID": Category.ID,
                "DEVICE": Category.ID,
            }
        )


def resolve_label_map(value: "LabelMap | Mapping[str, Category | str] | None", default: LabelMap) -> LabelMap:
    if value is None:
        return default
    if isinstance(value, LabelMap):
        return value
    return LabelMap(value)
