"""The app factory: config, instance folder, secret key, database URL from the environment."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import _persisted_secret, create_app


def test_testing_config(app: Flask, database_url: str, tmp_path: Path) -> None:
    """The test config wins: the database is the test's own (by default a file in tmp_path)."""
    assert app.testing
    assert app.config["DATABASE_URL"] == database_url
    if database_url.startswith("sqlite"):
        assert str(tmp_path) in database_url
    assert not create_app({"SECRET_KEY": "x", "DATABASE_URL": "sqlite://"}).testing


def test_secret_key_is_generated_once_and_kept(instance: Path) -> None:
    """Without a configured key, one is generated in the instance folder and reused."""
    first = create_app()
    second = create_app()
    key_file = instance / "secret_key"
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"] == key_file.read_text()
    assert len(first.config["SECRET_KEY"]) == 64
    assert key_file.stat().st_mode & 0o077 == 0


def test_default_database_is_sqlite_in_instance_folder(instance: Path) -> None:
    """With nothing configured, the database is ``trainer.sqlite`` in the instance folder."""
    app = create_app()
    assert app.config["DATABASE_URL"] == f"sqlite:///{instance / 'trainer.sqlite'}"
    assert (instance / "trainer.sqlite").exists()


def test_environment_configures_database_and_key(
    instance: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``CRIB_DATABASE_URL`` and ``CRIB_SECRET_KEY`` are read from the environment."""
    url = f"sqlite:///{tmp_path / 'env.sqlite'}"
    monkeypatch.setenv("CRIB_DATABASE_URL", url)
    monkeypatch.setenv("CRIB_SECRET_KEY", "from-env")
    app = create_app()
    assert app.config["DATABASE_URL"] == url
    assert app.config["SECRET_KEY"] == "from-env"
    assert (tmp_path / "env.sqlite").exists()
    assert not (instance / "secret_key").exists()


def test_instance_config_file(instance: Path) -> None:
    """``instance/config.py`` is read when not testing."""
    instance.mkdir()
    (instance / "config.py").write_text("SECRET_KEY = 'from-file'\n")
    assert create_app().config["SECRET_KEY"] == "from-file"


def test_only_the_projects_errors_become_a_400(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bad input (a CribbageError) is a 400 naming it; a ValueError from a bug is a logged 500
    whose message says nothing of the internals."""
    from web import api

    def buggy(*args: object, **kwargs: object) -> None:
        raise ValueError("internal detail: index 7 out of range")

    monkeypatch.setattr(api, "score_typed", buggy)
    response = client.post("/api/score", json={"hand": ["5H", "5D", "5C", "JS"], "starter": "5S"})
    assert response.status_code == 500
    assert "internal detail" not in response.get_data(as_text=True)
    monkeypatch.undo()
    bad = client.post("/api/score", json={"hand": ["5H", "5D", "5C", "1S"], "starter": "5S"})
    assert bad.status_code == 400 and "unknown rank '1'" in bad.json["error"]


def _start_together(path: Path, barrier: Any, keys: Any) -> None:
    """One server process starting: wait for the others, then read or make the key."""
    barrier.wait()
    keys.put(_persisted_secret(path))


@pytest.mark.slow
def test_servers_starting_together_agree_on_one_key(tmp_path: Path) -> None:
    """Four processes starting at once each get the same non-empty key (the file is never seen
    half-written), and the file is private (mode 600)."""
    context = multiprocessing.get_context("fork")
    for trial in range(10):
        path = tmp_path / f"secret_key_{trial}"
        barrier, keys = context.Barrier(4), context.Queue()
        starts = [
            context.Process(target=_start_together, args=(path, barrier, keys)) for _ in "1234"
        ]
        for start in starts:
            start.start()
        seen = {keys.get(timeout=30) for _ in starts}
        for start in starts:
            start.join(timeout=30)
        assert len(seen) == 1 and len(seen.pop()) == 64, f"trial {trial}: keys differ or empty"
        assert path.stat().st_mode & 0o777 == 0o600


def test_sqlite_file_is_private(instance: Path) -> None:
    """The database holds password hashes: mode 600 like the key, even when it already existed
    with looser permissions."""
    database = instance / "trainer.sqlite"
    create_app()
    assert database.stat().st_mode & 0o777 == 0o600
    database.chmod(0o644)
    create_app()
    assert database.stat().st_mode & 0o777 == 0o600
