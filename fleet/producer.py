"""The producer side: submit notes, follow a batch, export its results.

:class:`FleetClient` is the Python API behind ``deid submit``, ``deid
status`` and ``deid export``.  Submission writes note rows and items to the
store and hands only ``(batch id, item ids)`` to a :class:`Dispatcher`
(the claim-check); the Celery dispatcher puts those on the broker, the
inline one runs the stages in this process.  A malformed record becomes a
failed item with its error, so ``submitted == done + failed`` once a batch
is complete, and every failed note says why.

Notes, and the patients' known identifiers when given (one sealed row per
patient of the batch, never in a message), are sealed here, before they
reach the store (:mod:`fleet.sealing`),
so the producer needs the study key; a batch runs under the key store's
current key for its study, and after a rotation new batches get the new key.
Items the leak report withheld are counted (``leaked``) and never exported.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from deid_core.records import KeepPrevious, Record, RecordError, atomic_writer, dump, optional_str, read_jsonl, too_long, unusable_character
from deid_core.anonymizer.engine import Anonymizer
from deid_core.keys import StudyKey
from deid_core.known import KnownFile, KnownPatient
from fleet.keystore import KeyStore, check_study_name, load_checked
from fleet.models import Batch, Configuration, Item, ItemStatus, KnownRow, NoteRow, Output, SpanRow, StageRun, Study
from fleet.pipeline import RESOLVED, STAGE_RESOLVE, STAGE_SUBMIT, PipelineConfig
from fleet.sealing import note_patient_id, seal_known, seal_note_text, seal_patient_id, text_digest
from deid_core.detection import estimate_tokens
from fleet.counts import batch_counts
from fleet.grouping import item_chunks, token_chunks
from fleet.settings import DEFAULT_CHUNK_SIZE


class Dispatcher(Protocol):
    def send(self, stage: str, batch_id: str, item_ids: list[int]) -> None: ...


class SubmitError(ValueError):
    pass


@dataclass(frozen=True)
class SubmitResult:
    batch_id: str
    submitted: int
    rejected: int
    messages: int


@dataclass(frozen=True)
class Failure:
    line: int
    record_id: str | None
    error_class: str
    error: str


@dataclass(frozen=True)
class BatchStatus:
    batch_id: str
    study: str
    key_id: str
    pipeline_version: str
    submitted: int
    pending: int
    done: int
    failed: int
    flagged: int
    pending_by_stage: dict[str, int] = field(default_factory=dict)
    leaked: int = 0  # done, but withheld from export by the leak report

    @property
    def complete(self) -> bool:
        return self.pending == 0

    @property
    def reconciles(self) -> bool:
        return self.submitted == self.pending + self.done + self.failed

    def to_dict(self) -> dict:
        return {
            "batch": self.batch_id,
            "study": self.study,
            "key_id": self.key_id,
            "pipeline_version": self.pipeline_version,
            "submitted": self.submitted,
            "pending": self.pending,
            "done": self.done,
            "failed": self.failed,
            "flagged": self.flagged,
            "leaked": self.leaked,
            "pending_by_stage": self.pending_by_stage,
            "complete": self.complete,
        }


@dataclass(frozen=True)
class ExportResult:
    written: int
    failed: int
    pending: int


@dataclass(frozen=True)
class IncomingNote:
    """A record from any source, already checked, or the reason it was rejected."""

    line: int
    record_id: str | None
    text: str | None = None
    patient_id: str | None = None
    error_class: str | None = None
    error: str | None = None


KNOWN_INVALID = "KnownRecordInvalid"


def _with_known_check(rec: IncomingNote, known: KnownFile | None) -> IncomingNote:
    if known is None or rec.error_class is not None or rec.patient_id not in known.failed_patients:
        return rec
    error = "its patient's known-identifier record is invalid; the note is not detected without it"
    return IncomingNote(rec.line, rec.record_id, error_class=KNOWN_INVALID, error=error)


def _known_records(known: KnownFile | None, incoming: Sequence[IncomingNote]) -> list[KnownPatient]:
    """The records of the batch's patients only: a batch keeps nothing about patients it does not hold."""
    if known is None:
        return []
    patients = {r.patient_id for r in incoming if r.error_class is None}
    return [r for p, r in sorted(known.known.patients.items()) if p in patients and not r.empty]


