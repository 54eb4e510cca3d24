"""The detection slot of the pipeline, free of Celery and of any database.

Every recognizer kind reaches the pipeline as a :class:`BatchDetector`:
``detect_batch(notes) -> list[list[Span]]``, one span list per note, in
order.  :func:`as_batch_detector` adapts the rules pipeline's
``analyze_batch`` and any Presidio-shaped ``analyze(text)`` object.

GPU batches are formed by a token budget (:func:`token_batches`); a batch
that runs out of memory is split in halves and retried, down to single
notes (:func:`detect_isolated`).  Any other batch failure is retried note
by note, so one bad note fails alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from deid_core.normalization import detect_on_nfc
from deid_core.spans import Span


@dataclass(frozen=True, slots=True)
class DetectNote:
    id: str
    text: str
    patient_id: str | None = None


@runtime_checkable
class BatchDetector(Protocol):
    name: str
    version: str

    def detect_batch(self, notes: Sequence[DetectNote]) -> list[list[Span]]: ...


class DetectorError(RuntimeError):
    """A detector returned something unusable, or none is configured."""


class OutOfMemory(RuntimeError):
    """A single note does not fit on the device."""


def is_out_of_memory(exc: BaseException) -> bool:
    """CUDA and host OOMs under their usual names, without importing torch."""
    if isinstance(exc, (MemoryError, OutOfMemory)):
        return True
    name = type(exc).__name__
    return "OutOfMemory" in name or "out of memory" in str(exc).lower()


@dataclass
class _BatchAnalyzer:
    inner: object
    name: str
    version: str

    def detect_batch(self, notes: Sequence[DetectNote]) -> list[list[Span]]:
        return self.inner.analyze_batch(list(notes))  # type: ignore[attr-defined]


@dataclass
class _PerNote:
    inner: object
    name: str
    version: str

    def detect_batch(self, notes: Sequence[DetectNote]) -> list[list[Span]]:
        return [list(self.inner.analyze(n.text)) for n in notes]  # type: ignore[attr-defined]


def as_batch_detector(obj: object, name: str | None = None) -> BatchDetector:
    """Wrap whatever a factory returned so it answers ``detect_batch``."""
    label = name or str(getattr(obj, "name", type(obj).__name__))
    version = str(getattr(obj, "version", "1"))
    if callable(getattr(obj, "detect_batch", None)):
        return obj  # type: ignore[return-value]
    if callable(getattr(obj, "analyze_batch", None)):
        return _BatchAnalyzer(obj, label, version)
    if callable(getattr(obj, "analyze", None)):
        return _PerNote(obj, label, version)
    raise DetectorError(f"{label}: a detector needs detect_batch, analyze_batch or analyze")


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate (about four characters a token), for batching only."""
    return max(1, len(text) // 4)


def token_batches(sizes: Sequence[int], budget: int) -> list[list[int]]:
    """Group indices in order so each group's token sum stays within ``budget``.

    A note larger than the budget goes alone; the device decides whether it fits.
    """
    if budget <= 0:
        raise ValueError("token budget must be positive")
    groups: list[list[int]] = []
    current: list[int] = []
    used = 0
    for i, size in enumerate(sizes):
        if current and used + size > budget:
            groups.append(current)
            current, used = [], 0
        current.append(i)
        used += size
    if current:
        groups.append(current)
    return groups


@dataclass
class DetectOutcome:
    """Spans or an exception per note, plus how often a batch was split for memory."""

    results: list[list[Span] | BaseException]
    oom_splits: int = 0


def _checked(detector: BatchDetector, notes: Sequence[DetectNote]) -> list[list[Span]]:
    out = detector.detect_batch(notes)
    if not isinstance(out, list) or len(out) != len(notes):
        raise DetectorError(f"{detector.name}: returned {type(out).__name__} for {len(notes)} notes")
    for note, spans in zip(notes, out):
        for s in spans:
            if not isinstance(s, Span) or s.end > len(note.text):
                raise DetectorError(f"{detector.name}: invalid span for note {note.id!r}")
    return [list(s) for s in out]


def detect_isolated(
    detector: BatchDetector,
    notes: Sequence[DetectNote],
    on_split: Callable[[int], None] | None = None,
) -> DetectOutcome:
    """Detect ``notes`` in NFC (spans mapped back); out-of-memory halves the batch, other errors isolate the note."""
    outcome = DetectOutcome(results=[])

    def run(group: Sequence[DetectNote]) -> list[list[Span] | BaseException]:
        try:
            return list(_checked(detector, group))
        except Exception as exc:
            if is_out_of_memory(exc):
                if len(group) == 1:
                    return [OutOfMemory(f"note {group[0].id!r} does not fit on the device even alone")]
                outcome.oom_splits += 1
                if on_split is not None:
                    on_split(len(group))
                half = len(group) // 2
                return run(group[:half]) + run(group[half:])
            if len(group) == 1:
                return [exc]
            return [r for n in group for r in run([n])]

    outcome.results = detect_on_nfc(list(notes), run)
    return outcome
