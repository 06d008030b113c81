"""Rate-limit counts in the database, shared by every worker and server using it.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``rate_counts``."""
    op.create_table(
        "rate_counts",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Double(), nullable=False),
    )


def downgrade() -> None:
    """Drop ``rate_counts``."""
    op.drop_table("rate_counts")
