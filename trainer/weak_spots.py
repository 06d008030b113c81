"""Weak spots: tally a player's answers by category and aim the next deal where they miss.

>>> rng = random.Random(1)
>>> choose_focus("hand", {}, rng) in (None, *Category)
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Iterable, Mapping

from .dealing import Category, DrillKind


@dataclasses.dataclass(frozen=True)
class Tally:
    """How a player has done on one category: answers seen, missed, seconds spent."""

    seen: int = 0
    missed: int = 0
    seconds: float = 0.0

    @property
    def miss_rate(self) -> float:
        """Misses over answers, smoothed so that a new category starts at one in three."""
        return (self.missed + 1) / (self.seen + 3)


_CRIB_TRAP_SHARE = 0.2


def choose_focus(
    kind: DrillKind, tallies: Mapping[Category, Tally], rng: random.Random
) -> Category | None:
    """Pick the category to aim the next drill of ``kind`` at, or ``None`` for a free deal.

    Categories are drawn in proportion to the square of their smoothed miss rate, so a
    player's own mistakes come back often until they stop being mistakes, and up to twice
    as often again where the player is slower than their own average; a free deal keeps a
    third of the drills honest. Crib drills set the crib-flush trap at least one
    time in five.

    >>> rng = random.Random(1)
    >>> bad = {Category.NOBS: Tally(seen=20, missed=15)}
    >>> picks = [choose_focus("hand", bad, rng) for _ in range(200)]
    >>> picks.count(Category.NOBS) > 40  # a free choice would give about 19
    True
    """
    if kind == "crib" and rng.random() < _CRIB_TRAP_SHARE:
        return Category.CRIB_FLUSH
    if rng.random() < 1 / 3:
        return None
    options = [c for c in Category if kind in c.kinds and c is not Category.NINETEEN]
    seen = [t for t in tallies.values() if t.seen]
    pace = sum(t.seconds for t in seen) / max(1, sum(t.seen for t in seen))
    weights = [_weight(tallies.get(c, Tally()), pace) for c in options]
    return rng.choices(options, weights)[0]


def _weight(tally: Tally, pace: float) -> float:
    """A category's pull: its smoothed miss rate squared, doubled at most for slowness."""
    slowness = tally.seconds / tally.seen / pace if tally.seen and pace else 1.0
    return tally.miss_rate**2 * min(2.0, max(1.0, slowness))


def tally(
    answers: Iterable[tuple[Iterable[Category], Collection[Category], float]],
) -> dict[Category, Tally]:
    """Add up answers given as ``(categories present, categories missed, seconds)``.

    >>> nobs = Category.NOBS
    >>> tally([([nobs], [nobs], 4.0), ([nobs], [], 2.0)])[nobs]
    Tally(seen=2, missed=1, seconds=6.0)
    """
    totals: dict[Category, Tally] = {}
    for categories, missed, seconds in answers:
        for category in categories:
            old = totals.get(category, Tally())
            wrong = category in missed
            totals[category] = Tally(old.seen + 1, old.missed + wrong, old.seconds + seconds)
    return totals
