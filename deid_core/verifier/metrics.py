"""AUROC and calibration for P(incomplete) scores, without scikit-learn."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def auroc(labels: Sequence[bool], scores: Sequence[float]) -> float | None:
    """Area under the ROC curve (ties count one half); None without both classes.

    It is the chance that a random incomplete candidate scores above a
    random complete one: the Mann-Whitney statistic over average ranks.
    """
    y = np.asarray(labels, dtype=bool)
    s = np.asarray(scores, dtype=np.float64)
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    if n_pos == 0 or n_neg == 0:
        return None
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s), dtype=np.float64)
    sorted_s = s[order]
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and sorted_s[j + 1] == sorted_s[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return float((ranks[y].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def flag_rates(labels: Sequence[bool], scores: Sequence[float], threshold: float) -> tuple[float, float]:
    """(share of candidates flagged, share of incomplete candidates among the flagged ones caught)."""
    y = np.asarray(labels, dtype=bool)
    f = np.asarray(scores, dtype=np.float64) > threshold
    flagged_share = float(f.mean()) if len(f) else 0.0
    caught = float((f & y).sum() / y.sum()) if y.any() else float("nan")
    return flagged_share, caught
