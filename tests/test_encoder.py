"""The encoder recognizer: windowing, realignment, decoding, OOM recovery, offline loading.

Most tests drive the recognizer with a lookup "model" whose output for a
token depends on the token alone, so the right answer is known exactly and
any windowing or realignment mistake shows up as a missing, doubled or
shifted span.  A tiny randomly initialised BERT covers the real load path.
"""

from __future__ import annotations

import itertools
import math
import os
import socket
import subprocess
import sys
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_core.recognizers.base import LabelMapError, Recognizer, RecognizerError
from deid_core.recognizers.encoder import (
    ENCODER_DIR_ENV,
    available_cores,
    EncoderConfig,
    EncoderRecognizer,
    default_encoder_path,
    is_out_of_memory,
    load_encoder,
    pack_batches,
    plan_windows,
)
from deid_core.spans import Category

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from deid_core.training import BIO_LABELS, default_backbone_path

# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tokenizer():
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(default_backbone_path(), local_files_only=True)


class LookupModel(torch.nn.Module):
    """Logits looked up per token id; records every batch shape it sees."""

    def __init__(self, table: torch.Tensor) -> None:
        super().__init__()
        self.table = table
        self.shapes: list[tuple[int, int]] = []

    def forward(self, input_ids, attention_mask):
        self.shapes.append(tuple(input_ids.shape))
        return SimpleNamespace(logits=self.table[input_ids])


def lookup_table(tokenizer, labels, rule) -> torch.Tensor:
    """``rule(token_text) -> {label: probability}`` or None for a sure O."""
    vocab = tokenizer.get_vocab()
    index = {label: i for i, label in enumerate(labels)}
    table = torch.full((len(vocab), len(labels)), math.log(1e-6))
    if "O" in index:
        table[:, index["O"]] = 0.0
    for token, tid in vocab.items():
        probs = rule(token)
        if probs:
            row = torch.full((len(labels),), math.log(1e-9))
            for label, p in probs.items():
                row[index[label]] = math.log(p)
            table[tid] = row
    return table


def digits_are_ids(token: str):
    """Digit pieces are ID: B- on a word's first piece, I- on continuations."""
    if token.startswith("##") and token[2:].isdigit():
        return {"I-ID": 0.9, "O": 0.1}
    if token.isdigit():
        return {"B-ID": 0.9, "O": 0.1}
    return None


def make(tokenizer, rule=digits_are_ids, labels=BIO_LABELS, label_map=None, **config) -> EncoderRecognizer:
    model = LookupModel(lookup_table(tokenizer, labels, rule))
    return EncoderRecognizer(model, tokenizer, labels, label_map, EncoderConfig(**config))


FILLER = ["the", "patient", "was", "seen", "on", "the", "ward", "and", "examined", "again", "with", "family", "at", "bedside", "today"]


def long_note(n_words: int = 1400, every: int = 37) -> tuple[str, list[tuple[int, int]]]:
    """Filler text with an 8-digit number every ``every`` words; returns text and number offsets."""
    parts: list[str] = []
    numbers: list[tuple[int, int]] = []
    pos = 0
    for i in range(n_words):
        word = f"{(48213377 + 7919 * i) % 10**8:08d}" if i % every == every - 1 else FILLER[i % len(FILLER)]
        if i:
            parts.append(" ")
            pos += 1
        if word.isdigit():
            numbers.append((pos, pos + len(word)))
        parts.append(word)
        pos += len(word)
    return "".join(parts), numbers


@pytest.fixture(scope="module")
def tiny_model_dir(tmp_path_factory, tokenizer):
    """A randomly initialised 1-layer BERT with our labels, saved like a trained model."""
    from transformers import BertConfig, BertForTokenClassification

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=512,
        num_labels=len(BIO_LABELS),
        id2label=dict(enumerate(BIO_LABELS)),
        label2id={label: i for i, label in enumerate(BIO_LABELS)},
    )
    model = BertForTokenClassification(config)
    with torch.no_grad():  # spread the logits so no two categories nearly tie
        model.classifier.weight.mul_(200.0)
    path = tmp_path_factory.mktemp("tiny-encoder")
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def triples(spans):
    return [(s.start, s.end, s.category) for s in spans]


