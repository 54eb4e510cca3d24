"""Review of flagged notes: the queue, one note's spans, and the reviewer's fixes.

A note is in the queue when its item is done and flagged (by the verifier,
or withheld by the leak report) and its review is not closed.  A reviewer
accepts, removes or adds spans; after every removal or addition the note is
anonymized again under the batch's own key, exactly as the anonymize stage
does (same anonymizer settings, same leak report), and the stored output is
replaced.  Closing the review releases the output; it is refused while the
leak report still finds anything.

Reviewer actions are stored as offsets and categories only, and each one
also writes an :class:`~fleet.models.AuditEntry` (stage ``review``) that
says what was done without any original text.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import and_, select, update
from sqlalchemy.orm import Session, sessionmaker

from deid_core.anonymizer.engine import Anonymizer
from deid_core.leaks import summarize
from deid_core.notes import ClinicalNote
from deid_core.pipeline import Deidentifier
from deid_core.spans import Category, Span, SpanError
from fleet.api.auth import Principal
from fleet.keystore import KeyStore, load_checked
from fleet.models import (
    AuditEntry,
    Batch,
    Item,
    ItemStatus,
    NoteRow,
    Output,
    ReviewAction,
    ReviewSpan,
    ReviewState,
    ReviewStatus,
    TenantStudy,
    VerifierScore,
    utcnow,
)
from fleet.pipeline import PipelineConfig
from fleet.sealing import note_patient_id, note_plaintext
from fleet.stages import RESOLVED, config_for, output_fields, spans_by_note

STAGE_REVIEW = "review"


class ReviewError(Exception):
    status = 400


class NotFound(ReviewError):
    """Unknown, or another tenant's: the two are indistinguishable on purpose."""

    status = 404


class Conflict(ReviewError):
    status = 409


class InvalidAction(ReviewError):
    status = 422


@dataclass(frozen=True)
class QueueEntry:
    note: int
    batch: str
    id: str | None
    study: str
    reason: str
    leaks: int
    verifier_score: float | None
    review: str


@dataclass(frozen=True)
class ReviewedSpan:
    start: int
    end: int
    category: str
    state: str  # detected | added | accepted
    source: str = ""


@dataclass
class ReviewView:
    note: int
    batch: str
    id: str | None
    study: str
    reason: str
    original: str
    spans: list[ReviewedSpan]
    output: str | None
    output_spans: list[dict]
    leaks: int
    leak_report: list[dict]
    review: str
    revision: int
    actions: list[dict] = field(default_factory=list)
    leaked: list[dict] = field(default_factory=list)  # the leak report's hits, in the original's offsets


def _worker() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _review_states(s: Session, keys: list[tuple[int, str, str]]) -> dict[tuple[int, str, str], ReviewState]:
    if not keys:
        return {}
    note_ids = sorted({k[0] for k in keys})
    rows = s.scalars(select(ReviewState).where(ReviewState.note_id.in_(note_ids)))
    return {(r.note_id, r.key_id, r.pipeline_version): r for r in rows}


def review_status_of(s: Session, item: Item, batch: Batch) -> str:
    """``none`` (not flagged), ``open`` or ``closed``."""
    if not item.flagged:
        return "none"
    state = _review_states(s, [(item.note_id, batch.key_id, batch.pipeline_version)]).get(
        (item.note_id, batch.key_id, batch.pipeline_version)
    )
    return state.status if state is not None else ReviewStatus.OPEN


def _reason(item: Item) -> str:
    if item.review_reason:
        return item.review_reason
    return "leak report" if item.leaks else "verifier"


def leaks_in_original(leak_report: list[dict], replacements: list[dict]) -> list[dict]:
    """The leak report's output offsets as offsets of the original.

    A hit lies outside every region the anonymizer wrote, where the output
    is the original shifted by the length changes of the regions before it.
    """
    regions = sorted(replacements, key=lambda r: r["out_start"])
    out: list[dict] = []
    for leak in leak_report:
        shift = sum((r["end"] - r["start"]) - (r["out_end"] - r["out_start"]) for r in regions if r["out_end"] <= leak["out_start"])
        start, end = leak["out_start"] + shift, leak["out_end"] + shift
        out.append({"kind": leak["kind"], "category": leak["category"], "rule": leak["rule"], "start": start, "end": end})
    return out


