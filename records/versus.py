"""Games against the computer, stored: started, resumed, moved on one version at a time, listed.

A game is stored as its set-up and both seats' moves (:meth:`trainer.versus.VersusGame.to_json`)
with a version, the number of saves. A move is saved only onto the version its page saw, as the
board's games are (:mod:`records.games`): two tabs moving at once never lose or double a move.
Each count the player said is also stored as an answered drill of mode ``game``
(:func:`record_claims`), so a game's counts feed the streak, the weak spots and the rating as
drill answers do. Every function is told the time (``now``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Connection, Row, Table, insert, select

from trainer.versus import Claim, VersusGame

from . import drills
from .database import save_on_version, writing
from .errors import GameNotFound
from .models import MAX_ID, ComputerGameRecord

GAMES = cast(Table, ComputerGameRecord.__table__)
GAME_MODE = "game"
"""The mode of the drills a game's counts are stored as."""
THINKING_CAP = 600.0
"""Seconds of thought a count is credited at most (a game left and taken up again)."""

_SAVE = save_on_version(GAMES)


@dataclasses.dataclass(frozen=True)
class StoredGame:
    """A game against the computer as stored."""

    id: int
    player_id: int
    version: int
    """Saves so far: the version a page moves from."""
    data: dict[str, Any]
    """The set-up and the moves."""
    updated_at: float
    finished_at: float | None
    won: bool | None
    """Whether the player won, once over."""
    lurch: bool
    scores: tuple[int, int]
    """The player's score, then the computer's."""
    gave_away: float | None
    """What the review says the player gave away, once over."""

    @classmethod
    def of(cls, row: Row[Any]) -> StoredGame:
        """The game a row holds."""
        return cls(
            row.id,
            row.player_id,
            row.version,
            row.data,
            row.updated_at,
            row.finished_at,
            row.won,
            bool(row.lurch),
            (int(row.scores[0]), int(row.scores[1])),
            row.gave_away,
        )

    def game(self) -> VersusGame:
        """The game, replayed from its moves."""
        return VersusGame.from_json(self.data)


def _stored(game: VersusGame, now: float) -> dict[str, Any]:
    """What is kept of a game: its moves and, once over, its result and the review's total."""
    winner = game.match.winner
    over = winner is not None
    review = game.review() if over else None
    return {
        "data": game.to_json(),
        "finished_at": now if over else None,
        "won": None if winner is None else winner == 0,
        "lurch": game.lurched,
        "scores": list(game.match.scores),
        "gave_away": None if review is None else review.discard_points + review.overlooked_points,
    }


def start(db: Connection, player_id: int, game: VersusGame, *, now: float) -> StoredGame:
    """Store a new game of ``player_id``'s."""
    values = {
        "player_id": player_id,
        "rules": game.rules.name,
        "version": 0,
        "created_at": now,
        "updated_at": now,
        **_stored(game, now),
    }
    with writing(db) as connection:
        return StoredGame.of(connection.execute(insert(GAMES).returning(*GAMES.c), values).one())


def get(db: Connection, player_id: int, game_id: int) -> StoredGame:
    """The player's game ``game_id``.

    Raises:
        GameNotFound: no such game, or another player's.
    """
    if not 0 < game_id <= MAX_ID:
        raise GameNotFound(game_id)
    row = db.execute(
        select(GAMES).where(GAMES.c.id == game_id, GAMES.c.player_id == player_id)
    ).first()
    if row is None:
        raise GameNotFound(game_id)
    return StoredGame.of(row)


def in_progress(db: Connection, player_id: int) -> StoredGame | None:
    """The player's latest game not yet over: the one the page resumes."""
    row = db.execute(
        select(GAMES)
        .where(GAMES.c.player_id == player_id, GAMES.c.finished_at.is_(None))
        .order_by(GAMES.c.updated_at.desc(), GAMES.c.id.desc())
        .limit(1)
    ).first()
    return None if row is None else StoredGame.of(row)


def finished(db: Connection, player_id: int, limit: int = 20) -> list[StoredGame]:
    """The player's games that are over, the latest first."""
    rows = db.execute(
        select(GAMES)
        .where(GAMES.c.player_id == player_id, GAMES.c.finished_at.is_not(None))
        .order_by(GAMES.c.finished_at.desc(), GAMES.c.id.desc())
        .limit(limit)
    )
    return [StoredGame.of(row) for row in rows]


def save(
    db: Connection,
    stored: StoredGame,
    game: VersusGame,
    claims: Sequence[Claim],
    *,
    day: str,
    now: float,
) -> StoredGame | None:
    """Store ``game`` as the next version of ``stored``, if it is still at that version.

    The ``claims`` the move brought are then stored as answered drills (:func:`record_claims`).

    Returns:
        The game saved, or ``None`` when another move was saved since (nothing is).
    """
    values = {"updated_at": now, **_stored(game, now)}
    with writing(db) as connection:
        saved = connection.execute(
            _SAVE.values(**values), {"game_id": stored.id, "seen": stored.version}
        ).first()
    if saved is None:
        return None
    thought = max(0.0, min(THINKING_CAP, now - stored.updated_at))
    record_claims(db, stored.player_id, claims, day=day, dealt_at=now - thought, now=now)
    return StoredGame.of(saved)


def record_claims(
    db: Connection,
    player_id: int,
    claims: Sequence[Claim],
    *,
    day: str,
    dealt_at: float,
    now: float,
) -> None:
    """Store each count the player said as a drill of mode :data:`GAME_MODE`, answered.

    Only the counts a drill can be of are kept (the five-card game's three-card hands are not:
    the drills count four).
    """
    for claim in claims:
        if claim.drill.kind != "pegging" and len(claim.drill.cards) != 4:
            continue
        dealt = drills.deal_given(
            db, player_id, claim.drill, now=dealt_at, per_minute=0, mode=GAME_MODE
        )
        drills.answer(db, dealt.id, player_id, {"points": claim.claimed}, day=day, now=now)
