"""The database: one SQLAlchemy engine per app, a connection per request.

SQLite (the default, in the instance folder) runs in WAL mode with a busy timeout so that
several gunicorn workers can share it; PostgreSQL (several servers) is the only other database
supported: the upserts are written for these two. The schema is versioned by Alembic
(:mod:`web.schema`): a new database is set up at start-up, one that is behind stops the start
until ``crib db upgrade``.

One style of data access: SQLAlchemy Core statements (on the tables of :mod:`web.models`) run
on the request's connection (:func:`get_db`), and every write of a request commits through
:func:`writing`.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from flask import Flask, current_app, g, has_app_context
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import ConnectionPoolEntry

from . import schema


class Base(DeclarativeBase):
    """The declarative base of every table."""


class DatabaseUnavailable(Exception):
    """The database cannot be used: a write did not reach it, or it cannot be reached."""


_FILE_ID = "crib_sqlite_file"
"""Key of a SQLite connection's record info: (device, inode) of the file it opened."""


def _file_id(path: str) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_dev, status.st_ino


def _sqlite_pragmas(dbapi_connection: object, record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # the write lock checkpoints (_WriteLock)
    cursor.close()
    database = dbapi_connection.execute("PRAGMA database_list").fetchone()[2]  # type: ignore[attr-defined]
    if database:  # the file this connection writes to, whatever happens to the path later
        record.info[_FILE_ID] = _file_id(database)


READ_ONLY_SQLSTATE = "25006"
"""PostgreSQL's read_only_sql_transaction (a read-only database or standby)."""


def _drop_read_only_connections(context: ExceptionContext) -> None:
    """Drop every pooled connection when the database refuses a write (the pool reopens them).

    A SQLite connection opened while its file (or mount) was read-only stays read-only once the
    file is writable again, and a PostgreSQL session keeps the read-only default it started
    with: kept in the pool, they would refuse writes until a restart. Treated as a disconnect,
    the error invalidates the whole pool.
    """
    error = context.original_exception
    sqlite_code = getattr(error, "sqlite_errorname", None) or ""
    if sqlite_code.startswith("SQLITE_READONLY") or (
        getattr(error, "sqlstate", None) == READ_ONLY_SQLSTATE
    ):
        context.is_disconnect = True


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite connections get WAL, a busy timeout and foreign keys.

    SQL parameters never appear in errors or logs (they hold password hashes); connections to
    a database server are checked before use, so a restarted server costs no failed request,
    and a refused write drops the pool, so a database that was read-only for a while takes
    writes again as soon as it can.
    """
    server = not url.startswith("sqlite")
    engine = create_engine(url, hide_parameters=True, pool_pre_ping=server)
    event.listen(engine, "handle_error", _drop_read_only_connections)
    event.listen(engine, "commit", _refuse_commit_outside_writing)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


CHECKPOINT_EVERY = 1.0
"""Seconds between checkpoints of a SQLite database's write-ahead log, at most (per process)."""


class _WriteLock:
    """A blocking file lock that serializes this SQLite database's writers across workers.

    SQLite's own busy handler sleeps and retries (1, 2, 5, 10 … ms), which under load turns
    short write transactions into long latency tails; a writer waiting on ``flock`` wakes the
    moment the lock is free. The file is opened per process (after gunicorn forks). A
    ``flock`` belongs to the open file, which a process's threads share, so a thread lock
    keeps one worker's threads (gunicorn ``gthread``) one at a time as well.

    The write-ahead log is copied back into the database file after a write, once
    :data:`CHECKPOINT_EVERY` at most, once the lock is free: SQLite's own automatic
    checkpoint (off on these connections) ran inside the commit that filled the log, while
    every other writer waited on the lock.
    """

    def __init__(self, database: str) -> None:
        self.database = database
        self.path = f"{database}.lock"
        self._pid = -1
        self._fd = -1
        self._threads = threading.Lock()
        self._next_checkpoint = 0.0

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
        self._checkpoint_if_due()

    def _checkpoint_if_due(self) -> None:
        """Checkpoint the log (``PASSIVE``: writers go on meanwhile) when one is due."""
        now = time.monotonic()
        if now < self._next_checkpoint:
            return
        self._next_checkpoint = now + CHECKPOINT_EVERY
        uri = f"{Path(self.database).resolve().as_uri()}?mode=rw"  # never makes a new file
        # busy or gone: the write is stored all the same, and the next checkpoint is a second away
        with (
            contextlib.suppress(sqlite3.Error),
            contextlib.closing(sqlite3.connect(uri, uri=True, timeout=0)) as db,
        ):
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def check_written(self, opened: tuple[int, int] | None) -> None:
        """Check that the database file is still the one a connection opened as ``opened``.

        A file deleted or replaced under a running server takes writes that are lost (its
        directory deleted, a restore copied over it).

        Raises:
            DatabaseUnavailable: the file is gone or another one (the pool is reopened).
        """
        try:
            now = _file_id(self.database)
        except OSError:
            now = None
        if opened is None or now != opened:
            current_app.extensions["crib_engine"].dispose()  # reopen from the path next time
            raise DatabaseUnavailable(f"the database file {self.database} was removed or replaced")


_WRITING = "crib_writing"
"""Name on ``g`` while :func:`writing` runs: the only time the request's connection commits."""


def _refuse_commit_outside_writing(connection: Connection) -> None:
    """Refuse a commit of the request's connection outside :func:`writing` (a RuntimeError).

    The refused transaction is rolled back.
    """
    if has_app_context() and g.get("db") is connection and not g.get(_WRITING):
        connection.connection.rollback()  # SQLAlchemy takes the transaction as ended
        raise RuntimeError("write through web.db.writing(): it locks, commits and checks")


@contextlib.contextmanager
def writing(db: Connection) -> Iterator[Connection]:
    """Write on the request's connection ``db`` and commit: the one way a request stores anything.

    On a SQLite file the block and the commit hold the write lock, and then the file is checked
    to be the one the connection opened. When anything raises, nothing is stored (rolled back).

    Raises:
        DatabaseUnavailable: the SQLite file was deleted or replaced (nothing was stored).
    """
    lock: _WriteLock | None = current_app.extensions["crib_write_lock"]
    opened = db.info.get(_FILE_ID)
    setattr(g, _WRITING, True)
    try:
        with lock.held() if lock else contextlib.nullcontext():
            yield db
            db.commit()
    except BaseException:
        db.rollback()
        raise
    finally:
        g.pop(_WRITING)
    if lock:
        lock.check_written(opened)


def get_db() -> Connection:
    """The request's database connection, opened on first use and closed at teardown."""
    if "db" not in g:
        g.db = current_app.extensions["crib_engine"].connect()
    db: Connection = g.db
    return db


def close_db(_error: BaseException | None = None) -> None:
    """Close the request's connection, rolling back anything left uncommitted."""
    db = g.pop("db", None)
    if db is not None:
        db.close()


def _make_private(path: str) -> None:
    """Make the SQLite file (it holds password hashes) readable by its owner only.

    It is created so, or an existing one is changed; SQLite gives its ``-wal`` and ``-shm``
    files the same mode.
    """
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)


def init_app(app: Flask, *, prepare_schema: bool = True) -> None:
    """Give ``app`` an engine and session factory; set up a new database's schema.

    Raises:
        web.schema.SchemaError: (with ``prepare_schema``) the database is behind.
    """
    engine = make_engine(app.config["DATABASE_URL"])
    app.extensions["crib_engine"] = engine
    database = engine.url.database
    on_disk = engine.dialect.name == "sqlite" and database not in (None, "", ":memory:")
    if on_disk:
        _make_private(str(database))
    lock = _WriteLock(database) if on_disk and database else None
    app.extensions["crib_write_lock"] = lock
    app.teardown_appcontext(close_db)
    try:
        if prepare_schema:
            schema.prepare(engine, lock.held if lock else None)
    finally:
        engine.dispose()  # no connection crosses a gunicorn fork, nor outlives a refusal
