"""The tables: players, the drills dealt to them, their answers, per-category tallies, ratings."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, func
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MAX_ID = 2**31 - 1
"""The largest id an ``INTEGER`` key holds everywhere (32 bits in PostgreSQL): an id beyond it
names no row (asked for, it is not found, not an error of the database)."""


class Base(DeclarativeBase):
    """The declarative base of every table."""


class Player(Base):
    """A guest (no username) or a registered player."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str | None] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(256))
    created_at: Mapped[float]
    session_version: Mapped[int] = mapped_column(default=0, server_default="0")
    """Bumped to revoke every session of this player (log out, register, password change):
    a session carrying another version is no longer this player's."""
    session_key: Mapped[str] = mapped_column(
        String(32), default=lambda: secrets.token_hex(16), server_default=""
    )
    """A random secret given when the player is made: a session must carry it, so the saved
    cookie of a deleted player (a guest merged into an account) matches nobody who is given its
    id later."""


Index("uq_players_username_lower", func.lower(Player.username), unique=True)
"""A username is taken in every case: ``Vic`` and ``vic`` are one player (revision 0007)."""


class Drill(Base):
    """One deal given to one player; ``deal`` is :meth:`trainer.dealing.Deal.to_json`."""

    __tablename__ = "drills"
    __table_args__ = (UniqueConstraint("player_id", "daily_date", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    mode: Mapped[str] = mapped_column(String(10))
    """``practice``, ``sprint``, ``daily`` or ``review`` (a missed deal dealt again)."""
    difficulty: Mapped[str] = mapped_column(String(10))
    deal: Mapped[dict[str, Any]] = mapped_column(JSON)
    categories: Mapped[str] = mapped_column(String(300))
    """Comma-separated :class:`trainer.dealing.Category` values."""
    dealt_at: Mapped[float]
    daily_date: Mapped[str | None] = mapped_column(String(10))
    position: Mapped[int | None]
    repeat: Mapped[int] = mapped_column(default=0)
    """How many times this deal was dealt before (spaced repetition)."""


class Answer(Base):
    """The one answer to a drill, stored the moment it is given."""

    __tablename__ = "answers"
    __table_args__ = (
        Index("ix_answers_player_day", "player_id", "day"),
        Index("ix_answers_player_review", "player_id", "review_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    drill_id: Mapped[int] = mapped_column(ForeignKey("drills.id", ondelete="CASCADE"), unique=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(10))
    correct: Mapped[bool]
    claimed: Mapped[float]
    total: Mapped[float]
    seconds: Mapped[float]
    answered_at: Mapped[float]
    day: Mapped[str] = mapped_column(String(10))
    given: Mapped[dict[str, Any]] = mapped_column(JSON)
    missed: Mapped[str] = mapped_column(String(300), default="")
    """Comma-separated categories this answer missed (a subset of the drill's)."""
    review_at: Mapped[float | None]
    """When a missed deal is due again; cleared once it is dealt again."""
    kind_rating: Mapped[float | None]
    """The player's counting rating in this kind after this answer (none before 0008)."""
    overall_rating: Mapped[float | None]
    """The player's overall counting rating after this answer: its trend, day by day."""


class Skill(Base):
    """A player's running tally for one category (answers, misses, seconds)."""

    __tablename__ = "skills"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    category: Mapped[str] = mapped_column(String(30), primary_key=True)
    seen: Mapped[int] = mapped_column(default=0)
    missed: Mapped[int] = mapped_column(default=0)
    seconds: Mapped[float] = mapped_column(default=0.0)


class PlayerRating(Base):
    """A player's counting rating in one kind of drill, or ``overall`` (:mod:`records.ratings`)."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(10), primary_key=True)
    rating: Mapped[float]
    deviation: Mapped[float]
    volatility: Mapped[float]
    answers: Mapped[int]
    """Answers that moved it."""


class DealRating(Base):
    """A deal class's difficulty (:func:`trainer.counting_rating.deal_class`), moved by answers."""

    __tablename__ = "deal_ratings"

    deal_class: Mapped[str] = mapped_column(String(20), primary_key=True)
    rating: Mapped[float]
    deviation: Mapped[float]
    volatility: Mapped[float]
    answers: Mapped[int]


class RateCount(Base):
    """One rate limit's count for one key in its current window (:mod:`records.limit_storage`)."""

    __tablename__ = "rate_counts"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The SHA-256 (hex) of the limit and what it counts: ``LIMITER/account/20/1/minute/ADDR``."""
    count: Mapped[int]
    expires_at: Mapped[float] = mapped_column(index=True)
    """When the window ends and the count starts again from nothing (indexed: the clean-up)."""


class GameRecord(Base):
    """A game's score kept at the table (:mod:`records.games`): its set-up, its result once over."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_owner_updated", "owner_id", "updated_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(16), unique=True)
    """The game's link: whoever has it watches the board."""
    key: Mapped[str] = mapped_column(String(32))
    """The keeper's secret: a phone given it (the keeper's link) may move the pegs."""
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    """The player who set the game up and keeps it (the game outlives a purged guest)."""
    seat: Mapped[int | None]
    """The owner's seat, when the owner plays in the game: the games won and lost count it."""
    side: Mapped[int | None]
    """The side the owner's seat pegs on."""
    rules: Mapped[str] = mapped_column(String(12))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The set-up, as :meth:`trainer.game.Setup.to_json` gives it (the moves are rows of
    ``game_moves``)."""
    version: Mapped[int]
    """Moves saved so far: a move is saved only onto the version its page saw."""
    moves: Mapped[int] = mapped_column(default=0, server_default="0")
    """The moves stored: ``game_moves`` numbers them from 0 (rows past them are none)."""
    rewritten: Mapped[int] = mapped_column(default=0, server_default="0")
    """The version of the last save that took stored moves back or changed them (0: none did):
    the moves of an earlier version are the first of those stored when it is at least this."""
    created_at: Mapped[float]
    updated_at: Mapped[float]
    finished_at: Mapped[float | None]
    winner: Mapped[int | None]
    """The side that won, once the game is over."""
    lurch: Mapped[bool]
    scores: Mapped[list[int]] = mapped_column(JSON)
    """Each side's score."""


class GameMove(Base):
    """One move of a game kept at the table: a move saved writes its own row, not every move."""

    __tablename__ = "game_moves"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(primary_key=True)
    """The move's place among the game's moves, from 0."""
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The move, as :meth:`trainer.game.Game.moves_json` gives it."""


class ComputerGameRecord(Base):
    """A game against the computer (:mod:`records.versus`): its moves, its result once over."""

    __tablename__ = "computer_games"
    __table_args__ = (Index("ix_computer_games_player_updated", "player_id", "updated_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    """The player playing the computer."""
    rules: Mapped[str] = mapped_column(String(12))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The set-up and both seats' moves, as :meth:`trainer.versus.VersusGame.to_json` gives."""
    version: Mapped[int]
    """Moves saved so far: a move is saved only onto the version its page saw."""
    created_at: Mapped[float]
    updated_at: Mapped[float]
    finished_at: Mapped[float | None]
    won: Mapped[bool | None]
    """Whether the player won, once the game is over."""
    lurch: Mapped[bool]
    scores: Mapped[list[int]] = mapped_column(JSON)
    """The player's score and the computer's."""
    gave_away: Mapped[float | None]
    """Points the player gave away (the review's total), once the game is over."""
