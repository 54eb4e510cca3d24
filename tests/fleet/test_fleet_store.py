"""The Alembic migration builds exactly the tables the models describe."""

from __future__ import annotations

import uuid

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from fleet.db import drop_schema, make_engine, migrate
from fleet.models import Base


def test_migration_matches_the_models(pg_url):
    schema = f"mig_{uuid.uuid4().hex[:10]}"
    try:
        migrate(pg_url, schema)
        engine = make_engine(pg_url, schema)
        with engine.connect() as conn:
            tables = set(inspect(conn).get_table_names(schema=schema))
            assert tables == set(Base.metadata.tables) | {"alembic_version"}
            ctx = MigrationContext.configure(conn, opts={"include_name": lambda n, t, p: not (t == "table" and n == "alembic_version")})
            assert compare_metadata(ctx, Base.metadata) == []
        engine.dispose()
        migrate(pg_url, schema)  # idempotent: already at head
    finally:
        drop_schema(pg_url, schema)
