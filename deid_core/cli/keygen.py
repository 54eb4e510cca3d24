"""``deid keygen``: create a study key file (mode 0600, never overwritten)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deid_core.keys import KeyFileError, StudyKey


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("keygen", help="create a new study key file")
    p.add_argument("--study", required=True, help="study name recorded with the key")
    p.add_argument("--out", required=True, type=Path, help="key file to create (must not exist)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    key = StudyKey.generate(args.study)
    try:
        key.write(args.out)
    except (KeyFileError, OSError) as exc:
        print(f"deid keygen: {exc}", file=sys.stderr)
        return 2
    print(f"wrote key {key.key_id} for study {args.study!r} to {args.out} (mode 0600)")
    return 0
