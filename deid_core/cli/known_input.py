"""``--known FILE`` for the commands that detect: read it, report bad lines, arm the detector."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deid_core.known import read_known
from deid_core.recognizers.known import KnownIdentifierRecognizer

#: why a note fails when its patient's known-identifier record was bad
KNOWN_RECORD_FAILED = "its patient's known-identifier record is invalid (reported above); the note is not detected without it"


def add_known_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--known", type=Path, default=None, help="known identifiers per patient, JSONL {patient_id, names, ids, ...} (docs/known.md)"
    )


def attach_known(detector, path: Path | None, command: str) -> frozenset[str]:
    """Give ``detector`` the known identifiers in ``path``; report each bad line on stderr.

    Returns the patients whose record was bad: their notes fail rather than
    go out without the floor their record was meant to give.
    """
    if path is None:
        return frozenset()
    read = read_known(path)
    for error in read.errors:
        print(f"deid {command}: {path}: {error}", file=sys.stderr)
    detector.known = KnownIdentifierRecognizer(read.known)
    return read.failed_patients