def _known_version(key: StudyKey, study: str, records: Sequence[KnownPatient]) -> str:
    """A pipeline-version suffix that changes with the known identifiers (keyed: it confirms no guess).

    Stage results are cached per pipeline version, so a note detected
    without known identifiers is detected again when they are given.
    """
    if not records:
        return ""
    body = json.dumps([r.to_dict() for r in records], sort_keys=True, ensure_ascii=False)
    return "+known." + text_digest(key, study, body)[:12]


def incoming_from_records(items: Iterable[Record | RecordError]) -> Iterable[IncomingNote]:
    for item in items:
        if isinstance(item, RecordError):
            yield IncomingNote(item.line, item.record_id, error_class="MalformedRecord", error=item.message)
            continue
        try:
            patient = optional_str(item, "patient_id")
        except ValueError as exc:
            yield IncomingNote(item.line, item.id, error_class="MalformedRecord", error=str(exc))
            continue
        yield IncomingNote(item.line, item.id, item.data["text"], patient)


def storable(note: IncomingNote) -> IncomingNote:
    """``note``, or its rejection when its id, patient id or text holds a character no store can carry.

    Caught here, such a note fails alone with a message naming the field,
    instead of failing its whole chunk on the database's refusal.  The
    rejected id is kept with those characters replaced, so the failure
    still names its record.
    """
    if note.error_class is not None:
        return IncomingNote(note.line, _printable(note.record_id), error_class=note.error_class, error=note.error)
    for name, value in (("id", note.record_id), ("patient_id", note.patient_id), ("text", note.text)):
        problem = unusable_character(value, name) if value is not None else None
        if problem:
            return IncomingNote(note.line, _printable(note.record_id), error_class="MalformedRecord", error=problem)
    return note


def within_limit(note: IncomingNote, max_note_chars: int) -> IncomingNote:
    """``note``, or its rejection when its text is over ``limits.max_note_chars``, from whichever source."""
    problem = too_long(note.text, max_note_chars) if note.error_class is None and note.text is not None else None
    return note if problem is None else IncomingNote(note.line, note.record_id, error_class="NoteTooLong", error=problem)


def _printable(value: str | None) -> str | None:
    if value is None or unusable_character(value) is None:
        return value
    return "".join("\ufffd" if unusable_character(c) else c for c in value)


def resume_hint(batch_id: str) -> str:
    """What every message about pending items says: they come back by themselves, or now on request."""
    return (
        "running workers re-send pending items once they have been idle longer than the task time limit, "
        f"or re-send them now with `deid submit --resume {batch_id}`"
    )


