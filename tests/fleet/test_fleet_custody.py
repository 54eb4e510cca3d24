"""Custody on the real fleet: after a batch, no identifier or key material anywhere it could rest.

One CPU worker on the real Redis and Postgres runs a batch; then the whole
Postgres schema (every table, bytea included), every Redis key and value,
the worker's log, the producer's log records and the export folder are
searched for the detected identifiers and for the key in every encoding.
A rotation mid-way must reach the running worker without a restart.
"""

from __future__ import annotations

import base64
import json
import logging
import re
from pathlib import Path

import pytest
from sqlalchemy import MetaData, select

from deid_core.keys import Purpose, StudyKey
from deid_core.synth import generate_notes
from fleet.db import make_engine
from fleet.harness import redis_values
from fleet.keystore import DirectoryKeyStore
from fleet.pipeline import PipelineConfig
from fleet.producer import connect

STUDY = "fleet-test"  # the study conftest creates a key for
RULES = PipelineConfig.load(None, ("rules",), 0.5)
WAIT = 120


@pytest.fixture(scope="module")
def notes():
    return generate_notes(10, seed=31)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, notes) -> Path:
    path = tmp_path_factory.mktemp("in") / "notes.jsonl"
    path.write_text("".join(json.dumps({"id": n.id, "patient_id": n.patient_id, "text": n.text}) + "\n" for n in notes))
    return path


@pytest.fixture(scope="module")
def worker(fleet_env):
    w = fleet_env.worker("cpu", name="custody").start()
    try:
        w.wait_ready(90)
        yield w
    finally:
        w.stop()


def plaintext_places(fleet_env, worker, caplog, out_dir: Path) -> dict[str, list[bytes]]:
    """Every place a fleet run may leave bytes: the state store, the broker,
    both logs and the export folder."""
    return {
        "database": _dump_schema(fleet_env.env["DEID_DATABASE_URL"], fleet_env.env["DEID_DATABASE_SCHEMA"]),
        "broker": redis_values(fleet_env.env["DEID_BROKER_URL"]),
        "worker log": [worker.log_text().encode()],
        "producer log": [caplog.text.encode()],
        "export folder": [p.read_bytes() for p in out_dir.rglob("*") if p.is_file()],
    }


def _dump_schema(url: str, schema: str) -> list[bytes]:
    """Every value of every table in the schema, as bytes (bytea as stored)."""
    engine = make_engine(url, schema)
    out: list[bytes] = []
    try:
        meta = MetaData()
        meta.reflect(engine, schema=schema)
        assert {f"{schema}.notes", f"{schema}.spans", f"{schema}.outputs"} <= set(meta.tables)
        with engine.connect() as conn:
            for table in meta.tables.values():
                out.append(table.name.encode())
                for row in conn.execute(select(table)):
                    for value in row:
                        out.append(bytes(value) if isinstance(value, (bytes, memoryview)) else str(value).encode())
    finally:
        engine.dispose()
    return out


def _standing_alone(text: str) -> re.Pattern[bytes]:
    """The identifier as a whole token: a surrogate date 02/04/2016 must not count as "4/20", nor 04/12/20 as "12/20"."""
    return re.compile(rb"(?<![A-Za-z0-9/])" + re.escape(text.encode()) + rb"(?![A-Za-z0-9/])")


def _secrets(key: StudyKey) -> list[bytes]:
    out = []
    for material in (key.salt, key.key, key.salt + key.key, key.subkey(Purpose.AT_REST)):
        for enc in (material.hex(), material.hex().upper(), base64.b64encode(material).decode(), base64.urlsafe_b64encode(material).decode()):
            out.append(enc.encode())
    return out


