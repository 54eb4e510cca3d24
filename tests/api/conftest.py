"""Fixtures for the API tests: a fresh Postgres schema, two tenants with a study each,
and the app with its stages running inline on that store.

Every response the test client receives is kept, so a test can grep all of
them for key material.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

PG_HOST = os.environ.get("DEID_TEST_PG_HOST", "127.0.0.1")

NORTH, SOUTH = "north-study", "south-study"

#: A missed name (the rules do not find "Zephyrine Moultrap") in a note the verifier flags.
MISSED_NAME = "Zephyrine Moultrap"
FLAGGED_TEXT = f"Wound check ok. {MISSED_NAME} says pain 3/10. Codes 739184 and 839201."
PLAIN_TEXT = "Mrs. Ellen Parker seen on 03/14/2021 at Mercy General Hospital by Dr. Alan Brooks."


class RecordingClient(TestClient):
    """A test client that keeps every response body it received."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.bodies: list[bytes] = []

    def request(self, *args, **kwargs):
        res = super().request(*args, **kwargs)
        self.bodies.append(res.content)
        return res


@dataclass
class ApiEnv:
    served: object
    client: RecordingClient
    tokens: dict[str, str]
    keys: dict[str, object]
    settings: object
    root: Path
    env: dict[str, str] = field(default_factory=dict)

    def auth(self, tenant: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[tenant]}"}

    def wait(self, timeout: float = 120.0) -> None:
        assert self.served.runner.wait_idle(timeout), "the inline stages did not finish in time"

    def submit(self, tenant: str, study: str, notes: list[dict]) -> dict:
        res = self.client.post("/v1/notes", json={"study": study, "notes": notes}, headers=self.auth(tenant))
        assert res.status_code == 202, res.text
        self.wait()
        return res.json()


@pytest.fixture(scope="session")
def pg_url() -> str:
    try:
        import psycopg
    except ImportError:
        pytest.skip("psycopg is not installed")
    for user in ("postgres", "root"):
        try:
            psycopg.connect(f"host={PG_HOST} port=5432 dbname=test user={user} connect_timeout=3").close()
            return f"postgresql+psycopg://{user}@{PG_HOST}:5432/test"
        except Exception:
            continue
    pytest.skip(f"Postgres is not reachable on {PG_HOST}:5432 (database 'test')")


def make_api_env(pg_url: str, root: Path, **limits) -> ApiEnv:
    from fleet.api.app import ApiLimits
    from fleet.api.auth import issue_token
    from fleet.api.serving import serve_fleet
    from fleet.db import migrate
    from fleet.keystore import DirectoryKeyStore
    from fleet.pipeline import PipelineConfig
    from fleet.settings import FleetSettings

    schema = f"api_{uuid.uuid4().hex[:10]}"
    keys = DirectoryKeyStore(root / "keys")
    made = {study: keys.create(study) for study in (NORTH, SOUTH)}
    settings = FleetSettings(database_url=pg_url, database_schema=schema, key_dir=root / "keys")
    migrate(pg_url, schema)
    pipeline = PipelineConfig.load(None, settings.recognizers, settings.verifier_threshold)
    served = serve_fleet(settings, pipeline, inline=True, limits=ApiLimits(**limits) if limits else None)
    tokens = {}
    with served.services.sessions.begin() as s:
        tokens["north"] = issue_token(s, "north", [NORTH], label="alice").token
        tokens["south"] = issue_token(s, "south", [SOUTH], label="bob").token
    return ApiEnv(served, RecordingClient(served.app), tokens, made, settings, root)


def drop_api_env(api: ApiEnv) -> None:
    from fleet.db import drop_schema

    api.client.close()
    api.served.close()
    drop_schema(api.settings.database_url, api.settings.database_schema)


@pytest.fixture(scope="module")
def api(pg_url: str, tmp_path_factory) -> Iterator[ApiEnv]:
    env = make_api_env(pg_url, tmp_path_factory.mktemp("api"), max_body_bytes=64 * 1024, max_notes=20, max_note_chars=5000)
    try:
        yield env
    finally:
        drop_api_env(env)
