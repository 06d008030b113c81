"""Games kept at the table, in the records without Flask: stored, moved on one version at a
time, listed with their results (issue house3, section 3)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, update

from records import games, players
from trainer import board
from trainer.board import Match
from trainer.game import Game

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


def moved_elsewhere(db: Connection, row: Any, *moves: dict[str, Any]) -> Any:
    """``row``'s game after ``moves`` saved as another process saves them: this one keeps none of
    the versions they make."""
    for move in moves:
        game = board.apply(Game.from_json(row.data), move)
        saved = games.save(db, row, game, seen=row.version, now=NOW + row.version + 1)
        assert saved is not None
        games._GAMES.take((saved.code, saved.version))
        row = saved
    return row


def test_a_game_moved_on_by_another_process_is_replayed_from_the_version_kept_here(
    db: Connection, guest: int, monkeypatch: Any
) -> None:
    row = games.create(
        db, board.new_game({"names": ["Ann", "Bob"]}), owner_id=guest, seat=0, now=NOW
    )
    games.game_of(row)  # kept here at version 0
    pegs = [{"move": "peg", "seat": n % 2, "points": 1, "reason": "pair"} for n in range(3)]
    row = moved_elsewhere(db, row, *pegs)
    whole = Game.from_json(row.data)

    def replayed_whole(data: Any) -> Game:
        raise AssertionError("the game was replayed from its first move")

    monkeypatch.setattr(Game, "from_json", replayed_whole)
    caught_up = games.game_of(row)
    assert caught_up.to_json() == whole.to_json()


def test_a_game_whose_moves_were_taken_back_elsewhere_is_replayed_whole(
    db: Connection, guest: int
) -> None:
    row = games.create(
        db, board.new_game({"names": ["Ann", "Bob"]}), owner_id=guest, seat=0, now=NOW
    )
    peg = {"move": "peg", "seat": 0, "points": 2, "reason": "pair"}
    row = moved_elsewhere(db, row, peg)
    games.game_of(row)  # kept here with the peg
    row = moved_elsewhere(db, row, {"move": "undo"}, {"move": "peg", "seat": 1, "points": 3})
    assert games.game_of(row).to_json() == Game.from_json(row.data).to_json()
    assert games.game_of(row).scores[1] == 3 and games.game_of(row).scores[0] == 0


def test_a_match_is_read_again_only_once_a_game_is_over(
    db: Connection, guest: int, monkeypatch: Any
) -> None:
    setup = Game.new("six-card", ["Ann", "Bob"]).setup
    games.create(db, finished(["Ann", "Bob"], [121, 100]), owner_id=guest, seat=None, now=NOW)
    reads: list[int] = []
    read = games._finished
    monkeypatch.setattr(games, "_finished", lambda *args: reads.append(1) or read(*args))
    assert games.match(db, guest, setup).games == (1, 0)
    games.create(db, finished(["Ann", "Bob"], [60, 40]), owner_id=guest, seat=None, now=NOW)
    assert games.match(db, guest, setup).games == (1, 0)
    assert len(reads) == 1  # a move of a game under way reads no game again
    games.create(db, finished(["Ann", "Bob"], [100, 121]), owner_id=guest, seat=None, now=NOW + 1)
    assert games.match(db, guest, setup).games == (1, 1)
    assert len(reads) == 2


def finished(names: list[str], scores: list[int], **setup: Any) -> Game:
    """A game between ``names``, each side pegged to its score in ``scores`` (the lowest first)."""
    game = board.new_game({"names": names, **setup})
    for side in sorted(range(len(scores)), key=lambda s: scores[s]):
        while game.scores[side] < scores[side]:
            game = game.peg(side, min(29, scores[side] - game.scores[side]))
    return game


def test_a_match_tallies_the_games_between_the_same_players(db: Connection, guest: int) -> None:
    """Games won between the same names (in any case, in any seats), a lurch two, a double
    skunk as its game set it (a game stored before the setting: as the rule books); other
    tables, games under way and other keepers' left out (issue players3, item 6)."""
    other = int(players.new_guest(db, NOW).id)
    kept = [
        (guest, ["Ann", "Bob"], [121, 80], {}),  # a lurch: two games to Ann
        (guest, ["bob", "ANN"], [121, 100], {}),  # the other way round: one to Bob
        (guest, ["Ann", "Bob"], [121, 50], {"double_skunk_games": 4}),  # four to Ann
        (guest, ["Ann", "Bob"], [60, 40], {}),  # under way
        (guest, ["Ann", "Cy"], [95, 121], {}),
        (guest, ["Ann", "Bob", "Cy"], [121, 95, 95], {}),
        (other, ["Ann", "Bob"], [0, 121], {}),
        (guest, ["Ann", "Bob", "Cy", "Di"], [121, 90], {}),  # Ann and Cy lurch Bob and Di
        (guest, ["Bob", "Ann", "Di", "Cy"], [121, 100], {}),  # Bob and Di win
    ]
    rows = [
        games.create(db, finished(names, scores, **setup), owner_id=keeper, seat=None, now=NOW + n)
        for n, (keeper, names, scores, setup) in enumerate(kept)
    ]
    before = {k: v for k, v in rows[0].data.items() if k != "double_skunk_games"}
    db.execute(update(games.GAMES).where(games.GAMES.c.id == rows[0].id).values(data=before))
    two = Game.new("six-card", ["Bob", "Ann"]).setup
    assert games.match(db, guest, two) == Match(("Bob", "Ann"), (1, 6), (1, 2), (0, 2))
    assert games.match(db, guest, two).text == "Bob 1 – Ann 6 (two lurches)"
    four = Game.new("four-hand", ["Cy", "Bob", "Ann", "Di"]).setup
    assert games.match(db, guest, four).text == "Cy and Ann 2 – Bob and Di 1 (one lurch)"
    assert games.match(db, other, two).text == "Bob 2 – Ann 0 (one lurch)"
    assert [m.text for m in games.matches(db, guest)] == [
        "Ann and Cy 2 – Bob and Di 1 (one lurch)",
        "Ann 1 – Bob 0 – Cy 0",
        "Cy 1 – Ann 0",
        "Ann 6 – Bob 1 (two lurches)",
    ]
