"""``deid audit BATCH``: what ran for a batch, under which configuration, models and key id.

Prints the batch's configuration digest, recognizer names and versions,
model digests, key id (never the key), counts with the leak report's, and
every audit row (stage executions and reviewer actions) as a table, or
one JSON object with ``--json``.
"""

from __future__ import annotations

import argparse
import json

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, fleet_settings_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("audit", help="show a batch's audit trail")
    p.add_argument("batch", help="batch id printed by `deid submit` or `deid run`")
    p.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = fleet_settings_from(args)
        from fleet.audit import AuditError, batch_audit, format_audit
        from fleet.db import make_engine, session_factory

        engine = make_engine(settings.database_url, settings.database_schema)
        try:
            report = batch_audit(session_factory(engine), args.batch)
        except AuditError as exc:
            raise CliError(str(exc)) from None
        finally:
            engine.dispose()
    except CliError as exc:
        return fail("audit", str(exc))
    print(json.dumps(report.to_dict()) if args.json else format_audit(report))
    return 0
