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
from trainer.rules import FIVE_CARD, FOUR_HAND, SIX_CARD, THREE_HAND, RuleSet
from trainer.tables import score_batch


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
    assert best.to_json() == {
        "keep": ["5H", "5D", "JS", "QC"],
        "discard": ["7H", "8C"],
        "hand_ev": 12.696,
        "crib_ev": 6.918,
        "net_ev": 19.614,
    }


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
