"""The verifier: what "incomplete" means, corrupted candidates, the CPU model, the LLM path."""

from __future__ import annotations

import json
import os
import random

import numpy as np
import pytest

from deid_core.spans import Category, Span
from deid_core.synth import generate_notes
from deid_core.verifier import (
    VERIFIER_DIR_ENV,
    CpuVerifier,
    ResidualPatternVerifier,
    Verifier,
    VerifierError,
    is_incomplete,
    load_cpu_verifier,
)
from deid_core.verifier.corruption import KINDS, corrupt, corrupted_candidates
from deid_core.verifier.metrics import auroc

TEXT = "Seen by Dr. Anna Okafor on 03/04/2019, MRN 4471203."
NAME = Span(12, 23, Category.DOCTOR)
DATE = Span(27, 37, Category.DATE)
MRN = Span(43, 50, Category.ID)


def test_annotation_is_incomplete_only_when_a_gold_span_is_not_fully_covered():
    gold = [NAME, DATE, MRN]
    assert not is_incomplete(gold, gold)
    assert not is_incomplete(gold, [Span(12, 18, Category.PATIENT), Span(18, 23, Category.PATIENT), DATE, MRN])
    assert not is_incomplete(gold, [Span(0, 51, Category.OTHER)])
    assert is_incomplete(gold, [NAME, DATE])
    assert is_incomplete(gold, [Span(12, 17, Category.DOCTOR), DATE, MRN])  # "Anna" covered, "Okafor" not
    assert not is_incomplete([], [])


def test_drops_truncations_and_deleted_categories_are_incomplete_and_spurious_additions_are_not():
    notes = [n for n in generate_notes(40, 5) if n.spans]
    rng = random.Random(0)
    for n in notes:
        for kind in ("drop", "delete_category", "drop_and_spurious"):
            c = corrupt(n.id, n.text, n.spans, rng, kind)
            assert c.incomplete and len(c.spans) < len(n.spans) + 4
        spurious = corrupt(n.id, n.text, n.spans, rng, "spurious")
        assert not spurious.incomplete and len(spurious.spans) > len(n.spans)
        assert all(s.source == "spurious" for s in set(spurious.spans) - set(n.spans))
        assert not corrupt(n.id, n.text, n.spans, rng, "gold").incomplete
        truncated = corrupt(n.id, n.text, n.spans, rng, "truncate")
        assert truncated.incomplete == is_incomplete(n.spans, truncated.spans)
    cands = corrupted_candidates([(n.id, n.text, n.spans) for n in notes], seed=1)
    assert cands == corrupted_candidates([(n.id, n.text, n.spans) for n in notes], seed=1)
    assert {c.kind for c in cands} == set(KINDS)
    assert sum(c.incomplete for c in cands if c.kind == "truncate") >= 0.9 * len(notes)


def test_auroc_is_the_chance_an_incomplete_candidate_outscores_a_complete_one():
    assert auroc([True, True, False, False], [0.9, 0.8, 0.2, 0.1]) == 1.0
    assert auroc([True, False], [0.1, 0.9]) == 0.0
    assert auroc([True, False, True, False], [0.5, 0.5, 0.5, 0.5]) == 0.5
    assert auroc([True, True], [0.3, 0.4]) is None
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.4
    s = np.round(rng.random(300) + 0.3 * y, 2)  # rounded: ties
    assert auroc(y, s) == pytest.approx(sklearn_metrics.roc_auc_score(y, s))


def test_residual_pattern_scorer_rises_with_each_uncovered_identifier():
    v: Verifier = ResidualPatternVerifier()
    assert v.score(TEXT, [NAME, DATE, MRN]) == 0.0
    assert 0.0 < v.score(TEXT, [NAME, DATE]) < v.score(TEXT, [NAME])


# ---------------------------------------------------------------------------
# The CPU verifier, trained for real on a small corpus
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    pytest.importorskip("sklearn")
    from deid_core.verifier.training import VerifierTrainConfig, train_verifier

    out = tmp_path_factory.mktemp("verifier") / "model"
    config = VerifierTrainConfig(notes=160, seed=4, n_estimators=60)
    return train_verifier(config, out)


def test_trained_verifier_separates_held_out_corrupted_candidates(trained):
    held = trained.figures[0]
    assert held.name == "held-out corrupted candidates"
    assert held.incomplete > 50 and held.candidates - held.incomplete > 20
    assert held.auroc is not None and held.auroc >= 0.9, trained.figures


def test_verifier_scores_a_dropped_name_above_the_full_annotation(trained):
    v = trained.verifier
    text = "Follow-up with Dr. Wiremu Castellanos-Ibe at Rosewood Clinic on 11/02/2023; call 631-555-0187."
    gold = [Span(19, 41, Category.DOCTOR), Span(45, 60, Category.HOSPITAL), Span(64, 74, Category.DATE), Span(81, 93, Category.PHONE)]
    full = v.score(text, gold)
    assert 0.0 <= full <= 1.0
    assert v.score(text, gold[1:]) > full
    assert v.score(text, [gold[0], gold[1], gold[3]]) > full
    assert v.score(text, gold) == full  # deterministic


