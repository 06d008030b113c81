"""Players in the records, without Flask: guests, accounts in any case, a guest merged, and work
done for a player who may be gone (issue house3, section 3)."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from records import drills, players
from records.errors import NameTakenError, PlayerGone
from trainer.dealing import Difficulty

from .conftest import NOW


def _deal(db: Connection, player_id: int) -> drills.DealtDrill:
    return drills.deal_next(
        db, player_id, "crib", Difficulty.STANDARD, rng=random.Random(3), now=NOW, per_minute=0
    )


def test_work_for_a_player_gone_says_so(db: Connection) -> None:
    with pytest.raises(PlayerGone, match="no player 77"):
        players.run_as(db, 77, _deal)


def test_work_refused_once_by_a_race_is_done_again(db: Connection, guest: int) -> None:
    """Two tabs dealing one daily set at once: the loser's insert fails, and is done again."""
    tries: list[int] = []

    def racing(connection: Connection, player_id: int) -> int:
        tries.append(player_id)
        if len(tries) == 1:
            raise IntegrityError("INSERT", {}, Exception("unique"))
        return len(drills.daily_set(connection, player_id, "2027-01-15", NOW))

    assert players.run_as(db, guest, racing) == 6
    assert tries == [guest, guest]


def test_a_name_is_one_account_in_any_case(db: Connection) -> None:
    vic = players.register(db, "Vic", "hash", NOW)
    assert players.by_name(db, "vIC") == vic
    with pytest.raises(NameTakenError, match="'vic' is taken"):
        players.register(db, "vic", "hash", NOW)
    assert players.by_name(db, "no\x00name") is None


def test_a_merged_guest_gives_the_account_its_drills_and_is_gone(
    db: Connection, guest: int
) -> None:
    account = int(players.register(db, "alice", "hash", NOW).id)
    drill = _deal(db, guest)
    players.merge_guest(db, guest, account)
    assert players.get(db, guest) is None
    moved = drills.get_drill(db, drill.id)
    assert moved is not None and moved.player_id == account
