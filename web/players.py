"""Who plays on this browser: the session's player, checked once a request, a guest on demand.

A session names its player, the player's session key and its session version
(:mod:`records.players`); every request checks both against the database (one query, its
answer kept on ``g``). The key is a random secret the player is given when made, so the saved
cookie of a deleted player (a guest merged into an account on log-in) signs nobody in who gets
its id later. Logging out, registering or changing the password bumps the version, so a copy
of an older cookie (a shared computer's, a stolen one, the guest's before it registered) no
longer signs anybody in. Logging out therefore ends the account's sessions on every device.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, g, request, session
from sqlalchemy import Connection, Row

from records import players
from records.errors import PlayerGone

from . import clock, limits, sessions
from .db import get_db

T = TypeVar("T")


def session_player_id() -> int | None:
    """This browser's player id, checked once a request (one query; the answer kept on ``g``).

    A revoked session (its version behind the player's, its key another's, or the player
    gone) is forgotten.
    """
    if "player_id" not in g:
        player_id = session.get("player_id")
        if player_id is not None:
            player = players.session_of(get_db(), player_id)
            if player is None or not _session_is_of(player):
                session.clear()
                player_id = None
        g.player_id = player_id
    return None if g.player_id is None else int(g.player_id)


def _session_is_of(player: Row[int, str, float]) -> bool:
    """Whether this browser's session belongs to ``player`` (the row its id names).

    It must carry the player's key and current version. A cookie signed before players had
    keys (schema revision 0005) carries none: it is the player's only if signed after the
    player was made (a deleted player's cookie was signed before its id was given again), and
    it carries the key from now on.
    """
    if player.session_version != session.get("version", 0):
        return False
    key = session.get("key")
    if key is not None:
        return isinstance(key, str) and secrets.compare_digest(
            key.encode(), player.session_key.encode()
        )
    signed_at = getattr(session, "signed_at", None)
    if not player.session_key or signed_at is None or signed_at < math.floor(player.created_at):
        return False
    session["key"] = player.session_key
    return True


def _new_guest() -> int:
    """Make a guest player for this browser.

    Raises:
        werkzeug.exceptions.TooManyRequests: this address made too many guests.
    """
    limits.new_guest()
    player = players.new_guest(get_db(), clock.now())
    play_as(player)
    return int(player.id)


def as_player(work: Callable[[Connection, int], T]) -> T:
    """Run ``work(db, player_id)`` for this browser's player, making a guest on a first visit.

    The session was checked once for this request (:func:`session_player_id`), not again here;
    if its player is gone since (a new database), the work is redone for a new guest
    (:func:`records.players.run_as` finds it gone).
    """
    db = get_db()
    player_id = session_player_id()
    if player_id is None:
        return work(db, _new_guest())
    try:
        return players.run_as(db, player_id, work)
    except PlayerGone:
        return work(db, _new_guest())


def current_player() -> players.PlayerRecord | None:
    """The player on this browser, if any (guests included); no guest is created."""
    player_id = session_player_id()
    return None if player_id is None else players.get(get_db(), player_id)


def play_as(player: players.PlayerRecord) -> None:
    """This browser (and this request) now plays as ``player``."""
    session.permanent = True
    session["player_id"] = player.id
    session["version"] = player.session_version
    session["key"] = player.session_key
    g.player_id = player.id


def sign_in(player: players.PlayerRecord) -> None:
    """This browser now plays as the registered ``player``, in a fresh session.

    It is known for the name from now on: its device cookie lets it past the log-in limits.
    """
    session.clear()
    play_as(player)
    session["username"] = player.username
    sessions.remember_device(player)


def sign_out() -> None:
    """Forget the player on this browser (its sessions elsewhere are the caller's business)."""
    session.clear()
    g.player_id = None


def _check_session() -> None:
    """Check this browser's session before the view runs (the page shows who is signed in)."""
    if request.endpoint != "static":
        session_player_id()


def init_app(app: Flask) -> None:
    """Check each request's session before its view runs."""
    app.before_request(_check_session)
