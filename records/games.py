"""Games kept at the table: stored, read, moved on one version at a time, listed for a player.

A game is stored as its set-up (a row of ``games``) and its moves (a row of ``game_moves``
each, :meth:`trainer.game.Game.moves_json`) with a version, the number of saves. A move is
saved only onto the version its page saw (``UPDATE ... WHERE version = :seen``): two phones
moving at once never lose or double a move, the second is told the board moved on
(:func:`save` returns ``None``). A save writes the moves that changed (a move: its own row),
and a process keeps the games it read or saved (:func:`game_of`), so a move costs the same at
move 1,000 as at move 10. The result is kept beside the set-up, for the history, the games won
and lost and the matches (the games between the same players). Every function is told the time
(``now``).
"""

from __future__ import annotations

import dataclasses
import secrets
import threading
from typing import Any, Generic, TypeVar, cast

from sqlalchemy import Connection, Row, Table, bindparam, delete, func, insert, select

from trainer import board
from trainer.game import LURCH_LINES, Game, Result, Setup
from trainer.rules import RULESETS, get_rules

from .database import save_on_version, writing
from .errors import BoardMovedOn
from .models import GameMove, GameRecord

GAMES = cast(Table, GameRecord.__table__)
MOVES = cast(Table, GameMove.__table__)
CODE_BYTES = 9
"""Random bytes of a game's code, its link (12 characters; 72 bits, never guessed)."""
KEY_BYTES = 16
"""Random bytes of the keeper's key."""
VIEWS_KEPT = 256
"""Games a process keeps replayed (:func:`game_of`), and boards it keeps said (``web.board``):
every game being watched or kept, and more."""

_Key = tuple[str, int]
"""A game's code and version: they name its moves."""


T = TypeVar("T")


class Kept(Generic[T]):
    """The last ``size`` values a process made, by game, shared by its threads (oldest out).

    A key is a game's code and version: they name its moves.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: dict[_Key, T] = {}
        self.lock = threading.Lock()

    def get(self, key: _Key) -> T | None:
        """The value kept for ``key``, if it still is."""
        with self.lock:
            return self.values.get(key)

    def take(self, key: _Key) -> T | None:
        """The value kept for ``key``, taken out: the caller alone has it (to change it)."""
        with self.lock:
            return self.values.pop(key, None)

    def keep(self, key: _Key, value: T) -> T:
        """Keep ``value`` for ``key`` (the oldest beyond ``size`` goes); ``value``."""
        with self.lock:
            self.values[key] = value
            while len(self.values) > self.size:
                del self.values[next(iter(self.values))]
        return value

    def latest(self, code: str, *, at_most: int) -> tuple[int, T] | None:
        """The latest version of game ``code`` kept, up to ``at_most``, with its value."""
        with self.lock:
            versions = [v for kept, v in self.values if kept == code and v <= at_most]
            return (max(versions), self.values[code, max(versions)]) if versions else None


_GAMES: Kept[Game] = Kept(VIEWS_KEPT)

_BY_CODE = select(GAMES).where(GAMES.c.code == bindparam("code"))
_VERSION = select(GAMES.c.version).where(GAMES.c.code == bindparam("code"))
_SAVE = save_on_version(GAMES)
_MOVES_BETWEEN = (
    select(MOVES.c.move, GAMES.c.rewritten)
    .join_from(MOVES, GAMES, MOVES.c.game_id == GAMES.c.id)
    .where(
        MOVES.c.game_id == bindparam("game_id"),
        MOVES.c.number >= bindparam("start"),
        MOVES.c.number < bindparam("end"),
    )
    .order_by(MOVES.c.number)
)
"""A game's moves from ``start`` to before ``end``, each with the game's ``rewritten`` as it is
now (one statement: what it reads is of one moment)."""
_DELETE_MOVES_FROM = delete(MOVES).where(
    MOVES.c.game_id == bindparam("game_id"), MOVES.c.number >= bindparam("start")
)


@dataclasses.dataclass(frozen=True)
class Record:
    """A player's games won and lost (the games where the player sat, finished)."""

    won: int = 0
    lost: int = 0
    lurches_won: int = 0
    """Games won by a lurch (each counts as two)."""
    lurched: int = 0
    """Games lost by a lurch."""

    @property
    def games_won(self) -> int:
        """Games won, a lurch counting two ("considered as two games won")."""
        return self.won + self.lurches_won

    @property
    def games_lost(self) -> int:
        """Games lost, a lurch counting two."""
        return self.lost + self.lurched


