"""Fixtures: an app with a fresh database of its own, a client, and account actions.

The database is a SQLite file in ``tmp_path``. With ``CRIB_TEST_DATABASE_URL`` set (any
SQLAlchemy URL, e.g. ``postgresql+psycopg://crib@127.0.0.1:5432/crib_test``, as
``scripts/test-postgres`` sets it), every test runs on that database instead, after all the
app's tables there are dropped, so each test starts from an empty schema. Tests of what only
SQLite does are marked :func:`sqlite_only` and skip elsewhere.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import make_url
from werkzeug.test import TestResponse

import web.models  # noqa: F401  (registers the tables on Base.metadata)
from web import create_app
from web.db import Base, make_engine

TEST_DATABASE_URL = os.environ.get("CRIB_TEST_DATABASE_URL") or None
"""The server the web tests run on, or ``None`` for a SQLite file per test."""

ON_SQLITE = TEST_DATABASE_URL is None or make_url(TEST_DATABASE_URL).get_backend_name() == "sqlite"


def sqlite_only(why: str) -> pytest.MarkDecorator:
    """Skip the test when the tests run on another database, saying ``why`` it is SQLite's."""
    return pytest.mark.skipif(not ON_SQLITE, reason=f"SQLite only: {why}")


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """The URL of this test's empty database."""
    if TEST_DATABASE_URL is None:
        return f"sqlite:///{tmp_path / 'trainer.sqlite'}"
    engine = make_engine(TEST_DATABASE_URL)
    try:
        with engine.begin() as connection:
            if connection.dialect.name == "postgresql":  # fail, not hang, on a leftover lock
                connection.exec_driver_sql("SET LOCAL lock_timeout = '10s'")
            Base.metadata.drop_all(connection)
    finally:
        engine.dispose()
    return TEST_DATABASE_URL


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


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """The app's command-line runner."""
    return app.test_cli_runner()


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