def current_reason(item: Item, leaks: int, leaked: list[dict]) -> str:
    """Why the note is flagged, as of its latest output, in the offsets of the pane it names.

    While the leak report withholds the output, only the original is shown,
    so the hits are given in the original's offsets.
    """
    if leaks:
        where = "; ".join(f"{h['kind']} {h['category']} ({h['rule']}) at original {h['start']}-{h['end']}" for h in leaked[:5])
        more = f"; and {len(leaked) - 5} more" if len(leaked) > 5 else ""
        return f"leak report: {leaks} hit(s), output withheld: {where}{more}"
    if (item.review_reason or "").startswith("leak report"):
        return "leak report: no hits since the reviewer's changes; close the review to release the note"
    return _reason(item)


def _latest_score(s: Session, note_id: int, key_id: str, version: str) -> float | None:
    return s.scalar(
        select(VerifierScore.score)
        .where(VerifierScore.note_id == note_id, VerifierScore.key_id == key_id, VerifierScore.pipeline_version == version)
        .order_by(VerifierScore.id.desc())
        .limit(1)
    )


def review_queue(s: Session, tenant: str, limit: int = 500) -> list[QueueEntry]:
    """The tenant's flagged, finished notes whose review is still open, oldest first."""
    rows = s.execute(
        select(Item, Batch)
        .join(Batch, Batch.id == Item.batch_id)
        .join(TenantStudy, TenantStudy.study_id == Batch.study_id)
        .where(TenantStudy.tenant_id == tenant, Item.flagged.is_(True), Item.status == ItemStatus.DONE)
        .order_by(Item.id)
    ).all()
    states = _review_states(s, [(i.note_id, b.key_id, b.pipeline_version) for i, b in rows])
    out: list[QueueEntry] = []
    for item, batch in rows:
        state = states.get((item.note_id, batch.key_id, batch.pipeline_version))
        if state is not None and state.status == ReviewStatus.CLOSED:
            continue
        out.append(
            QueueEntry(
                note=item.id,
                batch=batch.id,
                id=item.external_id,
                study=batch.study_id,
                reason=_reason(item),
                leaks=item.leaks or 0,
                verifier_score=_latest_score(s, item.note_id, batch.key_id, batch.pipeline_version),
                review=ReviewStatus.OPEN,
            )
        )
        if len(out) >= limit:
            break
    return out


def tenant_item(s: Session, tenant: str, item_id: int) -> tuple[Item, Batch]:
    """The item if it belongs to one of the tenant's studies, else :class:`NotFound`."""
    row = s.execute(
        select(Item, Batch)
        .join(Batch, Batch.id == Item.batch_id)
        .join(TenantStudy, TenantStudy.study_id == Batch.study_id)
        .where(Item.id == item_id, TenantStudy.tenant_id == tenant)
    ).first()
    if row is None:
        raise NotFound(f"no note {item_id}")
    return row[0], row[1]


def _reviewable(s: Session, tenant: str, item_id: int) -> tuple[Item, Batch, NoteRow, Output]:
    item, batch = tenant_item(s, tenant, item_id)
    if not item.flagged or item.status != ItemStatus.DONE or item.note_id is None:
        raise NotFound(f"note {item_id} is not waiting for review")
    note = s.get(NoteRow, item.note_id)
    output = s.scalar(
        select(Output).where(
            Output.note_id == item.note_id, Output.key_id == batch.key_id, Output.pipeline_version == batch.pipeline_version
        )
    )
    if note is None or output is None:
        raise NotFound(f"note {item_id} has no output to review")
    return item, batch, note, output


def _actions(s: Session, note_id: int, key_id: str, version: str) -> list[ReviewSpan]:
    return list(
        s.scalars(
            select(ReviewSpan)
            .where(ReviewSpan.note_id == note_id, ReviewSpan.key_id == key_id, ReviewSpan.pipeline_version == version)
            .order_by(ReviewSpan.id)
        )
    )


