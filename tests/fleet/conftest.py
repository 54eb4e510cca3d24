"""Fixtures for the fleet tests: a fresh Postgres schema, a Redis database and
queue prefix of their own, a key directory, and real worker processes.

Everything a run creates is named after a random run id and removed at the
end, so reruns (and concurrent runs) do not collide.  Tests that need
Postgres or Redis skip, saying why, when the service is not reachable.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

PG_HOST = os.environ.get("DEID_TEST_PG_HOST", "127.0.0.1")
REDIS_URL_BASE = os.environ.get("DEID_TEST_REDIS", "redis://127.0.0.1:6379")
STUDY = "fleet-test"


def _pg_url() -> str | None:
    try:
        import psycopg
    except ImportError:
        return None
    for user in ("postgres", "root"):
        try:
            psycopg.connect(f"host={PG_HOST} port=5432 dbname=test user={user} connect_timeout=3").close()
            return f"postgresql+psycopg://{user}@{PG_HOST}:5432/test"
        except Exception:
            continue
    return None


def _redis_ok() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL_BASE + "/0", socket_timeout=3).ping())
    except Exception:
        return False


@pytest.fixture(scope="session")
def pg_url() -> str:
    url = _pg_url()
    if url is None:
        pytest.skip("Postgres is not reachable on 127.0.0.1:5432 (database 'test')")
    return url


@pytest.fixture(scope="session")
def redis_db() -> int:
    if not _redis_ok():
        pytest.skip("Redis is not reachable on 127.0.0.1:6379")
    return 7 + uuid.uuid4().int % 8  # 7..14: away from the default database 0


@dataclass
class FleetEnv:
    """One isolated fleet: its own schema, queue prefix and environment."""

    run_id: str
    env: dict[str, str]
    root: Path
    study: str = STUDY

    @property
    def settings(self):
        from fleet.settings import load_fleet_settings

        return load_fleet_settings(env=self.env)

    def worker(self, queues: str = "cpu", concurrency: int = 1, name: str | None = None):
        from fleet.harness import WorkerProcess

        w = WorkerProcess(
            queues,
            dict(os.environ) | self.env,
            self.root / "logs" / f"{name or uuid.uuid4().hex[:6]}.log",
            concurrency=concurrency,
            prefix=self.env["DEID_QUEUE_PREFIX"],
        )
        return w


FLEET_TOML = """
[fleet]
max_deliveries = 4

[fleet.models.encoder]
factory = "fleet.faults:oom_detector"
options = { max_notes = 1 }

[fleet.models.generative]
factory = "fleet.faults:crash_detector"
"""


def make_fleet_env(pg_url: str, redis_db: int, root: Path, label: str) -> FleetEnv:
    from fleet.db import migrate
    from fleet.keystore import DirectoryKeyStore

    run_id = f"{label}{uuid.uuid4().hex[:8]}"
    root.mkdir(parents=True, exist_ok=True)
    (root / "fleet.toml").write_text(FLEET_TOML, encoding="utf-8")
    keys = root / "keys"
    DirectoryKeyStore(keys).create(STUDY)
    env = {
        "DEID_FLEET_CONFIG": str(root / "fleet.toml"),
        "DEID_DATABASE_URL": pg_url,
        "DEID_DATABASE_SCHEMA": f"t_{run_id}",
        "DEID_BROKER_URL": f"{REDIS_URL_BASE}/{redis_db}",
        "DEID_QUEUE_PREFIX": f"{run_id}.",
        "DEID_KEY_DIR": str(keys),
        "DEID_TASK_TIME_LIMIT": "8",
        "DEID_VISIBILITY_TIMEOUT": "10",
    }
    migrate(pg_url, env["DEID_DATABASE_SCHEMA"])
    return FleetEnv(run_id, env, root)


def drop_fleet_env(fleet: FleetEnv) -> None:
    import redis

    from fleet.db import drop_schema

    drop_schema(fleet.env["DEID_DATABASE_URL"], fleet.env["DEID_DATABASE_SCHEMA"])
    client = redis.Redis.from_url(fleet.env["DEID_BROKER_URL"])
    for key in client.scan_iter(match=f"*{fleet.run_id}*"):
        client.delete(key)


@pytest.fixture(scope="module")
def fleet_env(pg_url: str, redis_db: int, tmp_path_factory) -> Iterator[FleetEnv]:
    fleet = make_fleet_env(pg_url, redis_db, tmp_path_factory.mktemp("fleet"), "f")
    saved = {k: os.environ.get(k) for k in fleet.env}
    os.environ.update(fleet.env)  # celeryconfig reads the environment when first imported
    try:
        yield fleet
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        drop_fleet_env(fleet)
