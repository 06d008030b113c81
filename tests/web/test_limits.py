"""Rate limits: password guessing and guest creation are bounded, with a 429 that says why."""

from __future__ import annotations

import time

from flask import Flask, request
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from web import create_app
from web.headers import CONTENT_SECURITY_POLICY

from .conftest import AuthActions, post_form


def test_guessing_one_password_is_limited_per_username(app: Flask, auth: AuthActions) -> None:
    """Failed log-ins for one name are counted from every address; past the limit a 429
    with Retry-After, in players' words, even for the right password."""
    auth.register()
    auth.logout()
    for attempt in range(10):
        address = {"REMOTE_ADDR": f"10.0.0.{attempt}"}
        response = post_form(
            app.test_client(),
            "/auth/login",
            {"username": "alice", "password": f"guess-{attempt}"},
            environ_base=address,
        )
        assert response.status_code == 401
    response = post_form(
        app.test_client(), "/auth/login", {"username": "alice", "password": "cribbage29"}
    )
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) > 0
    assert "Too many tries for this username" in response.get_data(as_text=True)


def test_right_passwords_do_not_count_against_the_username(app: Flask, auth: AuthActions) -> None:
    """Logging in (from many addresses) never locks the account."""
    auth.register()
    for attempt in range(15):
        phone = app.test_client()
        response = AuthActions(phone).login()
        assert response.status_code == 302, attempt


def test_account_attempts_are_limited_per_address(client: FlaskClient) -> None:
    """One address trying many names (or registering many accounts) gets a 429, as JSON
    clients and pages alike see it."""
    statuses = [
        post_form(client, "/auth/login", {"username": f"user{i}", "password": "x" * 8}).status_code
        for i in range(21)
    ]
    assert statuses[:20] == [401] * 20 and statuses[20] == 429
    assert post_form(client, "/auth/register", {"username": "newname"}).status_code == 429
    assert client.get("/auth/login").status_code == 200  # the form itself is not limited


def test_an_address_at_its_limit_is_refused_before_flask(database_url: str) -> None:
    """Past its limit, an address's account posts get the 429 page without Flask handling
    them (no session, token check or view: a guesser's refusals cost next to nothing), with
    Retry-After and the security headers; the address is the one a trusted proxy reports,
    other addresses and the address's other requests go on as before."""
    app = create_app({"SECRET_KEY": "t", "DATABASE_URL": database_url, "TRUSTED_PROXIES": 1})
    handled: list[str] = []
    app.before_request(lambda: handled.append(f"{request.method} {request.path}"))
    guesser, other = app.test_client(), app.test_client()

    def post(client: FlaskClient, path: str, address: str, name: str = "somebody") -> TestResponse:
        form = {"username": name, "password": "x" * 8}
        return post_form(client, path, form, headers={"X-Forwarded-For": address})

    statuses = [post(guesser, "/auth/login", "10.2.0.1", f"user{i}").status_code for i in range(21)]
    assert statuses == [401] * 20 + [429]
    handled.clear()
    for path in ("/auth/login", "/auth/register", "/auth/password"):
        response = guesser.post(path, headers={"X-Forwarded-For": "10.2.0.1"})
        assert response.status_code == 429, path
        assert int(response.headers["Retry-After"]) > 0
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert "Too many tries" in response.get_data(as_text=True)
    assert handled == []
    assert post(other, "/auth/login", "10.2.0.2").status_code == 401
    assert "POST /auth/login" in handled
    handled.clear()
    assert guesser.get("/auth/login", headers={"X-Forwarded-For": "10.2.0.1"}).status_code == 200
    assert handled == ["GET /auth/login"]
    app.extensions["crib_engine"].dispose()


def test_proxy_addresses_are_believed_only_when_trusted(database_url: str) -> None:
    """Behind ``CRIB_TRUSTED_PROXIES=1`` each forwarded client has its own count; without it
    the header is ignored (anybody could send it)."""
    for trusted, expected in ((1, 401), (0, 429)):
        app = create_app(
            {"SECRET_KEY": "t", "DATABASE_URL": database_url, "TRUSTED_PROXIES": trusted}
        )
        client = app.test_client()
        for i in range(21):
            response = post_form(
                client,
                "/auth/login",
                {"username": f"user{i}", "password": "x" * 8},
                headers={"X-Forwarded-For": f"10.1.0.{i}"},
            )
        assert response.status_code == expected, trusted
        app.extensions["crib_engine"].dispose()


def test_guest_creation_is_limited_per_address(app: Flask) -> None:
    """Cookie-less deals each make a guest: 60 an hour from one address, then a 429; a
    browser that keeps its cookie deals on."""
    keeper = app.test_client()
    assert keeper.get("/api/drills/next").status_code == 200
    for _ in range(59):
        assert app.test_client().get("/api/drills/next").status_code == 200
    refused = app.test_client().get("/api/daily")
    assert refused.status_code == 429
    assert "keep the trainer's cookie" in refused.json["error"]
    assert "Retry-After" in refused.headers
    assert keeper.get("/api/drills/next").status_code == 200


def test_unknown_usernames_take_as_long_as_known_ones(app: Flask, auth: AuthActions) -> None:
    """A wrong password for an unknown name spends the same scrypt time as for a known name
    (at least half of it: before, 2 ms against 75 ms told which names exist)."""
    auth.register()
    auth.logout()

    def seconds(username: str) -> float:
        start = time.perf_counter()
        response = post_form(
            app.test_client(), "/auth/login", {"username": username, "password": "wrong-password"}
        )
        assert response.status_code == 401
        return time.perf_counter() - start

    seconds("warm-up")
    known_time = min(seconds("alice") for _ in range(3))
    unknown_time = min(seconds("nobody") for _ in range(3))
    assert unknown_time > known_time / 2
