"""The play: what each card pegs, sequences with goes, and whole plays checked for legality."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from trainer.cards import (
    DECK,
    Card,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    Rank,
    Suit,
    parse_cards,
)
from trainer.errors import IllegalPlayError
from trainer.items import Kind, ScoreItem
from trainer.pegging import Peg, play_out, score_peg, score_sequence


def kinds(items: tuple[ScoreItem, ...]) -> list[tuple[Kind, int]]:
    return [(i.kind, i.points) for i in items]


@pytest.mark.parametrize(
    "pile, card, expected",
    [
        ("", "5H", []),
        ("10H", "5D", [(Kind.FIFTEEN, 2)]),
        ("KH QD 10C", "AS", [(Kind.THIRTY_ONE, 2)]),
        ("10H 10D 5C 4S", "2H", [(Kind.THIRTY_ONE, 2)]),
        ("5H", "5D", [(Kind.PAIR, 2)]),
        ("5H 5D", "5C", [(Kind.FIFTEEN, 2), (Kind.PAIR_ROYAL, 6)]),
        ("5H 5D 5C", "5S", [(Kind.DOUBLE_PAIR_ROYAL, 12)]),
        ("9H 2C 2D 2S", "2H", [(Kind.DOUBLE_PAIR_ROYAL, 12)]),
        ("6H 4D 3C", "3S", [(Kind.PAIR, 2)]),
        ("5H 6D", "5C", []),
        ("3H 3D KS", "3C", []),
        ("3H 6D 4C", "5S", [(Kind.RUN, 4)]),
        ("3H 6D 4C 5S", "2H", [(Kind.RUN, 5)]),
        ("4H 2D", "3C", [(Kind.RUN, 3)]),
        ("AH 2D 3C 4S 5H 6D", "7C", [(Kind.RUN, 7)]),
        ("5H 4D 3C", "3S", [(Kind.FIFTEEN, 2), (Kind.PAIR, 2)]),
        ("5H 4D 3C 3S", "2H", []),
        ("3H 4D 5C", "3S", [(Kind.FIFTEEN, 2), (Kind.RUN, 3)]),
        ("4H 5D 4C", "6S", [(Kind.RUN, 3)]),
        ("5H 4D 6C 4S", "3H", []),
        ("KH 6D 7C", "8S", [(Kind.THIRTY_ONE, 2), (Kind.RUN, 3)]),
        ("9H 10D", "JC", [(Kind.RUN, 3)]),
        ("QH KD", "AC", []),
        ("2H 4D", "9C", [(Kind.FIFTEEN, 2)]),
    ],
)
def test_score_peg(pile: str, card: str, expected: list[tuple[Kind, int]]) -> None:
    """15 and 31 for 2, pairs 2/6/12 among the last cards, runs of the last cards in any order."""
    assert kinds(score_peg(pile.split(), card)) == expected


def test_score_peg_items_name_their_cards() -> None:
    """Each item holds the cards that make it: the whole count for 15, the tail for the rest."""
    items = score_peg(["9H", "5D", "5C"], "5S")
    assert [(i.kind, [str(c) for c in i.cards]) for i in items] == [
        (Kind.PAIR_ROYAL, ["5D", "5C", "5S"])
    ]
    items = score_peg(["KH", "6D", "7C"], "8S")
    assert [(i.kind, [str(c) for c in i.cards]) for i in items] == [
        (Kind.THIRTY_ONE, ["KH", "6D", "7C", "8S"]),
        (Kind.RUN, ["6D", "7C", "8S"]),
    ]


@given(
    low=st.integers(1, 11),
    length=st.integers(3, 7),
    order=st.permutations(range(7)),
    suits=st.lists(st.integers(0, 3), min_size=7, max_size=7),
)
def test_run_in_any_order(low: int, length: int, order: list[int], suits: list[int]) -> None:
    """A run of 3 to 7 played in any order pegs its length on the card that completes it."""
    ranks = [low + i for i in order if i < length]
    assume(max(ranks) <= 13 and sum(min(r, 10) for r in ranks) <= 31)  # a run that can be played
    cards = [Card(Rank(r), Suit(s)) for r, s in zip(ranks, suits, strict=False)]
    runs = [i for i in score_peg(cards[:-1], cards[-1]) if i.kind is Kind.RUN]
    assert [(r.points, r.cards) for r in runs] == [(length, tuple(cards))]


@pytest.mark.parametrize(
    "pile, card, error, message",
    [
        ("KH QD 10C", "2S", IllegalPlayError, "2S would take the count to 32, past 31"),
        ("KH QD JC", "5S", IllegalPlayError, "count to 35, past 31"),
        ("5H", "5H", DuplicateCardError, "card given twice: '5H'"),
        ("5H", "1H", InvalidCardError, "unknown rank '1'"),
    ],
)
def test_score_peg_rejects(pile: str, card: str, error: type[Exception], message: str) -> None:
    """Passing 31 is illegal; bad cards are notation errors."""
    with pytest.raises(error, match=re.escape(message)):
        score_peg(pile.split(), card)


def test_illegal_play_is_a_value_error() -> None:
    """Callers catch every bad input as ValueError."""
    assert issubclass(IllegalPlayError, ValueError)


# --- score_sequence ---------------------------------------------------------------------


def summary(pegs: list[Peg]) -> list[tuple[str, int, int, int]]:
    """(card or "go", player, count, points) for each event."""
    return [(str(p.card) if p.card else "go", p.player, p.count, p.points) for p in pegs]


@pytest.mark.parametrize(
    "tokens, end, expected",
    [
        (
            "3H 6D 4C 5S 2H",
            False,
            [
                ("3H", 0, 3, 0),
                ("6D", 1, 9, 0),
                ("4C", 0, 13, 0),
                ("5S", 1, 18, 4),
                ("2H", 0, 20, 5),
            ],
        ),
        ("10H 5D", True, [("10H", 0, 10, 0), ("5D", 1, 15, 3)]),
        ("10H 5D", False, [("10H", 0, 10, 0), ("5D", 1, 15, 2)]),
        (
            "10H KD 9C go 5S",
            True,
            [
                ("10H", 0, 10, 0),
                ("KD", 1, 20, 0),
                ("9C", 0, 29, 0),
                ("go", 0, 29, 1),
                ("5S", 1, 5, 1),
            ],
        ),
        (
            "10H KD 9C Go 9D",
            False,
            [
                ("10H", 0, 10, 0),
                ("KD", 1, 20, 0),
                ("9C", 0, 29, 0),
                ("go", 0, 29, 1),
                ("9D", 1, 9, 0),
            ],
        ),
        (
            "10H JD KC AS AD",
            True,
            [
                ("10H", 0, 10, 0),
                ("JD", 1, 20, 0),
                ("KC", 0, 30, 0),
                ("AS", 1, 31, 2),
                ("AD", 0, 1, 1),
            ],
        ),
        (
            "10H JD KC AS",
            True,
            [("10H", 0, 10, 0), ("JD", 1, 20, 0), ("KC", 0, 30, 0), ("AS", 1, 31, 2)],
        ),
        (
            "10H KD 9C go",
            True,
            [("10H", 0, 10, 0), ("KD", 1, 20, 0), ("9C", 0, 29, 0), ("go", 0, 29, 1)],
        ),
        (
            "KH 6D 7C 8S",
            False,
            [("KH", 0, 10, 0), ("6D", 1, 16, 0), ("7C", 0, 23, 0), ("8S", 1, 31, 5)],
        ),
    ],
)
def test_score_sequence(tokens: str, end: bool, expected: list[tuple[str, int, int, int]]) -> None:
    """Players alternate; a go pegs 1 to the last player and restarts the count with the other.

    The seeds' examples: 3-6-4-5 pegs 4 on the 5 and a 2 then pegs 5; a last card making 15
    pegs 3 (fifteen two and one for last); 31 pegs 2 and never a last card besides.
    """
    assert summary(score_sequence(tokens.split(), end=end)) == expected


@pytest.mark.parametrize(
    "tokens, end, expected",
    [
        (  # the dealer says go at 25; the pone plays on to 31, then the dealer leads
            "10H KD 5C go 4S 2D 7H",
            True,
            [
                ("10H", 0, 10, 0),
                ("KD", 1, 20, 0),
                ("5C", 0, 25, 0),
                ("4S", 0, 29, 0),
                ("2D", 0, 31, 2),
                ("7H", 1, 7, 1),
            ],
        ),
        (  # the pone plays on to 30 and pegs the go when his next card would pass 31
            "10H KD 5C go 4S AD 6H",
            False,
            [
                ("10H", 0, 10, 0),
                ("KD", 1, 20, 0),
                ("5C", 0, 25, 0),
                ("4S", 0, 29, 0),
                ("AD", 0, 30, 0),
                ("go", 0, 30, 1),
                ("6H", 1, 6, 0),
            ],
        ),
        (  # a second go: the one playing on cannot either, and pegs the go
            "10H KD 5C go 4S go 3H",
            True,
            [
                ("10H", 0, 10, 0),
                ("KD", 1, 20, 0),
                ("5C", 0, 25, 0),
                ("4S", 0, 29, 0),
                ("go", 0, 29, 1),
                ("3H", 1, 3, 1),
            ],
        ),
        (  # playing on after a go ends the play with one for the go, not a last card too
            "10H KD 5C go 4S AD",
            True,
            [
                ("10H", 0, 10, 0),
                ("KD", 1, 20, 0),
                ("5C", 0, 25, 0),
                ("4S", 0, 29, 0),
                ("AD", 0, 30, 0),
                ("go", 0, 30, 1),
            ],
        ),
    ],
)
def test_score_sequence_play_on_after_a_go(
    tokens: str, end: bool, expected: list[tuple[str, int, int, int]]
) -> None:
    """After a go the other player lays every card he can: the cards after ``go`` are his
    while they fit, and the go is pegged when he stops."""
    assert summary(score_sequence(tokens.split(), end=end)) == expected


@pytest.mark.parametrize("tokens", [[], ["go"], ["go", "go"]])
def test_score_sequence_needs_cards(tokens: list[str]) -> None:
    """A play with no cards is an error, not a play that pegged nothing."""
    with pytest.raises(HandSizeError, match="no cards played"):
        score_sequence(tokens)


def test_last_card_item() -> None:
    """The last card's extra point is its own item."""
    pegs = score_sequence(["10H", "5D"], end=True)
    assert kinds(pegs[-1].items) == [(Kind.FIFTEEN, 2), (Kind.LAST_CARD, 1)]
    go = score_sequence(["10H", "KD", "9C", "go"])[-1]
    assert kinds(go.items) == [(Kind.GO, 1)]
    assert go.items[0].cards == (Card.parse("9C"),)


