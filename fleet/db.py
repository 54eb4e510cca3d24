"""Engines and schema set-up for the state store.

Postgres gets its tables from the Alembic migrations in ``migrations/``;
the embedded SQLite store gets the same tables from the models directly,
because a one-process run has nothing to migrate.  A Postgres schema name
confines a whole fleet (or one test run) to its own namespace.
"""

from __future__ import annotations

import re
from pathlib import Path

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool, StaticPool

from fleet.models import Base

MIGRATIONS_DIR = Path(__file__).resolve().parents[1] / "migrations"
_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class DatabaseError(RuntimeError):
    pass


def check_schema_name(schema: str) -> str:
    if not _SCHEMA_NAME.match(schema):
        raise DatabaseError(f"schema name {schema!r} must be lowercase letters, digits and underscores")
    return schema


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def make_engine(url: str, schema: str | None = None, *, pooled: bool = True) -> Engine:
    """An engine whose connections see ``schema`` first (Postgres only).

    ``pooled=False`` opens a connection per use: for a thread that runs
    now and then in a process that forks, so no child inherits its socket.
    """
    if is_sqlite(url):
        if schema:
            raise DatabaseError("a schema applies to Postgres only")
        in_memory = url in ("sqlite://", "sqlite:///:memory:")
        kwargs: dict = {"connect_args": {"check_same_thread": False}}
        if in_memory:
            kwargs["poolclass"] = StaticPool
        engine = create_engine(url, hide_parameters=True, **kwargs)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            if not in_memory:
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    pool = {"pool_pre_ping": True, "pool_size": 2, "max_overflow": 4} if pooled else {"poolclass": NullPool}
    engine = create_engine(url, hide_parameters=True, **pool)
    if schema:
        check_schema_name(schema)

        @event.listens_for(engine, "connect")
        def _search_path(dbapi_conn, _record) -> None:
            cur = dbapi_conn.cursor()
            cur.execute(f'SET search_path TO "{schema}"')
            cur.close()
            dbapi_conn.commit()

    return engine


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def create_schema(url: str, schema: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{check_schema_name(schema)}"'))
    finally:
        engine.dispose()


def drop_schema(url: str, schema: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{check_schema_name(schema)}" CASCADE'))
    finally:
        engine.dispose()


def ensure_database(url: str) -> bool:
    """Create the Postgres database ``url`` names if it is missing; True if it was created.

    Raises :class:`DatabaseError` saying exactly how to create it when this
    account may not.
    """
    target = make_url(url)
    engine = create_engine(url)
    try:
        with engine.connect():
            return False
    except OperationalError as exc:
        if "does not exist" not in str(exc.orig):
            raise DatabaseError(f"cannot reach the state store at {_where(target)}: {type(exc.orig).__name__}") from None
    finally:
        engine.dispose()
    name = target.database or ""
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name.replace(chr(34), "")}"'))
        return True
    except SQLAlchemyError as exc:
        cause = type(getattr(exc, "orig", None) or exc).__name__
        user = f" -U {target.username}" if target.username else ""
        raise DatabaseError(
            f"database {name!r} does not exist at {_where(target)} and this account could not create it ({cause}); "
            f"create it with `createdb -h {target.host or 'localhost'} -p {target.port or 5432}{user} {name}` "
            f'(or CREATE DATABASE "{name}"; in psql), then run deid migrate again'
        ) from None
    finally:
        admin.dispose()


def _where(url) -> str:
    return f"{url.host or 'localhost'}:{url.port or 5432}/{url.database}"


def migrate(url: str, schema: str | None = None, revision: str = "head") -> None:
    """Bring the store up to ``revision``: Alembic on Postgres, the models on SQLite.

    A missing Postgres database and schema are created first.
    """
    if is_sqlite(url):
        engine = make_engine(url)
        Base.metadata.create_all(engine)
        engine.dispose()
        return
    from alembic import command

    ensure_database(url)
    if schema:
        create_schema(url, schema)
    command.upgrade(alembic_config(url, schema), revision)


def alembic_config(url: str, schema: str | None = None):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    # ConfigParser interpolates "%": escape it in URLs with encoded characters.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["schema"] = schema
    return cfg
