"""``deid api-token create|list|revoke``: tenants, their studies and their tokens.

``create`` makes the tenant if it is new, grants it the studies given and
prints a new token on stdout, once: only its SHA-256 is stored, so a lost
token is revoked and replaced, never recovered.
"""

from __future__ import annotations

import argparse
import sys

from deid_core.cli.common import CliError, fail
from fleet.cli.common import add_fleet_arguments, fleet_settings_from


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("api-token", help="create, list or revoke tenant API tokens")
    actions = p.add_subparsers(dest="token_action", required=True, metavar="ACTION")
    c = actions.add_parser("create", help="create a token for a tenant (and grant it studies); prints the token once")
    c.add_argument("--tenant", required=True)
    c.add_argument("--study", action="append", default=[], help="grant this study to the tenant (repeatable)")
    c.add_argument("--label", default="", help="who holds the token; audit rows name reviewers by it")
    add_fleet_arguments(c)
    ls = actions.add_parser("list", help="list tokens (ids, tenants, labels; never the tokens)")
    add_fleet_arguments(ls)
    r = actions.add_parser("revoke", help="revoke a token by its id")
    r.add_argument("token_id", type=int)
    add_fleet_arguments(r)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        settings = fleet_settings_from(args)
    except CliError as exc:
        return fail("api-token", str(exc))
    from sqlalchemy import select

    from fleet.api.auth import TenantError, issue_token, revoke_token
    from fleet.db import make_engine, session_factory
    from fleet.keystore import KeyStoreError
    from fleet.models import ApiToken

    engine = make_engine(settings.database_url, settings.database_schema)
    try:
        sessions = session_factory(engine)
        if args.token_action == "create":
            with sessions.begin() as s:
                issued = issue_token(s, args.tenant, args.study, args.label)
            print(issued.token)
            print(
                f"token {issued.token_id} for tenant {issued.tenant!r} (studies: {', '.join(issued.studies) or 'none'}); "
                "it is shown only this once",
                file=sys.stderr,
            )
        elif args.token_action == "list":
            with sessions() as s:
                for t in s.scalars(select(ApiToken).order_by(ApiToken.id)):
                    state = f"revoked {t.revoked_at:%Y-%m-%d}" if t.revoked_at else "active"
                    print(f"{t.id}\t{t.tenant_id}\t{t.label}\t{t.created_at:%Y-%m-%d}\t{state}")
        else:
            with sessions.begin() as s:
                if not revoke_token(s, args.token_id):
                    raise CliError(f"no active token {args.token_id}")
            print(f"revoked token {args.token_id}", file=sys.stderr)
    except (CliError, TenantError, KeyStoreError) as exc:
        return fail("api-token", str(exc))
    except Exception as exc:
        return fail("api-token", f"{type(exc).__name__}: {exc}")
    finally:
        engine.dispose()
    return 0
