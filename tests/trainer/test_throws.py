"""The throw model: who throws what at the fixed point, checked against Hessel's published table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from trainer.errors import UnknownCribModelError
from trainer.rules import FIVE_CARD, FOUR_HAND, THREE_HAND, RuleSet
from trainer.throws import crib_by_throw, throw_model, uniform_crib_table

HESSEL_OPP_CRIB = Path(__file__).parent / "data" / "hessel_opp_crib.txt"
FIVE, KING = 4, 12  # 0-based ranks


def published_table(path: Path) -> npt.NDArray[np.float64]:
    """A 13 × 13 table of two-decimal values under three comment lines and a rank header."""
    table = np.loadtxt(path, skiprows=4, usecols=range(1, 14))
    assert table.shape == (13, 13)
    assert (table == table.T).all()
    return table


@pytest.mark.slow
def test_weighted_is_closer_to_hessel_than_uniform() -> None:
    """To the opponent's crib, averaged as Hessel's table is (over the hands that throw each
    pair), the modelled dealer's throws bring every figure nearer the published one."""
    published = published_table(HESSEL_OPP_CRIB)
    uniform = np.abs(crib_by_throw(dealer=False) - published)
    weighted = np.abs(crib_by_throw(dealer=False, model=throw_model()) - published)
    assert not np.isnan(uniform).any() and not np.isnan(weighted).any()
    assert weighted.mean() < uniform.mean()
    assert weighted.max() < uniform.max()


def test_weighted_own_crib_near_hessels_quoted_values() -> None:
    """To one's own crib Schell quotes Hessel's 7-9 (4.06) and J-Q (4.90): the weighted model
    is nearer both than the uniform one."""
    quoted = {(6, 8): 4.06, (10, 11): 4.90}
    uniform = crib_by_throw(dealer=True)
    weighted = crib_by_throw(dealer=True, model=throw_model())
    for pair, value in quoted.items():
        assert abs(weighted[pair] - value) < abs(uniform[pair] - value)


def test_throws_are_frequencies() -> None:
    """Each player's 91 rank pairs are thrown with frequencies that sum to one."""
    model = throw_model()
    for throws in (model.dealer_throws, model.pone_throws):
        assert (throws >= 0).all()
        assert throws[np.triu_indices(13)].sum() == pytest.approx(1)


def test_dealer_keeps_fives_in_his_crib_and_pone_out_of_it() -> None:
    """Two fives go to the dealer's own crib more often than chance, to his opponent's less."""
    model = throw_model()
    assert model.propensity(dealer=True)[FIVE, FIVE] > 1
    assert model.propensity(dealer=False)[FIVE, FIVE] < 1
    assert model.to_own_crib[FIVE, KING] < uniform_crib_table()[FIVE, KING]
    assert model.to_opponent_crib[FIVE, KING] > uniform_crib_table()[FIVE, KING]


def test_five_card_game_has_its_own_model() -> None:
    """The five-card game deals five and keeps three: its fixed point is its own."""
    six, five = throw_model(), throw_model(FIVE_CARD)
    assert five.rules is FIVE_CARD
    assert not np.allclose(six.dealer_throws, five.dealer_throws)


@pytest.mark.parametrize("rules", [THREE_HAND, FOUR_HAND], ids=lambda r: r.name)
def test_more_than_two_players_is_not_modelled(rules: RuleSet) -> None:
    """Three- and four-hand throws are not modelled: a clear error, not a guess."""
    with pytest.raises(UnknownCribModelError, match="two-player games"):
        throw_model(rules)
