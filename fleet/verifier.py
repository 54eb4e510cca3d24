"""The verify stage's default scorer: how likely is an annotation incomplete?

The learned verifier of the generative paper returns P(incomplete) for a
note and a candidate annotation.  Until a model fills the slot, this rule
scorer gives a conservative stand-in: fixed-format strings that look like
identifiers (long digit runs, e-mail addresses, URLs, numeric dates) and lie
outside every detected span each raise the score.  Notes above the
threshold are flagged for review; they are not held back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from deid_core.spans import Span


class Verifier(Protocol):
    name: str

    def score(self, text: str, spans: Sequence[Span]) -> float: ...


_SUSPECTS = re.compile(
    r"\b\d{5,}\b"  # record numbers, accession numbers
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"  # e-mail
    r"|\bhttps?://\S+|\bwww\.\S+"  # URL
    r"|\b\d{1,2}[/-]\d{1,2}[/-]\d{2,4}\b"  # numeric date
    r"|\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b"  # phone
)


class ResidualPatternVerifier:
    name = "residual-patterns/1"

    def score(self, text: str, spans: Sequence[Span]) -> float:
        covered = sorted((s.start, s.end) for s in spans)
        misses = 0
        for m in _SUSPECTS.finditer(text):
            if not any(start <= m.start() and m.end() <= end for start, end in covered):
                misses += 1
        return 1.0 - 0.5**misses