class FleetClient:
    def __init__(
        self,
        sessions: sessionmaker[Session],
        keystore: KeyStore,
        dispatcher: Dispatcher | None = None,
        *,
        chunk_size: int = DEFAULT_CHUNK_SIZE,
        gpu_token_budget: int = 16384,
    ) -> None:
        self.sessions = sessions
        self.keystore = keystore
        self.dispatcher = dispatcher
        self.chunk_size = chunk_size
        self.gpu_token_budget = gpu_token_budget

    # -- submission ------------------------------------------------------
    def submit_jsonl(
        self,
        path: Path | str,
        study: str,
        config: PipelineConfig,
        on_stored: Callable[[str], None] | None = None,
        known: KnownFile | None = None,
    ) -> SubmitResult:
        path = Path(path)
        if not path.exists():
            raise SubmitError(f"input file {path} does not exist")
        return self.submit(incoming_from_records(read_jsonl(path)), study, config, source="jsonl", on_stored=on_stored, known=known)

    def submit(
        self,
        notes: Iterable[IncomingNote],
        study: str,
        config: PipelineConfig,
        source: str = "api",
        on_stored: Callable[[str], None] | None = None,
        known: KnownFile | None = None,
    ) -> SubmitResult:
        """Store the batch, call ``on_stored(batch_id)``, then send its messages.

        The batch id is known before anything is sent, so a caller can name
        the batch even when the broker refuses it; the items stay pending in
        the store, where the sweeper (or ``resume``) finds them.  ``known``
        holds the patients' known identifiers, sealed with the batch; a note
        whose patient's record was invalid fails here rather than be
        detected without the floor the record gives.
        """
        check_study_name(study)
        first_stage = config.stages[0]
        limit = config.settings.limits.max_note_chars
        incoming = [_with_known_check(within_limit(storable(n), limit), known) for n in notes]
        with self.sessions.begin() as s:
            key = self._study_key(s, study)
            key_id = key.key_id
            if s.get(Configuration, config.digest) is None:
                s.add(Configuration(digest=config.digest, body=config.body))
                s.flush()
            records = _known_records(known, incoming)
            batch = Batch(
                id=uuid.uuid4().hex,
                study_id=study,
                key_id=key_id,
                pipeline_version=config.version + _known_version(key, study, records),
                config_digest=config.digest,
                source=source[:50],
            )
            s.add(batch)
            s.flush()
            for record in records:
                digest, sealed = seal_known(key, study, batch.id, record)
                s.add(KnownRow(batch_id=batch.id, patient_digest=digest, sealed=sealed))
            existing = self._existing_notes(s, study, incoming)
            seen: dict[str, int] = {}
            patients: dict[str, int] = {}
            pending: list[tuple[Item, int]] = []
            rejected = 0
            for rec in incoming:
                item = Item(batch_id=batch.id, line=rec.line, external_id=rec.record_id, stage=first_stage)
                if rec.error_class is None and rec.record_id in seen:
                    rec = IncomingNote(rec.line, rec.record_id, error_class="DuplicateRecord", error=f"duplicate id: lines {seen[rec.record_id]} and {rec.line} share it")
                if rec.error_class is not None:
                    item.stage, item.status = STAGE_SUBMIT, ItemStatus.FAILED
                    item.error_class, item.error = rec.error_class, rec.error
                    s.add(item)
                    rejected += 1
                    continue
                seen[rec.record_id] = rec.line
                sealed = seal_note_text(key, study, rec.text)
                note = existing.get((rec.record_id, sealed.digest))
                if note is None:
                    note = NoteRow(
                        study_id=study,
                        external_id=rec.record_id,
                        key_id=key_id,
                        patient_sealed=seal_patient_id(key, study, sealed.digest, rec.patient_id),
                        text_sealed=sealed.sealed,
                        text_digest=sealed.digest,
                    )
                    s.add(note)
                    s.flush()
                    existing[(rec.record_id, sealed.digest)] = note
                item.note_id = note.id
                item.patient_group = None if rec.patient_id is None else patients.setdefault(rec.patient_id, len(patients))
                s.add(item)
                pending.append((item, estimate_tokens(rec.text)))
            batch.submitted = len(incoming)
            s.flush()
            chunks = self._chunks(
                [i.id for i, _ in pending], [i.patient_group for i, _ in pending], [t for _, t in pending], config.uses_gpu
            )
            batch_id = batch.id
        if on_stored is not None:
            on_stored(batch_id)
        for sent, chunk in enumerate(chunks):
            try:
                self._send(first_stage, batch_id, chunk)
            except SubmitError:
                raise
            except Exception as exc:  # the broker: the batch is safe in the store
                raise SubmitError(
                    f"batch {batch_id} is stored, but {len(chunks) - sent} of {len(chunks)} messages were not sent "
                    f"({type(exc).__name__}); {resume_hint(batch_id)}"
                ) from None
        return SubmitResult(batch_id, len(incoming), rejected, len(chunks))

    def _study_key(self, s: Session, study: str) -> StudyKey:
        """The key store's current key; the study row follows it after a rotation."""
        key = self.keystore.load(study)
        row = s.get(Study, study)
        if row is None:
            s.add(Study(id=study, key_id=key.key_id))
        elif row.key_id != key.key_id:
            row.key_id = key.key_id
        s.flush()
        return key

    @staticmethod
    def _existing_notes(s: Session, study: str, incoming: Sequence[IncomingNote]) -> dict[tuple[str, str], NoteRow]:
        ids = sorted({r.record_id for r in incoming if r.error_class is None})
        out: dict[tuple[str, str], NoteRow] = {}
        for start in range(0, len(ids), 500):
            rows = s.scalars(select(NoteRow).where(NoteRow.study_id == study, NoteRow.external_id.in_(ids[start : start + 500])))
            for n in rows:
                out[(n.external_id, n.text_digest)] = n
        return out

    def _chunks(self, ids: list[int], groups: list[int | None], tokens: list[int], gpu: bool) -> list[list[int]]:
        """Chunks of whole patients; with a GPU recognizer, also within the token budget."""
        if gpu:
            return token_chunks(ids, groups, tokens, self.chunk_size, self.gpu_token_budget)
        return item_chunks(ids, groups, self.chunk_size)

    def _send(self, stage: str, batch_id: str, ids: list[int]) -> None:
        if self.dispatcher is None:
            raise SubmitError("this client has no dispatcher; it can only read batches")
        self.dispatcher.send(stage, batch_id, ids)

    def resume(self, batch_id: str) -> int:
        """Re-send every pending item at its current stage (after a lost message or a producer crash)."""
        with self.sessions() as s:
            self._batch(s, batch_id)
            rows = s.execute(
                select(Item.stage, Item.id, Item.patient_group)
                .where(Item.batch_id == batch_id, Item.status == ItemStatus.PENDING)
                .order_by(Item.id)
            ).all()
        by_stage: dict[str, list[tuple[int, int | None]]] = {}
        for stage, item_id, group in rows:
            by_stage.setdefault(stage, []).append((item_id, group))
        sent = 0
        for stage, items in by_stage.items():
            for chunk in item_chunks([i for i, _ in items], [g for _, g in items], self.chunk_size):
                self._send(stage, batch_id, chunk)
                sent += 1
        return sent

    # -- reading ---------------------------------------------------------
    @staticmethod
    def _batch(s: Session, batch_id: str) -> Batch:
        batch = s.get(Batch, batch_id)
        if batch is None:
            raise SubmitError(f"no batch {batch_id!r}")
        return batch

    def status(self, batch_id: str) -> BatchStatus:
        with self.sessions() as s:
            batch = self._batch(s, batch_id)
            counts = batch_counts(s, batch_id)
            by_stage = dict(
                s.execute(
                    select(Item.stage, func.count())
                    .where(Item.batch_id == batch_id, Item.status == ItemStatus.PENDING)
                    .group_by(Item.stage)
                ).all()
            )
            return BatchStatus(
                batch_id=batch.id,
                study=batch.study_id,
                key_id=batch.key_id,
                pipeline_version=batch.pipeline_version,
                submitted=batch.submitted,
                pending=counts.pending,
                done=counts.done,
                failed=counts.failed,
                flagged=counts.flagged,
                pending_by_stage=by_stage,
                leaked=counts.leaked,
            )

    def wait(self, batch_id: str, timeout: float | None = None, poll: float = 0.5) -> BatchStatus:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            st = self.status(batch_id)
            if st.complete or (deadline is not None and time.monotonic() >= deadline):
                return st
            time.sleep(poll)

    def failures(self, batch_id: str) -> list[Failure]:
        with self.sessions() as s:
            self._batch(s, batch_id)
            rows = s.execute(
                select(Item.line, Item.external_id, Item.error_class, Item.error)
                .where(Item.batch_id == batch_id, Item.status == ItemStatus.FAILED)
                .order_by(Item.line)
            ).all()
        return [Failure(line, rid, ec or "", err or "") for line, rid, ec, err in rows]

    def results(self, batch_id: str) -> Iterable[dict]:
        """De-identified records of the batch's done items, in input order; leak-withheld items left out.

        ``patient_id`` (and ``id`` when the batch's configuration asks) is the
        keyed pseudonym of ``deid anonymize``, under the batch's key.
        """
        with self.sessions() as s:
            batch = self._batch(s, batch_id)
            keys: dict[str, StudyKey] = {}
            config = PipelineConfig.from_body(s.get(Configuration, batch.config_digest).body)
            releasing = Anonymizer(load_checked(self.keystore, batch.study_id, batch.key_id), config.settings.anonymizer)
            rows = s.execute(
                select(Item.external_id, Item.flagged, NoteRow, Output.text, Output.spans_json)
                .join(NoteRow, NoteRow.id == Item.note_id)
                .join(
                    Output,
                    (Output.note_id == Item.note_id)
                    & (Output.key_id == batch.key_id)
                    & (Output.pipeline_version == batch.pipeline_version),
                )
                .where(Item.batch_id == batch_id, Item.status == ItemStatus.DONE, Item.leaks == 0, Output.leaks == 0)
                .order_by(Item.line)
            )
            for rid, flagged, note, text, spans_json in rows:
                if note.key_id not in keys:
                    keys[note.key_id] = load_checked(self.keystore, batch.study_id, note.key_id)
                release_id, patient = releasing.record_fields(rid, note_patient_id(note, keys[note.key_id]))
                yield {
                    "id": release_id,
                    "patient_id": patient,
                    "text": text,
                    "spans": json.loads(spans_json),
                    "key_id": batch.key_id,
                    "pipeline_version": batch.pipeline_version,
                    "flagged": bool(flagged),
                }

    def detected(self, batch_id: str) -> Iterable[dict]:
        """``{id, spans}`` per resolved item, in input order: the spans ``deid detect`` writes, in the original text's offsets.

        Offsets and categories only, never text; for comparing paths and auditing what a run found.
        """
        with self.sessions() as s:
            batch = self._batch(s, batch_id)
            items = s.execute(
                select(Item.external_id, Item.note_id)
                .where(Item.batch_id == batch_id, Item.status != ItemStatus.FAILED, Item.note_id.is_not(None))
                .order_by(Item.line)
            ).all()
            rows = s.execute(
                select(SpanRow)
                .join(Item, (Item.note_id == SpanRow.note_id) & (Item.batch_id == batch_id))
                .where(SpanRow.recognizer == RESOLVED, SpanRow.pipeline_version == batch.pipeline_version)
                .order_by(SpanRow.note_id, SpanRow.start, SpanRow.end, SpanRow.id)
            ).scalars().all()
            by_note: dict[int, list[dict]] = {}
            for r in rows:
                by_note.setdefault(r.note_id, []).append(
                    {"start": r.start, "end": r.end, "label": r.category, "score": r.score, "source": r.source, "evidence": r.evidence}
                )
            resolved = {n for (n,) in s.execute(
                select(StageRun.note_id).where(
                    StageRun.note_id.in_([n for _, n in items]), StageRun.stage == STAGE_RESOLVE,
                    StageRun.pipeline_version == batch.pipeline_version, StageRun.key_id == batch.key_id,
                )
            ).all()}
        for rid, note_id in items:
            if note_id in resolved:
                yield {"id": rid, "spans": by_note.get(note_id, [])}

    def export(self, batch_id: str, out: Path | str, errors: Path | str | None = None) -> ExportResult:
        st = self.status(batch_id)
        written = 0
        with atomic_writer(out) as fh:
            for record in self.results(batch_id):
                fh.write(dump(record) + "\n")
                written += 1
            if not written:
                raise KeepPrevious  # a batch with nothing to export leaves the previous file as it was
        if errors is not None:
            with atomic_writer(errors) as fh:
                for f in self.failures(batch_id):
                    fh.write(dump({"id": f.record_id, "line": f.line, "error_class": f.error_class, "error": f.error}) + "\n")
        return ExportResult(written, st.failed, st.pending)


