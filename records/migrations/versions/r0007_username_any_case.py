"""A username is one name in any case: ``Vic`` and ``vic`` are the same player.

Names were unique as typed, while the log-in limits compared them in lower case: ``vic``
registered beside ``Vic`` was let past the limits on ``Vic`` by its own device cookie (attack
round 3, finding 5). From here a unique index on ``lower(username)`` keeps one account a name
in every case (on SQLite and PostgreSQL alike: names are ASCII, where both lower the same way).

Twins made before it are kept, all of them: the oldest (the lowest id, registered first) keeps
its name, and each younger one is renamed to the name with ``-2`` after it (``-3``... where
that is taken too, in any case; shortened to stay within 40 characters), keeping its password,
its progress and its sessions (a browser signed in stays signed in); its player logs in with
the new name from then on (docs/security.md says so).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

INDEX = "uq_players_username_lower"
NAME_LENGTH = 40

_players = sa.table("players", sa.column("id", sa.Integer), sa.column("username", sa.String))


def renamed_twins(accounts: list[tuple[int, str]]) -> dict[int, str]:
    """The new names of the younger twins among ``accounts`` (id, name), oldest first.

    >>> renamed_twins([(1, "Vic"), (2, "alice"), (3, "vic"), (4, "VIC"), (5, "vic-3")])
    {3: 'vic-2', 4: 'VIC-4'}
    """
    taken = {name.lower() for _, name in accounts}
    kept: set[str] = set()
    renamed = {}
    for player_id, name in accounts:
        if name.lower() not in kept:
            kept.add(name.lower())
            continue
        number = 2
        while True:
            suffix = f"-{number}"
            candidate = name[: NAME_LENGTH - len(suffix)] + suffix
            if candidate.lower() not in taken:
                break
            number += 1
        taken.add(candidate.lower())
        renamed[player_id] = candidate
    return renamed


def upgrade() -> None:
    """Rename the younger twins, then index ``lower(username)``, unique."""
    connection = op.get_bind()
    accounts = connection.execute(
        sa.select(_players.c.id, _players.c.username)
        .where(_players.c.username.is_not(None))
        .order_by(_players.c.id)
    ).all()
    renamed = renamed_twins([(player_id, name) for player_id, name in accounts])
    if renamed:
        connection.execute(
            sa.update(_players)
            .where(_players.c.id == sa.bindparam("player_id"))
            .values(username=sa.bindparam("name")),
            [{"player_id": player_id, "name": name} for player_id, name in renamed.items()],
        )
    op.create_index(INDEX, "players", [sa.text("lower(username)")], unique=True)


def downgrade() -> None:
    """Drop the index (the renamed twins keep their new names)."""
    op.drop_index(INDEX, table_name="players")
