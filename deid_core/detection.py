"""The detection slot: every recognizer kind behind one batch call, failures isolated.

Every recognizer kind reaches the pipeline as a :class:`BatchDetector`:
``detect_batch(notes) -> list[list[Span]]``, one span list per note, in
order.  :func:`as_batch_detector` adapts the rules pipeline's
``analyze_batch``, a text-batch model's ``analyze_batch(texts)`` and any
Presidio-shaped ``analyze(text)`` object.

:func:`run_isolated` is the one place where a batch's failure is handled: a
batch that runs out of memory is split in halves and retried, down to
single notes; any other failure is retried note by note, so one bad note
fails alone and its spans are never silently left out.  GPU batches are
formed by a token budget (:func:`token_batches`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from deid_core.notes import ClinicalNote
from deid_core.spans import Span

NoteSpans = list[Span] | BaseException


@runtime_checkable
class BatchDetector(Protocol):
    name: str
    version: str

    def detect_batch(self, notes: Sequence[ClinicalNote]) -> list[list[Span]]: ...


class RecognizerError(RuntimeError):
    """A recognizer could not analyze a note (bad configuration, failed backend)."""


class DetectorError(RecognizerError):
    """A detector returned something unusable, or none is configured."""


class OutOfMemory(RuntimeError):
    """A single note does not fit on the device."""


def is_out_of_memory(exc: BaseException) -> bool:
    """CUDA and host OOMs under their usual names, without importing torch."""
    if isinstance(exc, (MemoryError, OutOfMemory)):
        return True
    name = type(exc).__name__
    return "OutOfMemory" in name or "out of memory" in str(exc).lower()


def check_spans(name: str, text: str, spans: Sequence[object]) -> list[Span]:
    """``spans`` as a list, or :class:`DetectorError` when one is not a span inside ``text``."""
    for s in spans:
        if not isinstance(s, Span) or s.end > len(text):
            raise DetectorError(f"recognizer {name!r} returned an invalid span {s!r}")
    return list(spans)  # type: ignore[arg-type]


@dataclass
class _BatchAnalyzer:
    inner: object
    name: str
    version: str

    def detect_batch(self, notes: Sequence[ClinicalNote]) -> list[list[Span]]:
        return self.inner.analyze_batch(list(notes))  # type: ignore[attr-defined]


@dataclass
class _TextBatch:
    """For recognizers whose ``analyze_batch`` takes texts (the encoder does)."""

    inner: object
    name: str
    version: str

    def detect_batch(self, notes: Sequence[ClinicalNote]) -> list[list[Span]]:
        return [list(s) for s in self.inner.analyze_batch([n.text for n in notes])]  # type: ignore[attr-defined]


@dataclass
class _PerNote:
    inner: object
    name: str
    version: str

    def detect_batch(self, notes: Sequence[ClinicalNote]) -> list[list[Span]]:
        from deid_core.recognizers.base import NoteContext

        return [list(self.inner.analyze(n.text, context=NoteContext(n.id, n.patient_id))) for n in notes]  # type: ignore[attr-defined]


def as_batch_detector(obj: object, name: str | None = None, *, texts: bool = False) -> BatchDetector:
    """Wrap whatever a factory returned so it answers ``detect_batch``.

    ``texts``: the object's ``analyze_batch`` takes texts, not notes.
    """
    label = name or str(getattr(obj, "name", type(obj).__name__))
    version = str(getattr(obj, "version", "1"))
    if callable(getattr(obj, "detect_batch", None)):
        return obj  # type: ignore[return-value]
    if callable(getattr(obj, "analyze_batch", None)):
        return (_TextBatch if texts else _BatchAnalyzer)(obj, label, version)
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

    results: list[NoteSpans]
    oom_splits: int = 0


def as_recognizer_error(name: str, exc: BaseException) -> BaseException:
    """``exc`` said as the failure of recognizer ``name`` (a :class:`RecognizerError` is kept as it is)."""
    if isinstance(exc, (RecognizerError, OutOfMemory)):
        return exc
    error = RecognizerError(f"recognizer {name!r} failed: {type(exc).__name__}: {exc}")
    error.__cause__ = exc
    return error


def run_isolated(
    name: str,
    batch: Callable[[Sequence[ClinicalNote]], Sequence[Sequence[object]]],
    notes: Sequence[ClinicalNote],
) -> DetectOutcome:
    """Run ``batch`` on ``notes``; out-of-memory halves the batch, other errors isolate the note.

    A note that fails alone gets its own exception back, so its error class is what went wrong.
    """
    outcome = DetectOutcome(results=[])

    def run(group: Sequence[ClinicalNote]) -> list[NoteSpans]:
        try:
            out = batch(group)
            if not isinstance(out, (list, tuple)) or len(out) != len(group):
                raise DetectorError(f"recognizer {name!r} returned {type(out).__name__} for {len(group)} notes")
            return [check_spans(name, n.text, s) for n, s in zip(group, out)]
        except Exception as exc:  # noqa: BLE001 - every failure is retried smaller, then fails closed
            if is_out_of_memory(exc):
                if len(group) == 1:
                    return [OutOfMemory(f"note {group[0].id!r} does not fit on the device even alone")]
                outcome.oom_splits += 1
                half = len(group) // 2
                return run(group[:half]) + run(group[half:])
            if len(group) == 1:
                return [exc]
            return [r for n in group for r in run([n])]

    outcome.results = run(list(notes)) if notes else []
    return outcome
