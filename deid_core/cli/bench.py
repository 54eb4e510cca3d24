"""``deid bench``: throughput figures for the stages (printed, not asserted)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deid_core.cli.common import CliError, add_config_argument, fail, settings_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="print throughput figures")
    stage = p.add_subparsers(dest="stage", required=True, metavar="STAGE")
    a = stage.add_parser("anonymize", help="anonymizer spans/s and characters/s, one process and all cores")
    a.add_argument("--notes", type=int, default=2000, help="size of the fixed synthetic corpus")
    a.add_argument("--seed", type=int, default=7)
    add_config_argument(a)
    a.set_defaults(func=run_anonymize)
    d = stage.add_parser(
        "detect", help="detection characters/s and notes/s: rules, encoder alone and the default pipeline beside Presidio"
    )
    d.add_argument("--notes", type=int, default=300, help="size of the fixed synthetic corpus")
    d.add_argument("--seed", type=int, default=11)
    d.add_argument("--no-presidio", action="store_true", help="skip the Presidio comparison")
    d.add_argument("--no-encoder", action="store_true", help="skip the encoder and the default pipeline rows")
    d.add_argument("--repeat", type=int, default=3, help="timed runs of the corpus per system; the median is reported")
    d.set_defaults(func=run_detect)
    e = stage.add_parser("encoder", help="encoder content tokens/s (CPU, or a GPU with --device cuda)")
    e.add_argument("--path", type=Path, default=None, help="model directory (default: the trained default encoder)")
    e.add_argument("--device", default=None, help="cpu, cuda or cuda:N (default: cuda when available)")
    e.add_argument("--notes", type=int, default=200)
    e.add_argument("--seed", type=int, default=11)
    e.add_argument(
        "--batch-tokens",
        type=_token_budgets,
        default=None,
        metavar="N[,N...]",
        help="padded tokens per forward pass; several, comma-separated, sweep them (default: the device's own)",
    )
    e.set_defaults(func=run_encoder)
    g = stage.add_parser("generative", help="generative recognizer seconds per note, from the [detect.generative] of --config")
    g.add_argument("--notes", type=int, default=20)
    g.add_argument("--seed", type=int, default=11)
    add_config_argument(g)
    g.set_defaults(func=run_generative)


def _token_budgets(value: str) -> list[int]:
    try:
        budgets = [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected whole numbers separated by commas, got {value!r}") from None
    if not budgets or min(budgets) < 1:
        raise argparse.ArgumentTypeError(f"expected positive token budgets, got {value!r}")
    return budgets


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
    from deid_core.recognizers.encoder import default_encoder_path

    if not args.no_encoder and default_encoder_path() is None:
        print("deid bench: no default encoder (build it with `make encoder`); timing the rules only", file=sys.stderr)
    if args.repeat < 1:
        return fail("bench", f"--repeat must be at least 1, got {args.repeat}")
    print(f"detection throughput, fixed synthetic corpus (seed {args.seed}, {args.notes} notes, median of {args.repeat} runs)")
    rows = run_detection_benchmark(
        args.notes, args.seed, presidio=not args.no_presidio, encoder=not args.no_encoder, repeat=args.repeat
    )
    print(format_detection(rows))
    return 0


def run_encoder(args: argparse.Namespace) -> int:
    from deid_core.benchmarks.models import bench_encoder, format_model_bench
    from deid_core.recognizers.encoder import default_encoder_path

    path = args.path or default_encoder_path()
    if path is None:
        return fail("bench", "no encoder: pass --path or train one with `deid train encoder`")
    print(f"encoder throughput, fixed synthetic corpus (seed {args.seed}, {args.notes} notes)")
    for budget in args.batch_tokens or [None]:
        try:
            result = bench_encoder(path, args.notes, args.seed, args.device, budget)
        except (OSError, ValueError, RuntimeError) as exc:
            return fail("bench", f"{type(exc).__name__}: {exc}")
        print(format_model_bench(result))
    return 0


def run_generative(args: argparse.Namespace) -> int:
    from deid_core.benchmarks.models import bench_generative, format_model_bench

    try:
        settings = settings_from(args)
    except CliError as exc:
        return fail("bench", str(exc))
    config = settings.detect.generative or None
    if not isinstance(config, dict):
        return fail("bench", "the configuration has no [detect.generative] table")
    try:
        result = bench_generative(config, args.notes, args.seed)
    except (OSError, ValueError, RuntimeError) as exc:
        return fail("bench", f"{type(exc).__name__}: {exc}")
    print(f"generative latency, fixed synthetic corpus (seed {args.seed}, {args.notes} notes)")
    print(format_model_bench(result))
    return 0
