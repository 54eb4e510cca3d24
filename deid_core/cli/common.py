"""Pieces shared by the subcommands: configuration, keys, progress, JSONL output."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Iterable, Iterator, TypeVar

from tqdm import tqdm

from deid_core.config import ConfigError, Settings, load_settings
from deid_core.keys import KeyFileError, StudyKey

T = TypeVar("T")


class CliError(Exception):
    """A problem the user can fix; printed without a traceback."""


def add_config_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", type=Path, default=None, help="TOML configuration (default: the shipped one)")


def settings_from(args: argparse.Namespace) -> Settings:
    try:
        return load_settings(args.config)
    except ConfigError as exc:
        raise CliError(str(exc)) from None


def key_from(path: Path) -> StudyKey:
    try:
        return StudyKey.read(path)
    except KeyFileError as exc:
        raise CliError(str(exc)) from None


def progress(items: Iterable[T], *, total: int | None = None, desc: str = "") -> Iterator[T]:
    """A progress bar on stderr when it is a terminal; silent otherwise."""
    return iter(tqdm(items, total=total, desc=desc, unit="note", file=sys.stderr, disable=None, leave=False))


def count_lines(path: Path) -> int:
    with open(path, "rb") as fh:
        return sum(1 for line in fh if line.strip())


def fail(command: str, message: str, code: int = 2) -> int:
    print(f"deid {command}: {message}", file=sys.stderr)
    return code
