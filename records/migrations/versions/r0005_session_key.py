"""Players get a session key: a random secret every session of the player must carry.

A player's id can be given again after the player is deleted (SQLite reuses the highest id,
and a guest merged into an account is deleted), so a session naming an id alone could sign a
deleted player's saved cookie in to whoever got the id next. Every existing player gets a key
of its own here; cookies signed before this revision carry none and are let in once only when
signed after their player was made (:mod:`records.players`), then carry the key.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_players = sa.table("players", sa.column("id", sa.Integer), sa.column("session_key", sa.String))


def upgrade() -> None:
    """Add ``players.session_key`` and give every existing player a random one."""
    op.add_column(
        "players",
        sa.Column("session_key", sa.String(32), nullable=False, server_default=""),
    )
    connection = op.get_bind()
    ids = connection.execute(sa.select(_players.c.id)).scalars().all()
    if ids:
        connection.execute(
            sa.update(_players)
            .where(_players.c.id == sa.bindparam("player_id"))
            .values(session_key=sa.bindparam("key")),
            [{"player_id": player_id, "key": secrets.token_hex(16)} for player_id in ids],
        )


def downgrade() -> None:
    """Drop ``players.session_key``."""
    with op.batch_alter_table("players") as batch:
        batch.drop_column("session_key")
