"""Games kept at the table, in the records without Flask: stored, moved on one version at a
time, listed with their results (issue house3, section 3); each move a row of its own (issue
54, finding 2)."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy import Connection, event, func, select, update

import records.drills
from records import games, players, schema
from records.database import make_engine
from records.errors import BoardMovedOn
from trainer import board
from trainer.board import Match
from trainer.game import Game

from .conftest import NOW


def test_a_move_is_saved_only_onto_the_version_it_saw(db: Connection, guest: int) -> None:
    game = board.new_game({"names": ["Ann", "Bob"]})
    row = games.create(db, game, owner_id=guest, seat=0, now=NOW)
    assert (row.version, games.version(db, row.code)) == (0, 0)
    moved = board.apply(games.game_of(db, row), {"move": "peg", "seat": 0, "points": 2})
    saved = games.save(db, row, moved, seen=0, now=NOW + 1)
    assert saved is not None and saved.version == 1
    assert games.save(db, row, moved, seen=0, now=NOW + 2) is None  # another phone, too late
    assert games.game_of(db, saved).scores == moved.scores
    assert stored_moves(db, saved) == moved.moves_json()
    assert [g.code for g in games.of_player(db, guest)] == [row.code]
    assert games.record(db, guest) == games.Record()
    assert games.get(db, "no-such-code") is None


@contextlib.contextmanager
def another_process() -> Iterator[None]:
    """The block runs as another process (the server's other worker): it keeps its own games,
    none at first, and this one keeps none of those it reads or saves."""
    here = games._GAMES.values
    games._GAMES.values = {}
    try:
        yield
    finally:
        games._GAMES.values = here


def moved(db: Connection, row: Any, *moves: dict[str, Any]) -> Any:
    """``row``'s game after ``moves``, each saved on the version before it."""
    for move in moves:
        game = board.apply(games.game_of(db, row), move)
        row = games.save(db, row, game, seen=row.version, now=NOW + row.version + 1)
        assert row is not None
    return row


def stored_moves(db: Connection, row: Any) -> list[dict[str, Any]]:
    """The move rows stored for ``row``'s game, in order."""
    query = select(games.MOVES.c.move).where(games.MOVES.c.game_id == row.id)
    return list(db.scalars(query.order_by(games.MOVES.c.number)))


def pegged(pegs: int) -> Game:
    """A game of ``pegs`` pegs of 1, each side in turn (nobody reaches home)."""
    game = board.new_game({"names": ["Ann", "Bob"]})
    for n in range(pegs):
        game = game.peg(n % 2, 1, "pair")
    return game


def grown(moves: int) -> Game:
    """A game of about ``moves`` moves: deals shown for 0 and passed, nobody scoring."""
    game = board.new_game({"names": ["Ann", "Bob"]})
    while game.move_count + 4 <= moves:
        while (hand := game.next_to_show) is not None:
            game = game.show(hand, 0)
        game = game.next_deal()
    return game


def statements(db: Connection, run: Callable[[], object]) -> list[tuple[str, Any]]:
    """Each statement ``run`` sends the database, with its parameters."""
    sent: list[tuple[str, Any]] = []

    def record(*args: Any) -> None:
        sent.append((args[2], args[3]))

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        run()
    finally:
        event.remove(db.engine, "before_cursor_execute", record)
    return sent


def test_a_move_at_move_900_writes_no_more_than_one_at_move_10(db: Connection, guest: int) -> None:
    """A save writes the game's row and its one new move: it wrote every move again (one JSON
    column), 49 times as many bytes at move 900 as at move 10."""
    written = []
    for moves in (10, 900):
        row = games.create(db, grown(moves), owner_id=guest, seat=0, now=NOW)
        game = board.apply(games.game_of(db, row), {"move": "peg", "seat": 0, "points": 1})
        sent = statements(db, lambda: games.save(db, row, game, seen=0, now=NOW + 1))  # noqa: B023
        writes = [(sql, values) for sql, values in sent if not sql.lstrip().startswith("SELECT")]
        inserts = [values for sql, values in writes if sql.startswith("INSERT INTO game_moves")]
        assert len(inserts) == 1 and not isinstance(inserts[0], list)  # one row
        written.append(sum(len(sql) + len(repr(values)) for sql, values in writes))
        assert stored_moves(db, row) == game.moves_json()
    assert written[1] <= 2 * written[0], written


def test_a_game_moved_on_by_another_process_reads_only_the_moves_saved_since(
    db: Connection, guest: int, monkeypatch: Any
) -> None:
    row = games.create(db, grown(40), owner_id=guest, seat=0, now=NOW)
    kept = games.game_of(db, row)  # kept here at version 0
    pegs = [{"move": "peg", "seat": n % 2, "points": 1, "reason": "pair"} for n in range(3)]
    with another_process():
        row = moved(db, row, *pegs)
    whole = kept.peg(0, 1, "pair").peg(1, 1, "pair").peg(0, 1, "pair")

    def replayed_whole(data: Any) -> Game:
        raise AssertionError("the game was replayed from its first move")

    replayed: list[list[dict[str, Any]]] = []
    after = Game.after
    monkeypatch.setattr(Game, "from_json", replayed_whole)
    monkeypatch.setattr(
        Game, "after", lambda game, moves: replayed.append(moves) or after(game, moves)
    )
    sent = statements(db, lambda: games.game_of(db, row))
    assert games.game_of(db, row).to_json() == whole.to_json()
    assert replayed == [whole.moves_json(kept.move_count)]  # the three pegs, no other move
    assert len([sql for sql, _ in sent if "game_moves" in sql]) == 1


def test_a_move_taken_back_in_the_middle_elsewhere_is_seen_here(db: Connection, guest: int) -> None:
    row = games.create(db, pegged(6), owner_id=guest, seat=0, now=NOW)
    games.game_of(db, row)  # kept here at version 0, six moves
    taken_back = {"move": "undo", "index": 2}
    with another_process():
        row = moved(db, row, taken_back, {"move": "peg", "seat": 1, "points": 3})
    whole = pegged(6).undo(2).peg(1, 3)
    assert stored_moves(db, row) == whole.moves_json()
    assert games.game_of(db, row).to_json() == whole.to_json()
    with another_process():  # a process that kept no version replays the rows
        assert games.game_of(db, row).to_json() == whole.to_json()
    last = moved(db, row, {"move": "undo"})  # the last move, taken back here
    assert stored_moves(db, last) == whole.undo().moves_json()
    with another_process():
        assert games.game_of(db, last).to_json() == whole.undo().to_json()


def test_a_row_read_before_a_move_was_taken_back_elsewhere_is_read_again(
    db: Connection, guest: int
) -> None:
    """A row and its moves are read apart: the moves saved since add to it (they are left
    out), but moves taken back since are no longer stored, and the board is read again."""
    row = games.create(db, pegged(4), owner_id=guest, seat=0, now=NOW)
    with another_process():
        read = games.get(db, row.code)
        assert read is not None
        moved(db, read, {"move": "peg", "seat": 0, "points": 2})
    with another_process():
        assert games.game_of(db, read).to_json() == pegged(4).to_json()
        moved(db, games.get(db, row.code), {"move": "undo", "index": 1})
    with another_process(), pytest.raises(BoardMovedOn):
        games.game_of(db, read)


def test_a_game_purged_takes_its_moves(db: Connection, guest: int) -> None:
    games.create(db, pegged(5), owner_id=guest, seat=0, now=NOW)
    assert records.drills.purge(db, NOW + records.drills.GUEST_IDLE_FOR + 60)[2] == 1
    assert db.scalar(select(func.count()).select_from(games.MOVES)) == 0


def test_the_moves_become_rows_at_0010_and_go_back_at_its_downgrade(
    empty_database_url: str,
) -> None:
    """A game stored whole at revision 0009 (its moves in ``data``): the upgrade stores each of
    its moves as a row and keeps the set-up in ``data``; the game reads as it was; the
    downgrade puts the moves back into ``data``."""
    engine = make_engine(empty_database_url)
    game = pegged(7).undo(3).show(1, 4)  # a show after the play
    whole = game.to_json(log=False)
    kept = sa.table(
        "games",
        *(sa.column(name) for name in ("id", "code", "key", "rules", "version", "lurch")),
        *(sa.column(name) for name in ("created_at", "updated_at")),
        sa.column("data", sa.JSON()),
        sa.column("scores", sa.JSON()),
    )
    row = {"code": "c0de", "key": "k" * 32, "rules": "six-card", "version": 8, "lurch": False}
    row |= {"created_at": NOW, "updated_at": NOW, "data": whole, "scores": list(game.scores)}
    try:
        with engine.begin() as connection:
            command.upgrade(schema._config(connection), "0009")
            connection.execute(sa.insert(kept), row)
        with engine.begin() as connection:
            command.upgrade(schema._config(connection), "0010")
            stored = connection.execute(select(games.GAMES)).one()
            assert stored.data == {k: v for k, v in whole.items() if k != "moves"}
            assert (stored.moves, stored.rewritten) == (len(whole["moves"]), 0)
            assert stored_moves(connection, stored) == whole["moves"]
            with another_process():
                assert games.game_of(connection, games.StoredBoard.of(stored)) == game
        with engine.begin() as connection, warnings.catch_warnings():
            # SQLite's games are made again (batch mode), their players reflected: SQLAlchemy
            # cannot read the index on lower(username) back, and says so
            warnings.filterwarnings("ignore", ".*expression-based index uq_players_username_lower")
            command.downgrade(schema._config(connection), "0009")
            assert connection.execute(select(kept.c.data)).scalar_one() == whole
            assert "game_moves" not in sa.inspect(connection).get_table_names()
    finally:
        engine.dispose()


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
