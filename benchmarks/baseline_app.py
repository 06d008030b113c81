"""The load benchmark's baselines: the drill round trip's two routes with (almost) nothing behind.

Served by gunicorn exactly as the trainer is (``web.serve.prepare(..., app=...)``), they measure
what the server and Flask cost on this machine, without the trainer's work:

- ``app`` answers from memory: no database, no session, no scoring. No trainer built on Flask
  and gunicorn answers faster than this.
- ``stored_app`` also stores each deal and each answer as the trainer does, one SQLite
  transaction each (WAL, ``synchronous=NORMAL``, in the file ``CRIB_DATABASE_URL`` names), with
  the ``sqlite3`` module and nothing else: no SQLAlchemy, no session check, no grading. It is
  the ceiling for a trainer that keeps what it deals and what it is told.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import threading
import time
from typing import Any

from flask import Flask, request

app = Flask(__name__)
stored_app = Flask(__name__)
_ids = itertools.count(1)
_DRILL = {"kind": "hand", "cards": ["5H", "5D", "5C", "JS"], "starter": "5S", "mode": "practice"}
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS drills (id INTEGER PRIMARY KEY, deal TEXT, dealt_at REAL)",
    "CREATE TABLE IF NOT EXISTS answers (id INTEGER PRIMARY KEY, drill_id INTEGER UNIQUE"
    " REFERENCES drills (id), points INTEGER, correct INTEGER, answered_at REAL)",
)


@app.get("/")
@stored_app.get("/")
def home() -> str:
    """The readiness probe ``deploy.local_server.spawn`` waits for."""
    return "baseline"


@app.get("/api/drills/next")
def next_drill() -> dict[str, Any]:
    """A drill-shaped answer with a new id."""
    return {"id": next(_ids), **_DRILL}


@app.post("/api/drills/<int:drill_id>/answer")
def answer(drill_id: int) -> dict[str, Any]:
    """An answer-shaped reply to the posted JSON."""
    points = request.get_json().get("points")
    return {"id": drill_id, "correct": points == 29, "claimed": points, "total": 29}


_connections = threading.local()


def _database() -> sqlite3.Connection:
    """This thread's connection to the benchmark's SQLite file (made on first use)."""
    connection: sqlite3.Connection | None = getattr(_connections, "connection", None)
    if connection is None:
        path = os.environ["CRIB_DATABASE_URL"].removeprefix("sqlite:///")
        connection = sqlite3.connect(path, timeout=5)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        for statement in _SCHEMA:
            connection.execute(statement)
        _connections.connection = connection
    return connection


@stored_app.get("/api/drills/next")
def next_stored_drill() -> dict[str, Any]:
    """The same drill, stored first (one transaction)."""
    with _database() as database:  # commits
        cursor = database.execute(
            "INSERT INTO drills (deal, dealt_at) VALUES (?, ?)", (json.dumps(_DRILL), time.time())
        )
    return {"id": cursor.lastrowid, **_DRILL}


@stored_app.post("/api/drills/<int:drill_id>/answer")
def stored_answer(drill_id: int) -> dict[str, Any]:
    """The answer, checked against the stored drill and stored (one transaction)."""
    points = request.get_json().get("points")
    with _database() as database:
        (deal,) = database.execute("SELECT deal FROM drills WHERE id = ?", (drill_id,)).fetchone()
        database.execute(
            "INSERT INTO answers (drill_id, points, correct, answered_at) VALUES (?, ?, ?, ?)",
            (drill_id, points, points == 29, time.time()),
        )
    return {
        "id": drill_id,
        "correct": points == 29,
        "claimed": points,
        "total": 29,
        **json.loads(deal),
    }
