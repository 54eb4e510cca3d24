"""Key custody, sealing at rest, the audit trail and the leak report, on the embedded runner."""

from __future__ import annotations

import argparse
import base64
import json
import logging
import os
import re
import sqlite3
import stat
from pathlib import Path

import pytest
from sqlalchemy import select

from deid_core.anonymizer.engine import Anonymizer
from deid_core.keys import Purpose, StudyKey
from deid_core.synth import generate_notes
from fleet.audit import batch_audit, model_digest_for, model_dir_digest
from fleet.db import make_engine, session_factory
from fleet.embedded import run_embedded
from fleet.keystore import DirectoryKeyStore, EnvKeyStore, KeyStoreError, env_var_for, load_checked, open_keystore
from fleet.models import AuditEntry, Item, NoteRow, Output, SpanRow, utcnow
from fleet.pipeline import RESOLVED, PipelineConfig
from fleet.sealing import SealError, note_plaintext, seal_note_text, text_digest
from fleet.settings import ModelSpec

STUDY = "custody"
RULES = PipelineConfig.load(None, ("rules",), 0.5)


def _parser(*modules) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    for m in modules:
        m.register(sub)
    return parser


@pytest.fixture(scope="module")
def notes():
    return generate_notes(12, seed=23)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, notes) -> Path:
    path = tmp_path_factory.mktemp("custody") / "notes.jsonl"
    path.write_text("".join(json.dumps({"id": n.id, "patient_id": n.patient_id, "text": n.text}) + "\n" for n in notes))
    return path


def secrets_of(key: StudyKey) -> list[str]:
    """Every encoding of the key material a leak could take."""
    out = []
    for material in (key.salt, key.key, key.salt + key.key, key.subkey(Purpose.AT_REST)):
        out += [material.hex(), material.hex().upper(), base64.b64encode(material).decode(), base64.urlsafe_b64encode(material).decode()]
    return out


# -- key stores ---------------------------------------------------------------


def test_file_store_writes_0600_and_refuses_a_key_others_can_read(tmp_path):
    store = DirectoryKeyStore(tmp_path)
    key = store.create(STUDY)
    path = store.path_for(STUDY)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    os.chmod(path, 0o644)
    with pytest.raises(KeyStoreError, match="readable by other users"):
        DirectoryKeyStore(tmp_path).load(STUDY)
    os.chmod(path, 0o600)
    assert DirectoryKeyStore(tmp_path).load(STUDY).key_id == key.key_id


