"""Anonymizer throughput on a fixed synthetic corpus: one process, then all cores."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from deid_core.anonymizer.engine import Anonymizer, Note
from deid_core.benchmarks import Throughput
from deid_core.config import AnonymizerConfig
from deid_core.keys import StudyKey


@dataclass(frozen=True)
class AnonymizerThroughput(Throughput):
    processes: int = 1
    spans: int = 0

    @property
    def spans_per_s(self) -> float:
        return self.spans / self.seconds


def fixed_corpus(n: int, seed: int) -> list[Note]:
    from deid_core.synth import generate_notes

    return [Note(s.id, s.text, s.patient_id, s.spans) for s in generate_notes(n, seed)]


_worker: Anonymizer | None = None


def _init(study: str, salt: bytes, key: bytes, config: AnonymizerConfig, warm: list[Note]) -> None:
    global _worker
    _worker = Anonymizer(StudyKey(study, salt=salt, key=key), config)
    _warm(_worker, warm)


def _ready(_: int) -> int:
    time.sleep(0.2)
    return os.getpid()


def _run_chunk(notes: list[Note]) -> int:
    assert _worker is not None
    return sum(len(_worker.anonymize(n).spans) for n in notes)


def _warm(anonymizer: Anonymizer, notes: list[Note]) -> None:
    """Load pools and build cipher tables once, outside the timed region."""
    for note in notes:
        anonymizer.anonymize(note)


def measure(notes: list[Note], key: StudyKey, config: AnonymizerConfig, processes: int) -> AnonymizerThroughput:
    chars = sum(len(n.text) for n in notes)
    spans = sum(len(n.spans) for n in notes)
    if processes == 1:
        anonymizer = Anonymizer(key, config)
        _warm(anonymizer, notes)
        start = time.perf_counter()
        for note in notes:
            anonymizer.anonymize(note)
        elapsed = time.perf_counter() - start
    else:
        chunks = [notes[i::processes] for i in range(processes)]
        initargs = (key.study, key.salt, key.key, config, notes)
        with ProcessPoolExecutor(processes, initializer=_init, initargs=initargs) as pool:
            while len(set(pool.map(_ready, range(processes)))) < processes:
                pass  # every worker has started and warmed up
            start = time.perf_counter()
            list(pool.map(_run_chunk, chunks))
            elapsed = time.perf_counter() - start
    label = f"{processes} process{'es' if processes > 1 else ''}"
    return AnonymizerThroughput(label, len(notes), chars, elapsed, processes=processes, spans=spans)


def run_benchmark(n: int = 2000, seed: int = 7, config: AnonymizerConfig | None = None) -> list[AnonymizerThroughput]:
    config = config or AnonymizerConfig()
    key = StudyKey.generate("benchmark")
    notes = fixed_corpus(n, seed)
    results = [measure(notes, key, config, 1)]
    cores = os.cpu_count() or 1
    if cores > 1:
        results.append(measure(notes, key, config, cores))
    return results


def format_results(results: list[AnonymizerThroughput]) -> str:
    lines = [f"{'configuration':<14} {'notes':>7} {'spans':>8} {'chars':>10} {'seconds':>8} {'spans/s':>10} {'chars/s':>12} {'notes/s':>9}"]
    for r in results:
        lines.append(
            f"{r.label:<14} {r.notes:>7} {r.spans:>8} {r.chars:>10} {r.seconds:>8.2f} "
            f"{r.spans_per_s:>10,.0f} {r.chars_per_s:>12,.0f} {r.notes_per_s:>9,.1f}"
        )
    return "\n".join(lines)