def _identifiers(client, batch_id: str, notes) -> list[str]:
    """Detected span texts, minus what the anonymizer keeps by policy (ages under 90, coarse dates)."""
    from fleet.models import Item, NoteRow, Output, SpanRow
    from fleet.pipeline import RESOLVED

    by_id = {n.id: n.text for n in notes}
    with client.sessions() as s:
        note_ids = select(Item.note_id).where(Item.batch_id == batch_id)
        spans = s.execute(
            select(NoteRow.external_id, SpanRow.start, SpanRow.end)
            .join(SpanRow, SpanRow.note_id == NoteRow.id)
            .where(NoteRow.id.in_(note_ids), SpanRow.recognizer == RESOLVED)  # the pipeline's decisions, not raw candidates
        ).all()
        outputs = s.execute(
            select(NoteRow.external_id, Output.text, Output.replacements_json).join(Output, Output.note_id == NoteRow.id).where(NoteRow.id.in_(note_ids))
        ).all()
    kept = {
        by_id[ext][r["start"] : r["end"]]
        for ext, text, reps in outputs
        for r in json.loads(reps)
        if text[r["out_start"] : r["out_end"]] == by_id[ext][r["start"] : r["end"]]
    }
    return sorted(t for t in {by_id[e][a:b] for e, a, b in spans} - kept if len(t) >= 4)


def _surrogates(client, batch_ids: list[str]) -> set[str]:
    """Every value the fleet wrote in place of an identifier, in these batches' outputs.

    A surrogate may spell another note's original value (a date shifted onto
    another date), and a byte search cannot tell that surrogate from a leak.
    """
    from fleet.models import Item, Output

    with client.sessions() as s:
        rows = s.execute(
            select(Output.text, Output.replacements_json).where(Output.note_id.in_(select(Item.note_id).where(Item.batch_id.in_(batch_ids))))
        ).all()
    return {text[r["out_start"] : r["out_end"]] for text, reps in rows for r in json.loads(reps)}


def test_after_a_fleet_batch_and_a_rotation_nothing_holds_an_identifier_or_the_key(fleet_env, worker, corpus, notes, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    store = DirectoryKeyStore(fleet_env.env["DEID_KEY_DIR"])
    first_key = store.load(STUDY)
    out_dir = tmp_path / "export"
    out_dir.mkdir()
    with connect(fleet_env.settings) as client:
        first = client.submit_jsonl(corpus, STUDY, RULES)
        st = client.wait(first.batch_id, timeout=WAIT)
        assert st.complete and st.done == 10 and st.leaked == 0
        client.export(first.batch_id, out_dir / "first.jsonl", out_dir / "first.errors.jsonl")
        identifiers = _identifiers(client, first.batch_id, notes)

        second_key = store.rotate(STUDY)  # the worker has the old key cached
        second = client.submit_jsonl(corpus, STUDY, RULES)
        st2 = client.wait(second.batch_id, timeout=WAIT)
        assert st2.complete and st2.done == 10, st2
        assert st2.key_id == second_key.key_id != first_key.key_id
        client.export(second.batch_id, out_dir / "second.jsonl")
        written = _surrogates(client, [first.batch_id, second.batch_id])

    a = [json.loads(x) for x in (out_dir / "first.jsonl").read_text().splitlines()]
    b = [json.loads(x) for x in (out_dir / "second.jsonl").read_text().splitlines()]
    named = [(x, y) for x, y in zip(a, b) if {sp["label"] for sp in x["spans"]} & {"PATIENT", "DOCTOR", "ID"}]
    assert len(a) == len(b) == 10 and len(named) >= 5
    assert all(x["text"] != y["text"] for x, y in named)

    identifiers = [i for i in identifiers if i not in written]
    assert len(identifiers) > 15
    places = plaintext_places(fleet_env, worker, caplog, out_dir)
    assert b"succeeded" in places["worker log"][0]  # the log is the worker's, and it ran tasks
    for where, values in places.items():
        blob = b"\n".join(values)
        for identifier in identifiers:
            assert not _standing_alone(identifier).search(blob), f"{identifier!r} in the {where}"
        for secret in _secrets(first_key) + _secrets(second_key):
            assert secret not in blob, f"key material in the {where}"
