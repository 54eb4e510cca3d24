"""No item waits for a human: the sweeper re-sends what the store shows as stalled.

Real workers on the real Redis and Postgres.  The broker's own recovery is
pushed out of reach (a visibility timeout of ten minutes), so whatever
comes back within two task time limits came back through the sweeper.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from deid_core.synth import generate_notes
from fleet.models import Item
from fleet.pipeline import PipelineConfig
from fleet.producer import connect
from fleet.sweeper import sweep, sweep_timing

STUDY = "fleet-test"
RULES = PipelineConfig.load(None, ("rules",), 0.5)
TIME_LIMIT = 12
FAR = {"DEID_TASK_TIME_LIMIT": str(TIME_LIMIT), "DEID_VISIBILITY_TIMEOUT": "600"}


def _corpus(path: Path, n: int, seed: int) -> Path:
    notes = generate_notes(n, seed=seed)
    path.write_text("".join(json.dumps({"id": x.id, "patient_id": x.patient_id, "text": x.text}) + "\n" for x in notes))
    return path


@pytest.fixture(scope="module")
def survivor(fleet_env):
    w = fleet_env.worker("cpu", name="survivor")
    w.env.update(FAR)
    w.start()
    try:
        w.wait_ready(90)
        yield w
    finally:
        w.stop()


@pytest.mark.parametrize("fault", ["drop:1", "kill:1"])
def test_a_lost_or_killed_message_completes_within_two_time_limits_with_no_command(fleet_env, survivor, tmp_path, fault):
    victim = fleet_env.worker("cpu", name=f"victim-{fault[:4]}")
    victim.env.update(FAR | {"DEID_FAULT_ON_RECEIVE": fault, "DEID_SWEEPER": "0"})
    victim.start().wait_ready(90)
    corpus = _corpus(tmp_path / "notes.jsonl", 12, seed=hash(fault) % 1000)
    with connect(fleet_env.settings.with_overrides(chunk_size=2)) as client:
        batch = client.submit_jsonl(corpus, STUDY, RULES)
        started = time.monotonic()
        status = client.wait(batch.batch_id, timeout=2 * TIME_LIMIT + 10, poll=0.2)
        took = time.monotonic() - started
    if fault.startswith("kill"):
        victim.proc.wait(timeout=10)
        assert victim.proc.returncode is not None, "the victim never took a message"
    else:
        assert re.search(r"'dropped': [1-9]", victim.log_text()), "the victim never took a message"  # a patient's notes
        victim.stop()
    assert (status.done, status.failed, status.pending) == (12, 0, 0)
    assert took <= 2 * TIME_LIMIT, f"took {took:.1f}s"
    assert "sweeper: re-sent" in survivor.log_text()


def test_a_batch_stored_but_never_sent_is_sent_by_the_sweeper_once_per_deadline(fleet_env, tmp_path):
    """A producer whose broker failed after the batch was written: the store still has every item."""
    from fleet.api.runner import BackgroundRunner
    from fleet.producer import SubmitError
    from fleet.stages import StageContext

    corpus = _corpus(tmp_path / "notes.jsonl", 5, seed=3)
    with connect(fleet_env.settings.with_overrides(chunk_size=2), dispatch=False) as client:
        with pytest.raises(SubmitError):
            client.submit_jsonl(corpus, STUDY, RULES)  # written, then nothing to send with
        with client.sessions() as s:
            batch_id = s.scalar(select(Item.batch_id).order_by(Item.id.desc()).limit(1))
        runner = BackgroundRunner(StageContext(client.sessions, client.keystore, worker="sweep-test"))
        try:
            stall_after = 2
            sweep(client.sessions, runner.send, stall_after, 2)  # too early for this batch
            assert runner.wait_idle(60) and client.status(batch_id).pending == 5
            time.sleep(stall_after + 0.5)
            assert sweep(client.sessions, runner.send, stall_after, 2) >= 5
            assert sweep(client.sessions, runner.send, stall_after, 2) == 0, "re-sent again before another deadline"
            assert runner.wait_idle(60)
        finally:
            runner.close()
        status = client.status(batch_id)
    assert (status.submitted, status.done, status.pending) == (5, 5, 0)


def test_sweep_deadline_follows_the_time_limit():
    assert sweep_timing(600).stall_after == 660 and sweep_timing(600).interval == 60
    assert sweep_timing(8).stall_after == 9 and sweep_timing(8).interval == 1
