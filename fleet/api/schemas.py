"""Request and response bodies of the HTTP API; the OpenAPI spec is generated from these."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from deid_core.known import MAX_VALUE_CHARS, MAX_VALUES
from deid_core.records import USABLE_STRING, unusable_character
from deid_core.spans import Category

STUDY_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$"
CategoryName = Literal[tuple(c.value for c in Category)]  # type: ignore[valid-type]
NoteState = Literal["pending", "done", "failed", "in_review"]
ReviewState = Literal["none", "open", "closed"]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


_KnownValues = list[Annotated[str, Field(max_length=MAX_VALUE_CHARS)]]


class KnownIn(_Body):
    """A patient's known identifiers (docs/known.md); every field optional.

    Values are only ever searched for, never written out, so any string is
    accepted (one no note can hold simply matches nothing).
    """

    patient_id: str | None = Field(
        default=None, max_length=500, description="Whose record this is; on a note, the note's patient id is the default."
    )
    names: _KnownValues = Field(default_factory=list, max_length=MAX_VALUES)
    relatives: _KnownValues = Field(default_factory=list, max_length=MAX_VALUES)
    staff: _KnownValues = Field(default_factory=list, max_length=MAX_VALUES)
    ids: _KnownValues = Field(default_factory=list, max_length=MAX_VALUES)
    dates: _KnownValues = Field(default_factory=list, max_length=MAX_VALUES)
    phones: _KnownValues = Field(default_factory=list, max_length=MAX_VALUES)
    emails: _KnownValues = Field(default_factory=list, max_length=MAX_VALUES)
    addresses: _KnownValues = Field(default_factory=list, max_length=MAX_VALUES)


#: Documents what the validator below enforces: no lone surrogate, NUL or non-character.
_USABLE = {"pattern": USABLE_STRING}


class NoteIn(_Body):
    id: str = Field(
        min_length=1, max_length=500, description="The caller's id of the note, unique in the request.", json_schema_extra=_USABLE
    )
    patient_id: str | None = Field(
        default=None, max_length=500, description="Needed when the note has dates to shift.", json_schema_extra=_USABLE
    )
    text: str = Field(min_length=1, description="The original note text.", json_schema_extra=_USABLE)
    known: KnownIn | None = Field(default=None, description="The known identifiers of this note's patient (needs patient_id).")

    @field_validator("id", "patient_id", "text", mode="before")
    @classmethod
    def _storable(cls, value: object, info) -> object:
        """Lone surrogates, NUL and non-characters cannot be stored or written out: refuse them, saying which."""
        problem = unusable_character(value, info.field_name) if isinstance(value, str) else None
        if problem:
            raise ValueError(problem)
        return value



class SubmitRequest(_Body):
    study: str = Field(pattern=STUDY_PATTERN, description="A study granted to the caller's tenant.")
    notes: list[NoteIn] = Field(min_length=1, description="One or many notes.")
    known: list[KnownIn] | None = Field(default=None, description="Known identifiers per patient of the batch (each with patient_id).")


class SubmittedNote(BaseModel):
    id: str
    note: int = Field(description="The id to use with GET /v1/notes/{note}.")


class SubmitResponse(BaseModel):
    batch: str
    study: str
    submitted: int
    notes: list[SubmittedNote]


class RecordProblem(BaseModel):
    record: int | None = Field(default=None, description="0-based index of the note in the request, if the problem is in one.")
    id: str | None = Field(default=None, description="That note's id, when it has one.")
    field: str
    message: str


class ErrorOut(BaseModel):
    detail: str
    errors: list[RecordProblem] = Field(default_factory=list)


class BatchOut(BaseModel):
    batch: str
    study: str
    key_id: str = Field(description="One-way id of the study key; never the key.")
    pipeline_version: str
    submitted: int
    pending: int
    done: int
    failed: int
    flagged: int
    in_review: int = Field(description="Flagged notes whose review is not closed; their text is withheld.")
    leaked: int = Field(description="Notes the leak report withheld.")
    pending_by_stage: dict[str, int]
    complete: bool


class SpanOut(BaseModel):
    start: int
    end: int
    label: str


class NoteOut(BaseModel):
    note: int
    batch: str
    id: str | None
    study: str
    state: NoteState
    stage: str
    flagged: bool
    review: ReviewState
    verifier_score: float | None
    text: str | None = Field(description="The de-identified text, once the note is done and released.")
    spans: list[SpanOut] | None = Field(description="Replaced regions in output coordinates.")
    error_class: str | None
    error: str | None


class QueueEntryOut(BaseModel):
    note: int
    batch: str
    id: str | None
    study: str
    reason: str
    leaks: int
    verifier_score: float | None
    review: ReviewState


class QueueOut(BaseModel):
    notes: list[QueueEntryOut]


class ReviewedSpanOut(BaseModel):
    start: int
    end: int
    category: str
    state: Literal["detected", "added", "accepted"]
    source: str


class ReviewActionOut(BaseModel):
    action: str
    start: int
    end: int
    category: str
    reviewer: str


class ReviewNoteOut(BaseModel):
    note: int
    batch: str
    id: str | None
    study: str
    reason: str
    original: str
    spans: list[ReviewedSpanOut]
    output: str | None = Field(description="Null while the leak report withholds the output.")
    output_spans: list[SpanOut]
    leaks: int
    leak_report: list[dict]
    review: ReviewState
    revision: int
    actions: list[ReviewActionOut]
    leaked: list[dict] = Field(default_factory=list, description="The leak report's hits in the original's offsets.")


class ReviewActionIn(_Body):
    action: Literal["add", "remove", "accept"]
    start: int = Field(ge=0, le=10_000_000)
    end: int = Field(ge=1, le=10_000_000)
    category: CategoryName | None = Field(default=None, description="Required for add.")
