"""``deid bench``: throughput figures for the stages (printed, not asserted)."""

from __future__ import annotations

import argparse

from deid_core.cli.common import CliError, add_config_argument, fail, settings_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="print throughput figures")
    stage = p.add_subparsers(dest="stage", required=True, metavar="STAGE")
    a = stage.add_parser("anonymize", help="anonymizer spans/s and characters/s, one process and all cores")
    a.add_argument("--notes", type=int, default=2000, help="size of the fixed synthetic corpus")
    a.add_argument("--seed", type=int, default=7)
    add_config_argument(a)
    a.set_defaults(func=run_anonymize)


def run_anonymize(args: argparse.Namespace) -> int:
    from deid_core.benchmarks.anonymizer import format_results, run_benchmark

    try:
        settings = settings_from(args)
    except CliError as exc:
        return fail("bench", str(exc))
    print(f"anonymizer throughput, fixed synthetic corpus (seed {args.seed}, {args.notes} notes)")
    print(format_results(run_benchmark(args.notes, args.seed, settings.anonymizer)))
    return 0
