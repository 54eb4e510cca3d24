"""``deid train encoder``: fine-tune the default encoder on synthetic notes."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from deid_core.cli.common import fail


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="train our own recognizer models")
    kinds = p.add_subparsers(dest="kind", required=True, metavar="MODEL")
    from deid_core.training.encoder import TrainConfig
    from deid_core.training.recipe import DEFAULT_EPOCHS, DEFAULT_LAYERS

    d = TrainConfig()
    e = kinds.add_parser(
        "encoder",
        help="fine-tune all-MiniLM-L6-v2 as a PHI token classifier on synthetic notes (CPU)",
        description="Writes the model, MODEL_CARD.md and model_card.json to --out.",
    )
    e.add_argument("--out", type=Path, default=None, help="output directory (default: models/encoder/ in the repository)")
    e.add_argument("--notes", type=int, default=d.notes, help=f"synthetic notes to generate, training + held out (default {d.notes})")
    e.add_argument("--epochs", type=int, default=None, help=f"passes over the training notes (default {d.epochs}; with --default: the recipe's {DEFAULT_EPOCHS})")
    e.add_argument("--seed", type=int, default=d.seed, help=f"seed for weights, shuffling and the split (default {d.seed})")
    e.add_argument("--synth-seed", type=int, default=None, help="seed of the synthetic generator (default: --seed)")
    e.add_argument("--heldout", type=float, default=d.heldout_fraction, help=f"share of patients held out (default {d.heldout_fraction})")
    e.add_argument("--max-length", type=int, default=d.max_length, help=f"training window in tokens (default {d.max_length})")
    e.add_argument("--batch-size", type=int, default=d.batch_size, help=f"windows per step (default {d.batch_size})")
    e.add_argument("--lr", type=float, default=d.learning_rate, help=f"peak learning rate (default {d.learning_rate})")
    e.add_argument("--layers", type=int, default=None, help=f"keep only the first N backbone layers (default: all; with --default: the recipe's {DEFAULT_LAYERS})")
    e.add_argument("--threshold", type=float, default=d.threshold, help=f"decoding threshold on 1 - P(O) for the card (default {d.threshold})")
    e.add_argument("--threads", type=int, default=None, help="CPU threads for torch (default: torch's choice)")
    e.add_argument(
        "--extra",
        type=Path,
        action="append",
        default=[],
        help="hand-written gold JSONL added to the training side only (repeatable); never a held-out evaluation set",
    )
    e.add_argument("--extra-repeat", type=int, default=d.extra_repeat, help=f"times each hand-written note is seen per epoch (default {d.extra_repeat})")
    e.add_argument(
        "--registers", default=None,
        help="comma-separated generated registers (default: the generator's set; with --default: all, ICU nursing included)",
    )
    e.add_argument(
        "--recase", type=float, default=None,
        help="share of generated notes written wholly in upper or lower case (default 0; with --default: the recipe's 0.25)",
    )
    e.add_argument(
        "--default",
        action="store_true",
        help="build the default encoder from its recipe (the settings above plus the hand-written dev notes listed in "
        "docs/detection.md) into models/encoder/, only when the recipe, its training data or the training code "
        "changed since the last build",
    )
    e.add_argument("--no-progress", action="store_true", help="no progress bar")
    e.set_defaults(func=run_encoder)
    _register_verifier(kinds)
    _register_generative(kinds)


def _register_verifier(kinds: argparse._SubParsersAction) -> None:
    from deid_core.verifier.training import VerifierTrainConfig

    d = VerifierTrainConfig()
    v = kinds.add_parser(
        "verifier",
        help="train the CPU verifier (P(incomplete)) on corrupted synthetic candidates",
        description="Writes verifier.json, MODEL_CARD.md and model_card.json to --out and prints AUROC figures.",
    )
    v.add_argument("--out", type=Path, default=None, help="output directory (default: models/verifier/ in the repository)")
    v.add_argument("--notes", type=int, default=d.notes, help=f"synthetic notes, training + held out (default {d.notes})")
    v.add_argument("--seed", type=int, default=d.seed, help=f"seed of the generator, split, corruptions and trees (default {d.seed})")
    v.add_argument("--heldout", type=float, default=d.heldout_fraction, help=f"share of patients held out (default {d.heldout_fraction})")
    v.add_argument("--trees", type=int, default=d.n_estimators, help=f"boosted trees (default {d.n_estimators})")
    v.add_argument("--depth", type=int, default=d.max_depth, help=f"tree depth (default {d.max_depth})")
    v.add_argument("--threshold", type=float, default=d.threshold, help=f"review threshold for the flag rates reported (default {d.threshold})")
    v.add_argument("--dev", type=Path, action="append", default=[], help="gold JSONL of hand-written notes: report AUROC on the rules' outputs there (repeatable)")
    v.set_defaults(func=run_verifier)


def run_verifier(args: argparse.Namespace) -> int:
    from deid_core.verifier.training import VerifierTrainConfig, VerifierTrainingError, figure_table, train_verifier

    try:
        config = VerifierTrainConfig(
            notes=args.notes, seed=args.seed, heldout_fraction=args.heldout, n_estimators=args.trees,
            max_depth=args.depth, threshold=args.threshold,
        )
    except ValueError as exc:
        return fail("train verifier", str(exc))
    try:
        result = train_verifier(config, args.out, dev_files=args.dev, log=_to_stderr)
    except (VerifierTrainingError, ValueError, OSError) as exc:
        return fail("train verifier", str(exc))
    print(f"wrote {result.out_dir} ({result.verifier.name}) in {result.train_seconds:.0f} s")
    print(figure_table(result.figures, config.threshold))
    print(f"CPU: {result.card['cpu_ms_per_note']} ms per note")
    return 0


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr)


def run_encoder(args: argparse.Namespace) -> int:
    from deid_core.training import (
        BackboneError,
        TrainConfig,
        TrainingError,
        train_encoder,
    )
    from deid_core.training.recipe import built_digest, check_extra, default_recipe, recipe_digest

    try:
        # --default starts from the recipe itself, so the stamp it checks is the recipe's; flags given still win
        base = default_recipe() if args.default else TrainConfig()
        config = replace(
            base,
            notes=args.notes,
            epochs=args.epochs if args.epochs is not None else base.epochs,
            seed=args.seed,
            synth_seed=args.synth_seed,
            heldout_fraction=args.heldout,
            max_length=args.max_length,
            batch_size=args.batch_size,
            learning_rate=args.lr,
            layers=args.layers if args.layers is not None else base.layers,
            threshold=args.threshold,
            threads=args.threads,
            extra=(*(str(p) for p in args.extra), *base.extra),
            extra_repeat=args.extra_repeat,
            registers=tuple(r.strip() for r in args.registers.split(",") if r.strip()) if args.registers else base.registers,
            recase=args.recase if args.recase is not None else base.recase,
        )
        check_extra(config)
        stamp = recipe_digest(config) if args.default else None
    except (ValueError, OSError) as exc:
        return fail("train encoder", str(exc))
    out = args.out
    if args.default:
        from deid_core.recognizers.encoder import repo_model_dir

        out = out or repo_model_dir()
        if built_digest(out) == stamp:
            print(f"{out} is up to date (recipe {stamp[:12]})")
            return 0
        print(
            f"building the default encoder once into {out} (recipe {stamp[:12]}); the bar shows the time left, "
            "and later runs reuse it until the recipe or its training data change",
            file=sys.stderr,
        )
    started = time.perf_counter()
    try:
        result = train_encoder(config, out, progress=not args.no_progress, log=_to_stderr, stamp=stamp)
    except (TrainingError, BackboneError, ValueError, OSError) as exc:
        return fail("train encoder", str(exc))
    minutes, seconds = divmod(round(time.perf_counter() - started), 60)
    print(f"wrote {result.out_dir} in {minutes} min {seconds} s ({result.train_seconds:.0f} s of training)")
    print(f"held-out (IoU >= 0.5):        {'category':<9} {'P':>6} {'R':>6} {'F1':>6}")
    for name, s in result.scores.items():
        print(f"{'':30}{name:<9} {s.precision:6.3f} {s.recall:6.3f} {s.f1:6.3f}")
    int8 = result.scores_int8["micro"]
    print(f"{'int8 form, same notes:':30}{'micro':<9} {int8.precision:6.3f} {int8.recall:6.3f} {int8.f1:6.3f}")
    print(
        f"CPU throughput: {result.tokens_per_second:.0f} content tokens/s (fp32, ONNX Runtime), "
        f"{result.tokens_per_second_int8:.0f} in int8"
    )
    return 0


def _register_generative(kinds: argparse._SubParsersAction) -> None:
    from deid_core.training.generative import GenerativeTrainConfig

    d = GenerativeTrainConfig()
    g = kinds.add_parser(
        "generative",
        help="train a tiny generative de-identifier from scratch on synthetic notes (CPU; for tests and plumbing)",
        description="Writes a causal LM, its tokenizer, MODEL_CARD.md and model_card.json to --out.",
    )
    g.add_argument("--out", type=Path, required=True, help="output directory (must be new or empty)")
    g.add_argument("--notes", type=int, default=d.notes, help=f"synthetic notes, training + held out (default {d.notes})")
    g.add_argument("--steps", type=int, default=d.steps, help=f"optimizer steps (default {d.steps})")
    g.add_argument("--max-seconds", type=float, default=None, help="stop training after this many seconds")
    g.add_argument("--seed", type=int, default=d.seed, help=f"seed of weights, shuffling and the split (default {d.seed})")
    g.add_argument("--chunk-chars", type=int, default=d.chunk_chars, help=f"characters per prompt chunk (default {d.chunk_chars})")
    g.add_argument("--layers", type=int, default=d.n_layer, help=f"transformer layers (default {d.n_layer})")
    g.add_argument("--width", type=int, default=d.n_embd, help=f"embedding width (default {d.n_embd})")
    g.add_argument("--lr", type=float, default=d.learning_rate, help=f"peak learning rate (default {d.learning_rate})")
    g.add_argument("--threads", type=int, default=None, help="CPU threads for torch (default: torch's choice)")
    g.set_defaults(func=run_generative)


def run_generative(args: argparse.Namespace) -> int:
    from deid_core.training.generative import GenerativeTrainConfig, GenerativeTrainingError, train_generative

    try:
        config = GenerativeTrainConfig(
            notes=args.notes, steps=args.steps, max_seconds=args.max_seconds, seed=args.seed,
            chunk_chars=args.chunk_chars, overlap_chars=args.chunk_chars // 6, n_layer=args.layers,
            n_embd=args.width, learning_rate=args.lr, threads=args.threads,
        )
    except ValueError as exc:
        return fail("train generative", str(exc))
    try:
        result = train_generative(config, args.out, log=_to_stderr)
    except (GenerativeTrainingError, ValueError, OSError) as exc:
        return fail("train generative", str(exc))
    print(f"wrote {result.out_dir}: {result.steps} steps in {result.seconds:.0f} s, final loss {result.final_loss:.3f}")
    print(f'use it with: backend = "transformers", model_path = "{result.out_dir}", instructions = "brief", chunk_chars = {config.chunk_chars}, overlap_chars = {config.chunk_chars // 4}')
    return 0
