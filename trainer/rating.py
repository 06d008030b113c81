"""Glicko-2 ratings: a rating, how sure it is, and how erratic its holder (Glickman's system).

The algorithm is the one in Mark Glickman's "Example of the Glicko-2 system" (2013), steps 1
to 8, the new volatility found by the Illinois algorithm (step 5.1). Ratings and deviations
are on the Glicko scale (1500, 350 for a newcomer); the arithmetic is on Glicko-2's.

>>> player = Rating(1500.0, 200.0, 0.06)
>>> opponents = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0)]
>>> round(update(player, [*opponents, (Rating(1700.0, 300.0), 0.0)]).rating, 2)
1464.05
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

SCALE = 173.7178
"""Glicko points per Glicko-2 unit (400 / ln 10)."""
TAU = 0.5
"""The system constant: how much the volatility may change in one period (0.3 to 1.2)."""
CONVERGENCE = 0.000001
"""The tolerance of the volatility's iteration (step 5.1)."""
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06


@dataclasses.dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    """The rating deviation (RD): the rating is within two of it of the truth, 95 times in 100."""
    volatility: float = START_VOLATILITY
    """How erratic the holder's results are (σ)."""

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale (step 2)."""
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on the Glicko-2 scale (step 2)."""
        return self.deviation / SCALE


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / math.pi**2)


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` expects against ``opponent`` (``E`` of step 3), in [0, 1].

    >>> expected_score(Rating(1500.0), Rating(1500.0))
    0.5
    """
    return 1.0 / (1.0 + math.exp(-_g(opponent.phi) * (player.mu - opponent.mu)))


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period: ``results`` are (opponent, score) pairs.

    A score is in [0, 1] (1 a win, 0 a loss). With no results only the deviation grows (the
    holder was not seen: step 6 alone).

    Raises:
        ValueError: for a score outside [0, 1].
    """
    phi, sigma = player.phi, player.volatility
    if not results:
        return dataclasses.replace(player, deviation=math.sqrt(phi**2 + sigma**2) * SCALE)
    if any(not 0.0 <= score <= 1.0 for _, score in results):
        raise ValueError(f"scores are from 0 to 1, got {[s for _, s in results]}")
    impacts = [(_g(o.phi), expected_score(player, o), s) for o, s in results]
    variance = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in impacts)  # step 3
    gain = sum(g * (s - e) for g, e, s in impacts)
    delta = variance * gain  # step 4
    sigma = _volatility(phi, sigma, variance, delta, tau)  # step 5
    phi_star = math.sqrt(phi**2 + sigma**2)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / variance)  # step 7
    new_mu = player.mu + new_phi**2 * gain
    return Rating(new_mu * SCALE + START_RATING, new_phi * SCALE, sigma)  # step 8


def _volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """The new volatility σ' (step 5): the root of ``f`` by the Illinois algorithm."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (
            ex * (delta**2 - phi**2 - variance - ex) / (2.0 * (phi**2 + variance + ex) ** 2)
            - (x - a) / tau**2
        )

    low = a
    if delta**2 > phi**2 + variance:
        high = math.log(delta**2 - phi**2 - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        c = low + (low - high) * f_low / (f_high - f_low)
        f_c = f(c)
        if f_c * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = c, f_c
    return math.exp(low / 2.0)
