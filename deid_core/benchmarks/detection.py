"""Detection throughput on one fixed synthetic corpus: each rule recognizer,
the whole rules stage, the encoder alone, the default pipeline (rules and
encoder united and resolved, as ``deid detect`` runs them) and Presidio's
analyzer with a packaged small spaCy model, all on the same notes in one run.

Every system gets one untimed warm-up pass over a few notes (model and
automaton loading is start-up, not throughput), then runs the whole corpus
``repeat`` times; its row is the median run, so one pass slowed by another
process on a small machine does not decide the comparison.
"""

from __future__ import annotations

import statistics
import time
from typing import Callable, Sequence

from deid_core.benchmarks import Throughput
from deid_core.notes import ClinicalNote

RULES_STAGE = "rules: whole stage (resolution + propagation)"
ENCODER_ALONE = "encoder alone"
DEFAULT_PIPELINE = "default pipeline (rules + encoder)"
PRESIDIO = "presidio analyzer"


#: Timed runs of the whole corpus per system; the median is reported.
REPEAT = 3


def run_detection_benchmark(
    n: int = 300, seed: int = 11, *, presidio: bool = True, encoder: bool = True, repeat: int = REPEAT
) -> list[Throughput]:
    """One row per system; the encoder rows only when a default encoder is present."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")

    def _timed(system: str, texts: Sequence[str], run: Callable[[], object], warm: Callable[[], object]) -> Throughput:
        warm()
        seconds = []
        for _ in range(repeat):
            start = time.perf_counter()
            run()
            seconds.append(time.perf_counter() - start)
        return Throughput(system, len(texts), sum(len(t) for t in texts), statistics.median(seconds))

    from deid_core.recognizers.encoder import default_encoder_path
    from deid_core.recognizers.mix import build_mix
    from deid_core.recognizers.pipeline import DetectConfig, build_default_pipeline
    from deid_core.synth import generate_notes

    notes = [ClinicalNote(s.id, s.text, s.patient_id) for s in generate_notes(n, seed)]
    texts = [note.text for note in notes]
    pipeline = build_default_pipeline()
    rows = []
    for recognizer in pipeline.recognizers:
        rows.append(
            _timed(
                f"rules: {recognizer.name}",
                texts,
                lambda r=recognizer: [r.analyze(t) for t in texts],
                lambda r=recognizer: [r.analyze(t) for t in texts[:10]],
            )
        )
    rows.append(_timed(RULES_STAGE, texts, lambda: pipeline.analyze_batch(notes), lambda: pipeline.analyze_batch(notes[:10])))
    if encoder and default_encoder_path() is not None:
        detector = build_mix(DetectConfig(mix=("rules", "encoder")))
        alone = detector.members["encoder"].batch
        rows.append(_timed(ENCODER_ALONE, texts, lambda: alone(notes), lambda: alone(notes[:10])))
        rows.append(
            _timed(DEFAULT_PIPELINE, texts, lambda: detector.detect_batch(notes), lambda: detector.detect_batch(notes[:10]))
        )
    if presidio:
        from presidio_analyzer import AnalyzerEngine

        from deid_core.recognizers.presidio_adapter import installed_spacy_model, small_spacy_engine, use_offline_suffix_list

        use_offline_suffix_list()
        engine = AnalyzerEngine(nlp_engine=small_spacy_engine(), supported_languages=["en"])
        rows.append(
            _timed(
                f"{PRESIDIO} ({installed_spacy_model()})",
                texts,
                lambda: [engine.analyze(t, language="en") for t in texts],
                lambda: [engine.analyze(t, language="en") for t in texts[:10]],
            )
        )
    return rows


def format_detection(rows: list[Throughput]) -> str:
    width = max(len(r.label) for r in rows)
    lines = [f"{'system':<{width}}  {'notes':>6} {'chars':>9} {'seconds':>8} {'chars/s':>11} {'notes/s':>8}"]
    for r in rows:
        lines.append(
            f"{r.label:<{width}}  {r.notes:>6} {r.chars:>9} {r.seconds:>8.2f} {r.chars_per_s:>11,.0f} {r.notes_per_s:>8.1f}"
        )
    by_label = {r.label: r for r in rows}
    peer = next((r for r in rows if r.label.startswith(PRESIDIO)), None)
    if peer:
        lines.append("")
        for label, name in ((RULES_STAGE, "whole rules stage"), (DEFAULT_PIPELINE, "default pipeline")):
            if label in by_label:
                lines.append(f"{name} / presidio, characters per second: {by_label[label].chars_per_s / peer.chars_per_s:.1f}x")
    return "\n".join(lines)
