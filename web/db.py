"""The database: one SQLAlchemy engine per app, a session per request, ``flask init-db``.

SQLite (the default, in the instance folder) runs in WAL mode with a busy timeout so that
several gunicorn workers can share it; any other SQLAlchemy URL (PostgreSQL for several
servers) works unchanged. The schema is created at start-up with ``create_all``: the tables
only grow by new tables so far, so there are no migrations yet.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Iterator

import click
from flask import Flask, current_app, g
from flask.cli import with_appcontext
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker


class Base(DeclarativeBase):
    """The declarative base of every table."""


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite connections get WAL, a busy timeout and foreign keys."""
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


class _WriteLock:
    """A blocking file lock that serializes this SQLite database's writers across workers.

    SQLite's own busy handler sleeps and retries (1, 2, 5, 10 … ms), which under load turns
    short write transactions into long latency tails; a writer waiting on ``flock`` wakes the
    moment the lock is free. The file is opened per process (after gunicorn forks). A
    ``flock`` belongs to the open file, which a process's threads share, so a thread lock
    keeps one worker's threads (gunicorn ``gthread``) one at a time as well.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._pid = -1
        self._fd = -1
        self._threads = threading.Lock()

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        with self._threads:
            if self._pid != os.getpid():
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                self._pid = os.getpid()
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)


@contextlib.contextmanager
def write_lock() -> Iterator[None]:
    """Hold while writing and committing: serializes SQLite writers; a no-op elsewhere."""
    lock: _WriteLock | None = current_app.extensions["crib_write_lock"]
    if lock is None:
        yield
    else:
        with lock.held():
            yield


def get_session() -> Session:
    """The request's database session, opened on first use and closed at teardown."""
    if "db" not in g:
        g.db = current_app.extensions["crib_sessions"]()
    session: Session = g.db
    return session


def close_session(_error: BaseException | None = None) -> None:
    """Close the request's session, rolling back anything left uncommitted."""
    session = g.pop("db", None)
    if session is not None:
        session.close()


def init_db(app: Flask) -> None:
    """Create any missing tables."""
    from . import models  # noqa: F401  (registers the tables on Base.metadata)

    Base.metadata.create_all(app.extensions["crib_engine"])


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the tables (also done at every start-up)."""
    init_db(current_app)
    url = current_app.extensions["crib_engine"].url.render_as_string(hide_password=True)
    click.echo(f"Initialized the database at {url}.")  # never the password


def _make_private(path: str) -> None:
    """Make the SQLite file (it holds password hashes) readable by its owner only.

    It is created so, or an existing one is changed; SQLite gives its ``-wal`` and ``-shm``
    files the same mode.
    """
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)


def init_app(app: Flask) -> None:
    """Give ``app`` an engine and session factory, create the schema, add ``init-db``."""
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["crib_engine"] = engine
    database = engine.url.database
    on_disk = engine.dialect.name == "sqlite" and database not in (None, "", ":memory:")
    if on_disk:
        _make_private(str(database))
    app.extensions["crib_write_lock"] = _WriteLock(f"{database}.lock") if on_disk else None
    app.extensions["crib_sessions"] = sessionmaker(engine, expire_on_commit=False)
    app.teardown_appcontext(close_session)
    app.cli.add_command(init_db_command)
    init_db(app)
    engine.dispose()  # no connection crosses a gunicorn fork
