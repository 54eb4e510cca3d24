"""``deid eval`` counts false positives by the source chain that produced them, and per 1,000 words."""

from __future__ import annotations

import json

from deid_core.cli.main import main
from deid_core.evaluation.documents import EvalDocument
from deid_core.evaluation.sources import false_positives
from deid_core.spans import Category, Span

TEXT = "PT SEDATED ON LEVO. Seen by Dr. Okafor. Okafor to call. LEVO OFF AT 1400."


def _gold() -> list[EvalDocument]:
    return [EvalDocument("a", TEXT, (Span(32, 38, Category.DOCTOR),))]


def _pred() -> list[EvalDocument]:
    return [
        EvalDocument(
            "a",
            None,
            (
                Span(3, 10, Category.PATIENT, 0.75, "names/patient_inline"),
                Span(14, 18, Category.PATIENT, 0.8, "propagation<names/patient_inline"),
                Span(32, 38, Category.DOCTOR, 0.95, "names/title"),
                Span(40, 46, Category.DOCTOR, 0.8, "propagation<names/title"),
                Span(56, 60, Category.PATIENT, 0.8, "propagation<names/patient_inline"),
            ),
        )
    ]


def test_unmatched_spans_are_counted_by_their_source():
    fp = false_positives(_gold(), _pred(), 0.5)
    assert fp.count == 4
    assert fp.by_source == (("propagation<names/patient_inline", 2), ("names/patient_inline", 1), ("propagation<names/title", 1))


def test_false_positives_are_given_per_1000_words():
    fp = false_positives(_gold(), _pred(), 0.5)
    assert fp.words == len(TEXT.split())
    assert fp.per_1000_words == 1000 * 4 / len(TEXT.split())


def test_a_span_of_the_wrong_category_is_a_false_positive_of_its_source():
    pred = [EvalDocument("a", None, (Span(32, 38, Category.PATIENT, 0.5, "names/listed"),))]
    assert false_positives(_gold(), pred, 0.5).by_source == (("names/listed", 1),)


def test_deid_eval_prints_and_writes_the_false_positives_by_source(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    pred = tmp_path / "pred.jsonl"
    gold.write_text(json.dumps({"id": "a", "text": TEXT, "spans": [{"start": 32, "end": 38, "label": "DOCTOR"}]}) + "\n")
    spans = [{"start": s.start, "end": s.end, "label": s.category.value, "source": s.source} for s in _pred()[0].spans]
    pred.write_text(json.dumps({"id": "a", "spans": spans}) + "\n")
    out = tmp_path / "report.json"
    assert main(["eval", "--gold", str(gold), "--pred", str(pred), "--tau", "0.5", "--bootstrap", "0", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "false positives at IoU >= 0.5: 4 in 15 words" in printed
    assert "propagation<names/patient_inline" in printed
    report = json.loads(out.read_text())
    assert report["false_positives"]["by_source"]["propagation<names/title"] == 1
