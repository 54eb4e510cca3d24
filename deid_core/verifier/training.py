"""``deid train verifier``: fit the CPU verifier on corrupted synthetic candidates.

Training candidates are the gold annotations of synthetic notes corrupted as
paper 001 describes, plus what our rules pipeline actually outputs on the
same notes (the paper adds four baseline systems' outputs the same way).
Patients are split before anything is generated from their notes, so the
held-out figures never see a training patient.  Reported: AUROC on held-out
corrupted candidates, on the rules pipeline's held-out outputs, and on the
rules pipeline's outputs for any hand-written gold files passed in.
"""

from __future__ import annotations

from deid_core.notes import ClinicalNote
import json
import math
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from deid_core.spans import Span
from deid_core.verifier.base import is_incomplete
from deid_core.verifier.corruption import KINDS, Candidate, corrupted_candidates
from deid_core.verifier.cpu import MODEL_FILE, CpuVerifier, TreeModel, load_cpu_verifier, repo_verifier_dir
from deid_core.verifier.features import FEATURE_NAMES, NoteAnalysis, analyze_note
from deid_core.verifier.metrics import auroc, flag_rates

CARD_JSON = "model_card.json"
CARD_MD = "MODEL_CARD.md"


class VerifierTrainingError(RuntimeError):
    pass


@dataclass(frozen=True)
class VerifierTrainConfig:
    notes: int = 1200
    seed: int = 17
    heldout_fraction: float = 0.25
    n_estimators: int = 200
    max_depth: int = 3
    learning_rate: float = 0.1
    subsample: float = 0.8
    threshold: float = 0.5

    def __post_init__(self) -> None:
        if self.notes < 20:
            raise ValueError(f"notes must be at least 20, got {self.notes}")
        if not 0.0 < self.heldout_fraction < 1.0:
            raise ValueError(f"heldout must be in (0, 1), got {self.heldout_fraction}")
        if self.n_estimators < 1 or self.max_depth < 1 or not 0.0 < self.learning_rate <= 1.0:
            raise ValueError("need n_estimators >= 1, max_depth >= 1 and 0 < learning_rate <= 1")
        if not 0.0 < self.subsample <= 1.0 or not 0.0 <= self.threshold <= 1.0:
            raise ValueError("need 0 < subsample <= 1 and 0 <= threshold <= 1")


@dataclass(frozen=True)
class Figure:
    """How well scores separate incomplete from complete candidates in one set."""

    name: str
    candidates: int
    incomplete: int
    auroc: float | None
    flagged_share: float
    incomplete_caught: float


@dataclass
class VerifierTrainResult:
    out_dir: Path
    verifier: CpuVerifier
    figures: list[Figure]
    card: dict = field(repr=False)
    train_seconds: float = 0.0


@dataclass(frozen=True)
class GoldNote:
    id: str
    text: str
    spans: tuple[Span, ...]
    patient_id: str | None = None


def read_gold_notes(path: Path | str) -> list[GoldNote]:
    """Notes with text and gold spans from a JSONL gold file."""
    from deid_core.evaluation.readers import load_gold

    docs = load_gold(path)
    missing = [d.id for d in docs if d.text is None]
    if missing:
        raise VerifierTrainingError(f"{path}: gold notes without text cannot be scored: {', '.join(missing[:5])}")
    return [GoldNote(d.id, d.text, tuple(d.spans)) for d in docs]  # type: ignore[arg-type]


def rules_candidates(notes: Sequence[GoldNote]) -> list[Candidate]:
    """What the default rules pipeline finds on each note, labelled against gold."""
    from deid_core.recognizers.pipeline import build_default_pipeline


    found = build_default_pipeline().analyze_batch([ClinicalNote(n.id, n.text, n.patient_id) for n in notes])
    return [Candidate(n.id, n.text, tuple(s), is_incomplete(n.spans, s), "rules") for n, s in zip(notes, found)]


class _Analyses:
    def __init__(self) -> None:
        self._cache: dict[str, NoteAnalysis] = {}

    def __call__(self, text: str) -> NoteAnalysis:
        found = self._cache.get(text)
        if found is None:
            found = self._cache[text] = analyze_note(text)
        return found


