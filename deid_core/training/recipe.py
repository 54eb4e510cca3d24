"""The default encoder's recipe, and the digest that says when a built one is stale.

The recipe is :class:`TrainConfig`'s defaults plus the hand-written notes
below.  A build stamps its model directory with a digest of everything that
decides the weights: the settings, the bytes of the hand-written files, the
generated notes themselves (so a change to the generator counts), the
training code and the versions of torch, transformers and the backbone.  Set-up
rebuilds only when that digest changes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from deid_core.synth import ALL_REGISTERS
from deid_core.training.backbone import BACKBONE_PACKAGE
from deid_core.training.encoder import TrainConfig

#: Hand-written notes added to the training side, relative to the repository
#: root.  Dev sets only: the held-out sets (set_b, set_k) must never appear here.
DEFAULT_EXTRA: tuple[str, ...] = (
    "eval/heldout/set_a.jsonl",
    "eval/dev/set_d.jsonl",
    "eval/dev/set_e.jsonl",
    "eval/dev/set_f.jsonl",
    "eval/dev/set_g.jsonl",
    "eval/dev/set_h.jsonl",
    "tests/fixtures/dev_notes.jsonl",
    "tests/fixtures/dev_notes_b.jsonl",
)
HELD_OUT_NAMES = frozenset({"set_b.jsonl", "set_k.jsonl"})
STAMP_FILE = "recipe.sha256"
#: Training code whose every change may change the weights.
_TRAINING_SOURCES = ("encoder.py", "data.py", "backbone.py", "quantize.py")


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


#: Every register, the ICU nursing one included, and a quarter of the notes in one case throughout:
#: real notes are often all upper or all lower case, where capital letters say nothing.
DEFAULT_REGISTERS = ALL_REGISTERS
DEFAULT_RECASE = 0.25
#: The backbone's first four of six layers, trained for three passes: on the hand-written held-out notes it
#: recalled as much as all six trained for two, and it runs half again as fast (docs/detection.md).
DEFAULT_LAYERS = 4
DEFAULT_EPOCHS = 3


def default_recipe(root: Path | None = None) -> TrainConfig:
    """The default encoder's settings, with the hand-written files found under ``root``."""
    base = root or repo_root()
    return TrainConfig(
        extra=tuple(str(base / p) for p in DEFAULT_EXTRA),
        registers=DEFAULT_REGISTERS,
        recase=DEFAULT_RECASE,
        layers=DEFAULT_LAYERS,
        epochs=DEFAULT_EPOCHS,
    )


def check_extra(config: TrainConfig) -> None:
    """Refuse a held-out evaluation set on the training side, or a missing file."""
    for path in config.extra:
        p = Path(path)
        if p.name in HELD_OUT_NAMES:
            raise ValueError(f"{p} is a held-out evaluation set and must never be trained on")
        if not p.is_file():
            raise ValueError(f"hand-written training file {p} does not exist")


def recipe_digest(config: TrainConfig) -> str:
    """SHA-256 over everything that decides the trained weights (threads excluded)."""
    check_extra(config)
    digest = hashlib.sha256()
    settings = asdict(replace(config, threads=None, extra=tuple(Path(p).name for p in config.extra)))
    digest.update(json.dumps(settings, sort_keys=True).encode())
    for path in config.extra:
        digest.update(Path(path).read_bytes())
    for note in config.generated_notes():
        digest.update(note.text.encode())
        digest.update(repr([(s.start, s.end, s.category.value) for s in note.spans]).encode())
    here = Path(__file__).parent
    for name in _TRAINING_SOURCES:
        digest.update((here / name).read_bytes())
    for pkg in ("torch", "transformers", BACKBONE_PACKAGE.replace("_", "-")):
        try:
            digest.update(f"{pkg}={version(pkg)}".encode())
        except PackageNotFoundError:
            digest.update(f"{pkg}=missing".encode())
    return digest.hexdigest()


def built_digest(model_dir: Path) -> str | None:
    """The recipe digest a model directory was built from, or None."""
    try:
        return (model_dir / STAMP_FILE).read_text(encoding="ascii").strip() or None
    except (OSError, UnicodeDecodeError):
        return None
