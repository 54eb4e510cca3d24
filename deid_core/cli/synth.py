"""``deid synth``: write seeded synthetic notes with gold spans as JSONL."""

from __future__ import annotations

import argparse
from pathlib import Path

from deid_core.cli.common import fail
from deid_core.synth import REGISTERS, generate_notes, write_jsonl


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="generate synthetic notes with exact gold spans")
    p.add_argument("--n", type=int, required=True, help="number of notes")
    p.add_argument("--seed", type=int, required=True, help="random seed; the same seed gives identical output")
    p.add_argument("--out", type=Path, required=True, help="JSONL file to write")
    p.add_argument("--registers", default=None, help=f"comma-separated subset of: {','.join(REGISTERS)}")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    registers = None
    if args.registers is not None:
        registers = [r.strip() for r in args.registers.split(",") if r.strip()]
    try:
        notes = generate_notes(args.n, args.seed, registers=registers)
    except ValueError as exc:
        return fail("synth", str(exc))
    try:
        count = write_jsonl(notes, args.out)
    except OSError as exc:
        return fail("synth", f"cannot write {args.out}: {exc}")
    patients = len({n.patient_id for n in notes})
    spans = sum(len(n.spans) for n in notes)
    print(f"wrote {count} notes ({patients} patients, {spans} gold spans) to {args.out}")
    return 0
