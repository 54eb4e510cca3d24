"""The stage executor: one stage, one batch, a list of item ids.

The Celery tasks and the embedded runner both call :func:`execute_stage`;
the only difference between them is who carries the returned item ids to
the next stage.  Each call:

1. counts a delivery on every item it was handed, and fails an item that
   has been delivered more than ``max_deliveries`` times at one stage (a
   note that kills its worker must not loop forever).  A redelivered chunk
   of several notes is first split into single-note messages, so a poison
   note only takes itself down;
2. skips notes whose ``(note, stage, pipeline_version, key_id)`` already
   ran, so redelivery and re-submission redo nothing;
3. opens the sealed notes (:mod:`fleet.sealing`) in one place, then runs
   the pure ``deid_core`` stage per note, isolating failures: a note that
   fails (or does not open) records its error class and message and leaves
   the rest;
4. writes results, the stage run and the item's advance in one
   transaction, and an audit row saying what ran where.

The anonymize stage also runs the leak report (:mod:`deid_core.leaks`): an
output with any hit is not stored, its item is flagged and withheld from
export, and the reason (categories and offsets, no text) is recorded.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from deid_core.anonymizer.engine import Anonymizer
from deid_core.detection import run_isolated
from deid_core.environment import ENCODER_DIR
from deid_core.keys import StudyKey
from deid_core.known import KnownSet
from deid_core.leaks import Leak, summarize
from deid_core.normalization import nfc_notes
from deid_core.notes import ClinicalNote
from deid_core.pipeline import Deidentifier, Release
from deid_core.recognizers.known import KnownIdentifierRecognizer
from deid_core.recognizers.mix import MixedDetector, build_mix
from deid_core.recognizers.pipeline import DetectConfig
from deid_core.records import unusable_character
from deid_core.spans import Category, Evidence, Span, span_to_dict
from fleet.audit import model_digest_for
from fleet.keystore import KeyStore, load_checked
from fleet.models import (
    AuditEntry,
    Batch,
    Configuration,
    Item,
    ItemStatus,
    KnownRow,
    NoteRow,
    Output,
    SpanRow,
    StageRun,
    VerifierScore,
    utcnow,
)
from fleet.pipeline import RESOLVED, STAGE_ANONYMIZE, STAGE_DONE, STAGE_RESOLVE, STAGE_VERIFY, PipelineConfig, stage_kind
from fleet.sealing import note_patient_id, note_plaintext, open_known, patient_digest
from fleet.settings import ModelSpec
from fleet.verifier import Verifier, default_verifier

REDELIVERY_LIMIT = "RedeliveryLimitExceeded"


class StageError(RuntimeError):
    """The message itself is wrong (unknown batch or stage): nothing to retry."""


class UnusableNote(ValueError):
    """A stored note holds a character (NUL, a lone surrogate) that no output can carry."""


def default_worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass
class StageContext:
    sessions: sessionmaker[Session]
    keystore: KeyStore
    models: Mapping[str, ModelSpec] = field(default_factory=dict)
    device: str | None = None
    worker: str = field(default_factory=default_worker_name)
    max_deliveries: int = 4
    verifier: Verifier = field(default_factory=default_verifier)
    detector_loader: Callable[..., object] | None = None


@dataclass
class StageResult:
    stage: str
    next_stage: str
    forward: list[int] = field(default_factory=list)
    resend: list[list[int]] = field(default_factory=list)
    done: int = 0
    failed: int = 0
    skipped: int = 0
    leaked: int = 0  # notes withheld by the leak report (anonymize stage)


@dataclass
class _Ok:
    rows: list = field(default_factory=list)
    flagged: bool | None = None
    leaks: int = 0
    review_reason: str | None = None


@dataclass(frozen=True, slots=True)
class PlainNote:
    """A note row opened for one stage call (the store's row id and the core's note); lives in memory only."""

    id: int
    note: ClinicalNote

    @property
    def text(self) -> str:
        return self.note.text

    @property
    def patient_id(self) -> str | None:
        return self.note.patient_id


def gather_patients(s: Session, batch: Batch, plan: Sequence[str], work: list[Item]) -> tuple[list[Item], int]:
    """The resolve stage's items as whole patients: ``(items to resolve now, items deferred)``.

    Name propagation needs every note of a patient that is in the batch.
    A patient's notes waiting at this stage are taken in from whichever
    message brought them; while one of them is still at an earlier stage,
    the patient's notes wait for it (they stay pending here, and the
    message that brings the last one resolves them all), so how a batch was
    cut into messages, split on redelivery or swept never changes a span.
    A note that failed earlier is left out, as ``deid detect`` leaves out a
    note whose detection failed.
    """
    groups = {it.patient_group for it in work if it.patient_group is not None}
    if not groups:
        return work, 0
    have = {it.id for it in work}
    siblings = s.scalars(
        select(Item).where(Item.batch_id == batch.id, Item.patient_group.in_(sorted(groups)), Item.status == ItemStatus.PENDING)
    ).all()
    pos = plan.index(STAGE_RESOLVE)
    waiting = {it.patient_group for it in siblings if it.stage in plan and plan.index(it.stage) < pos}
    gathered = [it for it in work if it.patient_group not in waiting]
    gathered += [it for it in siblings if it.id not in have and it.stage == STAGE_RESOLVE and it.patient_group not in waiting]
    deferred = [it for it in work if it.patient_group in waiting]
    for it in deferred:  # waiting for a sibling is not a delivery that failed
        it.attempts -= 1
    return sorted(gathered, key=lambda it: it.id), len(deferred)


def open_notes(ctx: StageContext, study: str, rows: Sequence[NoteRow]) -> tuple[list[PlainNote], dict[int, BaseException]]:
    """Unseal ``rows`` under their own study keys; a note that does not open fails alone."""
    keys: dict[str, StudyKey | BaseException] = {}
    opened: list[PlainNote] = []
    failed: dict[int, BaseException] = {}
    for row in rows:
        key = keys.get(row.key_id)
        if key is None:
            try:
                key = load_checked(ctx.keystore, study, row.key_id)
            except Exception as exc:
                key = exc
            keys[row.key_id] = key
        if isinstance(key, BaseException):
            failed[row.id] = key
            continue
        try:
            note = PlainNote(row.id, ClinicalNote(row.external_id, note_plaintext(row, key), note_patient_id(row, key)))
            problem = unusable_character(note.text, "text") or unusable_character(note.patient_id, "patient_id")
            if problem:  # stored before intake refused these; it would fail the chunk's write
                raise UnusableNote(problem)
            opened.append(note)
        except Exception as exc:
            failed[row.id] = exc
    return opened, failed


_CONFIGS: dict[str, PipelineConfig] = {}
#: By key id and anonymizer settings: surrogate pools load once per process, not per batch.
_ANONYMIZERS: dict[tuple[str, str], Anonymizer] = {}


def config_for(session: Session, digest: str) -> PipelineConfig:
    found = _CONFIGS.get(digest)
    if found is None:
        row = session.get(Configuration, digest)
        if row is None:
            raise StageError(f"configuration {digest[:12]} is not in the store")
        found = _CONFIGS[digest] = PipelineConfig.from_body(row.body)
    return found


def spans_by_note(session: Session, note_ids: Sequence[int], recognizers: Sequence[str], version: str) -> dict[int, list[Span]]:
    out: dict[int, list[Span]] = {n: [] for n in note_ids}
    rows = session.scalars(
        select(SpanRow)
        .where(SpanRow.note_id.in_(list(note_ids)), SpanRow.recognizer.in_(list(recognizers)), SpanRow.pipeline_version == version)
        .order_by(SpanRow.note_id, SpanRow.id)  # as the recognizer returned them
    )
    for r in rows:
        out[r.note_id].append(Span(r.start, r.end, Category(r.category), r.score, r.source, Evidence(r.evidence)))
    return out


def _span_rows(note_id: int, recognizer: str, version: str, spans: Sequence[Span]) -> list[SpanRow]:
    return [
        SpanRow(
            note_id=note_id,
            recognizer=recognizer,
            pipeline_version=version,
            start=s.start,
            end=s.end,
            category=s.category.value,
            score=float(s.score),
            source=s.source[:500],
            evidence=s.evidence.value,
        )
        for s in spans
    ]


def error_text(exc: BaseException) -> str:
    """What an item's ``error`` says; never a database message, which quotes its SQL."""
    if isinstance(exc, SQLAlchemyError):
        cause = type(getattr(exc, "orig", None) or exc).__name__
        return f"the state store refused the stage's write ({cause}); statement withheld"
    return str(exc)[:2000] or type(exc).__name__


