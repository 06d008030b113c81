"""Discard analysis: exact expected values checked against brute force over every deal."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from trainer.cards import (
    DECK,
    Card,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    parse_cards,
)
from trainer.discard import DiscardOption, analyze_discards
from trainer.errors import UnknownCribModelError
from trainer.rules import FIVE_CARD, FOUR_HAND, SIX_CARD, THREE_HAND, RuleSet
from trainer.score_tables import score_batch
from trainer.throws import throw_model


def rule_names(value: object) -> str | None:
    """Test ids: rule sets by name."""
    return value.name if isinstance(value, RuleSet) else None


def brute_force(
    keep: tuple[Card, ...], discard: tuple[Card, ...], dealt: list[Card], rules: RuleSet
) -> tuple[float, float]:
    """Mean hand and crib scores over every starter and every set of the others' crib cards.

    The others' cards and the starter are drawn from the cards this player has not seen.
    """
    unseen = np.array([c.index for c in DECK if c not in dealt])
    hand = np.array([c.index for c in keep])
    hand_ev = score_batch(np.tile(hand, (len(unseen), 1)), unseen).mean()
    others = np.array(list(itertools.combinations(unseen, rules.crib_size - len(discard))))
    starters = np.tile(unseen, len(others))
    crib = np.column_stack(
        [
            np.tile([c.index for c in discard], (len(starters), 1)),
            np.repeat(others, len(unseen), axis=0),
        ]
    )
    distinct = (crib != starters[:, None]).all(axis=1)
    crib_ev = score_batch(crib[distinct], starters[distinct], crib=True).mean()
    return float(hand_ev), float(crib_ev)


def option(options: list[DiscardOption], discard: str) -> DiscardOption:
    [found] = [o for o in options if set(o.discard) == set(parse_cards(discard))]
    return found


def test_issue_example() -> None:
    """The dealer with 5H 5D JS QC 7H 8C throws 7H 8C: 12.696 + 6.918 = 19.614."""
    options = analyze_discards("5H 5D JS QC 7H 8C", dealer=True)
    best = options[0]
    assert [str(c) for c in best.discard] == ["7H", "8C"]
    assert [str(c) for c in best.keep] == ["5H", "5D", "JS", "QC"]
    found = best.to_json()
    assert found["keep"] == ["5H", "5D", "JS", "QC"]
    assert found["discard"] == ["7H", "8C"]
    assert found["crib_model"] == "uniform"
    assert (found["hand_ev"], found["crib_ev"], found["net_ev"]) == pytest.approx(
        (12.696, 6.918, 19.614), abs=5e-4
    )


def test_json_carries_full_precision() -> None:
    """Expected values go out unrounded, so near ties do not look equal."""
    for o in analyze_discards("JH 4H 9H 2C KS 6D", dealer=False, crib_model="weighted"):
        found = o.to_json()
        assert found["hand_ev"] == o.hand_ev
        assert found["net_ev"] == o.net_ev
        assert found["crib_ev_uniform"] == o.crib_ev_uniform
        assert found["crib_ev_weighted"] == o.crib_ev_weighted
        assert round(o.net_ev, 3) != o.net_ev  # the deal was picked with values that need it


def weighted_brute_force(discard: tuple[Card, ...], dealt: list[Card], dealer: bool) -> float:
    """Mean crib over every pair of unseen cards the opponent could throw and every starter,
    each pair weighted by how likely the opponent is to throw its ranks."""
    propensity = throw_model().propensity(dealer=not dealer)
    unseen = np.array([c.index for c in DECK if c not in dealt])
    pairs = np.array(list(itertools.combinations(unseen, 2)))
    cribs = np.repeat(pairs, len(unseen), axis=0)
    starters = np.tile(unseen, len(pairs))
    distinct = (cribs != starters[:, None]).all(axis=1)
    cribs, starters = cribs[distinct], starters[distinct]
    weight = propensity[cribs[:, 0] // 4, cribs[:, 1] // 4]
    thrown = np.tile([c.index for c in discard], (len(cribs), 1))
    points = score_batch(np.column_stack([thrown, cribs]), starters, crib=True)
    return float((weight * points).sum() / weight.sum())


@pytest.mark.parametrize("dealer", [True, False])
@pytest.mark.parametrize(
    "deal, discards",
    [
        ("5H 5D JS QC 7H 8C", ["7H 8C", "5H JS", "QC 8C"]),
        ("AC 2C 3C 4C 5C 6C", ["AC 2C", "5C 6C"]),
        ("JH 4H 9H 2C KS 6D", ["JH 4H", "9H 6D"]),
    ],
)
def test_weighted_matches_brute_force(deal: str, discards: list[str], dealer: bool) -> None:
    """The weighted crib is exact too: every opponent pair (weighted) and every starter."""
    cards = parse_cards(deal)
    options = analyze_discards(cards, dealer=dealer, crib_model="weighted")
    for discard in discards:
        found = option(options, discard)
        expected = weighted_brute_force(found.discard, cards, dealer)
        assert found.crib_ev_weighted == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("dealer", [True, False])
def test_crib_model_ranks_the_options(dealer: bool) -> None:
    """Both models' cribs come with every option; the chosen one gives crib, net and order."""
    deal = "5H 5D JS QC 7H 8C"
    uniform = analyze_discards(deal, dealer=dealer)
    weighted = analyze_discards(deal, dealer=dealer, crib_model="weighted")
    by_split = {frozenset(o.discard): o for o in uniform}
    sign = 1 if dealer else -1
    for o in weighted:
        same = by_split[frozenset(o.discard)]
        assert (o.crib_ev_uniform, o.crib_ev_weighted) == (
            same.crib_ev_uniform,
            same.crib_ev_weighted,
        )
        assert o.crib_ev == o.crib_ev_weighted != same.crib_ev
        assert o.net_ev == pytest.approx(o.hand_ev + sign * o.crib_ev)
    nets = [o.net_ev for o in weighted]
    assert nets == sorted(nets, reverse=True)
    assert [o.discard for o in weighted] != [o.discard for o in uniform]


