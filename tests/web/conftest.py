"""Fixtures: an app with a database of its own (:mod:`tests.databases`), a client, a clock and
account actions."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from web import create_app

ROOT = Path(__file__).resolve().parents[2]
CHEAP_PASSWORD_HASH = "pbkdf2:sha256:1000"
"""The ``app`` fixture's password hashing: about 0.5 ms instead of scrypt's 75 ms (hundreds of
tests register and log in). ``test_auth.py`` checks that the trainer itself hashes with scrypt."""
LOOSE_SITE_BUDGET = "60 per minute;1000 per hour"
"""The ``app`` fixture's site-wide budget of password checks (failed log-ins and registrations):
tests of the other account limits make more than 5 in 15 seconds, the trainer's own budget,
which ``test_limits.py`` checks."""


@pytest.fixture
def instance(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An instance folder in tmp_path, and no CRIB_* settings in the environment."""
    folder = tmp_path / "instance"
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(folder))
    monkeypatch.delenv("CRIB_SECRET_KEY", raising=False)
    monkeypatch.delenv("CRIB_DATABASE_URL", raising=False)
    return folder


class Clock:
    """A test's clock for the app (its ``CLOCK``): the real time, moved on by :meth:`advance`,
    or standing still after :meth:`stop`."""

    def __init__(self) -> None:
        self.ahead = 0.0
        self.stopped_at: float | None = None

    def __call__(self) -> float:
        return (time.time() if self.stopped_at is None else self.stopped_at) + self.ahead

    def stop(self) -> None:
        """Stand still at the time it is now."""
        self.stopped_at = time.time()

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on."""
        self.ahead += seconds


@pytest.fixture
def clock() -> Clock:
    """The ``app`` fixture's clock."""
    return Clock()


@pytest.fixture
def app(database_url: str, clock: Clock) -> Iterator[Flask]:
    """The trainer on this test's database, timed by ``clock``."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": database_url,
            "PASSWORD_HASH_METHOD": CHEAP_PASSWORD_HASH,
            "PASSWORD_CHECKS_SITE_WIDE": LOOSE_SITE_BUDGET,
            "CLOCK": clock,
        }
    )
    yield app
    app.extensions["crib_database"].dispose()


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


@pytest.fixture
def held_reader(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Semaphore, threading.Event]:
    """A stand-in reader that signals each read it starts and holds it until released (then it
    fails, a 503 that is not the busy one)."""
    import vision.reader

    running = threading.Semaphore(0)
    release = threading.Event()

    def slow_read(data: bytes, **options: Any) -> Any:
        running.release()
        release.wait(timeout=30)
        raise OSError("no model here")

    monkeypatch.setattr(vision.reader, "read_image_bytes", slow_read)
    return running, release
