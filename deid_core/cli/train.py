"""``deid train encoder``: fine-tune the default encoder on synthetic notes."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deid_core.cli.common import fail


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="train our own recognizer models")
    kinds = p.add_subparsers(dest="kind", required=True, metavar="MODEL")
    from deid_core.training.encoder import TrainConfig

    d = TrainConfig()
    e = kinds.add_parser(
        "encoder",
        help="fine-tune all-MiniLM-L6-v2 as a PHI token classifier on synthetic notes (CPU)",
        description="Writes the model, MODEL_CARD.md and model_card.json to --out.",
    )
    e.add_argument("--out", type=Path, default=None, help="output directory (default: models/encoder/ in the repository)")
    e.add_argument("--notes", type=int, default=d.notes, help=f"synthetic notes to generate, training + held out (default {d.notes})")
    e.add_argument("--epochs", type=int, default=d.epochs, help=f"passes over the training notes (default {d.epochs})")
    e.add_argument("--seed", type=int, default=d.seed, help=f"seed for weights, shuffling and the split (default {d.seed})")
    e.add_argument("--synth-seed", type=int, default=None, help="seed of the synthetic generator (default: --seed)")
    e.add_argument("--heldout", type=float, default=d.heldout_fraction, help=f"share of patients held out (default {d.heldout_fraction})")
    e.add_argument("--max-length", type=int, default=d.max_length, help=f"training window in tokens (default {d.max_length})")
    e.add_argument("--batch-size", type=int, default=d.batch_size, help=f"windows per step (default {d.batch_size})")
    e.add_argument("--lr", type=float, default=d.learning_rate, help=f"peak learning rate (default {d.learning_rate})")
    e.add_argument("--layers", type=int, default=d.layers, help="keep only the first N backbone layers (default: all)")
    e.add_argument("--threshold", type=float, default=d.threshold, help=f"decoding threshold on 1 - P(O) for the card (default {d.threshold})")
    e.add_argument("--threads", type=int, default=None, help="CPU threads for torch (default: torch's choice)")
    e.add_argument("--no-progress", action="store_true", help="no progress bar")
    e.set_defaults(func=run_encoder)


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr)


def run_encoder(args: argparse.Namespace) -> int:
    from deid_core.training import (
        BackboneError,
        TrainConfig,
        TrainingError,
        train_encoder,
    )

    try:
        config = TrainConfig(
            notes=args.notes,
            epochs=args.epochs,
            seed=args.seed,
            synth_seed=args.synth_seed,
            heldout_fraction=args.heldout,
            max_length=args.max_length,
            batch_size=args.batch_size,
            learning_rate=args.lr,
            layers=args.layers,
            threshold=args.threshold,
            threads=args.threads,
        )
    except ValueError as exc:
        return fail("train encoder", str(exc))
    try:
        result = train_encoder(config, args.out, progress=not args.no_progress, log=_to_stderr)
    except (TrainingError, BackboneError, ValueError, OSError) as exc:
        return fail("train encoder", str(exc))
    print(f"wrote {result.out_dir} in {result.train_seconds:.0f} s of training")
    print(f"held-out (IoU >= 0.5):  {'category':<9} {'P':>6} {'R':>6} {'F1':>6}")
    for name, s in result.scores.items():
        print(f"{'':24}{name:<9} {s.precision:6.3f} {s.recall:6.3f} {s.f1:6.3f}")
    print(f"CPU throughput: {result.tokens_per_second:.0f} content tokens/s")
    return 0
