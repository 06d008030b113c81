"""The counting rating: the players', the deal classes', and the rating after each answer.

Each player's rating per kind of drill and overall, each deal class's difficulty, and the
ratings after each answer (the trend).

Answers given before it carry no rating: the ratings start from the next answer.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_GLICKO = ("rating", "deviation", "volatility")


def _glicko_columns() -> list[sa.Column[float | int]]:
    return [sa.Column(name, sa.Double(), nullable=False) for name in _GLICKO] + [
        sa.Column("answers", sa.Integer(), nullable=False)
    ]


def upgrade() -> None:
    """Create ``ratings`` and ``deal_ratings``; add the ratings after each answer."""
    op.create_table(
        "ratings",
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("kind", sa.String(10), primary_key=True),
        *_glicko_columns(),
    )
    op.create_table(
        "deal_ratings", sa.Column("deal_class", sa.String(20), primary_key=True), *_glicko_columns()
    )
    op.add_column("answers", sa.Column("kind_rating", sa.Double()))
    op.add_column("answers", sa.Column("overall_rating", sa.Double()))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("answers") as answers:
        answers.drop_column("overall_rating")
        answers.drop_column("kind_rating")
    op.drop_table("deal_ratings")
    op.drop_table("ratings")