# ---------------------------------------------------------------------------
# Windowing
# ---------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(n=st.integers(0, 3000), budget=st.integers(1, 600), overlap=st.integers(0, 300))
def test_every_token_is_kept_by_exactly_one_window_with_context(n, budget, overlap):
    if overlap >= budget:
        with pytest.raises(ValueError):
            plan_windows(n, budget, overlap)
        return
    windows = plan_windows(n, budget, overlap)
    owners = [0] * n
    for w in windows:
        assert 0 <= w.start <= w.keep_start < w.keep_end <= w.end <= n
        assert w.length <= budget
        for t in range(w.keep_start, w.keep_end):
            owners[t] += 1
            # a kept token is never within overlap//2 of a cut the note does not have
            if w.start > 0:
                assert t - w.start >= overlap // 2
            if w.end < n:
                assert w.end - 1 - t >= overlap // 2
    assert owners == [1] * n
    for a, b in itertools.pairwise(windows):
        assert a.end - b.start == overlap  # neighbours share exactly the overlap


def test_batches_stay_within_the_padded_token_budget():
    windows = [w for i, n in enumerate([700, 40, 1900, 5, 510]) for w in plan_windows(n, 510, 40, note=i)]
    batches = pack_batches(windows, 2048, 64, extra=2)
    assert sorted((w.note, w.start) for b in batches for w in b) == sorted((w.note, w.start) for w in windows)
    for b in batches:
        assert max(w.length + 2 for w in b) * len(b) <= 2048 or len(b) == 1


def test_long_note_spans_at_window_boundaries_come_out_once_with_exact_offsets(tokenizer):
    text, numbers = long_note(n_words=900, every=3)
    rec = make(tokenizer)
    spans = rec.analyze(text)
    assert triples(spans) == [(s, e, Category.ID) for s, e in numbers]
    assert all(s.source == "encoder" for s in spans)
    # The note really was cut, and numbers lie across both kinds of cut: a
    # window's edge and the hand-over point inside an overlap.
    enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
    offsets = enc["offset_mapping"]
    windows = plan_windows(len(offsets), rec.content_budget, 40)
    assert len(offsets) > 1024 and len(windows) >= 3
    pieces = [[i for i, (a, b) in enumerate(offsets) if s <= a and b <= e] for s, e in numbers]

    def straddled(cuts):
        return [p for p in pieces if any(p[0] < c <= p[-1] for c in cuts)]

    assert straddled([w.start for w in windows[1:]] + [w.end for w in windows[:-1]])
    assert straddled([w.keep_start for w in windows[1:]])


def test_windows_fill_the_512_token_budget_and_never_exceed_it(tokenizer):
    text, _ = long_note()
    rec = make(tokenizer)
    rec.analyze(text)
    widths = [w for _, w in rec.model.shapes]
    assert max(widths) == 512
    assert rec.content_budget == 510  # [CLS] and [SEP] count against the budget


@pytest.mark.parametrize("window, overlap", [(512, 40), (64, 16), (100, 40), (33, 0), (17, 7)])
def test_spans_do_not_depend_on_how_the_note_is_windowed(tokenizer, window, overlap):
    text, numbers = long_note(n_words=600, every=11)
    rec = make(tokenizer, window_tokens=window, overlap_tokens=overlap, batch_tokens=max(window, 512))
    assert triples(rec.analyze(text)) == [(s, e, Category.ID) for s, e in numbers]


def test_batch_budget_follows_the_device_unless_set(tokenizer):
    assert EncoderConfig().batch_tokens_for("cpu") < EncoderConfig().batch_tokens_for("cuda:0")
    assert EncoderConfig(batch_tokens=1024).batch_tokens_for("cuda") == 1024
    with pytest.raises(ValueError, match="full window"):
        EncoderConfig(batch_tokens=100)


