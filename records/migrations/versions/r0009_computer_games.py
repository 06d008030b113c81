"""Games against the computer: each game's moves, its result and what the player gave away.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``computer_games``."""
    op.create_table(
        "computer_games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("rules", sa.String(12), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.Column("finished_at", sa.Double()),
        sa.Column("won", sa.Boolean()),
        sa.Column("lurch", sa.Boolean(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("gave_away", sa.Double()),
    )
    op.create_index(
        "ix_computer_games_player_updated", "computer_games", ["player_id", "updated_at"]
    )


def downgrade() -> None:
    """Drop ``computer_games``."""
    op.drop_table("computer_games")