def test_peg_to_json() -> None:
    """Each event as JSON, a go written as "go"."""
    pegs = score_sequence(["10H", "5D", "go"])
    assert json.loads(json.dumps([p.to_json() for p in pegs])) == [
        {"card": "10H", "player": 0, "count": 10, "points": 0, "items": []},
        {
            "card": "5D",
            "player": 1,
            "count": 15,
            "points": 2,
            "items": [{"kind": "fifteen", "cards": ["10H", "5D"], "points": 2}],
        },
        {
            "card": "go",
            "player": 1,
            "count": 15,
            "points": 1,
            "items": [{"kind": "go", "cards": ["5D"], "points": 1}],
        },
    ]


@pytest.mark.parametrize(
    "tokens, error, message",
    [
        ("go", HandSizeError, "no cards played"),
        ("10H go go go", IllegalPlayError, "a go needs a card played since the count restarted"),
        ("10H JD KC AS go", IllegalPlayError, "a go needs a card played"),
        ("10H KD 9C 5S", IllegalPlayError, "5S would take the count from 29 past 31: mark a go"),
        ("10H KD go 10H", DuplicateCardError, "card given twice: '10H'"),
        ("10H XD", InvalidCardError, "unknown rank 'X'"),
    ],
)
def test_score_sequence_rejects(tokens: str, error: type[Exception], message: str) -> None:
    """A go with nothing to go on, passing 31 and repeated cards are errors."""
    with pytest.raises(error, match=re.escape(message)):
        score_sequence(tokens.split())