def test_batch_of_notes_matches_notes_one_at_a_time(tokenizer):
    texts = [long_note(n, every)[0] for n, every in [(900, 13), (20, 5), (1, 1), (300, 7)]] + ["", "   "]
    rec = make(tokenizer, batch_tokens=4096)
    batched = rec.analyze_batch(texts)
    single = [rec.analyze(t) for t in texts]
    assert [triples(b) for b in batched] == [triples(s) for s in single]
    assert batched[-1] == [] and batched[-2] == []


# ---------------------------------------------------------------------------
# Decoding
# ---------------------------------------------------------------------------


def fixed(probs_by_token):
    return lambda token: probs_by_token.get(token)


def test_phi_is_declared_when_one_minus_p_outside_passes_threshold_though_o_is_the_top_label(tokenizer):
    rec = make(tokenizer, fixed({"lopez": {"O": 0.4, "B-PATIENT": 0.35, "B-DOCTOR": 0.25}}))
    text = "seen with mrs lopez today"
    spans = rec.analyze(text)
    assert triples(spans) == [(14, 19, Category.PATIENT)]
    assert spans[0].score == pytest.approx(0.6, abs=1e-4)


def test_category_pools_its_b_and_i_labels_before_the_argmax(tokenizer):
    rec = make(tokenizer, fixed({"lopez": {"O": 0.25, "B-DATE": 0.3, "I-DATE": 0.1, "B-ID": 0.35}}))
    assert triples(rec.analyze("lopez")) == [(0, 5, Category.DATE)]


def test_per_category_threshold_moves_only_that_category(tokenizer):
    rule = fixed({"lopez": {"O": 0.4, "B-PATIENT": 0.6}, "2019": {"O": 0.4, "B-ID": 0.6}})
    text = "lopez 2019"
    both = [(0, 5, Category.PATIENT), (6, 10, Category.ID)]
    assert triples(make(tokenizer, rule).analyze(text)) == both
    assert triples(make(tokenizer, rule, thresholds={"PATIENT": 0.7}).analyze(text)) == both[1:]
    assert triples(make(tokenizer, rule, thresholds={Category.ID: 0.7}).analyze(text)) == both[:1]
    strict_but_ids = make(tokenizer, rule, threshold=0.65, thresholds={Category.ID: 0.3})
    assert triples(strict_but_ids.analyze(text)) == both[1:]


def test_thresholds_outside_unit_interval_or_for_unknown_categories_are_rejected(tokenizer):
    with pytest.raises(ValueError):
        EncoderConfig(threshold=1.0)
    with pytest.raises(ValueError):
        EncoderConfig(thresholds={"DATE": -0.1})
    with pytest.raises(RecognizerError, match="OTHER"):
        make(tokenizer, thresholds={Category.OTHER: 0.2})


def test_b_label_splits_neighbouring_entities_only_at_a_word_gap(tokenizer):
    every_digit_begins = lambda t: {"B-ID": 0.9, "O": 0.1} if t.lstrip("#").isdigit() else None
    rec = make(tokenizer, every_digit_begins)
    text = "ids 48213377 99120455 end"
    assert triples(rec.analyze(text)) == [(4, 12, Category.ID), (13, 21, Category.ID)]


def test_span_that_stops_inside_a_word_is_widened_to_the_whole_word(tokenizer):
    first_piece_only = lambda t: {"B-ID": 0.9, "O": 0.1} if t.isdigit() else None
    text = "mrn 48213377 end"
    pieces = tokenizer.tokenize("48213377")
    assert len(pieces) > 1, "the number must be cut into several pieces"
    assert triples(make(tokenizer, first_piece_only).analyze(text)) == [(4, 12, Category.ID)]
    narrow = make(tokenizer, first_piece_only, snap_to_words=False).analyze(text)
    assert narrow[0].start == 4 and narrow[0].end < 12


def test_offsets_point_into_the_original_text_despite_lowercasing_and_accents(tokenizer):
    rule = fixed({"maria": {"B-PATIENT": 0.9, "O": 0.1}, "lopez": {"I-PATIENT": 0.9, "O": 0.1}})
    text = "Seen:  Mrs.\tMaría   LÓPEZ, 72"
    spans = make(tokenizer, rule).analyze(text)
    assert [s.text_in(text) for s in spans] == ["María   LÓPEZ"]


