"""``deid flower``: Flower on the fleet's broker, showing its queues and workers."""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, export_environment, fleet_settings_from


def flower_argv(settings, port: int, address: str) -> list[str]:
    argv = [sys.executable, "-m", "celery", "-A", "tasks.app", "--broker", settings.broker_url, "flower"]
    argv += [f"--port={port}", f"--address={address}"]
    return argv


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("flower", help="start Flower to watch the queues and workers")
    p.add_argument("--port", type=int, default=5555)
    p.add_argument("--address", default="127.0.0.1", help="listen address (default: this machine only)")
    p.add_argument("--dry-run", action="store_true", help="print the command and exit")
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = fleet_settings_from(args)
        export_environment(settings)
    except CliError as exc:
        return fail("flower", str(exc))
    argv = flower_argv(settings, args.port, args.address)
    if args.dry_run:
        print(shlex.join(argv))
        return 0
    os.execvp(argv[0], argv)
    return 0  # not reached
