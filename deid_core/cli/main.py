"""Entry point of the ``deid`` console script.

Each module in :data:`COMMANDS` exposes ``register(subparsers)``, which adds
one subcommand whose parser sets ``func(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = (
    "keygen",
    "anonymize",
    "verify_anonymizer",
    "bench",
    "demo",
    "detect",
    "evaluate",
    "synth",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deid", description="Keyed de-identification of clinical notes.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"deid_core.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"deid_core.cli.{name}":
                continue
            raise
        module.register(sub)
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
