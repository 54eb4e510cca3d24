"""The state store: one schema for Postgres (the fleet) and SQLite (embedded).

Messages carry ids only (claim-check), so everything a stage needs is here.
Every stage result is keyed by ``(note, stage, pipeline_version, key_id)``
(:class:`StageRun`), which makes redelivery and re-submission idempotent:
a stage that already ran for a note under the same pipeline and key is
skipped, and a racing duplicate loses on the unique constraint.

Key material is never stored: a study row holds its key id only.  The
original text of a note, its patient id and the patient's known identifiers
are stored sealed (:mod:`fleet.sealing`); spans are offsets and categories only, so the
store alone reveals no detected identifier.
"""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class ItemStatus:
    PENDING = "pending"
    DONE = "done"
    FAILED = "failed"


class Study(Base):
    __tablename__ = "studies"
    id: Mapped[str] = mapped_column(String(200), primary_key=True)
    key_id: Mapped[str] = mapped_column(String(250))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Configuration(Base):
    """A pipeline configuration by content digest, kept so every run can be audited."""

    __tablename__ = "configurations"
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Batch(Base):
    __tablename__ = "batches"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    study_id: Mapped[str] = mapped_column(ForeignKey("studies.id"))
    key_id: Mapped[str] = mapped_column(String(250))
    pipeline_version: Mapped[str] = mapped_column(String(100))
    config_digest: Mapped[str] = mapped_column(ForeignKey("configurations.digest"))
    source: Mapped[str] = mapped_column(String(50))
    submitted: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class NoteRow(Base):
    """One note, sealed under the study key ``key_id``; shared by every batch under that key.

    ``text_digest`` is keyed (see :func:`fleet.sealing.text_digest`), so it
    deduplicates re-submissions without letting a dump confirm a guessed note.
    Read the text with :func:`fleet.sealing.note_plaintext`.
    """

    __tablename__ = "notes"
    __table_args__ = (UniqueConstraint("study_id", "external_id", "text_digest"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    study_id: Mapped[str] = mapped_column(ForeignKey("studies.id"))
    external_id: Mapped[str] = mapped_column(String(500))
    key_id: Mapped[str] = mapped_column(String(250))
    patient_sealed: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    text_sealed: Mapped[bytes] = mapped_column(LargeBinary)
    text_digest: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Item(Base):
    """One input record of one batch: where it is in the pipeline and why it failed.

    A malformed record is an item without a note: it is failed at submission
    with its error, so the counts still reconcile.
    """

    __tablename__ = "items"
    __table_args__ = (Index(None, "batch_id", "status"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    batch_id: Mapped[str] = mapped_column(ForeignKey("batches.id"))
    line: Mapped[int] = mapped_column(Integer)
    external_id: Mapped[str | None] = mapped_column(String(500), nullable=True)
    note_id: Mapped[int | None] = mapped_column(ForeignKey("notes.id"), nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(10), default=ItemStatus.PENDING)
    stage: Mapped[str] = mapped_column(String(40))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    #: The item's patient as an ordinal within its batch (no patient: a group of its own).  Every
    #: message carries whole groups, so name propagation sees all of a patient's notes.
    patient_group: Mapped[int | None] = mapped_column(Integer, nullable=True)
    error_class: Mapped[str | None] = mapped_column(String(100), nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    flagged: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Leak-report hits in this item's output; any hit withholds the output from export.
    leaks: Mapped[int] = mapped_column(Integer, default=0)
    #: Why the item waits for a reviewer (no original text: categories, rules, offsets).
    review_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class StageRun(Base):
    """The idempotency key: a stage ran (or failed) for a note under one pipeline and key."""

    __tablename__ = "stage_runs"
    __table_args__ = (UniqueConstraint("note_id", "stage", "pipeline_version", "key_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    note_id: Mapped[int] = mapped_column(ForeignKey("notes.id"))
    stage: Mapped[str] = mapped_column(String(40))
    pipeline_version: Mapped[str] = mapped_column(String(100))
    key_id: Mapped[str] = mapped_column(String(250))
    status: Mapped[str] = mapped_column(String(10))
    error_class: Mapped[str | None] = mapped_column(String(100), nullable=True)
    worker: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SpanRow(Base):
    """A span cached before any text changes: per recognizer, then ``resolved``."""

    __tablename__ = "spans"
    __table_args__ = (Index(None, "note_id", "recognizer", "pipeline_version"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    note_id: Mapped[int] = mapped_column(ForeignKey("notes.id"))
    recognizer: Mapped[str] = mapped_column(String(40))
    pipeline_version: Mapped[str] = mapped_column(String(100))
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    category: Mapped[str] = mapped_column(String(20))
    score: Mapped[float] = mapped_column(Float)
    source: Mapped[str] = mapped_column(String(500), default="")
    #: why the span was found (:class:`deid_core.spans.Evidence`); the resolve stage acts on it
    evidence: Mapped[str] = mapped_column(String(12), default="rule")


class VerifierScore(Base):
    __tablename__ = "verifier_scores"
    __table_args__ = (UniqueConstraint("note_id", "pipeline_version", "key_id", "verifier"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    note_id: Mapped[int] = mapped_column(ForeignKey("notes.id"))
    pipeline_version: Mapped[str] = mapped_column(String(100))
    key_id: Mapped[str] = mapped_column(String(250))
    verifier: Mapped[str] = mapped_column(String(100))
    score: Mapped[float] = mapped_column(Float)
    flagged: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Output(Base):
    """A de-identified note; spans are in output coordinates, replacements hold no original text.

    When the leak report found original text in the output, ``text`` is
    empty (the leaky output is never stored) and ``leaks_json`` says where
    and why, again without any original text.
    """

    __tablename__ = "outputs"
    __table_args__ = (UniqueConstraint("note_id", "key_id", "pipeline_version"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    note_id: Mapped[int] = mapped_column(ForeignKey("notes.id"))
    key_id: Mapped[str] = mapped_column(String(250))
    pipeline_version: Mapped[str] = mapped_column(String(100))
    text: Mapped[str] = mapped_column(Text)
    spans_json: Mapped[str] = mapped_column(Text)
    replacements_json: Mapped[str] = mapped_column(Text)
    masked_count: Mapped[int] = mapped_column(Integer, default=0)
    leaks: Mapped[int] = mapped_column(Integer, default=0)
    leaks_json: Mapped[str] = mapped_column(Text, default="[]")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class KnownRow(Base):
    """One patient's known identifiers for one batch, sealed like note text (:func:`fleet.sealing.seal_known`).

    Found by a keyed digest of the patient id; deleted with its batch.
    """

    __tablename__ = "known_identifiers"
    __table_args__ = (UniqueConstraint("batch_id", "patient_digest"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    batch_id: Mapped[str] = mapped_column(ForeignKey("batches.id", ondelete="CASCADE"))
    patient_digest: Mapped[str] = mapped_column(String(64))
    sealed: Mapped[bytes] = mapped_column(LargeBinary)


class AuditEntry(Base):
    """What ran, where, under which configuration and key id: one row per stage execution."""

    __tablename__ = "audit"
    __table_args__ = (Index(None, "batch_id", "stage"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    batch_id: Mapped[str] = mapped_column(ForeignKey("batches.id"))
    stage: Mapped[str] = mapped_column(String(40))
    component: Mapped[str] = mapped_column(String(200), default="")
    worker: Mapped[str] = mapped_column(String(200), default="")
    pipeline_version: Mapped[str] = mapped_column(String(100))
    key_id: Mapped[str] = mapped_column(String(250))
    config_digest: Mapped[str] = mapped_column(String(64))
    notes: Mapped[int] = mapped_column(Integer, default=0)
    done: Mapped[int] = mapped_column(Integer, default=0)
    failed: Mapped[int] = mapped_column(Integer, default=0)
    skipped: Mapped[int] = mapped_column(Integer, default=0)
    leaks: Mapped[int] = mapped_column(Integer, default=0)
    #: Content digest of the model directory a model recognizer loaded ("" for rules).
    model_digest: Mapped[str] = mapped_column(String(64), default="")
    detail: Mapped[str] = mapped_column(String(500), default="")
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


# --- intake API and review ---


class ReviewStatus:
    OPEN = "open"
    CLOSED = "closed"


class ReviewAction:
    ADD = "add"
    REMOVE = "remove"
    ACCEPT = "accept"


class Tenant(Base):
    """An organisation that submits over HTTP; it sees only the studies granted to it."""

    __tablename__ = "tenants"
    id: Mapped[str] = mapped_column(String(100), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ApiToken(Base):
    """A tenant's bearer token, kept as its SHA-256 only: a dump of the store cannot authenticate."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"), index=True)
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class TenantStudy(Base):
    """A study granted to a tenant; the study is the key, so no study is ever shared by two tenants."""

    __tablename__ = "tenant_studies"
    study_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenants.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ReviewState(Base):
    """Where the review of one output ``(note, key id, pipeline version)`` stands."""

    __tablename__ = "review_states"
    __table_args__ = (UniqueConstraint("note_id", "key_id", "pipeline_version"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    note_id: Mapped[int] = mapped_column(ForeignKey("notes.id"))
    key_id: Mapped[str] = mapped_column(String(250))
    pipeline_version: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(10), default=ReviewStatus.OPEN)
    revision: Mapped[int] = mapped_column(Integer, default=0)
    reviewer: Mapped[str] = mapped_column(String(200), default="")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class ReviewSpan(Base):
    """One reviewer action on a span of an output: offsets and category, never the text they cover."""

    __tablename__ = "review_spans"
    __table_args__ = (Index(None, "note_id", "key_id", "pipeline_version"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    note_id: Mapped[int] = mapped_column(ForeignKey("notes.id"))
    key_id: Mapped[str] = mapped_column(String(250))
    pipeline_version: Mapped[str] = mapped_column(String(100))
    action: Mapped[str] = mapped_column(String(10))
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    category: Mapped[str] = mapped_column(String(20))
    reviewer: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