@dataclasses.dataclass(frozen=True)
class StoredBoard:
    """A board's game as stored: its link, its keeper, its moves and its result."""

    id: int
    code: str
    """The game's link: whoever has it watches the board."""
    key: str
    """The keeper's secret: a phone given it may move the pegs."""
    owner_id: int | None
    """The player who keeps it."""
    seat: int | None
    """The keeper's seat, when the keeper plays in it."""
    side: int | None
    """The side the keeper's seat pegs on."""
    rules: str
    data: dict[str, Any]
    """The set-up (:meth:`trainer.game.Setup.to_json`): the moves are rows of their own."""
    version: int
    """Moves saved so far: a move is saved only onto the version its page saw."""
    moves: int
    """The moves stored."""
    rewritten: int
    """The version of the last save that took stored moves back or changed them (0: none)."""
    created_at: float
    updated_at: float
    finished_at: float | None
    winner: int | None
    """The side that won, once over."""
    lurch: bool
    scores: tuple[int, ...]
    """Each side's score."""

    @classmethod
    def of(cls, row: Row[Any]) -> StoredBoard:
        """The board a row of ``games`` holds."""
        return cls(
            **{name: getattr(row, name) for name in _COLUMNS} | {"scores": tuple(row.scores)}
        )


_COLUMNS = tuple(field.name for field in dataclasses.fields(StoredBoard))


def _result(game: Game) -> dict[str, Any]:
    """What is kept of a game beside its set-up and moves: their number, and the result."""
    result = game.result
    return {
        "moves": game.move_count,
        "winner": None if result is None else result.winner,
        "lurch": bool(result and result.lurch),
        "scores": list(game.scores),
    }


def _write_moves(connection: Connection, game_id: int, game: Game, start: int) -> None:
    """Store ``game``'s moves from the ``start``-th on as game ``game_id``'s."""
    moves = game.moves_json(start)
    if moves:
        rows = [{"game_id": game_id, "number": start + n, "move": m} for n, m in enumerate(moves)]
        connection.execute(insert(MOVES), rows)


def create(
    db: Connection, game: Game, *, owner_id: int, seat: int | None, now: float
) -> StoredBoard:
    """Store a new game kept by ``owner_id`` (who sits at ``seat``, if playing) at ``now``."""
    values = {
        "code": secrets.token_urlsafe(CODE_BYTES),
        "key": secrets.token_hex(KEY_BYTES),
        "owner_id": owner_id,
        "seat": seat,
        "side": None if seat is None else game.setup.side_of(seat),
        "rules": game.setup.rules.name,
        "data": game.setup.to_json(),
        "version": 0,
        "rewritten": 0,
        "created_at": now,
        "updated_at": now,
        "finished_at": now if game.over else None,
        **_result(game),
    }
    with writing(db) as connection:
        row = connection.execute(insert(GAMES).returning(*GAMES.c), values).one()
        _write_moves(connection, row.id, game, 0)
    stored = StoredBoard.of(row)
    _GAMES.keep((stored.code, stored.version), game)
    return stored


def get(db: Connection, code: str) -> StoredBoard | None:
    """The game with this code, if any."""
    row = db.execute(_BY_CODE, {"code": code}).first()
    return None if row is None else StoredBoard.of(row)


def version(db: Connection, code: str) -> int | None:
    """The version of the game with this code (one indexed read: what a watching page asks)."""
    found = db.execute(_VERSION, {"code": code}).scalar()
    return None if found is None else int(found)


def game_of(db: Connection, row: StoredBoard) -> Game:
    """The game a stored row holds, read and replayed once a version in a process.

    A move is applied to the game its page saw: kept since the last move saved or read here, it
    costs the move alone, no read of the moves before it (a game may hold 1,000). Moved on since
    by another process (the server's other workers), it reads the moves stored after the
    latest version kept here and replays them onto it, unless moves were taken back since that
    version (an undo): then it reads every move and replays the game once.

    Raises:
        BoardMovedOn: When moves of ``row``'s version were taken back after it was read.
        GameError: For a stored game the rules refuse (never, for a game stored here).
    """
    key = (row.code, row.version)
    kept = _GAMES.get(key)
    if kept is not None:
        return kept
    earlier = _GAMES.latest(row.code, at_most=row.version)
    if earlier is not None and earlier[0] >= row.rewritten:
        game = earlier[1].after(_moves(db, row, earlier[1].move_count))
    else:
        game = Game.from_json(row.data | {"moves": _moves(db, row, 0)})
    return _GAMES.keep(key, game)


def _moves(db: Connection, row: StoredBoard, start: int) -> list[dict[str, Any]]:
    """The moves of ``row``'s version from the ``start``-th on.

    Those saved since the row was read are left out; those taken back since are gone.

    Raises:
        BoardMovedOn: When moves were taken back since ``row``'s version.
    """
    if start == row.moves:
        return []
    read = db.execute(_MOVES_BETWEEN, {"game_id": row.id, "start": start, "end": row.moves})
    moves = read.all()
    if len(moves) != row.moves - start or moves[0].rewritten > row.version:
        raise BoardMovedOn
    return [move for move, _ in moves]


