"""The database schema's version: the Alembic migrations in ``records/migrations``.

A new, empty database is brought to the latest schema when the app starts (so the default
SQLite file needs no setup). A database with the trainer's tables at an older version, or
made before migrations existed (``create_all``, revision ``0001``'s schema), is left alone:
the app refuses to start with :class:`SchemaError` until ``crib db upgrade`` is run. Upgrades
are serialized, so servers starting together on one new database do not trip over each other:
by an advisory lock on PostgreSQL, by the SQLite database's write-lock file on SQLite.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

MIGRATIONS = Path(__file__).with_name("migrations")
PRE_MIGRATIONS_REVISION = "0001"
"""The revision whose schema a database made by ``create_all`` before migrations has."""
_TABLES = frozenset({"players", "drills", "answers", "skills"})
_UPGRADE_LOCK_KEY = 0x637269625F6462  # any constant shared by every server: b"crib_db"


class SchemaError(Exception):
    """The database's schema is not the one this trainer needs (message says what to do)."""


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


@functools.cache
def head() -> str:
    """The latest revision: the schema this trainer needs."""
    revision = ScriptDirectory.from_config(_config()).get_current_head()
    assert revision is not None, "records/migrations has no revisions"
    return revision


def revision_of(connection: Connection) -> str | None:
    """The database's revision.

    ``None`` for a new database, and for one made before migrations (tell them apart with
    :func:`has_tables`).
    """
    return MigrationContext.configure(connection).get_current_revision()


def has_tables(connection: Connection) -> bool:
    """Whether any of the trainer's tables exist."""
    return bool(_TABLES & set(inspect(connection).get_table_names()))


def upgrade(engine: Engine, lock: Callable[[], AbstractContextManager[None]] | None = None) -> str:
    """Bring the database to the latest revision; returns the revision it was at (in words).

    Runs in one transaction holding the upgrade lock (``lock`` for SQLite, an advisory lock on
    PostgreSQL), so concurrent upgrades run one after the other and the later ones find
    nothing to do.
    """
    with lock() if lock else contextlib.nullcontext(), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": _UPGRADE_LOCK_KEY}
            )
        config = _config(connection)
        before = revision_of(connection)
        if before is None and has_tables(connection):
            command.stamp(config, PRE_MIGRATIONS_REVISION)
            was = "made before migrations"
        else:
            was = before or "empty"
        command.upgrade(config, "head")
    return was


def prepare(engine: Engine, lock: Callable[[], AbstractContextManager[None]] | None = None) -> None:
    """Check the database at start-up; a new, empty one is upgraded.

    One at the latest revision is used as it is.

    Raises:
        SchemaError: the database is behind (run ``crib db upgrade``), or at a revision this
            trainer does not know (a newer trainer upgraded it).
    """
    with engine.connect() as connection:
        revision = revision_of(connection)
        empty = revision is None and not has_tables(connection)
    if revision == head():
        return
    if empty:
        upgrade(engine, lock)
        return
    known = {script.revision for script in ScriptDirectory.from_config(_config()).walk_revisions()}
    url = engine.url.render_as_string(hide_password=True)
    if revision is not None and revision not in known:
        raise SchemaError(
            f"the database at {url} has schema version {revision}, which this trainer does not"
            f" know (a newer version of the trainer upgraded it): run that version"
        )
    where = "made before migrations" if revision is None else f"at schema version {revision}"
    raise SchemaError(
        f"the database at {url} is {where}; this trainer needs version {head()}:"
        f" back it up, then run `crib db upgrade`"
    )
