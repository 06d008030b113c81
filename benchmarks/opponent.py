"""The computer player's strength: win rates between policies, and the time of a choice.

Plays ``--games`` whole games (trainer.selfplay) of each match in the same run: the strong
policy against the random one, against the greedy one, and against itself (the fairness check:
about 50 %). In every match the strong player takes seat 0 in even games and seat 1 in odd
ones, and the first dealer alternates every two games, so seats and deals are balanced; game
``i`` is dealt from ``random.Random(seed + i)``. Win rates carry their standard error
(sqrt(p (1 - p) / n)). The strong player's choices are timed one by one (discards and cards,
forced cards included) in every match; the median, 90th percentile and maximum are printed.

Usage:
    python benchmarks/opponent.py [--games 200] [--processes 2] [--rules six-card] [--seed 0]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.cards import Card
from trainer.opponent import POLICIES, DiscardView, PlayView, Policy, StrongPolicy
from trainer.rules import get_rules
from trainer.selfplay import play_game
from trainer.throws import throw_model

TARGETS = {"random": ">= 97 %", "greedy": ">= 60 %", "strong": "within 2 SE of 50 %"}


@dataclasses.dataclass
class TimedStrong:
    """The strong policy, each choice's seconds kept."""

    inner: StrongPolicy = dataclasses.field(default_factory=StrongPolicy)
    seconds: list[float] = dataclasses.field(default_factory=list)
    name: str = "strong"

    def discard(self, view: DiscardView, rng: random.Random) -> tuple[Card, ...]:
        start = time.perf_counter()
        choice = self.inner.discard(view, rng)
        self.seconds.append(time.perf_counter() - start)
        return choice

    def play(self, view: PlayView, rng: random.Random) -> Card:
        start = time.perf_counter()
        choice = self.inner.play(view, rng)
        self.seconds.append(time.perf_counter() - start)
        return choice


def play_games(job: tuple[str, str, int, int, int, int]) -> tuple[int, int, list[float]]:
    """Games ``start``… of one match, every ``step``-th: wins of the strong, games, seconds."""
    opponent_name, rules_name, start, step, games, seed = job
    rules = get_rules(rules_name)
    throw_model(rules)  # built once, before any choice is timed
    strong = TimedStrong()
    opponent: Policy = POLICIES[opponent_name]()
    wins = played = 0
    for i in range(start, games, step):
        seat = i % 2
        seats: list[Policy] = [opponent, opponent]
        seats[seat] = strong
        game = play_game(seats, random.Random(seed + i), rules=rules, first_dealer=(i // 2) % 2)
        wins += game.winner == seat
        played += 1
    return wins, played, strong.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games of each match")
    parser.add_argument("--processes", type=int, default=2, help="worker processes")
    parser.add_argument("--rules", default="six-card", help="six-card (121) or five-card (61)")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt by seed + i")
    parser.add_argument("--matches", nargs="+", default=list(POLICIES), choices=list(POLICIES))
    args = parser.parse_args()
    print(f"{args.games} games a match, {args.rules}, {args.processes} processes")
    seconds: list[float] = []
    with ProcessPoolExecutor(args.processes) as pool:
        for name in args.matches:
            start = time.perf_counter()
            jobs = [
                (name, args.rules, k, args.processes, args.games, args.seed)
                for k in range(args.processes)
            ]
            results = list(pool.map(play_games, jobs))
            wins = sum(r[0] for r in results)
            games = sum(r[1] for r in results)
            for r in results:
                seconds += r[2]
            rate = wins / games
            error = math.sqrt(rate * (1 - rate) / games)
            off = (rate - 0.5) / error if error else 0.0
            extra = f", {off:+.1f} SE from 50 %" if name == "strong" else ""
            print(
                f"strong vs {name}: {wins}/{games} = {100 * rate:.1f} % ± {100 * error:.1f}"
                f"{extra}  [{TARGETS[name]}]  ({time.perf_counter() - start:.0f} s)"
            )
    ms = sorted(1000 * s for s in seconds)
    p90 = ms[int(0.9 * (len(ms) - 1))]
    print(
        f"strong choice time over {len(ms):,} choices: median {statistics.median(ms):.2f} ms, "
        f"p90 {p90:.2f} ms, max {ms[-1]:.1f} ms  [<= 50 ms]"
    )


if __name__ == "__main__":
    main()
