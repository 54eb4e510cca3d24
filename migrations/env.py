"""Alembic environment for the fleet's state store.

The URL comes from the Alembic config (set by :func:`fleet.db.migrate`),
else from ``-x url=...``, else from ``$DEID_DATABASE_URL``; the schema from
the config attributes, ``-x schema=...`` or ``$DEID_DATABASE_SCHEMA``.
The version table lives in the same schema, so each schema migrates on
its own.
"""

from __future__ import annotations

import os

from alembic import context

from fleet.db import create_schema, make_engine
from fleet.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    x = context.get_x_argument(as_dictionary=True)
    url = x.get("url") or config.get_main_option("sqlalchemy.url") or os.environ.get("DEID_DATABASE_URL")
    if not url:
        raise RuntimeError("no database URL: pass -x url=... or set DEID_DATABASE_URL")
    return url


def _schema() -> str | None:
    x = context.get_x_argument(as_dictionary=True)
    return config.attributes.get("schema") or x.get("schema") or os.environ.get("DEID_DATABASE_SCHEMA") or None


def _include_name(name, type_, parent_names) -> bool:
    return not (type_ == "table" and name == "alembic_version")


def run_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True, version_table_schema=_schema())
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    schema = _schema()
    if schema:  # as `deid migrate` does, so the documented alembic command works with a schema too
        create_schema(_url(), schema)
    engine = make_engine(_url(), schema)
    try:
        with engine.connect() as connection:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                version_table_schema=schema,
                include_name=_include_name,
            )
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
