"""The state store: one schema for Postgres (the fleet) and SQLite (embedded).

Messages carry ids only (claim-check), so everything a stage needs is here.
Every stage result is keyed by ``(note, stage, pipeline_version, key_id)``
(:class:`StageRun`), which makes redelivery and re-submission idempotent:
a stage that already ran for a note under the same pipeline and key is
skipped, and a racing duplicate loses on the unique constraint.

Key material is never stored: a study row holds its key id only.
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
    """One note's text, shared by every batch that submits the same record."""

    __tablename__ = "notes"
    __table_args__ = (UniqueConstraint("study_id", "external_id", "text_sha256"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    study_id: Mapped[str] = mapped_column(ForeignKey("studies.id"))
    external_id: Mapped[str] = mapped_column(String(500))
    patient_id: Mapped[str | None] = mapped_column(String(500), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    text_sha256: Mapped[str] = mapped_column(String(64))
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
    error_class: Mapped[str | None] = mapped_column(String(100), nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    flagged: Mapped[bool] = mapped_column(Boolean, default=False)
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
    """A de-identified note; spans are in output coordinates, replacements hold no original text."""

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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


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
    detail: Mapped[str] = mapped_column(String(500), default="")
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
