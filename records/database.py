"""The database: one engine, and on a SQLite file the lock its writers share.

SQLite (the default) runs in WAL mode with a busy timeout so that several gunicorn workers can
share it; PostgreSQL (several servers) is the only other database supported: the upserts are
written for these two. The schema is versioned by Alembic (:mod:`records.schema`).

One style of data access: SQLAlchemy Core statements (on the tables of :mod:`records.models`)
run on a connection from :meth:`Database.connect`, and every write commits through
:func:`writing`, which takes the SQLite file's write lock and checks the file afterwards.
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

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    Update,
    bindparam,
    create_engine,
    event,
    make_url,
    update,
)
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.pool import ConnectionPoolEntry

from . import schema


class DatabaseUnavailable(Exception):
    """The database cannot be used: a write did not reach it, or it cannot be reached."""


_FILE_ID = "crib_sqlite_file"
"""Key of a SQLite connection's record info: (device, inode) of the file it opened."""
_WRITE_LOCK = "crib_write_lock"
"""Key of a connection's record info: its database's :class:`WriteLock` (a SQLite file's)."""
_GUARDED = "crib_guarded"
"""Execution option of a :meth:`Database.connect` connection: it commits only in
:func:`writing`."""
_WRITING = "crib_writing"
"""Execution option set while :func:`writing` runs on a connection."""


def _file_id(path: str) -> tuple[int, int]:
    status = os.stat(path)
    return status.st_dev, status.st_ino


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


def _refuse_commit_outside_writing(connection: Connection) -> None:
    """Refuse a commit of a guarded connection outside :func:`writing` (a RuntimeError).

    The refused transaction is rolled back.
    """
    options = connection.get_execution_options()
    if options.get(_GUARDED) and not options.get(_WRITING):
        connection.connection.rollback()  # SQLAlchemy takes the transaction as ended
        raise RuntimeError("write through records.database.writing(): it locks, commits, checks")


def make_engine(url: str, write_lock: WriteLock | None = None) -> Engine:
    """An engine for ``url``; SQLite connections get WAL, a busy timeout and foreign keys.

    SQL parameters never appear in errors or logs (they hold password hashes); connections to
    a database server are checked before use, so a restarted server costs no failed request,
    and a refused write drops the pool, so a database that was read-only for a while takes
    writes again as soon as it can. Each connection knows ``write_lock`` (:func:`writing`).
    """
    server = not url.startswith("sqlite")
    engine = create_engine(url, hide_parameters=True, pool_pre_ping=server)
    event.listen(engine, "handle_error", _drop_read_only_connections)
    event.listen(engine, "commit", _refuse_commit_outside_writing)

    def on_connect(dbapi_connection: object, record: ConnectionPoolEntry) -> None:
        record.info[_WRITE_LOCK] = write_lock
        if engine.dialect.name == "sqlite":
            _sqlite_pragmas(dbapi_connection, record)

    event.listen(engine, "connect", on_connect)
    return engine


WAL_SIZE_LIMIT = 4 * 1024 * 1024
"""Bytes the write-ahead log is cut back to once a checkpoint has copied it all into the
database: a burst of writes (a flood of guests answering) grew it to 83 MB, which it kept."""


def _sqlite_pragmas(dbapi_connection: object, record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # the write lock checkpoints (WriteLock)
    cursor.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
    cursor.close()
    database = dbapi_connection.execute("PRAGMA database_list").fetchone()[2]  # type: ignore[attr-defined]
    if database:  # the file this connection writes to, whatever happens to the path later
        record.info[_FILE_ID] = _file_id(database)


CHECKPOINT_EVERY = 1.0
"""Seconds between checkpoints of a SQLite database's write-ahead log, at most (per process)."""


class WriteLock:
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
        """Hold the lock for the block; checkpoint the log afterwards when one is due.

        Raises:
            DatabaseUnavailable: the lock file cannot be opened (a read-only folder).
        """
        with self._threads:
            if self._pid != os.getpid():
                try:
                    self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                except OSError as error:  # a read-only folder or mount: nothing can be written
                    raise DatabaseUnavailable(
                        f"cannot open the write lock {self.path}: {error.strerror}"
                    ) from error
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

    def check_written(self, connection: Connection, opened: tuple[int, int] | None) -> None:
        """Check that the database file is still the one ``connection`` opened as ``opened``.

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
            connection.engine.dispose()  # reopen from the path next time
            raise DatabaseUnavailable(f"the database file {self.database} was removed or replaced")


@contextlib.contextmanager
def writing(connection: Connection) -> Iterator[Connection]:
    """Write on ``connection`` and commit: the one way anything is stored.

    On a SQLite file the block and the commit hold the write lock, and then the file is checked
    to be the one the connection opened. When anything raises, nothing is stored (rolled back).

    Raises:
        DatabaseUnavailable: the SQLite file was deleted or replaced (nothing was stored).
    """
    lock: WriteLock | None = connection.info.get(_WRITE_LOCK)
    opened = connection.info.get(_FILE_ID)
    connection.execution_options(**{_WRITING: True})
    try:
        with lock.held() if lock else contextlib.nullcontext():
            yield connection
            connection.commit()
    except BaseException:
        connection.rollback()
        raise
    finally:
        connection.execution_options(**{_WRITING: False})
    if lock:
        lock.check_written(connection, opened)


def save_on_version(table: Table) -> Update:
    """Save a game's row (``:game_id``) only while at the version its page saw (``:seen``).

    The version moves on by one and the row is given back: two moves at once never both save
    (the board's games and the computer's).
    """
    return (
        update(table)
        .where(table.c.id == bindparam("game_id"), table.c.version == bindparam("seen"))
        .values(version=table.c.version + 1)
        .returning(*table.c)
    )


def _make_private(path: str) -> None:
    """Make the SQLite file (it holds password hashes) readable by its owner only.

    It is created so, or an existing one is changed; SQLite gives its ``-wal`` and ``-shm``
    files the same mode.
    """
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)


class Database:
    """The trainer's database at ``url``: its engine, and a SQLite file's write lock.

    A SQLite file is made (private to its owner) when it does not exist.
    """

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        name = parsed.database
        on_disk = parsed.get_backend_name() == "sqlite" and name not in (None, "", ":memory:")
        if on_disk and name:
            _make_private(name)
        self.write_lock = WriteLock(name) if on_disk and name else None
        """The SQLite file's write lock (``None`` in memory and on a database server)."""
        self.engine = make_engine(url, self.write_lock)

    def connect(self) -> Connection:
        """A new connection that commits only through :func:`writing` (a RuntimeError else)."""
        return self.engine.connect().execution_options(**{_GUARDED: True})

    def prepare_schema(self) -> None:
        """Check the schema (a new, empty database is set up): :func:`records.schema.prepare`.

        Raises:
            records.schema.SchemaError: the database is behind (or unknown).
        """
        schema.prepare(self.engine, self.write_lock.held if self.write_lock else None)

    def upgrade_schema(self) -> str:
        """Bring the schema up to date: :func:`records.schema.upgrade` (the revision it was)."""
        return schema.upgrade(self.engine, self.write_lock.held if self.write_lock else None)

    def dispose(self) -> None:
        """Close the pooled connections (before a fork, or when done)."""
        self.engine.dispose()
