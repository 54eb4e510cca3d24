"""Fault-injecting recognizers, for tests and crash trials on a CPU.

They stand in for a GPU model in a worker's ``[fleet.models.*]`` table:
:func:`oom_detector` raises an out-of-memory error for batches above a size,
as CUDA does; :func:`crash_detector` kills its worker process on a marked
note, as a segfaulting kernel would.  Both delegate the real detection to
the rules pipeline.

:func:`on_receive` forces the window between a worker taking a message and
acknowledging it, which a random kill rarely hits: with
``DEID_FAULT_ON_RECEIVE=kill:N`` the N-th message a process receives kills
its whole worker (main process and pool) before the store hears of it;
with ``drop:N`` that message vanishes unrun, as one does when the main
process dies after taking it from Redis and before recording it as unacked.
"""

from __future__ import annotations

from functools import lru_cache
from deid_core.environment import FAULT_ON_RECEIVE
from deid_core.notes import ClinicalNote
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass

from deid_core.spans import Span
from deid_core.detection import BatchDetector

POISON_MARKER = "POISON-PILL"


class InjectedOutOfMemoryError(RuntimeError):
    """Named like torch's, so the OOM path treats it the same way."""


@lru_cache(maxsize=1)
def _rules() -> BatchDetector:
    from deid_core.detection import as_batch_detector
    from deid_core.recognizers.pipeline import build_default_pipeline

    return as_batch_detector(build_default_pipeline(), "rules")


@dataclass
class OomDetector:
    max_notes: int
    name: str = "fault-oom"
    version: str = "1"

    def detect_batch(self, notes: Sequence[ClinicalNote]) -> list[list[Span]]:
        if len(notes) > self.max_notes:
            raise InjectedOutOfMemoryError(f"CUDA out of memory (injected: batch of {len(notes)} > {self.max_notes})")
        return _rules().detect_batch(notes)


@dataclass
class CrashDetector:
    name: str = "fault-crash"
    version: str = "1"

    def detect_batch(self, notes: Sequence[ClinicalNote]) -> list[list[Span]]:
        if any(POISON_MARKER in n.text for n in notes):
            os._exit(70)
        return _rules().detect_batch(notes)


def oom_detector(device: str = "cpu", max_notes: int = 1) -> OomDetector:
    return OomDetector(max_notes=int(max_notes))


def crash_detector(device: str = "cpu") -> CrashDetector:
    return CrashDetector()


_RECEIVED = [0]


def on_receive() -> bool:
    """Apply ``DEID_FAULT_ON_RECEIVE`` to the message just received; True when it is to be dropped."""
    spec = FAULT_ON_RECEIVE.get()
    if not spec:
        return False
    action, _, nth = spec.partition(":")
    _RECEIVED[0] += 1
    if _RECEIVED[0] != int(nth or 1):
        return False
    if action == "kill":
        os.killpg(os.getpgid(0), signal.SIGKILL)
    return action == "drop"
