"""``deid crash-trials --trials 20``: SIGKILL a worker mid-batch, N times; count lost and doubled notes.

Each trial starts a fresh victim worker, submits a batch, kills the victim
at a random point, and lets a surviving worker finish (redelivery after the
visibility timeout).  Runs in a scratch schema and queue prefix of its own.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
from pathlib import Path

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, export_environment, fleet_settings_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("crash-trials", help="kill workers mid-batch repeatedly and count lost/duplicated notes")
    p.add_argument("--trials", type=int, default=20)
    p.add_argument("--notes", type=int, default=24, help="notes per batch")
    p.add_argument("--chunk-size", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--visibility-timeout", type=int, default=10, help="seconds before a dead worker's message returns")
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        if args.trials < 1 or args.notes < 2:
            raise CliError("--trials must be >= 1 and --notes >= 2")
        if args.visibility_timeout < 3:
            raise CliError("--visibility-timeout must be at least 3 seconds")
        settings = fleet_settings_from(args)
        os.environ["DEID_VISIBILITY_TIMEOUT"] = str(args.visibility_timeout)
        os.environ["DEID_TASK_TIME_LIMIT"] = str(max(2, args.visibility_timeout - 2))
        export_environment(settings)
    except CliError as exc:
        return fail("crash-trials", str(exc))
    from fleet.crash import kill_trial, pick_kill_point, write_trial_corpus
    from fleet.harness import ScratchFleet
    from fleet.pipeline import PipelineConfig
    from fleet.producer import connect

    rng = random.Random(args.seed)
    config = PipelineConfig.load(settings.pipeline_config, ("rules",), settings.verifier_threshold)
    lost = duplicated = unclean = 0
    with tempfile.TemporaryDirectory() as tmp, ScratchFleet(settings, Path(tmp), "crash") as fleet:
        survivors = []

        def survivor():
            if not survivors:
                survivors.append(fleet.worker("cpu", name="survivor").start())
                survivors[0].wait_ready(180)
            return survivors[0]

        with connect(fleet.settings.with_overrides(chunk_size=args.chunk_size)) as client:
            print(f"{'trial':>5} {'killed at':>9} {'done':>5} {'failed':>6} {'lost':>5} {'dup':>4} {'redeliv':>7} {'seconds':>8}")
            for t in range(1, args.trials + 1):
                corpus = write_trial_corpus(Path(tmp) / f"trial{t}.jsonl", args.notes, args.seed * 1000 + t)
                r = kill_trial(
                    client,
                    lambda t=t: fleet.worker("cpu", name=f"victim{t}"),
                    survivor,
                    corpus,
                    fleet.STUDY,
                    config,
                    kill_after=pick_kill_point(rng, args.notes),
                )
                lost += r.lost
                duplicated += r.duplicated
                unclean += not r.clean
                print(
                    f"{t:>5} {r.killed_after:>9} {r.done:>5} {r.failed:>6} {r.lost:>5} {r.duplicated:>4} "
                    f"{r.redelivered_chunks:>7} {r.seconds:>8.1f}",
                    flush=True,
                )
    print(f"{args.trials} trials: {lost} notes lost, {duplicated} duplicated, {unclean} trials not clean")
    return 0 if lost == 0 and duplicated == 0 and unclean == 0 else 1
