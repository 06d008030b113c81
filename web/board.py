"""Keep a game's score at the table: the board's pages, and its JSON under ``/api/games``.

The rules are :mod:`trainer.game`'s, the moves read by :mod:`trainer.board`, the games stored by
:mod:`records.games`. ``/board/<code>`` is the game's link: any phone opens it and watches,
polling ``GET /api/games/<code>`` (a 304 while nothing moved, one indexed read). The keeper (the
player who set the game up, or a phone given the keeper's key) moves the pegs with ``POST
/api/games/<code>/moves``; each move carries the version its page saw, and one made on a board
that moved on since is refused (409) with the board as it is.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint, Response, abort, make_response, render_template, request

from records import games
from trainer import board
from trainer.game import Game
from trainer.rules import RULESETS

from . import clock, limits
from .db import get_db
from .players import as_player, current_player, session_player_id
from .request_data import cap_body, json_body

bp = Blueprint("board", __name__)
bp.before_request(cap_body)

STALE = (
    "The board moved on since this phone last saw it (another phone moved a peg):"
    " here it is as it is now. Make the move again if it is still to be made."
)


@bp.get("/board")
def index() -> str:
    """Set up a game; the games this player keeps, their results, the games won, the matches."""
    player = current_player()
    if player is None:
        return render_template("board/index.html", kept=[], matches=[], rulesets=RULESETS)
    db = get_db()
    return render_template(
        "board/index.html",
        kept=games.of_player(db, player.id),
        record=games.record(db, player.id),
        matches=games.matches(db, player.id),
        rulesets=RULESETS,
    )


@bp.get("/board/<code>")
def page(code: str) -> str:
    """The game's board, kept by its keeper and watched by everyone with the link."""
    if games.version(get_db(), code) is None:
        abort(404, "No game has this link: check it with the game's keeper.")
    return render_template("board/board.html", code=code)


@bp.post("/api/games")
@limits.new_games
def create() -> tuple[dict[str, Any], int]:
    """Set up a game (:func:`trainer.board.new_game`), ``"seat"`` the keeper's own, if any."""
    data = json_body()
    game = board.new_game(data)
    seat = data.get("seat")
    whole = isinstance(seat, int) and not isinstance(seat, bool)
    if seat is not None and not (whole and seat in range(game.setup.players)):
        abort(400, f"your seat is one of the players' (0 to {game.setup.players - 1}), or none")
    row = as_player(
        lambda db, player: games.create(db, game, owner_id=player, seat=seat, now=clock.now())
    )
    return _board(row, keeper=True, game=game), 201


@bp.get("/api/games/<code>")
def show(code: str) -> Any:
    """The board as it is; a 304 to a page that has this version (``If-None-Match``)."""
    version = games.version(get_db(), code)
    if version is None:
        abort(404, "No game has this link.")
    if request.if_none_match.contains(str(version)):
        return _conditional(Response(status=304), version)
    row = games.get(get_db(), code)
    assert row is not None
    return _conditional(_board(row, keeper=_keeper(row, None)), row.version)


@bp.post("/api/games/<code>/moves")
@limits.game_moves
def move(code: str) -> Any:
    """A move (:func:`trainer.board.apply`) on the version seen, by the keeper (or ``"key"``).

    The body: ``{"version": 7, "move": "peg", "seat": 0, "points": 2, "reason": "pair"}``.
    """
    data = json_body()
    row = games.get(get_db(), code)
    if row is None:
        abort(404, "No game has this link.")
    if not _keeper(row, data.get("key")):
        abort(403, "Only the game's keeper moves its pegs: open the keeper's link on this phone.")
    seen = data.get("version")
    if not isinstance(seen, int) or isinstance(seen, bool):
        abort(400, "send the board's 'version' this page saw with each move")
    if seen == row.version:
        game = board.apply(games.game_of(get_db(), row), data)  # refused: a 400 saying why
        saved = games.save(get_db(), row, game, seen=seen, now=clock.now())
        if saved is not None:
            return _board(saved, keeper=True, game=game)
        row = games.get(get_db(), code)
        assert row is not None
    return {"error": STALE, "board": _board(row, keeper=True)}, 409


def _keeper(row: games.StoredBoard, key: object) -> bool:
    """Whether this request keeps the game: its keeper's session, or the keeper's key."""
    if isinstance(key, str):
        return secrets.compare_digest(key.encode(), row.key.encode())
    return row.owner_id is not None and row.owner_id == session_player_id()


def _board(row: games.StoredBoard, *, keeper: bool, game: Game | None = None) -> dict[str, Any]:
    """The board as the page draws it, with its link, its version and, to the keeper, the key."""
    mine = {"keeper": keeper, "seat": row.seat} | ({"key": row.key} if keeper else {})
    return {"code": row.code, "version": row.version} | _view(row, game) | mine


_VIEWS: games.Kept[dict[str, Any]] = games.Kept(games.VIEWS_KEPT)


def _view(row: games.StoredBoard, game: Game | None) -> dict[str, Any]:
    """The board of ``row``'s game (:func:`trainer.board.view`) with its match, once a version.

    A game's code and version name its moves, so each process says a board once however many
    phones watch it (a watched game's board is asked for by each of them after each move).
    ``game`` is the game ``row`` holds, when the caller has it. The match (the games over
    between its players that its keeper kept, this one among them once over) is ``None``
    while there are none. The board is shared: not to be changed.
    """
    key = (row.code, row.version)
    said = _VIEWS.get(key)
    if said is None:
        game = games.game_of(get_db(), row) if game is None else game
        match = None if row.owner_id is None else games.match(get_db(), row.owner_id, game.setup)
        shown = match.to_json() if match is not None and match.played else None
        said = _VIEWS.keep(key, board.view(game) | {"match": shown})
    return said


def _conditional(response: Response | dict[str, Any], version: int) -> Response:
    """``response`` tagged with the board's version, to be asked again (not cached as is)."""
    reply = make_response(response)
    reply.set_etag(str(version))
    reply.headers["Cache-Control"] = "no-cache, private"
    reply.vary.add("Cookie")
    return reply
