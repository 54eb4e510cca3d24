"""Known identifiers in the fleet: they reach detection, stay sealed, and leave with their batch.

The real fleet test runs one CPU worker on the real Redis and Postgres,
submits synthetic notes with their patients' records, and then searches
the whole Postgres schema, every Redis key and value, the worker's log, the
producer's log records and the export folder for every known value.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from sqlalchemy import Column, Integer, MetaData, String, Table, Text, create_engine, delete, func, select
from test_fleet_custody import _standing_alone, plaintext_places, worker  # noqa: F401 - the real CPU worker fixture

from deid_core.cli.main import main
from deid_core.known import KnownFile, KnownPatient, KnownSet, read_known
from deid_core.synth.generator import generate_notes_and_patients
from deid_core.synth.known import known_records
from fleet.embedded import InlineDispatcher
from fleet.pipeline import PipelineConfig
from fleet.producer import IncomingNote, connect
from tests.words import has_word

STUDY = "fleet-test"
RULES = PipelineConfig.load(None, ("rules",), 0.5)
WAIT = 120


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_run_known_masks_a_lowercase_common_word_surname_only_the_record_names(tmp_path):
    text = "pt seen w daughter. young, maria c/o cough; sister rose young at bedside. f/u 2 wks"
    notes = _write(tmp_path / "notes.jsonl", [{"id": "n1", "patient_id": "P7", "text": text}])
    known = _write(tmp_path / "known.jsonl", [KnownPatient("P7", names=("Maria Young",), relatives=("Rose Young",)).to_dict()])
    key = tmp_path / "k.key"
    assert main(["keygen", "--study", "s", "--out", str(key)]) == 0
    plain, with_known = tmp_path / "plain.jsonl", tmp_path / "known_out.jsonl"
    assert main(["run", "--in", str(notes), "--out", str(plain), "--key-file", str(key)]) == 0
    assert main(["run", "--in", str(notes), "--out", str(with_known), "--key-file", str(key), "--known", str(known)]) == 0
    before = json.loads(plain.read_text())["text"]
    after = json.loads(with_known.read_text())["text"]
    assert "young, maria" in before  # the rules alone leave it
    # whole words: a surrogate drawn under a fresh key may contain the name ("mariah")
    assert not re.search(r"\b(?:young|maria)\b", after) and "c/o cough" in after


def test_run_known_gives_a_misspelled_surname_the_surrogate_of_the_records_spelling(tmp_path):
    text = "Patient: Maria Quintero seen today. Mrs Quinteros (sp?) asked for a copy."
    notes = _write(tmp_path / "notes.jsonl", [{"id": "n1", "patient_id": "P1", "text": text}])
    known = _write(tmp_path / "known.jsonl", [KnownPatient("P1", names=("Maria Quintero",)).to_dict()])
    key = tmp_path / "k.key"
    assert main(["keygen", "--study", "s", "--out", str(key)]) == 0
    out = tmp_path / "out.jsonl"
    assert main(["run", "--in", str(notes), "--out", str(out), "--key-file", str(key), "--known", str(known)]) == 0
    got = json.loads(out.read_text())["text"]
    surname = got.split("Patient: ")[1].split(" seen")[0].split(" ")[1]
    assert f"Mrs {surname} (sp?)" in got and "Quinter" not in got


def test_run_known_fails_only_the_notes_of_a_patient_whose_record_is_bad(tmp_path, capsys):
    notes = _write(
        tmp_path / "notes.jsonl",
        [{"id": "a", "patient_id": "P1", "text": "seen today"}, {"id": "b", "patient_id": "P2", "text": "seen today"}],
    )
    known = _write(tmp_path / "known.jsonl", [{"patient_id": "P1", "names": ["Ada Byron"]}, {"patient_id": "P2", "phones": [5]}])
    key = tmp_path / "k.key"
    assert main(["keygen", "--study", "s", "--out", str(key)]) == 0
    out = tmp_path / "out.jsonl"
    assert main(["run", "--in", str(notes), "--out", str(out), "--key-file", str(key), "--known", str(known)]) == 1
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["a"]
    err = capsys.readouterr().err
    assert "line 2" in err and "'P2'" in err and "KnownRecordInvalid" in err


def _known_values(records: list[KnownPatient]) -> list[str]:
    """Every value of every record, whole, as the warehouse writes it."""
    fields = ("names", "relatives", "staff", "ids", "dates", "phones", "emails", "addresses")
    return sorted({v for r in records for f in fields for v in getattr(r, f) if len(v) >= 4})


def test_after_a_fleet_batch_with_known_identifiers_none_rests_in_plaintext_and_they_go_with_their_batch(
    fleet_env, worker, tmp_path, caplog
):
    from fleet.models import AuditEntry, Batch, Item, KnownRow

    caplog.set_level(logging.DEBUG)
    notes, patients = generate_notes_and_patients(10, seed=41)
    records = known_records(patients, 41)
    corpus = _write(tmp_path / "notes.jsonl", [{"id": n.id, "patient_id": n.patient_id, "text": n.text} for n in notes])
    known_path = tmp_path / "known.jsonl"
    _write(known_path, [r.to_dict() for r in records])
    out_dir = tmp_path / "export"
    out_dir.mkdir()
    with connect(fleet_env.settings) as client:
        submitted = client.submit_jsonl(corpus, STUDY, RULES, known=read_known(known_path))
        st = client.wait(submitted.batch_id, timeout=WAIT)
        assert st.complete and st.done == 10, st
        client.export(submitted.batch_id, out_dir / "out.jsonl")
        with client.sessions() as s:
            stored = s.scalar(select(func.count()).select_from(KnownRow).where(KnownRow.batch_id == submitted.batch_id))
            batch = s.get(Batch, submitted.batch_id)
            assert "+known." in batch.pipeline_version
        assert stored == len({n.patient_id for n in notes})

        values = _known_values(records)
        assert len(values) > 30
        places = plaintext_places(fleet_env, worker, caplog, out_dir)
        assert b"succeeded" in places["worker log"][0]
        for where, blobs in places.items():
            blob = b"\n".join(blobs)
            for value in values:
                assert not _standing_alone(value).search(blob), f"a known value in the {where}"

        with client.sessions.begin() as s:  # a batch's known identifiers go when the batch goes
            s.execute(delete(Item).where(Item.batch_id == submitted.batch_id))
            s.execute(delete(AuditEntry).where(AuditEntry.batch_id == submitted.batch_id))
            s.execute(delete(Batch).where(Batch.id == submitted.batch_id))
        with client.sessions() as s:
            assert s.scalar(select(func.count()).select_from(KnownRow)) == 0


def test_known_identifiers_are_kept_only_for_the_patients_of_the_batch(fleet_env):
    from fleet.models import KnownRow

    known = KnownFile(KnownSet.of([KnownPatient("P1", names=("Ada Byron",)), KnownPatient("P9", names=("Alan Turing",))]), ())
    with connect(fleet_env.settings, dispatch=False) as client:
        client.dispatcher = InlineDispatcher()  # held here, never run: only what was stored matters
        result = client.submit([IncomingNote(1, "n1", "Ada Byron seen", "P1")], STUDY, RULES, known=known)
        with client.sessions() as s:
            rows = s.scalars(select(KnownRow).where(KnownRow.batch_id == result.batch_id)).all()
    assert len(rows) == 1


def test_warehouse_known_table_joins_by_patient_and_masks_what_only_it_names(tmp_path):
    """SQLite stands in for the warehouse, as in the warehouse tests."""
    from deid_core.keys import StudyKey
    from fleet.db import make_engine, session_factory
    from fleet.keystore import SingleKeyStore
    from fleet.models import Base
    from fleet.producer import FleetClient
    from fleet.settings import WarehouseSettings
    from fleet.stages import StageContext
    from fleet.warehouse import read_known_source, read_source

    url = f"sqlite:///{tmp_path / 'wh.sqlite'}"
    engine = create_engine(url)
    md = MetaData()
    notes = Table("clinical_notes", md, Column("nid", Integer, primary_key=True), Column("pid", String), Column("body", Text))
    known = Table("patient_identifiers", md, Column("pid", String), Column("kind", String), Column("value", Text))
    md.create_all(engine)
    text = "pt seen w daughter. young, maria c/o cough; sister rose young at bedside. f/u 2 wks"
    with engine.begin() as conn:
        conn.execute(notes.insert(), [{"nid": 1, "pid": "P7", "body": text}, {"nid": 2, "pid": "P8", "body": "seen today"}])
        conn.execute(
            known.insert(),
            [
                {"pid": "P7", "kind": "names", "value": "Maria Young"},
                {"pid": "P7", "kind": "relatives", "value": "Rose Young"},
                {"pid": "P8", "kind": "nickname", "value": "Mo"},
            ],
        )
    engine.dispose()
    settings = WarehouseSettings(
        source_url=url, source_table="clinical_notes", id_column="nid", text_column="body", patient_column="pid",
        known_table="patient_identifiers", known_patient_column="pid",
    )
    read = read_known_source(settings)
    assert read.known.get("P7").relatives == ("Rose Young",)
    assert [(e.line, e.patient_id) for e in read.errors] == [(3, "P8")] and "Mo" not in str(read.errors[0])

    key = StudyKey.generate("wh")
    store = make_engine("sqlite://")
    Base.metadata.create_all(store)
    sessions = session_factory(store)
    inline = InlineDispatcher()
    client = FleetClient(sessions, SingleKeyStore(key), inline)
    batch = client.submit(read_source(settings), key.study, RULES, source="warehouse", known=read)
    inline.drain(StageContext(sessions, SingleKeyStore(key)))
    (out,) = list(client.results(batch.batch_id))
    assert not has_word("young", out["text"]) and not has_word("maria", out["text"])
    (failure,) = client.failures(batch.batch_id)
    assert failure.record_id == "2" and failure.error_class == "KnownRecordInvalid"
