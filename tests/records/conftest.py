"""Fixtures: a connection to this test's database (:mod:`tests.databases`), without Flask."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Connection

from records import players
from records.database import Database

NOW = 1_800_000_000.0
"""The tests' clock: every function of the records is told the time."""


@pytest.fixture
def db(database_url: str) -> Iterator[Connection]:
    """A connection to this test's database, empty at the latest schema."""
    database = Database(database_url)
    with database.connect() as connection:
        yield connection
    database.dispose()


@pytest.fixture
def guest(db: Connection) -> int:
    """A guest player's id."""
    return int(players.new_guest(db, NOW).id)
