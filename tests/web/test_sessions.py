"""Sessions: revocable (log out, register, password change), fresh at sign-in, short-lived,
``Secure`` behind HTTPS."""

from __future__ import annotations

import time

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from records.database import writing
from records.models import Player
from web import create_app, sessions
from web.db import get_db

from .conftest import AuthActions, Clock, post_form
from .test_auth import answer_one


def copy_of(app: Flask, client: FlaskClient) -> FlaskClient:
    """Another browser carrying ``client``'s session cookie as it is now (a stolen or saved
    cookie)."""
    cookie = client.get_cookie("session")
    assert cookie is not None
    thief = app.test_client()
    thief.set_cookie("session", cookie.value)
    return thief


def signed_in_as(client: FlaskClient) -> str:
    """Who the progress page says this browser plays as."""
    page = client.get("/progress").get_data(as_text=True)
    if "<strong>Guest</strong>" in page:
        return "guest"
    for name in ("alice", "victim"):
        if f"<strong>{name}</strong>" in page:
            return name
    return "nobody"


def player_id_of(client: FlaskClient) -> int:
    """The player id this browser's session names."""
    with client.session_transaction() as session:
        return int(session["player_id"])


def test_a_cookie_saved_before_log_out_is_dead_after_it(app: Flask, auth: AuthActions) -> None:
    """Logging out revokes the account's sessions: a copy of the cookie no longer signs in."""
    auth.register()
    saved = copy_of(app, auth._client)
    assert signed_in_as(saved) == "alice"
    auth.logout()
    assert signed_in_as(saved) == "nobody"
    assert "Log out alice" not in saved.get("/").get_data(as_text=True)


def test_the_old_guest_cookie_does_not_act_as_the_new_account(
    app: Flask, client: FlaskClient, auth: AuthActions
) -> None:
    """Registering turns the guest into the account; the guest's cookie (before registering)
    must not reach the account's progress or answer its drills."""
    drill = client.get("/api/drills/next?kind=hand").json
    guest_cookie = copy_of(app, client)
    auth.register()
    assert signed_in_as(client) == "alice"
    assert signed_in_as(guest_cookie) == "nobody"
    response = guest_cookie.post(f"/api/drills/{drill['id']}/answer", json={"points": 2})
    assert response.status_code == 403


def test_a_merged_guests_saved_cookie_signs_in_nobody_given_its_id_later(
    app: Flask, auth: AuthActions, database: str
) -> None:
    """A guest who logs in is merged into the account and deleted; SQLite gives the deleted id
    to the next player made. The guest's saved cookie must not sign in as that player: not
    see its name, not answer its drill."""
    auth.register()
    auth.logout()
    phone = app.test_client()
    answer_one(phone)
    guest_id = player_id_of(phone)
    saved = copy_of(app, phone)
    assert AuthActions(phone).login().status_code == 302
    victim = app.test_client()
    assert AuthActions(victim).register("victim").status_code == 302
    if database == "sqlite":  # the hole's condition: the id is given again
        assert player_id_of(victim) == guest_id
    drill = victim.get("/api/drills/next?kind=hand").json
    replayed = copy_of(app, saved)  # the saved cookie again for the answer (a page clears it)
    assert signed_in_as(saved) == "nobody"
    answer = replayed.post(f"/api/drills/{drill['id']}/answer", json={"points": 2})
    assert answer.status_code == 403
    assert signed_in_as(victim) == "victim"


def test_a_cookie_from_before_session_keys_is_its_players_when_signed_after_it_was_made(
    app: Flask, client: FlaskClient
) -> None:
    """A cookie signed before players had keys (schema 0005) names only an id and a version:
    it still signs its own player in, and carries the key from then on; one signed before its
    player was made (a deleted player's) does not."""
    drill = client.get("/api/drills/next?kind=hand").json
    with client.session_transaction() as session:
        player_id = session["player_id"]
        del session["key"]
    answer = client.post(f"/api/drills/{drill['id']}/answer", json={"points": 0})
    assert answer.status_code == 200
    with client.session_transaction() as session:
        assert session["player_id"] == player_id and session["key"]
        del session["key"]
    with app.app_context(), writing(get_db()) as db:  # the player made after the cookie's signing
        db.execute(update(Player).values(created_at=time.time() + 3600))
    assert client.get("/api/drills/next?kind=hand").status_code == 200
    with client.session_transaction() as session:
        assert session["player_id"] != player_id


