"""Span matching (paper 000, Methods, eq. 1) and per-document counts.

A predicted span matches a gold span of the same category when
``|s ∩ ŝ| / |s ∪ ŝ| >= tau``.  IoU is compared in exact rational arithmetic
so a span that sits exactly on the threshold matches no matter how the
threshold was written (0.8 is not exactly representable as a float).

Matching is one-to-one per document and category, greedy by descending IoU
(ties: earlier gold, then earlier prediction).  For tau > 0.5 greedy is also
optimal when gold spans do not overlap one another, because a prediction
can then clear the threshold against at most one gold span; at tau <= 0.5 a
contrived prediction spanning two gold halves could make greedy lose a
match that an optimal assignment would keep.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from deid_core.spans import Category, Span

NAME = "NAME"  # DOCTOR and PATIENT pooled (paper 000, Table S14)


def as_threshold(tau: float | str | Fraction) -> Fraction:
    """The threshold as an exact fraction: 0.8 -> 4/5 (from its decimal spelling)."""
    value = tau if isinstance(tau, Fraction) else Fraction(str(tau))
    if not (0 < value <= 1):
        raise ValueError(f"IoU threshold must lie in (0, 1], got {tau}")
    return value


def iou(a: Span, b: Span) -> Fraction:
    inter = min(a.end, b.end) - max(a.start, b.start)
    if inter <= 0:
        return Fraction(0)
    return Fraction(inter, a.length + b.length - inter)


def scoring_label(category: Category, pool_names: bool = False) -> str | None:
    """The label a span is scored under; ``None`` for the unscored OTHER."""
    if category is Category.OTHER:
        return None
    if pool_names and category in (Category.DOCTOR, Category.PATIENT):
        return NAME
    return category.value


def scored_labels(pool_names: bool = False) -> tuple[str, ...]:
    """The nine scored categories, or eight with DOCTOR and PATIENT pooled as NAME."""
    labels: list[str] = []
    for c in Category:
        label = scoring_label(c, pool_names)
        if label is not None and label not in labels:
            labels.append(label)
    return tuple(labels)


@dataclass(frozen=True, slots=True)
class Match:
    gold: int  # index into the gold sequence
    predicted: int  # index into the predicted sequence
    iou: Fraction


def match_spans(gold: Sequence[Span], predicted: Sequence[Span], tau: float | Fraction) -> tuple[Match, ...]:
    """One-to-one matches between spans of equal category with IoU >= tau."""
    threshold = as_threshold(tau)
    candidates: list[tuple[Fraction, int, int]] = []
    for gi, g in enumerate(gold):
        for pi, p in enumerate(predicted):
            if g.category is not p.category or not g.overlaps(p):
                continue
            score = iou(g, p)
            if score >= threshold:
                candidates.append((score, gi, pi))
    candidates.sort(key=lambda c: (-c[0], gold[c[1]].start, predicted[c[2]].start, c[1], c[2]))
    used_gold: set[int] = set()
    used_pred: set[int] = set()
    matches: list[Match] = []
    for score, gi, pi in candidates:
        if gi in used_gold or pi in used_pred:
            continue
        used_gold.add(gi)
        used_pred.add(pi)
        matches.append(Match(gi, pi, score))
    return tuple(sorted(matches, key=lambda m: m.gold))


@dataclass(frozen=True, slots=True)
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)


def _relabel(spans: Iterable[Span], pool_names: bool) -> dict[str, list[Span]]:
    groups: dict[str, list[Span]] = {}
    for s in spans:
        label = scoring_label(s.category, pool_names)
        if label is None:
            continue
        # Matching compares categories, so pooled spans share one category.
        category = Category.DOCTOR if label == NAME else s.category
        groups.setdefault(label, []).append(Span(s.start, s.end, category, s.score, s.source))
    return groups


def count_document(
    gold: Sequence[Span], predicted: Sequence[Span], tau: float | Fraction, *, pool_names: bool = False
) -> dict[str, Counts]:
    """TP/FP/FN per scored label for one document; OTHER spans are ignored."""
    gold_by = _relabel(gold, pool_names)
    pred_by = _relabel(predicted, pool_names)
    out: dict[str, Counts] = {}
    for label in scored_labels(pool_names):
        g, p = gold_by.get(label, []), pred_by.get(label, [])
        tp = len(match_spans(g, p, tau)) if g and p else 0
        out[label] = Counts(tp, len(p) - tp, len(g) - tp)
    return out


def _union(intervals: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for s, e in sorted(intervals):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def char_coverage(gold: Sequence[Span], predicted: Sequence[Span]) -> tuple[int, int]:
    """``(covered, total)`` gold PHI characters, whatever the categories.

    Gold OTHER is left out as unscored; a predicted span of any category,
    OTHER included, covers characters, because the anonymizer replaces it.
    """
    g = _union((s.start, s.end) for s in gold if s.category is not Category.OTHER)
    p = _union((s.start, s.end) for s in predicted)
    total = sum(e - s for s, e in g)
    covered = 0
    j = 0
    for gs, ge in g:
        while j < len(p) and p[j][1] <= gs:
            j += 1
        k = j
        while k < len(p) and p[k][0] < ge:
            covered += min(ge, p[k][1]) - max(gs, p[k][0])
            k += 1
    return covered, total
