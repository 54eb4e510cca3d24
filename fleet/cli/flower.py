"""``deid flower``: Flower on the fleet's broker, showing its six queues and its live workers.

Flower runs through :mod:`fleet.monitor`, so the GPU queues are listed even
while no GPU worker runs, and workers that stopped sending heartbeats are
dropped after ``--forget-offline`` seconds.  Flower's HTTP API answers only
with authentication (``--basic-auth`` or ``FLOWER_BASIC_AUTH``); its
unauthenticated mode (``FLOWER_UNAUTHENTICATED_API``) is refused unless
Flower listens on the loopback interface only.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, export_environment, fleet_settings_from


LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def flower_argv(settings, port: int, address: str, forget_offline: int = 60) -> list[str]:
    argv = [sys.executable, "-m", "fleet.monitor", "-A", "tasks.app", "--broker", settings.broker_url, "flower"]
    argv += [f"--port={port}", f"--address={address}", f"--purge_offline_workers={forget_offline}"]
    return argv


def check_api_exposure(address: str, env: dict[str, str]) -> None:
    """Refuse an unauthenticated API on an address other machines can reach."""
    unauthenticated = env.get("FLOWER_UNAUTHENTICATED_API", "").lower() in ("1", "true", "yes")
    if unauthenticated and address not in LOOPBACK and not env.get("FLOWER_BASIC_AUTH"):
        raise CliError(
            f"FLOWER_UNAUTHENTICATED_API would open Flower's API to anyone who reaches {address}; "
            "listen on 127.0.0.1, or set FLOWER_BASIC_AUTH=user:password instead"
        )


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("flower", help="start Flower to watch the queues and workers")
    p.add_argument("--port", type=int, default=5555)
    p.add_argument("--address", default="127.0.0.1", help="listen address (default: this machine only)")
    p.add_argument(
        "--forget-offline", type=int, default=60, metavar="SECONDS", help="drop workers offline this long from the list (default 60)"
    )
    p.add_argument("--dry-run", action="store_true", help="print the command and exit")
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = fleet_settings_from(args)
        export_environment(settings)
        if args.forget_offline < 1:
            raise CliError("--forget-offline must be at least 1 second")
        check_api_exposure(args.address, dict(os.environ))
    except CliError as exc:
        return fail("flower", str(exc))
    argv = flower_argv(settings, args.port, args.address, args.forget_offline)
    if args.dry_run:
        print(shlex.join(argv))
        return 0
    os.execvp(argv[0], argv)
    return 0  # not reached
