"""The documents the evaluation harness compares.

Readers first produce :class:`SourceDocument` objects whose spans keep the
label exactly as the file wrote it (``CITY``, ``MEDICALRECORD``, ``DOCTOR``):
the crosswalk needs the original label and the text to decide what a span
becomes.  After the crosswalk every span is a :class:`~deid_core.spans.Span`
in one of our categories, held by an :class:`EvalDocument`.
"""

from __future__ import annotations

from dataclasses import dataclass

from deid_core.spans import Span


class EvalInputError(ValueError):
    """Input the harness cannot score; the message names the file, line or record."""


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """A span with its label as written in the source file (not yet crosswalked)."""

    start: int
    end: int
    label: str
    score: float = 1.0
    source: str = ""


@dataclass(frozen=True, slots=True)
class SourceDocument:
    id: str
    text: str | None
    spans: tuple[SourceSpan, ...]
    origin: str = ""  # "file" or "file:line", for error messages


@dataclass(frozen=True, slots=True)
class EvalDocument:
    """One scored document: gold or predicted spans over one note.

    ``text`` is ``None`` for prediction files that carry only offsets (the
    ``deid detect`` output); such documents take their text from the gold.
    """

    id: str
    text: str | None
    spans: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class PredictionIssue:
    """A prediction record that could not be scored as written (reported, not fatal)."""

    record_id: str | None
    where: str
    message: str

    def __str__(self) -> str:
        who = f"record {self.record_id!r}" if self.record_id is not None else "record without id"
        return f"{self.where}: {who}: {self.message}"
