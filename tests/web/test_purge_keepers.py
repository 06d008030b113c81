"""The hourly purge keeps a guest who keeps a board (attack round 4, finding 6).

Before, it looked only at the guest's drills and answers: a guest moving the pegs of its game
once a day was deleted after 30 days, and the keeper's moves got 403 from then on.
"""

from __future__ import annotations

import time

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

import records.drills
from records.database import writing
from records.drills import GUEST_IDLE_FOR
from records.models import GameRecord, Player
from web.db import get_db

from .conftest import AuthActions
from .test_board import move, moved, new_game


def _age_everything(app: Flask, seconds: float) -> None:
    """Make every player and game ``seconds`` older (made, and last moved)."""
    with app.app_context(), writing(get_db()) as connection:
        connection.execute(update(Player).values(created_at=Player.created_at - seconds))
        connection.execute(
            update(GameRecord).values(
                created_at=GameRecord.created_at - seconds,
                updated_at=GameRecord.updated_at - seconds,
            )
        )


def test_a_guest_keeping_a_board_is_not_purged(app: Flask) -> None:
    """Two guests set up a game each 30 days ago; one moved its pegs today. The purge deletes
    the other guest and its game, idle as long (finding 8: games were never purged), and keeps
    the keeper, who moves on (the newest player, never purged, is a third)."""
    keeper, idle = app.test_client(), app.test_client()
    kept_game, idle_game = new_game(keeper), new_game(idle)
    _age_everything(app, GUEST_IDLE_FOR + 1)
    kept_game = moved(keeper, kept_game, move="peg", seat=0, points=2)
    assert app.test_client().get("/api/drills/next").status_code == 200  # the newest player
    with app.app_context():
        # the deal just made ran the hourly purge first: the idle game went then, and its
        # guest (then the newest player, never purged) goes now
        assert records.drills.purge(get_db(), time.time()) == (0, 1, 0)
        owners = list(get_db().scalars(select(GameRecord.owner_id)))
    assert len(owners) == 1 and owners[0] is not None
    assert move(keeper, kept_game, move="peg", seat=1, points=3).status_code == 200
    assert idle.get(f"/api/games/{idle_game['code']}").status_code == 404


def test_a_registered_players_idle_games_are_his_history(
    app: Flask, client: FlaskClient, auth: AuthActions
) -> None:
    """A game no one moved for 30 days goes with its guest; a registered player's stays."""
    auth.register()
    kept = new_game(client)
    _age_everything(app, GUEST_IDLE_FOR + 1)
    with app.app_context():
        assert records.drills.purge(get_db(), time.time())[2] == 0
    assert client.get(f"/api/games/{kept['code']}").status_code == 200