# -- stage bodies: (context, session, batch, config, notes) -> {note_id: _Ok | exception}, component, detail


_DETECTORS: dict[tuple[str, str, str, str], MixedDetector] = {}
_DETECTORS_LOCK = threading.Lock()


def detector_for(config: PipelineConfig, models: Mapping[str, ModelSpec], device: str | None) -> MixedDetector:
    """The process's detector for a batch's configuration; members load when a stage first needs them.

    One loader for both paths: ``deid detect`` builds the same
    :func:`~deid_core.recognizers.mix.build_mix`, and a worker's
    ``[fleet.models.KIND]`` only replaces where that kind's model comes from.
    """
    ident = json.dumps({k: [v.factory, v.options] for k, v in sorted(models.items())}, sort_keys=True, default=str)
    cache_key = (config.digest, ident, device or "", ENCODER_DIR.get())  # the default model's place is in the environment
    with _DETECTORS_LOCK:
        found = _DETECTORS.get(cache_key)
        if found is None:
            base = Path(config.base_dir) if config.base_dir else None
            detect = DetectConfig.from_mapping(config.settings.detect, base_dir=base)
            found = build_mix(detect, kinds=config.recognizers, overrides=models, device=device, eager=False)
            _DETECTORS[cache_key] = found
        return found


