"""Output records name patients (and, when asked, notes) by keyed pseudonyms only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deid_core.anonymizer.engine import Anonymizer, Note
from deid_core.anonymizer.pseudonyms import PseudonymError, RecordPseudonyms
from deid_core.cli.main import main
from deid_core.config import AnonymizerConfig
from deid_core.keys import StudyKey
from deid_core.leaks import scan_output
from deid_core.spans import Category, Span


def _notes(path: Path) -> Path:
    rows = [
        {"id": "n1", "patient_id": "00123456", "text": "MRN 72908675 seen", "spans": [{"start": 4, "end": 12, "label": "ID"}]},
        {"id": "n2", "patient_id": "00123456", "text": "seen again", "spans": []},
        {"id": "n3", "patient_id": "00999999", "text": "other patient", "spans": []},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _anonymize(tmp_path: Path, key_file: Path, *extra: str) -> list[dict]:
    out = tmp_path / "out.jsonl"
    assert main(["anonymize", "--in", str(_notes(tmp_path / "in.jsonl")), "--out", str(out), "--key-file", str(key_file), *extra]) == 0
    return [json.loads(line) for line in out.read_text().splitlines()]


@pytest.fixture()
def key_file(tmp_path) -> Path:
    path = tmp_path / "k.json"
    assert main(["keygen", "--study", "s", "--out", str(path)]) == 0
    return path


def test_output_records_carry_a_patient_pseudonym_never_the_patient_id(tmp_path, key_file):
    records = _anonymize(tmp_path, key_file)
    assert "00123456" not in (tmp_path / "out.jsonl").read_text()
    assert records[0]["patient_id"] == records[1]["patient_id"] != records[2]["patient_id"]
    assert [r["id"] for r in records] == ["n1", "n2", "n3"]
    key = StudyKey.read(key_file)
    assert RecordPseudonyms(key).reveal("patient_id", records[0]["patient_id"]) == "00123456"


def test_record_ids_get_pseudonyms_when_configured(tmp_path, key_file):
    cfg = tmp_path / "c.toml"
    cfg.write_text("[anonymizer]\npseudonymize_id = true\n")
    records = _anonymize(tmp_path, key_file, "--config", str(cfg))
    pseudonyms = RecordPseudonyms(StudyKey.read(key_file))
    assert [pseudonyms.reveal("id", r["id"]) for r in records] == ["n1", "n2", "n3"]


def test_only_the_key_holder_can_reveal_a_pseudonym(study_key, other_key):
    mine = RecordPseudonyms(study_key)
    token = mine.pseudonym("patient_id", "00123456")
    assert RecordPseudonyms(other_key).pseudonym("patient_id", "00123456") != token
    with pytest.raises(PseudonymError):
        RecordPseudonyms(other_key).reveal("patient_id", token)
    with pytest.raises(PseudonymError):
        mine.reveal("id", token)  # a patient pseudonym is no note-id pseudonym
    altered = ("b" if token[0] != "b" else "c") + token[1:]
    with pytest.raises(PseudonymError):
        mine.reveal("patient_id", altered)


def test_pseudonyms_hide_the_length_of_short_values(study_key):
    pseudonyms = RecordPseudonyms(study_key)
    lengths = {len(pseudonyms.pseudonym("patient_id", v)) for v in ("1", "00123456", "P-0000000000001")}
    assert len(lengths) == 1
    assert pseudonyms.reveal("patient_id", pseudonyms.pseudonym("patient_id", "Pätient 7")) == "Pätient 7"


def test_the_leak_report_finds_a_patient_id_left_in_the_text(study_key):
    text = "MRN 00123456 seen by Dr. Ann Weber"
    spans = (Span(text.index("Ann"), len(text), Category.DOCTOR),)
    out = Anonymizer(study_key).anonymize(Note("n", text, "00123456", spans))
    leaks = scan_output(text, spans, out.text, out.replacements, "00123456")
    assert [(leak.kind, leak.category) for leak in leaks] == [("span-text", Category.ID)]
    assert out.text[leaks[0].out_start : leaks[0].out_end] == "00123456"


def test_the_embedded_run_exports_the_same_pseudonyms_as_anonymize(tmp_path, key_file):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "r1", "patient_id": "P-77", "text": "Seen by Dr. Ann Weber."}) + "\n")
    out = tmp_path / "out.jsonl"
    main(["run", "--in", str(inp), "--out", str(out), "--key-file", str(key_file), "--recognizers", "rules"])
    record = json.loads(out.read_text())
    key = StudyKey.read(key_file)
    assert (record["id"], record["patient_id"]) == Anonymizer(key, AnonymizerConfig()).record_fields("r1", "P-77")
    assert "P-77" not in out.read_text()
