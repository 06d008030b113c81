"""The database failing under a running server: a 503 in players' words, nothing acknowledged
that was not stored, and no SQL parameters (password hashes) in errors or logs."""

from __future__ import annotations

import contextlib
import logging
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Engine, event, func, make_url, select, text
from sqlalchemy.exc import DBAPIError

from records.database import make_engine
from records.models import Answer
from web import create_app
from web.errors import UNAVAILABLE

from .conftest import AuthActions, csrf_token, post_form


def _answers(database_url: str) -> int:
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(Answer)) or 0)
    finally:
        engine.dispose()


def _assert_unavailable(reply: object) -> None:
    assert reply.status_code == 503  # type: ignore[attr-defined]
    assert reply.json == {"error": UNAVAILABLE}  # type: ignore[attr-defined]
    assert reply.headers["Retry-After"] == "30"  # type: ignore[attr-defined]


@pytest.fixture
def folder_app(tmp_path: Path) -> Flask:
    """The trainer on a SQLite file in a folder of its own (to be deleted)."""
    url = f"sqlite:///{tmp_path / 'data' / 'trainer.sqlite'}"
    (tmp_path / "data").mkdir()
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": url})


def test_answer_into_a_deleted_database_folder_is_not_acknowledged(
    folder_app: Flask, tmp_path: Path
) -> None:
    """The SQLite file's folder deleted under the server: the answer (which would go into the
    deleted file) is a 503, and so is the next deal."""
    client = folder_app.test_client()
    drill = client.get("/api/drills/next?kind=hand").json
    assert drill is not None
    shutil.rmtree(tmp_path / "data")
    _assert_unavailable(client.post(f"/api/drills/{drill['id']}/answer", json={"points": 4}))
    _assert_unavailable(client.get("/api/drills/next?kind=hand"))


def test_answer_into_a_deleted_database_file_is_not_acknowledged(
    folder_app: Flask, tmp_path: Path
) -> None:
    """The SQLite file deleted (its folder kept): a 503, not an answer stored in a ghost; the
    page says so too."""
    client = folder_app.test_client()
    drill = client.get("/api/drills/next?kind=hand").json
    assert drill is not None
    for path in (tmp_path / "data").glob("trainer.sqlite*"):
        path.unlink()
    _assert_unavailable(client.post(f"/api/drills/{drill['id']}/answer", json={"points": 4}))
    page = client.get("/progress")
    assert page.status_code == 503
    assert "try again in a minute" in page.text


def _deal(client: FlaskClient) -> None:
    assert client.get("/api/drills/next?kind=hand").status_code == 200


def _register(client: FlaskClient) -> None:
    assert AuthActions(client).register().status_code == 302


def _merge_a_guest(client: FlaskClient) -> None:
    _register(client)
    AuthActions(client).logout()
    _deal(client)  # as a new guest


ACCOUNT_WRITES = {
    "register": (_deal, lambda client: AuthActions(client).register()),
    "log in, keeping the guest's drills": (
        _merge_a_guest,
        lambda client: AuthActions(client).login(),
    ),
    "log out": (_register, lambda client: AuthActions(client).logout()),
    "change the password": (
        _register,
        lambda client: post_form(
            client, "/auth/password", {"password": "cribbage29", "new_password": "cribbage31"}
        ),
    ),
}
"""Each account write: what comes before it, and the write (a form post)."""


@pytest.mark.slow
@pytest.mark.parametrize("action", ACCOUNT_WRITES)
def test_account_writes_into_a_deleted_database_file_are_not_acknowledged(
    tmp_path: Path, action: str
) -> None:
    """Account writes go through the one rule for writes (web.db.writing): with the SQLite
    file deleted under the server, each is a 503 page, not a success stored in a ghost (the
    rate limits, which count in the database too, are off: the write itself is tested)."""
    before, act = ACCOUNT_WRITES[action]
    url = f"sqlite:///{tmp_path / 'data' / 'trainer.sqlite'}"
    (tmp_path / "data").mkdir()
    config = {"SECRET_KEY": "test", "DATABASE_URL": url, "RATELIMIT_ENABLED": False}
    client = create_app({"TESTING": True, **config}).test_client()
    before(client)
    for path in (tmp_path / "data").glob("trainer.sqlite*"):
        path.unlink()
    reply = act(client)
    assert reply.status_code == 503, reply.text
    assert "try again in a minute" in reply.text


@contextlib.contextmanager
def _read_only(app: Flask, database_url: str) -> Iterator[None]:
    """The database takes no writes on connections opened while the block runs (a read-only
    file, mount or server); the app's pool is emptied first, as a restart would."""
    engine: Engine = app.extensions["crib_database"].engine
    if engine.dialect.name == "sqlite":

        def query_only(connection: sqlite3.Connection, _record: object) -> None:
            connection.execute("PRAGMA query_only = ON")

        event.listen(engine, "connect", query_only)
        engine.dispose()
        try:
            yield
        finally:
            event.remove(engine, "connect", query_only)
        return
    name = make_url(database_url).database
    setter = make_engine(database_url)
    with setter.connect() as connection:  # opened before: it can set the default back
        connection.exec_driver_sql(
            f'ALTER DATABASE "{name}" SET default_transaction_read_only = on'
        )
        connection.commit()
        engine.dispose()
        try:
            yield
        finally:
            connection.exec_driver_sql(
                f'ALTER DATABASE "{name}" RESET default_transaction_read_only'
            )
            connection.commit()
    setter.dispose()


