"""Kill-mid-batch trials: SIGKILL a worker while it works, count what was lost or doubled.

A trial submits a batch, waits until a random number of notes are done,
kills the victim worker's whole process group (no warm shutdown, nothing
acked), and lets a surviving worker finish.  The batch is then exported
and checked: every submitted note must appear exactly once.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select

from fleet.harness import WorkerProcess
from fleet.models import AuditEntry, Item
from fleet.pipeline import PipelineConfig
from fleet.producer import FleetClient


@dataclass(frozen=True)
class TrialResult:
    submitted: int
    done: int
    failed: int
    lost: int  # submitted notes with no output and no failure
    duplicated: int  # extra copies of a note in the export
    redelivered_chunks: int  # chunks the store saw delivered again and split
    killed_after: int  # notes done when the victim was killed
    seconds: float

    @property
    def clean(self) -> bool:
        return self.lost == 0 and self.duplicated == 0 and self.failed == 0


def kill_trial(
    client: FleetClient,
    spawn_victim: Callable[[], WorkerProcess],
    ensure_survivor: Callable[[], WorkerProcess],
    corpus: Path,
    study: str,
    config: PipelineConfig,
    *,
    kill_after: int,
    timeout: float = 180.0,
) -> TrialResult:
    """One trial; the survivor is started (or kept) only after the kill."""
    ids = [json.loads(line)["id"] for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    victim = spawn_victim().start()
    victim.wait_ready(120)
    started = time.monotonic()
    batch = client.submit_jsonl(corpus, study, config)
    deadline = time.monotonic() + timeout
    while client.status(batch.batch_id).done < kill_after and time.monotonic() < deadline:
        time.sleep(0.05)
    done_at_kill = client.status(batch.batch_id).done
    victim.kill()
    ensure_survivor()
    status = client.wait(batch.batch_id, timeout=max(1.0, deadline - time.monotonic()))
    seconds = time.monotonic() - started
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        client.export(batch.batch_id, out)
        lines = out.read_text(encoding="utf-8").splitlines() if out.exists() else []  # none when nothing is done
        exported = Counter(json.loads(line)["id"] for line in lines)
    with client.sessions() as s:
        redelivered = s.scalar(
            select(func.count()).where(AuditEntry.batch_id == batch.batch_id, AuditEntry.detail.like("redelivered%"))
        )
        withheld = set(s.scalars(select(Item.external_id).where(Item.batch_id == batch.batch_id, Item.leaks > 0)))
    failed_ids = {f.record_id for f in client.failures(batch.batch_id)}
    # A note the leak report withheld is accounted for, not lost.
    lost = sum(1 for i in ids if i not in exported and i not in failed_ids and i not in withheld)
    duplicated = sum(n - 1 for n in exported.values())
    return TrialResult(len(ids), status.done, status.failed, lost, duplicated, int(redelivered or 0), done_at_kill, seconds)


def write_trial_corpus(path: Path, n: int, seed: int) -> Path:
    from deid_core.synth import generate_notes

    with open(path, "w", encoding="utf-8") as fh:
        for note in generate_notes(n, seed=seed):
            fh.write(json.dumps({"id": note.id, "patient_id": note.patient_id, "text": note.text}) + "\n")
    return path


def pick_kill_point(rng: random.Random, n: int) -> int:
    return rng.randint(1, max(1, n // 2))
