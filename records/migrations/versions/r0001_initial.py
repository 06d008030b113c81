"""The schema as ``create_all`` made it before Alembic: players, drills, answers, skills.

A database made before migrations existed holds exactly this; ``crib db upgrade`` marks such a
database as at this revision (without running it) and upgrades it from here.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables and their indexes."""
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("username", sa.String(40), unique=True),
        sa.Column("password_hash", sa.String(256)),
        sa.Column("created_at", sa.Double(), nullable=False),
    )
    op.create_table(
        "drills",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("difficulty", sa.String(10), nullable=False),
        sa.Column("deal", sa.JSON(), nullable=False),
        sa.Column("categories", sa.String(300), nullable=False),
        sa.Column("dealt_at", sa.Double(), nullable=False),
        sa.Column("daily_date", sa.String(10)),
        sa.Column("position", sa.Integer()),
        sa.Column("repeat", sa.Integer(), nullable=False),
        sa.UniqueConstraint("player_id", "daily_date", "position"),
    )
    op.create_index("ix_drills_player_id", "drills", ["player_id"])
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "drill_id",
            sa.Integer(),
            sa.ForeignKey("drills.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("correct", sa.Boolean(), nullable=False),
        sa.Column("claimed", sa.Double(), nullable=False),
        sa.Column("total", sa.Double(), nullable=False),
        sa.Column("seconds", sa.Double(), nullable=False),
        sa.Column("answered_at", sa.Double(), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("given", sa.JSON(), nullable=False),
        sa.Column("missed", sa.String(300), nullable=False),
        sa.Column("review_at", sa.Double()),
    )
    op.create_index("ix_answers_player_day", "answers", ["player_id", "day"])
    op.create_index("ix_answers_player_review", "answers", ["player_id", "review_at"])
    op.create_table(
        "skills",
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("category", sa.String(30), primary_key=True),
        sa.Column("seen", sa.Integer(), nullable=False),
        sa.Column("missed", sa.Integer(), nullable=False),
        sa.Column("seconds", sa.Double(), nullable=False),
    )


def downgrade() -> None:
    """Drop the four tables."""
    for table in ("skills", "answers", "drills", "players"):
        op.drop_table(table)
