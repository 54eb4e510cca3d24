"""``deid worker --queues cpu|gpu``: a thin wrapper over ``celery -A tasks.app worker``.

The process is replaced by Celery (exec), so signals reach it directly:
SIGTERM is a warm shutdown (running tasks finish and are acked; nothing
new is taken), a second SIGTERM or SIGQUIT a cold one (unacked tasks go
back to the queue).  ``--dry-run`` prints the command instead.
"""

from __future__ import annotations

import deid_core.environment as _env
import argparse
import os
import shlex

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, export_environment, fleet_settings_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("worker", help="start a fleet worker on the CPU or GPU queues")
    p.add_argument("--queues", default="cpu", help="cpu, gpu, all, or comma-separated queue names (default: cpu)")
    p.add_argument("--concurrency", type=int, default=None, help="pool size (CPU: processes; GPU: 1 = solo pool, >1 = threads)")
    p.add_argument("--autoscale", default=None, metavar="MAX,MIN", help="CPU pools: grow and shrink between MIN and MAX processes")
    p.add_argument("--max-memory-per-child", type=int, default=None, metavar="KIB", help="CPU pools: recycle a child above this resident size")
    p.add_argument("--hostname", default=None, help="node name (default: ROLE-RANDOM@HOST)")
    p.add_argument("--loglevel", default="INFO")
    p.add_argument("--dry-run", action="store_true", help="print the celery command and exit")
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = fleet_settings_from(args)
        export_environment(settings)
        from fleet.worker_plan import WorkerArgsError, worker_plan

        try:
            plan = worker_plan(
                args.queues,
                prefix=settings.queue_prefix,
                concurrency=args.concurrency,
                autoscale=args.autoscale,
                max_memory_per_child=args.max_memory_per_child,
                loglevel=args.loglevel,
                hostname=args.hostname,
            )
        except WorkerArgsError as exc:
            raise CliError(str(exc)) from None
    except CliError as exc:
        return fail("worker", str(exc))
    if args.dry_run:
        print(shlex.join(plan.argv))
        return 0
    os.environ[_env.WORKER_ROLE.name] = plan.role
    os.execvp(plan.argv[0], list(plan.argv))
    return 0  # not reached
