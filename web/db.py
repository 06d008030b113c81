"""The request's connection to the trainer's database (:mod:`records`).

The app holds one :class:`records.database.Database`; a request opens a connection on first
use (:func:`get_db`) and closes it at teardown. Every write commits through
:func:`records.database.writing`.
"""

from __future__ import annotations

from flask import Flask, current_app, g
from sqlalchemy import Connection

from records.database import Database


def database() -> Database:
    """The app's database."""
    found: Database = current_app.extensions["crib_database"]
    return found


def get_db() -> Connection:
    """The request's database connection, opened on first use and closed at teardown."""
    if "db" not in g:
        g.db = database().connect()
    db: Connection = g.db
    return db


def close_db(_error: BaseException | None = None) -> None:
    """Close the request's connection, rolling back anything left uncommitted."""
    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app: Flask, *, prepare_schema: bool = True) -> None:
    """Give ``app`` its database; set up a new database's schema.

    Raises:
        records.schema.SchemaError: (with ``prepare_schema``) the database is behind.
    """
    found = Database(app.config["DATABASE_URL"])
    app.extensions["crib_database"] = found
    app.teardown_appcontext(close_db)
    try:
        if prepare_schema:
            found.prepare_schema()
    finally:
        found.dispose()  # no connection crosses a gunicorn fork, nor outlives a refusal