def test_io_labels_map_through_a_foreign_label_map(tokenizer):
    labels = ["O", "NAME", "TEL"]
    rule = fixed({"lopez": {"NAME": 0.9, "O": 0.1}, "maria": {"NAME": 0.9, "O": 0.1}, "555": {"TEL": 0.9, "O": 0.1}})
    rec = make(tokenizer, rule, labels=labels, label_map={"name": "PATIENT", "TEL": Category.PHONE})
    assert rec.categories == {Category.PATIENT, Category.PHONE}
    text = "maria lopez at 555"
    assert triples(rec.analyze(text)) == [(0, 11, Category.PATIENT), (15, 18, Category.PHONE)]


def test_a_model_label_without_a_mapping_fails_at_construction(tokenizer):
    nothing = lambda token: None
    with pytest.raises(LabelMapError, match="SECRET_THING"):
        make(tokenizer, nothing, labels=["O", "B-DATE", "B-SECRET_THING"])
    with pytest.raises(RecognizerError, match="'O'"):
        make(tokenizer, nothing, labels=["B-DATE", "I-DATE"])


def test_entities_restrict_output_and_skip_the_model_when_nothing_is_wanted(tokenizer):
    rule = fixed({"lopez": {"B-PATIENT": 0.9, "O": 0.1}, "2019": {"B-ID": 0.9, "O": 0.1}})
    rec = make(tokenizer, rule, labels=["O", "B-PATIENT", "B-ID"])
    assert isinstance(rec, Recognizer)
    assert triples(rec.analyze("lopez 2019", entities=[Category.ID])) == [(6, 10, Category.ID)]
    calls = rec.stats.forward_calls
    assert rec.analyze("lopez 2019", entities=["WEB"]) == []
    assert rec.stats.forward_calls == calls


# ---------------------------------------------------------------------------
# Out-of-memory recovery
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "error",
    [
        lambda: torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB"),
        lambda: RuntimeError("CUDA error: out of memory"),
    ],
    ids=["OutOfMemoryError", "RuntimeError"],
)
def test_out_of_memory_splits_the_batch_down_to_single_windows_with_identical_spans(tiny_model_dir, error):
    texts = [long_note(n, every)[0] for n, every in [(700, 9), (120, 5), (40, 3)]]
    baseline_rec = load_encoder(tiny_model_dir, config=EncoderConfig(device="cpu", batch_tokens=16384))
    baseline = baseline_rec.analyze_batch(texts)
    assert baseline_rec.stats.forward_calls == 1 and any(baseline)

    rec = load_encoder(tiny_model_dir, config=EncoderConfig(device="cpu", batch_tokens=16384))
    real_forward = rec._forward
    served: list[int] = []

    def forward_that_fits_one_window(ids, mask):
        if ids.shape[0] > 1:
            raise error()
        served.append(ids.shape[0])
        return real_forward(ids, mask)

    rec._forward = forward_that_fits_one_window
    retried = rec.analyze_batch(texts)
    windows = baseline_rec.stats.windows
    assert served == [1] * windows
    assert rec.stats.oom_splits == windows - 1  # a binary split tree over the windows
    assert rec.batch_tokens < baseline_rec.batch_tokens  # later batches start smaller
    assert [triples(r) for r in retried] == [triples(b) for b in baseline]
    for r, b in zip(retried, baseline):
        assert [s.score for s in r] == pytest.approx([s.score for s in b], abs=1e-4)


def test_out_of_memory_on_a_single_window_fails_closed(tiny_model_dir):
    rec = load_encoder(tiny_model_dir, config=EncoderConfig(device="cpu"))

    def always_oom(ids, mask):
        raise torch.cuda.OutOfMemoryError("CUDA out of memory")

    rec._forward = always_oom
    with pytest.raises(RecognizerError, match="single window"):
        rec.analyze("mrs lopez 1234")


