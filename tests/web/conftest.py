"""Fixtures: an app with its SQLite database in tmp_path, a client, and account actions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from werkzeug.test import TestResponse

from web import create_app


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The trainer with a fresh database of its own."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'trainer.sqlite'}",
        }
    )
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


class AuthActions:
    """Register, log in and out through the real forms."""

    def __init__(self, client: FlaskClient) -> None:
        self._client = client

    def register(self, username: str = "alice", password: str = "cribbage29") -> TestResponse:
        """Register ``username``."""
        form = {"username": username, "password": password}
        return self._client.post("/auth/register", data=form)

    def login(self, username: str = "alice", password: str = "cribbage29") -> TestResponse:
        """Log in as ``username``."""
        form = {"username": username, "password": password}
        return self._client.post("/auth/login", data=form)

    def logout(self) -> TestResponse:
        """Log out."""
        return self._client.post("/auth/logout")


@pytest.fixture
def auth(client: FlaskClient) -> AuthActions:
    """Account actions on ``client``."""
    return AuthActions(client)
