"""A worker SIGKILLed mid-batch: the batch still completes, every note exactly once."""

from __future__ import annotations

from fleet.crash import kill_trial, write_trial_corpus
from fleet.pipeline import PipelineConfig
from fleet.producer import connect


def test_sigkill_mid_batch_loses_and_duplicates_nothing(fleet_env, tmp_path):
    corpus = write_trial_corpus(tmp_path / "notes.jsonl", 24, seed=3)
    survivors = []

    def survivor():
        if not survivors:
            survivors.append(fleet_env.worker("cpu", name="survivor").start())
            survivors[0].wait_ready(120)
        return survivors[0]

    victim_box = []

    def victim():
        victim_box.append(fleet_env.worker("cpu", name="victim"))
        return victim_box[-1]

    settings = fleet_env.settings.with_overrides(chunk_size=2)
    try:
        with connect(settings) as client:
            result = kill_trial(
                client, victim, survivor, corpus, fleet_env.study, PipelineConfig.load(None, ("rules",), 0.5), kill_after=4
            )
    finally:
        for w in survivors + victim_box:
            w.stop()
    assert not victim_box[0].alive
    assert 4 <= result.killed_after < 24  # killed mid-batch
    assert (result.done, result.failed, result.lost, result.duplicated) == (24, 0, 0, 0)
    print(result)