def _deidentifier(ctx: StageContext, config: PipelineConfig) -> Deidentifier:
    return Deidentifier(detector_for(config, ctx.models, ctx.device), verifier=ctx.verifier, verifier_threshold=config.verifier_threshold)


def _clinical(notes: Sequence[PlainNote]) -> list[ClinicalNote]:
    return [n.note for n in notes]


def _recognize(kind: str):
    def run(ctx: StageContext, s: Session, batch: Batch, config: PipelineConfig, notes: list[PlainNote]):
        try:
            pipeline = _deidentifier(ctx, config)
        except Exception as exc:  # a configuration that cannot be built fails every note, with why
            return {n.id: exc for n in notes}, kind, "detector unavailable"
        if ctx.detector_loader is not None:  # a test's or a fault trial's own detector
            detector = ctx.detector_loader(kind)
            outcome = run_isolated(detector.name, detector.detect_batch, nfc_notes(_clinical(notes)))
            found, splits = outcome.results, outcome.oom_splits
            component = f"{kind}:{detector.name}/{detector.version}"
        else:
            member = pipeline.detector.members[kind]
            before = member.oom_splits
            found = pipeline.recognize(kind, _clinical(notes))
            splits = member.oom_splits - before
            component = f"{kind}:{getattr(member._recognizer, 'name', kind)}/{getattr(member._recognizer, 'version', '?')}"
        results: dict[int, _Ok | BaseException] = {}
        for note, res in zip(notes, found):
            results[note.id] = res if isinstance(res, BaseException) else _Ok(_span_rows(note.id, kind, batch.pipeline_version, res))
        digest = model_digest_for(kind, ctx.models)
        return results, component, f"oom_splits={splits}" + (f" model_sha256={digest}" if digest else "")

    return run


