"""``deid export BATCH --out out.jsonl``: the batch's de-identified notes, in input order."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, fleet_settings_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export", help="write a batch's de-identified notes")
    p.add_argument("batch", help="batch id printed by `deid submit`")
    dest = p.add_mutually_exclusive_group(required=True)
    dest.add_argument("--out", type=Path, help="output JSONL")
    dest.add_argument("--to-warehouse", action="store_true", help="write to the [fleet.warehouse] target table")
    p.add_argument("--errors", type=Path, default=None, help="also write the failed records and why (JSONL)")
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = fleet_settings_from(args)
        from fleet.producer import SubmitError, connect

        with connect(settings, dispatch=False) as client:
            try:
                if args.to_warehouse:
                    from fleet.warehouse import write_target

                    written = write_target(settings.warehouse, client, args.batch)
                    st = client.status(args.batch)
                    failed, pending = st.failed, st.pending
                    where = settings.warehouse.target_table
                else:
                    result = client.export(args.batch, args.out, args.errors)
                    written, failed, pending = result.written, result.failed, result.pending
                    where = str(args.out)
            except SubmitError as exc:
                raise CliError(str(exc)) from None
    except CliError as exc:
        return fail("export", str(exc))
    print(f"wrote {written} de-identified notes to {where}; {failed} failed, {pending} still pending", file=sys.stderr)
    return 0 if pending == 0 else 3