def test_log_in_gives_a_fresh_session(app: Flask, auth: AuthActions) -> None:
    """After logging in on a browser that played as a guest, that guest's cookie is dead."""
    auth.register()
    auth.logout()
    phone = app.test_client()
    answer_one(phone)
    guest_cookie = copy_of(app, phone)
    assert AuthActions(phone).login().status_code == 302
    assert signed_in_as(phone) == "alice"
    assert signed_in_as(guest_cookie) == "nobody"


def test_changing_the_password_ends_the_other_sessions(app: Flask, auth: AuthActions) -> None:
    """A password change keeps this browser signed in and signs every other one out."""
    auth.register()
    other = copy_of(app, auth._client)
    response = post_form(
        auth._client, "/auth/password", {"password": "cribbage29", "new_password": "fifteen-two"}
    )
    assert response.status_code == 302
    assert signed_in_as(auth._client) == "alice"
    assert signed_in_as(other) == "nobody"
    auth.logout()
    assert auth.login(password="fifteen-two").status_code == 302


def test_a_wrong_current_password_changes_nothing(auth: AuthActions) -> None:
    """The current password is checked before the new one is set."""
    auth.register()
    response = post_form(
        auth._client,
        "/auth/password",
        {"password": "wrong-password", "new_password": "fifteen-two"},
    )
    assert response.status_code == 401
    auth.logout()
    assert auth.login().status_code == 302


def test_password_change_needs_an_account(client: FlaskClient) -> None:
    """A guest is sent to log in."""
    response = client.get("/auth/password")
    assert response.status_code == 302 and "/auth/login" in response.headers["Location"]


def test_sessions_last_thirty_days_and_are_http_only(client: FlaskClient) -> None:
    """The cookie lives 30 days since the last visit, not 400; scripts cannot read it."""
    set_cookie = client.get("/api/drills/next").headers["Set-Cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=Lax" in set_cookie
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.expires is not None
    lifetime = client.application.permanent_session_lifetime
    assert lifetime.days == 30


def test_an_unchanged_cookie_is_signed_again_once_a_day(client: FlaskClient, clock: Clock) -> None:
    """A visit re-signs the cookie (its 30 days restart) only when it was signed a day ago."""
    client.get("/api/drills/next")
    first = client.get_cookie("session")
    assert first is not None and first.expires is not None
    assert "Set-Cookie" not in client.get("/api/drills/next").headers
    clock.advance(sessions.RESIGN_AFTER.total_seconds() + 60)
    resigned = client.get("/api/drills/next")
    assert "Set-Cookie" in resigned.headers
    answer = client.post(f"/api/drills/{resigned.json['id']}/answer", json={"points": 4})
    assert answer.status_code == 200  # the new cookie is the same player's


def test_cookies_are_secure_over_https_only(database_url: str) -> None:
    """``Secure`` when the request came over HTTPS: directly, or through a trusted proxy."""
    config = {"SECRET_KEY": "t", "DATABASE_URL": database_url, "TRUSTED_PROXIES": 1}
    app = create_app(config)
    try:
        plain = app.test_client().get("/api/drills/next").headers["Set-Cookie"]
        direct = app.test_client().get("/api/drills/next", base_url="https://localhost")
        proxied = app.test_client().get("/api/drills/next", headers={"X-Forwarded-Proto": "https"})
        assert "Secure" not in plain
        assert "Secure" in direct.headers["Set-Cookie"]
        assert "Secure" in proxied.headers["Set-Cookie"]
    finally:
        app.extensions["crib_database"].dispose()