def effective_spans(detected: list[Span], actions: list[ReviewSpan]) -> list[ReviewedSpan]:
    """The detected spans with the reviewer's actions applied in order."""
    current: dict[tuple[int, int], ReviewedSpan] = {
        (sp.start, sp.end): ReviewedSpan(sp.start, sp.end, sp.category.value, "detected", sp.source) for sp in detected
    }
    for a in actions:
        k = (a.start, a.end)
        if a.action == ReviewAction.ADD:
            current[k] = ReviewedSpan(a.start, a.end, a.category, "added", "review")
        elif a.action == ReviewAction.REMOVE:
            current.pop(k, None)
        elif a.action == ReviewAction.ACCEPT and k in current:
            old = current[k]
            current[k] = ReviewedSpan(old.start, old.end, old.category, "accepted", old.source)
    return sorted(current.values(), key=lambda r: (r.start, r.end))


def _state(s: Session, note_id: int, key_id: str, version: str) -> ReviewState:
    state = s.scalar(
        select(ReviewState).where(
            ReviewState.note_id == note_id, ReviewState.key_id == key_id, ReviewState.pipeline_version == version
        )
    )
    if state is None:
        state = ReviewState(note_id=note_id, key_id=key_id, pipeline_version=version, status=ReviewStatus.OPEN, revision=0)
        s.add(state)
        s.flush()
    return state


def _audit_review(s: Session, batch: Batch, who: Principal, started: datetime, detail: str) -> None:
    """One audit row per reviewer action: offsets and category only, never the text."""
    s.add(
        AuditEntry(
            batch_id=batch.id,
            stage=STAGE_REVIEW,
            component=who.reviewer[:200],
            worker=_worker()[:200],
            pipeline_version=batch.pipeline_version,
            key_id=batch.key_id,
            config_digest=batch.config_digest,
            notes=1,
            done=1,
            detail=detail[:500],
            started_at=started,
        )
    )


