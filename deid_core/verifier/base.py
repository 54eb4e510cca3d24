"""What a verifier is, and what "incomplete" means.

A verifier reads a note and a candidate annotation from any recognizer and
returns P(incomplete): the probability that some identifier in the note is
not fully covered by the candidate spans (paper 001).  Notes scoring above a
configured threshold go to human review; they are never released as
"checked" on the verifier's word alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from deid_core.spans import Span


class VerifierError(RuntimeError):
    """A verifier could not score a note (missing model, failed backend)."""


@runtime_checkable
class Verifier(Protocol):
    name: str

    def score(self, text: str, spans: Sequence[Span]) -> float:
        """P(incomplete) in [0, 1] for ``spans`` as the annotation of ``text``."""
        ...


def covered_intervals(spans: Iterable[Span]) -> list[tuple[int, int]]:
    """The union of the spans' character ranges, sorted and merged."""
    out: list[tuple[int, int]] = []
    for start, end in sorted((s.start, s.end) for s in spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def is_covered(start: int, end: int, intervals: Sequence[tuple[int, int]]) -> bool:
    """True when ``[start, end)`` lies inside one merged interval."""
    import bisect

    i = bisect.bisect_right(intervals, (start, float("inf"))) - 1
    return i >= 0 and intervals[i][0] <= start and end <= intervals[i][1]


def is_incomplete(gold: Sequence[Span], candidate: Sequence[Span]) -> bool:
    """The label a verifier predicts: some gold identifier is not fully covered.

    Coverage ignores the category: a name labelled as a place is still
    replaced, so it does not leak; a name covered only in part does.
    """
    intervals = covered_intervals(candidate)
    return any(not is_covered(g.start, g.end, intervals) for g in gold)


def flagged(score: float, threshold: float) -> bool:
    """A note goes to review when its score is above the threshold."""
    return score > threshold


_SUSPECTS = re.compile(
    r"\b\d{5,}\b"  # record numbers, accession numbers
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # e-mail
    r"|\bhttps?://\S+|\bwww\.\S+"  # URL
    r"|\b\d{1,2}[/-]\d{1,2}[/-]\d{2,4}\b"  # numeric date
    r"|\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b"  # phone
)


class ResidualPatternVerifier:
    """A conservative rule scorer for when no trained verifier is present.

    Each fixed-format string that looks like an identifier (long digit runs,
    e-mail addresses, URLs, numeric dates, phone numbers) and lies outside
    every candidate span halves the chance that the annotation is complete.
    """

    name = "residual-patterns/1"

    def score(self, text: str, spans: Sequence[Span]) -> float:
        intervals = covered_intervals(spans)
        misses = sum(1 for m in _SUSPECTS.finditer(text) if not is_covered(m.start(), m.end(), intervals))
        return 1.0 - 0.5**misses
