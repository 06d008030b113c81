"""Scoring a whole table: hands, the crib and the starter, each by its rule, and bad tables."""

from __future__ import annotations

import re

import pytest

from trainer.cards import DECK, DuplicateCardError, HandSizeError
from trainer.errors import TableError
from trainer.rules import FIVE_CARD, FOUR_HAND, SIX_CARD, THREE_HAND, RuleSet
from trainer.show import score_show
from trainer.table import Group, Role, score_table


def deal_table(rules: RuleSet, hands: int, crib: bool = True) -> list[Group]:
    """Groups dealt in deck order: ``hands`` hands, the crib and the starter."""
    cards = iter(DECK[::3] + DECK[1::3] + DECK[2::3])
    groups = [
        Group(Role.HAND, tuple(next(cards) for _ in range(rules.hand_size))) for _ in range(hands)
    ]
    if crib:
        groups.append(Group(Role.CRIB, tuple(next(cards) for _ in range(rules.crib_size))))
    return [*groups, Group(Role.STARTER, (next(cards),))]


@pytest.mark.parametrize("rules", [SIX_CARD, FIVE_CARD, THREE_HAND, FOUR_HAND], ids=str)
def test_every_group_is_scored_by_its_rule(rules: RuleSet) -> None:
    """Each hand with the hand rule, the crib with the crib rule, all with the one starter."""
    groups = deal_table(rules, rules.players)
    table = score_table(groups, rules=rules)
    starter = groups[-1].cards[0]
    assert table.starter == starter
    for group, score in zip(groups[:-1], table.scores, strict=False):
        expected = score_show(group.cards, starter, crib=group.role is Role.CRIB, rules=rules)
        assert score is not None and score.total == expected.total and score.crib == expected.crib
    assert table.scores[-1] is None
    assert [g["role"] for g in table.to_json()] == ["hand"] * rules.players + ["crib", "starter"]


def test_crib_flush_needs_the_starter_and_nobs_counts_against_it() -> None:
    """The same four hearts: a flush of four in a hand, nothing in the crib; jack of the
    starter's suit is nobs in hand and crib alike."""
    flush = Group.of("hand", "2H 4H 6H JH")
    crib = Group.of("crib", "2S 4S 6S JC")
    table = score_table([flush, crib, Group.of("starter", "KC")])
    hand_score, crib_score, _ = table.scores
    assert hand_score is not None and crib_score is not None
    kinds = {i.kind.value: i.points for i in hand_score.items}
    assert kinds["flush"] == 4 and "nobs" not in kinds
    crib_kinds = {i.kind.value: i.points for i in crib_score.items}
    assert "flush" not in crib_kinds and crib_kinds["nobs"] == 1
    as_crib = score_table([Group.of("crib", "2H 4H 6H JH"), Group.of("starter", "KC")])
    assert as_crib.scores[0] is not None and as_crib.scores[0].total == hand_score.total - 4


def test_a_hand_and_its_starter_alone_is_a_table() -> None:
    """The single-hand flow is a table of one hand and the starter."""
    table = score_table([Group.of("hand", "5H 5D 5C JS"), Group.of("starter", "5S")])
    assert table.scores[0] is not None and table.scores[0].total == 29


