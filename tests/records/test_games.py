"""Games kept at the table, in the records without Flask: stored, moved on one version at a
time, listed with their results (issue house3, section 3)."""

from __future__ import annotations

from sqlalchemy import Connection

from records import games
from trainer import board

from .conftest import NOW


def test_a_move_is_saved_only_onto_the_version_it_saw(db: Connection, guest: int) -> None:
    game = board.new_game({"names": ["Ann", "Bob"]})
    row = games.create(db, game, owner_id=guest, seat=0, now=NOW)
    assert (row.version, games.version(db, row.code)) == (0, 0)
    moved = board.apply(games.game_of(row), {"move": "peg", "seat": 0, "points": 2})
    saved = games.save(db, row, moved, seen=0, now=NOW + 1)
    assert saved is not None and saved.version == 1
    assert games.save(db, row, moved, seen=0, now=NOW + 2) is None  # another phone, too late
    assert games.game_of(saved).scores == moved.scores
    assert [g.code for g in games.of_player(db, guest)] == [row.code]
    assert games.record(db, guest) == games.Record()
    assert games.get(db, "no-such-code") is None
