"""Rate-limit counts in the database (``records.limit_storage``): windows, concurrency, clean-up."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import func, inspect, select

from records import limit_storage
from records.database import Database
from records.limit_storage import COUNTS, DatabaseStorage, _stored


@pytest.fixture
def clock() -> list[float]:
    """The storage's clock, set by the test: ``clock[0]`` is now."""
    return [1_000_000.0]


@pytest.fixture
def opened(database_url: str) -> Iterator[Database]:
    """The test's database, opened."""
    database = Database(database_url)
    yield database
    database.dispose()


@pytest.fixture
def storage(opened: Database, clock: list[float]) -> DatabaseStorage:
    """A storage on the test's database, timed by ``clock``."""
    return DatabaseStorage(database=opened, clock=lambda: clock[0])


def _rows(storage: DatabaseStorage) -> int:
    with storage.engine.connect() as connection:
        return int(connection.scalar(select(func.count()).select_from(COUNTS)) or 0)


def test_a_count_starts_again_when_its_window_ends(
    storage: DatabaseStorage, clock: list[float]
) -> None:
    """Counts add up within the window; once it has ended the count reads 0 and the next try
    starts a new window."""
    assert [storage.incr("k", 60) for _ in range(3)] == [1, 2, 3]
    assert storage.incr("k", 60, amount=2) == 5
    assert storage.get("k") == 5 and storage.get("other") == 0
    assert storage.get_expiry("k") == clock[0] + 60
    clock[0] += 59
    assert storage.get("k") == 5
    clock[0] += 1
    assert storage.get("k") == 0
    assert storage.incr("k", 60) == 1
    assert storage.get_expiry("k") == clock[0] + 60


def test_any_key_can_be_counted(storage: DatabaseStorage) -> None:
    """Keys hold what clients send: a NUL byte, a lone surrogate, 10,000 characters."""
    for key in ("ali\x00ce", "\udc80", "x" * 10_000):
        assert storage.incr(key, 60) == 1
        assert storage.get(key) == 1


def test_concurrent_tries_from_several_processes_are_all_counted(
    opened: Database, database_url: str
) -> None:
    """Threads on two database objects (each its own engine and lock, as two worker processes
    have) add up exactly."""
    other = Database(database_url)
    storages = [DatabaseStorage(database=database) for database in (opened, other)]

    def hit(storage: DatabaseStorage) -> None:
        for _ in range(25):
            storage.incr("shared", 60)

    threads = [threading.Thread(target=hit, args=(storages[i % 2],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert storages[0].get("shared") == storages[1].get("shared") == 100
    other.dispose()


def test_ended_windows_are_deleted(
    storage: DatabaseStorage, clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting also deletes the counts whose windows have ended (now and then: here always)."""
    monkeypatch.setattr(limit_storage, "CLEAN_UP_EVERY", 1)
    storage.incr("old", 10)
    storage.incr("young", 100)
    clock[0] += 50
    storage.incr("new", 10)
    with storage.engine.connect() as connection:
        keys = set(connection.scalars(select(COUNTS.c.key)))
    assert keys == {_stored("young"), _stored("new")}


def test_clear_reset_and_check(storage: DatabaseStorage) -> None:
    """``clear`` forgets one key, ``reset`` all of them; ``check`` says the database answers."""
    for key in ("a", "b", "c"):
        storage.incr(key, 60)
    storage.clear("a")
    assert storage.get("a") == 0 and storage.get("b") == 1
    assert storage.reset() == 2
    assert _rows(storage) == 0
    assert storage.check()


def test_check_is_false_when_the_database_cannot_be_reached() -> None:
    """A storage on a database that is not there says so (rather than raising)."""
    nowhere = Database("postgresql+psycopg://crib@127.0.0.1:1/nowhere?connect_timeout=2")
    assert DatabaseStorage(database=nowhere).check() is False


def test_the_clean_up_finds_ended_windows_by_index(storage: DatabaseStorage) -> None:
    """Deleting the ended windows looks them up in an index on ``expires_at`` (without one it
    read every row: 0.52 s at a million, holding SQLite's write lock)."""
    indexed = [
        index["column_names"] for index in inspect(storage.engine).get_indexes("rate_counts")
    ]
    assert ["expires_at"] in indexed
