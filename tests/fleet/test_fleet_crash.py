"""A worker hurt mid-batch in each way it can be: the export is the undisturbed run's, byte for byte, with no resume."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from deid_core.keys import StudyKey
from fleet.crash import KILL_MODES, run_trial, write_trial_corpus
from fleet.pipeline import PipelineConfig
from fleet.producer import connect

RULES = PipelineConfig.load(None, ("rules",), 0.5)


@pytest.fixture(scope="module")
def survivor(fleet_env):
    w = fleet_env.worker("cpu", name="survivor").start()
    try:
        w.wait_ready(120)
        yield w
    finally:
        w.stop()


@pytest.mark.parametrize("mode", KILL_MODES)
def test_a_hurt_worker_loses_doubles_and_changes_nothing(fleet_env, survivor, tmp_path, mode):
    corpus = write_trial_corpus(tmp_path / "notes.jsonl", 16, seed=KILL_MODES.index(mode) + 3)
    key = StudyKey.read(Path(fleet_env.env["DEID_KEY_DIR"]) / f"{fleet_env.study}.key.json")
    victims = []

    def victim(env):
        w = fleet_env.worker("cpu", concurrency=2, name=f"victim-{mode}")
        w.env.update(env | {"DEID_SWEEPER": "0"})
        victims.append(w)
        return w

    with connect(fleet_env.settings.with_overrides(chunk_size=1)) as client:
        r = run_trial(client, victim, corpus, fleet_env.study, key, RULES, mode=mode, kill_after=3, rng=random.Random(1), timeout=60)
    assert not victims[0].alive
    assert r.identical and not r.stuck, r
    assert (r.done, r.failed, r.lost, r.duplicated, r.differing) == (16, 0, 0, 0, 0)
