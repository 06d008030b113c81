"""Players get a session version (bumped to revoke every session of the player).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``players.session_version``, 0 for every existing player."""
    op.add_column(
        "players",
        sa.Column("session_version", sa.Integer(), nullable=False, server_default="0"),
    )


def downgrade() -> None:
    """Drop ``players.session_version``."""
    with op.batch_alter_table("players") as batch:
        batch.drop_column("session_version")