def test_read_only_database_is_a_503_and_logs_no_password_hash(
    app: Flask,
    client: FlaskClient,
    auth: AuthActions,
    database_url: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A database that has become read-only: answering and registering are 503s, nothing is
    stored, and the logged error shows no SQL parameters (the password hash)."""
    drill = client.get("/api/drills/next?kind=hand").json
    assert drill is not None
    with _read_only(app, database_url), caplog.at_level(logging.ERROR):
        _assert_unavailable(client.post(f"/api/drills/{drill['id']}/answer", json={"points": 4}))
        register = auth.register("mallory", "hunter2hunter2")
    assert register.status_code == 503
    assert "database unavailable" in caplog.text
    assert "scrypt:" not in caplog.text and "hunter2" not in caplog.text
    assert _answers(database_url) == 0


@pytest.mark.sqlite_only("the write lock is a file beside the SQLite database")
def test_a_worker_that_cannot_open_the_write_lock_answers_503(database_url: str) -> None:
    """A worker started while the database's folder is read-only cannot open the write lock
    file: a write is a 503 saying nothing was saved, not a 500 (attack round 3). Stood in for
    by a folder in the lock file's place (root ignores a read-only mode)."""
    config = {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url}
    served = create_app(config)
    player = served.test_client()
    drill = player.get("/api/drills/next?kind=hand").json
    lock = Path(f"{make_url(database_url).database}.lock")
    lock.unlink()
    lock.mkdir()
    restarted = create_app(config)  # a new process: it opens the lock file anew
    try:
        client = restarted.test_client()
        client.set_cookie("session", player.get_cookie("session").value)  # type: ignore[union-attr]
        _assert_unavailable(client.post(f"/api/drills/{drill['id']}/answer", json={"points": 2}))
        _assert_unavailable(restarted.test_client().get("/api/drills/next?kind=crib"))
    finally:
        for app in (served, restarted):
            app.extensions["crib_database"].dispose()


def test_writes_recover_once_a_read_only_database_is_writable_again(
    app: Flask, client: FlaskClient, database_url: str
) -> None:
    """Connections opened while the database was read-only (its file, after a restart) are
    not kept once it is writable again: the next answer is stored, without a restart."""
    drill = client.get("/api/drills/next?kind=hand").json
    assert drill is not None
    answer = f"/api/drills/{drill['id']}/answer"
    with _read_only(app, database_url):
        assert client.get("/progress").status_code == 200  # reads go on
        for _ in range(3):
            _assert_unavailable(client.post(answer, json={"points": 4}))
    assert client.post(answer, json={"points": 4}).status_code == 200
    assert client.get("/api/drills/next?kind=crib").status_code == 200
    assert _answers(database_url) == 1


@contextlib.contextmanager
def _server_down(admin_engine: Engine, url: str) -> Iterator[None]:
    """PostgreSQL refusing connections to the database at ``url`` (its sessions cut) while the
    block runs."""
    name = make_url(url).database
    with admin_engine.connect() as admin:
        admin.exec_driver_sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute(
            text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name"),
            {"name": name},
        )
        try:
            yield
        finally:
            admin.exec_driver_sql(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')


@pytest.mark.slow
def test_database_server_down_is_a_503_then_recovers(
    postgres_url: str, postgres_admin: Engine
) -> None:
    """PostgreSQL refusing connections (its sessions cut): a 503; once it is back, the same
    server answers again without a restart."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": postgres_url})
    client = app.test_client()
    drill = client.get("/api/drills/next?kind=hand").json
    assert drill is not None
    with _server_down(postgres_admin, postgres_url):
        _assert_unavailable(client.post(f"/api/drills/{drill['id']}/answer", json={"points": 4}))
    assert client.post(f"/api/drills/{drill['id']}/answer", json={"points": 4}).status_code == 200
    app.extensions["crib_database"].dispose()


@pytest.mark.slow
def test_account_posts_with_the_database_down_are_a_503(
    postgres_url: str, postgres_admin: Engine
) -> None:
    """The rate limits count in the database: with it down, a log-in is a 503 page in players'
    words (the limit's own check lets the app answer), not a 500."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": postgres_url})
    client = app.test_client()
    token = csrf_token(client)
    form = {"username": "alice", "password": "cribbage29", "csrf_token": token}
    with _server_down(postgres_admin, postgres_url):
        reply = client.post("/auth/login", data=form)
    assert reply.status_code == 503
    assert UNAVAILABLE in reply.get_data(as_text=True)
    app.extensions["crib_database"].dispose()


def test_sql_parameters_never_appear_in_errors(database_url: str) -> None:
    """A failing statement's error (what would be logged) does not show its parameters."""
    engine = make_engine(database_url)
    try:
        with pytest.raises(DBAPIError) as failure, engine.connect() as connection:
            connection.execute(
                text("SELECT nothing FROM nowhere WHERE x = :h"), {"h": "scrypt:32768"}
            )
    finally:
        engine.dispose()
    assert "nowhere" in str(failure.value)
    assert "scrypt:32768" not in str(failure.value)
