"""Throughput of the embedded default and of the fleet with 1 and 2 CPU workers.

The same synthetic corpus goes through each; fleet timings run from
submission to the last note done, with workers already warm, so they
measure the pipeline and its messaging, not process start-up.  The end is
read from the store (the batch's last item update), not from the moment a
status poll happened to see it, which added up to a poll interval.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import func, select

from deid_core.keys import StudyKey
from fleet.embedded import run_embedded
from fleet.harness import ScratchFleet
from fleet.models import Item, utcnow
from fleet.pipeline import PipelineConfig
from fleet.producer import FleetClient, connect
from fleet.settings import FleetSettings


@dataclass(frozen=True)
class BenchRow:
    mode: str
    notes: int
    characters: int
    seconds: float

    @property
    def notes_per_s(self) -> float:
        return self.notes / self.seconds if self.seconds else 0.0

    @property
    def chars_per_s(self) -> float:
        return self.characters / self.seconds if self.seconds else 0.0


def corpus_characters(path: Path) -> int:
    import json

    return sum(len(json.loads(line)["text"]) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def bench_embedded(corpus: Path, config: PipelineConfig, chunk_size: int) -> BenchRow:
    key = StudyKey.generate("bench")
    with tempfile.TemporaryDirectory() as tmp:
        run_embedded(corpus, Path(tmp) / "warm.jsonl", key, config, chunk_size=chunk_size)  # build once, as a worker does
        result = run_embedded(corpus, Path(tmp) / "out.jsonl", key, config, chunk_size=chunk_size)
    return BenchRow("embedded (SQLite, 1 process)", result.status.done, corpus_characters(corpus), result.seconds)


def bench_fleet(base: FleetSettings, corpus: Path, config: PipelineConfig, workers: int, chunk_size: int, timeout: float) -> BenchRow:
    with tempfile.TemporaryDirectory() as tmp, ScratchFleet(base, Path(tmp), "bench") as fleet:
        procs = [fleet.worker("cpu", name=f"w{i}").start() for i in range(workers)]
        for p in procs:
            p.wait_ready(180)
        with connect(fleet.settings.with_overrides(chunk_size=chunk_size)) as client:
            warm = client.submit_jsonl(corpus, fleet.STUDY, config)  # first pass loads name pools in each child
            client.wait(warm.batch_id, timeout=timeout)
            # the timed pass runs under another pipeline version, so it recomputes every stage
            other = PipelineConfig(config.settings, config.recognizers, config.verifier_threshold + 1e-9, config.base_dir)
            submitted_at = utcnow()
            batch = client.submit_jsonl(corpus, fleet.STUDY, other)  # new pipeline version: nothing to skip
            status = client.wait(batch.batch_id, timeout=timeout)
            seconds = _seconds_to_last_update(client, batch.batch_id, submitted_at)
    label = f"fleet, {workers} CPU worker{'s' if workers > 1 else ''}"
    return BenchRow(label, status.done, corpus_characters(corpus), seconds)


def _seconds_to_last_update(client: FleetClient, batch_id: str, since: datetime) -> float:
    with client.sessions() as s:
        last = s.scalar(select(func.max(Item.updated_at)).where(Item.batch_id == batch_id))
    if last is None:
        return 0.0
    if last.tzinfo is None:  # SQLite keeps no zone; the store writes UTC
        last = last.replace(tzinfo=timezone.utc)
    return (last - since).total_seconds()


def format_rows(rows: list[BenchRow]) -> str:
    head = f"{'mode':<32} {'notes':>6} {'seconds':>8} {'notes/s':>9} {'chars/s':>11}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.mode:<32} {r.notes:>6} {r.seconds:>8.2f} {r.notes_per_s:>9.1f} {r.chars_per_s:>11.0f}")
    return "\n".join(lines)
