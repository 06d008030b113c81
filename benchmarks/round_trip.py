"""A drill round trip's own CPU, in one process: the trainer beside the two load baselines.

``benchmarks/web_load.py --baseline`` measures the round trip (deal + answer) through gunicorn
and wrk, where one round's ratio swings by a quarter (the kernel's share of the connections
between workers, the threads' contention, the other processes on two cores). This one calls
each app through Flask's test client on one thread, in passes that alternate between the apps,
and counts the process's CPU time: what each app's own code costs a round trip, with the
server left out. Its ratios move by a few percent between runs, so it can judge a change to
the trainer's hot path that the load benchmark cannot see.

- ``bare``: ``benchmarks.baseline_app:app``, answers from memory.
- ``stored``: ``benchmarks.baseline_app:stored_app``, stores each deal and answer with ``sqlite3``.
- ``trainer``: ``web.create_app`` on a fresh SQLite file, as ``crib serve`` builds it (signed
  session, CSRF and origin checks, limits, SQLAlchemy, dealing, grading), with
  ``DEALS_PER_MINUTE = 0`` as in the load benchmark.

    python benchmarks/round_trip.py [--trips 2000] [--passes 3]

Prints milliseconds of CPU a round trip per app (the median of the passes) and the trainer's
ratio to ``stored``.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WARM_UP = 200
"""Round trips each app makes before it is timed (connections, caches, the engine's tables)."""


def trainer_app(folder: str) -> Flask:
    """The trainer on a fresh SQLite file in ``folder``, dealing without a per-minute limit."""
    from web import create_app

    return create_app(
        {
            "SECRET_KEY": "round-trip benchmark",
            "DATABASE_URL": f"sqlite:///{folder}/trainer.sqlite",
            "DEALS_PER_MINUTE": 0,
        }
    )


def round_trip(client: FlaskClient) -> None:
    """Deal a hand and answer it, as a script would (no browser token).

    Raises:
        RuntimeError: either request did not succeed.
    """
    deal = client.get("/api/drills/next?kind=hand")
    if deal.status_code != 200:
        raise RuntimeError(f"deal: {deal.status_code} {deal.get_data(as_text=True)[:200]}")
    drill: dict[str, Any] = deal.get_json()
    answer = client.post(f"/api/drills/{drill['id']}/answer", json={"points": 12})
    if answer.status_code != 200:
        raise RuntimeError(f"answer: {answer.status_code} {answer.get_data(as_text=True)[:200]}")


def cpu_per_trip(trip: Callable[[], None], trips: int) -> float:
    """Milliseconds of this process's CPU a call of ``trip`` takes, over ``trips`` calls."""
    start = time.process_time()
    for _ in range(trips):
        trip()
    return (time.process_time() - start) / trips * 1000


def measure(folder: str, trips: int, passes: int) -> dict[str, list[float]]:
    """Each app's CPU a round trip (ms), one figure a pass; the passes alternate the apps.

    The two SQLite files (the trainer's, ``stored_app``'s) are made in ``folder``.
    """
    os.environ["CRIB_DATABASE_URL"] = f"sqlite:///{folder}/stored.sqlite"  # stored_app's file
    from benchmarks.baseline_app import app as bare_app
    from benchmarks.baseline_app import stored_app

    clients = {
        "bare": bare_app.test_client(),
        "stored": stored_app.test_client(),
        "trainer": trainer_app(folder).test_client(),
    }
    for client in clients.values():
        for _ in range(WARM_UP):
            round_trip(client)
    figures: dict[str, list[float]] = {name: [] for name in clients}
    for _ in range(passes):
        for name, client in clients.items():
            figures[name].append(cpu_per_trip(functools.partial(round_trip, client), trips))
    return figures


def main(argv: list[str] | None = None) -> None:
    """Print each app's CPU a round trip and the trainer's ratio to ``stored``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trips", type=int, default=2000, help="round trips a pass")
    parser.add_argument("--passes", type=int, default=3, help="passes per app, alternated")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="round-trip-") as folder:
        figures = measure(folder, args.trips, args.passes)
    for name, values in figures.items():
        shown = ", ".join(f"{v:.3f}" for v in values)
        print(f"{name:8s} {statistics.median(values):6.3f} ms a round trip  (passes: {shown})")
    trainer, stored = (statistics.median(figures[n]) for n in ("trainer", "stored"))
    print(f"trainer / stored: {trainer / stored:.2f}x  (the app's own work, server left out)")


if __name__ == "__main__":
    main()
