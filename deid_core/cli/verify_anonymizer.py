"""``deid verify-anonymizer``: the paper's Table 2, re-run on a seeded stress set.

Two fresh random keys are made for the run (or ``--key-file`` gives the
first); the guarantees hold for any key, so no key file is needed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from deid_core.cli.common import CliError, add_config_argument, fail, key_from, settings_from
from deid_core.keys import StudyKey
from deid_core.verification import (
    date_styles_to_json,
    format_date_styles,
    format_table,
    rows_to_json,
    verify,
    verify_date_styles,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify-anonymizer", help="re-run the anonymizer verification table")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--key-file", type=Path, default=None, help="verify under this key (default: a fresh one)")
    p.add_argument("--seed", type=int, default=20240601)
    p.add_argument("--n", type=int, default=2000, help="distinct values per keyed category")
    add_config_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from(args)
        key = key_from(args.key_file) if args.key_file else StudyKey.generate("verification")
    except CliError as exc:
        return fail("verify-anonymizer", str(exc))
    rotated = StudyKey.generate(key.study)
    say = (lambda msg: None) if args.json or not sys.stderr.isatty() else (lambda msg: print(f"  {msg}...", file=sys.stderr))
    rows = verify(key, rotated, config=settings.anonymizer, seed=args.seed, n=args.n, progress=say)
    say("date styles")
    styles = verify_date_styles(key, config=settings.anonymizer, seed=args.seed, n=args.n)
    if args.json:
        from deid_core.anonymizer.pools import pool_fingerprint

        report = {"key_id": key.key_id, "name_pool_fingerprint": pool_fingerprint(), "rows": rows_to_json(rows),
                  "date_styles": date_styles_to_json(styles)}
        print(json.dumps(report, indent=2))
    else:
        print(format_table(rows))
        print()
        print(format_date_styles(styles))
    return 0 if all(r.passed for r in rows) and all(s.passed for s in styles) else 1
