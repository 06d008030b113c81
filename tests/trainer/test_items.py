"""Score items and the words of the spoken count."""

from __future__ import annotations

import json

import pytest

from trainer.cards import parse_cards
from trainer.items import PLAY_RULE_TEXT, RULE_TEXT, Kind, ScoreItem, number_words


@pytest.mark.parametrize(
    "n, words",
    [
        (0, "zero"),
        (2, "two"),
        (15, "fifteen"),
        (19, "nineteen"),
        (20, "twenty"),
        (21, "twenty-one"),
        (24, "twenty-four"),
        (29, "twenty-nine"),
        (30, "thirty"),
        (31, "thirty-one"),
    ],
)
def test_number_words(n: int, words: str) -> None:
    """Numbers as players say them, up to thirty-one."""
    assert number_words(n) == words


def test_score_item() -> None:
    """Text with suit symbols, a repr in notation, and JSON."""
    item = ScoreItem(Kind.FIFTEEN, tuple(parse_cards("5H JS")), 2)
    assert str(item) == "fifteen 5♥ J♠ for 2"
    assert repr(item) == "ScoreItem(Kind.FIFTEEN, '5H JS', 2)"
    assert json.loads(json.dumps(item.to_json())) == {
        "kind": "fifteen",
        "cards": ["5H", "JS"],
        "points": 2,
    }


@pytest.mark.parametrize("kind", list(Kind), ids=lambda k: k.name)
def test_every_kind_has_its_rule(kind: Kind) -> None:
    """Each kind of item can explain itself to settle a dispute: by the show's rule, the
    play's, or both."""
    rules = [table[kind] for table in (RULE_TEXT, PLAY_RULE_TEXT) if kind in table]
    assert rules and all(rule.endswith(".") for rule in rules)


@pytest.mark.parametrize("kind", list(PLAY_RULE_TEXT), ids=lambda k: k.name)
def test_the_play_has_its_own_rules(kind: Kind) -> None:
    """The play's rules are not the show's: no combination of cards, no distinct runs; a kind
    of both has two sentences (issue players2, 1)."""
    rule = PLAY_RULE_TEXT[kind]
    assert rule not in RULE_TEXT.values()
    for show_words in ("combination", "distinct", "each pair"):
        assert show_words not in rule.lower()