def _features(candidates: Sequence[Candidate], analyses: _Analyses) -> np.ndarray:
    from deid_core.verifier.features import candidate_features

    return np.stack([candidate_features(analyses(c.text), c.spans) for c in candidates])


def score_candidates(verifier: CpuVerifier, candidates: Sequence[Candidate], analyses: _Analyses | None = None) -> list[float]:
    analyses = analyses or _Analyses()
    return [verifier.score_analysis(analyses(c.text), [c.spans])[0] for c in candidates]


def figure(name: str, candidates: Sequence[Candidate], scores: Sequence[float], threshold: float) -> Figure:
    labels = [c.incomplete for c in candidates]
    share, caught = flag_rates(labels, scores, threshold)
    return Figure(name, len(candidates), sum(labels), auroc(labels, scores), share, caught)


def evaluate_files(verifier: CpuVerifier, paths: Sequence[Path | str], threshold: float) -> list[Figure]:
    """AUROC of the verifier on the rules pipeline's outputs for hand-written gold files."""
    out = []
    for p in paths:
        cands = rules_candidates(read_gold_notes(p))
        out.append(figure(f"rules on {Path(p).name}", cands, score_candidates(verifier, cands), threshold))
    return out


def _prepare_out(out_dir: Path) -> None:
    if out_dir.exists():
        if not out_dir.is_dir():
            raise VerifierTrainingError(f"{out_dir} exists and is not a directory")
        if any(out_dir.iterdir()) and not (out_dir / MODEL_FILE).is_file():
            raise VerifierTrainingError(f"{out_dir} is not empty and holds no verifier model; refusing to overwrite it")
    out_dir.mkdir(parents=True, exist_ok=True)


def train_verifier(
    config: VerifierTrainConfig,
    out_dir: Path | str | None = None,
    *,
    dev_files: Sequence[Path | str] = (),
    log: Callable[[str], None] | None = None,
) -> VerifierTrainResult:
    try:
        from sklearn.ensemble import GradientBoostingClassifier
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise VerifierTrainingError(f"training the verifier needs scikit-learn installed: {exc}") from None
    from deid_core.synth import generate_notes
    from deid_core.training.data import split_by_patient

    say = log or (lambda _m: None)
    out = Path(out_dir) if out_dir is not None else repo_verifier_dir()
    _prepare_out(out)
    started = time.perf_counter()
    synth = [GoldNote(n.id, n.text, n.spans, n.patient_id) for n in generate_notes(config.notes, config.seed)]
    train, held = split_by_patient(synth, config.heldout_fraction, config.seed)
    analyses = _Analyses()
    say(f"candidates from {len(train)} training notes ({len(held)} held out)")
    train_c = corrupted_candidates([(n.id, n.text, n.spans) for n in train], config.seed) + rules_candidates(train)
    labels = np.array([c.incomplete for c in train_c])
    if labels.all() or not labels.any():
        raise VerifierTrainingError("training candidates are all of one class; generate more notes")
    X = _features(train_c, analyses)
    say(f"fitting {config.n_estimators} trees on {len(train_c)} candidates ({int(labels.sum())} incomplete)")
    gb = GradientBoostingClassifier(
        n_estimators=config.n_estimators,
        max_depth=config.max_depth,
        learning_rate=config.learning_rate,
        subsample=config.subsample,
        random_state=config.seed,
    )
    gb.fit(X, labels)
    model = TreeModel.from_sklearn(gb, FEATURE_NAMES)
    (out / MODEL_FILE).write_text(json.dumps(model.to_json()), encoding="utf-8")
    verifier = load_cpu_verifier(out)
    train_seconds = time.perf_counter() - started

    held_c = corrupted_candidates([(n.id, n.text, n.spans) for n in held], config.seed + 1)
    held_r = rules_candidates(held)
    figures = [
        figure("held-out corrupted candidates", held_c, score_candidates(verifier, held_c, analyses), config.threshold),
        figure("rules on held-out synthetic notes", held_r, score_candidates(verifier, held_r, analyses), config.threshold),
    ]
    figures += evaluate_files(verifier, dev_files, config.threshold)
    by_kind = {}
    held_scores = score_candidates(verifier, held_c, analyses)
    for kind in KINDS:
        idx = [i for i, c in enumerate(held_c) if c.kind == kind]
        by_kind[kind] = {"candidates": len(idx), "incomplete": sum(held_c[i].incomplete for i in idx),
                         "mean_score": round(float(np.mean([held_scores[i] for i in idx])), 4) if idx else None}
    t0 = time.perf_counter()
    for n in held[:50]:
        verifier.score(n.text, n.spans)
    ms_per_note = 1000.0 * (time.perf_counter() - t0) / max(1, min(50, len(held)))
    importances = sorted(zip(FEATURE_NAMES, gb.feature_importances_), key=lambda kv: -kv[1])
    import sklearn

    card = {
        "name": "deid CPU verifier",
        "version": verifier.version,
        "kind": "gradient-boosted trees over features of the text outside the candidate spans",
        "target": "P(incomplete): some gold identifier not fully covered by the candidate spans",
        "data": {
            "generator": "deid_core.synth",
            "generator_seed": config.seed,
            "notes": config.notes,
            "train_notes": len(train),
            "heldout_notes": len(held),
            "split": "by patient",
            "train_candidates": len(train_c),
            "train_incomplete": int(labels.sum()),
            "corruptions": list(KINDS),
            "recognizer_outputs": ["rules"],
        },
        "seed": config.seed,
        "hyperparameters": {k: v for k, v in asdict(config).items() if k not in ("notes", "seed")},
        "evaluation": [asdict(f) for f in figures],
        "heldout_by_corruption": by_kind,
        "feature_importance": {k: round(float(v), 4) for k, v in importances},
        "cpu_ms_per_note": round(ms_per_note, 2),
        "training_seconds": round(train_seconds, 1),
        "software": {"python": platform.python_version(), "scikit-learn": sklearn.__version__, "numpy": np.__version__},
    }
    (out / CARD_JSON).write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    (out / CARD_MD).write_text(render_card(card), encoding="utf-8")
    return VerifierTrainResult(out, verifier, figures, card, train_seconds)


