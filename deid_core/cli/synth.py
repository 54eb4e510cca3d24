"""``deid synth``: write seeded synthetic notes with gold spans as JSONL.

``--known FILE`` also writes the patients' records as known identifiers
(:mod:`deid_core.synth.known`), with the gaps a real record has.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from deid_core.cli.common import fail
from deid_core.known import write_known
from deid_core.synth import OPT_IN_REGISTERS, REGISTERS, write_jsonl
from deid_core.synth.generator import generate_notes_and_patients
from deid_core.synth.known import known_records


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="generate synthetic notes with exact gold spans")
    p.add_argument("--n", type=int, required=True, help="number of notes")
    p.add_argument("--seed", type=int, required=True, help="random seed; the same seed gives identical output")
    p.add_argument("--out", type=Path, required=True, help="JSONL file to write")
    p.add_argument(
        "--registers", default=None,
        help=f"comma-separated registers (default: {','.join(REGISTERS)}; also: {','.join(OPT_IN_REGISTERS)})",
    )
    p.add_argument("--recase", type=float, default=0.0, help="share of notes written wholly in upper or lower case (default 0)")
    p.add_argument("--known", type=Path, default=None, help="also write each patient's known identifiers here (JSONL)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    registers = None
    if args.registers is not None:
        registers = [r.strip() for r in args.registers.split(",") if r.strip()]
    try:
        notes, patients = generate_notes_and_patients(args.n, args.seed, registers=registers, recase=args.recase)
    except ValueError as exc:
        return fail("synth", str(exc))
    try:
        count = write_jsonl(notes, args.out)
    except OSError as exc:
        return fail("synth", f"cannot write {args.out}: {exc}")
    spans = sum(len(n.spans) for n in notes)
    print(f"wrote {count} notes ({len(patients)} patients, {spans} gold spans) to {args.out}")
    if args.known is not None:
        try:
            written = write_known(args.known, known_records(patients, args.seed))
        except OSError as exc:
            return fail("synth", f"cannot write {args.known}: {exc}")
        print(f"wrote the known identifiers of {written} patients to {args.known}")
    return 0