def _known_recognizer(ctx: StageContext, s: Session, batch: Batch, notes: Sequence[PlainNote]) -> KnownIdentifierRecognizer | None:
    """The known identifiers of these notes' patients, opened from their sealed rows (None when there are none)."""
    if s.scalar(select(KnownRow.id).where(KnownRow.batch_id == batch.id).limit(1)) is None:
        return None
    key = load_checked(ctx.keystore, batch.study_id, batch.key_id)
    digests = {patient_digest(key, batch.study_id, n.patient_id) for n in notes if n.patient_id is not None}
    rows = s.scalars(select(KnownRow).where(KnownRow.batch_id == batch.id, KnownRow.patient_digest.in_(sorted(digests)))).all()
    return KnownIdentifierRecognizer(KnownSet.of(open_known(r, key, batch.study_id) for r in rows))


def _resolve(ctx: StageContext, s: Session, batch: Batch, config: PipelineConfig, notes: list[PlainNote]):
    """The core's :meth:`~deid_core.pipeline.Deidentifier.finish` over the chunk, which holds whole patients."""
    try:
        pipeline = _deidentifier(ctx, config)
    except Exception as exc:  # a configuration that cannot be read fails every note, with why
        return {n.id: exc for n in notes}, "deid_core.pipeline", "detector unavailable"
    try:
        known = _known_recognizer(ctx, s, batch, notes)
    except Exception as exc:  # known identifiers that do not open fail their batch's notes, never skip the floor
        return {n.id: exc for n in notes}, "deid_core.pipeline", "known identifiers unavailable"
    ids = [n.id for n in notes]
    by_kind = {k: spans_by_note(s, ids, [k], batch.pipeline_version) for k in config.recognizers}
    raw = {k: [by_kind[k][i] for i in ids] for k in config.recognizers}
    finished = pipeline.finish(_clinical(notes), raw, known)
    results: dict[int, _Ok | BaseException] = {}
    for n, spans in zip(notes, finished):
        results[n.id] = spans if isinstance(spans, BaseException) else _Ok(_span_rows(n.id, RESOLVED, batch.pipeline_version, spans))
    return results, "deid_core.pipeline", ""


def _verify(ctx: StageContext, s: Session, batch: Batch, config: PipelineConfig, notes: list[PlainNote]):
    spans = spans_by_note(s, [n.id for n in notes], [RESOLVED], batch.pipeline_version)
    pipeline = Deidentifier(verifier=ctx.verifier, verifier_threshold=config.verifier_threshold)
    results: dict[int, _Ok | BaseException] = {}
    for n, note in zip(notes, _clinical(notes)):
        try:
            verdict = pipeline.verify(note, spans[n.id])
            row = VerifierScore(
                note_id=n.id,
                pipeline_version=batch.pipeline_version,
                key_id=batch.key_id,
                verifier=ctx.verifier.name,
                score=verdict.score,
                flagged=verdict.flagged,
            )
            reason = f"verifier {ctx.verifier.name} scored {verdict.score:.2f} > {config.verifier_threshold}" if verdict.flagged else None
            results[n.id] = _Ok([row], verdict.flagged, review_reason=reason)
        except Exception as exc:
            results[n.id] = exc
    return results, ctx.verifier.name, f"threshold={config.verifier_threshold}"


def output_fields(released: Release) -> dict:
    """An :class:`Output` row's columns for a release; a leaky output's text is never stored."""
    out = released.output
    return {
        "text": out.text if released.releasable else "",
        "spans_json": json.dumps([span_to_dict(sp, full=False) for sp in out.spans]),
        "replacements_json": json.dumps([dict(asdict(r), category=r.category.value) for r in out.replacements]),
        "masked_count": out.masked_count,
        "leaks": len(released.leaks),
        "leaks_json": json.dumps([leak.to_dict() for leak in released.leaks]),
    }


def _anonymizer(ctx: StageContext, batch: Batch, config: PipelineConfig) -> Anonymizer:
    cache_key = (batch.key_id, config.settings.anonymizer.model_dump_json())
    found = _ANONYMIZERS.get(cache_key)
    if found is None:
        key = load_checked(ctx.keystore, batch.study_id, batch.key_id)
        found = _ANONYMIZERS[cache_key] = Anonymizer(key, config.settings.anonymizer)
    return found