@pytest.mark.parametrize(
    "groups, error, message",
    [
        ([Group.of("hand", "5H 5D 5C JS")], TableError, "mark one card as the starter"),
        (
            [Group.of("hand", "5H 5D 5C JS"), Group.of("starter", "5S 6S")],
            TableError,
            "the starter is one card, but 2 are marked: 5S 6S",
        ),
        (
            [
                Group.of("crib", "AH 2H 3H 4H"),
                Group.of("crib", "AS 2S 3S 4S"),
                Group.of("starter", "5S"),
            ],
            TableError,
            "one crib, but two groups are marked crib",
        ),
        (
            [Group.of("hand", c) for c in ("AH 2H 3H 4H", "AS 2S 3S 4S", "AD 2D 3D 4D")]
            + [Group.of("starter", "5S")],
            TableError,
            "two-hand six-card cribbage has two hands, but three groups are marked hand",
        ),
        ([Group.of("starter", "5S")], TableError, "no hand or crib"),
        (
            [
                Group.of("hand", "AH 2H 3H 4H"),
                Group.of("hand", "AS 2S 3S"),
                Group.of("starter", "5S"),
            ],
            HandSizeError,
            "hand 2 has 3 cards (AS 2S 3S); a hand has 4 in two-hand six-card cribbage",
        ),
        (
            [Group.of("crib", "AH 2H 3H"), Group.of("starter", "5S")],
            HandSizeError,
            "the crib has 3 cards (AH 2H 3H); a crib has 4",
        ),
        (
            [
                Group.of("hand", "AH 2H 3H 4H"),
                Group.of("crib", "AS 2S 3S 4H"),
                Group.of("starter", "5S"),
            ],
            DuplicateCardError,
            "'4H'",
        ),
        ([Group.of("hand", "AH 2H 3H 4H"), Group.of("starter", "4H")], DuplicateCardError, "'4H'"),
    ],
)
def test_bad_tables_say_what_is_wrong(groups: list[Group], error: type, message: str) -> None:
    """Each way a table can be wrong has its own error, in players' words."""
    with pytest.raises(error) as raised:
        score_table(groups)
    assert message in str(raised.value)


def test_five_card_hands_have_three_cards_and_the_crib_four() -> None:
    """Five-card cribbage: hands of three, a crib of four."""
    groups = [
        Group.of("hand", "5H 5D JS"),
        Group.of("crib", "AH 2H 3H 4H"),
        Group.of("starter", "5S"),
    ]
    table = score_table(groups, rules=FIVE_CARD)
    assert [s.total if s else None for s in table.scores] == [
        score_show(["5H", "5D", "JS"], "5S", rules=FIVE_CARD).total,
        score_show(["AH", "2H", "3H", "4H"], "5S", crib=True, rules=FIVE_CARD).total,
        None,
    ]
    with pytest.raises(HandSizeError, match="a hand has 3 in two-hand five-card cribbage"):
        score_table([Group.of("hand", "5H 5D JS 4C"), Group.of("starter", "5S")], rules=FIVE_CARD)


def test_unknown_role() -> None:
    """A role that is not hand, crib or starter."""
    with pytest.raises(TableError, match="a hand, the crib or the starter, not 'deck'"):
        Group.of("deck", "5S")


def test_a_group_not_yet_named_is_scored_both_ways() -> None:
    """Before the crib is named, a group of the crib's size is scored as a hand, with its score
    as the crib beside it only when a crib flush makes them differ."""
    groups = [
        Group.of(None, "2H 4H 6H JH"),
        Group.of(None, "5C 5D 5S JS"),
        Group.of("starter", "KC"),
    ]
    table = score_table(groups)
    flush, fives, _ = table.scores
    assert flush is not None and not flush.crib and flush.total == 4
    assert fives is not None and fives.total == score_show(["5C", "5D", "5S", "JS"], "KC").total
    as_crib = table.crib_scores[0]
    assert as_crib is not None and as_crib.crib and as_crib.total == flush.total - 4
    assert table.crib_scores[1:] == (None, None)
    assert [g["role"] for g in table.to_json()] == [None, None, "starter"]
    assert table.to_json()[0]["crib_score"] == as_crib.to_json()


@pytest.mark.parametrize(
    "groups, message",
    [
        (
            [Group.of(None, "AH 2H 3H"), Group.of("starter", "5S")],
            "a group has 3 cards (AH 2H 3H); a hand or the crib has 4",
        ),
        (
            [Group.of(None, c) for c in ("AH 2H 3H 4H", "AS 2S 3S 4S", "AD 2D 3D 4D")]
            + [Group.of("crib", "AC 2C 3C 4C"), Group.of("starter", "5S")],
            "two hands and the crib, but four groups",
        ),
    ],
)
def test_groups_not_yet_named_must_fit_the_table(groups: list[Group], message: str) -> None:
    """An unnamed group must be the size of a hand and of the crib, and fit the table."""
    with pytest.raises((TableError, HandSizeError), match=re.escape(message)):
        score_table(groups)
