"""Warehouse tables in and out (SQLite stands in for the warehouse here)."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, Text, create_engine, select

from deid_core.keys import StudyKey
from fleet.db import make_engine, session_factory
from fleet.embedded import InlineDispatcher
from fleet.keystore import SingleKeyStore
from fleet.models import Base
from fleet.pipeline import PipelineConfig
from fleet.producer import FleetClient
from fleet.settings import WarehouseSettings
from fleet.stages import StageContext
from fleet.warehouse import WarehouseError, read_source, target_table, write_target

NOTES = [
    (3, "P-7", "Seen by Dr. Okafor on 03/04/2019; call 503-555-0148."),
    (1, "P-7", "MRN 40718823. Follow-up with Dr. Okafor."),
    (2, None, None),  # a row without text
]


@pytest.fixture()
def warehouse(tmp_path) -> WarehouseSettings:
    url = f"sqlite:///{tmp_path / 'wh.sqlite'}"
    engine = create_engine(url)
    md = MetaData()
    src = Table("clinical_notes", md, Column("nid", Integer, primary_key=True), Column("pid", String), Column("body", Text))
    md.create_all(engine)
    with engine.begin() as conn:
        conn.execute(src.insert(), [{"nid": n, "pid": p, "body": t} for n, p, t in NOTES])
    engine.dispose()
    return WarehouseSettings(
        source_url=url, source_table="clinical_notes", id_column="nid", text_column="body", patient_column="pid",
        target_url=url, target_table="deid_notes",
    )


def test_warehouse_rows_round_trip_to_the_target_table(warehouse):
    key = StudyKey.generate("wh")
    engine = make_engine("sqlite://")
    Base.metadata.create_all(engine)
    sessions = session_factory(engine)
    inline = InlineDispatcher()
    client = FleetClient(sessions, SingleKeyStore(key), inline)
    batch = client.submit(read_source(warehouse), key.study, PipelineConfig.load(None, ("rules",), 0.5), source="warehouse")
    inline.drain(StageContext(sessions, SingleKeyStore(key)))
    st = client.status(batch.batch_id)
    assert (st.submitted, st.done, st.failed) == (3, 2, 1)
    (failure,) = client.failures(batch.batch_id)
    assert failure.record_id == "2" and failure.error_class == "MalformedRecord"

    assert write_target(warehouse, client, batch.batch_id) == 2
    assert write_target(warehouse, client, batch.batch_id) == 2  # re-export replaces, never doubles
    wh = create_engine(warehouse.target_url)
    with wh.connect() as conn:
        rows = conn.execute(select(target_table(warehouse))).mappings().all()
    wh.dispose()
    assert sorted(r["note_id"] for r in rows) == ["1", "3"]
    for r in rows:
        original = next(t for n, _p, t in NOTES if str(n) == r["note_id"])
        assert "Okafor" in original and "Okafor" not in r["deid_text"]
        spans = json.loads(r["spans_json"])
        assert spans and all(0 <= s["start"] < s["end"] <= len(r["deid_text"]) for s in spans)
        assert r["key_id"] == key.key_id
    engine.dispose()


def test_missing_columns_and_bad_table_names_are_refused(warehouse):
    with pytest.raises(WarehouseError, match="no column"):
        list(read_source(warehouse.model_copy(update={"text_column": "note_text"})))
    with pytest.raises(WarehouseError, match="table name"):
        list(read_source(warehouse.model_copy(update={"source_table": "notes; drop table x"})))
    with pytest.raises(WarehouseError, match="source_url"):
        list(read_source(WarehouseSettings()))
