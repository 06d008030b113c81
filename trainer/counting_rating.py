"""The counting rating: a player's Glicko-2 rating per kind and overall; deals' difficulty.

A player has a rating (:mod:`trainer.rating`) per kind of drill and an overall one; each deal
class has a difficulty on the same scale.

Each answer is a game between the player and the deal: the player's rating in its kind and
the overall one move by the answer's score (:func:`answer_score`: right and in time wins), and
the deal class's difficulty moves the other way. A deal class (:func:`deal_class`) is a kind
and a hardness the engine measures (:func:`trainer.dealing.measure`); its difficulty starts
there (:func:`seed`) and is learned from how players do on deals like it.

>>> score = answer_score("hand", correct=True, seconds=9.0)
>>> rated = rate(Rating(), Rating(), seed("hand:2"), score)
>>> score, round(rated.kind.rating), round(rated.deal.rating)
(1.0, 1673, 1433)
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from .dealing import KINDS, Deal, measure
from .progress import SPRINT_PENALTY
from .rating import START_RATING, Rating, expected_score, update

T = TypeVar("T")

OVERALL = "overall"
"""The rating over every kind of drill."""
RATED = (*KINDS, OVERALL)
"""What a player is rated on: each kind of drill, and all of them."""
PAR_SECONDS: dict[str, float] = {
    "hand": 12.0,
    "crib": 12.0,
    "pegging": 6.0,
    "discard": 20.0,
    "play": 45.0,
}
"""Seconds within which a right answer is a win, by kind: about what a good counter takes."""
SLOW_RIGHT = 0.5
"""The least a right answer scores, however slow: a draw, still better than a miss."""
LOST_PER_PENALTY = 0.25
"""What a right answer loses for each :data:`trainer.progress.SPRINT_PENALTY` seconds over
par: as in the sprint, where a miss costs that many seconds, time counts against a count."""
PROVISIONAL_DEVIATION = 110.0
"""A rating less sure than this is provisional, shown with a ``?`` (as Lichess shows it)."""
HARDEST = 4
"""The hardness of the hardest deal class (the easiest is 0)."""
SEED_STEP = 150.0
"""Rating points between one hardness and the next when a deal class is first met."""
SEED_DEVIATION = 200.0
"""How sure a new deal class's difficulty is: the engine's measure is a fair first guess."""
CANDIDATES = 4
"""Deals dealt to choose a practice drill from: the one nearest the player's rating is kept."""
TREND_DAYS = 7
"""Days the trend shown beside a rating covers."""

_HARDNESS_FROM: dict[str, tuple[float, ...]] = {
    "hand": (2, 3, 5, 7),
    "crib": (2, 3, 5, 7),
    "play": (5, 7, 9, 12),
}
"""The measures (items in the show, points pegged in a play) from which each hardness on."""
_DISCARD_MARGINS = (2.0, 1.0, 0.5, 0.2)
"""A discard's margins (how far the best throw beats the next) under which each hardness on."""


def answer_score(kind: str, *, correct: bool, seconds: float) -> float:
    """An answer as a game's result: 1 right within the kind's par, 0 wrong.

    A right answer loses :data:`LOST_PER_PENALTY` for each :data:`SPRINT_PENALTY` seconds
    over :data:`PAR_SECONDS`, down to :data:`SLOW_RIGHT`.

    >>> answer_score("hand", correct=True, seconds=22.0)
    0.75
    >>> answer_score("hand", correct=False, seconds=3.0)
    0.0
    """
    if not correct:
        return 0.0
    over = max(0.0, seconds - PAR_SECONDS[kind])
    return max(SLOW_RIGHT, 1.0 - LOST_PER_PENALTY * over / SPRINT_PENALTY)


def hardness(deal: Deal) -> int:
    """How hard the engine measures a deal, from 0 to :data:`HARDEST`.

    A show by its items, a play by the points pegged, a discard by how close its call is, a
    pegging card by how much of the count is shown and the points it pegs.
    """
    value = measure(deal)
    if deal.kind == "discard":
        return sum(value < margin for margin in _DISCARD_MARGINS)
    if deal.kind == "pegging":
        shown = ("after", "before", "none").index(deal.count_shown)
        return min(HARDEST, shown + (value >= 2) + (value >= 4))
    return sum(value >= least for least in _HARDNESS_FROM[deal.kind])


def deal_class(deal: Deal) -> str:
    """The class of deals rated alike: the kind and its hardness (``"crib:3"``)."""
    return f"{deal.kind}:{hardness(deal)}"


def seed(name: str) -> Rating:
    """A deal class's difficulty before anyone has answered one: its hardness, on the scale.

    >>> seed("discard:4").rating, seed("hand:0").rating
    (1800.0, 1200.0)
    """
    level = int(name.rpartition(":")[2])
    return Rating(START_RATING + SEED_STEP * (level - HARDEST / 2), SEED_DEVIATION)


@dataclasses.dataclass(frozen=True)
class Rated:
    """The ratings after one answer."""

    kind: Rating
    """The player's in the answer's kind."""
    overall: Rating
    """The player's overall."""
    deal: Rating
    """The deal class's difficulty."""


def rate(kind: Rating, overall: Rating, deal: Rating, score: float) -> Rated:
    """The ratings after an answer scoring ``score`` (:func:`answer_score`): one rating period.

    The deal class plays the player's rating in the kind, and scores what the player did not.
    """
    return Rated(
        kind=update(kind, [(deal, score)]),
        overall=update(overall, [(deal, score)]),
        deal=update(deal, [(kind, 1.0 - score)]),
    )


def nearest(
    candidates: Sequence[T],
    class_of: Callable[[T], str],
    difficulties: Mapping[str, Rating],
    player: Rating,
) -> T:
    """The candidate the player is likeliest to answer right half the time.

    ``class_of`` names a candidate's class (:func:`deal_class` for deals); a class not in
    ``difficulties`` is at its :func:`seed`.
    """

    def distance(candidate: T) -> float:
        name = class_of(candidate)
        return abs(expected_score(player, difficulties.get(name) or seed(name)) - 0.5)

    return min(candidates, key=distance)


def shown(rating: Rating) -> str:
    """A rating as a page shows it: whole, and ``?`` after it while it is provisional.

    >>> shown(Rating(1523.4, 80.0)), shown(Rating())
    ('1523', '1500?')
    """
    sure = rating.deviation < PROVISIONAL_DEVIATION
    return f"{rating.rating:.0f}{'' if sure else '?'}"


def trend(by_day: Sequence[tuple[str, float]], today: str, days: int = TREND_DAYS) -> float:
    """How far the rating moved in the ``days`` up to ``today``.

    ``by_day`` is the rating at the end of each day answered, oldest first; the rating before
    the window is the last day's before it, or a newcomer's.

    >>> days = [("2027-01-01", 1480.0), ("2027-01-08", 1530.0), ("2027-01-09", 1541.0)]
    >>> trend(days, "2027-01-09")
    61.0
    """
    if not by_day:
        return 0.0
    start = (datetime.date.fromisoformat(today) - datetime.timedelta(days=days - 1)).isoformat()
    before = [rating for day, rating in by_day if day < start]
    return by_day[-1][1] - (before[-1] if before else START_RATING)
