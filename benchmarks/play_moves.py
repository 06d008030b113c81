"""A move in a game against the computer: its server CPU beside a drill round trip (issue opponent).

A move (``POST /api/play/<id>/moves``) is the player's throw, card or count and the computer's
moves after it (its discard is :class:`trainer.opponent.StrongPolicy`'s, the heaviest), saved on
the version seen, each claim stored as an answered drill (``records.versus.save``). A process
keeps the game each version holds (``web.play._GAMES``), so a move does not replay the game's
moves; ``--replayed`` also measures moves with that forgotten before each, as after a restart or
in another worker. This calls the trainer through Flask's test client on one thread, as
``benchmarks/round_trip.py`` and ``benchmarks/board_moves.py`` do (the limits off), claims every
count exactly, and counts the process's CPU: each kind of move over whole games to 121 (a game
finished starts the next, its start counted in the move that ends it), against a drill round
trip (a deal and its answer) in the same passes.

    python benchmarks/play_moves.py [--moves 300] [--trips 200] [--passes 3] [--replayed]

Prints milliseconds of CPU per call (the median of the passes) and each one's ratio to the
round trip.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.round_trip import cpu_per_trip, round_trip  # noqa: E402
from tests.drills import game_items  # noqa: E402


class Games:
    """Games against the computer played through the API, claimed exactly, one after another."""

    def __init__(self, client: FlaskClient, forget: bool) -> None:
        self.client = client
        self.forget = forget
        self.game = self._start()

    def _start(self) -> dict[str, Any]:
        game: dict[str, Any] = self.client.post("/api/play", json={}).get_json()
        return game

    def move(self) -> tuple[str, float]:
        """One move: its kind and its CPU (ms); a game over starts the next."""
        from web import play

        game = self.game
        if self.forget:
            play._GAMES.values.clear()
        start = time.process_time()
        kind = "throw" if game["waiting"] == "discard" else game["waiting"]
        if kind == "throw":
            body: dict[str, Any] = {"do": "throw", "cards": game["hand"][: game["throw"]]}
        else:
            card = game["playable"][0] if kind == "play" else None
            claim = sum(i.points for i in game_items(game, card))
            body = {"do": kind, "claim": claim} | ({"card": card} if card else {})
        reply = self.client.post(
            f"/api/play/{game['id']}/moves", json=body | {"version": game["version"]}
        )
        if reply.status_code != 200:
            raise RuntimeError(f"move: {reply.status_code} {reply.get_data(as_text=True)[:200]}")
        self.game = reply.get_json()
        if self.game["result"] is not None:
            self.game = self._start()
        return kind, (time.process_time() - start) * 1000


def measure(
    folder: str, moves: int, trips: int, passes: int, replayed: bool
) -> dict[str, list[float]]:
    """CPU (ms) of each kind of call, one figure a pass, the kinds alternated in each pass."""
    from web import create_app

    settings = {"SECRET_KEY": "play-moves benchmark", "DEALS_PER_MINUTE": 0}
    database = {"DATABASE_URL": f"sqlite:///{folder}/trainer.sqlite", "RATELIMIT_ENABLED": False}
    client = create_app(settings | database).test_client()
    players = {"kept": Games(client, forget=False)}
    if replayed:
        players["replayed"] = Games(client, forget=True)
    for _ in range(50):
        round_trip(client)
        for games in players.values():
            games.move()
    figures: dict[str, list[float]] = defaultdict(list)
    for _ in range(passes):
        figures["drill round trip"].append(cpu_per_trip(lambda: round_trip(client), trips))
        for name, games in players.items():
            by_kind: dict[str, list[float]] = defaultdict(list)
            for _ in range(moves):
                kind, ms = games.move()
                by_kind[kind].append(ms)
                by_kind["any"].append(ms)
            for kind in ("any", "throw", "play", "count"):
                figures[f"{kind} ({name})"].append(statistics.mean(by_kind[kind]))
    return figures


def main(argv: list[str] | None = None) -> None:
    """Print each call's CPU and its ratio to a drill round trip."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="moves a pass")
    parser.add_argument("--trips", type=int, default=200, help="drill round trips a pass")
    parser.add_argument("--passes", type=int, default=3, help="passes, the kinds alternated")
    parser.add_argument(
        "--replayed", action="store_true", help="also moves with the kept games forgotten"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="play-moves-") as folder:
        figures = measure(folder, args.moves, args.trips, args.passes, args.replayed)
    trip = statistics.median(figures["drill round trip"])
    for name, values in figures.items():
        ms = statistics.median(values)
        print(f"{name:24s} {ms:7.3f} ms CPU   {ms / trip:5.2f}x a drill round trip")


if __name__ == "__main__":
    main()
