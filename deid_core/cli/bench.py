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
    d = stage.add_parser("detect", help="detection characters/s and notes/s per recognizer, beside Presidio")
    d.add_argument("--notes", type=int, default=300, help="size of the fixed synthetic corpus")
    d.add_argument("--seed", type=int, default=11)
    d.add_argument("--no-presidio", action="store_true", help="skip the Presidio comparison")
    d.set_defaults(func=run_detect)


def run_anonymize(args: argparse.Namespace) -> int:
    from deid_core.benchmarks.anonymizer import format_results, run_benchmark

    try:
        settings = settings_from(args)
    except CliError as exc:
        return fail("bench", str(exc))
    print(f"anonymizer throughput, fixed synthetic corpus (seed {args.seed}, {args.notes} notes)")
    print(format_results(run_benchmark(args.notes, args.seed, settings.anonymizer)))
    return 0


def run_detect(args: argparse.Namespace) -> int:
    from deid_core.benchmarks.detection import format_detection, run_detection_benchmark

    print(f"detection throughput, fixed synthetic corpus (seed {args.seed}, {args.notes} notes)")
    print(format_detection(run_detection_benchmark(args.notes, args.seed, presidio=not args.no_presidio)))
    return 0
