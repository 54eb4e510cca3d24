"""A fleet of two worker processes finds exactly the spans of `deid detect`, note by note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deid_core.cli.main import main as deid
from fleet.pipeline import PipelineConfig
from fleet.producer import connect

STUDY = "fleet-test"  # the study conftest creates a key for
RULES = PipelineConfig.load(None, ("rules",), 0.5)
REPO = Path(__file__).resolve().parents[2]
#: every hand-written notes file, held-out and dev
SETS = [
    p for p in sorted((REPO / "eval" / "heldout").glob("*.jsonl")) + sorted((REPO / "eval" / "dev").glob("*.jsonl"))
    if not p.name.endswith(".known.jsonl")
]


@pytest.fixture(scope="module")
def two_workers(fleet_env):
    workers = [fleet_env.worker("cpu", name=f"paths-{i}").start() for i in range(2)]
    try:
        for w in workers:
            w.wait_ready(90)
        yield workers
    finally:
        for w in workers:
            w.stop()


def _spans(rows) -> dict[str, list[tuple[int, int, str]]]:
    return {r["id"]: sorted((s["start"], s["end"], s["label"]) for s in r["spans"]) for r in rows}


@pytest.mark.parametrize("notes", SETS, ids=lambda p: p.stem)
def test_two_worker_fleet_gives_the_spans_of_deid_detect(fleet_env, two_workers, notes, tmp_path, monkeypatch):
    monkeypatch.setenv("DEID_DETECT_MIX", "rules")
    assert deid(["detect", "--in", str(notes), "--out", str(tmp_path / "d.jsonl")]) == 0
    want = _spans(json.loads(line) for line in (tmp_path / "d.jsonl").read_text().splitlines())
    with connect(fleet_env.settings.with_overrides(chunk_size=3)) as client:
        batch = client.submit_jsonl(notes, STUDY, RULES).batch_id
        status = client.wait(batch, timeout=240)
        assert status.complete and status.failed == 0, status
        got = _spans(client.detected(batch))
    assert got.keys() == want.keys()
    assert [n for n in want if got[n] != want[n]] == []
