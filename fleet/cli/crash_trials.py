"""``deid crash-trials --trials 50``: hurt a worker mid-batch, N times; compare every export with an undisturbed run.

Each trial starts a fresh victim worker (two pool children), submits a
batch, and kills the victim's process group, its main process, one pool
child, or itself in the window between receiving and acknowledging a
message, or drops a message there (``fleet/crash.py``).  A survivor worker,
started once, finishes every batch; no trial calls ``resume``.  The task
time limit is short because trial tasks take seconds; the visibility
timeout and the sweeper's deadline are derived from it as in production.
Runs in a scratch schema and queue prefix of its own.
"""

from __future__ import annotations

import deid_core.environment as _env
import argparse
import os
import random
import tempfile
from pathlib import Path

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, export_environment, fleet_settings_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("crash-trials", help="kill workers mid-batch repeatedly; compare each export with an undisturbed run")
    p.add_argument("--trials", type=int, default=50)
    p.add_argument("--notes", type=int, default=12, help="notes per batch")
    p.add_argument("--chunk-size", type=int, default=1, help="notes per message (see fleet/crash.py on chunks above 1)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--modes", default=",".join(_modes()), help="comma-separated kill modes, drawn at random per trial")
    p.add_argument("--time-limit", type=int, default=10, help="task time limit in seconds; the other timeouts derive from it")
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def _modes() -> tuple[str, ...]:
    from fleet.crash import KILL_MODES

    return KILL_MODES


def run(args: argparse.Namespace) -> int:
    try:
        modes = [m.strip() for m in args.modes.split(",") if m.strip()]
        if args.trials < 1 or args.notes < 2:
            raise CliError("--trials must be >= 1 and --notes >= 2")
        if not modes or any(m not in _modes() for m in modes):
            raise CliError(f"--modes takes names from {', '.join(_modes())}")
        if args.time_limit < 4:
            raise CliError("--time-limit must be at least 4 seconds")
        settings = fleet_settings_from(args)
        os.environ[_env.TASK_TIME_LIMIT.name] = str(args.time_limit)
        os.environ.pop(_env.VISIBILITY_TIMEOUT.name, None)
        export_environment(settings)
    except CliError as exc:
        return fail("crash-trials", str(exc))
    from deid_core.keys import StudyKey
    from fleet.crash import pick_kill_point, run_trial, write_trial_corpus
    from fleet.harness import ScratchFleet
    from fleet.pipeline import PipelineConfig
    from fleet.producer import connect

    rng = random.Random(args.seed)
    config = PipelineConfig.load(settings.pipeline_config, ("rules",), settings.verifier_threshold)
    totals = {"lost": 0, "duplicated": 0, "differing": 0, "stuck": 0, "unclean": 0}
    timeout = max(60.0, 4.0 * args.time_limit)
    with tempfile.TemporaryDirectory() as tmp, ScratchFleet(settings, Path(tmp), "crash") as fleet:
        key = StudyKey.read(Path(fleet.settings.key_dir) / f"{fleet.STUDY}.key.json")
        fleet.worker("cpu", name="survivor").start().wait_ready(180)
        no_sweep = {_env.SWEEPER.name: "0"}  # the survivor recovers; a victim may die holding the sweep lock
        with connect(fleet.settings.with_overrides(chunk_size=args.chunk_size)) as client:
            print(
                f"{'trial':>5} {'mode':>8} {'hurt at':>7} {'done':>5} {'failed':>6} {'lost':>5} {'dup':>4} "
                f"{'differ':>6} {'bytes':>5} {'stuck':>5} {'redeliv':>7} {'seconds':>8}"
            )
            for t in range(1, args.trials + 1):
                mode = rng.choice(modes)
                corpus = write_trial_corpus(Path(tmp) / f"trial{t}.jsonl", args.notes, args.seed * 1000 + t)
                r = run_trial(
                    client,
                    lambda env, t=t: fleet.worker("cpu", concurrency=2, name=f"victim{t}", extra_env=no_sweep | env),
                    corpus,
                    fleet.STUDY,
                    key,
                    config,
                    mode=mode,
                    kill_after=pick_kill_point(rng, args.notes),
                    rng=rng,
                    timeout=timeout,
                )
                for name in ("lost", "duplicated", "differing"):
                    totals[name] += getattr(r, name)
                totals["stuck"] += r.stuck
                totals["unclean"] += not r.clean
                print(
                    f"{t:>5} {r.mode:>8} {r.killed_after:>7} {r.done:>5} {r.failed:>6} {r.lost:>5} {r.duplicated:>4} "
                    f"{r.differing:>6} {'same' if r.identical else 'DIFF':>5} {'yes' if r.stuck else 'no':>5} "
                    f"{r.redelivered_chunks:>7} {r.seconds:>8.1f}",
                    flush=True,
                )
    print(
        f"{args.trials} trials (task time limit {args.time_limit}s): {totals['lost']} notes lost, "
        f"{totals['duplicated']} duplicated, {totals['differing']} differing from the undisturbed export, "
        f"{totals['stuck']} batches needing a resume, {totals['unclean']} trials not clean"
    )
    return 0 if totals["unclean"] == 0 else 1
