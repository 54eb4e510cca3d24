"""Crash trials that cannot miss a loss: every export is compared byte for byte with an undisturbed run.

A trial starts a victim worker, submits a batch, and hurts the victim in
one of five ways:

* ``group``: SIGKILL to its whole process group at a random point (a lost machine);
* ``main``: SIGKILL to its main process only, its pool children left orphaned;
* ``child``: SIGKILL to one pool child only, the main process living on;
* ``receive``: the victim kills its own group on the N-th message it receives,
  between taking the message and acknowledging it (:func:`fleet.faults.on_receive`);
* ``drop``: the N-th message it receives vanishes unrun, as one does when the
  main process dies after taking it from Redis and before recording it.

A survivor worker, running all along, finishes the batch; nobody calls
``resume``.  The batch must complete within ``timeout`` (else it is
counted ``stuck``: it would have needed a human), and its export must be
the same bytes as the embedded runner's export of the same notes under the
same key.  Anything missing, doubled or different is counted.

A redelivered chunk is split into single-note messages, but the resolve
stage gathers each patient's notes again (:func:`fleet.stages.gather_patients`),
so a crash cannot change a note's spans at any chunk size: any difference
is a fault.
"""

from __future__ import annotations

import deid_core.environment as _env
import json
import os
import random
import signal
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select

from deid_core.keys import StudyKey
from fleet.harness import WorkerProcess
from fleet.models import AuditEntry
from fleet.pipeline import PipelineConfig
from fleet.producer import FleetClient

KILL_MODES = ("group", "main", "child", "receive", "drop")


@dataclass(frozen=True)
class TrialResult:
    mode: str
    submitted: int
    done: int
    failed: int
    lost: int  # notes in the undisturbed export, missing from this one
    duplicated: int  # extra copies of a note in the export
    differing: int  # notes whose exported line is not the undisturbed run's
    identical: bool  # the export is the undisturbed export, byte for byte
    stuck: bool  # not complete by the deadline: it would have needed a resume
    redelivered_chunks: int  # chunks the store saw delivered again and split
    killed_after: int  # notes done when the victim was hurt
    seconds: float

    @property
    def clean(self) -> bool:
        return self.identical and not self.stuck and self.lost == self.duplicated == self.differing == self.failed == 0


def reference_export(corpus: Path, key: StudyKey, config: PipelineConfig, out: Path, chunk_size: int) -> bytes:
    """The export of an undisturbed, single-process run of ``corpus`` under ``key``, in the fleet's chunks."""
    from fleet.embedded import run_embedded

    run_embedded(corpus, out, key, config, chunk_size=chunk_size)
    return out.read_bytes()


def fault_for(mode: str, rng: random.Random) -> dict[str, str]:
    """The victim's environment: the receive-window faults strike on its 1st to 3rd message."""
    if mode == "receive":
        return {_env.FAULT_ON_RECEIVE.name: f"kill:{rng.randint(1, 3)}"}
    if mode == "drop":
        return {_env.FAULT_ON_RECEIVE.name: f"drop:{rng.randint(1, 3)}"}
    return {}


def pool_children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (FileNotFoundError, ValueError):
        return []


def hurt(victim: WorkerProcess, mode: str) -> None:
    if mode == "group":
        victim.kill()
    elif mode == "main":
        os.kill(victim.proc.pid, signal.SIGKILL)
    elif mode == "child":
        children = pool_children(victim.proc.pid)
        os.kill(children[0] if children else victim.proc.pid, signal.SIGKILL)


def _lines_by_id(data: bytes) -> dict[str, list[bytes]]:
    out: dict[str, list[bytes]] = {}
    for line in data.splitlines():
        if line.strip():
            out.setdefault(json.loads(line)["id"], []).append(line)
    return out


def run_trial(
    client: FleetClient,
    spawn_victim: Callable[[dict[str, str]], WorkerProcess],
    corpus: Path,
    study: str,
    key: StudyKey,
    config: PipelineConfig,
    *,
    mode: str,
    kill_after: int,
    rng: random.Random,
    timeout: float,
) -> TrialResult:
    """One trial against a fleet where a survivor worker is already running."""
    with tempfile.TemporaryDirectory() as tmp:
        reference = reference_export(corpus, key, config, Path(tmp) / "reference.jsonl", client.chunk_size)
        victim = spawn_victim(fault_for(mode, rng)).start()
        try:
            victim.wait_ready(120)
            started = time.monotonic()
            batch = client.submit_jsonl(corpus, study, config)
            hurt_by = time.monotonic() + timeout / 2
            while client.status(batch.batch_id).done < kill_after and victim.alive and time.monotonic() < hurt_by:
                time.sleep(0.05)
            done_at_kill = client.status(batch.batch_id).done
            hurt(victim, mode)
            status = client.wait(batch.batch_id, timeout=timeout, poll=0.2)
            seconds = time.monotonic() - started
        finally:
            victim.kill()  # orphaned children of a killed main process too
        out = Path(tmp) / "out.jsonl"
        client.export(batch.batch_id, out)
        exported = out.read_bytes() if out.exists() else b""
    with client.sessions() as s:
        redelivered = s.scalar(
            select(func.count()).where(AuditEntry.batch_id == batch.batch_id, AuditEntry.detail.like("redelivered%"))
        )
    want, got = _lines_by_id(reference), _lines_by_id(exported)
    return TrialResult(
        mode=mode,
        submitted=status.submitted,
        done=status.done,
        failed=status.failed,
        lost=sum(1 for i in want if i not in got),
        duplicated=sum(len(v) - 1 for v in got.values()),
        differing=sum(1 for i, lines in want.items() if i in got and got[i][0] != lines[0]) + sum(1 for i in got if i not in want),
        identical=exported == reference,
        stuck=not status.complete,
        redelivered_chunks=int(redelivered or 0),
        killed_after=done_at_kill,
        seconds=seconds,
    )


def write_trial_corpus(path: Path, n: int, seed: int) -> Path:
    from deid_core.synth import generate_notes

    with open(path, "w", encoding="utf-8") as fh:
        for note in generate_notes(n, seed=seed):
            fh.write(json.dumps({"id": note.id, "patient_id": note.patient_id, "text": note.text}) + "\n")
    return path


def pick_kill_point(rng: random.Random, n: int) -> int:
    return rng.randint(1, max(1, n // 2))
