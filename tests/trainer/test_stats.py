"""Exact score distributions: the published figures, and cross-checks by other enumerations."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from trainer.rules import FIVE_CARD
from trainer.score_tables import score_batch
from trainer.stats import MAX_SCORE, Distribution, score_distribution

DEALS = comb(52, 4) * 48
"""Every four-card hand with every starter: 12,994,800."""
NEVER = (19, 25, 26, 27)
"""The totals no six-card hand scores."""


@pytest.fixture(scope="module")
def hands() -> Distribution:
    return score_distribution()


@pytest.fixture(scope="module")
def cribs() -> Distribution:
    return score_distribution(crib=True)


def four_flush_scores() -> np.ndarray:
    """Hand scores of every one-suit hand with a starter of another suit (brute force)."""
    rows = [
        ([4 * (r - 1) + suit for r in ranks], starter)
        for suit in range(4)
        for ranks in itertools.combinations(range(1, 14), 4)
        for starter in range(52)
        if starter % 4 != suit
    ]
    hand = np.array([r[0] for r in rows])
    return score_batch(hand, np.array([r[1] for r in rows]))


def test_published_hand_distribution(hands: Distribution) -> None:
    """The published figures: 1,009,008 zeros, 76 hands of 28, 4 of 29, mean 4.769152."""
    assert hands.total == DEALS == 12_994_800
    assert hands.counts[0] == 1_009_008
    assert hands.counts[28] == 76
    assert hands.counts[29] == 4
    assert [hands.counts[n] for n in NEVER] == [0, 0, 0, 0]
    assert hands.never == NEVER
    assert round(hands.mean, 6) == 4.769152
    assert len(hands.counts) == MAX_SCORE + 1


def test_to_json(hands: Distribution) -> None:
    """Counts keyed by score, the total and the rounded mean."""
    data = hands.to_json()
    assert data["counts"] == {str(n): c for n, c in enumerate(hands.counts) if n not in NEVER}
    assert data["never"] == list(NEVER)
    assert (data["total"], data["mean"], data["crib"], data["rules"]) == (
        12_994_800,
        4.769152,
        False,
        "six-card",
    )


@pytest.mark.slow
def test_crib_differs_by_four_card_flushes(hands: Distribution, cribs: Distribution) -> None:
    """A crib scores as a hand except that a hand-only flush of four counts nothing.

    So the crib counts are the hand counts with every one-suit hand over an off-suit starter
    moved down four points; those hands are enumerated here separately.
    """
    flushes = np.bincount(four_flush_scores(), minlength=MAX_SCORE + 5)
    assert flushes.sum() == 4 * comb(13, 4) * 39
    expected = [hands.counts[n] - flushes[n] + flushes[n + 4] for n in range(MAX_SCORE + 1)]
    assert list(cribs.counts) == expected
    assert cribs.total == DEALS
    assert cribs.mean == pytest.approx(hands.mean - 4 * flushes.sum() / DEALS, rel=1e-12)
    assert cribs.crib and not hands.crib


def test_five_card_hands_by_brute_force() -> None:
    """Five-card game hands: every three-card hand with each of its 49 starters."""
    cards = np.arange(52)
    hand_rows = np.array(list(itertools.combinations(cards, 3)))
    starters = np.tile(cards, len(hand_rows))
    hand = np.repeat(hand_rows, 52, axis=0)
    distinct = (hand != starters[:, None]).all(axis=1)
    totals = score_batch(hand[distinct], starters[distinct])
    expected = np.bincount(totals, minlength=MAX_SCORE + 1)
    distribution = score_distribution(rules=FIVE_CARD)
    assert list(distribution.counts) == expected.tolist()
    assert distribution.total == comb(52, 3) * 49
    assert distribution.counts[20] == 4  # four fives: the most a three-card hand can hold


def test_five_card_crib_is_a_six_card_crib(cribs: Distribution) -> None:
    """Both games count a four-card crib with the starter."""
    assert score_distribution(crib=True, rules=FIVE_CARD).counts == cribs.counts


@pytest.mark.slow
@pytest.mark.parametrize("crib", [False, True])
def test_five_card_lists_only_possible_totals(crib: bool) -> None:
    """A three-card hand (or a crib) of the five-card game: no total it cannot score is listed,
    and the gaps below its highest are named as never scored."""
    dist = score_distribution(crib=crib, rules=FIVE_CARD)
    listed = [n for n, _ in dist.possible]
    assert all(dist.counts[n] > 0 for n in listed)
    assert sorted([*listed, *dist.never]) == list(range(listed[-1] + 1))
    assert set(dist.to_json()["counts"]) == {str(n) for n in listed}  # type: ignore[arg-type]
