"""``deid eval``: score predicted spans against gold.

Prints per-category precision, recall and F1 with bootstrap intervals, the
micro and macro averages, the zero-leak rate at each IoU threshold and the
character-level recall; ``--json`` writes every number for later tables.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from deid_core.cli.common import fail
from deid_core.evaluation.crosswalk import Crosswalk
from deid_core.evaluation.documents import EvalInputError
from deid_core.evaluation.metrics import PRIMARY_TAU, SENSITIVITY_TAU, EvalConfig, evaluate
from deid_core.evaluation.readers import FORMATS, detect_format, load_gold, load_predictions
from deid_core.evaluation.report import format_table, to_json
from deid_core.records import atomic_writer

_CROSSWALKS = ("auto", "i2b2", "identity")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="score predicted spans against gold (P, R, F1, zero-leak, bootstrap CIs)")
    p.add_argument("--gold", required=True, type=Path, help="gold JSONL, i2b2 XML file/directory, or BRAT directory")
    p.add_argument("--pred", required=True, type=Path, help="predictions (e.g. `deid detect` output)")
    p.add_argument("--gold-format", choices=FORMATS, default=None, help="default: guessed from the path")
    p.add_argument("--pred-format", choices=FORMATS, default=None, help="default: guessed from the path")
    p.add_argument(
        "--tau",
        type=float,
        action="append",
        default=None,
        help=f"IoU threshold, repeatable (default: {PRIMARY_TAU} and {SENSITIVITY_TAU})",
    )
    p.add_argument("--pool-names", action="store_true", help="score DOCTOR and PATIENT as one NAME category")
    p.add_argument("--bootstrap", type=int, default=2000, help="document resamples for the intervals (0: none)")
    p.add_argument("--seed", type=int, default=42, help="bootstrap seed")
    p.add_argument(
        "--crosswalk",
        choices=_CROSSWALKS,
        default="auto",
        help="gold label crosswalk: i2b2 (Table S6) or identity; auto picks i2b2 for i2b2/BRAT input",
    )
    p.add_argument("--json", dest="json_out", type=Path, default=None, help="write all numbers as JSON here")
    p.set_defaults(func=run)


def _crosswalk(choice: str) -> Crosswalk | None:
    if choice == "i2b2":
        return Crosswalk.i2b2()
    if choice == "identity":
        return Crosswalk.identity()
    return None  # the format's default


def run(args: argparse.Namespace) -> int:
    try:
        config = EvalConfig(
            taus=tuple(args.tau) if args.tau else (PRIMARY_TAU, SENSITIVITY_TAU),
            pool_names=args.pool_names,
            n_bootstrap=args.bootstrap,
            seed=args.seed,
        )
    except ValueError as exc:
        return fail("eval", str(exc))
    try:
        gold_fmt = args.gold_format or detect_format(args.gold)
        pred_fmt = args.pred_format or detect_format(args.pred)
        gold = load_gold(args.gold, gold_fmt, _crosswalk(args.crosswalk))
        preds = load_predictions(args.pred, pred_fmt, _crosswalk(args.crosswalk))
        result = evaluate(gold, preds.documents, config, issues=preds.issues)
    except EvalInputError as exc:
        return fail("eval", str(exc))
    print(format_table(result))
    for issue in result.issues:
        print(f"deid eval: {issue}", file=sys.stderr)
    if args.json_out is not None:
        with atomic_writer(args.json_out) as fh:
            json.dump(to_json(result), fh, indent=2)
            fh.write("\n")
        print(f"wrote {args.json_out}")
    return 0
