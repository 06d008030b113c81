"""The computer player's strength: win rates between policies, and the time of a choice.

Plays ``--games`` whole games (trainer.selfplay) of each match in the same run: the strong
policy against the random one, against the greedy one, and against itself (the fairness check:
about 50 %). In every match the strong player takes seat 0 in even games and seat 1 in odd
ones, and the first dealer alternates every two games, so seats and deals are balanced; game
``i`` is dealt from ``random.Random(seed + i)``. Win rates carry their standard error
(sqrt(p (1 - p) / n)). The matches advance together, ``--chunk`` games of each at a time, and
each chunk's tally is printed as it ends, so a run stopped early still gives every match so
far. The strong player's choices are timed one by one (discards and cards,
forced cards included) in every match, by the wall clock and by the process's CPU (which other
work on the machine does not lengthen); the median, 90th and 99th percentiles and the longest are
printed.

Usage:
    python benchmarks/opponent.py [--games 200] [--processes 2] [--rules six-card] [--seed 0]
        [--matches random greedy strong] [--chunk 200]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.cards import DECK, Card
from trainer.opponent import POLICIES, DiscardView, PlayView, Policy, StrongPolicy
from trainer.rules import RuleSet, get_rules
from trainer.selfplay import play_game
from trainer.throws import throw_model

TARGETS = {"random": ">= 97 %", "greedy": ">= 60 %", "strong": "within 2 SE of 50 %"}


@dataclasses.dataclass
class TimedStrong:
    """The strong policy, each choice's seconds kept: wall clock, and this process's CPU."""

    inner: StrongPolicy = dataclasses.field(default_factory=StrongPolicy)
    seconds: list[tuple[float, float]] = dataclasses.field(default_factory=list)
    name: str = "strong"

    def discard(self, view: DiscardView, rng: random.Random) -> tuple[Card, ...]:
        start, cpu = time.perf_counter(), time.process_time()
        choice = self.inner.discard(view, rng)
        self.seconds.append((time.perf_counter() - start, time.process_time() - cpu))
        return choice

    def play(self, view: PlayView, rng: random.Random) -> Card:
        start, cpu = time.perf_counter(), time.process_time()
        choice = self.inner.play(view, rng)
        self.seconds.append((time.perf_counter() - start, time.process_time() - cpu))
        return choice


def warm_up(rules: RuleSet) -> None:
    """Build what the first choices would build (the throw model, the score tables)."""
    throw_model(rules)
    rng = random.Random(0)
    deal = rng.sample(DECK, rules.dealt)
    for dealer in (False, True):
        StrongPolicy().discard(DiscardView(tuple(deal), dealer, (0, 0), rules), rng)


def play_games(
    job: tuple[str, str, int, int, int],
) -> tuple[int, int, list[tuple[float, float]]]:
    """Games ``start`` to ``stop`` of one match: wins of the strong, games, choice seconds."""
    opponent_name, rules_name, start, stop, seed = job
    rules = get_rules(rules_name)
    warm_up(rules)
    strong = TimedStrong()
    opponent: Policy = POLICIES[opponent_name]()
    wins = 0
    for i in range(start, stop):
        seat = i % 2
        seats: list[Policy] = [opponent, opponent]
        seats[seat] = strong
        game = play_game(seats, random.Random(seed + i), rules=rules, first_dealer=(i // 2) % 2)
        wins += game.winner == seat
    return wins, stop - start, strong.seconds


def rate_line(name: str, wins: int, games: int) -> str:
    """``strong vs greedy: 640/1000 = 64.0 % ± 1.5`` (and how far from 50 % for the mirror)."""
    rate = wins / games
    error = math.sqrt(rate * (1 - rate) / games)
    off = f", {(rate - 0.5) / error:+.1f} SE from 50 %" if name == "strong" and error else ""
    return f"strong vs {name}: {wins}/{games} = {100 * rate:.1f} % ± {100 * error:.1f}{off}"


def time_line(seconds: list[tuple[float, float]]) -> str:
    """The median, 90th and 99th percentiles and longest of the strong choices' times."""

    def spread(ms: list[float]) -> str:
        ms.sort()
        p90, p99 = (ms[int(q * (len(ms) - 1))] for q in (0.9, 0.99))
        return f"median {statistics.median(ms):.2f}, p90 {p90:.1f}, p99 {p99:.1f}, max {ms[-1]:.0f}"

    wall = spread([1000 * w for w, _ in seconds])
    cpu = spread([1000 * c for _, c in seconds])
    return f"strong choice over {len(seconds):,} choices, ms: wall {wall}; CPU {cpu}  [<= 50 ms]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games of each match")
    parser.add_argument("--processes", type=int, default=2, help="worker processes")
    parser.add_argument("--rules", default="six-card", help="six-card (121) or five-card (61)")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt by seed + i")
    parser.add_argument("--matches", nargs="+", default=list(POLICIES), choices=list(POLICIES))
    parser.add_argument("--chunk", type=int, default=200, help="games a job (a multiple of 4)")
    args = parser.parse_args()
    print(f"{args.games} games a match, {args.rules}, {args.processes} processes", flush=True)
    start = time.perf_counter()
    seconds: list[tuple[float, float]] = []
    tally = {name: [0, 0] for name in args.matches}
    with ProcessPoolExecutor(args.processes) as pool:
        jobs = {  # the matches' chunks in turn, so that all of them advance together
            pool.submit(play_games, (name, args.rules, first, last, args.seed)): name
            for first in range(0, args.games, args.chunk)
            for last in [min(first + args.chunk, args.games)]
            for name in args.matches
        }
        for done in as_completed(jobs):
            name = jobs[done]
            wins, games, taken = done.result()
            tally[name][0] += wins
            tally[name][1] += games
            seconds += taken
            finished = tally[name][1] == args.games
            mark = f"  [{TARGETS[name]}]" if finished else "  ..."
            elapsed = time.perf_counter() - start
            print(f"{rate_line(name, *tally[name])}{mark}  ({elapsed:.0f} s)", flush=True)
            if finished or not sum(g for _, g in tally.values()) % (4 * args.chunk):
                print(time_line(seconds), flush=True)
    print("final:")
    for name, (wins, games) in tally.items():
        print(f"{rate_line(name, wins, games)}  [{TARGETS[name]}]")
    print(time_line(seconds))


if __name__ == "__main__":
    main()
