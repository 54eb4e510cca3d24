"""``deid anonymize``: replace given spans with keyed surrogates.

Input lines: ``{id, patient_id, text, spans:[{start,end,label}]}``.
Output lines: ``{id, patient_id, text, spans, key_id}`` in input order, with
``text`` de-identified, ``spans`` in output coordinates and ``patient_id``
(``id`` too with ``pseudonymize_id``) a keyed pseudonym.  A bad record
(including a text over ``limits.max_note_chars`` and an id seen on an
earlier line) is reported on stderr (line and id) and left out; the others
are written.  When no record succeeds the output file is left as it was.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deid_core.anonymizer.engine import Anonymizer
from deid_core.anonymizer.jsonl import anonymize_record
from deid_core.cli.common import CliError, add_config_argument, count_lines, fail, key_from, progress, settings_from
from deid_core.records import KeepPrevious, RecordError, atomic_writer, dump, read_jsonl


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("anonymize", help="replace detected spans with keyed surrogates")
    p.add_argument("--in", dest="inp", required=True, type=Path, help="input JSONL with spans")
    p.add_argument("--out", required=True, type=Path, help="output JSONL")
    p.add_argument("--key-file", required=True, type=Path, help="study key file from `deid keygen`")
    add_config_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = settings_from(args)
        key = key_from(args.key_file)
        if not args.inp.exists():
            raise CliError(f"input file {args.inp} does not exist")
    except CliError as exc:
        return fail("anonymize", str(exc))
    anonymizer = Anonymizer(key, settings.anonymizer)
    written = failed = 0
    records = read_jsonl(args.inp, max_note_chars=settings.limits.max_note_chars, unique_ids=True)
    with atomic_writer(args.out) as out:
        for item in progress(records, total=count_lines(args.inp), desc="anonymize"):
            result = item if isinstance(item, RecordError) else anonymize_record(anonymizer, item)
            if isinstance(result, RecordError):
                failed += 1
                print(f"deid anonymize: {args.inp}: {result}", file=sys.stderr)
                continue
            out.write(dump(result) + "\n")
            written += 1
        if not written:
            print(f"deid anonymize: no record succeeded; {args.out} left as it was", file=sys.stderr)
            raise KeepPrevious
    print(f"wrote {written} de-identified notes to {args.out} (key {key.key_id}); {failed} failed")
    return 1 if failed else 0
