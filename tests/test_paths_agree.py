"""`deid run` (the fleet's stages, in process) and `deid detect` find the same spans, note by note."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("paths_agree", REPO / "scripts" / "paths_agree.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.fixture(autouse=True)
def _rules_only(monkeypatch):
    monkeypatch.setenv("DEID_DETECT_MIX", "rules")  # the same mix in CI whether or not an encoder was trained


def test_run_gives_detects_spans_on_every_hand_written_note_at_chunk_sizes_1_8_100(capsys):
    script = _script()
    files = script.notes_files()
    assert len(files) >= 10  # the held-out and dev sets are all there
    assert script.main(["--chunk-sizes", "1,8,100", *map(str, files)]) == 0, capsys.readouterr().out
    assert "differ between `deid run` and `deid detect`: 0" in capsys.readouterr().out


def test_the_comparison_fails_when_a_note_differs(tmp_path, monkeypatch, capsys):
    """The check can fail: with propagation cut at chunk edges (the old behaviour) it names the note."""
    import fleet.stages

    notes = tmp_path / "n.jsonl"
    notes.write_text(
        '{"id": "a", "patient_id": "P", "text": "Patient: Wilhelmina Oyelaran, seen today."}\n'
        '{"id": "b", "patient_id": "Q", "text": "Unrelated note."}\n'
        '{"id": "c", "patient_id": "P", "text": "Plan discussed, Oyelaran agrees."}\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(fleet.stages, "gather_patients", lambda s, batch, plan, work: (work, 0))
    monkeypatch.setattr("fleet.producer.item_chunks", lambda ids, groups, size: [[i] for i in ids])
    assert _script().main(["--chunk-sizes", "1", str(notes)]) == 1
    assert "1 differ (c)" in capsys.readouterr().out


def test_run_takes_the_detect_mix_and_refuses_what_detect_refuses_before_reading_input(tmp_path, capsys, monkeypatch):
    from deid_core.cli.main import main as deid

    key = tmp_path / "k.key.json"
    deid(["keygen", "--study", "paths", "--out", str(key)])
    missing = tmp_path / "not-written-yet.jsonl"  # never read: the configuration stops both first
    for body, says in (
        ('[detect]\nmix = ["rules"]\npropogate = false\n', "detect.propogate: unknown key"),
        ('[detect]\nmix = ["rules", "generative"]\n', "needs model_path"),
    ):
        config = tmp_path / "c.toml"
        config.write_text(body, encoding="utf-8")
        notes = tmp_path / "n.jsonl"
        notes.write_text('{"id": "a", "text": "Seen by Dr. Okafor."}\n', encoding="utf-8")
        capsys.readouterr()
        assert deid(["detect", "--in", str(notes), "--out", str(missing), "--config", str(config)]) == 2
        assert deid(["run", "--in", str(notes), "--out", str(missing), "--key-file", str(key), "--config", str(config)]) == 2
        err = capsys.readouterr().err
        assert err.count(says) == 2 and not missing.exists()
    # with no mix anywhere, both default to the rules and the encoder, which here cannot load
    monkeypatch.delenv("DEID_DETECT_MIX")
    monkeypatch.setenv("DEID_ENCODER_DIR", str(tmp_path / "no-model-here"))
    config.write_text("[detect]\npropagate = true\n", encoding="utf-8")
    out = tmp_path / "o.jsonl"
    assert deid(["detect", "--in", str(notes), "--out", str(out), "--config", str(config)]) == 2
    assert deid(["run", "--in", str(notes), "--out", str(out), "--key-file", str(key), "--config", str(config)]) == 2
    config.write_text('[detect]\nmix = ["rules"]\n', encoding="utf-8")  # the mix of [detect] is what `run` runs
    assert deid(["detect", "--in", str(notes), "--out", str(out), "--config", str(config)]) == 0
    assert deid(["run", "--in", str(notes), "--out", str(out), "--key-file", str(key), "--config", str(config)]) == 0
