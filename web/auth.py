"""Accounts: registration that keeps the guest's progress, log in and out, a new password.

Who plays on a browser, and how a session is checked, is :mod:`web.players`; what is stored,
:mod:`records.players`.
"""

from __future__ import annotations

import functools
import secrets

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from records import players
from records.errors import NameTakenError

from . import clock, limits, sessions
from .db import get_db
from .players import current_player, session_player_id, sign_in, sign_out

bp = Blueprint("auth", __name__, url_prefix="/auth")

_USERNAME = players.USERNAME


def _password_matches(stored: str, password: str) -> bool:
    """Whether ``password`` hashes to ``stored``; a 503 when too many hashes are running."""
    return limits.HASHING.run(check_password_hash, stored, password)


def _hash_method() -> str:
    """The ``PASSWORD_HASH_METHOD`` setting: how new passwords are hashed.

    scrypt by default, about 75 ms of a core; stored hashes name their method, so old
    passwords still check.
    """
    return str(current_app.config["PASSWORD_HASH_METHOD"])


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

    Two registrations racing for one name cannot both win (the loser is told it is taken,
    and its guest is left as it was).
    """
    password_hash = _hashed(password)
    guest = current_player()
    guest_id = guest.id if guest is not None and guest.username is None else None
    try:
        player = players.register(get_db(), username, password_hash, clock.now(), guest_id)
    except NameTakenError as error:
        return str(error)
    sign_in(player)
    return None


@bp.route("/login", methods=("GET", "POST"))
@limits.account_tries
@limits.failed_logins
@limits.site_failed_logins
def login() -> str | Response:
    """Log in; anything done as a guest on this browser moves to the account."""
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        player = players.by_name(get_db(), username)  # in any case: Vic is vic
        stored = player.password_hash if player is not None else None
        password = request.form.get("password", "")
        # an unknown name costs the same hashing time as a known one
        stored = stored or _unknown_user_hash(_hash_method())
        if not _password_matches(stored, password) or player is None:
            flash("Unknown username or wrong password.")
            return render_template("auth/login.html"), 401  # type: ignore[return-value]
        guest = current_player()
        if guest is not None and guest.username is None and guest.id != player.id:
            players.merge_guest(get_db(), guest.id, player.id)
        sign_in(player)
        return redirect(url_for("pages.home"))
    return render_template("auth/login.html")


@functools.cache
def _unknown_user_hash(method: str) -> str:
    """A hash (by ``method``) to check the passwords of unknown usernames against.

    They then take as long as known ones (75 ms of scrypt against 2 ms told which names exist).
    """
    return generate_password_hash(secrets.token_hex(16), method)


@bp.route("/logout", methods=("POST",))
def logout() -> Response:
    """Forget the player on this browser, and end its sessions everywhere.

    The device cookies of the account end with them (:mod:`web.sessions`), but this browser's:
    it stays known to the log-in limits.
    """
    player_id = session_player_id()
    sign_out()
    if player_id is not None:
        player = players.revoke_sessions(get_db(), player_id)
        if player.username is not None:
            sessions.remember_device(player)
    return redirect(url_for("pages.home"))


@bp.route("/password", methods=("GET", "POST"))
@limits.account_tries
@limits.failed_password_changes
@limits.site_password_changes
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
            player = players.revoke_sessions(get_db(), player.id, password_hash=password_hash)
            sign_in(player)
            flash("Password changed; you are signed out everywhere else.")
            return redirect(url_for("pages.progress"))
        flash(error)
    return render_template("auth/password.html")
