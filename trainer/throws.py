"""How players throw: discard frequencies by rank, and the crib values they imply.

A player does not throw two cards at random. The dealer throws what helps his own crib, the pone
what hurts the dealer's least. This module finds, for a two-player rule set, how often each pair
of ranks is thrown by each, by Craig Hessel's method: every hand of ranks that can be dealt
(18,395 six-card hands, each weighted by its number of suit choices) keeps the split with the
best expected hand plus (dealer) or minus (pone) crib, where the crib is valued with the other
player's throws as they are; then the crib values are worked out again from the new throws,
until no hand changes its choice (a fixed point). Suits are not followed (flushes are left out,
a jack's nobs counts its chance of sharing the starter's suit, 12/51), as in Hessel's tables.

The result weights the other player's two crib cards in :func:`trainer.discard.analyze_discards`
(``crib_model="weighted"``), and gives the published kind of table (:func:`crib_by_throw`): the
average crib by the two ranks thrown, to one's own crib and to the opponent's.

>>> model = throw_model()
>>> five, king = 4, 12  # 0-based ranks
>>> round(float(uniform_crib_table()[five, king]), 2)  # 5-K to a crib, the other throw random
6.81
>>> round(float(model.to_opponent_crib[five, king]), 2)  # to the dealer, who throws for it
6.97
>>> round(float(model.to_own_crib[five, king]), 2)  # to one's own, the pone throwing against
6.47
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from math import comb

import numpy as np
import numpy.typing as npt

from .cards import Rank
from .errors import UnknownCribModelError
from .rules import SIX_CARD, RuleSet
from .score_tables import rank_index, rank_points_array

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

NOBS_CHANCE = 12 / 51
"""Chance that a jack of unknown suit shares the starter's suit (12 of the other 51 cards)."""
TOLERANCE = 1e-4
"""The fixed point is reached when no crib table entry moves more than this in a round."""
MAX_ROUNDS = 1000
"""Rounds of throwing and revaluing the crib before giving up on a fixed point."""
_JACK = Rank.JACK - 1
_PAIRS = np.array(list(itertools.combinations_with_replacement(range(13), 2)), dtype=np.int64)
"""The 91 pairs of 0-based ranks (low, high)."""


@dataclasses.dataclass(frozen=True)
class ThrowModel:
    """Who throws what at the fixed point, and the crib tables that go with it.

    Tables are 13 × 13, indexed by 0-based ranks (ace 0 … king 12), symmetric.
    """

    rules: RuleSet
    """The two-player rule set the hands were dealt by."""
    dealer_throws: FloatArray
    """How often the dealer throws each pair of ranks (``[a, b]`` and ``[b, a]`` both hold the
    frequency of the pair; the 91 pairs sum to 1)."""
    pone_throws: FloatArray
    """How often the pone throws each pair of ranks."""
    to_own_crib: FloatArray
    """Average crib when the dealer throws ranks a and b and the pone throws as modelled."""
    to_opponent_crib: FloatArray
    """Average crib when the pone throws ranks a and b and the dealer throws as modelled."""
    rounds: int
    """Rounds it took to reach the fixed point."""

    def propensity(self, *, dealer: bool) -> FloatArray:
        """How much likelier each pair of ranks is thrown than two random cards are those ranks.

        Args:
            dealer: the dealer's throws (else the pone's).

        Returns:
            A 13 × 13 array: throw frequency / random-pair frequency (0 for pairs never thrown).
        """
        throws = self.dealer_throws if dealer else self.pone_throws
        return throws / _as_matrix(_random_pair_frequency())


def _as_matrix(by_pair: FloatArray) -> FloatArray:
    """A value per rank pair (91, in ``_PAIRS`` order) as a symmetric 13 × 13 array."""
    matrix = np.zeros((13, 13))
    matrix[_PAIRS[:, 0], _PAIRS[:, 1]] = by_pair
    matrix[_PAIRS[:, 1], _PAIRS[:, 0]] = by_pair
    return matrix


