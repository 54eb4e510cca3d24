"""``deid migrate``: bring the fleet's state store up to the latest schema."""

from __future__ import annotations

import argparse

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, fleet_settings_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("migrate", help="create or upgrade the fleet's state store (Alembic)")
    p.add_argument("--revision", default="head")
    add_fleet_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = fleet_settings_from(args)
    except CliError as exc:
        return fail("migrate", str(exc))
    from fleet.db import DatabaseError, migrate

    try:
        migrate(settings.database_url, settings.database_schema, args.revision)
    except DatabaseError as exc:
        return fail("migrate", str(exc))
    except Exception as exc:
        return fail("migrate", f"{type(exc).__name__}: {exc}")
    where = f" (schema {settings.database_schema})" if settings.database_schema else ""
    print(f"state store at revision {args.revision}{where}")
    return 0