def save(
    db: Connection, row: StoredBoard, game: Game, *, seen: int, now: float
) -> StoredBoard | None:
    """Store ``game`` as the next version of ``row``'s game, if it is still at ``seen``.

    Only the moves that differ from the game read at ``seen`` are written (a move: its own row);
    when that game is no longer kept here, every move is written again.

    Returns:
        The row saved, or ``None`` when another move was saved since ``seen`` (nothing is).
    """
    read = _GAMES.get((row.code, seen))
    kept = 0 if read is None else game.moves_shared(read)
    taken_back = read is None or kept < read.move_count
    values = {"updated_at": now, "finished_at": now if game.over else None, **_result(game)}
    if taken_back:
        values["rewritten"] = seen + 1
    with writing(db) as connection:
        saved = connection.execute(_SAVE.values(**values), {"game_id": row.id, "seen": seen})
        first = saved.first()
        if first is not None:
            if taken_back:
                connection.execute(_DELETE_MOVES_FROM, {"game_id": row.id, "start": kept})
            _write_moves(connection, row.id, game, kept)
    if first is None:
        return None
    stored = StoredBoard.of(first)
    _GAMES.keep((stored.code, stored.version), game)
    return stored


def of_player(db: Connection, player_id: int, limit: int = 50) -> list[StoredBoard]:
    """The games ``player_id`` keeps, the latest moved first."""
    query = (
        select(GAMES)
        .where(GAMES.c.owner_id == player_id)
        .order_by(GAMES.c.updated_at.desc(), GAMES.c.id.desc())
        .limit(limit)
    )
    return [StoredBoard.of(row) for row in db.execute(query)]


def record(db: Connection, player_id: int) -> Record:
    """The games won and lost by ``player_id`` where the player sat at the table."""
    query = select(GAMES.c.winner, GAMES.c.side, GAMES.c.lurch, GAMES.c.scores).where(
        GAMES.c.owner_id == player_id, GAMES.c.winner.is_not(None), GAMES.c.side.is_not(None)
    )
    won = lost = lurches_won = lurched = 0
    for winner, side, lurch, scores in db.execute(query):
        if winner == side:
            won, lurches_won = won + 1, lurches_won + bool(lurch)
        else:  # with three, each loser is lurched on his own score (the winner's is home)
            lost, lurched = lost + 1, lurched + (scores[side] < LURCH_LINES[max(scores)])
    return Record(won, lost, lurches_won, lurched)


_FINISHED = (
    select(
        GAMES.c.rules,
        GAMES.c.data["names"],
        GAMES.c.data["length"],
        GAMES.c.data["double_skunk_games"],
        GAMES.c.winner,
        GAMES.c.scores,
    )
    .where(GAMES.c.owner_id == bindparam("owner_id"), GAMES.c.winner.is_not(None))
    .order_by(GAMES.c.finished_at.desc(), GAMES.c.id.desc())
)


def _finished(db: Connection, player_id: int, players: int | None = None) -> list[board.Finished]:
    """The games over that ``player_id`` kept (of ``players`` players), the latest first."""
    query = _FINISHED
    if players is not None:
        same = [name for name, rules in RULESETS.items() if rules.players == players]
        query = query.where(GAMES.c.rules.in_(same))
    finished = []
    rows = db.execute(query, {"owner_id": player_id})
    for rules, names, length, double_skunk, winner, scores in rows:
        # a game stored before the double skunk was set up counts it as the rule books do
        counted = {} if double_skunk is None else {"double_skunk_games": double_skunk}
        setup = Setup(get_rules(rules), tuple(names), length=length, **counted)
        finished.append((setup, Result(winner, tuple(scores), length, setup.double_skunk_games)))
    return finished


_FINISHED_STAMP = select(func.count(), func.max(GAMES.c.finished_at)).where(
    GAMES.c.owner_id == bindparam("owner_id"), GAMES.c.winner.is_not(None)
)
_MATCHES: dict[tuple[Any, ...], board.Match] = {}
_MATCHES_LOCK = threading.Lock()


def match(db: Connection, player_id: int, setup: Setup) -> board.Match:
    """The match between ``setup``'s players: the games over that ``player_id`` kept of them.

    Worked out again only when the player has finished a game since (one indexed count a move,
    not a read of every game he kept: a keeper of many games would make each move dear).
    """
    stamp = tuple(db.execute(_FINISHED_STAMP, {"owner_id": player_id}).one())
    key = (db.engine.url, player_id, setup, stamp)
    with _MATCHES_LOCK:
        kept = _MATCHES.get(key)
    if kept is None:
        kept = board.Match.of(setup, _finished(db, player_id, setup.players))
        with _MATCHES_LOCK:
            if len(_MATCHES) >= VIEWS_KEPT:
                _MATCHES.clear()
            _MATCHES[key] = kept
    return kept


def matches(db: Connection, player_id: int) -> list[board.Match]:
    """Each match of the games ``player_id`` kept, the one last finished first."""
    return board.matches(_finished(db, player_id))
