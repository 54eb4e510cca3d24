"""A CPU worker runs the next stages of a chunk itself, but only those whose queue it consumes."""

from __future__ import annotations

import json
import time

import pytest
from sqlalchemy import select

from deid_core.synth import generate_notes
from fleet.models import AuditEntry, Item, ItemStatus
from fleet.pipeline import PipelineConfig
from fleet.producer import connect

RULES = PipelineConfig.load(None, ("rules",), 0.5)
WAIT = 120


@pytest.fixture()
def corpus(tmp_path):
    path = tmp_path / "notes.jsonl"
    notes = generate_notes(6, seed=5)
    path.write_text("".join(json.dumps({"id": n.id, "patient_id": n.patient_id, "text": n.text}) + "\n" for n in notes), encoding="utf-8")
    return path


def _received(worker, task: str) -> int:
    return worker.log_path.read_text(errors="replace").count(f"Task {task}[")


def _stages_of(client, batch_id: str) -> set[str]:
    with client.sessions() as s:
        return {st for st, in s.execute(select(Item.stage).where(Item.batch_id == batch_id, Item.status == ItemStatus.PENDING))}


def test_a_cpu_worker_on_every_cpu_queue_runs_a_chunks_later_stages_without_a_message(fleet_env, corpus):
    w = fleet_env.worker("cpu", name="chain-all").start()
    try:
        w.wait_ready(90)
        with connect(fleet_env.settings) as client:
            batch = client.submit_jsonl(corpus, fleet_env.study, RULES)
            status = client.wait(batch.batch_id, timeout=WAIT)
        assert status.done == 6 and status.failed == 0
        assert _received(w, "deid.recognize.rules") >= 1
        assert _received(w, "deid.resolve") == _received(w, "deid.verify") == _received(w, "deid.anonymize") == 0
    finally:
        w.stop()


def test_a_worker_bound_to_one_stage_queue_sends_the_next_stage_on(fleet_env, corpus):
    rules_only = fleet_env.worker("cpu.rules", name="chain-rules").start()
    rest = None
    try:
        rules_only.wait_ready(90)
        with connect(fleet_env.settings) as client:
            batch = client.submit_jsonl(corpus, fleet_env.study, RULES)
            deadline = time.monotonic() + WAIT
            while _stages_of(client, batch.batch_id) != {"resolve"} and time.monotonic() < deadline:
                time.sleep(0.5)
            assert _stages_of(client, batch.batch_id) == {"resolve"}  # recognized, then left for a QC worker
            rest = fleet_env.worker("cpu.qc,cpu.verify,cpu.anonymize", name="chain-rest").start()
            rest.wait_ready(90)
            status = client.wait(batch.batch_id, timeout=WAIT)
            assert status.done == 6
            with client.sessions() as s:
                workers = dict(s.execute(select(AuditEntry.stage, AuditEntry.worker).where(AuditEntry.batch_id == batch.batch_id)).all())
        assert _received(rest, "deid.resolve") >= 1 and _received(rest, "deid.verify") == 0
        assert workers["recognize:rules"] != workers["resolve"] == workers["anonymize"]
    finally:
        rules_only.stop()
        if rest is not None:
            rest.stop()
