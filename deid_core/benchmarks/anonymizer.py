"""Anonymizer throughput on a fixed synthetic corpus: one process, then all cores."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from deid_core.anonymizer.engine import Anonymizer, Note
from deid_core.config import AnonymizerConfig
from deid_core.keys import StudyKey


@dataclass(frozen=True)
class Throughput:
    label: str
    processes: int
    notes: int
    spans: int
    chars: int
    seconds: float

    @property
    def spans_per_s(self) -> float:
        return self.spans / self.seconds

    @property
    def chars_per_s(self) -> float:
        return self.chars / self.seconds

    @property
    def notes_per_s(self) -> float:
        return self.notes / self.seconds


def fixed_corpus(n: int, seed: int) -> list[Note]:
    from deid_core.synth import generate_notes

    return [Note(s.id, s.text, s.patient_id, s.spans) for s in generate_notes(n, seed)]


_worker: Anonymizer | None = None


def _init(study: str, salt: bytes, key: bytes, config: AnonymizerConfig) -> None:
    global _worker
    _worker = Anonymizer(StudyKey(study, salt=salt, key=key), config)


def _run_chunk(notes: list[Note]) -> int:
    assert _worker is not None
    return sum(len(_worker.anonymize(n).spans) for n in notes)


def _warm(anonymizer: Anonymizer, notes: list[Note]) -> None:
    for note in notes[:20]:
        anonymizer.anonymize(note)


def measure(notes: list[Note], key: StudyKey, config: AnonymizerConfig, processes: int) -> Throughput:
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
        chunks = [notes[i::processes * 4] for i in range(processes * 4)]
        with ProcessPoolExecutor(processes, initializer=_init, initargs=(key.study, key.salt, key.key, config)) as pool:
            list(pool.map(_run_chunk, [notes[:20]] * processes))  # warm every worker's pools
            start = time.perf_counter()
            list(pool.map(_run_chunk, chunks))
            elapsed = time.perf_counter() - start
    return Throughput(f"{processes} process{'es' if processes > 1 else ''}", processes, len(notes), spans, chars, elapsed)


def run_benchmark(n: int = 2000, seed: int = 7, config: AnonymizerConfig | None = None) -> list[Throughput]:
    config = config or AnonymizerConfig()
    key = StudyKey.generate("benchmark")
    notes = fixed_corpus(n, seed)
    results = [measure(notes, key, config, 1)]
    cores = os.cpu_count() or 1
    if cores > 1:
        results.append(measure(notes, key, config, cores))
    return results


def format_results(results: list[Throughput]) -> str:
    lines = [f"{'configuration':<14} {'notes':>7} {'spans':>8} {'chars':>10} {'seconds':>8} {'spans/s':>10} {'chars/s':>12} {'notes/s':>9}"]
    for r in results:
        lines.append(
            f"{r.label:<14} {r.notes:>7} {r.spans:>8} {r.chars:>10} {r.seconds:>8.2f} "
            f"{r.spans_per_s:>10,.0f} {r.chars_per_s:>12,.0f} {r.notes_per_s:>9,.1f}"
        )
    return "\n".join(lines)