def test_errors_other_than_out_of_memory_are_not_retried(tiny_model_dir):
    rec = load_encoder(tiny_model_dir, config=EncoderConfig(device="cpu"))

    def broken(ids, mask):
        raise RuntimeError("shape mismatch in layer 3")

    rec._forward = broken
    with pytest.raises(RuntimeError, match="shape mismatch"):
        rec.analyze_batch([long_note(900)[0]])
    assert rec.stats.oom_splits == 0
    assert is_out_of_memory(RuntimeError("CUDA out of memory")) and not is_out_of_memory(ValueError("out of memory"))


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the encoder loader tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_loading_a_local_model_sets_offline_mode_and_opens_no_connection(tiny_model_dir, monkeypatch, no_network):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    rec = load_encoder(tiny_model_dir, config=EncoderConfig(device="cpu"))
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    assert rec.device == "cpu" and next(rec.model.parameters()).dtype == torch.float32
    assert rec.categories == {c for c in Category if c is not Category.OTHER}
    assert len(rec.version) == 12


def test_real_model_handles_a_note_longer_than_its_position_table(tiny_model_dir):
    rec = load_encoder(tiny_model_dir, config=EncoderConfig(device="cpu"))
    text, _ = long_note(2000)
    spans = rec.analyze(text)
    assert rec.stats.windows >= 4
    assert all(0 <= s.start < s.end <= len(text) for s in spans)
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans))  # sorted, disjoint


@pytest.fixture(scope="module")
def tiny_onnx_dir(tiny_model_dir, tmp_path_factory):
    """The tiny model with its fp32 and int8 ONNX forms beside the torch weights, as every build writes them."""
    import shutil

    pytest.importorskip("onnxruntime")
    from deid_core.training.quantize import write_onnx_models

    path = tmp_path_factory.mktemp("tiny-onnx") / "encoder"
    shutil.copytree(tiny_model_dir, path)
    write_onnx_models(path)
    return path


def test_a_cpu_runs_the_fp32_onnx_form_by_default_and_int8_or_torch_on_request(tiny_onnx_dir, tiny_model_dir):
    from deid_core.recognizers.encoder import OnnxTokenClassifier

    text, _ = long_note(700, 9)
    onnx = load_encoder(tiny_onnx_dir, config=EncoderConfig(device="cpu", threads=1))
    assert isinstance(onnx.model, OnnxTokenClassifier) and torch.get_num_threads() == 1
    int8 = load_encoder(tiny_onnx_dir, config=EncoderConfig(device="cpu", precision="int8"))
    assert isinstance(int8.model, OnnxTokenClassifier)
    full = load_encoder(tiny_onnx_dir, config=EncoderConfig(device="cpu", precision="fp32"))
    assert torch.get_num_threads() == available_cores()  # unset: every core this process may use
    assert next(full.model.parameters()).dtype == torch.float32
    assert len({onnx.version, int8.version, full.version}) == 3  # spans cached under one are not taken for another's
    plain = load_encoder(tiny_model_dir, config=EncoderConfig(device="cpu"))
    assert next(plain.model.parameters()).dtype == torch.float32  # no ONNX form: torch, not a failure
    ids = torch.tensor([tokenizer_ids(int8, text)[:200]])
    mask = torch.ones_like(ids)
    p_full = full._forward(ids, mask)
    assert (onnx._forward(ids, mask) - p_full).abs().max() < 1e-4  # the same network, the same numbers
    assert (int8._forward(ids, mask) - p_full).abs().mean() < 0.05
    assert triples(onnx.analyze(text)) == triples(full.analyze(text))
    assert onnx.stats.windows >= 2


