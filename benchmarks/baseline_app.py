"""The load benchmark's baseline: the drill round trip's two routes with nothing behind them.

Served by gunicorn exactly as the trainer is (``web.serve.serve(..., app=...)``), it measures
what the server and Flask alone cost on this machine: no database, no session, no scoring. No
trainer built on them answers faster than this.
"""

from __future__ import annotations

import itertools
from typing import Any

from flask import Flask, request

app = Flask(__name__)
_ids = itertools.count(1)
_DRILL = {"kind": "hand", "cards": ["5H", "5D", "5C", "JS"], "starter": "5S", "mode": "practice"}


@app.get("/")
def home() -> str:
    """The readiness probe ``web.serve.spawn`` waits for."""
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