def _fmt(value: float | None) -> str:
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3f}"


def figure_table(figures: Sequence[Figure], threshold: float) -> str:
    head = f"| set | candidates | incomplete | AUROC | flagged at > {threshold:g} | incomplete caught |"
    lines = [head, "|---|---:|---:|---:|---:|---:|"]
    for f in figures:
        lines.append(
            f"| {f.name} | {f.candidates} | {f.incomplete} | {_fmt(f.auroc)} | {_fmt(f.flagged_share)} | {_fmt(f.incomplete_caught)} |"
        )
    return "\n".join(lines)


def render_card(card: dict) -> str:
    figures = [Figure(**f) for f in card["evaluation"]]
    top = "\n".join(f"- `{k}`: {v}" for k, v in list(card["feature_importance"].items())[:10])
    hp = "\n".join(f"- `{k}`: {v}" for k, v in card["hyperparameters"].items())
    data = card["data"]
    return f"""# {card['name']} (version {card['version']})

Scores a note and a candidate annotation from any recognizer with
P(incomplete), the probability that some identifier is not fully covered.
Notes above the configured threshold go to human review.

## Intended use and limits

Trained **only on synthetic notes** from this project's generator and on
corrupted versions of their gold annotations; it has not been validated on
real clinical text. It sees only what lies outside the candidate spans
(fixed-format strings, unknown capitalised words, name and place cues,
gazetteer hits, span density, spans that stop inside a word), so a miss that
leaves no such trace goes unnoticed. Figures on hand-written notes below
show how far it transfers.

## Data

- Generator: `{data['generator']}`, seed {data['generator_seed']}, {data['notes']} notes, split {data['split']}
- Training: {data['train_notes']} notes, {data['train_candidates']} candidates ({data['train_incomplete']} incomplete)
- Corruptions: {', '.join(data['corruptions'])}; plus the rules pipeline's own outputs

## Training

- Seed: {card['seed']}
{hp}
- Seconds: {card['training_seconds']}

## Evaluation

{figure_table(figures, card['hyperparameters']['threshold'])}

CPU cost: {card['cpu_ms_per_note']} ms per note (features and trees).

## Most used features

{top}
"""
