"""The database object without Flask: writes through ``writing``, the SQLite log kept small."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

import records.database
from records.database import WAL_SIZE_LIMIT, Database, writing


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Iterator[Database]:
    """A new SQLite database file, opened."""
    database = Database(f"sqlite:///{tmp_path / 'trainer.sqlite'}")
    yield database
    database.dispose()


def test_the_log_is_cut_back_after_a_burst_of_writes(
    sqlite_file: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A burst of writes grows the write-ahead log past its limit (here written before any
    checkpoint could run); once checkpointed, the next writes cut it back to the limit (a flood
    of guests left 83 MB behind: attack round 3)."""
    monkeypatch.setattr(records.database, "CHECKPOINT_EVERY", 0.0)
    path = str(sqlite_file.engine.url.database)
    log = Path(f"{path}-wal")
    with sqlite_file.connect() as connection, writing(connection):
        connection.execute(text("CREATE TABLE burst (data BLOB)"))
    with contextlib.closing(sqlite3.connect(path)) as burst:
        burst.execute("PRAGMA wal_autocheckpoint=0")
        for _ in range(40):
            burst.execute("INSERT INTO burst VALUES (randomblob(200000))")
            burst.commit()
    assert log.stat().st_size > 1.5 * WAL_SIZE_LIMIT
    with sqlite_file.connect() as connection:
        for _ in range(3):
            with writing(connection):
                connection.execute(text("INSERT INTO burst VALUES (x'00')"))
    assert log.stat().st_size <= WAL_SIZE_LIMIT


def test_a_connection_commits_only_through_writing(sqlite_file: Database) -> None:
    """A connection from ``Database.connect`` refuses a bare commit (nothing is stored); the
    engine's own connections (a migration, the limits' counts) are not held to it."""
    with sqlite_file.connect() as connection:
        with writing(connection):
            connection.execute(text("CREATE TABLE t (n INTEGER)"))
        connection.execute(text("INSERT INTO t VALUES (0)"))
        with pytest.raises(RuntimeError, match=r"records\.database\.writing"):
            connection.commit()
        connection.rollback()
        with writing(connection):
            connection.execute(text("INSERT INTO t VALUES (1)"))
    with sqlite_file.engine.begin() as connection:
        connection.execute(text("INSERT INTO t VALUES (2)"))
    with sqlite_file.connect() as connection:
        assert list(connection.scalars(text("SELECT n FROM t ORDER BY n"))) == [1, 2]
