"""The one span type that every stage exchanges.

A span is a half-open character range ``[start, end)`` into the *original*
note text, typed with one of the nine scored categories or OTHER.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Iterable


class Category(str, Enum):
    AGE = "AGE"
    DATE = "DATE"
    DOCTOR = "DOCTOR"
    HOSPITAL = "HOSPITAL"
    ID = "ID"
    LOCATION = "LOCATION"
    PATIENT = "PATIENT"
    PHONE = "PHONE"
    WEB = "WEB"
    OTHER = "OTHER"

    @classmethod
    def parse(cls, label: object) -> "Category":
        """Accept a Category or its name in any case; anything else is an error."""
        if isinstance(label, Category):
            return label
        if isinstance(label, str):
            try:
                return cls[label.strip().upper()]
            except KeyError:
                pass
        known = ", ".join(c.value for c in cls)
        raise UnknownCategoryError(f"unknown category {label!r} (known: {known})")


SCORED_CATEGORIES: tuple[Category, ...] = tuple(c for c in Category if c is not Category.OTHER)

#: When spans of different categories overlap, the earlier category wins the
#: united region.  Structured categories come first: their strategies (FPE,
#: date shift) are the most exact, and a name inside an email must not turn the
#: whole address into a person's name.
PRECEDENCE: tuple[Category, ...] = (
    Category.WEB,
    Category.ID,
    Category.PHONE,
    Category.DATE,
    Category.AGE,
    Category.PATIENT,
    Category.DOCTOR,
    Category.HOSPITAL,
    Category.LOCATION,
    Category.OTHER,
)


class SpanError(ValueError):
    """A span that cannot apply to its note. The message names the note."""


class UnknownCategoryError(SpanError):
    pass


class Evidence(str, Enum):
    """Why a span was found, as later steps act on it (``source`` says which rule, for people)."""

    RULE = "rule"  # a pattern or a shape: dates, phones, IDs, addresses, facility words
    CUE = "cue"  # a word beside it says what it is: a title, credential, header, relation, signature
    GUESS = "guess"  # a list lookup and nothing else: never seeds propagation; a sure model may overrule it
    PROPAGATED = "propagated"  # another occurrence of a name found on its own evidence (chain in ``source``)
    MODEL = "model"  # a learned recognizer
    KNOWN = "known"  # the patient's known identifiers

    @classmethod
    def united(cls, spans: Iterable["Span"]) -> "Evidence":
        """Of spans united into one: a guess only if every one was a guess, else the strongest."""
        found = {s.evidence for s in spans}
        if not found or found == {cls.GUESS}:
            return cls.GUESS if found else cls.RULE
        return min(found - {cls.GUESS}, key=EVIDENCE_ORDER.index)


#: evidence classes, strongest first
EVIDENCE_ORDER = (Evidence.KNOWN, Evidence.CUE, Evidence.RULE, Evidence.PROPAGATED, Evidence.MODEL, Evidence.GUESS)


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    category: Category
    score: float = 1.0
    source: str = ""
    evidence: Evidence = Evidence.RULE

    def __post_init__(self) -> None:
        object.__setattr__(self, "category", Category.parse(self.category))
        if not isinstance(self.evidence, Evidence):
            try:
                object.__setattr__(self, "evidence", Evidence(self.evidence))
            except ValueError:
                raise SpanError(f"unknown evidence {self.evidence!r} (known: {', '.join(e.value for e in Evidence)})") from None
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (self.start, self.end)):
            raise SpanError(f"span offsets must be integers, got {self.start!r}..{self.end!r}")
        if self.start < 0 or self.start >= self.end:
            raise SpanError(f"span [{self.start}, {self.end}) needs 0 <= start < end")

    @property
    def length(self) -> int:
        return self.end - self.start

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end

    def text_in(self, text: str) -> str:
        return text[self.start : self.end]


def validate_spans(note_id: str, text: str, spans: Iterable[Span]) -> tuple[Span, ...]:
    """Return the spans as a tuple, or raise SpanError naming the note and span."""
    checked = tuple(spans)
    for i, span in enumerate(checked):
        if span.end > len(text):
            raise SpanError(
                f"note {note_id!r}: span {i} [{span.start}, {span.end}) lies outside "
                f"the text ({len(text)} characters)"
            )
    return checked


def span_from_dict(note_id: str, index: int, raw: object) -> Span:
    """Build a Span from a JSON object ``{start, end, label|category, score?, source?, evidence?}``."""
    if not isinstance(raw, dict):
        raise SpanError(f"note {note_id!r}: span {index} is not an object")
    label = raw.get("label", raw.get("category"))
    try:
        if isinstance(raw.get("score"), bool):
            raise SpanError(f"score must be a number, got {raw['score']!r}")
        return Span(
            start=raw.get("start"),
            end=raw.get("end"),
            category=label,
            score=float(raw.get("score", 1.0)),
            source=str(raw.get("source", "")),
            evidence=raw.get("evidence", Evidence.RULE),
        )
    except (SpanError, TypeError, ValueError) as exc:
        kind = type(exc) if isinstance(exc, SpanError) else SpanError
        raise kind(f"note {note_id!r}: span {index}: {exc}") from None


def span_to_dict(span: Span, *, full: bool = True) -> dict:
    out = {"start": span.start, "end": span.end, "label": span.category.value}
    if full:
        out["score"] = span.score
        out["source"] = span.source
        out["evidence"] = span.evidence.value
    return out