@dataclass
class Connection:
    """An open store (and, for submitting, the broker) for one fleet configuration."""

    client: FleetClient
    engine: object

    def close(self) -> None:
        self.engine.dispose()  # type: ignore[attr-defined]

    def __enter__(self) -> FleetClient:
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.close()


#: Entry-point group naming the class that sends stage messages (the Celery layer declares it).
DISPATCHER_GROUP = "deid.dispatchers"


def dispatcher_class(name: str = "celery"):
    """The dispatcher declared under ``name``: the fleet reaches its Celery layer only through this entry point."""
    from importlib.metadata import entry_points

    found = [ep for ep in entry_points(group=DISPATCHER_GROUP) if ep.name == name]
    if not found:
        raise SubmitError(f"no dispatcher {name!r} is installed (entry point group {DISPATCHER_GROUP})")
    return found[0].load()


def connect(settings, *, dispatch: bool = True) -> Connection:
    """A :class:`FleetClient` on the settings' store; with ``dispatch`` it sends to Celery."""
    from fleet.db import make_engine, session_factory
    from fleet.keystore import open_keystore

    engine = make_engine(settings.database_url, settings.database_schema)
    dispatcher = None
    if dispatch:
        dispatcher = dispatcher_class().for_settings(settings)
    client = FleetClient(
        session_factory(engine),
        open_keystore(settings.key_dir),
        dispatcher,
        chunk_size=settings.chunk_size,
        gpu_token_budget=settings.gpu_token_budget,
    )
    return Connection(client, engine)