def test_weighted_cribs_follow_the_thrower() -> None:
    """The pone throws poor cards to the dealer's crib, the dealer good ones to his own."""
    deal = "5H 5D JS QC 7H 8C"
    as_dealer = option(analyze_discards(deal, dealer=True), "7H 8C")
    as_pone = option(analyze_discards(deal, dealer=False), "7H 8C")
    assert as_dealer.crib_ev_uniform == as_pone.crib_ev_uniform
    assert as_dealer.crib_ev_weighted is not None and as_pone.crib_ev_weighted is not None
    assert as_dealer.crib_ev_weighted < as_dealer.crib_ev_uniform < as_pone.crib_ev_weighted


@pytest.mark.parametrize(
    "rules, crib_model, message",
    [
        (THREE_HAND, "weighted", "the weighted crib model is for two-player games"),
        (FOUR_HAND, "weighted", "the weighted crib model is for two-player games"),
        (SIX_CARD, "random", "unknown crib model 'random' (use one of: uniform, weighted)"),
    ],
    ids=rule_names,
)
def test_rejects_crib_model(rules: RuleSet, crib_model: str, message: str) -> None:
    """A crib model that does not exist or does not fit the game is a clear error."""
    deal = "5H 5D JS QC 7H 8C"[: 3 * rules.dealt - 1]
    with pytest.raises(UnknownCribModelError, match=re.escape(message)):
        analyze_discards(deal, dealer=True, rules=rules, crib_model=crib_model)  # type: ignore[arg-type]


def test_three_hand_has_no_weighted_crib() -> None:
    """Beyond two players only the uniform crib is given."""
    options = analyze_discards("5H 5D JS QC 7H", dealer=True, rules=THREE_HAND)
    assert all(o.crib_ev_weighted is None for o in options)
    assert options[0].to_json()["crib_ev_weighted"] is None


def test_five_card_weighted() -> None:
    """The five-card game has its weighted crib too."""
    options = analyze_discards(
        "5H 5D JS QC 7H", dealer=False, rules=FIVE_CARD, crib_model="weighted"
    )
    assert len(options) == 10
    assert all(o.crib_ev == o.crib_ev_weighted for o in options)


