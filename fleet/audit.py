"""The audit trail of a batch: what ran, under which configuration, models and key id.

Everything here comes from the state store and holds no note text and no
key material: the configuration digest, the recognizer names and versions
and model digests recorded by each stage execution, the key id, the item
counts (with the leak report's), and every :class:`~fleet.models.AuditEntry`
row, reviewer actions included (``stage="review"``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from fleet.counts import batch_counts
from fleet.models import AuditEntry, Batch


class AuditError(LookupError):
    pass


def model_dir_digest(path: Path | str) -> str:
    """SHA-256 over every file of a model directory (relative names and full contents).

    Unlike the encoder's short version fingerprint, this covers the weights
    byte for byte, so the audit shows exactly which model produced a release.
    """
    root = Path(path)
    files = sorted(p for p in root.rglob("*") if p.is_file())
    signature = tuple((str(p.relative_to(root)), p.stat().st_size, p.stat().st_mtime_ns) for p in files)
    return _digest_files(str(root.resolve()), signature)


@lru_cache(maxsize=16)
def _digest_files(root: str, signature: tuple[tuple[str, int, int], ...]) -> str:
    digest = hashlib.sha256()
    for rel, size, _mtime in signature:
        digest.update(len(rel.encode()).to_bytes(4, "big") + rel.encode() + size.to_bytes(8, "big"))
        with open(os.path.join(root, rel), "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def model_dir_for(kind: str, models: Mapping[str, object]) -> Path | None:
    """The local model directory a model recognizer of ``kind`` loads, if it names one."""
    if kind == "rules":
        return None
    spec = models.get(kind)
    options = dict(getattr(spec, "options", {}) or {})
    path = options.get("model_path") or options.get("model_dir")
    if path is None and kind == "encoder" and spec is None:
        from deid_core.recognizers.encoder import default_encoder_path

        path = default_encoder_path()
    if path is None:
        return None
    found = Path(str(path)).expanduser()
    return found if found.is_dir() else None


def model_digest_for(kind: str, models: Mapping[str, object]) -> str:
    path = model_dir_for(kind, models)
    return "" if path is None else model_dir_digest(path)


@dataclass(frozen=True)
class AuditRow:
    stage: str
    component: str
    worker: str
    pipeline_version: str
    key_id: str
    config_digest: str
    notes: int
    done: int
    failed: int
    skipped: int
    leaks: int
    model_digest: str
    detail: str
    started_at: str
    finished_at: str


@dataclass(frozen=True)
class BatchAudit:
    batch: str
    study: str
    key_id: str
    pipeline_version: str
    config_digest: str
    source: str
    created_at: str
    submitted: int
    done: int
    failed: int
    pending: int
    flagged: int
    leaked: int
    withheld: int
    recognizers: list[str] = field(default_factory=list)
    models: dict[str, str] = field(default_factory=dict)
    entries: list[AuditRow] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def batch_audit(sessions: sessionmaker[Session], batch_id: str) -> BatchAudit:
    with sessions() as s:
        batch = s.get(Batch, batch_id)
        if batch is None:
            raise AuditError(f"no batch {batch_id!r}")
        counts = batch_counts(s, batch_id)
        rows = s.scalars(select(AuditEntry).where(AuditEntry.batch_id == batch_id).order_by(AuditEntry.started_at, AuditEntry.id)).all()
        entries = [
            AuditRow(
                r.stage, r.component, r.worker, r.pipeline_version, r.key_id, r.config_digest, r.notes, r.done, r.failed,
                r.skipped, r.leaks, r.model_digest, r.detail,
                r.started_at.isoformat(timespec="seconds"), r.finished_at.isoformat(timespec="seconds"),
            )
            for r in rows
        ]
        recognizers = sorted({e.component for e in entries if e.stage.startswith("recognize:") and e.component})
        models = {e.component: e.model_digest for e in entries if e.model_digest}
        return BatchAudit(
            batch=batch.id,
            study=batch.study_id,
            key_id=batch.key_id,
            pipeline_version=batch.pipeline_version,
            config_digest=batch.config_digest,
            source=batch.source,
            created_at=batch.created_at.isoformat(timespec="seconds"),
            submitted=batch.submitted,
            done=counts.done,
            failed=counts.failed,
            pending=counts.pending,
            flagged=counts.flagged,
            leaked=counts.leaked,
            withheld=counts.withheld,
            recognizers=recognizers,
            models=models,
            entries=entries,
        )


def format_audit(a: BatchAudit) -> str:
    lines = [
        f"batch {a.batch}  study {a.study}  key id {a.key_id}",
        f"  pipeline {a.pipeline_version}  configuration sha256 {a.config_digest}  source {a.source}  created {a.created_at}",
        f"  submitted {a.submitted} = done {a.done} + failed {a.failed} + pending {a.pending}; "
        f"flagged {a.flagged}; leaked {a.leaked} (withheld from export {a.withheld})",
        "  recognizers: " + (", ".join(a.recognizers) or "(none ran)"),
    ]
    for component, digest in sorted(a.models.items()):
        lines.append(f"  model {component}: sha256 {digest}")
    header = ("stage", "component", "notes", "done", "failed", "skip", "leaks", "worker", "finished", "detail")
    table = [header] + [
        (e.stage, e.component, str(e.notes), str(e.done), str(e.failed), str(e.skipped), str(e.leaks), e.worker, e.finished_at, e.detail)
        for e in a.entries
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(header) - 1)]
    for row in table:
        lines.append("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[-1])
    return "\n".join(lines)
