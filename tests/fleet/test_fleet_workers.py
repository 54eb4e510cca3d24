"""The fleet with real worker processes on the real Redis and Postgres.

One CPU worker serves this module; no worker serves the GPU queues, so GPU
recognize tasks must take the CPU fallback.  The encoder and generative
slots are filled with fault injectors (see ``conftest.FLEET_TOML``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from sqlalchemy import func, select

from deid_core.keys import StudyKey
from deid_core.synth import generate_notes
from fleet.embedded import run_embedded
from fleet.faults import POISON_MARKER
from fleet.harness import redis_values
from fleet.models import AuditEntry, Item, Output, StageRun
from fleet.pipeline import PipelineConfig
from fleet.producer import connect
from fleet.stages import REDELIVERY_LIMIT

STUDY = "fleet-test"  # the study conftest creates a key for
RULES = PipelineConfig.load(None, ("rules",), 0.5)
WAIT = 120


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("in") / "notes.jsonl"
    notes = generate_notes(16, seed=11)
    lines = [json.dumps({"id": n.id, "patient_id": n.patient_id, "text": n.text}) for n in notes]
    lines.insert(5, '{"id": "broken", "text": ')
    lines.insert(9, json.dumps({"id": 17, "patient_id": ["not", "a", "string"], "text": "x"}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _texts(path: Path) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line)["text"])
        except (ValueError, KeyError):
            pass
    return out


@pytest.fixture(scope="module")
def worker(fleet_env):
    w = fleet_env.worker("cpu", name="cpu-shared").start()
    try:
        w.wait_ready(90)
        yield w
    finally:
        w.stop()


@pytest.fixture(scope="module")
def finished(fleet_env, worker, corpus, tmp_path_factory):
    """One batch submitted through ``deid submit --wait`` and exported through ``deid export``."""
    from fleet.cli import export as export_cli
    from fleet.cli import submit as submit_cli

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    submit_cli.register(sub)
    export_cli.register(sub)
    out_dir = tmp_path_factory.mktemp("out")
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        args = parser.parse_args(["submit", "--in", str(corpus), "--study", STUDY, "--wait", "--timeout", str(WAIT)])
        rc = args.func(args)
    batch_id = buf.getvalue().strip().splitlines()[0]
    out, errors = out_dir / "out.jsonl", out_dir / "errors.jsonl"
    args = parser.parse_args(["export", batch_id, "--out", str(out), "--errors", str(errors)])
    assert args.func(args) == 0
    return {"rc": rc, "batch": batch_id, "out": out, "errors": errors}


def test_submit_and_export_match_the_embedded_run(fleet_env, finished, corpus, tmp_path):
    key = StudyKey.read(Path(fleet_env.env["DEID_KEY_DIR"]) / f"{STUDY}.key.json")
    embedded = tmp_path / "embedded.jsonl"
    run_embedded(corpus, embedded, key, RULES)
    fleet_rows = [json.loads(line) for line in finished["out"].read_text().splitlines()]
    local_rows = [json.loads(line) for line in embedded.read_text().splitlines()]
    assert [(r["id"], r["text"]) for r in fleet_rows] == [(r["id"], r["text"]) for r in local_rows]
    assert len(fleet_rows) == 16 and {r["key_id"] for r in fleet_rows} == {key.key_id}


def test_counts_reconcile_and_failures_say_why(fleet_env, finished):
    from fleet.cli import status as status_cli

    parser = argparse.ArgumentParser()
    status_cli.register(parser.add_subparsers())
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        args = parser.parse_args(["status", finished["batch"], "--json", "--failures"])
        assert args.func(args) == 0
    doc = json.loads(buf.getvalue())
    assert doc["complete"] and doc["submitted"] == doc["done"] + doc["failed"] == 18
    assert (doc["done"], doc["failed"]) == (16, 2)
    assert {(f["line"], f["error_class"]) for f in doc["failures"]} == {(6, "MalformedRecord"), (10, "MalformedRecord")}
    assert all(f["error"] for f in doc["failures"])
    assert finished["rc"] == 1  # --wait reports that some records failed
    errors = [json.loads(line) for line in finished["errors"].read_text().splitlines()]
    assert sorted(e["line"] for e in errors) == [6, 10]


def test_every_note_is_written_once_with_one_run_per_stage(fleet_env, finished):
    with connect(fleet_env.settings, dispatch=False) as client:
        with client.sessions() as s:
            note_ids = select(Item.note_id).where(Item.batch_id == finished["batch"], Item.note_id.is_not(None))
            assert s.scalar(select(func.count()).select_from(Output).where(Output.note_id.in_(note_ids))) == 16
            runs = s.execute(
                select(StageRun.stage, func.count()).where(StageRun.note_id.in_(note_ids)).group_by(StageRun.stage)
            ).all()
            assert dict(runs) == {"recognize:rules": 16, "resolve": 16, "verify": 16, "anonymize": 16}


def test_no_note_text_or_key_in_redis_or_worker_log(fleet_env, finished, corpus, worker):
    key = StudyKey.read(Path(fleet_env.env["DEID_KEY_DIR"]) / f"{STUDY}.key.json")
    texts = [t for t in _texts(corpus) if len(t) > 40]
    values = redis_values(fleet_env.env["DEID_BROKER_URL"])
    blob = b"\n".join(values)
    log = worker.log_text()
    assert "succeeded" in log  # the log is the worker's, and it ran tasks
    for text in texts:
        for line in (ln for ln in text.splitlines() if len(ln) > 25):
            assert line.encode() not in blob
            assert line not in log
    for secret in (key.salt.hex(), key.key.hex()):
        assert secret.encode() not in blob and secret not in log


def test_broker_messages_carry_only_ids(fleet_env, corpus, tmp_path):
    """Messages to a prefix that no worker serves stay in Redis, where we read them."""
    settings = fleet_env.settings.with_overrides(queue_prefix=f"idle{fleet_env.run_id}.")
    with connect(settings) as client:
        result = client.submit_jsonl(corpus, STUDY, RULES)
    values = redis_values(settings.broker_url)
    bodies = [v for v in values if result.batch_id.encode() in v]
    assert len([b for b in bodies if b.startswith(b"[")]) >= result.messages  # decoded message bodies
    for body in bodies:
        if body.startswith(b"["):
            args = json.loads(body)[0]
            assert args[0] == result.batch_id and all(isinstance(i, int) for i in args[1])
    blob = b"\n".join(values)
    for text in _texts(corpus):
        for line in (ln for ln in text.splitlines() if len(ln) > 25):
            assert line.encode() not in blob


def test_gpu_task_without_gpu_worker_falls_back_and_oom_splits(fleet_env, worker, corpus):
    encoder = PipelineConfig.load(None, ("encoder",), 0.5)  # the OOM injector: one note per call at most
    with connect(fleet_env.settings) as client:
        result = client.submit_jsonl(corpus, STUDY, encoder)
        st = client.wait(result.batch_id, timeout=WAIT)
        assert st.complete and (st.done, st.failed) == (16, 2)
        with client.sessions() as s:
            rows = s.execute(
                select(AuditEntry.component, AuditEntry.detail, AuditEntry.worker).where(
                    AuditEntry.batch_id == result.batch_id, AuditEntry.stage == "recognize:encoder"
                )
            ).all()
    splits = sum(int(d.split("oom_splits=")[1]) for _c, d, _w in rows if "oom_splits=" in d)
    assert splits >= result.messages  # every multi-note chunk ran out of memory at least once
    assert all(c.startswith("encoder:fault-oom") for c, d, _w in rows if "oom_splits=" in d)
    assert all(w.startswith(worker.name) or "@" not in w for _c, _d, w in rows)


def test_poison_note_is_failed_after_the_redelivery_cap(fleet_env, worker, tmp_path):
    crash = PipelineConfig.load(None, ("generative",), 0.5)  # the crash injector kills its process
    path = tmp_path / "poison.jsonl"
    lines = [json.dumps({"id": f"p{i}", "patient_id": "P9", "text": f"Seen by Dr. Okafor, call 503-555-01{i:02d}."}) for i in range(4)]
    lines[2] = json.dumps({"id": "p2", "patient_id": "P9", "text": f"{POISON_MARKER} note"})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with connect(fleet_env.settings) as client:
        result = client.submit_jsonl(path, STUDY, crash)
        st = client.wait(result.batch_id, timeout=WAIT)
        assert st.complete and (st.done, st.failed) == (3, 1)
        (failure,) = client.failures(result.batch_id)
    assert failure.record_id == "p2" and failure.error_class == REDELIVERY_LIMIT
    assert "delivered" in failure.error
    assert worker.alive  # the pool lost children, the worker lived on


def test_a_nul_note_fails_alone_on_the_celery_workers_without_sql_text(fleet_env, worker):
    from fleet.producer import IncomingNote

    text = "Mrs. Ellen Parker seen on 03/14/2021 by Dr. Alan Brooks."
    notes = [IncomingNote(i + 1, f"nul-{i}", text, "P1") for i in range(5)]
    notes[1] = IncomingNote(2, "nul-1", text + "\x00", "P1")
    with connect(fleet_env.settings) as client:
        batch = client.submit(notes, STUDY, RULES)
        status = client.wait(batch.batch_id, timeout=60, poll=0.2)
        (failure,) = client.failures(batch.batch_id)
    assert (status.done, status.failed, status.pending) == (4, 1, 0)
    assert (failure.record_id, failure.error_class) == ("nul-1", "MalformedRecord")
    assert "text holds NUL" in failure.error and "INSERT" not in failure.error
