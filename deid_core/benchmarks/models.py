"""Throughput of the model recognizers on a fixed synthetic corpus.

The encoder's figure is content tokens per second (special tokens and
padding excluded), the unit its batches are sized in; the generative
recognizer's is seconds per note, since its cost is generation length.
The same command runs on a CPU or, with ``--device cuda`` or a vLLM
server in the configuration, on a GPU.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from deid_core.benchmarks import Throughput
from deid_core.notes import ClinicalNote


@dataclass(frozen=True)
class ModelBenchResult:
    throughput: Throughput
    device: str
    content_tokens: int = 0
    windows: int = 0
    oom_splits: int = 0
    batch_tokens: int = 0

    @property
    def tokens_per_s(self) -> float:
        return self.content_tokens / self.throughput.seconds

    @property
    def seconds_per_note(self) -> float:
        return self.throughput.seconds / self.throughput.notes


def _corpus(notes: int, seed: int) -> list[str]:
    from deid_core.synth import generate_notes

    return [n.text for n in generate_notes(notes, seed)]


def bench_encoder(path: Path, notes: int, seed: int, device: str | None, batch_tokens: int | None = None) -> ModelBenchResult:
    from deid_core.recognizers.encoder import EncoderConfig, load_encoder

    rec = load_encoder(path, config=EncoderConfig(device=device, batch_tokens=batch_tokens))
    texts = _corpus(notes, seed)
    rec.analyze_batch(texts[:2])  # warm-up: first-call allocations are not throughput
    before = (rec.stats.content_tokens, rec.stats.windows, rec.stats.oom_splits)
    started = time.perf_counter()
    rec.analyze_batch(texts)
    seconds = time.perf_counter() - started
    s = rec.stats
    return ModelBenchResult(
        Throughput("encoder", len(texts), sum(map(len, texts)), seconds),
        rec.device,
        s.content_tokens - before[0],
        s.windows - before[1],
        s.oom_splits - before[2],
        rec.batch_tokens,
    )


def bench_generative(config: Mapping[str, object], notes: int, seed: int) -> ModelBenchResult:
    from deid_core.recognizers.generative import build_generative
    from deid_core.recognizers.pipeline import build_default_pipeline

    # As in the mix: a doubtful note escalates to the rules instead of failing.
    rec = build_generative(config, fallback=build_default_pipeline())
    texts = _corpus(notes, seed)
    started = time.perf_counter()
    rec.detect_batch([ClinicalNote(str(i), t, None) for i, t in enumerate(texts)])
    seconds = time.perf_counter() - started
    backend = rec.backend
    where = f"{backend.device} ({backend.name})" if hasattr(backend, "device") else backend.name
    return ModelBenchResult(Throughput("generative", len(texts), sum(map(len, texts)), seconds), where)


def format_model_bench(r: ModelBenchResult) -> str:
    t = r.throughput
    budget = f", {r.batch_tokens} tokens per batch" if r.batch_tokens else ""
    lines = [f"{t.label} on {r.device or 'its backend'}{budget}: {t.notes} notes, {t.chars} characters in {t.seconds:.2f} s"]
    if r.content_tokens:
        lines.append(f"  {r.tokens_per_s:,.0f} content tokens/s, {t.notes_per_s:.2f} notes/s, {r.windows} windows, {r.oom_splits} OOM splits")
    else:
        lines.append(f"  {r.seconds_per_note:.3f} s per note, {t.notes_per_s:.2f} notes/s")
    return "\n".join(lines)
