"""The generative recognizer and its QC layer, driven by a real (tiny) model.

The session builds two models with ``deid train generative``'s code: one
trained for a few hundred steps and one left untrained.  Their real
generations exercise parsing, repair (a small ``max_new_tokens`` cuts real
XML short), grounding (the tiny model invents strings that are not in the
note) and escalation (the untrained model writes garbage).
"""

from __future__ import annotations

from deid_core.notes import ClinicalNote
import json
import math
import os
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from deid_core.recognizers.base import RecognizerError
from deid_core.recognizers.generative import (
    Entity,
    TransformersBackend,
    build_generative,
    build_prompt,
    default_label_map,
    entities_from_gold,
    few_shot_examples,
    ground,
    parse_strict,
    plan_chunks,
    read_output,
    render,
)
from deid_core.recognizers.generative.recognizer import GenerativeConfigError
from deid_core.recognizers.generative.schema import xml_regex
from deid_core.recognizers.pipeline import build_default_pipeline
from deid_core.spans import Category, Span
from deid_core.synth import generate_notes


CHUNK = 120
OVERLAP = 20


@pytest.fixture(scope="session")
def torch_one_thread():
    """One thread trains a model this small several times faster on a shared CPU."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _train(out, steps):
    from deid_core.training.generative import GenerativeTrainConfig, train_generative

    config = GenerativeTrainConfig(notes=120, steps=steps, chunk_chars=CHUNK, overlap_chars=OVERLAP, threads=1, seed=5)
    return train_generative(config, out)


@pytest.fixture(scope="session")
def tiny(tmp_path_factory, torch_one_thread):
    return _train(tmp_path_factory.mktemp("gen") / "trained", 300)


@pytest.fixture(scope="session")
def untrained(tmp_path_factory, torch_one_thread):
    return _train(tmp_path_factory.mktemp("gen") / "untrained", 0)


def _config(model, **extra):
    base = {
        "model_path": str(model.out_dir),
        "instructions": "brief",
        "chunk_chars": CHUNK,
        "overlap_chars": OVERLAP,
        "max_new_tokens": 48,
        "batch_size": 32,
    }
    return base | extra


def _notes(result, n=6):
    return [ClinicalNote(x.id, x.text, x.patient_id) for x in result.heldout_notes[:n]]


# ---------------------------------------------------------------------------
# Schema, grounding, chunking (no model)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_a_perfect_annotation_grounds_back_to_every_gold_span(fmt):
    for note in generate_notes(30, seed=3):
        entities = entities_from_gold(note.text, note.spans)
        written = render(entities, fmt)
        assert parse_strict(written, fmt).entities == entities
        if fmt == "xml":
            assert re.fullmatch(xml_regex(), written), "the guided-decoding regex must accept a correct answer"
        found = ground(note.text, entities, default_label_map(), "gen")
        assert found.ungrounded == 0
        got = {(s.start, s.end, s.category) for s in found.spans}
        assert {(s.start, s.end, s.category) for s in note.spans} <= got, note.id


def test_grounding_finds_every_occurrence_across_case_and_line_breaks_but_not_inside_words():
    text = "Seen by ANN LEE today.\nAnnual review: Ann\nLee called; ann lee again."
    found = ground(text, [Entity("name", "Ann Lee", "patient")], default_label_map(), "gen")
    assert [text[s.start : s.end] for s in found.spans] == ["ANN LEE", "Ann\nLee", "ann lee"]
    assert all(s.category is Category.PATIENT for s in found.spans)
    inside = ground("Annual review", [Entity("name", "Ann", "patient")], default_label_map(), "gen")
    assert inside.spans == [] and inside.ungrounded == 1


def test_strings_that_are_not_in_the_note_are_dropped_and_counted():
    text = "Dr. Okafor saw the patient on 3/4/2020."
    entities = [Entity("name", "Okafor", "clinician", ("Dr. Okafor",)), Entity("date", "4/5/2021"), Entity("phone", "555")]
    found = ground(text, entities, default_label_map(), "gen")
    assert (found.strings, found.grounded, found.ungrounded) == (4, 2, 2)
    assert {text[s.start : s.end] for s in found.spans} == {"Okafor", "Dr. Okafor"}
    assert {s.category for s in found.spans} == {Category.DOCTOR}


def test_a_cut_off_final_string_is_completed_to_its_word_only_at_a_word_start():
    parsed = read_output('<phi>\n<name role="patient">Sawh', "xml")
    assert "truncated_final_element" in parsed.repairs and parsed.entities[0].truncated
    found = ground("Mrs Sawhney arrived. Hawhsawh no.", parsed.entities, default_label_map(), "gen")
    assert [(s.start, s.end) for s in found.spans] == [(4, 11)]


def test_role_and_kind_pick_the_category_and_the_label_map_can_override():
    rec_map = default_label_map()
    text = "Mercy Clinic, Dover: Jo Ames seen by Kim Roy"
    ents = [Entity("place", "Mercy Clinic", "facility"), Entity("place", "Dover", "location"), Entity("name", "Jo Ames", "patient"), Entity("name", "Kim Roy", "clinician")]
    cats = [s.category for s in ground(text, ents, rec_map, "g").spans]
    assert cats == [Category.HOSPITAL, Category.LOCATION, Category.PATIENT, Category.DOCTOR]
    override = rec_map.with_labels({"name:clinician": "PATIENT"})
    assert ground(text, ents[3:], override, "g").spans[0].category is Category.PATIENT


def test_chunks_cover_the_note_overlap_and_never_cut_a_word():
    text = " ".join(n.text for n in generate_notes(6, seed=8))
    chunks = plan_chunks(text, 300, 50)
    assert chunks[0].start == 0 and chunks[-1].end == len(text)
    for a, b in zip(chunks, chunks[1:]):
        assert b.start < a.end, "neighbours must overlap"
        assert a.end - a.start <= 300
        assert not (text[a.end - 1].isalnum() and text[a.end].isalnum())


def test_json_and_xml_repairs_are_named():
    js = read_output('{"phi": [{"type": "date", "text": "3/4/2020"}, {"type": "name", "te', "json")
    assert not js.strict and js.usable and [e.text for e in js.entities] == ["3/4/2020"]
    assert "truncated_items_dropped" in js.repairs
    xml = read_output('Sure!\n<phi>\n<date>3/4/2020\n<age>45</age>\n</phi>', "xml")
    assert {"stray_text_dropped", "unclosed_element"} <= set(xml.repairs)
    assert [e.text for e in xml.entities] == ["3/4/2020", "45"]


def test_unknown_configuration_keys_and_missing_endpoints_are_errors(tmp_path):
    with pytest.raises(GenerativeConfigError, match="unknown key"):
        build_generative({"model_path": str(tmp_path), "temprature": 0})
    with pytest.raises(GenerativeConfigError, match="base_url and model"):
        build_generative({"backend": "vllm-server", "base_url": "http://127.0.0.1:9/v1"})
    with pytest.raises(GenerativeConfigError, match="overlap_chars"):
        build_generative({"model_path": str(tmp_path), "chunk_chars": 100, "overlap_chars": 60})
    with pytest.raises(RecognizerError, match="not a local directory"):
        build_generative({"model_path": str(tmp_path / "absent")})


def test_in_process_vllm_without_vllm_says_what_to_use(tiny):
    try:
        import vllm  # noqa: F401
    except ImportError:
        with pytest.raises(RecognizerError, match="vllm-server"):
            build_generative({"backend": "vllm", "model_path": str(tiny.out_dir)})
    else:  # pragma: no cover - only where vLLM is installed
        pytest.skip("vllm is installed here; the in-process backend is exercised by the device script")


# ---------------------------------------------------------------------------
# Real model output
# ---------------------------------------------------------------------------


def test_training_lowers_the_answer_loss_far_below_an_untrained_model(tiny, untrained):
    from deid_core.training.generative import answer_loss

    held = tiny.heldout_notes[:8]
    trained_loss = answer_loss(tiny.out_dir, held, CHUNK, OVERLAP)
    untrained_loss = answer_loss(untrained.out_dir, held, CHUNK, OVERLAP)
    assert untrained_loss > 0.8 * math.log(1200)
    assert trained_loss < 0.5 * untrained_loss
    card = json.loads((tiny.out_dir / "model_card.json").read_text())
    assert card["evaluation"]["heldout_answer_loss"] < card["evaluation"]["untrained_reference_loss"] / 2


def test_trained_output_is_readable_far_more_often_than_untrained_output(tiny, untrained):
    notes = _notes(tiny, 8)
    readable = {}
    for name, model in (("trained", tiny), ("untrained", untrained)):
        rec = build_generative(_config(model, max_new_tokens=64, escalate=False, patterns=[]))
        rec.detect_batch(notes)
        chunks = sum(r.chunks for r in rec.last_reports)
        readable[name] = 1 - sum(r.unparseable_chunks for r in rec.last_reports) / chunks
    assert readable["trained"] >= readable["untrained"] + 0.3, readable


def test_every_returned_string_is_grounded_or_counted_as_dropped(tiny):
    rec = build_generative(_config(tiny, max_new_tokens=64, escalate=False, patterns=[]))
    notes = _notes(tiny, 8)
    spans = rec.detect_batch(notes)
    assert sum(r.strings_returned for r in rec.last_reports) > 0
    for note, note_spans, report in zip(notes, spans, rec.last_reports):
        assert report.strings_returned == report.strings_grounded + report.ungrounded_dropped
        assert (report.strings_grounded == 0) == (note_spans == [])
        for s in note_spans:
            assert 0 <= s.start < s.end <= len(note.text)
    assert rec.stats.notes == len(notes)
    assert 0.0 <= rec.stats.grounding_rate <= 1.0


def test_a_generation_cut_short_is_repaired_and_recorded(tiny):
    actions = set()
    truncated = 0
    for limit in (2, 4, 6, 8):
        rec = build_generative(_config(tiny, max_new_tokens=limit, escalate=False))
        rec.detect_batch(_notes(tiny, 4))
        for r in rec.last_reports:
            assert ("generation_truncated" in r.qc_actions) == (r.truncated_generations > 0)
            truncated += r.truncated_generations
            actions |= set(r.qc_actions)
    assert truncated > 0
    assert "repaired:missing_root_close" in actions
    assert "repaired:truncated_final_element" in actions


def test_garbage_from_an_untrained_model_escalates_to_the_fallback(untrained):
    notes = _notes(untrained, 4)
    rules = build_default_pipeline()
    rec = build_generative(_config(untrained, patterns=[]), fallback=rules)
    spans = rec.detect_batch(notes)
    for note, note_spans, report in zip(notes, spans, rec.last_reports):
        assert report.escalated in {"unparseable", "empty", "ungrounded", "sparse"}
        assert any(a.startswith("escalated:") and a.endswith(":rules") for a in report.qc_actions)
        rule_spans = rules.analyze(note.text)
        covered = [any(s.start <= r.start and r.end <= s.end for s in note_spans) for r in rule_spans]
        assert all(covered), "every fallback span must reach the output"


def test_unreadable_output_without_a_fallback_fails_the_note_closed(tiny):
    rec = build_generative(_config(tiny, max_new_tokens=2, patterns=[]))
    with pytest.raises(RecognizerError, match="no fallback"):
        rec.detect_batch(_notes(tiny, 2))


def test_fixed_format_identifiers_the_model_missed_come_from_the_patterns(tiny):
    text = "Phone (617) 555-0142. Seen 03/14/2022. MRN: 4482913. Mail jo.ames@example.org"
    note = [ClinicalNote("p1", text, "pt")]
    without = build_generative(_config(tiny, patterns=[], escalate=False)).detect_batch(note)[0]
    rec = build_generative(_config(tiny, escalate=False))
    with_patterns = rec.detect_batch(note)[0]
    for needle, cat in (("(617) 555-0142", Category.PHONE), ("03/14/2022", Category.DATE), ("jo.ames@example.org", Category.WEB)):
        start = text.index(needle)
        assert any(s.start <= start and start + len(needle) <= s.end for s in with_patterns), needle
    report = rec.last_reports[0]
    added = report.pattern_spans_added
    assert added >= 1 and f"patterns_added:{added}" in report.qc_actions
    assert len(with_patterns) >= len(without)


def test_few_shot_examples_are_synthetic_and_go_before_the_note(tiny):
    examples = few_shot_examples(2, "xml")
    assert len(examples) == 2 and all(parse_strict(e.answer, "xml").entities for e in examples)
    prompt = build_prompt("THE NOTE", examples, "xml", "brief")
    assert prompt.index(examples[1].text) < prompt.index("### Note\nTHE NOTE")
    rec = build_generative(_config(tiny, few_shot=1, escalate=False))
    assert rec.prompt_for("x").count("### Example note") == 1
    out = rec.detect_batch(_notes(tiny, 1))
    assert len(out) == 1 and rec.last_reports[0].chunks >= 1


def test_analyze_follows_the_recognizer_protocol_and_filters_entities(tiny):
    rec = build_generative(_config(tiny, escalate=False))
    text = "Seen 03/14/2022, phone (617) 555-0142."
    dates = rec.analyze(text, entities=[Category.DATE])
    assert dates and all(s.category is Category.DATE for s in dates)
    assert Category.PATIENT in rec.categories and Category.HOSPITAL in rec.categories
    assert rec.name == "generative" and rec.version.startswith("transformers-")
    assert len(rec.analyze_batch([text, "Seen 2/2/2021."])) == 2
    assert [r.note_id for r in rec.last_reports] == ["0", "1"]


def test_a_long_note_is_chunked_and_its_spans_come_back_once_in_note_offsets(tiny):
    note = max(tiny.heldout_notes, key=lambda n: len(n.text))
    rec = build_generative(_config(tiny, escalate=False))
    spans = rec.detect_batch([ClinicalNote(note.id, note.text, note.patient_id)])[0]
    assert rec.last_reports[0].chunks == len(plan_chunks(note.text, CHUNK, OVERLAP)) > 1
    ordered = sorted(spans, key=lambda s: s.start)
    assert all(a.end <= b.start for a, b in zip(ordered, ordered[1:])), "overlapping spans must be united"
    phone_or_date = [s for s in spans if s.category in (Category.DATE, Category.PHONE)]
    assert phone_or_date and all(s.end <= len(note.text) for s in spans)


# ---------------------------------------------------------------------------
# The HTTP backend against a real local server (not vLLM)
# ---------------------------------------------------------------------------


class _CompletionsServer:
    """A small OpenAI-completions server answering with the tiny model's generations."""

    def __init__(self, backend: TransformersBackend, fail: bool = False):
        self.backend = backend
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with outer.lock:
                    outer.requests.append({"path": self.path, **body})
                    if fail:
                        self.send_response(500)
                        self.end_headers()
                        self.wfile.write(b"prompt was: " + body.get("prompt", "").encode())
                        return
                    prompt = body["prompt"] if "prompt" in body else body["messages"][0]["content"]
                    gen = outer.backend.generate([prompt], int(body["max_tokens"]))[0]
                choice = {"index": 0, "finish_reason": "length" if gen.truncated else "stop"}
                if self.path.endswith("/chat/completions"):
                    choice["message"] = {"role": "assistant", "content": gen.text}
                else:
                    choice["text"] = gen.text
                payload = json.dumps({"id": "x", "object": "text_completion", "choices": [choice]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.parametrize("endpoint", ["completions", "chat"])
def test_server_backend_gives_the_same_spans_as_the_local_model(tiny, endpoint):
    notes = _notes(tiny, 3)
    local = build_generative(_config(tiny, escalate=False))
    expected = local.detect_batch(notes)
    with _CompletionsServer(local.backend) as server:
        remote = build_generative(
            {k: v for k, v in _config(tiny, escalate=False).items() if k not in ("model_path", "batch_size")}
            | {"base_url": server.url, "model": "tiny", "endpoint": endpoint, "concurrency": 4}
        )
        got = remote.detect_batch(notes)
    assert [[(s.start, s.end, s.category) for s in n] for n in got] == [[(s.start, s.end, s.category) for s in n] for n in expected]
    assert [r.qc_actions for r in remote.last_reports] == [r.qc_actions for r in local.last_reports]
    chunks = sum(r.chunks for r in local.last_reports)
    assert len(server.requests) == chunks
    req = server.requests[0]
    assert req["path"] == ("/v1/chat/completions" if endpoint == "chat" else "/v1/completions")
    assert req["model"] == "tiny" and req["temperature"] == 0.0 and req["max_tokens"] == 48
    assert req["structured_outputs"] == {"regex": xml_regex()}


def test_server_errors_fail_the_batch_without_echoing_note_text(tiny):
    local = TransformersBackend(tiny.out_dir)
    with _CompletionsServer(local, fail=True) as server:
        rec = build_generative({"base_url": server.url, "model": "tiny", "structured": "guided", "instructions": "brief"})
        with pytest.raises(RecognizerError) as info:
            rec.detect_batch([ClinicalNote("n1", "Patient Jo Ames seen 3/4/2020.", "p")])
    assert "500" in str(info.value) and "Ames" not in str(info.value)
    assert "guided_regex" in server.requests[0]


@pytest.mark.skipif(not os.environ.get("DEID_TEST_VLLM_URL"), reason="set DEID_TEST_VLLM_URL (and DEID_TEST_VLLM_MODEL) to test against a vLLM server")
def test_against_a_real_vllm_server():
    rec = build_generative(
        {"base_url": os.environ["DEID_TEST_VLLM_URL"], "model": os.environ.get("DEID_TEST_VLLM_MODEL", "generative"), "max_new_tokens": 256},
        fallback=build_default_pipeline(),
    )
    notes = [ClinicalNote(n.id, n.text, n.patient_id) for n in generate_notes(4, seed=21)]
    out = rec.detect_batch(notes)
    assert len(out) == 4 and all(r.chunks >= 1 for r in rec.last_reports)
    assert all(not any(a == "unparseable" for a in r.qc_actions) for r in rec.last_reports), "guided decoding must give readable XML"


# ---------------------------------------------------------------------------
# The fleet's generative slot
# ---------------------------------------------------------------------------


def test_fleet_slot_builds_the_recognizer_from_its_options(tiny):
    from deid_core.recognizers.mix import build_mix
    from fleet.settings import ModelSpec

    spec = ModelSpec(factory="workers.recognizers:generative", options=_config(tiny, escalate=True))
    mix = build_mix(kinds=("rules", "generative"), overrides={"generative": spec}, device="cpu", eager=False)
    out = mix.members["generative"].batch(_notes(tiny, 2))
    assert len(out) == 2 and all(isinstance(s, Span) for n in out for s in n)
    detector = mix.members["generative"].recognizer
    assert detector.fallback is not None and detector.fallback.name == "rules"


def test_fleet_slot_without_a_model_fails_loudly():
    from deid_core.detection import DetectorError
    from workers.recognizers import generative

    with pytest.raises(DetectorError, match="no generative model"):
        generative(device="cpu")
    with pytest.raises(DetectorError, match="generative recognizer: .*unknown key"):
        generative(device="cpu", base_url="http://127.0.0.1:9/v1", model="m", nonsense=1)


def test_train_command_writes_a_loadable_model(tmp_path, torch_one_thread, capsys):
    from deid_core.cli.main import main

    out = tmp_path / "m"
    assert main(["train", "generative", "--out", str(out), "--notes", "12", "--steps", "3", "--threads", "1"]) == 0
    assert "use it with" in capsys.readouterr().out
    assert (out / "MODEL_CARD.md").is_file()
    rec = build_generative({"model_path": str(out), "instructions": "brief", "chunk_chars": 240, "overlap_chars": 40, "max_new_tokens": 8, "escalate": False})
    assert len(rec.detect_batch([ClinicalNote("a", "Seen 03/14/2022 by Dr. Roy.", None)])) == 1