def test_env_store_reads_json_or_base64_under_the_documented_name(tmp_path):
    key = StudyKey.generate("cardio-2024.b")
    assert env_var_for("cardio-2024.b") == "DEID_KEY_CARDIO_2024_B"
    raw = key.to_json()
    for value in (raw, base64.b64encode(raw.encode()).decode(), base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")):
        assert EnvKeyStore({"DEID_KEY_CARDIO_2024_B": value}).load("cardio-2024.b").key_id == key.key_id
    store = open_keystore(tmp_path, {"DEID_KEY_STORE": "env", "DEID_KEY_CARDIO_2024_B": raw})
    assert store.load("cardio-2024.b").key_id == key.key_id


def test_env_store_errors_name_the_variable_and_never_the_value():
    other = StudyKey.generate("cardio_2024_b")  # maps to the same variable name
    with pytest.raises(KeyStoreError, match=r"\$DEID_KEY_CARDIO_2024_B is not set"):
        EnvKeyStore({}).load("cardio-2024.b")
    with pytest.raises(KeyStoreError, match="for study 'cardio_2024_b'") as err:
        EnvKeyStore({"DEID_KEY_CARDIO_2024_B": other.to_json()}).load("cardio-2024.b")
    assert other.key.hex() not in str(err.value)
    with pytest.raises(KeyStoreError, match="neither key JSON nor base64") as err:
        EnvKeyStore({"DEID_KEY_X": "not*a*key" + other.key.hex()}).load("x")
    assert other.key.hex() not in str(err.value)
    with pytest.raises(KeyStoreError, match="read-only"):
        EnvKeyStore({}).rotate("x")


def test_rotation_makes_a_new_key_id_and_keeps_the_old_one_retired(tmp_path, capsys):
    from fleet.cli import keys as keys_cli

    parser = _parser(keys_cli)
    args = parser.parse_args(["key", "create", "--study", STUDY, "--key-dir", str(tmp_path)])
    assert args.func(args) == 0
    old = DirectoryKeyStore(tmp_path).load(STUDY)
    args = parser.parse_args(["key", "rotate", "--study", STUDY, "--key-dir", str(tmp_path)])
    assert args.func(args) == 0
    store = DirectoryKeyStore(tmp_path)
    new = store.load(STUDY)
    assert new.key_id != old.key_id
    assert load_checked(store, STUDY, old.key_id).key == old.key  # batches made before stay auditable
    assert stat.S_IMODE(store.retired_path(STUDY, old.key_id).stat().st_mode) == 0o600
    args = parser.parse_args(["key", "list", "--study", STUDY, "--key-dir", str(tmp_path)])
    assert args.func(args) == 0
    printed = capsys.readouterr().out
    assert f"current {new.key_id}" in printed and f"retired {old.key_id}" in printed
    for secret in secrets_of(old) + secrets_of(new):
        assert secret not in printed
    with pytest.raises(KeyStoreError, match="submitted under"):
        load_checked(store, STUDY, f"{STUDY}:{'0' * 16}")


def test_a_release_under_the_rotated_key_cannot_be_linked_to_the_old_one(tmp_path, corpus, notes):
    store = DirectoryKeyStore(tmp_path / "keys")
    old = store.create(STUDY)
    new = store.rotate(STUDY)
    run_embedded(corpus, tmp_path / "old.jsonl", old, RULES)
    run_embedded(corpus, tmp_path / "new.jsonl", new, RULES)

    def surrogates(path: Path) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for line in path.read_text().splitlines():
            rec = json.loads(line)
            for sp in rec["spans"]:
                found.setdefault(sp["label"], set()).add(rec["text"][sp["start"] : sp["end"]])
        return found

    a, b = surrogates(tmp_path / "old.jsonl"), surrogates(tmp_path / "new.jsonl")
    for category in ("PATIENT", "DOCTOR", "ID"):
        assert a.get(category), f"the corpus should have {category} spans"
        assert not (a[category] & b.get(category, set())), category
    patients = {n.patient_id for n in notes}
    # two independent keys draw each patient's offset independently: one may coincide by chance, most cannot
    same = sum(Anonymizer(old).patient_offset(p) == Anonymizer(new).patient_offset(p) for p in patients)
    assert same <= len(patients) // 4, f"{same} of {len(patients)} patients keep their date offset under the new key"


# -- sealing ------------------------------------------------------------------


def test_sealed_text_opens_only_in_its_own_row_and_study():
    key = StudyKey.generate(STUDY)
    a = seal_note_text(key, STUDY, "Seen: John Okafor.")
    b = seal_note_text(key, STUDY, "Seen: Mary Lee.")
    assert seal_note_text(key, STUDY, "Seen: John Okafor.").sealed != a.sealed  # random nonce
    assert text_digest(key, STUDY, "Seen: John Okafor.") == a.digest
    assert text_digest(StudyKey.generate(STUDY), STUDY, "Seen: John Okafor.") != a.digest  # keyed
    row = NoteRow(id=1, study_id=STUDY, external_id="n1", key_id=key.key_id, text_sealed=a.sealed, text_digest=a.digest)
    assert note_plaintext(row, key) == "Seen: John Okafor."
    moved = NoteRow(id=2, study_id=STUDY, external_id="n2", key_id=key.key_id, text_sealed=a.sealed, text_digest=b.digest)
    with pytest.raises(SealError, match="does not open"):
        note_plaintext(moved, key)
    tampered = bytearray(a.sealed)
    tampered[-1] ^= 1
    with pytest.raises(SealError):
        note_plaintext(NoteRow(id=1, study_id=STUDY, external_id="n1", key_id=key.key_id, text_sealed=bytes(tampered), text_digest=a.digest), key)
    other_study = StudyKey(study="other", salt=key.salt, key=key.key)
    with pytest.raises(SealError):
        note_plaintext(NoteRow(id=1, study_id="other", external_id="n1", key_id=other_study.key_id, text_sealed=a.sealed, text_digest=a.digest), other_study)


def _identifier_texts(state: Path, notes) -> list[str]:
    """The text of every span the run detected, read back through the key-free offsets.

    Identifiers the anonymizer keeps by policy (ages under 90, coarse dates,
    retained regions) are in the release itself, so they are left out, and so
    is one that some surrogate happens to spell: with a random key, a date
    shifted one day ("12/20" -> "12/21") may equal another date of the note.
    """
    by_id = {n.id: n.text for n in notes}
    engine = make_engine(f"sqlite:///{state}")
    try:
        with session_factory(engine)() as s:
            rows = s.execute(  # the pipeline's decisions, not the recognizers' raw candidates
                select(NoteRow.external_id, SpanRow.start, SpanRow.end)
                .join(SpanRow, SpanRow.note_id == NoteRow.id)
                .where(SpanRow.recognizer == RESOLVED)
            ).all()
            outputs = s.execute(select(NoteRow.external_id, Output.text, Output.replacements_json).join(Output, Output.note_id == NoteRow.id)).all()
    finally:
        engine.dispose()
    released = {text[r["out_start"] : r["out_end"]] for _, text, reps in outputs for r in json.loads(reps)}
    found = {by_id[ext][a:b] for ext, a, b in rows} - released
    return sorted(t for t in found if len(t) >= 4)


def test_embedded_run_leaves_no_identifier_or_key_material_anywhere(tmp_path, corpus, notes, caplog, capsys):
    """State store, output folder, logs and console: none holds a detected identifier or the key."""
    from fleet.cli import run as run_cli

    key_file = tmp_path / "keys" / "k.json"
    key_file.parent.mkdir()
    key = StudyKey.generate(STUDY)
    key.write(key_file)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    state = out_dir / "state.sqlite"
    caplog.set_level(logging.DEBUG)
    args = _parser(run_cli).parse_args(
        ["run", "--in", str(corpus), "--out", str(out_dir / "deid.jsonl"), "--key-file", str(key_file),
         "--state", str(state), "--errors", str(out_dir / "errors.jsonl")]
    )
    assert args.func(args) == 0
    console = capsys.readouterr()
    assert "leak report: 0 of 12" in console.out
    identifiers = _identifier_texts(state, notes)
    assert len(identifiers) > 20
    con = sqlite3.connect(state)
    dump = "\n".join(con.iterdump())
    con.close()
    blobs = [p.read_bytes() for p in out_dir.rglob("*") if p.is_file()]
    texts = [dump, console.out, console.err, caplog.text]
    assert "CREATE TABLE" in dump and "notes" in dump
    for identifier in identifiers:
        # a whole token: a surrogate date 04/12/20 does not hold the identifier "12/20"
        alone = re.compile(rb"(?<![A-Za-z0-9/])" + re.escape(identifier.encode()) + rb"(?![A-Za-z0-9/])")
        assert not alone.search(dump.encode()), identifier
        assert not any(alone.search(b) for b in blobs), identifier  # the raw database file included
    for secret in secrets_of(key):
        assert all(secret not in t for t in texts)
        assert all(secret.encode() not in b for b in blobs)


# -- the leak report in the pipeline -------------------------------------------


def test_a_leaking_note_is_withheld_flagged_and_counted(tmp_path):
    """With the phone and ID recognizers switched off, their identifiers survive: the report catches them."""
    config_file = tmp_path / "weak.toml"
    config_file.write_text('[detect]\nrecognizers = ["names", "date"]\n', encoding="utf-8")
    weak = PipelineConfig.load(config_file, ("rules",), 0.99)
    src = tmp_path / "in.jsonl"
    src.write_text(
        json.dumps({"id": "leaky", "patient_id": "P1", "text": "Dr. Okafor asked the patient to call 503-555-0199."}) + "\n"
        + json.dumps({"id": "clean", "patient_id": "P1", "text": "Dr. Okafor saw the patient today."}) + "\n",
        encoding="utf-8",
    )
    key = StudyKey.generate(STUDY)
    state = tmp_path / "state.sqlite"
    result = run_embedded(src, tmp_path / "out.jsonl", key, weak, state=state)
    exported = [json.loads(line)["id"] for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert exported == ["clean"]
    assert result.status.leaked == 1 and result.status.done == 2
    engine = make_engine(f"sqlite:///{state}")
    try:
        sessions = session_factory(engine)
        with sessions() as s:
            item = s.scalars(select(Item).where(Item.external_id == "leaky")).one()
            assert item.flagged and item.leaks == 1
            assert item.review_reason.startswith("leak report: 1 hit(s): pattern PHONE")
            assert "503-555" not in item.review_reason
        report = batch_audit(sessions, result.batch_id)
        assert report.leaked == 1 and report.withheld == 1
        assert [e.leaks for e in report.entries if e.stage == "anonymize"] == [1]
    finally:
        engine.dispose()


# -- the audit trail ------------------------------------------------------------


def test_deid_audit_lists_configuration_recognizers_key_id_counts_and_reviewer_actions(tmp_path, corpus, capsys):
    from fleet.cli import audit as audit_cli

    key = StudyKey.generate(STUDY)
    state = tmp_path / "state.sqlite"
    result = run_embedded(corpus, tmp_path / "out.jsonl", key, RULES, state=state)
    engine = make_engine(f"sqlite:///{state}")
    try:
        with session_factory(engine).begin() as s:
            s.add(AuditEntry(batch_id=result.batch_id, stage="review", component="accept", worker="reviewer@site",
                             pipeline_version=RULES.version, key_id=key.key_id, config_digest=RULES.digest, notes=1,
                             started_at=utcnow()))
    finally:
        engine.dispose()
    parser = _parser(audit_cli)
    args = parser.parse_args(["audit", result.batch_id, "--database-url", f"sqlite:///{state}", "--json"])
    assert args.func(args) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["key_id"] == key.key_id and doc["config_digest"] == RULES.digest
    assert doc["submitted"] == 12 and doc["done"] == 12 and doc["leaked"] == 0
    assert doc["recognizers"] == ["rules:rules/1"]
    stages = [e["stage"] for e in doc["entries"]]
    assert {"recognize:rules", "resolve", "verify", "anonymize", "review"} <= set(stages)
    args = parser.parse_args(["audit", result.batch_id, "--database-url", f"sqlite:///{state}"])
    assert args.func(args) == 0
    table = capsys.readouterr().out
    assert f"key id {key.key_id}" in table and "reviewer@site" in table
    for secret in secrets_of(key):
        assert secret not in table and secret not in json.dumps(doc)
    args = parser.parse_args(["audit", "nosuchbatch", "--database-url", f"sqlite:///{state}"])
    assert args.func(args) == 2
    assert "no batch 'nosuchbatch'" in capsys.readouterr().err


def test_model_digest_covers_every_byte_of_the_model_directory(tmp_path):
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text("{}")
    (model / "model.safetensors").write_bytes(b"\x00" * 4096)
    spec = {"encoder": ModelSpec(factory="workers.recognizers:encoder", options={"model_path": str(model)})}
    first = model_digest_for("encoder", spec)
    assert first == model_dir_digest(model) and len(first) == 64
    (model / "model.safetensors").write_bytes(b"\x00" * 4095 + b"\x01")  # same size, one byte changed
    os.utime(model / "model.safetensors", ns=(1, 1))
    assert model_digest_for("encoder", spec) != first
    assert model_digest_for("rules", spec) == ""


def test_migration_0002_refuses_to_run_over_plaintext_notes(pg_url):
    import uuid

    from sqlalchemy import text

    from fleet.db import drop_schema, migrate

    schema = f"m_{uuid.uuid4().hex[:10]}"
    try:
        migrate(pg_url, schema, revision="0001")
        engine = make_engine(pg_url, schema)
        try:
            with engine.begin() as conn:
                conn.execute(text("INSERT INTO studies (id, key_id, created_at) VALUES ('s', 's:0', now())"))
                conn.execute(text(
                    "INSERT INTO notes (study_id, external_id, patient_id, text, text_sha256, created_at) "
                    "VALUES ('s', 'n1', 'P1', 'Seen: John Okafor.', 'x', now())"
                ))
        finally:
            engine.dispose()
        with pytest.raises(RuntimeError, match="still holds plaintext rows"):
            migrate(pg_url, schema)
    finally:
        drop_schema(pg_url, schema)
