"""A name written with combining accents is found, replaced and checked like its precomposed form."""

from __future__ import annotations

from deid_core.notes import ClinicalNote
import json
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from deid_core.anonymizer.engine import Replacement
from deid_core.leaks import scan_output
from deid_core.normalization import detect_on_nfc, nfc
from deid_core.recognizers.pipeline import build_default_pipeline

from deid_core.spans import Category, Span

DECOMPOSED = "Patient Hans Mu\u0308ller was seen today by Dr. Alan Brooks."
NAME = "Hans Mu\u0308ller"


def test_precomposed_text_is_left_as_it_is():
    form = nfc("Zoë Brontë, MRN 12345678")
    assert not form.changed and form.to_original(4, 10) == (4, 10)


def test_a_span_of_the_normalized_text_maps_to_whole_clusters_of_the_original():
    form = nfc(DECOMPOSED)
    assert form.text == unicodedata.normalize("NFC", DECOMPOSED)
    start = form.text.index("Hans Müller")
    assert form.to_original(start, start + len("Hans Müller")) == (DECOMPOSED.index(NAME), DECOMPOSED.index(NAME) + len(NAME))
    # a span ending on the ü covers its combining mark too
    u = form.text.index("ü")
    a, b = form.to_original(u, u + 1)
    assert DECOMPOSED[a:b] == "u\u0308"


@given(st.text(alphabet=st.sampled_from("ae uoAEO\u0301\u0308\u0327\u0303.\n\uac00\u1100\u1161\u11a8"), max_size=40), st.data())
def test_every_normalized_span_maps_to_original_text_that_normalizes_to_it(text, data):
    form = nfc(text)
    if not form.text:
        return
    start = data.draw(st.integers(0, len(form.text) - 1))
    end = data.draw(st.integers(start + 1, len(form.text)))
    a, b = form.to_original(start, end)
    assert 0 <= a <= b <= len(text)
    assert form.text[start:end] in unicodedata.normalize("NFC", text[a:b])


def test_rules_find_a_decomposed_name_and_spans_point_into_the_original():
    pipeline = build_default_pipeline()
    (spans,) = detect_on_nfc([ClinicalNote("n1", DECOMPOSED, "P1")], pipeline.analyze_batch)
    found = {DECOMPOSED[s.start : s.end]: s.category for s in spans}
    assert found.get(NAME) is Category.PATIENT


def test_the_leak_report_finds_a_decomposed_copy_of_a_precomposed_span():
    original = "Hans Müller called. Mu\u0308ller again."
    span = Span(0, 11, Category.PATIENT, 1.0, "test")
    output = "Ivo Tamm called. Mu\u0308ller again."
    regions = [Replacement(0, 11, 0, 8, Category.PATIENT, "surrogate")]
    leaks = scan_output(original, [span], output, regions)
    assert [(output[x.out_start : x.out_end], x.kind) for x in leaks] == [("Mu\u0308ller", "span-text")]


def test_deid_run_replaces_a_decomposed_name(tmp_path):
    from deid_core.keys import StudyKey
    from fleet.embedded import run_embedded
    from fleet.pipeline import PipelineConfig

    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "n1", "patient_id": "P1", "text": DECOMPOSED}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    run_embedded(inp, out, StudyKey.generate("s"), PipelineConfig.load(None, ("rules",), 0.5))
    text = json.loads(out.read_text(encoding="utf-8"))["text"]
    assert "ller" not in unicodedata.normalize("NFC", text)
