"""Recall on the gold spans that hold a known identifier: the floor a known list promises.

A gold span counts as *known* when its text is a form of a value in its
patient's record (:meth:`deid_core.recognizers.known.KnownIndex.holds`): a
name whose tokens are the person's (or one edit from them), an identifier or
phone with the same characters, a date of birth in any format.  With the
record given, every such span should be found.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from deid_core.evaluation.documents import EvalDocument
from deid_core.evaluation.matching import match_spans
from deid_core.known import KnownSet
from deid_core.recognizers.known import KnownIdentifierRecognizer
from deid_core.spans import Category

KNOWN_CATEGORIES: tuple[Category, ...] = (Category.PATIENT, Category.DOCTOR, Category.ID, Category.PHONE, Category.DATE)


@dataclass(frozen=True, slots=True)
class KnownRecall:
    category: Category
    total: int
    found: int

    @property
    def recall(self) -> float | None:
        return self.found / self.total if self.total else None


def known_recall(
    gold: Sequence[EvalDocument],
    predicted: Sequence[EvalDocument],
    patients: Mapping[str, str | None],
    known: KnownSet,
    tau: float,
) -> list[KnownRecall]:
    """Per category: how many known gold spans there are and how many a prediction matched at ``tau``."""
    compiler = KnownIdentifierRecognizer(known)
    by_id = {d.id: d for d in predicted}
    totals = {c: [0, 0] for c in KNOWN_CATEGORIES}
    for doc in gold:
        index = compiler.index_for(patients.get(doc.id))
        if index is None or doc.text is None:
            continue
        held = [g for g in doc.spans if g.category in totals and index.holds(g.category, doc.text[g.start : g.end])]
        pred = by_id.get(doc.id)
        matched = {m.gold for m in match_spans(held, pred.spans, tau)} if pred is not None else set()
        for i, g in enumerate(held):
            totals[g.category][0] += 1
            totals[g.category][1] += i in matched
    return [KnownRecall(c, t, f) for c, (t, f) in totals.items()]


def format_known_recall(rows: Sequence[tuple[str, Sequence[KnownRecall]]], tau: float) -> str:
    """One line per system: found/total and recall for each category with known gold spans."""
    cats = [c for c in KNOWN_CATEGORIES if any(r.category is c and r.total for _, rs in rows for r in rs)]
    head = f"{'system':<24}" + "".join(f"{c.value:>18}" for c in cats)
    lines = [f"recall on gold spans that hold a known identifier (IoU >= {tau:g})", head, "-" * len(head)]
    for name, recalls in rows:
        got = {r.category: r for r in recalls}
        cells = "".join(f"{f'{got[c].found}/{got[c].total} {got[c].recall:.3f}':>18}" for c in cats)
        lines.append(f"{name:<24}{cells}")
    return "\n".join(lines)
