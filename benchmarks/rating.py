"""The counting rating on simulated players of known skill: are they ordered right, and how fast?

Each simulated player has a true skill on the rating scale; each deal class (every kind's
hardness 0 to 4, :func:`trainer.counting_rating.deal_class`) a true difficulty, the engine's
seed (:func:`trainer.counting_rating.seed`) off by a random error (``--seed-error`` points,
standard deviation), so the classes' difficulties must be learned too. Players answer in turns:
a kind at random, a few candidate classes dealt, the one nearest the player's rating kept
(:func:`trainer.counting_rating.nearest`), as practice deals. An answer is right with the
Elo chance ``1 / (1 + 10 ** ((difficulty - skill) / 400))`` and takes the kind's par times
``2 ** ((difficulty - skill) / 400)`` seconds, a random spread on it; it is scored by
:func:`trainer.counting_rating.answer_score` and rated by :func:`trainer.counting_rating.rate`.

Printed: the rank correlation (Spearman) of the overall ratings with the true skills after
each number of answers, and how many answers each player needs to converge: from then on its
rating stays within ``--tolerance`` of its skill, once the population's mean offset is taken
out (a rating is a scale of its own: time makes right answers score under 1, so the whole
scale sits a little below the skills).

Usage:
    python benchmarks/rating.py [--players 60] [--answers 300] [--tolerance 150] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.counting_rating import (
    CANDIDATES,
    HARDEST,
    PAR_SECONDS,
    answer_score,
    nearest,
    rate,
    seed,
)
from trainer.rating import Rating

KINDS = tuple(PAR_SECONDS)
CHECKPOINTS = (10, 25, 50, 100, 200, 300)


def spearman(xs: list[float], ys: list[float]) -> float:
    """The rank correlation of ``xs`` and ``ys`` (no ties among floats drawn at random)."""

    def ranks(values: list[float]) -> list[int]:
        order = sorted(range(len(values)), key=values.__getitem__)
        ranked = [0] * len(values)
        for rank, index in enumerate(order):
            ranked[index] = rank
        return ranked

    return statistics.correlation(ranks(xs), ranks(ys))


def simulate(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    low, high = 1100.0, 1900.0
    skills = [low + (high - low) * i / (args.players - 1) for i in range(args.players)]
    rng.shuffle(skills)
    classes = [f"{kind}:{level}" for kind in KINDS for level in range(HARDEST + 1)]
    truth = {name: seed(name).rating + rng.gauss(0, args.seed_error) for name in classes}
    difficulty: dict[str, Rating] = {}
    kind_ratings = [dict.fromkeys(KINDS, Rating()) for _ in skills]
    overall = [Rating() for _ in skills]
    history: list[list[float]] = [[] for _ in skills]
    for _ in range(args.answers):
        for p, skill in enumerate(skills):
            kind = rng.choice(KINDS)
            dealt = [f"{kind}:{rng.randint(0, HARDEST)}" for _ in range(CANDIDATES)]
            name = nearest(dealt, str, difficulty, kind_ratings[p][kind])
            gap = truth[name] - skill
            correct = rng.random() < 1.0 / (1.0 + 10 ** (gap / 400))
            seconds = PAR_SECONDS[kind] * 2 ** (gap / 400) * rng.lognormvariate(0, 0.3)
            score = answer_score(kind, correct=correct, seconds=seconds)
            deal = difficulty.get(name) or seed(name)
            rated = rate(kind_ratings[p][kind], overall[p], deal, score)
            kind_ratings[p][kind], overall[p] = rated.kind, rated.overall
            difficulty[name] = rated.deal
            history[p].append(rated.overall.rating)

    print(f"{args.players} players of skill {low:.0f} to {high:.0f}, {args.answers} answers each")
    print(f"deal classes' seeds off by {args.seed_error:.0f} points (sd)")
    print("answers  rank correlation  mean offset  mean |error|")
    for n in (c for c in CHECKPOINTS if c <= args.answers):
        at = [h[n - 1] for h in history]
        offset = statistics.fmean(r - s for r, s in zip(at, skills, strict=True))
        error = statistics.fmean(abs(r - offset - s) for r, s in zip(at, skills, strict=True))
        print(f"{n:7}  {spearman(at, skills):16.3f}  {offset:11.0f}  {error:12.0f}")
    final_offset = statistics.fmean(h[-1] - s for h, s in zip(history, skills, strict=True))
    needed = []
    for h, skill in zip(history, skills, strict=True):
        outside = [i for i, r in enumerate(h) if abs(r - final_offset - skill) > args.tolerance]
        needed.append(outside[-1] + 2 if outside else 1)
    converged = [n for n in needed if n <= args.answers]
    print(
        f"answers to converge within ±{args.tolerance:.0f} (and stay): median"
        f" {statistics.median(needed):.0f}, 90th percentile"
        f" {statistics.quantiles(needed, n=10)[-1]:.0f};"
        f" {len(converged)} of {len(needed)} players converged"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--answers", type=int, default=300)
    parser.add_argument("--tolerance", type=float, default=150.0)
    parser.add_argument("--seed-error", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=1)
    simulate(parser.parse_args())


if __name__ == "__main__":
    main()
