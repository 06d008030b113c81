"""The device cookie (a browser the account logged in on) dies with the account's sessions.

Attack round 4, finding 4: whoever once logged in with the old password kept a device cookie
that a password change or "log out everywhere" left alive, so the per-name limit let 60 guesses
at the new password be checked in 3 minutes from one address (10 without the cookie).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .conftest import AuthActions, post_form
from .test_limits import failed_login

GUESSER = "10.9.4.1"


def guesses_checked(app: Flask, guesser: FlaskClient, count: int = 12) -> int:
    """How many of ``count`` wrong passwords for alice from ``guesser`` were checked (401)."""
    guesses = [failed_login(app, "alice", GUESSER, client=guesser) for _ in range(count)]
    return [guess.status_code for guess in guesses].count(401)


def change_password(owner: FlaskClient) -> None:
    form = {"password": "cribbage29", "new_password": "cribbage30"}
    assert post_form(owner, "/auth/password", form).status_code == 302


def log_out(owner: FlaskClient) -> None:
    assert AuthActions(owner).logout().status_code == 302


@pytest.mark.slow
@pytest.mark.parametrize("revoke", [change_password, log_out], ids=["password", "logout"])
def test_revoking_the_sessions_ends_the_other_device_cookies(
    app: Flask, auth: AuthActions, revoke: Callable[[FlaskClient], None]
) -> None:
    """The thief's browser logged in with the old password: before, it stayed exempt from the
    per-name limit (12 of 12 guesses checked); once the owner changes the password or logs out
    everywhere it is a new browser (10 checked, then 429). The owner's own browser stays
    known: it still logs in from the guesser's address once that address is at its limit."""
    auth.register("alice")
    thief = app.test_client()
    assert AuthActions(thief).login("alice").status_code == 302
    assert guesses_checked(app, thief, 3) == 3  # known, before: not counted
    revoke(auth._client)
    assert guesses_checked(app, thief) == 10
    password = "cribbage30" if revoke is change_password else "cribbage29"
    owner_guess = failed_login(app, "alice", GUESSER, client=auth._client)
    assert owner_guess.status_code == 401  # checked: this browser is still the name's
    right = {"username": "alice", "password": password}
    address = {"REMOTE_ADDR": GUESSER}
    assert post_form(auth._client, "/auth/login", right, environ_base=address).status_code == 302


def test_a_device_cookie_of_the_old_kind_is_not_read(app: Flask, auth: AuthActions) -> None:
    """A device cookie signed before it was bound to the sessions (a bare list of ids) makes
    a new browser of its holder (known again at its next log-in)."""
    from itsdangerous import URLSafeTimedSerializer

    from web import sessions

    auth.register("alice")
    thief = app.test_client()
    old = URLSafeTimedSerializer("test", salt="known-device-accounts").dumps([1])
    thief.set_cookie(sessions.DEVICE_COOKIE, old)
    assert guesses_checked(app, thief) == 10
