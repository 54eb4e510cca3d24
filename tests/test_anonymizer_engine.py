import json

import pytest

from deid_core.anonymizer.engine import AnonymizationError, Anonymizer, Note
from deid_core.cli.main import main
from deid_core.config import AnonymizerConfig
from deid_core.keys import StudyKey
from deid_core.spans import Category, Span

TEXT = "Pt John Smith (MRN 15851368) seen 03/15/2023, age 95, call 650-876-9087, Acct 22222222."


def spans_for(text: str, *pairs: tuple[str, Category]) -> tuple[Span, ...]:
    out, pos = [], 0
    for value, category in pairs:
        start = text.index(value, pos)
        out.append(Span(start, start + len(value), category))
        pos = start + len(value)
    return tuple(out)


def sample_note(patient_id: str | None = "P1") -> Note:
    return Note(
        "n1",
        TEXT,
        patient_id,
        spans_for(
            TEXT,
            ("John Smith", Category.PATIENT),
            ("15851368", Category.ID),
            ("03/15/2023", Category.DATE),
            ("95", Category.AGE),
            ("650-876-9087", Category.PHONE),
            ("22222222", Category.OTHER),
        ),
    )


def test_no_original_value_survives_and_spans_map_to_output(study_key):
    note = sample_note()
    out = Anonymizer(study_key).anonymize(note)
    for value in ("John", "Smith", "15851368", "03/15/2023", "650-876-9087", "22222222"):
        assert value not in out.text
    for before, after in zip(note.spans, out.spans):
        assert note.text[before.start : before.end] != out.text[after.start : after.end]
    assert [s.category for s in out.spans] == [s.category for s in note.spans]
    age = out.spans[3]
    assert out.text[age.start : age.end] == "89"
    assert out.key_id == study_key.key_id
    # text outside the spans is untouched
    assert out.text.startswith("Pt ") and "seen" in out.text and out.text.endswith(".")


def test_same_input_same_keys_same_output(study_key):
    a = Anonymizer(study_key).anonymize(sample_note())
    b = Anonymizer(StudyKey(study_key.study, salt=study_key.salt, key=study_key.key)).anonymize(sample_note())
    assert a.text == b.text


def test_rotated_key_gives_unlinkable_output(study_key, other_key):
    a = Anonymizer(study_key).anonymize(sample_note())
    b = Anonymizer(other_key).anonymize(sample_note())
    sa = [a.text[s.start : s.end] for s in a.spans]
    sb = [b.text[s.start : s.end] for s in b.spans]
    differing = sum(x != y for x, y in zip(sa, sb))
    assert differing >= 5  # age cap is key-independent by design


def test_dates_without_patient_id_fail_the_note(study_key):
    with pytest.raises(AnonymizationError, match="no patient_id"):
        Anonymizer(study_key).anonymize(sample_note(patient_id=None))


def test_error_in_a_strategy_masks_the_span_and_records_why(study_key):
    text = "MRN: ---- and age unknown"
    note = Note("n2", text, "P1", (Span(5, 9, Category.ID), Span(14, 25, Category.AGE)))
    out = Anonymizer(study_key).anonymize(note)
    assert out.text == "MRN: [ID] and [AGE]"
    assert [r.masked_because for r in out.replacements] == ["FpeError", "AgeParseError"]
    assert all("----" not in (r.masked_because or "") for r in out.replacements)


def test_unparseable_date_is_masked_not_passed_through(study_key):
    text = "seen on the feast day"
    note = Note("n3", text, "P1", (Span(12, 21, Category.DATE),))
    out = Anonymizer(study_key).anonymize(note)
    assert out.text == "seen on the [DATE]"


def test_overlapping_spans_are_united_and_no_character_survives(study_key):
    text = "Contact maria.lopez@mail.example.org now"
    email = text.index("maria")
    note = Note(
        "n4",
        text,
        "P1",
        (Span(email, email + 11, Category.PATIENT), Span(email, text.index(" now"), Category.WEB)),
    )
    cfg = AnonymizerConfig(strategies={"WEB": "mask"})
    out = Anonymizer(study_key, cfg).anonymize(note)
    assert out.text == "Contact [WEB] now"
    assert len(out.spans) == 2 and all(out.text[s.start : s.end] == "[WEB]" for s in out.spans)


def test_mask_is_available_for_every_category(study_key):
    cfg = AnonymizerConfig(strategies={c.value: "mask" for c in Category})
    out = Anonymizer(study_key, cfg).anonymize(sample_note())
    assert out.text.startswith("Pt [PATIENT] (MRN [ID]) seen [DATE], age [AGE], call [PHONE], Acct [OTHER].")


def test_span_outside_text_is_an_error_naming_the_note(study_key):
    with pytest.raises(AnonymizationError, match="note 'bad'"):
        Anonymizer(study_key).anonymize(Note("bad", "abc", "P1", (Span(1, 10, Category.ID),)))


def test_anonymize_cli_writes_good_records_and_reports_bad_ones(tmp_path, capsys):
    key_path = tmp_path / "k.json"
    assert main(["keygen", "--study", "s", "--out", str(key_path)]) == 0
    good = {"id": "a", "patient_id": "P1", "text": "MRN 12345678", "spans": [{"start": 4, "end": 12, "label": "ID"}]}
    bad_span = {"id": "b", "patient_id": "P1", "text": "short", "spans": [{"start": 0, "end": 99, "label": "ID"}]}
    bad_label = {"id": "c", "patient_id": "P1", "text": "x y", "spans": [{"start": 0, "end": 1, "label": "NAME"}]}
    no_pid = {"id": "d", "text": "on 3/4/2020", "spans": [{"start": 3, "end": 11, "label": "DATE"}]}
    good2 = {"id": "e", "patient_id": "P2", "text": "on 3/4/2020", "spans": [{"start": 3, "end": 11, "label": "DATE"}]}
    lines = [json.dumps(good), json.dumps(bad_span), "{not json", json.dumps(bad_label), json.dumps(no_pid), json.dumps(good2)]
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(("\n".join(lines) + "\n").encode() + b"\xff\xfe\n")
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    code = main(["anonymize", "--in", str(inp), "--out", str(out), "--key-file", str(key_path)])
    err = capsys.readouterr().err
    assert code == 1
    records = [json.loads(l) for l in out.read_text().splitlines()]
    assert [r["id"] for r in records] == ["a", "e"]
    assert records[0]["text"] != "MRN 12345678" and records[0]["key_id"] == StudyKey.read(key_path).key_id
    assert "line 2: record 'b'" in err and "line 3" in err and "malformed JSON" in err
    assert "line 4: record 'c'" in err and "unknown category" in err
    assert "line 5: record 'd'" in err and "patient_id" in err
    assert "line 7" in err and "UTF-8" in err
    key_material = json.loads(key_path.read_text())
    assert key_material["key"] not in out.read_text() and key_material["key"] not in err


def test_output_file_is_not_left_half_written_on_a_missing_key(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text('{"id": "a", "text": "x", "spans": []}\n')
    out = tmp_path / "out.jsonl"
    assert main(["anonymize", "--in", str(inp), "--out", str(out), "--key-file", str(tmp_path / "none")]) == 2
    assert not out.exists()
