"""One bad record fails alone, in every command that reads JSONL notes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deid_core.cli.main import main

GOOD = {"id": "good", "patient_id": "P1", "text": "MRN 12345678", "spans": [{"start": 4, "end": 12, "label": "ID"}]}


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _record(rid: str, text: str) -> str:
    return json.dumps({"id": rid, "patient_id": "P1", "text": text, "spans": []})


@pytest.fixture()
def key_file(tmp_path) -> Path:
    path = tmp_path / "k.json"
    assert main(["keygen", "--study", "s", "--out", str(path)]) == 0
    return path


def _anonymize(inp: Path, out: Path, key_file: Path, *extra: str) -> int:
    return main(["anonymize", "--in", str(inp), "--out", str(out), "--key-file", str(key_file), *extra])


def _detect(inp: Path, out: Path, *extra: str) -> int:
    return main(["detect", "--in", str(inp), "--out", str(out), *extra])


def _run(inp: Path, out: Path, key_file: Path, *extra: str) -> int:
    return main(["run", "--in", str(inp), "--out", str(out), "--key-file", str(key_file), "--recognizers", "rules", *extra])


# Lone surrogates are valid JSON escapes; NUL and non-characters are valid code points.
UNUSABLE = [
    ('"bad \\ud800 here"', "lone surrogate"),
    ('"bad \\u0000 here"', "NUL"),
    ('"bad \\ufffe here"', "non-character"),
    ('"bad \\ufdd0 here"', "non-character"),
]


@pytest.mark.parametrize("text,kind", UNUSABLE)
def test_an_unusable_character_fails_its_record_in_anonymize(tmp_path, key_file, capsys, text, kind):
    bad = '{"id": "bad", "patient_id": "P1", "text": ' + text + ', "spans": []}'
    inp = _write(tmp_path / "in.jsonl", [json.dumps(GOOD), bad, json.dumps(dict(GOOD, id="good2"))])
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    assert _anonymize(inp, out, key_file) == 1
    err = capsys.readouterr().err
    assert [json.loads(l)["id"] for l in out.read_text(encoding="utf-8").splitlines()] == ["good", "good2"]
    assert "line 2: record 'bad'" in err and kind in err and "Traceback" not in err


@pytest.mark.parametrize("text,kind", UNUSABLE)
def test_an_unusable_character_fails_its_record_in_detect(tmp_path, capsys, text, kind):
    bad = '{"id": "bad", "patient_id": "P1", "text": ' + text + "}"
    inp = _write(tmp_path / "in.jsonl", [_record("a", "Seen by Dr. Ann Weber."), bad])
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    assert _detect(inp, out) == 1
    rows = [json.loads(l) for l in out.read_text(encoding="utf-8").splitlines()]
    assert "spans" in rows[0] and rows[1]["id"] == "bad" and kind in rows[1]["error"]


def test_an_unusable_character_in_a_patient_id_or_span_source_fails_the_record(tmp_path, key_file, capsys):
    in_pid = '{"id": "p", "patient_id": "P\\udc00", "text": "on 3/4/2020", "spans": [{"start": 3, "end": 11, "label": "DATE"}]}'
    in_span = '{"id": "s", "patient_id": "P1", "text": "MRN 1234", "spans": [{"start": 4, "end": 8, "label": "ID", "source": "x\\u0000"}]}'
    inp = _write(tmp_path / "in.jsonl", [in_pid, in_span, json.dumps(GOOD)])
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    assert _anonymize(inp, out, key_file) == 1
    err = capsys.readouterr().err
    assert "line 1: record 'p': patient_id holds a lone surrogate" in err
    assert "line 2: record 's': spans[0].source holds NUL" in err
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1


def test_json_nested_too_deeply_fails_its_line_alone(tmp_path, key_file, capsys):
    inp = _write(tmp_path / "in.jsonl", ["[" * 100_000 + "]" * 100_000, json.dumps(GOOD)])
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    assert _anonymize(inp, out, key_file) == 1
    assert "line 1: record: malformed JSON: nested too deeply" in capsys.readouterr().err
    assert [json.loads(l)["id"] for l in out.read_text().splitlines()] == ["good"]


def test_a_boolean_offset_is_rejected_not_read_as_one(tmp_path, key_file, capsys):
    bad = {"id": "b", "patient_id": "P1", "text": "x 1234", "spans": [{"start": True, "end": 6, "label": "ID"}]}
    inp = _write(tmp_path / "in.jsonl", [json.dumps(bad), json.dumps(GOOD)])
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    assert _anonymize(inp, out, key_file) == 1
    err = capsys.readouterr().err
    assert "line 1: record 'b': note 'b': span 0: span offsets must be integers" in err
    assert [json.loads(l)["id"] for l in out.read_text().splitlines()] == ["good"]


def test_duplicate_ids_fail_the_later_record_naming_both_lines(tmp_path, key_file, capsys):
    inp = _write(tmp_path / "in.jsonl", [json.dumps(GOOD), json.dumps(dict(GOOD, id="other")), json.dumps(GOOD)])
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    assert _anonymize(inp, out, key_file) == 1
    assert "line 3: record 'good': duplicate id: lines 1 and 3" in capsys.readouterr().err
    assert [json.loads(l)["id"] for l in out.read_text().splitlines()] == ["good", "other"]
    spans = tmp_path / "spans.jsonl"
    assert _detect(inp, spans) == 1
    rows = [json.loads(l) for l in spans.read_text().splitlines()]
    assert "spans" in rows[0] and "spans" in rows[1] and rows[2]["error"] == "duplicate id: lines 1 and 3 share it"


def _limited_config(tmp_path: Path, chars: int) -> Path:
    cfg = tmp_path / "limits.toml"
    cfg.write_text(f"[limits]\nmax_note_chars = {chars}\n")
    return cfg


def test_a_note_over_the_size_limit_fails_alone_in_anonymize_detect_and_run(tmp_path, key_file, capsys):
    cfg = _limited_config(tmp_path, 50)
    inp = _write(tmp_path / "in.jsonl", [_record("huge", "word " * 20), _record("small", "Seen by Dr. Ann Weber.")])
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    assert _anonymize(inp, out, key_file, "--config", str(cfg)) == 1
    assert "line 1: record 'huge': 'text' has 100 characters, over the limit of 50" in capsys.readouterr().err
    assert [json.loads(l)["id"] for l in out.read_text().splitlines()] == ["small"]
    spans = tmp_path / "spans.jsonl"
    assert _detect(inp, spans, "--config", str(cfg)) == 1
    rows = [json.loads(l) for l in spans.read_text().splitlines()]
    assert "over the limit of 50" in rows[0]["error"] and "spans" in rows[1]
    capsys.readouterr()
    assert _run(inp, out, key_file, "--config", str(cfg)) == 1
    assert "line 1: record 'huge': NoteTooLong: 'text' has 100 characters, over the limit of 50" in capsys.readouterr().err
    assert [json.loads(l)["id"] for l in out.read_text().splitlines()] == ["small"]


def test_the_default_limit_fails_a_five_megabyte_note_fast_and_writes_the_rest(tmp_path):
    inp = _write(tmp_path / "in.jsonl", [_record("huge", "Pt seen. " * 600_000), _record("small", "Seen by Dr. Ann Weber.")])
    spans = tmp_path / "spans.jsonl"
    assert _detect(inp, spans) == 1
    rows = [json.loads(l) for l in spans.read_text().splitlines()]
    assert "over the limit of 200000" in rows[0]["error"] and "spans" in rows[1]


def test_a_run_where_every_record_fails_leaves_the_previous_output(tmp_path, key_file, capsys):
    inp = _write(tmp_path / "in.jsonl", ["{not json", '{"id": "x"}', '{"id": "bad", "patient_id": "P1", "text": "x\\u0000"}'])
    out = tmp_path / "out.jsonl"
    out.write_text("previous release\n")
    spans = tmp_path / "spans.jsonl"
    spans.write_text("previous spans\n")
    capsys.readouterr()
    assert _anonymize(inp, out, key_file) == 1
    assert _detect(inp, spans) == 1
    err = capsys.readouterr().err
    assert out.read_text() == "previous release\n" and spans.read_text() == "previous spans\n"
    assert f"{out} left as it was" in err and f"{spans} left as it was" in err
    assert _run(inp, out, key_file) == 1
    assert out.read_text() == "previous release\n" and f"{out} left as it was" in capsys.readouterr().err
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]



def test_run_fails_a_record_with_a_lone_surrogate_and_writes_the_others(tmp_path, key_file, capsys):
    bad = '{"id": "bad", "patient_id": "P1", "text": "Seen \\ud800 by Dr. Ann Weber."}'
    inp = _write(tmp_path / "in.jsonl", [_record("a", "Seen by Dr. Ann Weber."), bad, _record("a", "again"), _record("c", "Seen.")])
    out = tmp_path / "out.jsonl"
    capsys.readouterr()
    assert _run(inp, out, key_file) == 1
    err = capsys.readouterr().err
    assert [json.loads(l)["id"] for l in out.read_text().splitlines()] == ["a", "c"]
    assert "line 2: record 'bad'" in err and "lone surrogate" in err and "Traceback" not in err
    assert "line 3: record 'a': DuplicateRecord: duplicate id: lines 1 and 3 share it" in err