def _anonymize(ctx: StageContext, s: Session, batch: Batch, config: PipelineConfig, notes: list[PlainNote]):
    try:
        anonymizer = _anonymizer(ctx, batch, config)
    except Exception as exc:
        return {n.id: exc for n in notes}, "anonymizer", "key unavailable"
    try:
        known = _known_recognizer(ctx, s, batch, notes)
    except Exception as exc:  # as in the resolve stage: no note goes out without its record
        return {n.id: exc for n in notes}, "anonymizer", "known identifiers unavailable"
    spans = spans_by_note(s, [n.id for n in notes], [RESOLVED], batch.pipeline_version)
    pipeline = Deidentifier(anonymizer=anonymizer)
    results: dict[int, _Ok | BaseException] = {}
    for n, note in zip(notes, _clinical(notes)):
        try:
            spellings = known.spellings(n.text, n.patient_id) if known is not None else {}
            released = pipeline.release(note, spans[n.id], spellings)
            leaks = list(released.leaks)
            row = Output(note_id=n.id, key_id=batch.key_id, pipeline_version=batch.pipeline_version, **output_fields(released))
            results[n.id] = _Ok([row], True if leaks else None, len(leaks), summarize(leaks) or None)
        except Exception as exc:
            results[n.id] = exc
    return results, "deid_core.anonymizer", ""


def _body(stage: str):
    kind = stage_kind(stage)
    if kind is not None:
        return _recognize(kind)
    return {STAGE_RESOLVE: _resolve, STAGE_VERIFY: _verify, STAGE_ANONYMIZE: _anonymize}[stage]


def _span_recognizer(stage: str) -> str | None:
    kind = stage_kind(stage)
    return kind if kind is not None else (RESOLVED if stage == STAGE_RESOLVE else None)


# -- the executor


