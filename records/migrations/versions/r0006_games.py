"""Games kept at the table: each game's moves, its link and its keeper's key, its result.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``games``."""
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("key", sa.String(32), nullable=False),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("players.id", ondelete="SET NULL")),
        sa.Column("seat", sa.Integer()),
        sa.Column("side", sa.Integer()),
        sa.Column("rules", sa.String(12), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("updated_at", sa.Double(), nullable=False),
        sa.Column("finished_at", sa.Double()),
        sa.Column("winner", sa.Integer()),
        sa.Column("lurch", sa.Boolean(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
    )
    op.create_index("ix_games_owner_updated", "games", ["owner_id", "updated_at"])


def downgrade() -> None:
    """Drop ``games``."""
    op.drop_table("games")
