"""Glicko-2 (trainer.rating) against Glickman's worked example, and the counting rating built on
it (trainer.counting_rating): an answer's score, deal classes, the drill chosen, the trend."""

from __future__ import annotations

import random

import pytest

from trainer import counting_rating
from trainer.counting_rating import answer_score, deal_class, hardness, nearest, seed, trend
from trainer.dealing import Deal, deal
from trainer.rating import Rating, expected_score, update


def test_glickmans_worked_example() -> None:
    """ "Example of the Glicko-2 system" (Glickman, 2013): a 1500 player (RD 200, volatility
    0.06) beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300): the paper gives
    1464.06, 151.52 and 0.05999 (its figures rounded at each step)."""
    player = Rating(1500.0, 200.0, 0.06)
    opponents = [Rating(1400.0, 30.0), Rating(1550.0, 100.0), Rating(1700.0, 300.0)]
    after = update(player, list(zip(opponents, [1.0, 0.0, 0.0], strict=True)))
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_grows_the_deviation() -> None:
    after = update(Rating(1600.0, 50.0, 0.06), [])
    assert (after.rating, after.volatility) == (1600.0, 0.06)
    assert after.deviation == pytest.approx((50.0**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_a_win_raises_a_loss_lowers_and_scores_are_checked() -> None:
    even = Rating()
    assert update(even, [(even, 1.0)]).rating > 1500 > update(even, [(even, 0.0)]).rating
    assert update(even, [(even, 0.5)]).rating == pytest.approx(1500.0)
    assert expected_score(Rating(1700.0), Rating(1500.0)) > 0.5
    with pytest.raises(ValueError, match="from 0 to 1"):
        update(even, [(even, 1.5)])


def test_time_counts_in_an_answers_score_as_in_the_sprint() -> None:
    """Right within par wins; each sprint penalty's seconds over par costs a quarter, to a draw
    at worst; a miss loses however fast."""
    par = counting_rating.PAR_SECONDS["hand"]
    assert answer_score("hand", correct=True, seconds=par) == 1.0
    assert answer_score("hand", correct=True, seconds=par + 10) == 0.75
    assert answer_score("hand", correct=True, seconds=par + 500) == 0.5
    assert answer_score("hand", correct=False, seconds=1.0) == 0.0


def test_deal_classes_follow_the_engines_measure() -> None:
    quiet = Deal.from_json({"kind": "hand", "hand": ["2H", "4D", "6C", "8S"], "starter": "KH"})
    busy = Deal.from_json({"kind": "hand", "hand": ["5H", "5D", "5C", "JS"], "starter": "5S"})
    assert (deal_class(quiet), deal_class(busy)) == ("hand:0", "hand:4")
    assert seed("hand:0").rating < seed("hand:2").rating == 1500.0 < seed("hand:4").rating
    rng = random.Random(5)
    for kind in ("crib", "pegging", "play", "discard"):
        assert all(0 <= hardness(deal(kind, rng)) <= counting_rating.HARDEST for _ in range(5))


def test_the_deal_chosen_is_the_one_nearest_the_players_rating() -> None:
    quiet = Deal.from_json({"kind": "hand", "hand": ["2H", "4D", "6C", "8S"], "starter": "KH"})
    busy = Deal.from_json({"kind": "hand", "hand": ["5H", "5D", "5C", "JS"], "starter": "5S"})
    assert nearest([quiet, busy], deal_class, {}, Rating(1250.0, 60.0)) is quiet
    assert nearest([quiet, busy], deal_class, {}, Rating(1850.0, 60.0)) is busy
    learned = {"hand:4": Rating(1260.0, 60.0)}  # players found busy hands easy after all
    assert nearest([quiet, busy], deal_class, learned, Rating(1250.0, 60.0)) is busy


def test_the_trend_is_the_move_over_the_last_week() -> None:
    days = [("2027-01-01", 1480.0), ("2027-01-08", 1530.0), ("2027-01-09", 1541.0)]
    assert trend(days, "2027-01-09") == 61.0
    assert trend(days[1:], "2027-01-09") == 41.0  # from a newcomer's 1500
    assert trend([], "2027-01-09") == 0.0
