"""The database: SQLite pragmas, the schema at start-up, the write lock."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, make_url, text

import records.database
from records.database import writing
from web import create_app
from web.db import get_db


def test_schema_created_at_start_up(empty_database_url: str) -> None:
    """The four tables exist as soon as the app is built on a new, empty database."""
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": empty_database_url})
    tables = set(inspect(app.extensions["crib_database"].engine).get_table_names())
    app.extensions["crib_database"].dispose()
    assert {"players", "drills", "answers", "skills"} <= tables


@pytest.mark.sqlite_only("WAL, the busy timeout and the foreign-keys switch are SQLite pragmas")
def test_sqlite_runs_in_wal_mode_with_busy_timeout(app: Flask) -> None:
    """Every connection gets WAL, a busy timeout and foreign keys."""
    with app.app_context():
        db = get_db()
        assert db.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.execute(text("PRAGMA busy_timeout")).scalar() == 5000
        assert db.execute(text("PRAGMA foreign_keys")).scalar() == 1


@pytest.mark.sqlite_only("the write-ahead log is SQLite's")
def test_the_log_is_checkpointed_after_a_write_outside_the_lock(
    app: Flask, client: FlaskClient, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's automatic checkpoint, which ran inside the commit that filled the log while
    every other writer waited on the lock, is off; the lock checkpoints once it is free (here
    after every write), so the log is reused from its start instead of growing."""
    monkeypatch.setattr(records.database, "CHECKPOINT_EVERY", 0.0)
    client.get("/api/drills/next?kind=hand")  # a player
    held_during_checkpoint = []
    lock = app.extensions["crib_database"].write_lock
    checkpoint = lock._checkpoint_if_due

    def spied() -> None:
        probe = os.open(lock.path, os.O_RDWR)
        try:  # the lock is free when another open file can take it at once
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held_during_checkpoint.append(False)
        except BlockingIOError:
            held_during_checkpoint.append(True)
        finally:
            os.close(probe)
        checkpoint()

    monkeypatch.setattr(lock, "_checkpoint_if_due", spied)
    with app.app_context():
        db = get_db()
        assert db.execute(text("PRAGMA wal_autocheckpoint")).scalar() == 0
        for version in range(100):  # each write adds a page to the log at least
            with writing(db) as connection:
                connection.execute(text("UPDATE players SET session_version = :v"), {"v": version})
    log = Path(f"{make_url(database_url).database}-wal")
    assert held_during_checkpoint == [False] * 100
    assert log.stat().st_size < 20 * 4096


@pytest.mark.sqlite_only("the write lock is a file beside the SQLite database")
def test_writes_hold_a_file_lock(client: FlaskClient, database_url: str) -> None:
    """SQLite writers take ``<database>.lock``."""
    client.get("/api/drills/next?kind=hand")
    assert Path(f"{make_url(database_url).database}.lock").exists()


def test_a_request_commits_only_through_writing(app: Flask, client: FlaskClient) -> None:
    """The one rule for writes is enforced in one place: a request's connection that commits
    outside ``writing`` (which takes the write lock and checks the file) is refused and stores
    nothing; inside, it stores."""
    client.get("/api/drills/next?kind=hand")  # a player
    versions = text("SELECT session_version FROM players")
    with app.app_context():
        db = get_db()
        db.execute(text("UPDATE players SET session_version = 7"))
        with pytest.raises(RuntimeError, match=r"records\.database\.writing"):
            db.commit()
    with app.app_context():
        db = get_db()
        assert db.scalar(versions) == 0
        with writing(db) as connection:
            connection.execute(text("UPDATE players SET session_version = 1"))
    with app.app_context():
        assert get_db().scalar(versions) == 1


def test_no_write_lock_without_a_database_file(app: Flask) -> None:
    """An in-memory SQLite database needs no file lock, and neither does a database server."""
    memory = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": "sqlite://"})
    assert memory.extensions["crib_database"].write_lock is None
    memory.extensions["crib_database"].dispose()
    if app.extensions["crib_database"].engine.dialect.name != "sqlite":
        assert app.extensions["crib_database"].write_lock is None


def test_stale_session_gets_a_new_guest(app: Flask, client: FlaskClient) -> None:
    """A session naming a player the database no longer has is given a new guest."""
    with client.session_transaction() as session:
        session["player_id"] = 12345
    drill = client.get("/api/drills/next?kind=hand")
    assert drill.status_code == 200
    with client.session_transaction() as session:
        assert session["player_id"] != 12345
    assert (
        client.post(f"/api/drills/{drill.json['id']}/answer", json={"points": 0}).status_code == 200
    )