# --- play_out ---------------------------------------------------------------------------


def totals(pegs: list[Peg]) -> list[int]:
    return [sum(p.points for p in pegs if p.player == who) for who in (0, 1)]


def test_play_out_go_found_from_hands() -> None:
    """At 30 neither can play: the go is the dealer's, and the pone leads the next count."""
    pegs = play_out("10H 9C 5D 2S", "JD 6C 4H AS", "10H JD 9C AS 5D 4H 2S 6C")
    assert summary(pegs) == [
        ("10H", 0, 10, 0),
        ("JD", 1, 20, 0),
        ("9C", 0, 29, 3),
        ("AS", 1, 30, 0),
        ("go", 1, 30, 1),
        ("5D", 0, 5, 0),
        ("4H", 1, 9, 0),
        ("2S", 0, 11, 0),
        ("6C", 1, 17, 1),
    ]
    assert kinds(pegs[-1].items) == [(Kind.LAST_CARD, 1)]


def test_play_out_player_who_can_play_must() -> None:
    """The dealer cannot go on 29, so the pone plays on and makes 31; later the dealer plays out."""
    pegs = play_out("KH QD 2C 3C", "9S 8S 7S 6S", "KH 9S QD 2C 8S 3C 7S 6S")
    assert summary(pegs) == [
        ("KH", 0, 10, 0),
        ("9S", 1, 19, 0),
        ("QD", 0, 29, 0),
        ("2C", 0, 31, 2),
        ("8S", 1, 8, 0),
        ("3C", 0, 11, 0),
        ("7S", 1, 18, 0),
        ("6S", 1, 24, 1),
    ]


