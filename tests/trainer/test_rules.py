"""Rule sets: cards dealt, kept and thrown in each game."""

from __future__ import annotations

import pytest

from trainer.rules import FIVE_CARD, FOUR_HAND, RULESETS, SIX_CARD, THREE_HAND, RuleSet, get_rules


@pytest.mark.parametrize(
    "rules, players, dealt, kept, thrown, from_deck, game",
    [
        (SIX_CARD, 2, 6, 4, 2, 0, 121),
        (FIVE_CARD, 2, 5, 3, 2, 0, 61),
        (THREE_HAND, 3, 5, 4, 1, 1, 121),
        (FOUR_HAND, 4, 5, 4, 1, 0, 121),
    ],
    ids=lambda value: value.name if isinstance(value, RuleSet) else None,
)
def test_deal_sizes(
    rules: RuleSet, players: int, dealt: int, kept: int, thrown: int, from_deck: int, game: int
) -> None:
    """As the rule books deal them; every crib ends up with four cards."""
    assert (rules.players, rules.dealt, rules.hand_size, rules.discards) == (
        players,
        dealt,
        kept,
        thrown,
    )
    assert (rules.crib_from_deck, rules.game) == (from_deck, game)
    assert rules.crib_size == players * thrown + from_deck == 4
    assert (rules.show_size(crib=False), rules.show_size(crib=True)) == (kept, 4)


@pytest.mark.parametrize("name", ["six-card", "five-card", "three-hand", "four-hand"])
def test_get_rules(name: str) -> None:
    """Rule sets are found by name."""
    assert get_rules(name) is RULESETS[name]
    assert get_rules(name).name == name


@pytest.mark.parametrize("name", ["six", "Six-Card", "", "seven-card"])
def test_get_rules_rejects(name: str) -> None:
    """An unknown name lists the known ones."""
    with pytest.raises(ValueError, match=f"unknown rule set {name!r} .use one of: six-card, "):
        get_rules(name)
