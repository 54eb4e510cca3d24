"""Corpus metrics with document-level bootstrap intervals (paper 000, Methods).

Every metric is a function of per-document counts, so the corpus is first
reduced to one row of counts per document (TP/FP/FN per category and
threshold, a leak-free flag per threshold, covered and total gold
characters).  A bootstrap resample is then a vector of document
multiplicities, and all 2,000 resamples are one matrix product: the counts
of every resample at once, from which every metric is computed in bulk.
The same resamples serve every metric, so intervals are paired.

Conventions: a ratio with a zero denominator is 0 (a category with gold
spans and no predictions has precision 0, as the paper counts recognizers
without a label); macro averages are unweighted means over the scored
categories, F1/F2 per category included; micro F-scores come from the
pooled precision and recall.  The zero-leak rate is the share of
documents in which every gold span is matched at the threshold (paper 001:
notes with no missed PHI); a document without gold spans counts as
leak-free.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from deid_core.evaluation.documents import EvalDocument, EvalInputError, PredictionIssue
from deid_core.evaluation.matching import as_threshold, char_coverage, count_document, scored_labels
from deid_core.evaluation.readers import ScoredPair, pair_documents

PRIMARY_TAU = 0.8
SENSITIVITY_TAU = 0.5


@dataclass(frozen=True, slots=True)
class EvalConfig:
    taus: tuple[float, ...] = (PRIMARY_TAU, SENSITIVITY_TAU)
    pool_names: bool = False
    n_bootstrap: int = 2000
    seed: int = 42
    confidence: float = 0.95

    def __post_init__(self) -> None:
        if not self.taus:
            raise ValueError("at least one IoU threshold is needed")
        for tau in self.taus:
            as_threshold(tau)
        if len(set(self.taus)) != len(self.taus):
            raise ValueError(f"IoU thresholds repeat: {self.taus}")
        if self.n_bootstrap < 0:
            raise ValueError("the number of bootstrap resamples cannot be negative")
        if not (0 < self.confidence < 1):
            raise ValueError("confidence must lie in (0, 1)")


@dataclass(frozen=True, slots=True)
class Estimate:
    """A point estimate with its bootstrap interval (``None`` without resampling)."""

    value: float
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True, slots=True)
class Scores:
    precision: Estimate
    recall: Estimate
    f1: Estimate
    f2: Estimate


@dataclass(frozen=True, slots=True)
class CategoryResult:
    """Counts and scores of one category, or of the pooled (micro) counts."""

    category: str
    gold: int
    predicted: int
    tp: int
    fp: int
    fn: int
    scores: Scores


@dataclass(frozen=True, slots=True)
class TauResult:
    tau: float
    categories: tuple[CategoryResult, ...]
    micro: CategoryResult
    macro: Scores
    zero_leak: Estimate
    leak_free_documents: int

    def category(self, name: str) -> CategoryResult:
        for c in self.categories:
            if c.category == name:
                return c
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class CharRecall:
    estimate: Estimate
    covered: int
    gold: int


@dataclass(frozen=True, slots=True)
class EvalResult:
    config: EvalConfig
    n_documents: int
    labels: tuple[str, ...]
    by_tau: tuple[TauResult, ...]
    char_recall: CharRecall
    issues: tuple[PredictionIssue, ...] = field(default=())

    def at(self, tau: float) -> TauResult:
        for r in self.by_tau:
            if r.tau == tau:
                return r
        raise KeyError(tau)


# ----------------------------------------------------------------------------
# Per-document count rows


@dataclass(frozen=True, slots=True)
class _Layout:
    n_taus: int
    n_labels: int

    def counts(self, t: int) -> slice:
        """Columns tp, fp, fn for every label at threshold index ``t``."""
        base = t * self.n_labels * 3
        return slice(base, base + self.n_labels * 3)

    def leak_free(self, t: int) -> int:
        return self.n_taus * self.n_labels * 3 + t

    @property
    def char_covered(self) -> int:
        return self.n_taus * self.n_labels * 3 + self.n_taus

    @property
    def char_gold(self) -> int:
        return self.char_covered + 1

    @property
    def width(self) -> int:
        return self.char_gold + 1


def _count_rows(pairs: Sequence[ScoredPair], config: EvalConfig, labels: tuple[str, ...]) -> np.ndarray:
    layout = _Layout(len(config.taus), len(labels))
    rows = np.zeros((len(pairs), layout.width), dtype=np.int64)
    thresholds = [as_threshold(t) for t in config.taus]
    for d, pair in enumerate(pairs):
        for t, tau in enumerate(thresholds):
            counts = count_document(pair.gold, pair.predicted, tau, pool_names=config.pool_names)
            flat = [v for label in labels for v in (counts[label].tp, counts[label].fp, counts[label].fn)]
            rows[d, layout.counts(t)] = flat
            rows[d, layout.leak_free(t)] = int(all(counts[label].fn == 0 for label in labels))
        covered, total = char_coverage(pair.gold, pair.predicted)
        rows[d, layout.char_covered] = covered
        rows[d, layout.char_gold] = total
    return rows


# ----------------------------------------------------------------------------
# Metrics over count totals; works on one total row or a (B, width) block


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den > 0)


def _fbeta(p: np.ndarray, r: np.ndarray, beta: float) -> np.ndarray:
    b2 = beta * beta
    return _ratio((1 + b2) * p * r, b2 * p + r)


def _metrics(totals: np.ndarray, layout: _Layout, n_docs: np.ndarray | float) -> dict[str, np.ndarray]:
    """Named metric arrays: per-label ones end in a label axis, the rest are scalars per row."""
    out: dict[str, np.ndarray] = {}
    for t in range(layout.n_taus):
        block = totals[..., layout.counts(t)].reshape(*totals.shape[:-1], layout.n_labels, 3)
        tp, fp, fn = block[..., 0], block[..., 1], block[..., 2]
        p, r = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
        out[f"{t}.cat.precision"] = p
        out[f"{t}.cat.recall"] = r
        out[f"{t}.cat.f1"] = _fbeta(p, r, 1.0)
        out[f"{t}.cat.f2"] = _fbeta(p, r, 2.0)
        stp, sfp, sfn = tp.sum(-1), fp.sum(-1), fn.sum(-1)
        mp, mr = _ratio(stp, stp + sfp), _ratio(stp, stp + sfn)
        out[f"{t}.micro.precision"] = mp
        out[f"{t}.micro.recall"] = mr
        out[f"{t}.micro.f1"] = _fbeta(mp, mr, 1.0)
        out[f"{t}.micro.f2"] = _fbeta(mp, mr, 2.0)
        for name in ("precision", "recall", "f1", "f2"):
            out[f"{t}.macro.{name}"] = out[f"{t}.cat.{name}"].mean(-1)
        out[f"{t}.zero_leak"] = _ratio(totals[..., layout.leak_free(t)], n_docs)
    out["char_recall"] = _ratio(totals[..., layout.char_covered], totals[..., layout.char_gold])
    return out


def _resample_weights(rng: np.random.Generator, n_docs: int, n_boot: int) -> np.ndarray:
    """Document multiplicities, shape ``(n_boot, n_docs)``: row b counts how often
    each document was drawn (with replacement) in resample b."""
    draws = rng.integers(0, n_docs, size=(n_boot, n_docs))
    offsets = (np.arange(n_boot, dtype=np.int64) * n_docs)[:, None]
    return np.bincount((draws + offsets).ravel(), minlength=n_boot * n_docs).reshape(n_boot, n_docs)


def bootstrap_totals(rows: np.ndarray, n_boot: int, seed: int) -> np.ndarray:
    """Column totals of ``rows`` under ``n_boot`` document resamples, shape ``(n_boot, width)``."""
    n_docs = rows.shape[0]
    rng = np.random.default_rng(seed)
    # Resamples are drawn in chunks to bound memory; the chunk size depends
    # only on the corpus size, so one seed always gives the same resamples.
    chunk = max(1, 4_000_000 // max(1, n_docs))
    values = rows.astype(np.float64)  # BLAS product; counts stay exact below 2**53
    parts = []
    for done in range(0, n_boot, chunk):
        weights = _resample_weights(rng, n_docs, min(chunk, n_boot - done))
        parts.append(weights.astype(np.float64) @ values)
    if not parts:
        return np.zeros((0, rows.shape[1]), dtype=np.int64)
    return np.rint(np.concatenate(parts)).astype(np.int64)


# ----------------------------------------------------------------------------
# Entry points


def score_pairs(
    pairs: Sequence[ScoredPair], config: EvalConfig = EvalConfig(), issues: Sequence[PredictionIssue] = ()
) -> EvalResult:
    if not pairs:
        raise EvalInputError("no gold documents to score")
    labels = scored_labels(config.pool_names)
    layout = _Layout(len(config.taus), len(labels))
    rows = _count_rows(pairs, config, labels)
    n = len(pairs)
    totals = rows.sum(axis=0)
    point = _metrics(totals, layout, float(n))
    intervals: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    if config.n_bootstrap > 0:
        boot = _metrics(bootstrap_totals(rows, config.n_bootstrap, config.seed), layout, float(n))
        tail = 100 * (1 - config.confidence) / 2
        for key, values in boot.items():
            lo, hi = np.percentile(values, [tail, 100 - tail], axis=0)
            intervals[key] = (lo, hi)

    def est(key: str, index: int | None = None) -> Estimate:
        value = point[key] if index is None else point[key][index]
        if key not in intervals:
            return Estimate(float(value))
        lo, hi = intervals[key]
        if index is not None:
            lo, hi = lo[index], hi[index]
        return Estimate(float(value), float(lo), float(hi))

    def scores(prefix: str, index: int | None = None) -> Scores:
        return Scores(*(est(f"{prefix}.{m}", index) for m in ("precision", "recall", "f1", "f2")))

    by_tau = []
    for t, tau in enumerate(config.taus):
        block = totals[layout.counts(t)].reshape(len(labels), 3)
        cats = tuple(
            CategoryResult(label, int(tp + fn), int(tp + fp), int(tp), int(fp), int(fn), scores(f"{t}.cat", i))
            for i, (label, (tp, fp, fn)) in enumerate(zip(labels, block))
        )
        stp, sfp, sfn = (int(v) for v in block.sum(axis=0))
        micro = CategoryResult("micro", stp + sfn, stp + sfp, stp, sfp, sfn, scores(f"{t}.micro"))
        by_tau.append(
            TauResult(
                tau=tau,
                categories=cats,
                micro=micro,
                macro=scores(f"{t}.macro"),
                zero_leak=est(f"{t}.zero_leak"),
                leak_free_documents=int(totals[layout.leak_free(t)]),
            )
        )
    char = CharRecall(est("char_recall"), int(totals[layout.char_covered]), int(totals[layout.char_gold]))
    return EvalResult(config, n, labels, tuple(by_tau), char, tuple(issues))


def evaluate(
    gold: Sequence[EvalDocument],
    predictions: Sequence[EvalDocument],
    config: EvalConfig = EvalConfig(),
    *,
    issues: Sequence[PredictionIssue] = (),
) -> EvalResult:
    """Score predictions against gold (both already crosswalked)."""
    pairs, join_issues = pair_documents(gold, predictions)
    return score_pairs(pairs, config, [*issues, *join_issues])
