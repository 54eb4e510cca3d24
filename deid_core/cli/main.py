"""Entry point of the ``deid`` console script.

Each module in :data:`COMMANDS`, and each one another package declares in
the ``deid.commands`` entry-point group (the fleet declares its own), exposes ``register(subparsers)``, which adds
one subcommand whose parser sets ``func(args) -> int``.  Modules import
their heavy dependencies inside ``func``, so building the parser stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from importlib.metadata import entry_points

COMMANDS = (
    "deid_core.cli.keygen",
    "deid_core.cli.anonymize",
    "deid_core.cli.detect",
    "deid_core.cli.evaluate",
    "deid_core.cli.synth",
    "deid_core.cli.train",
    "deid_core.cli.verify_anonymizer",
    "deid_core.cli.bench",
)
#: Entry-point group through which other packages (the fleet) add their subcommands.
COMMAND_GROUP = "deid.commands"


def command_modules() -> list[str]:
    """The core's command modules, then every installed package's, in name order."""
    extra = sorted(entry_points(group=COMMAND_GROUP), key=lambda ep: ep.name)
    return [*COMMANDS, *(ep.value for ep in extra)]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deid", description="Keyed de-identification of clinical notes.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in command_modules():
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
