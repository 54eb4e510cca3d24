"""Fault-injecting recognizers, for tests and crash trials on a CPU.

They stand in for a GPU model in a worker's ``[fleet.models.*]`` table:
:func:`oom_detector` raises an out-of-memory error for batches above a size,
as CUDA does; :func:`crash_detector` kills its worker process on a marked
note, as a segfaulting kernel would.  Both delegate the real detection to
the rules pipeline.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from deid_core.spans import Span
from tasks.detect import BatchDetector, DetectNote

POISON_MARKER = "POISON-PILL"


class InjectedOutOfMemoryError(RuntimeError):
    """Named like torch's, so the OOM path treats it the same way."""


def _rules() -> BatchDetector:
    from workers.models import get_detector

    return get_detector("rules", device="cpu")


@dataclass
class OomDetector:
    max_notes: int
    name: str = "fault-oom"
    version: str = "1"

    def detect_batch(self, notes: Sequence[DetectNote]) -> list[list[Span]]:
        if len(notes) > self.max_notes:
            raise InjectedOutOfMemoryError(f"CUDA out of memory (injected: batch of {len(notes)} > {self.max_notes})")
        return _rules().detect_batch(notes)


@dataclass
class CrashDetector:
    name: str = "fault-crash"
    version: str = "1"

    def detect_batch(self, notes: Sequence[DetectNote]) -> list[list[Span]]:
        if any(POISON_MARKER in n.text for n in notes):
            os._exit(70)
        return _rules().detect_batch(notes)


def oom_detector(device: str = "cpu", max_notes: int = 1) -> OomDetector:
    return OomDetector(max_notes=int(max_notes))


def crash_detector(device: str = "cpu") -> CrashDetector:
    return CrashDetector()
