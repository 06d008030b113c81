"""Precomputed score tables and the batch scorer: the fast path over arrays of deals.

Cards are dense indices 0…51 (``Card.index``: ``(rank - 1) * 4 + suit``). Every table here is
built from :func:`trainer.show.rank_points_table`, itself built from the itemized rules, so the
rules are written once.

>>> import numpy as np
>>> hands = np.array([[18, 17, 16, 43], [0, 4, 8, 12]])  # 5♥ 5♦ 5♣ J♠ / A♣ 2♣ 3♣ 4♣
>>> score_batch(hands, np.array([19, 23])).tolist()  # starters 5♠ / 6♠
[29, 10]
"""

from __future__ import annotations

import functools
from math import comb

import numpy as np
import numpy.typing as npt

from .cards import Rank
from .show import rank_points_table

IntArray = npt.NDArray[np.int64]

_JACK = Rank.JACK - 1  # 0-based rank of a jack


@functools.cache
def rank_points_array(size: int) -> npt.NDArray[np.int8]:
    """Fifteens + pairs + runs of ``size`` ranks (4 or 5), indexed by ``Σ rank_i · 13**i``.

    Ranks are 0-based here; any order of the same ranks gives the same entry. Tuples with
    more than four cards of a rank cannot occur and hold 0.
    """
    digits = np.indices((13,) * size).reshape(size, -1)  # digit i of each index, rank - 1
    rows = np.arange(digits.shape[1])[:, None] * 13
    counts = np.bincount((rows + digits.T).ravel(), minlength=rows.size * 13).reshape(-1, 13)
    valid = counts.max(axis=1) <= 4
    codes = counts @ (5 ** np.arange(13, dtype=np.int64))
    table = rank_points_table()
    keys = np.array(sorted(table), dtype=np.int64)
    values = np.array([table[k] for k in keys], dtype=np.int8)
    out = np.zeros(codes.size, dtype=np.int8)
    out[valid] = values[np.searchsorted(keys, codes[valid])]
    return out


def rank_index(ranks: npt.NDArray[np.integer]) -> IntArray:
    """Row-wise ``Σ ranks[:, i] · 13**i`` for 0-based ranks: the index into a rank table."""
    index = np.zeros(len(ranks), dtype=np.int64)
    for column in range(ranks.shape[1] - 1, -1, -1):
        index *= 13
        index += ranks[:, column]
    return index


@functools.cache
def combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    """Every k-subset of ``range(n)`` in lexicographic order, one per row.

    >>> combinations(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    blocks = []
    for first in range(n - k + 1):
        rest = combinations(n - first - 1, k - 1) + np.uint8(first + 1)
        head = np.full((len(rest), 1), first, dtype=np.uint8)
        blocks.append(np.hstack([head, rest]))
    out = np.vstack(blocks)
    assert len(out) == comb(n, k)
    return out


def rank_points(cards: npt.NDArray[np.integer]) -> npt.NDArray[np.int8]:
    """Fifteens + pairs + runs of each row of card indices (4 or 5 cards, starter included)."""
    cards = np.asarray(cards)
    table = rank_points_array(cards.shape[1])
    points: npt.NDArray[np.int8] = table[rank_index(cards // 4)]
    return points


def suit_points(
    hands: npt.NDArray[np.integer], starters: npt.NDArray[np.integer], *, crib: bool = False
) -> npt.NDArray[np.int8]:
    """Flush + nobs of each hand (N, h) with its starter (N,)."""
    size = hands.shape[1]
    suits = hands % 4
    starter_suits = starters % 4
    hand_flush = np.ones(len(hands), dtype=bool)
    nobs = np.zeros(len(hands), dtype=np.int8)
    for column in range(size):
        hand_flush &= suits[:, column] == suits[:, 0]
        nobs += (hands[:, column] // 4 == _JACK) & (suits[:, column] == starter_suits)
    with_starter = hand_flush & (starter_suits == suits[:, 0])
    points: npt.NDArray[np.int8] = nobs + with_starter.astype(np.int8) * np.int8(size + 1)
    if not crib:
        points += (hand_flush & ~with_starter).astype(np.int8) * np.int8(size)
    return points


def score_batch(
    hands: npt.NDArray[np.integer], starters: npt.NDArray[np.integer], *, crib: bool = False
) -> IntArray:
    """Show scores of many deals at once: ``hands`` is (N, h) card indices, ``starters`` (N,).

    Valid deals are assumed (distinct cards; h = 3 or 4); use :func:`trainer.score_show` to
    check and itemize a single deal.
    """
    hands = np.asarray(hands)
    starters = np.asarray(starters)
    total = rank_points(np.column_stack([hands, starters])).astype(np.int64)
    return total + suit_points(hands, starters, crib=crib)