def execute_stage(ctx: StageContext, stage: str, batch_id: str, item_ids: Sequence[int]) -> StageResult:
    started = utcnow()
    with ctx.sessions() as s:
        batch = s.get(Batch, batch_id)
        if batch is None:
            raise StageError(f"batch {batch_id!r} is not in the store")
        config = config_for(s, batch.config_digest)
        plan = config.stages
        if stage not in plan:
            raise StageError(f"stage {stage!r} is not part of batch {batch_id}'s plan {plan}")
        pos = plan.index(stage)
        result = StageResult(stage, config.next_stage(stage))
        items = s.scalars(select(Item).where(Item.batch_id == batch_id, Item.id.in_(list(item_ids))).order_by(Item.id)).all()
        work: list[Item] = []
        for it in items:
            if it.status != ItemStatus.PENDING:
                continue
            if it.stage == stage:
                work.append(it)
            elif it.stage in plan and plan.index(it.stage) > pos:
                result.forward.append(it.id)  # advanced by an earlier delivery; pass it on again
        for it in work:
            it.attempts += 1
        over = [it for it in work if it.attempts > ctx.max_deliveries]
        for it in over:
            it.status = ItemStatus.FAILED
            it.error_class = REDELIVERY_LIMIT
            it.error = (
                f"stage {stage} was delivered {it.attempts - 1} times without finishing; "
                "the note may crash its worker"
            )
        result.failed += len(over)
        work = [it for it in work if it.attempts <= ctx.max_deliveries]
        s.commit()  # the delivery count must persist even if this delivery dies
        if len(work) > 1 and any(it.attempts > 1 for it in work):
            result.resend = [[it.id] for it in work]
            _audit(s, ctx, batch, stage, "", started, result, len(items), detail="redelivered: split into single notes")
            s.commit()
            return result
        deferred = 0
        if stage == STAGE_RESOLVE:
            work, deferred = gather_patients(s, batch, plan, work)
            s.commit()
        if not work:
            _audit(s, ctx, batch, stage, "", started, result, len(items))
            s.commit()
            return result

        note_ids = [it.note_id for it in work]
        notes = {n.id: n for n in s.scalars(select(NoteRow).where(NoteRow.id.in_(note_ids)))}
        already = set(
            s.scalars(
                select(StageRun.note_id).where(
                    StageRun.note_id.in_(note_ids),
                    StageRun.stage == stage,
                    StageRun.pipeline_version == batch.pipeline_version,
                    StageRun.key_id == batch.key_id,
                )
            )
        )
        todo_rows = [notes[it.note_id] for it in work if it.note_id not in already]
        if stage == STAGE_RESOLVE and todo_rows:  # notes resolved before still lend their names to the rest
            todo_rows = [notes[it.note_id] for it in work]
        todo, unopened = open_notes(ctx, batch.study_id, todo_rows)
        outcomes, component, detail = _body(stage)(ctx, s, batch, config, todo) if todo else ({}, "", "")
        outcomes = {n: o for n, o in outcomes.items() if n not in already}
        if deferred:
            detail = f"{detail} deferred={deferred}".strip()
        outcomes = {**outcomes, **unopened}
        model_digest = detail.partition("model_sha256=")[2][:64]
        plan_for = [(it.id, it.note_id, outcomes.get(it.note_id)) for it in work]
        batch_key = (batch.id, batch.key_id, batch.pipeline_version, batch.config_digest, batch.study_id)
        s.rollback()  # end the read transaction before writing

    base_forward, base_failed = list(result.forward), result.failed
    try:
        with ctx.sessions.begin() as w:
            w.autoflush = False
            _apply(w, ctx, stage, batch_key, result, plan_for)
            _audit(w, ctx, batch_key, stage, component, started, result, len(items), detail=detail, model_digest=model_digest)
    except IntegrityError:
        # a concurrent delivery finished some of these first: redo note by note
        result.done = result.skipped = result.leaked = 0
        result.failed, result.forward = base_failed, list(base_forward)
        for entry in plan_for:
            try:
                with ctx.sessions.begin() as w:
                    w.autoflush = False
                    _apply(w, ctx, stage, batch_key, result, [entry])
            except IntegrityError:
                with ctx.sessions.begin() as w:
                    _apply(w, ctx, stage, batch_key, result, [(entry[0], entry[1], None)])
        with ctx.sessions.begin() as w:
            _audit(w, ctx, batch_key, stage, component, started, result, len(items), detail=detail + " (raced)", model_digest=model_digest)
    return result


