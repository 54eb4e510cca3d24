"""``--known FILE`` for the commands that detect: read it, report bad lines, arm the detector."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deid_core.known import KnownFile, read_known
from deid_core.recognizers.known import KnownIdentifierRecognizer

#: why a note fails when its patient's known-identifier record was bad
KNOWN_RECORD_FAILED = "its patient's known-identifier record is invalid (reported above); the note is not detected without it"


def add_known_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--known", type=Path, default=None, help="known identifiers per patient, JSONL {patient_id, names, ids, ...} (docs/known.md)"
    )


def read_known_reported(path: Path | None, command: str) -> KnownFile | None:
    """The known-identifier file at ``path`` (None without one), each bad line reported on stderr."""
    if path is None:
        return None
    read = read_known(path)
    for error in read.errors:
        print(f"deid {command}: {path}: {error}", file=sys.stderr)
    return read


def attach_known(detector, path: Path | None, command: str) -> frozenset[str]:
    """Give ``detector`` the known identifiers in ``path``.

    Returns the patients whose record was bad: their notes fail rather than
    go out without the floor their record was meant to give.
    """
    read = read_known_reported(path, command)
    if read is None:
        return frozenset()
    detector.known = KnownIdentifierRecognizer(read.known)
    return read.failed_patients
