"""The CPU verifier: gradient-boosted trees over what the candidate left uncovered.

Trained with scikit-learn, stored as plain JSON (the trees' split features,
thresholds and leaf values), and evaluated with numpy alone: loading a model
directory never unpickles anything, and scoring needs no scikit-learn.
"""

from __future__ import annotations

from deid_core.environment import VERIFIER_DIR
import hashlib
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from deid_core.spans import Span
from deid_core.verifier.base import VerifierError
from deid_core.verifier.features import FEATURE_NAMES, NoteAnalysis, analyze_note, candidate_features

VERIFIER_DIR_ENV = VERIFIER_DIR.name
MODEL_FILE = "verifier.json"
FORMAT = "deid-gbt/1"


def repo_verifier_dir() -> Path:
    """Where ``deid train verifier`` writes by default: ``models/verifier/`` at the repo root."""
    return Path(__file__).resolve().parents[2] / "models" / "verifier"


def default_verifier_path() -> Path | None:
    """The trained verifier to load, or None when there is none.

    ``DEID_VERIFIER_DIR`` wins when set, even if it holds no model, so an
    operator who asked for one gets a load failure rather than a silent
    fall-back to the rule scorer; ``none`` asks for the rule scorer.
    """
    override = VERIFIER_DIR.get().strip()
    if override.lower() == "none":
        return None
    if override:
        return Path(override).expanduser()
    candidate = repo_verifier_dir()
    return candidate if (candidate / MODEL_FILE).is_file() else None


@dataclass(frozen=True)
class _Tree:
    feature: np.ndarray  # -1 at a leaf
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    value: np.ndarray

    def predict(self, X: np.ndarray) -> np.ndarray:
        node = np.zeros(len(X), dtype=np.int64)
        rows = np.arange(len(X))
        while True:
            f = self.feature[node]
            inner = f >= 0
            if not inner.any():
                return self.value[node]
            go_left = X[rows[inner], f[inner]] <= self.threshold[node[inner]]
            node[inner] = np.where(go_left, self.left[node[inner]], self.right[node[inner]])


@dataclass(frozen=True)
class TreeModel:
    """log-odds = ``init`` + ``learning_rate`` x the sum of the trees' leaf values."""

    feature_names: tuple[str, ...]
    init: float
    learning_rate: float
    trees: tuple[_Tree, ...]

    def log_odds(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64).reshape(-1, len(self.feature_names))
        out = np.full(len(X), self.init)
        for t in self.trees:
            out += self.learning_rate * t.predict(X)
        return out

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        z = np.clip(self.log_odds(X), -50.0, 50.0)
        return 1.0 / (1.0 + np.exp(-z))

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "feature_names": list(self.feature_names),
            "init": self.init,
            "learning_rate": self.learning_rate,
            "trees": [
                {k: getattr(t, k).tolist() for k in ("feature", "threshold", "left", "right", "value")} for t in self.trees
            ],
        }

    @classmethod
    def from_json(cls, raw: dict) -> "TreeModel":
        if raw.get("format") != FORMAT:
            raise VerifierError(f"unknown verifier model format {raw.get('format')!r} (expected {FORMAT})")
        trees = tuple(
            _Tree(
                np.asarray(t["feature"], dtype=np.int64),
                np.asarray(t["threshold"], dtype=np.float64),
                np.asarray(t["left"], dtype=np.int64),
                np.asarray(t["right"], dtype=np.int64),
                np.asarray(t["value"], dtype=np.float64),
            )
            for t in raw["trees"]
        )
        return cls(tuple(raw["feature_names"]), float(raw["init"]), float(raw["learning_rate"]), trees)

    @classmethod
    def from_sklearn(cls, model, feature_names: Sequence[str]) -> "TreeModel":
        """Export a fitted binary ``GradientBoostingClassifier`` (log-loss)."""
        prior = float(model.init_.class_prior_[1])
        init = math.log(prior / (1.0 - prior))
        trees = []
        for est in model.estimators_[:, 0]:
            t = est.tree_
            trees.append(
                _Tree(
                    np.where(t.children_left < 0, -1, t.feature).astype(np.int64),
                    t.threshold.astype(np.float64),
                    t.children_left.astype(np.int64),
                    t.children_right.astype(np.int64),
                    t.value[:, 0, 0].astype(np.float64),
                )
            )
        return cls(tuple(feature_names), init, float(model.learning_rate), tuple(trees))


class CpuVerifier:
    """P(incomplete) from the trained trees; a few milliseconds per note on a CPU."""

    def __init__(self, model: TreeModel, version: str = "0") -> None:
        if tuple(model.feature_names) != FEATURE_NAMES:
            raise VerifierError(
                "the verifier model was trained on other features than this code computes; retrain it "
                "with `deid train verifier`"
            )
        self.model = model
        self.version = version
        self.name = f"cpu-gbt/{version}"

    def score_analysis(self, analysis: NoteAnalysis, candidates: Sequence[Sequence[Span]]) -> list[float]:
        """Scores for several candidate annotations of one analysed note."""
        if not candidates:
            return []
        X = np.stack([candidate_features(analysis, c) for c in candidates])
        return [float(p) for p in self.model.predict_proba(X)]

    def score(self, text: str, spans: Sequence[Span]) -> float:
        return self.score_analysis(analyze_note(text), [spans])[0]


def load_cpu_verifier(path: str | os.PathLike[str]) -> CpuVerifier:
    model_dir = Path(path).expanduser()
    file = model_dir / MODEL_FILE
    if not file.is_file():
        raise VerifierError(f"verifier model directory {model_dir} has no {MODEL_FILE}; train one with `deid train verifier`")
    raw_bytes = file.read_bytes()
    try:
        model = TreeModel.from_json(json.loads(raw_bytes))
    except (ValueError, KeyError, TypeError) as exc:
        raise VerifierError(f"cannot read the verifier model {file}: {exc}") from None
    return CpuVerifier(model, hashlib.sha256(raw_bytes).hexdigest()[:12])


def load_default_verifier() -> CpuVerifier | None:
    path = default_verifier_path()
    return None if path is None else load_cpu_verifier(path)
