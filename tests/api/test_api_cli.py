"""``deid api-token``: the token is printed once and only its hash is stored."""

from __future__ import annotations

import hashlib

from sqlalchemy import select

from tests.api.conftest import NORTH


def _argv(api, *args: str) -> list[str]:
    s = api.settings
    return [*args, "--database-url", s.database_url, "--schema", s.database_schema]


def test_api_token_create_prints_a_working_token_once(api, capsys):
    import argparse

    from fleet.cli import api_token
    from fleet.models import ApiToken

    parser = argparse.ArgumentParser(prog="deid")
    api_token.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(_argv(api, "api-token", "create", "--tenant", "north", "--study", NORTH, "--label", "carol"))
    assert args.func(args) == 0
    out, err = capsys.readouterr()
    token = out.strip()
    assert token.startswith("deid_") and len(token) > 40
    assert token not in err and "shown only this once" in err
    with api.served.services.sessions() as s:
        row = s.scalar(select(ApiToken).where(ApiToken.label == "carol"))
    assert row.token_sha256 == hashlib.sha256(token.encode()).hexdigest()
    res = api.client.get("/v1/review/queue", headers={"Authorization": f"Bearer {token}"})
    assert res.status_code == 200
    args = parser.parse_args(_argv(api, "api-token", "create", "--tenant", "south", "--study", NORTH))
    assert args.func(args) == 2
    assert "already belongs to another tenant" in capsys.readouterr().err
