"""Fixtures: an app with a fresh database of its own, a client, and account actions.

Every test that uses the database runs twice: on a SQLite file in ``tmp_path`` and on a
PostgreSQL database of its own. The PostgreSQL server is started once per session by
``scripts/test-postgres --serve`` (a throwaway cluster), or is the server at
``CRIB_TEST_DATABASE_URL`` when that is set (its role must be allowed to create databases:
each test gets a new one, dropped afterwards). When PostgreSQL cannot be started, its tests
fail under CI (``CI=true``) and skip elsewhere, saying why. Tests of what only SQLite does
carry ``@pytest.mark.sqlite_only(reason)``.
"""

from __future__ import annotations

import os
import re
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import URL, Engine, make_url
from sqlalchemy.exc import OperationalError
from werkzeug.test import TestResponse

from web import create_app
from web.db import make_engine

ROOT = Path(__file__).resolve().parents[2]
TEST_POSTGRES = ROOT / "scripts" / "test-postgres"
DATABASES = ("sqlite", "postgresql")


def _unavailable(why: str) -> None:
    """PostgreSQL cannot be used: a failure under CI, a skip (saying why) elsewhere."""
    message = f"PostgreSQL is not available: {why}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[URL]:
    """The URL of a PostgreSQL server (its maintenance database), started once per session."""
    external = os.environ.get("CRIB_TEST_DATABASE_URL")
    if external:
        yield make_url(external)
        return
    try:
        server = subprocess.Popen(
            [str(TEST_POSTGRES), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    except OSError as error:
        _unavailable(str(error))
    assert server.stdout is not None and server.stdin is not None
    url = server.stdout.readline().strip()
    if not url:
        _unavailable(f"scripts/test-postgres --serve said: {server.communicate()[1].strip()}")
    try:
        yield make_url(url)
    finally:
        server.stdin.close()  # the script stops and removes the cluster
        server.wait(timeout=60)


@pytest.fixture(scope="session")
def postgres_admin(postgres_server: URL) -> Iterator[Engine]:
    """An autocommit engine on the server's maintenance database, to create databases."""
    engine = make_engine(postgres_server.render_as_string(hide_password=False))
    admin = engine.execution_options(isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except OperationalError as error:
        _unavailable(f"cannot connect: {error}")
    yield admin
    engine.dispose()


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest, postgres_server: URL) -> Iterator[str]:
    """A new, empty PostgreSQL database for this test; dropped afterwards."""
    admin: Engine = request.getfixturevalue("postgres_admin")
    name = f"crib_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        fast = connection.dialect.server_version_info >= (15,)  # no WAL for a throwaway copy
        strategy = " STRATEGY = FILE_COPY" if fast else ""
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"{strategy}')
    yield postgres_server.set(database=name).render_as_string(hide_password=False)
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def instance(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An instance folder in tmp_path, and no CRIB_* settings in the environment."""
    folder = tmp_path / "instance"
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(folder))
    monkeypatch.delenv("CRIB_SECRET_KEY", raising=False)
    monkeypatch.delenv("CRIB_DATABASE_URL", raising=False)
    return folder


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of this test's empty database: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'trainer.sqlite'}"
    marker = request.node.get_closest_marker("sqlite_only")
    if marker is not None:
        pytest.skip(f"SQLite only: {marker.args[0]}")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    """The trainer with a fresh database of its own."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": database_url})
    yield app
    app.extensions["crib_engine"].dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser with its own cookies (so its own guest)."""
    return app.test_client()


_CSRF_META = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


def csrf_token(client: FlaskClient, page: str = "/auth/login") -> str:
    """The CSRF token ``page`` gives this browser, as a form or ``static/api.js`` sends it."""
    found = _CSRF_META.search(client.get(page).get_data(as_text=True))
    assert found, f"no csrf-token meta on {page}"
    return found.group(1)


def post_form(client: FlaskClient, path: str, form: dict[str, str], **kwargs: Any) -> TestResponse:
    """Submit a form as the browser does, with the page's CSRF token."""
    return client.post(path, data={**form, "csrf_token": csrf_token(client)}, **kwargs)


class AuthActions:
    """Register, log in and out through the real forms."""

    def __init__(self, client: FlaskClient) -> None:
        self._client = client

    def register(self, username: str = "alice", password: str = "cribbage29") -> TestResponse:
        """Register ``username``."""
        form = {"username": username, "password": password}
        return post_form(self._client, "/auth/register", form)

    def login(self, username: str = "alice", password: str = "cribbage29") -> TestResponse:
        """Log in as ``username``."""
        form = {"username": username, "password": password}
        return post_form(self._client, "/auth/login", form)

    def logout(self) -> TestResponse:
        """Log out."""
        return post_form(self._client, "/auth/logout", {})


@pytest.fixture
def auth(client: FlaskClient) -> AuthActions:
    """Account actions on ``client``."""
    return AuthActions(client)