def test_play_out_thirty_one_and_run() -> None:
    """31 and a run are both scored; pegs go to whoever played the card."""
    pegs = play_out("KH 7C 3S 2H", "6D 8S 4C 5D", "KH 6D 7C 8S 3S 4C 2H 5D")
    assert kinds(pegs[3].items) == [(Kind.THIRTY_ONE, 2), (Kind.RUN, 3)]
    assert totals(pegs) == [3, 10]


def test_play_out_last_card_fifteen() -> None:
    """The seeds' rule: a last card making 15 pegs 3."""
    pegs = play_out(["KH"], ["5D"], ["KH", "5D"])
    assert kinds(pegs[-1].items) == [(Kind.FIFTEEN, 2), (Kind.LAST_CARD, 1)]
    assert totals(pegs) == [0, 3]


def test_play_out_partial_play_has_no_last_card() -> None:
    """The last-card point waits until every card is played."""
    pegs = play_out("10H 9C", "JD 5C", "10H JD")
    assert summary(pegs) == [("10H", 0, 10, 0), ("JD", 1, 20, 0)]


@pytest.mark.parametrize("separator", [",", ", ", "-"])
def test_play_out_accepts_any_separator(separator: str) -> None:
    """Hands and order typed with commas or dashes read as they do in parse_cards."""
    pone, dealer, order = "10H 9C 5D 2S", "JD 6C 4H AS", "10H JD 9C AS 5D 4H 2S 6C"
    typed = [text.replace(" ", separator) for text in (pone, dealer, order)]
    assert play_out(*typed) == play_out(pone, dealer, order)


@pytest.mark.parametrize(
    "pone, dealer, order, error, message",
    [
        (
            "5H 6H",
            "7D 8D",
            "5H 6H 7D 8D",
            IllegalPlayError,
            "6H out of turn: the dealer can play 7D",
        ),
        ("5H 6H", "7D 8D", "7D 5H 6H 8D", IllegalPlayError, "7D out of turn: the pone can play 5H"),
        (
            "KH 9C AS",
            "QD 8D 2S",
            "KH QD 9C 8D",
            IllegalPlayError,
            "8D would take the count from 29 past 31",
        ),
        ("5H 6H", "7D 8D", "5H 9D", IllegalPlayError, "9D is in neither hand"),
        ("5H 6H", "7D", "5H 7D 6H", HandSizeError, "hands differ in size: 2 and 1"),
        ("5H 6H", "5H 8D", "5H", DuplicateCardError, "card given twice: '5H'"),
        ("5H 6H", "7D 8D", "5H 7D 5H", DuplicateCardError, "card given twice: '5H'"),
    ],
)
def test_play_out_rejects(
    pone: str, dealer: str, order: str, error: type[Exception], message: str
) -> None:
    """Out of turn, past 31 with a legal card left, foreign cards, uneven hands, repeats."""
    with pytest.raises(error, match=re.escape(message)):
        play_out(pone, dealer, order)


