"""Notes (and the patients' known identifiers) in from warehouse tables, de-identified notes and span metadata back out.

Which database, table and columns is configuration (:class:`WarehouseSettings`),
so a site points the fleet at its own schema without code.  Reading yields the
producer's :class:`IncomingNote` records, with a row whose text is not a
string failed alone; writing replaces any earlier export of the same note
under the same key and pipeline version, so re-exporting a batch is safe.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from sqlalchemy import Boolean, Column, MetaData, String, Table, Text, UniqueConstraint, create_engine, delete, select, tuple_
from sqlalchemy.engine import Engine

from deid_core.known import KNOWN_FIELDS, KnownError, KnownFile, KnownRecordError, KnownSet, known_from_dict
from fleet.producer import FleetClient, IncomingNote
from fleet.settings import WarehouseSettings

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class WarehouseError(ValueError):
    pass


def _split(name: str) -> tuple[str | None, str]:
    parts = name.split(".")
    if len(parts) > 2 or not all(_NAME.match(p) for p in parts):
        raise WarehouseError(f"table name {name!r} must be [schema.]table of letters, digits and underscores")
    return (parts[0], parts[1]) if len(parts) == 2 else (None, parts[0])


def _engine(url: str, what: str) -> Engine:
    if not url:
        raise WarehouseError(f"[fleet.warehouse].{what} is not set")
    return create_engine(url, hide_parameters=True)


def read_source(settings: WarehouseSettings, batch_rows: int = 1000) -> Iterator[IncomingNote]:
    """Every row of the source table, in id order, as submission records."""
    engine = _engine(settings.source_url, "source_url")
    try:
        schema, name = _split(settings.source_table)
        table = Table(name, MetaData(), schema=schema, autoload_with=engine)
        wanted = [settings.id_column, settings.text_column] + ([settings.patient_column] if settings.patient_column else [])
        missing = [c for c in wanted if c not in table.c]
        if missing:
            raise WarehouseError(f"table {settings.source_table} has no column(s) {', '.join(missing)}")
        cols = [table.c[c] for c in wanted]
        with engine.connect() as conn:
            result = conn.execution_options(yield_per=batch_rows).execute(select(*cols).order_by(table.c[settings.id_column]))
            for line, row in enumerate(result, start=1):
                rid = None if row[0] is None else str(row[0])
                text = row[1]
                patient = None if not settings.patient_column or row[2] is None else str(row[2])
                if rid is None:
                    yield IncomingNote(line, None, error_class="MalformedRecord", error=f"row {line}: {settings.id_column} is null")
                elif not isinstance(text, str):
                    yield IncomingNote(line, rid, error_class="MalformedRecord", error=f"{settings.text_column} is not text")
                else:
                    yield IncomingNote(line, rid, text, patient)
    finally:
        engine.dispose()


def read_known_source(settings: WarehouseSettings) -> KnownFile | None:
    """The known-identifier table, one value a row, joined to the notes by patient id (None when none is mapped).

    ``kind`` names a field of the record (``names``, ``ids``, ``dates``...).
    A row that cannot be used is an error naming the row, and that
    patient's notes fail rather than lose the floor; values never appear in
    a message.
    """
    if not settings.known_table:
        return None
    engine = _engine(settings.source_url, "source_url")
    try:
        schema, name = _split(settings.known_table)
        table = Table(name, MetaData(), schema=schema, autoload_with=engine)
        wanted = [settings.known_patient_column, settings.known_kind_column, settings.known_value_column]
        missing = [c for c in wanted if c not in table.c]
        if missing:
            raise WarehouseError(f"table {settings.known_table} has no column(s) {', '.join(missing)}")
        values: dict[str, dict[str, list[str]]] = {}
        errors: list[KnownRecordError] = []
        with engine.connect() as conn:
            result = conn.execute(select(*(table.c[c] for c in wanted)).order_by(table.c[settings.known_patient_column]))
            for line, (patient, kind, value) in enumerate(result, start=1):
                pid = None if patient is None else str(patient)
                if pid is None:
                    errors.append(KnownRecordError(line, None, f"row {line}: {settings.known_patient_column} is null"))
                elif kind not in KNOWN_FIELDS:
                    errors.append(KnownRecordError(line, pid, f"row {line} (patient {pid!r}): unknown kind (known: {', '.join(KNOWN_FIELDS)})"))
                elif not isinstance(value, str):
                    errors.append(KnownRecordError(line, pid, f"row {line} (patient {pid!r}): {settings.known_value_column} is not text"))
                else:
                    values.setdefault(pid, {}).setdefault(kind, []).append(value)
    finally:
        engine.dispose()
    records = []
    for pid, fields in values.items():
        try:
            records.append(known_from_dict({"patient_id": pid, **fields}, f"patient {pid!r} in {settings.known_table}"))
        except KnownError as exc:
            errors.append(KnownRecordError(0, pid, str(exc)))
    return KnownFile(KnownSet.of(records), tuple(errors))


def target_table(settings: WarehouseSettings) -> Table:
    schema, name = _split(settings.target_table)
    return Table(
        name,
        MetaData(),
        Column("note_id", String(500), nullable=False),
        Column("batch_id", String(32), nullable=False),
        Column("key_id", String(250), nullable=False),
        Column("pipeline_version", String(100), nullable=False),
        Column("patient_id", String(500)),
        Column("deid_text", Text, nullable=False),
        Column("spans_json", Text, nullable=False),
        Column("flagged", Boolean, nullable=False),
        UniqueConstraint("note_id", "key_id", "pipeline_version"),
        schema=schema,
    )


def write_target(settings: WarehouseSettings, client: FleetClient, batch_id: str, batch_rows: int = 500) -> int:
    """Write the batch's de-identified notes (span metadata in output coordinates); returns the count."""
    engine = _engine(settings.target_url, "target_url")
    table = target_table(settings)
    written = 0
    try:
        table.create(engine, checkfirst=True)
        rows = []
        with engine.begin() as conn:
            for record in client.results(batch_id):
                rows.append(
                    {
                        "note_id": str(record["id"]),
                        "batch_id": batch_id,
                        "key_id": record["key_id"],
                        "pipeline_version": record["pipeline_version"],
                        "patient_id": record["patient_id"],
                        "deid_text": record["text"],
                        "spans_json": json.dumps(record["spans"]),
                        "flagged": record["flagged"],
                    }
                )
                if len(rows) >= batch_rows:
                    written += _replace(conn, table, rows)
                    rows = []
            if rows:
                written += _replace(conn, table, rows)
    finally:
        engine.dispose()
    return written


def _replace(conn, table: Table, rows: list[dict]) -> int:
    keys = [(r["note_id"], r["key_id"], r["pipeline_version"]) for r in rows]
    conn.execute(delete(table).where(tuple_(table.c.note_id, table.c.key_id, table.c.pipeline_version).in_(keys)))
    conn.execute(table.insert(), rows)
    return len(rows)
