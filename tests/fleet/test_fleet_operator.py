"""What an operator meets: migrate, submit with a broker down or no workers, status, queue prefixes.

Real Postgres and Redis; no worker serves these batches unless a test starts one.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import redis
from sqlalchemy.engine import make_url

from deid_core.cli.main import main
from fleet.harness import REPO_ROOT

STUDY = "fleet-test"


def _admin(pg_url: str):
    url = make_url(pg_url)
    return psycopg.connect(host=url.host, port=url.port or 5432, user=url.username, dbname="test", autocommit=True)


def _corpus(path: Path, n: int = 3, bad: bool = False) -> Path:
    lines = [json.dumps({"id": f"op-{i}", "patient_id": "P1", "text": f"Seen by Dr. Alan Brooks, MRN {4000 + i}."}) for i in range(n)]
    if bad:
        lines = ['{"id": "x", "text": ' for _ in range(n)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_migrate_creates_a_missing_database_and_schema(pg_url, capsys):
    name = f"deid_mig_{uuid.uuid4().hex[:8]}"
    url = make_url(pg_url).set(database=name).render_as_string(hide_password=False)
    try:
        assert main(["migrate", "--database-url", url, "--schema", "store"]) == 0
        with psycopg.connect(host="127.0.0.1", user=make_url(pg_url).username, dbname=name) as conn:
            tables = {r[0] for r in conn.execute("select table_name from information_schema.tables where table_schema = 'store'")}
        assert {"batches", "items", "notes"} <= tables
    finally:
        with _admin(pg_url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_migrate_says_exactly_how_when_it_may_not_create_the_database(pg_url, capsys):
    role, name = f"deid_nocreate_{uuid.uuid4().hex[:6]}", f"deid_mig_{uuid.uuid4().hex[:8]}"
    with _admin(pg_url) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN NOCREATEDB')
    try:
        url = f"postgresql+psycopg://{role}@127.0.0.1:5432/{name}"
        assert main(["migrate", "--database-url", url]) == 2
        err = capsys.readouterr().err
        assert f"createdb -h 127.0.0.1 -p 5432 -U {role} {name}" in err
        assert f'CREATE DATABASE "{name}"' in err
    finally:
        with _admin(pg_url) as conn:
            conn.execute(f'DROP ROLE IF EXISTS "{role}"')


def test_the_documented_alembic_command_works_with_a_schema(pg_url):
    from fleet.db import drop_schema

    schema = f"alem_{uuid.uuid4().hex[:8]}"
    env = dict(os.environ, DEID_DATABASE_URL=pg_url, DEID_DATABASE_SCHEMA=schema)
    alembic = Path(sys.executable).with_name("alembic")
    try:
        res = subprocess.run(
            [str(alembic), "-c", "migrations/alembic.ini", "upgrade", "head"], cwd=REPO_ROOT, env=env, capture_output=True, text=True
        )
        assert res.returncode == 0, res.stderr[-2000:]
    finally:
        drop_schema(pg_url, schema)


def test_with_the_broker_down_submit_names_the_stored_batch_and_how_to_resume(fleet_env, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DEID_BROKER_URL", os.environ["DEID_BROKER_URL"])  # the command exports its broker URL
    corpus = _corpus(tmp_path / "notes.jsonl")
    rc = main(["submit", "--in", str(corpus), "--study", STUDY, "--broker-url", "redis://127.0.0.1:1/0"])
    out, err = capsys.readouterr()
    assert rc == 2
    batch = out.strip().splitlines()[0]
    assert re.fullmatch(r"[0-9a-f]{32}", batch)
    assert f"deid submit --resume {batch}" in err and f"batch {batch} is stored" in err
    # the batch is in the store, pending, and status says so with a non-zero exit
    assert main(["status", batch]) == 3
    out = capsys.readouterr().out
    assert "pending at recognize:rules: 3" in out and f"deid submit --resume {batch}" in out
    assert main(["status", batch, "--json"]) == 3
    assert json.loads(capsys.readouterr().out)["pending"] == 3


def test_status_exits_zero_only_for_a_complete_batch(fleet_env, tmp_path, capsys):
    corpus = _corpus(tmp_path / "bad.jsonl", bad=True)  # every record malformed: complete at submission
    assert main(["submit", "--in", str(corpus), "--study", STUDY]) == 0
    batch = capsys.readouterr().out.strip()
    assert main(["status", batch]) == 0
    assert "resume" not in capsys.readouterr().out


def test_submit_wait_with_no_workers_shows_progress_and_times_out(fleet_env, tmp_path, capsys):
    corpus = _corpus(tmp_path / "notes.jsonl", n=4)
    rc = main(["submit", "--in", str(corpus), "--study", STUDY, "--wait", "--timeout", "2"])
    out, err = capsys.readouterr()
    assert rc == 3
    batch = out.strip()
    assert re.search(r"batch \w{8}: +0%.*0/4", err), err
    assert "pending=4" in err
    assert "gave up waiting after 2s" in err and f"deid submit --resume {batch}" in err


def test_each_queue_prefix_has_its_own_unacked_set(fleet_env, tmp_path):
    """A worker killed while holding a message leaves it in its own fleet's unacked set, not a shared one."""
    import celeryconfig

    prefix = fleet_env.env["DEID_QUEUE_PREFIX"]
    other = celeryconfig.prefixed("other.")["broker_transport_options"]
    assert other["unacked_key"] == "other.unacked" and other["unacked_index_key"] == "other.unacked_index"
    victim = fleet_env.worker("cpu", name="held")
    victim.env.update({"DEID_FAULT_ON_RECEIVE": "kill:1", "DEID_SWEEPER": "0"})
    victim.start()  # not waited for: a message left queued by an earlier test may kill it before its log says ready
    from fleet.pipeline import PipelineConfig
    from fleet.producer import connect

    with connect(fleet_env.settings) as client:
        client.submit_jsonl(_corpus(tmp_path / "n.jsonl", n=1), STUDY, PipelineConfig.load(None, ("rules",), 0.5))
    victim.proc.wait(timeout=90)
    broker = redis.Redis.from_url(fleet_env.env["DEID_BROKER_URL"])
    held = broker.hvals(f"{prefix}unacked")
    assert held and all(prefix.encode() in v for v in held), "the killed worker's message is not in its fleet's unacked set"
    assert not [v for v in broker.hvals("unacked") if prefix.encode() in v]
