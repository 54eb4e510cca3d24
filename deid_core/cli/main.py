"""Entry point of the ``deid`` console script.

Each module in :data:`COMMANDS` exposes ``register(subparsers)``, which adds
one subcommand whose parser sets ``func(args) -> int``.  Modules import
their heavy dependencies inside ``func``, so building the parser stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = (
    "deid_core.cli.keygen",
    "deid_core.cli.anonymize",
    "deid_core.cli.detect",
    "deid_core.cli.evaluate",
    "deid_core.cli.synth",
    "deid_core.cli.train",
    "deid_core.cli.verify_anonymizer",
    "deid_core.cli.bench",
    # The fleet's commands live with the fleet, outside the pure core.
    "fleet.cli.run",
    "fleet.cli.submit",
    "fleet.cli.status",
    "fleet.cli.export",
    "fleet.cli.worker",
    "fleet.cli.flower",
    "fleet.cli.migrate",
    "fleet.cli.bench_fleet",
    "fleet.cli.crash_trials",
    "fleet.cli.serve",
    "fleet.cli.api_token",
    "fleet.cli.keys",
    "fleet.cli.audit",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deid", description="Keyed de-identification of clinical notes.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
