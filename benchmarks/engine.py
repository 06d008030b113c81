"""Scoring engine speed: single shows, the batch path, distributions and discard analysis.

Run: ``python benchmarks/engine.py``. Prints one figure a line; targets in brackets.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from trainer import DECK, score_show
from trainer.discard import CRIB_MODELS, analyze_discards
from trainer.score_tables import combinations, rank_points_array, score_batch
from trainer.show import rank_points_table
from trainer.stats import score_distribution
from trainer.throws import throw_model


def _best_of(runs: int, job: Callable[[], object]) -> float:
    """Best wall time of ``runs`` calls, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    """Print the figures."""
    rng = random.Random(2026)
    start = time.perf_counter()
    rank_points_table()
    rank_points_array(5)
    rank_points_array(4)
    combinations(52, 5)
    print(f"one-time table build: {time.perf_counter() - start:.3f} s  [<= 5 s]")

    deals = [rng.sample(DECK, 5) for _ in range(100_000)]
    seconds = _best_of(3, lambda: [score_show(d[:4], d[4]) for d in deals])
    print(f"score_show (Card objects): {len(deals) / seconds:,.0f} shows/s  [>= 300,000]")
    texts = [[str(c) for c in d] for d in deals[:50_000]]
    seconds = _best_of(3, lambda: [score_show(t[:4], t[4]) for t in texts])
    print(f"score_show (strings like '5H'): {len(texts) / seconds:,.0f} shows/s")
    some = deals[:20_000]
    seconds = _best_of(3, lambda: [score_show(d[:4], d[4]).items for d in some])
    print(f"score_show + itemized breakdown: {len(some) / seconds:,.0f} shows/s")

    cards = np.array([[c.index for c in d] for d in deals])
    seconds = _best_of(5, lambda: score_batch(cards[:, :4], cards[:, 4]))
    print(f"score_batch (NumPy arrays): {len(cards) / seconds:,.0f} shows/s")

    for crib in (False, True):
        seconds = _best_of(3, lambda crib=crib: score_distribution(crib=crib))
        what = "crib" if crib else "hand"
        print(f"full {what} distribution (12,994,800 deals): {seconds:.3f} s  [<= 1 s]")

    start = time.perf_counter()
    throw_model()
    print(f"one-time throw model (crib weights): {time.perf_counter() - start:.3f} s")
    six = [rng.sample(DECK, 6) for _ in range(300)]
    for model in CRIB_MODELS:
        seconds = _best_of(
            3, lambda model=model: [analyze_discards(d, dealer=True, crib_model=model) for d in six]
        )
        print(
            f"exact discard analysis, six-card deal, {model} crib: "
            f"{1000 * seconds / len(six):.2f} ms  [<= 10 ms]"
        )


if __name__ == "__main__":
    main()
