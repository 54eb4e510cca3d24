"""``deid bench-fleet``: notes/s and characters/s, embedded vs. fleet with 1 and 2 CPU workers.

Runs on the configured Redis and Postgres in a scratch schema and queue
prefix of its own (removed afterwards), on a seeded synthetic corpus or on
``--in``.  Prints the modes side by side.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, add_pipeline_arguments, export_environment, fleet_settings_from, pipeline_from
from fleet.settings import DEFAULT_CHUNK_SIZE


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench-fleet", help="throughput: embedded vs. fleet with 1 and 2 CPU workers")
    p.add_argument("--in", dest="inp", type=Path, default=None, help="corpus JSONL (default: synthetic notes)")
    p.add_argument("--notes", type=int, default=200, help="synthetic notes to generate (default 200)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--workers", default="1,2", help="fleet sizes to measure (default 1,2)")
    p.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE, help=f"notes per stage message (default {DEFAULT_CHUNK_SIZE})")
    p.add_argument("--timeout", type=float, default=900.0, help="per fleet run")
    add_pipeline_arguments(p)
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = fleet_settings_from(args)
        export_environment(settings)
        config = pipeline_from(args, settings)
        sizes = [int(x) for x in args.workers.split(",") if x.strip()]
        if not sizes or min(sizes) < 1:
            raise CliError("--workers takes positive integers, e.g. 1,2")
    except (CliError, ValueError) as exc:
        return fail("bench-fleet", str(exc))
    from fleet.bench import bench_embedded, bench_fleet, format_rows
    from fleet.crash import write_trial_corpus

    with tempfile.TemporaryDirectory() as tmp:
        corpus = args.inp or write_trial_corpus(Path(tmp) / "corpus.jsonl", args.notes, args.seed)
        rows = [bench_embedded(corpus, config, args.chunk_size)]
        print(format_rows(rows), flush=True)
        for n in sizes:
            rows.append(bench_fleet(settings, corpus, config, n, args.chunk_size, args.timeout))
            print(format_rows(rows[-1:]).splitlines()[-1], flush=True)
    print()
    print(format_rows(rows))
    return 0
