"""Accounts: register keeps a guest's progress; log in merges it; passwords are hashed."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from records.models import Drill, Player
from trainer import score_show
from web import create_app
from web.db import get_db

from .conftest import CHEAP_PASSWORD_HASH, AuthActions, post_form


def answer_one(client: FlaskClient, right: bool = True) -> int:
    """Deal and answer a hand; return the drill id."""
    drill = client.get("/api/drills/next?kind=hand").json
    total = score_show(drill["hand"], drill["starter"]).total
    client.post(f"/api/drills/{drill['id']}/answer", json={"points": total + (not right)})
    return int(drill["id"])


def test_register_keeps_guest_progress(app: Flask, client: FlaskClient, auth: AuthActions) -> None:
    """A guest's answers belong to the account they register, stored hashed."""
    answer_one(client)
    guest = client.get("/progress").get_data(as_text=True)
    assert "Guest" in guest and 'id="done">1<' in guest
    response = auth.register()
    assert response.status_code == 302 and response.headers["Location"] == "/progress"
    page = client.get("/progress").get_data(as_text=True)
    assert "alice" in page and 'id="done">1<' in page
    with app.app_context():
        player = get_db().execute(select(Player).where(Player.username == "alice")).first()
        assert player is not None and player.password_hash
        assert "cribbage29" not in player.password_hash


def test_passwords_are_hashed_with_scrypt_unless_set_otherwise(database_url: str) -> None:
    """The trainer hashes new passwords with scrypt (the tests' ``app`` sets a cheap method:
    ``PASSWORD_HASH_METHOD``); a password stored by another method still logs in."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url})
    try:
        auth = AuthActions(app.test_client())
        assert auth.register().status_code == 302
        with app.app_context():
            player = get_db().execute(select(Player).where(Player.username == "alice")).one()
        assert player.password_hash.startswith("scrypt:32768:8:1$")
        app.config["PASSWORD_HASH_METHOD"] = CHEAP_PASSWORD_HASH
        assert AuthActions(app.test_client()).login().status_code == 302
        assert AuthActions(app.test_client()).register("bob").status_code == 302
        with app.app_context():
            bob = get_db().execute(select(Player).where(Player.username == "bob")).one()
        assert bob.password_hash.startswith(CHEAP_PASSWORD_HASH + "$")
    finally:
        app.extensions["crib_database"].dispose()


def test_login_on_another_device_and_merge(app: Flask, auth: AuthActions) -> None:
    """Progress follows the account to a new browser, and that browser's guest work joins it."""
    auth.register()
    answer_one(auth._client)
    phone = app.test_client()
    answer_one(phone, right=False)
    assert AuthActions(phone).login().status_code == 302
    page = phone.get("/progress").get_data(as_text=True)
    assert 'id="done">2<' in page
    with app.app_context():
        assert len(get_db().scalars(select(Player)).all()) == 1


def test_merge_keeps_a_guest_daily_the_account_also_played(app: Flask, auth: AuthActions) -> None:
    """Both played today's challenge: the account's stays the daily, the guest's answers stay."""
    auth.register()
    mine = auth._client.get("/api/daily").json["drills"]
    phone = app.test_client()
    theirs = phone.get("/api/daily").json["drills"]
    for client, drill in ((auth._client, mine[0]), (phone, theirs[0])):
        total = score_show(drill["hand"], drill["starter"]).total
        client.post(f"/api/drills/{drill['id']}/answer", json={"points": total})
    assert AuthActions(phone).login().status_code == 302
    assert 'id="done">2<' in phone.get("/progress").get_data(as_text=True)
    assert [d["id"] for d in phone.get("/api/daily").json["drills"]] == [d["id"] for d in mine]
    with app.app_context():
        kept = get_db().execute(select(Drill).where(Drill.id == theirs[0]["id"])).one()
        assert kept.mode == "practice" and kept.daily_date is None


@pytest.mark.parametrize(
    ("username", "password", "message"),
    [
        ("al", "cribbage29", "Username: 3 to 40"),
        ("alice smith", "cribbage29", "Username: 3 to 40"),
        ("alice", "short", "at least 8 characters"),
    ],
)
def test_register_validation(
    client: FlaskClient, username: str, password: str, message: str
) -> None:
    """Bad usernames and short passwords are refused with a reason."""
    response = post_form(client, "/auth/register", {"username": username, "password": password})
    assert response.status_code == 200
    assert message in response.get_data(as_text=True)


def test_username_taken(app: Flask, auth: AuthActions) -> None:
    """A taken username is refused."""
    auth.register()
    response = AuthActions(app.test_client()).register()
    assert "is taken" in response.get_data(as_text=True)


def test_taken_username_leaves_the_guest_as_it_was(app: Flask, auth: AuthActions) -> None:
    """A guest refused a taken name keeps its answers, and keeps them into another name."""
    auth.register()
    other = app.test_client()
    answer_one(other)
    response = AuthActions(other).register()
    assert "is taken" in response.get_data(as_text=True)
    page = other.get("/progress").get_data(as_text=True)
    assert "Guest" in page and 'id="done">1<' in page
    assert AuthActions(other).register(username="bob").status_code == 302
    assert 'id="done">1<' in other.get("/progress").get_data(as_text=True)


def test_wrong_password_and_logout(app: Flask, client: FlaskClient, auth: AuthActions) -> None:
    """A wrong password is a 401; logging out leaves a fresh guest."""
    auth.register()
    auth.logout()
    assert "Guest" not in client.get("/progress").get_data(as_text=True)
    response = auth.login(password="wrong-password")
    assert response.status_code == 401
    assert "wrong password" in response.get_data(as_text=True)
    assert auth.login().status_code == 302
    assert "Log out alice" in client.get("/").get_data(as_text=True)


def test_a_request_checks_its_session_once(app: Flask, auth: AuthActions) -> None:
    """Each request by a signed-in player checks its session version with one query, however
    often the request asks who plays (a deal, an answer)."""
    auth.register()
    checks: list[str] = []

    def record(*args: Any) -> None:
        if "session_version" in args[2] and "UPDATE" not in args[2]:
            checks.append(args[2])

    engine = app.extensions["crib_database"].engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        drill = auth._client.get("/api/drills/next?kind=hand").json
        assert len(checks) == 1
        answer = auth._client.post(f"/api/drills/{drill['id']}/answer", json={"points": 2})
        assert answer.status_code == 200 and len(checks) == 2
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_a_name_in_another_case_is_the_same_account(app: Flask, auth: AuthActions) -> None:
    """``Vic`` and ``vic`` are one player (attack round 3, finding 5: ``vic`` could be
    registered beside ``Vic``): the other case is taken, and logs in to the account."""
    auth.register("Vic")
    for twin in ("vic", "VIC", "vIc"):
        response = AuthActions(app.test_client()).register(twin)
        assert response.status_code == 200 and "is taken" in response.get_data(as_text=True)
    other = app.test_client()
    assert AuthActions(other).login("vIC").status_code == 302
    with other.session_transaction() as theirs, auth._client.session_transaction() as mine:
        assert theirs["player_id"] == mine["player_id"] and theirs["username"] == "Vic"
    with app.app_context():
        names = get_db().execute(select(Player.username).where(Player.username.is_not(None)))
        assert list(names.scalars()) == ["Vic"]
