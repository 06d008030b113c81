"""A board move's own CPU at move 10 and at move ~1,000, beside a drill round trip (issue 54, 2).

A move used to replay the whole game from its stored moves (``Game.from_json``) and say the
whole board again: 76 ms of CPU at the 1,000-move cap against 12.7 ms a drill round trip. Then
a process kept the game each version holds (``records.games.game_of``) and the records said
themselves without ``dataclasses.asdict``; now the moves are rows of their own, so a save
writes its move's row alone and a read of the game's row decodes no move. This calls the
trainer through Flask's test client on one thread, as ``benchmarks/round_trip.py`` does (the
limits off), and counts the process's CPU: a peg on a game growing to ``--moves`` moves, a peg
and its undo on a game of 10 moves and on one of ``--moves`` moves (so the game keeps its
size), and a move refused there (a peg of 0), each against a drill round trip in the same pass.

    python benchmarks/board_moves.py [--moves 996] [--trips 60] [--passes 3]

Prints milliseconds of CPU per call (the median of the passes) and each one's ratio to the
round trip. The undo replays the game without its last move: most of a pair's cost on a big
game is the undo's. The growing game's pegs go to each side in turn, one hole each: at most
240 in all (``--trips`` times ``--passes``), or a side would reach home.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.round_trip import cpu_per_trip, round_trip  # noqa: E402

MAX_PEGS = 240
"""Pegs of one hole, each side in turn, that a game of 121 takes with nobody home."""


class Board:
    """A game kept through the API, its version followed as a page follows it."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        reply = client.post("/api/games", json={"names": ["Ann", "Bob"]})
        self.game: dict[str, Any] = reply.get_json()

    def move(self, **move: Any) -> int:
        """Send ``move`` on the version seen; the status, the board followed when it moved."""
        body = {**move, "version": self.game["version"], "key": self.game["key"]}
        reply = self.client.post(f"/api/games/{self.game['code']}/moves", json=body)
        if reply.status_code == 200:
            self.game = reply.get_json()
        return reply.status_code

    def grow(self, moves: int) -> None:
        """Deals shown for 0 and passed, until the log holds about ``moves`` moves."""
        while self.game["moves"] + 4 <= moves:
            for _ in range(3):
                self.move(move="show", hand=self.game["next_to_show"], points=0)
            self.move(move="deal")

    def peg(self) -> None:
        seat = self.game["moves"] % 2  # each in turn: nobody reaches home
        if self.move(move="peg", seat=seat, points=1, reason="bench") != 200:
            raise RuntimeError("the peg was refused")

    def peg_and_undo(self) -> None:
        if self.move(move="peg", seat=0, points=1, reason="bench") != 200:
            raise RuntimeError("the peg was refused")
        if self.move(move="undo") != 200:
            raise RuntimeError("the undo was refused")

    def refused(self) -> None:
        if self.move(move="peg", seat=0, points=0) != 400:
            raise RuntimeError("the peg of 0 was taken")


def measure(folder: str, moves: int, trips: int, passes: int) -> dict[str, list[float]]:
    """CPU (ms) of each kind of call, one figure a pass, the kinds alternated in each pass."""
    from web import create_app

    settings = {"SECRET_KEY": "board-moves benchmark", "DEALS_PER_MINUTE": 0}
    database = {"DATABASE_URL": f"sqlite:///{folder}/trainer.sqlite", "RATELIMIT_ENABLED": False}
    client = create_app(settings | database).test_client()
    small, big, pegged = Board(client), Board(client), Board(client)
    small.grow(10)
    big.grow(moves)
    pegged.grow(moves - trips * passes)  # pegs alone grow it: to the cap at the last pass
    for _ in range(50):
        round_trip(client)
    calls: dict[str, Callable[[], None]] = {
        "drill round trip": lambda: round_trip(client),
        f"peg at moves {pegged.game['moves']}+": pegged.peg,
        f"peg + undo at move {small.game['moves']}": small.peg_and_undo,
        f"peg + undo at move {big.game['moves']}": big.peg_and_undo,
        f"refused at move {big.game['moves']}": big.refused,
    }
    figures: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(passes):
        for name, call in calls.items():
            figures[name].append(cpu_per_trip(call, trips))
    return figures


def main(argv: list[str] | None = None) -> None:
    """Print each call's CPU and its ratio to a drill round trip."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=996, help="moves in the big game")
    parser.add_argument("--trips", type=int, default=60, help="calls of each kind a pass")
    parser.add_argument("--passes", type=int, default=3, help="passes, the kinds alternated")
    args = parser.parse_args(argv)
    if args.trips * args.passes > MAX_PEGS:
        parser.error(f"--trips times --passes is at most {MAX_PEGS}: a side would reach home")
    with tempfile.TemporaryDirectory(prefix="board-moves-") as folder:
        figures = measure(folder, args.moves, args.trips, args.passes)
    trip = statistics.median(figures["drill round trip"])
    for name, values in figures.items():
        ms = statistics.median(values)
        print(f"{name:24s} {ms:7.3f} ms CPU   {ms / trip:5.2f}x a drill round trip")


if __name__ == "__main__":
    main()