@pytest.mark.parametrize("dealer", [True, False])
@pytest.mark.parametrize(
    "deal, rules",
    [
        ("5H 5D JS QC 7H 8C", SIX_CARD),
        ("JH 4H 9H 2C KS 6D", SIX_CARD),
        ("5H 5D JS QC 7H", FIVE_CARD),
        ("5H 5D JS QC 7H", THREE_HAND),
    ],
    ids=rule_names,
)
def test_every_split_ranked(deal: str, rules: RuleSet, dealer: bool) -> None:
    """Each way to throw appears once, best first; the pone's crib counts against him."""
    cards = parse_cards(deal)
    options = analyze_discards(cards, dealer=dealer, rules=rules)
    splits = {frozenset(o.discard) for o in options}
    assert splits == {frozenset(d) for d in itertools.combinations(cards, rules.discards)}
    assert len(options) == len(splits)
    for o in options:
        assert len(o.keep) == rules.hand_size
        assert set(o.keep) | set(o.discard) == set(cards)
        sign = 1 if dealer else -1
        assert o.net_ev == pytest.approx(o.hand_ev + sign * o.crib_ev)
    nets = [o.net_ev for o in options]
    assert nets == sorted(nets, reverse=True)


def test_six_card_count() -> None:
    """Six cards dealt give fifteen ways to throw two."""
    assert len(analyze_discards("5H 5D JS QC 7H 8C", dealer=False)) == 15


@pytest.mark.parametrize(
    "deal, rules, discards",
    [
        ("5H 5D JS QC 7H 8C", SIX_CARD, ["7H 8C", "5H 5D", "JS QC"]),
        ("JH 4H 9H 2C KS 6D", SIX_CARD, ["JH 4H", "2C KS", "9H 6D"]),
        ("AC 2C 3C 4C 5C 6C", SIX_CARD, ["AC 2C", "5C 6C"]),
        ("5H 5D JS QC 7H", FIVE_CARD, ["QC 7H", "5H JS"]),
        ("JD 9D 4D 4S AH", FIVE_CARD, ["JD 9D", "4S AH"]),
        ("5H 5D JS QC 7H", THREE_HAND, ["7H", "JS"]),
        ("JD 9D 4D 4S AH", FOUR_HAND, ["JD"]),
    ],
    ids=rule_names,
)
def test_matches_brute_force(deal: str, rules: RuleSet, discards: list[str]) -> None:
    """Hand and crib expectations are exact: brute force over every starter and crib agrees."""
    cards = parse_cards(deal)
    options = analyze_discards(cards, dealer=True, rules=rules)
    for discard in discards:
        found = option(options, discard)
        hand_ev, crib_ev = brute_force(found.keep, found.discard, cards, rules)
        assert found.hand_ev == pytest.approx(hand_ev, rel=1e-12)
        assert found.crib_ev == pytest.approx(crib_ev, rel=1e-12)


@pytest.mark.parametrize(
    "deal", [["5H", "5D", "JS", "QC", "7H", "8C"], parse_cards("5H 5D JS QC 7H 8C")]
)
def test_accepts_lists(deal: list[str] | list[Card]) -> None:
    """A list of tokens or of cards works like the string."""
    expected = analyze_discards("5H 5D JS QC 7H 8C", dealer=True)
    assert analyze_discards(deal, dealer=True) == expected


@pytest.mark.parametrize(
    "text", ["5H,5D,JS,QC,7H,8C", "5H, 5D, JS, QC, 7H, 8C", "5H-5D-JS-QC-7H-8C"]
)
def test_accepts_any_separator(text: str) -> None:
    """A deal typed with commas or dashes reads like one typed with spaces, as in parse_cards."""
    assert analyze_discards(text, dealer=True) == analyze_discards("5H 5D JS QC 7H 8C", dealer=True)


@pytest.mark.parametrize(
    "deal, rules, error, message",
    [
        ("5H 5D JS QC 7H", SIX_CARD, HandSizeError, "a six-card deal has 6 cards, got 5"),
        ("5H 5D JS QC 7H 8C 9C", SIX_CARD, HandSizeError, "a six-card deal has 6 cards, got 7"),
        ("5H 5D JS QC 7H 8C", FIVE_CARD, HandSizeError, "a five-card deal has 5 cards, got 6"),
        ("5H 5D JS QC 7H 8C", THREE_HAND, HandSizeError, "a three-hand deal has 5 cards, got 6"),
        ("5H 5D JS QC 7H 5H", SIX_CARD, DuplicateCardError, "card given twice: '5H'"),
        ("5H 5D JS QC 7H 1C", SIX_CARD, InvalidCardError, "unknown rank '1' in '1C'"),
    ],
    ids=rule_names,
)
def test_rejects(deal: str, rules: RuleSet, error: type[Exception], message: str) -> None:
    """Wrong counts, repeated cards and bad tokens raise their own errors."""
    with pytest.raises(error, match=re.escape(message)):
        analyze_discards(deal, dealer=True, rules=rules)
