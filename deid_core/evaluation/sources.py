"""False positives by where they came from, and per 1,000 words.

Every detected span names the recognizers that found it (``names/title``,
``names/title+propagation<names/title``, ``encoder``).  Counting the spans
that match no gold span of their label by that source shows which rule, or
which propagation, produces the noise; dividing by the words of the notes
gives a rate that means something on text with no identifiers at all.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from deid_core.evaluation.documents import EvalDocument
from deid_core.evaluation.matching import _relabel, match_spans
from deid_core.evaluation.readers import pair_documents

_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class FalsePositives:
    """False positives at one IoU threshold: how many, over how many words, and by source."""

    tau: float
    count: int
    words: int
    by_source: tuple[tuple[str, int], ...]

    @property
    def per_1000_words(self) -> float:
        return 1000.0 * self.count / self.words if self.words else 0.0


def false_positives(
    gold: Sequence[EvalDocument], predictions: Sequence[EvalDocument], tau: float, *, pool_names: bool = False
) -> FalsePositives:
    """Predicted spans that match no gold span of their label at ``tau``, counted by their source."""
    pairs, _ = pair_documents(gold, predictions)
    by_source: Counter[str] = Counter()
    words = 0
    for pair in pairs:
        words += len(_WORD.findall(pair.text))
        gold_by = _relabel(pair.gold, pool_names)
        for label, predicted in _relabel(pair.predicted, pool_names).items():
            matched = {m.predicted for m in match_spans(gold_by.get(label, []), predicted, tau)} if label in gold_by else set()
            for i, span in enumerate(predicted):
                if i not in matched:
                    by_source[span.source or "(none)"] += 1
    ranked = tuple(sorted(by_source.items(), key=lambda kv: (-kv[1], kv[0])))
    return FalsePositives(tau, sum(by_source.values()), words, ranked)
