"""Players: a guest at once, registration that keeps the guest's progress, log in and out.

A session names its player, the player's session key and its session version; every request
checks both against the database (one query, its answer kept on ``g``). The key is a random
secret the player is given when made, so the saved cookie of a deleted player (a guest merged
into an account on log-in) signs nobody in who gets its id later. Logging out, registering or
changing the password bumps the version, so a copy of an older cookie (a shared computer's, a
stolen one, the guest's before it registered) no longer signs anybody in. Logging out
therefore ends the account's sessions on every device.
"""

from __future__ import annotations

import functools
import math
import re
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

from flask import (
    Blueprint,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from sqlalchemy import Connection, Row, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from . import limits, sessions, training
from .db import get_db, writing
from .models import Answer, Drill, Player

bp = Blueprint("auth", __name__, url_prefix="/auth")
T = TypeVar("T")

_USERNAME = re.compile(r"[A-Za-z0-9_.-]{3,40}")
PASSWORD_HASH_METHOD = "scrypt"
"""How new passwords are hashed (werkzeug's ``generate_password_hash`` method: scrypt, N=2**15,
r=8, p=1, about 75 ms of a core), unless the app's ``PASSWORD_HASH_METHOD`` setting names
another: stronger parameters (``scrypt:65536:8:1``), or a cheap one for the test suite. Stored
hashes name their method, so a change applies to new passwords and old ones still check."""


_SESSION = select(Player.session_version, Player.session_key, Player.created_at).where(
    Player.id == bindparam("id")
)
_NEW_PLAYER = insert(Player).values(session_version=0).returning(*Player.__table__.c)
_BUMP_VERSION = (
    update(Player)
    .where(Player.id == bindparam("player_id"))
    .values(session_version=Player.session_version + 1)
    .returning(*Player.__table__.c)
)
"""Revoke the player's sessions (and give back the player's row); ``.values()`` adds changes."""


@bp.before_app_request
def _check_session() -> None:
    """Check this browser's session before the view runs (the page shows who is signed in)."""
    if request.endpoint != "static":
        session_player_id()


def session_player_id() -> int | None:
    """This browser's player id, checked once a request (one query; the answer kept on ``g``).

    A revoked session (its version behind the player's, or the player gone) is forgotten.
    """
    if "player_id" not in g:
        player_id = session.get("player_id")
        if player_id is not None:
            player = get_db().execute(_SESSION, {"id": player_id}).first()
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
    with writing(get_db()) as db:
        player = db.execute(_NEW_PLAYER, {"created_at": time.time()}).one()
    _play_as(player)
    return int(player.id)


def as_player(work: Callable[[Connection, int], T]) -> T:
    """Run ``work(db, player_id)`` for this browser's player, making a guest on a first visit.

    The session was checked once for this request (:func:`session_player_id`), not again here;
    if its player is gone since (a new database), the insert's foreign key fails and the work
    is redone for a new guest. Another integrity error (two tabs dealing the same daily set at
    once) is retried once as it is.
    """
    db = get_db()
    player_id = session_player_id()
    if player_id is None:
        return work(db, _new_guest())
    try:
        return work(db, player_id)
    except IntegrityError:  # rolled back (web.db.writing)
        if _player(player_id) is None:
            player_id = _new_guest()
    return work(db, player_id)


def current_player() -> Row[Any] | None:
    """The player on this browser, if any (guests included); no guest is created."""
    player_id = session_player_id()
    return None if player_id is None else _player(player_id)


def _player(player_id: int) -> Row[Any] | None:
    return get_db().execute(select(Player).where(Player.id == player_id)).first()


def _play_as(player: Row[Any]) -> None:
    """This browser (and this request) now plays as ``player``."""
    session.permanent = True
    session["player_id"] = player.id
    session["version"] = player.session_version
    session["key"] = player.session_key
    g.player_id = player.id


def _sign_in(player: Row[Any]) -> None:
    """This browser now plays as the registered ``player``, in a fresh session.

    It is known for the name from now on: its device cookie lets it past the log-in limits.
    """
    session.clear()
    _play_as(player)
    session["username"] = player.username
    sessions.remember_device(player.username or "")


def _password_matches(stored: str, password: str) -> bool:
    """Whether ``password`` hashes to ``stored``; a 503 when too many hashes are running."""
    return limits.HASHING.run(check_password_hash, stored, password)


def _hash_method() -> str:
    return str(current_app.config.get("PASSWORD_HASH_METHOD", PASSWORD_HASH_METHOD))


def _hashed(password: str) -> str:
    """``password``, hashed to be stored; a 503 when too many hashes are running."""
    return limits.HASHING.run(generate_password_hash, password, _hash_method())


def _form_problem(username: str, password: str) -> str | None:
    if not _USERNAME.fullmatch(username):
        return "Username: 3 to 40 letters, digits, dots, dashes or underscores."
    if len(password) < 8:
        return "Password: at least 8 characters."
    return None


@bp.route("/register", methods=("GET", "POST"))
@limits.account_tries
@limits.registrations
@limits.site_registrations
def register() -> str | Response:
    """Register; a guest's progress becomes the new account's."""
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        password = request.form.get("password", "")
        error = _form_problem(username, password) or _claim(username, password)
        if error is None:
            return redirect(url_for("pages.progress"))
        flash(error)
    return render_template("auth/register.html")


def _claim(username: str, password: str) -> str | None:
    """Give this browser's guest (or a new player) the account and sign in; or say why not.

    The unique username is the check, so two registrations racing for one name cannot both
    win (the loser is told it is taken, and its guest is left as it was).
    """
    password_hash = _hashed(password)
    guest = current_player()
    account = {"username": username, "password_hash": password_hash}
    try:
        with writing(get_db()) as db:
            if guest is None or guest.username is not None:
                player = db.execute(_NEW_PLAYER, {"created_at": time.time(), **account}).one()
            else:  # the guest's cookie must not act as the account
                player = db.execute(_BUMP_VERSION.values(**account), {"player_id": guest.id}).one()
    except IntegrityError:
        return f"The username {username!r} is taken."
    _sign_in(player)
    return None


@bp.route("/login", methods=("GET", "POST"))
@limits.account_tries
@limits.failed_logins
@limits.site_failed_logins
def login() -> str | Response:
    """Log in; anything done as a guest on this browser moves to the account."""
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        known = _USERNAME.fullmatch(username)  # no lookup for a name none can have (a NUL...)
        by_name = select(Player).where(Player.username == username)
        player = get_db().execute(by_name).first() if known else None
        stored = player.password_hash if player is not None else None
        password = request.form.get("password", "")
        # an unknown name costs the same hashing time as a known one
        stored = stored or _unknown_user_hash(_hash_method())
        if not _password_matches(stored, password) or player is None:
            flash("Unknown username or wrong password.")
            return render_template("auth/login.html"), 401  # type: ignore[return-value]
        guest = current_player()
        if guest is not None and guest.username is None and guest.id != player.id:
            _merge_guest(guest.id, player.id)
        _sign_in(player)
        return redirect(url_for("pages.home"))
    return render_template("auth/login.html")


@functools.cache
def _unknown_user_hash(method: str) -> str:
    """A hash (by ``method``) to check the passwords of unknown usernames against.

    They then take as long as known ones (75 ms of scrypt against 2 ms told which names exist).
    """
    return generate_password_hash(secrets.token_hex(16), method)


def _merge_guest(guest_id: int, player_id: int) -> None:
    """Move a guest's drills and answers to ``player_id``; nothing answered is lost.

    Where both played the same day's challenge, the account's stays the daily one and the
    guest's deals (with their answers) are kept as practice.
    """
    taken = select(Drill.daily_date).where(
        Drill.player_id == player_id, Drill.daily_date.is_not(None)
    )
    with writing(get_db()) as connection:
        connection.execute(
            update(Drill)
            .where(Drill.player_id == guest_id, Drill.daily_date.in_(taken))
            .values(mode="practice", daily_date=None, position=None)
        )
        connection.execute(
            update(Drill).where(Drill.player_id == guest_id).values(player_id=player_id)
        )
        connection.execute(
            update(Answer).where(Answer.player_id == guest_id).values(player_id=player_id)
        )
        connection.execute(delete(Player).where(Player.id == guest_id))
        training.rebuild_skills(connection, player_id)


@bp.route("/logout", methods=("POST",))
def logout() -> Response:
    """Forget the player on this browser, and end its sessions everywhere."""
    player_id = session_player_id()
    if player_id is not None:
        with writing(get_db()) as db:
            db.execute(_BUMP_VERSION, {"player_id": player_id})
    session.clear()
    g.player_id = None
    return redirect(url_for("pages.home"))


@bp.route("/password", methods=("GET", "POST"))
@limits.account_tries
def change_password() -> str | Response:
    """Change the password (the current one first); every other session of the account ends."""
    player = current_player()
    if player is None or player.username is None:
        return redirect(url_for("auth.login"))
    if request.method == "POST":
        new_password = request.form.get("new_password", "")
        if not _password_matches(player.password_hash or "", request.form.get("password", "")):
            flash("The current password is wrong.")
            return render_template("auth/password.html"), 401  # type: ignore[return-value]
        error = _form_problem(player.username, new_password)
        if error is None:
            password_hash = _hashed(new_password)
            with writing(get_db()) as db:
                changed = _BUMP_VERSION.values(password_hash=password_hash)
                player = db.execute(changed, {"player_id": player.id}).one()
            _sign_in(player)
            flash("Password changed; you are signed out everywhere else.")
            return redirect(url_for("pages.progress"))
        flash(error)
    return render_template("auth/password.html")