def reference_peg(pile: list[Card]) -> int:
    """What the last card of ``pile`` pegs, counted the textbook way."""
    points = {15: 2, 31: 2}.get(sum(c.value for c in pile), 0)
    same = next((n for n in range(len(pile), 1, -1) if len({c.rank for c in pile[-n:]}) == 1), 1)
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for n in range(len(pile), 2, -1):
        ranks = sorted(c.rank for c in pile[-n:])
        if ranks == list(range(ranks[0], ranks[0] + n)):
            return points + n
    return points


def reference_play(hands: list[list[Card]], rng: random.Random) -> tuple[list[Card], list[int]]:
    """Play both hands out legally, choosing at random among playable cards; points per player."""
    hands = [list(h) for h in hands]
    pile: list[Card] = []
    order: list[Card] = []
    points = [0, 0]
    turn, last = 0, 0
    while hands[0] or hands[1]:
        count = sum(c.value for c in pile)
        playable = [c for c in hands[turn] if count + c.value <= 31]
        if not playable:
            if not any(count + c.value <= 31 for c in hands[1 - turn]):
                points[last] += 1
                pile, turn = [], 1 - last
            else:
                turn = 1 - turn
            continue
        card = rng.choice(playable)
        hands[turn].remove(card)
        pile.append(card)
        order.append(card)
        points[turn] += reference_peg(pile)
        last, turn = turn, 1 - turn
        if sum(c.value for c in pile) == 31:
            pile = []
    if pile:
        points[last] += 1
    return order, points


@given(
    cards=st.lists(st.sampled_from(DECK), min_size=8, max_size=8, unique=True),
    rng=st.randoms(use_true_random=False),
)
def test_play_out_matches_reference(cards: list[Card], rng: random.Random) -> None:
    """Any legal play of two four-card hands is accepted and pegged as the rules say."""
    hands = [cards[:4], cards[4:]]
    order, points = reference_play(hands, rng)
    pegs = play_out(hands[0], hands[1], order)
    assert [p.card for p in pegs if p.card] == order
    assert totals(pegs) == points
    assert all(p.player == (0 if p.card in hands[0] else 1) for p in pegs if p.card)


@given(
    cards=st.lists(st.sampled_from(DECK), min_size=8, max_size=8, unique=True),
    rng=st.randoms(use_true_random=False),
    position=st.integers(0, 5),
    distance=st.integers(1, 2),
)
def test_play_out_checks_legality(
    cards: list[Card], rng: random.Random, position: int, distance: int
) -> None:
    """A legal play with two cards swapped is accepted exactly when the rules allow it."""
    hands = [cards[:4], cards[4:]]
    order, _ = reference_play(hands, rng)
    swap = position + distance
    order[position], order[swap] = order[swap], order[position]
    if order in legal_orders(hands):
        play_out(hands[0], hands[1], order)
    else:
        with pytest.raises(IllegalPlayError):
            play_out(hands[0], hands[1], order)


def legal_orders(hands: list[list[Card]]) -> list[list[Card]]:
    """Every legal order of play of two hands."""
    orders: list[list[Card]] = []

    def extend(left: list[list[Card]], order: list[Card], count: int, turn: int) -> None:
        if not left[0] and not left[1]:
            orders.append(order)
            return
        playable = [c for c in left[turn] if count + c.value <= 31]
        if not playable:
            if any(count + c.value <= 31 for c in left[1 - turn]):
                extend(left, order, count, 1 - turn)
            else:
                extend(left, order, 0, turn)
            return
        for card in playable:
            rest = [list(h) for h in left]
            rest[turn].remove(card)
            total = count + card.value
            extend(rest, [*order, card], 0 if total == 31 else total, 1 - turn)

    extend(hands, [], 0, 0)
    return orders


def test_legal_orders_helper() -> None:
    """The helper used above: 4! · 4! orders when every count stays short of 31."""
    hands = [parse_cards("AC 2C 3C 4C"), parse_cards("AD 2D 3D 4D")]
    orders = legal_orders(hands)
    assert len({tuple(o) for o in orders}) == len(orders) == 24 * 24
