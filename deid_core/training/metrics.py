"""Span-level precision and recall for the model card.

A predicted span matches a gold span of the same category when their
character IoU reaches ``iou``; matching is one-to-one within a note (best
pairs first).  OTHER is not scored, as in the evaluation protocol.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from deid_core.spans import SCORED_CATEGORIES, Span


@dataclass(frozen=True)
class CategoryScore:
    category: str
    gold: int
    predicted: int
    matched: int

    @property
    def precision(self) -> float:
        return self.matched / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.matched / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_json(self) -> dict:
        out = asdict(self)
        out.update(precision=round(self.precision, 4), recall=round(self.recall, 4), f1=round(self.f1, 4))
        return out


def iou(a: Span, b: Span) -> float:
    inter = min(a.end, b.end) - max(a.start, b.start)
    if inter <= 0:
        return 0.0
    return inter / (max(a.end, b.end) - min(a.start, b.start))


def count_matches(gold: Sequence[Span], predicted: Sequence[Span], threshold: float) -> int:
    """One-to-one matches between two span lists of one category in one note."""
    pairs = sorted(
        ((iou(g, p), i, j) for i, g in enumerate(gold) for j, p in enumerate(predicted)),
        reverse=True,
    )
    used_g: set[int] = set()
    used_p: set[int] = set()
    for value, i, j in pairs:
        if value < threshold:
            break
        if i in used_g or j in used_p:
            continue
        used_g.add(i)
        used_p.add(j)
    return len(used_g)


def score_spans(
    gold_notes: Iterable[Sequence[Span]],
    predicted_notes: Iterable[Sequence[Span]],
    threshold: float = 0.5,
) -> dict[str, CategoryScore]:
    """Per-category scores plus ``micro`` (pooled counts over the nine categories)."""
    counts = {c: [0, 0, 0] for c in SCORED_CATEGORIES}
    gold_list, pred_list = list(gold_notes), list(predicted_notes)
    if len(gold_list) != len(pred_list):
        raise ValueError(f"{len(gold_list)} gold notes but {len(pred_list)} predicted")
    for gold, pred in zip(gold_list, pred_list):
        for cat in SCORED_CATEGORIES:
            g = [s for s in gold if s.category is cat]
            p = [s for s in pred if s.category is cat]
            counts[cat][0] += len(g)
            counts[cat][1] += len(p)
            counts[cat][2] += count_matches(g, p, threshold) if g and p else 0
    out = {c.value: CategoryScore(c.value, *counts[c]) for c in SCORED_CATEGORIES}
    out["micro"] = CategoryScore(
        "micro",
        sum(v[0] for v in counts.values()),
        sum(v[1] for v in counts.values()),
        sum(v[2] for v in counts.values()),
    )
    return out


def macro_f1(scores: dict[str, CategoryScore]) -> float:
    """Mean F1 over the scored categories that have gold spans."""
    present = [s for k, s in scores.items() if k != "micro" and s.gold > 0]
    return sum(s.f1 for s in present) / len(present) if present else 0.0


__all__ = ["CategoryScore", "count_matches", "iou", "macro_f1", "score_spans"]