def _pair_ways(counts: IntArray) -> IntArray:
    """Card pairs of each rank pair, from ``counts`` cards of each rank: (..., 13) → (..., 91)."""
    low = counts[..., _PAIRS[:, 0]]
    high = counts[..., _PAIRS[:, 1]]
    same = _PAIRS[:, 0] == _PAIRS[:, 1]
    ways: IntArray = np.where(same, low * (low - 1) // 2, low * high)
    return ways


@functools.cache
def _random_pair_frequency() -> FloatArray:
    """How often two random cards of a full deck are each pair of ranks (91, sums to 1)."""
    ways = _pair_ways(np.full(13, 4, dtype=np.int64)).astype(np.float64)
    frequency: FloatArray = ways / ways.sum()
    return frequency


@functools.cache
def _crib_outcomes() -> tuple[FloatArray, FloatArray]:
    """Points and starter counts of every (thrown pair, other pair, starter rank), by rank.

    Returns:
        Crib points (fifteens, pairs, runs, nobs) and how many starters of the rank are left,
        both (91 thrown, 91 other, 13 starter ranks).
    """
    thrown_counts = np.zeros((91, 13), dtype=np.int64)
    np.add.at(thrown_counts, (np.arange(91)[:, None], _PAIRS), 1)
    starters = 4 - thrown_counts[:, None, :] - thrown_counts[None, :, :]
    pair_index = rank_index(_PAIRS)
    index = (
        pair_index[:, None, None]
        + pair_index[None, :, None] * 13**2
        + np.arange(13)[None, None, :] * 13**4
    )
    points = rank_points_array(5)[index].astype(np.float64)
    jacks = (_PAIRS == _JACK).sum(axis=1)
    points += NOBS_CHANCE * (jacks[:, None, None] + jacks[None, :, None])
    return points, np.clip(starters, 0, None).astype(np.float64)


def _crib_table(other_propensity: FloatArray) -> FloatArray:
    """Average crib (fifteens, pairs, runs, nobs) by the two ranks one player throws.

    The other player's two cards are drawn from the other 50 with weights ``other_propensity``
    (13 × 13, by their ranks), the starter from the 48 left.
    """
    points, starters = _crib_outcomes()
    thrown_counts = np.zeros((91, 13), dtype=np.int64)
    np.add.at(thrown_counts, (np.arange(91)[:, None], _PAIRS), 1)
    other = _pair_ways(4 - thrown_counts) * other_propensity[_PAIRS[:, 0], _PAIRS[:, 1]]
    weight = other[:, :, None] * starters
    by_pair: FloatArray = (weight * points).sum(axis=(1, 2)) / weight.sum(axis=(1, 2))
    return _as_matrix(by_pair)


@functools.cache
def uniform_crib_table() -> FloatArray:
    """Average crib by the two ranks thrown when the other player throws two random cards.

    The same to one's own crib and to the opponent's: 13 × 13, 0-based ranks.
    """
    return _crib_table(np.ones((13, 13)))


@dataclasses.dataclass(frozen=True)
class _DealtHands:
    """Every hand of ranks a rule set deals, with each split's kept-hand value."""

    counts: IntArray
    """(H, 13): each hand's cards of each rank."""
    weight: FloatArray
    """(H,): card hands with these ranks (the product of C(4, count) over ranks)."""
    thrown: IntArray
    """(H, S): the rank pair thrown by each split, as an index into ``_PAIRS``."""
    hand_value: FloatArray
    """(H, S): expected show of the kept ranks over the starter (fifteens, pairs, runs, nobs)."""

    @classmethod
    def build(cls, rules: RuleSet) -> _DealtHands:
        rows = itertools.combinations_with_replacement(range(13), rules.dealt)
        hands = np.array(list(rows), dtype=np.int64)
        counts = np.zeros((len(hands), 13), dtype=np.int64)
        np.add.at(counts, (np.arange(len(hands))[:, None], hands), 1)
        possible = counts.max(axis=1) <= 4
        hands, counts = hands[possible], counts[possible]
        weight = np.prod(np.array([comb(4, n) for n in range(5)])[counts], axis=1)
        splits = list(itertools.combinations(range(rules.dealt), rules.discards))
        kept_at = [[i for i in range(rules.dealt) if i not in s] for s in splits]
        thrown = hands[:, np.array(splits)]  # (H, S, 2)
        kept = hands[:, np.array(kept_at)]  # (H, S, keep)
        pair_id = _as_matrix(np.arange(91, dtype=np.float64)).astype(np.int64)
        thrown_id = pair_id[thrown[..., 0], thrown[..., 1]]
        # Rank-table index of [kept..., starter]: digits in base 13.
        kept_index = rank_index(kept.reshape(-1, rules.hand_size)).reshape(kept.shape[:2])
        index = kept_index[:, :, None] + np.arange(13) * 13**rules.hand_size
        points = rank_points_array(rules.hand_size + 1)[index].astype(np.float64)
        unseen = 52 - rules.dealt
        value = (points * (4 - counts)[:, None, :]).sum(axis=2) / unseen
        value += NOBS_CHANCE * (kept == _JACK).sum(axis=2)
        return cls(counts, weight.astype(np.float64), thrown_id, value)

    def best_throws(self, crib_value: FloatArray, *, dealer: bool) -> IntArray:
        """Each hand's best thrown rank pair, as an index into ``_PAIRS``.

        Args:
            crib_value: the crib's value for each thrown rank pair (91,).
            dealer: the crib counts for the thrower (else against him).

        Returns:
            (H,) pair indices.
        """
        sign = 1.0 if dealer else -1.0
        chosen = np.argmax(self.hand_value + sign * crib_value[self.thrown], axis=1)
        best: IntArray = self.thrown[np.arange(len(chosen)), chosen]
        return best

    def throws(self, crib_value: FloatArray, *, dealer: bool) -> FloatArray:
        """How often each rank pair is thrown when every hand throws its best.

        Args:
            crib_value: the crib's value for each thrown rank pair (91,).
            dealer: the crib is the thrower's own (else it counts against him).

        Returns:
            The frequency of each thrown rank pair (91,), summing to 1.
        """
        thrown = self.best_throws(crib_value, dealer=dealer)
        frequency = np.bincount(thrown, weights=self.weight, minlength=91)
        share: FloatArray = frequency / frequency.sum()
        return share


@functools.cache
def _dealt_hands(rules: RuleSet) -> _DealtHands:
    return _DealtHands.build(rules)


@functools.cache
def throw_model(rules: RuleSet = SIX_CARD) -> ThrowModel:
    """Both players' throws at the fixed point, starting from random throws (built once).

    Args:
        rules: a two-player rule set (six-card or five-card).

    Returns:
        The throws and crib tables where no dealt hand changes its choice any more.

    Raises:
        UnknownCribModelError: for a game of more than two players (not modelled).
    """
    if rules.players != 2:
        raise UnknownCribModelError(
            f"the weighted crib model is for two-player games, not {rules.name}: "
            "use the uniform crib model"
        )
    hands = _dealt_hands(rules)
    random = _random_pair_frequency()
    dealer_throws, pone_throws = random, random
    to_own = to_opponent = uniform_crib_table()
    for rounds in range(1, MAX_ROUNDS + 1):
        # Fictitious play: each round moves the throws 1/(rounds + 1) of the way to the best
        # replies (a full step flip-flops between two states).
        step = 1 / (rounds + 1)
        best = hands.throws(to_own[_PAIRS[:, 0], _PAIRS[:, 1]], dealer=True)
        dealer_throws = dealer_throws + step * (best - dealer_throws)
        new_opponent = _crib_table(_as_matrix(dealer_throws / random))
        best = hands.throws(new_opponent[_PAIRS[:, 0], _PAIRS[:, 1]], dealer=False)
        pone_throws = pone_throws + step * (best - pone_throws)
        new_own = _crib_table(_as_matrix(pone_throws / random))
        moved = max(np.abs(new_own - to_own).max(), np.abs(new_opponent - to_opponent).max())
        to_own, to_opponent = new_own, new_opponent
        if moved < TOLERANCE:
            return ThrowModel(
                rules,
                _as_matrix(dealer_throws),
                _as_matrix(pone_throws),
                to_own,
                to_opponent,
                rounds,
            )
    raise RuntimeError(f"the throws did not settle in {MAX_ROUNDS} rounds")  # pragma: no cover


def crib_by_throw(*, dealer: bool, model: ThrowModel | None = None) -> FloatArray:
    """Average crib by the two ranks thrown, made the way the published tables are.

    Over every six-card hand of ranks whose best split throws the pair (weighted by its suit
    choices): the thrower's other four cards out of the pack, the other player's two cards
    weighted by his throws, every starter. This is how Hessel's tables are averaged, so it is
    what they are compared with (``benchmarks/crib_models.py``).

    Args:
        dealer: the thrower is the dealer (to his own crib), else the pone.
        model: the throws at the fixed point; ``None`` for the uniform model (the other
            player's two cards any alike, the thrower choosing by the uniform crib).

    Returns:
        13 × 13, 0-based ranks; NaN for a pair no hand throws.
    """
    hands = _dealt_hands(SIX_CARD)
    if model is None:
        crib_value = uniform_crib_table()
        other = np.ones((13, 13))
    else:
        crib_value = model.to_own_crib if dealer else model.to_opponent_crib
        other = model.propensity(dealer=not dealer)
    thrown = hands.best_throws(crib_value[_PAIRS[:, 0], _PAIRS[:, 1]], dealer=dealer)
    points, _ = _crib_outcomes()
    other_counts = np.zeros((91, 13), dtype=np.int64)
    np.add.at(other_counts, (np.arange(91)[:, None], _PAIRS), 1)
    total = np.zeros(91)
    weight = np.zeros(91)
    for start in range(0, len(thrown), _CHUNK):
        part = slice(start, start + _CHUNK)
        left = 4 - hands.counts[part]  # (n, 13): the pack without the thrower's six
        others = _pair_ways(left) * other[_PAIRS[:, 0], _PAIRS[:, 1]]  # (n, 91)
        starters = np.clip(left[:, None, :] - other_counts[None], 0, None)  # (n, 91, 13)
        ways = others[:, :, None] * starters
        crib = (ways * points[thrown[part]]).sum(axis=(1, 2)) / ways.sum(axis=(1, 2))
        np.add.at(total, thrown[part], hands.weight[part] * crib)
        np.add.at(weight, thrown[part], hands.weight[part])
    with np.errstate(invalid="ignore"):
        return _as_matrix(total / weight)


_CHUNK = 2000
"""Hands per step in :func:`crib_by_throw` (bounds its memory)."""
