"""Exact score distributions over every hand (or crib) and starter."""

from __future__ import annotations

import dataclasses

import numpy as np

from .rules import SIX_CARD, RuleSet
from .score_tables import combinations, rank_points, suit_points

MAX_SCORE = 29


@dataclasses.dataclass(frozen=True)
class Distribution:
    """How many (cards, starter) combinations score each total."""

    counts: tuple[int, ...]
    """``counts[n]`` combinations score ``n`` points, for n = 0 … 29."""
    crib: bool
    """Whether these are crib scores."""
    rules: RuleSet
    """The rule set."""

    @property
    def total(self) -> int:
        """Number of combinations counted."""
        return sum(self.counts)

    @property
    def mean(self) -> float:
        """Mean score."""
        return sum(n * c for n, c in enumerate(self.counts)) / self.total

    @property
    def possible(self) -> tuple[tuple[int, int], ...]:
        """``(points, combinations)`` for every total that some combination scores."""
        return tuple((n, c) for n, c in enumerate(self.counts) if c)

    @property
    def never(self) -> tuple[int, ...]:
        """Totals below the highest possible that no combination scores (19 in six-card)."""
        top = self.possible[-1][0]
        return tuple(n for n, c in enumerate(self.counts[:top]) if not c)

    def to_json(self) -> dict[str, object]:
        """The possible totals and their counts, the totals never scored, total and mean.

        Returns:
            ``{"counts": {"0": 1009008, …, "29": 4}, "never": [19, 25, 26, 27],
            "total": 12994800, "mean": 4.769152, "crib": false, "rules": "six-card"}``.
        """
        return {
            "counts": {str(n): c for n, c in self.possible},
            "never": list(self.never),
            "total": self.total,
            "mean": round(self.mean, 6),
            "crib": self.crib,
            "rules": self.rules.name,
        }


def score_distribution(*, crib: bool = False, rules: RuleSet = SIX_CARD) -> Distribution:
    """Count every (hand, starter) combination of the rule set by score, exactly.

    Each set of ``show_size + 1`` cards is scored once for each of its cards as the starter;
    fifteens, pairs and runs do not depend on which card is the starter, so they are looked up
    once per set.
    """
    size = rules.show_size(crib=crib)
    deals = combinations(52, size + 1)
    by_ranks = rank_points(deals)
    counts = np.zeros(MAX_SCORE + 1, dtype=np.int64)
    for starter_column in range(size + 1):
        hand = np.delete(deals, starter_column, axis=1)
        totals = by_ranks + suit_points(hand, deals[:, starter_column], crib=crib)
        counts += np.bincount(totals, minlength=MAX_SCORE + 1)
    return Distribution(tuple(int(c) for c in counts), crib, rules)
