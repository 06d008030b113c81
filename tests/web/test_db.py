"""The database: SQLite pragmas, the schema at start-up, ``flask init-db``."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskCliRunner
from sqlalchemy import inspect, text

from web.db import get_session


def test_schema_created_at_start_up(app: Flask) -> None:
    """The four tables exist as soon as the app is built."""
    tables = set(inspect(app.extensions["crib_engine"]).get_table_names())
    assert {"players", "drills", "answers", "skills"} <= tables


def test_sqlite_runs_in_wal_mode_with_busy_timeout(app: Flask) -> None:
    """Every connection gets WAL, a busy timeout and foreign keys."""
    with app.app_context():
        db = get_session()
        assert db.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.execute(text("PRAGMA busy_timeout")).scalar() == 5000
        assert db.execute(text("PRAGMA foreign_keys")).scalar() == 1


def test_init_db_command(runner: FlaskCliRunner) -> None:
    """``flask init-db`` reports where the database is."""
    result = runner.invoke(args=["init-db"])
    assert result.exit_code == 0
    assert "Initialized the database at sqlite:///" in result.output