def test_stored_trees_reproduce_scikit_learn_probabilities_without_unpickling(trained, tmp_path):
    from sklearn.ensemble import GradientBoostingClassifier

    from deid_core.verifier.cpu import TreeModel

    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 4))
    y = (X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.2 * rng.normal(size=400)) > 0.3
    gb = GradientBoostingClassifier(n_estimators=30, max_depth=3, subsample=0.8, random_state=0).fit(X, y)
    exported = TreeModel.from_json(json.loads(json.dumps(TreeModel.from_sklearn(gb, ["a", "b", "c", "d"]).to_json())))
    assert np.allclose(exported.predict_proba(X), gb.predict_proba(X)[:, 1], atol=1e-9)
    files = sorted(p.name for p in trained.out_dir.iterdir())
    assert files == ["MODEL_CARD.md", "model_card.json", "verifier.json"]


def test_model_card_records_data_seed_and_auroc(trained):
    card = json.loads((trained.out_dir / "model_card.json").read_text())
    assert card["seed"] == 4 and card["data"]["notes"] == 160 and card["version"] == trained.verifier.version
    assert card["evaluation"][0]["auroc"] == pytest.approx(trained.figures[0].auroc)
    assert "synthetic" in (trained.out_dir / "MODEL_CARD.md").read_text()


def test_fleet_default_verifier_is_the_trained_model_when_present_else_residual_patterns(trained, monkeypatch, tmp_path):
    import deid_core.verifier.cpu as cpu
    from fleet.verifier import default_verifier

    monkeypatch.delenv(VERIFIER_DIR_ENV, raising=False)
    monkeypatch.setattr(cpu, "repo_verifier_dir", lambda: tmp_path / "none")
    assert isinstance(default_verifier(), ResidualPatternVerifier)
    monkeypatch.setenv(VERIFIER_DIR_ENV, str(trained.out_dir))
    v = default_verifier()
    assert isinstance(v, CpuVerifier) and v.name == trained.verifier.name
    monkeypatch.setenv(VERIFIER_DIR_ENV, str(tmp_path / "empty"))
    with pytest.raises(VerifierError, match="no verifier.json"):
        default_verifier()


def test_a_model_for_other_features_is_refused(trained, tmp_path):
    raw = json.loads((trained.out_dir / "verifier.json").read_text())
    raw["feature_names"] = raw["feature_names"][:-1]
    (tmp_path / "verifier.json").write_text(json.dumps(raw))
    with pytest.raises(VerifierError, match="retrain"):
        load_cpu_verifier(tmp_path)


def test_train_command_rejects_bad_settings_before_training(capsys):
    import argparse

    from deid_core.cli import train

    parser = argparse.ArgumentParser(prog="deid")
    train.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["train", "verifier", "--notes", "5"])
    assert args.func(args) == 2
    assert "notes must be at least 20" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# The LLM verifier
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_causal_lm(tmp_path_factory):
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from transformers import AutoTokenizer, GPT2Config, GPT2LMHeadModel

    from deid_core.training import default_backbone_path

    tok = AutoTokenizer.from_pretrained(default_backbone_path(), local_files_only=True)
    torch.manual_seed(0)
    model = GPT2LMHeadModel(GPT2Config(vocab_size=len(tok), n_positions=1024, n_embd=32, n_layer=2, n_head=2))
    path = tmp_path_factory.mktemp("tiny-lm")
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return path


def test_llm_verifier_gives_a_repeatable_probability_from_one_forward_pass(tiny_causal_lm):
    from deid_core.verifier.llm import load_transformers_verifier

    v = load_transformers_verifier(tiny_causal_lm, device="cpu")
    a = v.score(TEXT, [NAME, DATE, MRN])
    b = v.score(TEXT, [DATE])
    assert 0.0 < a < 1.0 and 0.0 < b < 1.0
    assert a != b  # the candidate is part of the prompt
    assert v.score(TEXT, [NAME, DATE, MRN]) == a


def test_llm_verifier_refuses_answers_it_cannot_tell_apart(tiny_causal_lm):
    from deid_core.verifier.llm import Answers, load_transformers_verifier

    with pytest.raises(VerifierError, match="same token"):
        load_transformers_verifier(tiny_causal_lm, device="cpu", answers=Answers("missing", "missing"))


def test_llm_verifier_loads_from_disk_only(tmp_path):
    from deid_core.verifier.llm import load_transformers_verifier

    with pytest.raises(VerifierError, match="nothing is downloaded"):
        load_transformers_verifier("gpt2")


@pytest.mark.skipif(not os.environ.get("DEID_TEST_VLLM_URL"), reason="set DEID_TEST_VLLM_URL to a vLLM server")
def test_server_verifier_scores_through_a_vllm_server():
    from deid_core.verifier.llm import OpenAIServerVerifier

    v = OpenAIServerVerifier(os.environ["DEID_TEST_VLLM_URL"], os.environ.get("DEID_TEST_VLLM_MODEL", "default"))
    a = v.score(TEXT, [NAME, DATE, MRN])
    assert 0.0 <= a <= 1.0 and v.score(TEXT, [NAME, DATE, MRN]) == pytest.approx(a, abs=1e-6)
