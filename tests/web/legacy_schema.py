"""The schema as the trainer made it before migrations (``create_all`` of what is now
``records/models.py``, at commit f7720f0), frozen here so the upgrade from it stays tested
whatever the models become."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
)

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("username", String(40), unique=True),
    Column("password_hash", String(256)),
    Column("created_at", Double, nullable=False),
)
drills = Table(
    "drills",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "player_id",
        Integer,
        ForeignKey("players.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("kind", String(10), nullable=False),
    Column("mode", String(10), nullable=False),
    Column("difficulty", String(10), nullable=False),
    Column("deal", JSON, nullable=False),
    Column("categories", String(300), nullable=False),
    Column("dealt_at", Double, nullable=False),
    Column("daily_date", String(10)),
    Column("position", Integer),
    Column("repeat", Integer, nullable=False, default=0),
    UniqueConstraint("player_id", "daily_date", "position"),
)
answers = Table(
    "answers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column(
        "drill_id",
        Integer,
        ForeignKey("drills.id", ondelete="CASCADE"),
        nullable=False,
        unique=True,
    ),
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(10), nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("claimed", Double, nullable=False),
    Column("total", Double, nullable=False),
    Column("seconds", Double, nullable=False),
    Column("answered_at", Double, nullable=False),
    Column("day", String(10), nullable=False),
    Column("given", JSON, nullable=False),
    Column("missed", String(300), nullable=False, default=""),
    Column("review_at", Double),
    Index("ix_answers_player_day", "player_id", "day"),
    Index("ix_answers_player_review", "player_id", "review_at"),
)
skills = Table(
    "skills",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("category", String(30), primary_key=True),
    Column("seen", Integer, nullable=False, default=0),
    Column("missed", Integer, nullable=False, default=0),
    Column("seconds", Double, nullable=False, default=0.0),
)
