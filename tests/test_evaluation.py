"""The evaluation harness: matching, crosswalk, metrics, bootstrap, readers, CLI."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deid_core.cli.main import build_parser, main
from deid_core.evaluation import (
    NAME,
    Counts,
    Crosswalk,
    CrosswalkError,
    EvalConfig,
    EvalDocument,
    EvalInputError,
    LabelRule,
    SourceDocument,
    SourceSpan,
    age_unit_end,
    bootstrap_totals,
    char_coverage,
    count_document,
    evaluate,
    format_table,
    iou,
    load_gold,
    load_predictions,
    match_spans,
    read_brat,
    read_i2b2,
    to_json,
)
from deid_core.spans import Category, Span

TEXT = "x" * 200
NO_BOOT = EvalConfig(n_bootstrap=0)


def sp(start: int, end: int, cat: str) -> Span:
    return Span(start, end, Category.parse(cat))


def doc(doc_id: str, *spans: Span, text: str = TEXT) -> EvalDocument:
    return EvalDocument(doc_id, text, tuple(spans))


def src(doc_id: str, text: str, *spans: tuple[int, int, str]) -> SourceDocument:
    return SourceDocument(doc_id, text, tuple(SourceSpan(s, e, label) for s, e, label in spans), "test")


# ----------------------------------------------------------------------------
# Matching


def test_iou_is_intersection_over_union():
    assert iou(sp(0, 10, "DATE"), sp(5, 15, "DATE")) == Fraction(5, 15)
    assert iou(sp(0, 10, "DATE"), sp(10, 20, "DATE")) == 0


def test_iou_exactly_at_tau_matches_and_just_below_does_not():
    gold = [sp(0, 10, "DATE")]
    assert count_document(gold, [sp(0, 8, "DATE")], 0.8)["DATE"] == Counts(1, 0, 0)  # 8/10
    assert count_document(gold, [sp(1, 9, "DATE")], 0.8)["DATE"] == Counts(1, 0, 0)  # 8/10
    assert count_document([sp(0, 5, "AGE")], [sp(0, 4, "AGE")], 0.8)["AGE"] == Counts(1, 0, 0)  # 4/5
    assert count_document(gold, [sp(0, 7, "DATE")], 0.8)["DATE"] == Counts(0, 1, 1)  # 7/10
    assert count_document(gold, [sp(0, 7, "DATE")], 0.5)["DATE"] == Counts(1, 0, 0)
    assert count_document(gold, [sp(0, 5, "DATE")], 0.5)["DATE"] == Counts(1, 0, 0)  # exactly 0.5
    assert count_document(gold, [sp(0, 4, "DATE")], 0.5)["DATE"] == Counts(0, 1, 1)


def test_two_predictions_on_one_gold_count_one_tp_and_one_fp():
    counts = count_document([sp(0, 10, "PATIENT")], [sp(0, 10, "PATIENT"), sp(0, 9, "PATIENT")], 0.8)
    assert counts["PATIENT"] == Counts(tp=1, fp=1, fn=0)


def test_one_prediction_cannot_match_two_gold_spans():
    gold = [sp(0, 4, "DATE"), sp(4, 8, "DATE")]
    counts = count_document(gold, [sp(0, 8, "DATE")], 0.5)  # IoU 0.5 with each
    assert counts["DATE"] == Counts(tp=1, fp=0, fn=1)


def test_greedy_matching_pairs_the_highest_iou_first():
    gold = [sp(0, 10, "ID")]
    preds = [sp(0, 9, "ID"), sp(0, 10, "ID")]
    (m,) = match_spans(gold, preds, 0.8)
    assert (m.gold, m.predicted, m.iou) == (0, 1, 1)


def test_category_mismatch_is_a_false_positive_and_a_false_negative():
    counts = count_document([sp(0, 10, "DATE")], [sp(0, 10, "AGE")], 0.8)
    assert counts["DATE"] == Counts(0, 0, 1)
    assert counts["AGE"] == Counts(0, 1, 0)


def test_other_spans_are_unscored():
    counts = count_document([sp(0, 5, "OTHER")], [sp(20, 25, "OTHER")], 0.8)
    assert "OTHER" not in counts
    assert all(c == Counts() for c in counts.values())


def test_pooling_names_turns_a_patient_doctor_confusion_into_a_match():
    gold, pred = [sp(0, 10, "PATIENT")], [sp(0, 10, "DOCTOR")]
    plain = count_document(gold, pred, 0.8)
    assert plain["PATIENT"] == Counts(0, 0, 1) and plain["DOCTOR"] == Counts(0, 1, 0)
    pooled = count_document(gold, pred, 0.8, pool_names=True)
    assert pooled[NAME] == Counts(1, 0, 0)
    assert "PATIENT" not in pooled and "DOCTOR" not in pooled
    result = evaluate([doc("a", *gold)], [doc("a", *pred)], EvalConfig(n_bootstrap=0, pool_names=True))
    assert len(result.labels) == 8 and NAME in result.labels
    assert result.at(0.8).micro.tp == 1


def test_char_coverage_counts_gold_characters_under_any_prediction():
    gold = [sp(0, 10, "DATE"), sp(5, 15, "ID"), sp(30, 40, "PATIENT"), sp(50, 60, "OTHER")]
    pred = [sp(0, 4, "AGE"), sp(12, 35, "OTHER"), sp(38, 45, "WEB")]
    # gold union [0,15) + [30,40) = 25 chars; covered 4 + 3 + 5 + 2 = 14
    assert char_coverage(gold, pred) == (14, 25)


@given(
    st.lists(st.tuples(st.integers(0, 60), st.integers(1, 12), st.sampled_from(["DATE", "AGE", "ID"])), max_size=8),
    st.lists(st.tuples(st.integers(0, 60), st.integers(1, 12), st.sampled_from(["DATE", "AGE", "ID"])), max_size=8),
    st.sampled_from([0.5, 0.8, 1.0]),
)
@settings(max_examples=150, deadline=None)
def test_counts_partition_gold_and_predictions(gold_raw, pred_raw, tau):
    gold = [sp(s, s + n, c) for s, n, c in gold_raw]
    pred = [sp(s, s + n, c) for s, n, c in pred_raw]
    counts = count_document(gold, pred, tau)
    for label, c in counts.items():
        assert c.tp + c.fn == sum(1 for g in gold if g.category.value == label)
        assert c.tp + c.fp == sum(1 for p in pred if p.category.value == label)
    matches = match_spans(gold, pred, tau)
    assert len({m.gold for m in matches}) == len({m.predicted for m in matches}) == len(matches)
    assert all(m.iou >= Fraction(str(tau)) and gold[m.gold].category is pred[m.predicted].category for m in matches)


@given(st.lists(st.tuples(st.integers(0, 150), st.integers(1, 20), st.sampled_from(list(Category))), max_size=10))
@settings(max_examples=60, deadline=None)
def test_perfect_predictions_score_one_everywhere(raw):
    spans = [sp(s, s + n, c.value) for s, n, c in raw]
    result = evaluate([doc("a", *spans)], [doc("a", *spans)], NO_BOOT)
    for r in result.by_tau:
        assert r.zero_leak.value == 1.0
        assert r.micro.fp == r.micro.fn == 0
        if r.micro.gold:
            assert r.micro.scores.recall.value == r.micro.scores.precision.value == 1.0
    assert result.char_recall.covered == result.char_recall.gold


# ----------------------------------------------------------------------------
# Corpus metrics


def _two_docs() -> tuple[list[EvalDocument], list[EvalDocument]]:
    gold = [
        doc("a", sp(0, 10, "DATE"), sp(20, 30, "DATE"), sp(40, 50, "PATIENT")),
        doc("b", sp(0, 2, "AGE")),
    ]
    pred = [
        doc("a", sp(0, 10, "DATE"), sp(21, 30, "DATE"), sp(60, 70, "PATIENT")),
        doc("b", sp(0, 2, "AGE"), sp(10, 20, "PHONE")),
    ]
    return gold, pred


def test_micro_macro_char_recall_and_zero_leak_on_a_hand_counted_corpus():
    gold, pred = _two_docs()
    r = evaluate(gold, pred, NO_BOOT)
    at = r.at(0.8)
    # DATE 2 TP; PATIENT 1 FP + 1 FN; AGE 1 TP; PHONE 1 FP.
    assert (at.category("DATE").tp, at.category("DATE").fp, at.category("DATE").fn) == (2, 0, 0)
    assert (at.category("PATIENT").tp, at.category("PATIENT").fp, at.category("PATIENT").fn) == (0, 1, 1)
    assert (at.category("PHONE").fp, at.category("PHONE").gold) == (1, 0)
    assert (at.micro.tp, at.micro.fp, at.micro.fn) == (3, 2, 1)
    p, rec = 3 / 5, 3 / 4
    assert at.micro.scores.precision.value == pytest.approx(p)
    assert at.micro.scores.recall.value == pytest.approx(rec)
    assert at.micro.scores.f1.value == pytest.approx(2 * p * rec / (p + rec))
    assert at.micro.scores.f2.value == pytest.approx(5 * p * rec / (4 * p + rec))
    # Per category P: DATE 1, AGE 1, PATIENT 0, PHONE 0, five undefined -> 0.
    assert at.macro.precision.value == pytest.approx(2 / 9)
    assert at.macro.recall.value == pytest.approx(2 / 9)
    assert at.macro.f1.value == pytest.approx(2 / 9)
    # Document a misses its PATIENT span; b misses nothing.
    assert at.zero_leak.value == pytest.approx(1 / 2) and at.leak_free_documents == 1
    # Gold characters 10 + 10 + 10 + 2 = 32; covered 10 + 9 + 0 + 2 = 21.
    assert (r.char_recall.covered, r.char_recall.gold) == (21, 32)
    assert r.char_recall.estimate.value == pytest.approx(21 / 32)


def test_sensitivity_threshold_recovers_boundary_misses():
    gold = [doc("a", sp(0, 10, "HOSPITAL"))]
    pred = [doc("a", sp(0, 6, "HOSPITAL"))]  # IoU 0.6
    r = evaluate(gold, pred, NO_BOOT)
    assert r.at(0.8).micro.scores.recall.value == 0.0 and r.at(0.8).zero_leak.value == 0.0
    assert r.at(0.5).micro.scores.recall.value == 1.0 and r.at(0.5).zero_leak.value == 1.0


def test_document_without_gold_is_leak_free_and_missing_predictions_leak():
    gold = [doc("a"), doc("b", sp(0, 5, "ID")), doc("c", sp(0, 5, "ID"))]
    pred = [doc("a", sp(0, 3, "ID")), doc("b", sp(0, 5, "ID"))]
    r = evaluate(gold, pred, NO_BOOT)
    assert r.at(0.8).zero_leak.value == pytest.approx(2 / 3)
    assert [i.record_id for i in r.issues] == ["c"]


def _varied_corpus(n: int = 40) -> tuple[list[EvalDocument], list[EvalDocument]]:
    gold, pred = [], []
    for i in range(n):
        g = [sp(0, 10, "DATE"), sp(20, 30, "PATIENT"), sp(40, 44, "AGE")]
        p = [sp(0, 10, "DATE")]
        if i % 3:
            p.append(sp(20, 30, "PATIENT"))
        if i % 4 == 0:
            p.append(sp(40, 43, "AGE"))
        if i % 5 == 0:
            p.append(sp(60, 70, "ID"))
        gold.append(doc(f"n{i}", *g))
        pred.append(doc(f"n{i}", *p))
    return gold, pred


def test_bootstrap_interval_contains_the_point_estimate_and_repeats_under_seed_42():
    gold, pred = _varied_corpus()
    first = evaluate(gold, pred, EvalConfig())
    again = evaluate(gold, pred, EvalConfig())
    assert to_json(first) == to_json(again)
    for r in first.by_tau:
        estimates = [r.micro.scores.recall, r.micro.scores.precision, r.macro.recall, r.zero_leak]
        estimates += [c.scores.recall for c in r.categories]
        for e in estimates:
            assert e.low is not None and e.high is not None
            assert e.low <= e.value <= e.high
    micro_r = first.at(0.8).micro.scores.recall
    assert micro_r.low < micro_r.value < micro_r.high  # recall varies between documents


def test_bootstrap_totals_equal_explicit_document_resampling():
    rows = np.random.default_rng(0).integers(0, 5, size=(30, 7))
    fast = bootstrap_totals(rows, 50, seed=42)
    draws = np.random.default_rng(42).integers(0, 30, size=(50, 30))
    slow = np.stack([rows[d].sum(axis=0) for d in draws])
    assert np.array_equal(fast, slow)
    assert np.array_equal(bootstrap_totals(rows, 50, seed=42), fast)
    assert not np.array_equal(bootstrap_totals(rows, 50, seed=7), fast)


def test_bootstrap_of_2000_resamples_over_1000_documents_is_vectorised():
    rows = np.random.default_rng(1).integers(0, 4, size=(1000, 58))
    totals = bootstrap_totals(rows, 2000, seed=42)
    assert totals.shape == (2000, 58)
    # Every resample draws exactly 1,000 documents, so totals stay near the mean.
    assert np.allclose(totals.mean(axis=0), rows.sum(axis=0), rtol=0.05)


def test_without_bootstrap_estimates_have_no_interval():
    gold, pred = _two_docs()
    r = evaluate(gold, pred, NO_BOOT).at(0.8).micro.scores.recall
    assert r.low is None and r.high is None


def test_config_rejects_thresholds_outside_the_unit_interval():
    with pytest.raises(ValueError):
        EvalConfig(taus=(0.0,))
    with pytest.raises(ValueError):
        EvalConfig(taus=(1.2,))


def test_predictions_outside_the_gold_text_are_an_error():
    with pytest.raises(EvalInputError, match="'a'.*outside"):
        evaluate([doc("a", text="short")], [EvalDocument("a", None, (sp(0, 50, "DATE"),))], NO_BOOT)


# ----------------------------------------------------------------------------
# Crosswalk


def test_crosswalk_merges_adjacent_address_components_into_one_location():
    text = "Lives at 12 Elm St, Salem, MA 01970 and works in Boston."
    street, city, state, zip_ = (9, 18), (20, 25), (27, 29), (30, 35)
    boston = (text.index("Boston"), text.index("Boston") + 6)
    assert text[street[0] : street[1]] == "12 Elm St" and text[zip_[0] : zip_[1]] == "01970"
    out = Crosswalk.i2b2().apply(
        src("d", text, (*street, "STREET"), (*city, "CITY"), (*state, "STATE"), (*zip_, "ZIP"), (*boston, "CITY"))
    )
    assert [(s.start, s.end, s.category) for s in out.spans] == [
        (9, 35, Category.LOCATION),
        (*boston, Category.LOCATION),
    ]


def test_crosswalk_does_not_merge_across_a_newline():
    text = "12 Elm St\nSalem"
    out = Crosswalk.i2b2().apply(src("d", text, (0, 9, "STREET"), (10, 15, "CITY")))
    assert [(s.start, s.end) for s in out.spans] == [(0, 9), (10, 15)]


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("a 72 years old man", " years old"),
        ("a 72-year-old man", "-year-old"),
        ("a 72yo man", "yo"),
        ("a 72 y/o man", " y/o"),
        ("a 72 y.o. man", " y.o."),
        ("an infant, 18 months, seen", " months"),
        ("a 72 year old man", " year old"),
        ("age 72, male", ""),
        ("a 72 yours", ""),
    ],
)
def test_crosswalk_extends_age_over_a_following_unit(text, unit):
    start = text.index("72") if "72" in text else text.index("18")
    out = Crosswalk.i2b2().apply(src("d", text, (start, start + 2, "AGE")))
    (span,) = out.spans
    assert span.category is Category.AGE
    assert text[span.start : span.end] == text[start : start + 2] + unit
    assert age_unit_end(text, start + 2) == span.end


def test_crosswalk_drops_excluded_labels_and_relabels_the_rest():
    text = "Ann, nurse at Acme, MRN 123, fax 555-1234, a@b.org, user jdoe"
    labels = [
        (0, 3, "PATIENT"),
        (5, 10, "PROFESSION"),
        (14, 18, "ORGANIZATION"),
        (24, 27, "MEDICALRECORD"),
        (33, 41, "FAX"),
        (43, 50, "EMAIL"),
        (57, 61, "USERNAME"),
    ]
    out = Crosswalk.i2b2().apply(src("d", text, *labels))
    assert [(s.start, s.category) for s in out.spans] == [
        (0, Category.PATIENT),
        (24, Category.ID),
        (33, Category.PHONE),
        (43, Category.WEB),
        (57, Category.ID),
    ]


def test_unknown_label_is_an_error_naming_the_document():
    with pytest.raises(CrosswalkError, match="'d'.*'SPACESHIP'"):
        Crosswalk.i2b2().apply(src("d", "abc", (0, 3, "SPACESHIP")))


def test_crosswalk_is_configurable_from_a_mapping():
    walk = Crosswalk.from_mapping(
        {"person": "PATIENT", "org": None, "years": LabelRule(Category.AGE, extend_age_unit=True)}
    )
    out = walk.apply(src("d", "Ann of Acme, 40 years", (0, 3, "PERSON"), (7, 11, "ORG"), (13, 15, "years")))
    assert [(s.start, s.end, s.category) for s in out.spans] == [(0, 3, Category.PATIENT), (13, 21, Category.AGE)]
    with pytest.raises(CrosswalkError):
        walk.apply(src("d", "Ann", (0, 3, "DATE")))  # only the given labels exist
    extended = walk.with_rules({"DATE": "DATE"})
    assert extended.apply(src("d", "Ann", (0, 3, "DATE"))).spans[0].category is Category.DATE


def test_identity_crosswalk_passes_our_categories_without_boundary_rules():
    text = "72 years old, Salem, MA"
    out = Crosswalk.identity().apply(src("d", text, (0, 2, "AGE"), (14, 19, "LOCATION"), (21, 23, "LOCATION")))
    assert [(s.start, s.end, s.category) for s in out.spans] == [
        (0, 2, Category.AGE),
        (14, 19, Category.LOCATION),
        (21, 23, Category.LOCATION),
    ]


def test_boundary_rules_can_be_switched_off_for_predictions():
    raw = src("d", "72 years, Salem, MA", (0, 2, "AGE"), (10, 15, "CITY"), (17, 19, "STATE"))
    out = Crosswalk.i2b2().apply(raw, boundaries=False)
    assert [(s.start, s.end) for s in out.spans] == [(0, 2), (10, 15), (17, 19)]


# ----------------------------------------------------------------------------
# Readers


def _write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_jsonl_gold_and_detect_output_join_by_id_and_error_lines_are_reported(tmp_path):
    gold = _write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {
                "id": "n1",
                "text": "Seen 03/04/2019 by Dr. Okafor.",
                "spans": [{"start": 5, "end": 15, "label": "DATE"}, {"start": 23, "end": 29, "label": "DOCTOR"}],
            },
            {"id": "n2", "text": "MRN 00123456", "spans": [{"start": 4, "end": 12, "label": "ID"}]},
        ],
    )
    pred = _write_jsonl(
        tmp_path / "pred.jsonl",
        [
            {"id": "n1", "spans": [{"start": 5, "end": 15, "label": "DATE", "score": 0.9, "source": "regex"}]},
            {"id": "n2", "line": 2, "error": "recognizer crashed"},
        ],
    )
    gold_docs = load_gold(gold)
    preds = load_predictions(pred)
    assert [d.id for d in gold_docs] == ["n1", "n2"]
    assert preds.documents[0].spans[0].source == "regex" and preds.documents[0].text is None
    assert [(i.record_id, i.message) for i in preds.issues] == [("n2", "recognizer crashed")]
    r = evaluate(gold_docs, preds.documents, NO_BOOT, issues=preds.issues)
    at = r.at(0.8)
    assert (at.micro.tp, at.micro.fp, at.micro.fn) == (1, 0, 2)
    assert at.leak_free_documents == 0
    assert [i.record_id for i in r.issues] == ["n2"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"id": "n1", "text": "abc", "spans": [', r"gold\.jsonl:2: malformed JSON"),
        ('{"id": "n1", "spans": []}', r"gold\.jsonl:2: record 'n1': gold records need a 'text'"),
        (
            '{"id": "n1", "text": "abc", "spans": [{"start": 0, "end": 9, "label": "ID"}]}',
            r":2: record 'n1': span 0: .*outside",
        ),
        ('{"id": "n1", "text": "abc", "spans": [{"start": "0", "end": 2, "label": "ID"}]}', r"'start' must be"),
        ('{"id": "n1", "text": "abc", "spans": [{"start": 0, "end": 2}]}', r"span 0: missing or non-string 'label'"),
        ('{"text": "abc"}', r":2: missing or invalid 'id'"),
    ],
)
def test_malformed_jsonl_gold_names_file_line_and_record(tmp_path, line, message):
    path = tmp_path / "gold.jsonl"
    path.write_text('{"id": "n0", "text": "ok", "spans": []}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(EvalInputError, match=message):
        load_gold(path)


def test_duplicate_gold_ids_are_an_error(tmp_path):
    path = _write_jsonl(tmp_path / "g.jsonl", [{"id": 1, "text": "a"}, {"id": "1", "text": "b"}])
    with pytest.raises(EvalInputError, match="appears twice"):
        load_gold(path)


I2B2 = """<?xml version="1.0" encoding="UTF-8" ?>
<deIdi2b2>
<TEXT><![CDATA[Mr. Lopez is a 72 year old seen at Mercy Hospital, Salem, MA.
Call 617-555-0134. Works as a baker at Acme.]]></TEXT>
<TAGS>
<NAME id="P0" start="4" end="9" text="Lopez" TYPE="PATIENT" comment="" />
<AGE id="P1" start="15" end="17" text="72" TYPE="AGE" comment="" />
<LOCATION id="P2" start="35" end="49" text="Mercy Hospital" TYPE="HOSPITAL" comment="" />
<LOCATION id="P3" start="51" end="56" text="Salem" TYPE="CITY" comment="" />
<LOCATION id="P4" start="58" end="60" text="MA" TYPE="STATE" comment="" />
<CONTACT id="P5" start="67" end="79" text="617-555-0134" TYPE="PHONE" comment="" />
<PROFESSION id="P6" start="92" end="97" text="baker" TYPE="PROFESSION" comment="" />
<LOCATION id="P7" start="101" end="105" text="Acme" TYPE="ORGANIZATION" comment="" />
</TAGS>
</deIdi2b2>
"""


def test_i2b2_directory_reads_with_table_s6_crosswalk(tmp_path):
    (tmp_path / "101-01.xml").write_text(I2B2, encoding="utf-8")
    (raw,) = read_i2b2(tmp_path)
    assert raw.id == "101-01" and len(raw.spans) == 8 and raw.spans[3].label == "CITY"
    (gold,) = load_gold(tmp_path)  # format and crosswalk picked from the directory
    got = [(gold.text[s.start : s.end], s.category) for s in gold.spans]
    assert got == [
        ("Lopez", Category.PATIENT),
        ("72 year old", Category.AGE),
        ("Mercy Hospital", Category.HOSPITAL),
        ("Salem, MA", Category.LOCATION),
        ("617-555-0134", Category.PHONE),
    ]


def test_malformed_i2b2_file_is_an_error_naming_the_file(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text(I2B2.replace("</TAGS>", ""), encoding="utf-8")
    with pytest.raises(EvalInputError, match=r"bad\.xml: malformed XML"):
        read_i2b2(bad)
    shifted = tmp_path / "shifted.xml"
    shifted.write_text(I2B2.replace('start="4" end="9"', 'start="3" end="8"'), encoding="utf-8")
    with pytest.raises(EvalInputError, match=r"shifted\.xml: tag P0 <NAME>: text attribute 'Lopez' differs"):
        read_i2b2(shifted)


def _brat(tmp_path: Path, name: str, text: str, ann: str) -> None:
    (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8", newline="")
    (tmp_path / f"{name}.ann").write_text(ann, encoding="utf-8", newline="")


def test_brat_reads_discontinuous_spans(tmp_path):
    text = "Pt Maria de la\nCruz and Dr. Sam X. Okafor seen 3/4."
    i_maria, i_sam, i_okafor = text.index("Maria"), text.index("Sam"), text.index("Okafor")
    ann = (
        f"T1\tPATIENT {i_maria} 14;15 19\tMaria de la Cruz\n"
        f"T2\tDOCTOR {i_sam} {i_sam + 3};{i_okafor} {i_okafor + 6}\tSam Okafor\n"
        f"#1\tAnnotatorNotes T1\tsynthetic\n"
        f"T3\tDATE {text.index('3/4')} {text.index('3/4') + 3}\t3/4\n"
    )
    _brat(tmp_path, "note1", text, ann)
    (d,) = read_brat(tmp_path)
    assert d.id == "note1"
    got = [(text[s.start : s.end], s.label) for s in d.spans]
    # A line break inside a name joins its fragments; a gap with other text does not.
    assert got == [("Maria de la\nCruz", "PATIENT"), ("Sam", "DOCTOR"), ("Okafor", "DOCTOR"), ("3/4", "DATE")]
    (gold,) = load_gold(tmp_path / "note1.ann")
    assert [s.category for s in gold.spans] == [Category.PATIENT, Category.DOCTOR, Category.DOCTOR, Category.DATE]


@pytest.mark.parametrize(
    ("ann", "message"),
    [
        ("T1\tDATE 0 x\t3/4\n", r"n\.ann:1: T1: bad offsets"),
        ("T1\tDATE\n", r"n\.ann:1: malformed"),
        ("T1\tDATE 0 99\t3/4\n", r"n\.ann:1: T1: .*outside"),
        ("T1\tDATE 0 3\t4/5\n", r"n\.ann:1: T1: text '4/5' differs"),
    ],
)
def test_malformed_brat_is_an_error_naming_file_and_line(tmp_path, ann, message):
    _brat(tmp_path, "n", "3/4 seen", ann)
    with pytest.raises(EvalInputError, match=message):
        read_brat(tmp_path)


def test_brat_text_without_annotation_file_is_an_error(tmp_path):
    (tmp_path / "lonely.txt").write_text("Seen 3/4.", encoding="utf-8")
    with pytest.raises(EvalInputError, match=r"lonely\.txt: no \.ann"):
        read_brat(tmp_path)


# ----------------------------------------------------------------------------
# Report and CLI


def test_json_report_carries_the_numbers_of_the_result():
    gold, pred = _two_docs()
    r = evaluate(gold, pred, EvalConfig(n_bootstrap=200))
    out = json.loads(json.dumps(to_json(r)))
    at = out["results"][0]
    assert at["tau"] == 0.8 and out["documents"] == 2
    assert at["micro"]["tp"] == 3 and at["micro"]["recall"]["value"] == pytest.approx(3 / 4)
    assert at["categories"]["PATIENT"]["fn"] == 1
    assert at["macro"]["precision"]["value"] == pytest.approx(2 / 9)
    assert out["char_recall"]["covered"] == 21
    assert at["zero_leak"]["leak_free_documents"] == 1
    table = format_table(r)
    assert "IoU >= 0.8" in table and "IoU >= 0.5" in table
    assert "zero-leak rate: 0.500" in table and "character-level recall: 0.656" in table


def test_eval_parser_sets_func():
    args = build_parser().parse_args(["eval", "--gold", "g.jsonl", "--pred", "p.jsonl", "--tau", "0.9"])
    assert callable(args.func) and args.tau == [0.9] and args.bootstrap == 2000 and args.seed == 42


def _j(start: int, end: int, label: str) -> dict:
    return {"start": start, "end": end, "label": label}


def test_cli_prints_the_table_and_writes_json(tmp_path, capsys):
    text = "Seen 03/04/2019 by Dr. Okafor, age 72."
    gold = _write_jsonl(
        tmp_path / "gold.jsonl",
        [{"id": "a", "text": text, "spans": [_j(5, 15, "DATE"), _j(23, 29, "DOCTOR"), _j(35, 37, "AGE")]}],
    )
    pred = _write_jsonl(
        tmp_path / "pred.jsonl",
        [{"id": "a", "spans": [_j(5, 15, "DATE"), _j(23, 29, "PATIENT")]}],
    )
    out = tmp_path / "report.json"
    argv = ["eval", "--gold", str(gold), "--pred", str(pred), "--tau", "0.8", "--bootstrap", "50"]
    rc = main([*argv, "--pool-names", "--json", str(out)])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "NAME" in printed and "micro" in printed
    report = json.loads(out.read_text())
    assert report["config"]["taus"] == [0.8] and report["config"]["pool_names"] is True
    micro = report["results"][0]["micro"]
    assert (micro["tp"], micro["fp"], micro["fn"]) == (2, 0, 1)  # DATE and pooled NAME found, AGE missed


def test_cli_reports_malformed_input_without_a_traceback(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text("{not json\n", encoding="utf-8")
    pred = _write_jsonl(tmp_path / "pred.jsonl", [])
    assert main(["eval", "--gold", str(gold), "--pred", str(pred)]) == 2
    assert "gold.jsonl:1: malformed JSON" in capsys.readouterr().err


def test_inline_markup_gives_exact_offsets_and_rejects_broken_braces():
    import pytest

    from deid_core.evaluation.markup import MarkupError, parse_markup

    records = parse_markup("=== n1 P1\nSeen {D:3/4/2021} by Dr. {R:Amal Haddad}.\n=== n2 P1\nno phi\n")
    first = records[0]
    assert [first["text"][s["start"] : s["end"]] for s in first["spans"]] == ["3/4/2021", "Amal Haddad"]
    assert [s["label"] for s in first["spans"]] == ["DATE", "DOCTOR"]
    assert records[1] == {"id": "n2", "patient_id": "P1", "text": "no phi\n", "spans": []}
    with pytest.raises(MarkupError, match="n1"):
        parse_markup("=== n1 P1\nSeen {D:3/4/2021 by\n")


def test_label_blind_counts_a_gold_span_found_only_when_wholly_covered_by_any_category():
    from deid_core.evaluation.documents import EvalDocument
    from deid_core.evaluation.label_blind import label_blind

    text = "DTR ELLEN SOUZA CALLED FROM OHIO, LBM 11/5."
    at = lambda value, cat: Span(text.index(value), text.index(value) + len(value), cat)  # noqa: E731
    gold = [EvalDocument("a", text, (at("ELLEN SOUZA", Category.PATIENT), at("OHIO", Category.LOCATION), at("11/5", Category.DATE)))]
    pred = [EvalDocument("a", text, (
        at("ELLEN", Category.PATIENT),  # half of the name: not found
        at("OHIO", Category.PATIENT),  # the wrong category, still found
        at("CALLED", Category.DOCTOR),  # overlaps no gold span
    ))]
    lb = label_blind(gold, pred)
    assert (lb.found, lb.gold, lb.hits, lb.predicted) == (1, 3, 2, 3)
    assert lb.recall == pytest.approx(1 / 3) and lb.precision == pytest.approx(2 / 3)
