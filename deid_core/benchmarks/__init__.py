"""Throughput benchmarks that print figures (never timed tests)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Throughput:
    """One timed run: what went through, and how long it took."""

    label: str
    notes: int
    chars: int
    seconds: float

    @property
    def chars_per_s(self) -> float:
        return self.chars / self.seconds

    @property
    def notes_per_s(self) -> float:
        return self.notes / self.seconds