class Reviewer:
    """Review operations over one store and key store (one per app)."""

    def __init__(self, sessions: sessionmaker[Session], keystore: KeyStore) -> None:
        self.sessions = sessions
        self.keystore = keystore
        self._anonymizers: dict[tuple[str, str], Anonymizer] = {}
        self._lock = threading.Lock()

    def _anonymizer(self, batch: Batch, config: PipelineConfig) -> Anonymizer:
        cache_key = (batch.key_id, config.settings.anonymizer.model_dump_json())
        with self._lock:
            found = self._anonymizers.get(cache_key)
            if found is None:
                key = load_checked(self.keystore, batch.study_id, batch.key_id)
                found = self._anonymizers[cache_key] = Anonymizer(key, config.settings.anonymizer)
        return found

    def _open(self, batch: Batch, note: NoteRow) -> tuple[str, str | None]:
        key = load_checked(self.keystore, batch.study_id, note.key_id)
        return note_plaintext(note, key), note_patient_id(note, key)

    def view(self, tenant: str, item_id: int) -> ReviewView:
        with self.sessions() as s:
            item, batch, note, output = _reviewable(s, tenant, item_id)
            original, _patient = self._open(batch, note)
            detected = spans_by_note(s, [note.id], [RESOLVED], batch.pipeline_version)[note.id]
            actions = _actions(s, note.id, batch.key_id, batch.pipeline_version)
            state = _review_states(s, [(note.id, batch.key_id, batch.pipeline_version)]).get(
                (note.id, batch.key_id, batch.pipeline_version)
            )
            leak_report = json.loads(output.leaks_json or "[]")
            leaked = leaks_in_original(leak_report, json.loads(output.replacements_json or "[]"))
            return ReviewView(
                note=item.id,
                batch=batch.id,
                id=item.external_id,
                study=batch.study_id,
                reason=current_reason(item, output.leaks or 0, leaked),
                original=original,
                spans=effective_spans(detected, actions),
                output=output.text if not output.leaks else None,
                output_spans=json.loads(output.spans_json) if not output.leaks else [],
                leaks=output.leaks or 0,
                leak_report=leak_report,
                review=state.status if state is not None else ReviewStatus.OPEN,
                revision=state.revision if state is not None else 0,
                actions=[
                    {"action": a.action, "start": a.start, "end": a.end, "category": a.category, "reviewer": a.reviewer}
                    for a in actions
                ],
                leaked=leaked,
            )

    def act(self, who: Principal, item_id: int, action: str, start: int, end: int, category: str | None) -> ReviewView:
        """Record one action; for ``add`` and ``remove``, re-anonymize and replace the output."""
        started = utcnow()
        with self.sessions.begin() as s:
            item, batch, note, output = _reviewable(s, who.tenant, item_id)
            state = _state(s, note.id, batch.key_id, batch.pipeline_version)
            if state.status == ReviewStatus.CLOSED:
                raise Conflict(f"the review of note {item_id} is closed")
            original, patient = self._open(batch, note)
            detected = spans_by_note(s, [note.id], [RESOLVED], batch.pipeline_version)[note.id]
            actions = _actions(s, note.id, batch.key_id, batch.pipeline_version)
            current = {(r.start, r.end): r for r in effective_spans(detected, actions)}
            if action == ReviewAction.ADD:
                if not (0 <= start < end <= len(original)):
                    raise InvalidAction(f"note {item_id}: span {start}-{end} is outside the text (length {len(original)})")
                try:
                    category = Category.parse(category).value
                except SpanError as exc:
                    raise InvalidAction(f"note {item_id}: {exc}") from None
            elif action in (ReviewAction.REMOVE, ReviewAction.ACCEPT):
                found = current.get((start, end))
                if found is None:
                    raise InvalidAction(f"note {item_id}: no span at {start}-{end} to {action}")
                category = found.category
            else:
                raise InvalidAction(f"unknown action {action!r} (add, remove or accept)")
            row = ReviewSpan(
                note_id=note.id,
                key_id=batch.key_id,
                pipeline_version=batch.pipeline_version,
                action=action,
                start=start,
                end=end,
                category=category,
                reviewer=who.reviewer[:200],
            )
            s.add(row)
            s.flush()
            leaks = output.leaks or 0
            if action != ReviewAction.ACCEPT:
                spans = [
                    Span(r.start, r.end, Category(r.category), 1.0, r.source)
                    for r in effective_spans(detected, actions + [row])
                ]
                leaks = self._reanonymize(s, batch, note, output, original, patient, spans)
            state.revision += 1
            state.reviewer = who.reviewer[:200]
            _audit_review(s, batch, who, started, f"note {item.id}: {action} {category} {start}-{end}; revision {state.revision}; leaks {leaks}")
        return self.view(who.tenant, item_id)

    def _reanonymize(
        self, s: Session, batch: Batch, note: NoteRow, output: Output, original: str, patient: str | None, spans: list[Span]
    ) -> int:
        """Anonymize as the anonymize stage does and replace the output; returns the leak count."""
        config = config_for(s, batch.config_digest)
        anonymizer = self._anonymizer(batch, config)
        released = Deidentifier(anonymizer=anonymizer).release(ClinicalNote(note.external_id, original, patient), spans)
        leaks = list(released.leaks)
        for column, value in output_fields(released).items():
            setattr(output, column, value)
        same_output = select(Batch.id).where(Batch.key_id == batch.key_id, Batch.pipeline_version == batch.pipeline_version)
        values: dict = {"leaks": len(leaks)}
        if leaks:
            values["review_reason"] = summarize(leaks)[:500]
        s.execute(
            update(Item)
            .where(and_(Item.note_id == note.id, Item.batch_id.in_(same_output)))
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        return len(leaks)

    def close(self, who: Principal, item_id: int) -> ReviewView:
        """Release the note: its review leaves the queue and its output may be exported."""
        started = utcnow()
        with self.sessions.begin() as s:
            item, batch, note, output = _reviewable(s, who.tenant, item_id)
            state = _state(s, note.id, batch.key_id, batch.pipeline_version)
            if state.status == ReviewStatus.CLOSED:
                raise Conflict(f"the review of note {item_id} is already closed")
            if output.leaks:
                raise Conflict(f"note {item_id}: the leak report still finds {output.leaks} hit(s); fix the spans first")
            state.status = ReviewStatus.CLOSED
            state.revision += 1
            state.reviewer = who.reviewer[:200]
            _audit_review(s, batch, who, started, f"note {item.id}: review closed, output released; revision {state.revision}")
        return self.view(who.tenant, item_id)