def test_a_cpu_runs_int8_by_default_only_where_the_build_verified_it(tiny_onnx_dir, tmp_path):
    import json
    import shutil

    from deid_core.recognizers.encoder import CPU_PRECISION_KEY, MODEL_CARD_FILE

    def default_form(verdict):
        model = tmp_path / f"model-{verdict}"
        shutil.copytree(tiny_onnx_dir, model)
        if verdict is not None:
            (model / MODEL_CARD_FILE).write_text(json.dumps({CPU_PRECISION_KEY: verdict}), encoding="utf-8")
        return load_encoder(model, config=EncoderConfig(device="cpu", threads=1)).version

    int8 = load_encoder(tiny_onnx_dir, config=EncoderConfig(device="cpu", precision="int8"))
    fp32 = load_encoder(tiny_onnx_dir, config=EncoderConfig(device="cpu"))
    assert default_form("int8") == int8.version
    assert default_form("fp32") == fp32.version
    assert default_form(None) == fp32.version  # no verdict, no int8


def tokenizer_ids(rec, text):
    return rec.tokenizer(text, add_special_tokens=True)["input_ids"]


def test_asking_for_int8_where_there_is_no_int8_form_fails_clearly(tiny_model_dir):
    with pytest.raises(RecognizerError, match="no int8 form"):
        load_encoder(tiny_model_dir, config=EncoderConfig(device="cpu", precision="int8"))
    with pytest.raises(ValueError, match="precision"):
        EncoderConfig(precision="int4")


def test_a_hub_name_fails_clearly_instead_of_downloading(no_network):
    with pytest.raises(RecognizerError, match="not a local directory"):
        load_encoder("sentence-transformers/all-MiniLM-L6-v2-bogus")
    assert os.environ["HF_HUB_OFFLINE"] == "1"


def test_a_directory_without_a_model_fails_clearly(tmp_path, no_network):
    with pytest.raises(RecognizerError, match="config.json"):
        load_encoder(tmp_path)


def test_default_encoder_path_prefers_env_then_repo_model_else_rules_only(tmp_path, monkeypatch):
    import deid_core.recognizers.encoder as enc

    repo_dir = tmp_path / "models" / "encoder"
    monkeypatch.setattr(enc, "repo_model_dir", lambda: repo_dir)
    monkeypatch.delenv(ENCODER_DIR_ENV, raising=False)
    assert default_encoder_path() is None
    repo_dir.mkdir(parents=True)
    (repo_dir / "config.json").write_text("{}")
    assert default_encoder_path() == repo_dir
    monkeypatch.setenv(ENCODER_DIR_ENV, str(tmp_path / "elsewhere"))
    assert default_encoder_path() == tmp_path / "elsewhere"  # returned even if absent: loading then fails loudly


def test_deid_core_imports_without_torch_or_transformers():
    code = (
        "import sys; sys.modules['torch'] = None; sys.modules['transformers'] = None\n"
        "import deid_core.recognizers.encoder as e, deid_core.training, deid_core.cli.train\n"
        "print(e.plan_windows(1000, 510, 40)[1].start)\n"
        "import pathlib, tempfile; d = pathlib.Path(tempfile.mkdtemp()); (d / 'config.json').write_text('{}')\n"
        "try:\n    e.load_encoder(d)\nexcept e.RecognizerError as x:\n    print('refused:', x)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "470"
    assert lines[1].startswith("refused:") and "torch and transformers" in lines[1]


def test_onnx_passes_run_side_by_side_on_one_thread_each_and_find_what_one_at_a_time_finds(tiny_onnx_dir):
    texts = [f"Seen by Dr. Okafor on 03/0{i + 1}/2024 at Mercy General, MRN {1000 + i}. " * (i + 1) for i in range(6)]
    one = load_encoder(tiny_onnx_dir, config=EncoderConfig(device="cpu", threads=1, window_tokens=32, overlap_tokens=4, batch_tokens=64))
    two = load_encoder(tiny_onnx_dir, config=EncoderConfig(device="cpu", threads=2, window_tokens=32, overlap_tokens=4, batch_tokens=64))
    assert two.model.session.get_session_options().intra_op_num_threads == 1
    assert (one.concurrent_batches, two.concurrent_batches) == (1, 2)
    assert two.analyze_batch(texts) == one.analyze_batch(texts)
    assert two.stats.forward_calls == one.stats.forward_calls > 2
