"""Label-blind scores: was the identifier's text found at all, whatever category it was given?

Seed paper 001's protocol for disclosure: a gold span is found when the
predictions, of any category, cover all of its characters; a prediction
counts when it overlaps some gold span.  A name called a place is still
replaced; a name left half-covered is not found.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from deid_core.evaluation.documents import EvalDocument
from deid_core.evaluation.readers import pair_documents
from deid_core.spans import Category


@dataclass(frozen=True)
class LabelBlind:
    found: int
    gold: int
    hits: int
    predicted: int

    @property
    def recall(self) -> float:
        return self.found / self.gold if self.gold else 0.0

    @property
    def precision(self) -> float:
        return self.hits / self.predicted if self.predicted else 0.0


def label_blind(gold: Sequence[EvalDocument], predictions: Sequence[EvalDocument]) -> LabelBlind:
    pairs, _ = pair_documents(gold, predictions)
    found = total = hits = predicted = 0
    for pair in pairs:
        scored = [g for g in pair.gold if g.category is not Category.OTHER]
        covered = bytearray(len(pair.text) + 1)
        for p in pair.predicted:
            covered[p.start : p.end] = b"\x01" * (p.end - p.start)
        total += len(scored)
        found += sum(1 for g in scored if all(covered[g.start : g.end]))
        predicted += len(pair.predicted)
        hits += sum(1 for p in pair.predicted if any(p.overlaps(g) for g in pair.gold))
    return LabelBlind(found, total, hits, predicted)


def format_label_blind(lb: LabelBlind) -> str:
    return (
        f"label-blind: recall {lb.recall:.3f} ({lb.found} of {lb.gold} gold spans covered by predictions of any category), "
        f"precision {lb.precision:.3f} ({lb.hits} of {lb.predicted} predictions overlap a gold span)"
    )
