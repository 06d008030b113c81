"""A board's moves as rows of their own: a move saved writes its row, not every move again.

Each game's moves leave ``games.data`` (which keeps the set-up) for ``game_moves``, numbered
from 0; ``games.moves`` counts them, and ``games.rewritten`` is the version of the last save
that took stored moves back (none yet: 0).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_games = sa.table(
    "games", sa.column("id", sa.Integer()), sa.column("data", sa.JSON()), sa.column("moves")
)
_game_moves = sa.table(
    "game_moves", sa.column("game_id"), sa.column("number"), sa.column("move", sa.JSON())
)


def _data(connection: sa.Connection, game_id: int) -> dict[str, Any]:
    """Game ``game_id``'s ``data`` (read a game at a time: a game may hold 1,000 moves)."""
    data: dict[str, Any] = connection.execute(
        sa.select(_games.c.data).where(_games.c.id == game_id)
    ).scalar_one()
    return data


def upgrade() -> None:
    """Create ``game_moves``, add ``games.moves`` and ``games.rewritten``; move the moves."""
    op.create_table(
        "game_moves",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("move", sa.JSON(), nullable=False),
    )
    op.add_column("games", sa.Column("moves", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("games", sa.Column("rewritten", sa.Integer(), nullable=False, server_default="0"))
    connection = op.get_bind()
    for game_id in connection.scalars(sa.select(_games.c.id)).all():
        data = _data(connection, game_id)
        moves = data.pop("moves")
        if moves:
            rows = [{"game_id": game_id, "number": n, "move": m} for n, m in enumerate(moves)]
            connection.execute(sa.insert(_game_moves), rows)
        stored = {"data": data, "moves": len(moves)}
        connection.execute(sa.update(_games).where(_games.c.id == game_id).values(stored))


def downgrade() -> None:
    """Put each game's moves back into ``games.data``; drop what the upgrade added."""
    connection = op.get_bind()
    for game_id in connection.scalars(sa.select(_games.c.id)).all():
        data = _data(connection, game_id)
        moves = sa.select(_game_moves.c.move).where(_game_moves.c.game_id == game_id)
        data["moves"] = list(connection.scalars(moves.order_by(_game_moves.c.number)))
        connection.execute(sa.update(_games).where(_games.c.id == game_id).values(data=data))
    op.drop_table("game_moves")
    with op.batch_alter_table("games") as games:
        games.drop_column("rewritten")
        games.drop_column("moves")
