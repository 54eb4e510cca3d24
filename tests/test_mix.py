"""The recognizer mix in `deid detect` and `deid eval`: configuration, defaults, union, per-recognizer scores."""

from __future__ import annotations

from deid_core.notes import ClinicalNote
import json

import pytest

from deid_core.cli.main import main
from deid_core.recognizers.plausibility import unite_with_rules
from deid_core.recognizers.mix import MIX_ENV, build_mix
from deid_core.recognizers.pipeline import DetectConfig, DetectConfigError

from deid_core.synth import generate_notes, write_jsonl


@pytest.fixture
def no_default_encoder(monkeypatch, tmp_path):
    import deid_core.recognizers.encoder as encoder

    monkeypatch.delenv(MIX_ENV, raising=False)
    monkeypatch.delenv(encoder.ENCODER_DIR_ENV, raising=False)
    monkeypatch.setattr(encoder, "repo_model_dir", lambda: tmp_path / "no-model")


@pytest.fixture(scope="module")
def tiny_encoder(tmp_path_factory):
    """A 1-layer encoder trained for real on a few synthetic notes."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from deid_core.training import TrainConfig, train_encoder

    config = TrainConfig(notes=40, epochs=2, seed=3, max_length=96, batch_size=8, learning_rate=2e-3, layers=1,
                         dropout=0.0, freeze_embeddings=True)
    return train_encoder(config, tmp_path_factory.mktemp("mix") / "encoder", progress=False).out_dir


def test_detect_config_takes_the_mix_and_rejects_unknown_or_repeated_members():
    cfg = DetectConfig.from_mapping({"mix": ["rules", "encoder"], "encoder": {"path": "m", "threshold": 0.3}})
    assert cfg.mix == ("rules", "encoder") and cfg.encoder == {"path": "m", "threshold": 0.3}
    assert DetectConfig.from_mapping({}).mix is None
    for bad, message in ((["rules", "bert"], "unknown bert"), (["rules", "rules"], "twice"), ([], "non-empty")):
        with pytest.raises(DetectConfigError, match=message):
            DetectConfig.from_mapping({"mix": bad})
    with pytest.raises(DetectConfigError, match="unknown key"):
        build_mix(DetectConfig.from_mapping({"mix": ["rules", "encoder"], "encoder": {"path": "m", "treshold": 0.3}}))


def test_default_without_a_trained_encoder_is_rules_only_and_says_so(no_default_encoder, tmp_path, capsys):
    detector = build_mix()
    assert detector.names == ("rules",) and "rules only" in detector.notice
    notes = tmp_path / "in.jsonl"
    write_jsonl(generate_notes(3, 2), notes)
    assert main(["detect", "--in", str(notes), "--out", str(tmp_path / "out.jsonl")]) == 0
    err = capsys.readouterr().err
    assert sum("rules only" in line for line in err.splitlines()) == 1


def test_mix_naming_the_encoder_without_a_model_fails_with_the_fix(no_default_encoder):
    with pytest.raises(DetectConfigError, match="deid train encoder"):
        build_mix(DetectConfig(mix=("rules", "encoder")))


def test_default_picks_up_a_trained_encoder(no_default_encoder, tiny_encoder, monkeypatch):
    from deid_core.recognizers.encoder import ENCODER_DIR_ENV

    monkeypatch.setenv(ENCODER_DIR_ENV, str(tiny_encoder))
    detector = build_mix()
    assert detector.names == ("rules", "encoder") and detector.notice is None


def test_union_covers_the_rules_and_every_encoder_span_that_joins(tiny_encoder):
    notes = [ClinicalNote(n.id, n.text, n.patient_id) for n in generate_notes(12, 9)]
    # the tiny test model is rarely sure enough for the default join score
    detector = build_mix(DetectConfig(mix=("rules", "encoder"), encoder={"path": str(tiny_encoder)}, join_score=0.5))
    raw = detector.member_spans(notes)
    union = detector.combine(notes, raw)
    assert any(raw["encoder"][i] for i in range(len(notes)))
    added = 0
    for i, note in enumerate(notes):
        covered = {c for s in union[i] for c in range(s.start, s.end)}
        for s in raw["rules"][i]:
            assert set(range(s.start, s.end)) <= covered, ("rules", s, note.text[s.start : s.end])
        for s in unite_with_rules(note.text, raw["rules"][i], [raw["encoder"][i]], detector.check):
            assert set(range(s.start, s.end)) <= covered, (s.source, s, note.text[s.start : s.end])
            added += s.source.startswith("encoder")
    assert added > 0
    assert any("encoder" in s.source.split("+") for spans in union for s in spans)


def test_eval_scores_each_recognizer_and_their_union_in_one_run(tiny_encoder, tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    write_jsonl(generate_notes(10, 21), gold)
    cfg = tmp_path / "deid.toml"
    cfg.write_text(f'[detect.encoder]\npath = "{tiny_encoder.as_posix()}"\n', encoding="utf-8")
    out = tmp_path / "scores.json"
    code = main(["eval", "--gold", str(gold), "--mix", "rules,encoder", "--config", str(cfg), "--bootstrap", "0",
                 "--json", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "=== rules ===" in text and "=== encoder ===" in text and "=== rules+encoder ===" in text
    scores = json.loads(out.read_text())
    assert set(scores) == {"rules", "encoder", "rules+encoder"}
    covered = {k: v["char_recall"]["covered"] for k, v in scores.items()}
    assert covered["rules+encoder"] >= covered["rules"]
    assert scores["rules"]["results"][0]["micro"]["gold"] == scores["encoder"]["results"][0]["micro"]["gold"] > 0
    summary = text[text.index("summary"):]
    assert all(name in summary for name in scores)


def test_eval_scores_several_prediction_files_and_keeps_the_single_file_form(no_default_encoder, tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    write_jsonl(generate_notes(6, 4), gold)
    pred = tmp_path / "pred.jsonl"
    empty = tmp_path / "empty.jsonl"
    assert main(["detect", "--in", str(gold), "--out", str(pred)]) == 0
    empty.write_text("".join(json.dumps({"id": json.loads(l)["id"], "spans": []}) + "\n" for l in gold.read_text().splitlines()))
    capsys.readouterr()
    assert main(["eval", "--gold", str(gold), "--pred", str(pred), "--bootstrap", "0"]) == 0
    single = capsys.readouterr().out
    assert "===" not in single and "summary" not in single
    assert main(["eval", "--gold", str(gold), "--pred", str(pred), "--pred", str(empty), "--bootstrap", "0"]) == 0
    both = capsys.readouterr().out
    assert f"=== {pred} ===" in both and f"=== {empty} ===" in both
    assert main(["eval", "--gold", str(gold), "--bootstrap", "0"]) == 2


def test_embedded_run_without_a_trained_encoder_runs_the_rules_and_says_so(no_default_encoder, tmp_path, capsys):
    notes = tmp_path / "in.jsonl"
    write_jsonl(generate_notes(3, 4), notes)
    key = tmp_path / "k.key"
    assert main(["keygen", "--study", "s", "--out", str(key)]) == 0
    assert main(["run", "--in", str(notes), "--out", str(tmp_path / "out.jsonl"), "--key-file", str(key)]) == 0
    assert sum("rules only" in line for line in capsys.readouterr().err.splitlines()) == 1


def test_embedded_run_joins_encoder_spans_as_detect_does(no_default_encoder, tiny_encoder, tmp_path, monkeypatch):
    """`deid run` with a trained encoder: its resolved spans are exactly `deid detect`'s mix."""
    from deid_core.recognizers.encoder import ENCODER_DIR_ENV

    monkeypatch.setenv(ENCODER_DIR_ENV, str(tiny_encoder))
    notes = tmp_path / "in.jsonl"
    write_jsonl(generate_notes(12, 8), notes)
    key = tmp_path / "k.key"
    assert main(["keygen", "--study", "s", "--out", str(key)]) == 0
    cfg = tmp_path / "deid.toml"  # the tiny test model is rarely sure enough for the default join score
    cfg.write_text("[detect]\njoin_score = 0.5\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["run", "--in", str(notes), "--out", str(out), "--key-file", str(key), "--config", str(cfg)]) == 0
    assert main(["detect", "--in", str(notes), "--out", str(tmp_path / "spans.jsonl"), "--config", str(cfg)]) == 0
    detected = [json.loads(line) for line in (tmp_path / "spans.jsonl").read_text().splitlines()]
    released = [json.loads(line) for line in out.read_text().splitlines()]
    assert [len(d["spans"]) for d in detected] == [len(r["spans"]) for r in released]
    assert any(s["source"].startswith("encoder") for d in detected for s in d["spans"])


def test_bench_encoder_prints_content_tokens_per_second(tiny_encoder, capsys):
    assert main(["bench", "encoder", "--path", str(tiny_encoder), "--notes", "4", "--device", "cpu"]) == 0
    out = capsys.readouterr().out
    assert "encoder on cpu, 2048 tokens per batch: 4 notes" in out and "content tokens/s" in out


def test_bench_encoder_sweeps_batch_token_budgets_one_row_each(tiny_encoder, capsys):
    args = ["bench", "encoder", "--path", str(tiny_encoder), "--notes", "4", "--device", "cpu"]
    assert main([*args, "--batch-tokens", "1024,4096"]) == 0
    out = capsys.readouterr().out
    assert "1024 tokens per batch: 4 notes" in out and "4096 tokens per batch: 4 notes" in out
    assert out.count("content tokens/s") == 2


def test_bench_encoder_refuses_a_budget_smaller_than_a_window(tiny_encoder, capsys):
    args = ["bench", "encoder", "--path", str(tiny_encoder), "--notes", "4", "--device", "cpu"]
    assert main([*args, "--batch-tokens", "64"]) != 0
    assert "batch_tokens must hold at least one full window" in capsys.readouterr().err
