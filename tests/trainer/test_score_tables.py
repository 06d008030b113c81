"""The batch scorer and its tables agree with the itemized show on any deal."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from trainer.cards import DECK, Card, parse_cards
from trainer.rules import FIVE_CARD, SIX_CARD, RuleSet
from trainer.score_tables import combinations, rank_index, rank_points_array, score_batch
from trainer.show import score_show

TWENTY_NINE = parse_cards("5H 5D 5C JS 5S")
ZERO = parse_cards("2C 4D 6H 8S KC")


@pytest.mark.parametrize("n, k", [(4, 2), (5, 0), (6, 6), (7, 1), (10, 3), (13, 5)])
def test_combinations(n: int, k: int) -> None:
    """Every k-subset once, in lexicographic order."""
    rows = combinations(n, k)
    assert rows.shape == (comb(n, k), k)
    assert [tuple(r) for r in rows.tolist()] == list(itertools.combinations(range(n), k))


@pytest.mark.parametrize("size", [4, 5])
def test_rank_table_ignores_order(size: int) -> None:
    """Any order of the same ranks finds the same entry."""
    rng = np.random.default_rng(size)
    ranks = rng.integers(0, 13, (2000, size))
    table = rank_points_array(size)
    expected = table[rank_index(ranks)]
    for permutation in itertools.permutations(range(size)):
        assert (table[rank_index(ranks[:, list(permutation)])] == expected).all()


def test_impossible_rank_rows_hold_zero() -> None:
    """Five cards of one rank cannot occur and score nothing."""
    table = rank_points_array(5)
    assert [int(table[rank_index(np.full((1, 5), r))[0]]) for r in range(13)] == [0] * 13


def deal_strategy(size: int) -> st.SearchStrategy[list[Card]]:
    """``size`` hand cards followed by the starter."""
    return st.lists(st.sampled_from(DECK), min_size=size + 1, max_size=size + 1, unique=True)


@example(cards=TWENTY_NINE, crib=False)
@example(cards=ZERO, crib=True)
@given(cards=deal_strategy(4), crib=st.booleans())
def test_batch_matches_show(cards: list[Card], crib: bool) -> None:
    """score_batch on card indices equals score_show on the cards."""
    hand, starter = cards[:-1], cards[-1]
    batch = score_batch(np.array([[c.index for c in hand]]), np.array([starter.index]), crib=crib)
    assert batch.tolist() == [score_show(hand, starter, crib=crib).total]


@given(cards=deal_strategy(3))
def test_batch_matches_show_five_card(cards: list[Card]) -> None:
    """Three-card hands of the five-card game too."""
    hand, starter = cards[:-1], cards[-1]
    batch = score_batch(np.array([[c.index for c in hand]]), np.array([starter.index]))
    assert batch.tolist() == [score_show(hand, starter, rules=FIVE_CARD).total]


@pytest.mark.parametrize("crib", [False, True])
@pytest.mark.parametrize("rules", [SIX_CARD, FIVE_CARD], ids=lambda r: r.name)
def test_batch_matches_show_in_bulk(crib: bool, rules: RuleSet) -> None:
    """Thousands of random deals at once, shuffled rows and all."""
    size = rules.show_size(crib=crib)
    rng = np.random.default_rng(121)
    deals = np.argsort(rng.random((3000, 52)), axis=1)[:, : size + 1]
    totals = score_batch(deals[:, :-1], deals[:, -1], crib=crib)
    expected = [
        score_show([DECK[i] for i in row[:-1]], DECK[row[-1]], crib=crib, rules=rules).total
        for row in deals
    ]
    assert totals.tolist() == expected


def test_batch_hand_order_free() -> None:
    """Permuting the hand columns never changes a score."""
    rng = np.random.default_rng(7)
    deals = np.argsort(rng.random((3000, 52)), axis=1)[:, :5]
    expected = score_batch(deals[:, :4], deals[:, 4])
    for permutation in itertools.permutations(range(4)):
        assert (score_batch(deals[:, list(permutation)], deals[:, 4]) == expected).all()