def _apply(w: Session, ctx: StageContext, stage: str, batch_key: tuple, result: StageResult, entries: list) -> None:
    """Write each ``(item, note, outcome)``; outcome ``None`` means the stage already ran for the note.

    One statement per kind of change, not per note: a chunk costs a handful
    of round trips to the store whatever its size.
    """
    _batch_id, key_id, version, _digest, _study = batch_key
    next_stage = result.next_stage
    base: dict = {"stage": next_stage, "attempts": 0}
    if next_stage == STAGE_DONE:
        base["status"] = ItemStatus.DONE
    updates: dict[bool | None, list[int]] = {}
    fresh_notes: list[int] = []
    skipped_verify: list[tuple[int, int]] = []
    skipped_anonymize: list[tuple[int, int]] = []
    for_review: list[tuple[int, int, str]] = []  # (item, leak hits, reason)
    for item_id, note_id, outcome in entries:
        if isinstance(outcome, BaseException):
            w.execute(
                update(Item)
                .where(Item.id == item_id, Item.status == ItemStatus.PENDING, Item.stage == stage)
                .values(status=ItemStatus.FAILED, error_class=type(outcome).__name__, error=error_text(outcome))
            )
            result.failed += 1
            continue
        if outcome is None:
            result.skipped += 1
            if stage == STAGE_VERIFY:
                skipped_verify.append((item_id, note_id))
            elif stage == STAGE_ANONYMIZE:
                skipped_anonymize.append((item_id, note_id))
            else:
                updates.setdefault(None, []).append(item_id)
        else:
            fresh_notes.append(note_id)
            w.add_all(outcome.rows)
            w.add(StageRun(note_id=note_id, stage=stage, pipeline_version=version, key_id=key_id, status="done", worker=ctx.worker[:200]))
            updates.setdefault(outcome.flagged, []).append(item_id)
            if outcome.review_reason:
                for_review.append((item_id, outcome.leaks, outcome.review_reason))
            result.done += 1
        if next_stage != STAGE_DONE:
            result.forward.append(item_id)
    if skipped_verify:
        flags = dict(
            w.execute(
                select(VerifierScore.note_id, VerifierScore.flagged).where(
                    VerifierScore.note_id.in_([n for _, n in skipped_verify]),
                    VerifierScore.pipeline_version == version,
                    VerifierScore.key_id == key_id,
                )
            ).all()
        )
        for item_id, note_id in skipped_verify:
            updates.setdefault(bool(flags.get(note_id)), []).append(item_id)
    if skipped_anonymize:
        # the output was made for another batch; its leak report holds for this one too
        found = {
            n: (count, leaks_json)
            for n, count, leaks_json in w.execute(
                select(Output.note_id, Output.leaks, Output.leaks_json).where(
                    Output.note_id.in_([n for _, n in skipped_anonymize]),
                    Output.pipeline_version == version,
                    Output.key_id == key_id,
                )
            ).all()
        }
        for item_id, note_id in skipped_anonymize:
            count, leaks_json = found.get(note_id, (0, "[]"))
            if count:
                updates.setdefault(True, []).append(item_id)
                for_review.append((item_id, count, summarize([_leak_from(d) for d in json.loads(leaks_json)])))
            else:
                updates.setdefault(None, []).append(item_id)
    recognizer = _span_recognizer(stage)
    if recognizer is not None and fresh_notes:
        w.execute(
            delete(SpanRow).where(SpanRow.note_id.in_(fresh_notes), SpanRow.recognizer == recognizer, SpanRow.pipeline_version == version)
        )
    for flagged, ids in updates.items():
        values = dict(base) if flagged is None else dict(base, flagged=flagged)
        w.execute(
            update(Item).where(Item.id.in_(ids), Item.status == ItemStatus.PENDING, Item.stage == stage).values(**values)
        )
    for item_id, leaks, reason in for_review:
        w.execute(update(Item).where(Item.id == item_id).values(leaks=leaks, review_reason=reason[:500]))
        if leaks:
            result.leaked += 1
    w.flush()


def _leak_from(d: dict) -> Leak:
    return Leak(d["kind"], Category(d["category"]), d["rule"], int(d["out_start"]), int(d["out_end"]))


def _audit(
    s: Session,
    ctx: StageContext,
    batch,
    stage: str,
    component: str,
    started: datetime,
    result: StageResult,
    handed: int,
    detail: str = "",
    model_digest: str = "",
) -> None:
    if isinstance(batch, tuple):
        batch_id, key_id, version, digest, _study = batch
    else:
        batch_id, key_id, version, digest = batch.id, batch.key_id, batch.pipeline_version, batch.config_digest
    s.add(
        AuditEntry(
            batch_id=batch_id,
            stage=stage,
            component=component[:200],
            worker=ctx.worker[:200],
            pipeline_version=version,
            key_id=key_id,
            config_digest=digest,
            notes=handed,
            done=result.done,
            failed=result.failed,
            skipped=result.skipped,
            leaks=result.leaked,
            model_digest=model_digest[:64],
            started_at=started,
            detail=detail[:500],
        )
    )


def fail_items(sessions: sessionmaker[Session], batch_id: str, item_ids: Sequence[int], exc: BaseException) -> int:
    """Give up on items after the task itself failed for good (not a note's fault)."""
    with sessions.begin() as w:
        res = w.execute(
            update(Item)
            .where(Item.batch_id == batch_id, Item.id.in_(list(item_ids)), Item.status == ItemStatus.PENDING)
            .values(status=ItemStatus.FAILED, error_class=type(exc).__name__, error=error_text(exc))
        )
        return res.rowcount or 0
