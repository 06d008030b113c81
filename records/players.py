"""Players: guests, accounts, their session keys and versions, and merging a guest into one.

A player is a guest (no username) or an account. Each has a random session key, given when it
is made and never given again, and a session version that revoking its sessions bumps (log
out, register, a new password): a session is the player's only while it carries both.

A username is one name whatever its case, as players expect: ``Vic`` and ``vic`` are the same
player, so one of them cannot be registered beside the other (a unique index on the name in
lower case, schema revision 0007) and either logs in to it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection, Row, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from . import ratings
from .database import writing
from .drills import rebuild_skills
from .errors import NameTakenError, PlayerGone
from .models import Answer, Drill, GameRecord, Player

T = TypeVar("T")


@dataclasses.dataclass(frozen=True)
class PlayerRecord:
    """A player as stored: a guest (no username) or an account."""

    id: int
    username: str | None
    password_hash: str | None
    created_at: float
    session_version: int
    """Bumped to revoke every session of this player."""
    session_key: str
    """The random secret a session of this player must carry."""

    @classmethod
    def of(cls, row: Row[Any]) -> PlayerRecord:
        """The player a row of ``players`` holds."""
        return cls(
            row.id,
            row.username,
            row.password_hash,
            row.created_at,
            row.session_version,
            row.session_key,
        )


def _player(row: Row[Any] | None) -> PlayerRecord | None:
    return None if row is None else PlayerRecord.of(row)


_SESSION = select(Player.session_version, Player.session_key, Player.created_at).where(
    Player.id == bindparam("id")
)
_NEW_PLAYER = insert(Player).values(session_version=0).returning(*Player.__table__.c)
_BUMP_VERSION = (
    update(Player)
    .where(Player.id == bindparam("player_id"))
    .values(session_version=Player.session_version + 1)
    .returning(*Player.__table__.c)
)
"""Revoke the player's sessions (and give back the player's row); ``.values()`` adds changes."""


def session_of(db: Connection, player_id: int) -> Row[int, str, float] | None:
    """What a session of ``player_id`` must match: its version, key and creation time."""
    return db.execute(_SESSION, {"id": player_id}).first()


def get(db: Connection, player_id: int) -> PlayerRecord | None:
    """The player with this id, if any."""
    return _player(db.execute(select(Player).where(Player.id == player_id)).first())


def run_as(db: Connection, player_id: int, work: Callable[[Connection, int], T]) -> T:
    """Run ``work(db, player_id)``, which stores something of the player's.

    An integrity error (rolled back by :func:`records.database.writing`) is the player gone
    (its foreign key failed), or another request storing the same thing at once (two tabs
    dealing one daily set): the work is then done again, once, as it is.

    Raises:
        PlayerGone: the player is not in the records.
    """
    try:
        return work(db, player_id)
    except IntegrityError:
        if get(db, player_id) is None:
            raise PlayerGone(f"no player {player_id}") from None
    return work(db, player_id)


USERNAME = re.compile(r"[A-Za-z0-9_.-]{3,40}")
"""What a username may be: 3 to 40 letters (ASCII), digits, dots, dashes or underscores."""


def by_name(db: Connection, username: str) -> PlayerRecord | None:
    """The account named ``username`` in any case (none for a name no account can have)."""
    if not USERNAME.fullmatch(username):  # no lookup for a NUL or a name of any length
        return None
    named = func.lower(Player.username) == username.lower()
    return _player(db.execute(select(Player).where(named)).first())


def new_guest(db: Connection, now: float) -> PlayerRecord:
    """Make a guest player at ``now``."""
    with writing(db) as connection:
        return PlayerRecord.of(connection.execute(_NEW_PLAYER, {"created_at": now}).one())


def register(
    db: Connection, username: str, password_hash: str, now: float, guest_id: int | None = None
) -> PlayerRecord:
    """Make the account ``username``: the guest ``guest_id`` becomes it, or a new player.

    A guest keeps its progress; its sessions are revoked, so its old cookie does not act as
    the account. The unique username (in any case) is the check, so two registrations racing
    for one name cannot both win.

    Raises:
        NameTakenError: the name is another player's, in any case (nothing is changed).
    """
    account = {"username": username, "password_hash": password_hash}
    try:
        with writing(db) as connection:
            if guest_id is None:
                made = connection.execute(_NEW_PLAYER, {"created_at": now, **account}).one()
            else:
                made = connection.execute(
                    _BUMP_VERSION.values(**account), {"player_id": guest_id}
                ).one()
            return PlayerRecord.of(made)
    except IntegrityError:
        raise NameTakenError(f"The username {username!r} is taken.") from None


def revoke_sessions(db: Connection, player_id: int, **changes: Any) -> PlayerRecord:
    """End every session of the player (bump its version), with ``changes`` to its row.

    Returns:
        The player as it is now.
    """
    with writing(db) as connection:
        statement = _BUMP_VERSION.values(**changes) if changes else _BUMP_VERSION
        return PlayerRecord.of(connection.execute(statement, {"player_id": player_id}).one())


def merge_guest(db: Connection, guest_id: int, player_id: int) -> None:
    """Move a guest's drills, answers and games to ``player_id``, delete the guest; lose nothing.

    The guest's counting ratings become the account's in the kinds the account has none of.

    Where both played the same day's challenge, the account's stays the daily one and the
    guest's deals (with their answers) are kept as practice.
    """
    taken = select(Drill.daily_date).where(
        Drill.player_id == player_id, Drill.daily_date.is_not(None)
    )
    with writing(db) as connection:
        connection.execute(
            update(Drill)
            .where(Drill.player_id == guest_id, Drill.daily_date.in_(taken))
            .values(mode="practice", daily_date=None, position=None)
        )
        connection.execute(
            update(Drill).where(Drill.player_id == guest_id).values(player_id=player_id)
        )
        connection.execute(
            update(Answer).where(Answer.player_id == guest_id).values(player_id=player_id)
        )
        connection.execute(
            update(GameRecord).where(GameRecord.owner_id == guest_id).values(owner_id=player_id)
        )
        ratings.merge(connection, guest_id, player_id)
        connection.execute(delete(Player).where(Player.id == guest_id))
        rebuild_skills(connection, player_id)
