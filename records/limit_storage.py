"""Rate-limit counts kept in the trainer's own database: a storage for the ``limits`` library.

With it (``CRIB_RATELIMIT_STORAGE_URI=database://``, the default) every worker process and
every server using the database counts together, so "20 a minute" is 20 however many workers
and servers there are; with ``memory://`` each worker process counts on its own. Only the
requests a limit is about use it (account form posts, a deal that makes a guest): one indexed
statement each, in a transaction of its own.

A count lives in ``rate_counts`` (:class:`records.models.RateCount`): one row per key and window,
the key stored as its SHA-256 (a key holds what a client sent, a username of any length or
bytes, which a column might not take),
incremented in one ``INSERT … ON CONFLICT DO UPDATE`` that starts the window again once it has
ended, so that concurrent tries from several processes are all counted. Ended windows are
deleted now and then.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import random
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

from limits.storage import Storage
from sqlalchemy import Connection, Table, bindparam, case, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from .database import Database, writing
from .models import RateCount

COUNTS = cast(Table, RateCount.__table__)
SCHEME = "database"
"""The storage scheme of counts kept in the trainer's database (``database://``)."""
CLEAN_UP_EVERY = 100
"""About one increment in this many also deletes the counts whose window has ended."""

_COUNT = select(COUNTS.c.count).where(
    COUNTS.c.key == bindparam("key"), COUNTS.c.expires_at > bindparam("now")
)
_EXPIRY = select(COUNTS.c.expires_at).where(COUNTS.c.key == bindparam("key"))
_ENDED = delete(COUNTS).where(COUNTS.c.expires_at <= bindparam("now"))


def _stored(key: str) -> str:
    """How ``key`` is stored: its SHA-256, in hex."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@functools.cache
def _increment(dialect_name: str) -> Any:
    """The increment: ``INSERT … ON CONFLICT DO UPDATE … RETURNING count`` (SQLite, PostgreSQL).

    It adds to the key's count, or starts a new window with it when the old one has ended.
    """
    dialect = sqlite if dialect_name == "sqlite" else postgresql
    new = dialect.insert(COUNTS).values(
        key=bindparam("key"), count=bindparam("amount"), expires_at=bindparam("expires_at")
    )
    ended = COUNTS.c.expires_at <= bindparam("now")
    return new.on_conflict_do_update(
        index_elements=[COUNTS.c.key],
        set_={
            "count": case((ended, new.excluded.count), else_=COUNTS.c.count + new.excluded.count),
            "expires_at": case((ended, new.excluded.expires_at), else_=COUNTS.c.expires_at),
        },
    ).returning(COUNTS.c.count)


class DatabaseStorage(Storage):
    """A ``limits`` storage on ``database``'s ``rate_counts`` table: the ``database://`` scheme.

    Counts are written as every other write (:func:`records.database.writing`: a SQLite file's
    write lock is held while counting), so never count while holding that lock. Windows are
    timed by ``clock`` (``time.time``). The app passes both as storage options.
    """

    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012 (the base class declares it a list)

    def __init__(
        self,
        uri: str | None = None,
        *,
        database: Database,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(uri)
        self.database = database
        self.engine = database.engine
        self.clock = clock

    @property
    def base_exceptions(self) -> type[Exception]:
        """What the database raises when it cannot be used."""
        return SQLAlchemyError

    @contextlib.contextmanager
    def _writing(self) -> Iterator[Connection]:
        with self.engine.connect() as connection, writing(connection):
            yield connection

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Add ``amount`` to ``key``'s count and return it.

        Once its window has ended, a new one of ``expiry`` seconds starts from ``amount``.
        """
        now = self.clock()
        values = {"key": _stored(key), "amount": amount, "now": now, "expires_at": now + expiry}
        with self._writing() as connection:
            count = connection.execute(_increment(self.engine.dialect.name), values).scalar_one()
            if random.randrange(CLEAN_UP_EVERY) == 0:
                connection.execute(_ENDED, {"now": now})
        return int(count)

    def get(self, key: str) -> int:
        """``key``'s count in its current window (0 when it has ended)."""
        with self.engine.connect() as connection:
            count = connection.scalar(_COUNT, {"key": _stored(key), "now": self.clock()})
        return int(count or 0)

    def get_expiry(self, key: str) -> float:
        """When ``key``'s window ends (now, when it has none)."""
        with self.engine.connect() as connection:
            expires_at = connection.scalar(_EXPIRY, {"key": _stored(key)})
        return self.clock() if expires_at is None else float(expires_at)

    def check(self) -> bool:
        """Whether the database answers."""
        try:
            with self.engine.connect() as connection:
                connection.scalar(select(1))
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int:
        """Forget every count; returns how many there were."""
        with self._writing() as connection:
            return int(connection.execute(delete(COUNTS)).rowcount)

    def clear(self, key: str) -> None:
        """Forget ``key``'s count."""
        with self._writing() as connection:
            connection.execute(delete(COUNTS).where(COUNTS.c.key == _stored(key)))
