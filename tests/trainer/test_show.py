"""The show: itemized hand and crib scores, the spoken count, rank-only notation."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import assume, example, given, settings
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
from trainer.items import Kind, number_words
from trainer.rules import FIVE_CARD, FOUR_HAND, SIX_CARD, THREE_HAND, RuleSet
from trainer.show import Breakdown, heels, score_ranks, score_show, score_typed

KIND_ORDER = [Kind.FIFTEEN, Kind.PAIR, Kind.RUN, Kind.FLUSH, Kind.NOBS]


def rule_names(value: object) -> str | None:
    """Test ids: rule sets by name."""
    return value.name if isinstance(value, RuleSet) else None


def reference_score(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    """The show scored the slow, textbook way, independently of the engine."""
    cards = [*hand, starter]
    fifteens = sum(
        2
        for size in range(2, len(cards) + 1)
        for combo in itertools.combinations(cards, size)
        if sum(c.value for c in combo) == 15
    )
    pairs = sum(2 for a, b in itertools.combinations(cards, 2) if a.rank == b.rank)
    runs = 0
    for size in range(len(cards), 2, -1):
        found = [combo for combo in itertools.combinations(cards, size) if is_run(combo)]
        if found:
            runs = size * len(found)
            break
    flush = 0
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            flush = len(cards)
        elif not crib:
            flush = len(hand)
    nobs = sum(1 for c in hand if c.rank == Rank.JACK and c.suit == starter.suit)
    return fifteens + pairs + runs + flush + nobs


def is_run(cards: Sequence[Card]) -> bool:
    ranks = sorted(c.rank for c in cards)
    return all(b == a + 1 for a, b in itertools.pairwise(ranks))


def deal(text: str) -> tuple[list[Card], Card]:
    """``"5H 5D 5C JS | 5S"`` as a hand and starter."""
    hand, _, starter = text.partition("|")
    return parse_cards(hand), Card.parse(starter.strip())


def cards_of(text: str) -> frozenset[Card]:
    return frozenset(parse_cards(text))


def deals(size: int) -> st.SearchStrategy[tuple[list[Card], Card]]:
    """A hand of ``size`` cards and a starter, all distinct."""
    return st.lists(st.sampled_from(DECK), min_size=size + 1, max_size=size + 1, unique=True).map(
        lambda cards: (cards[:-1], cards[-1])
    )


ZERO = (parse_cards("2C 4D 6H 8S"), Card.parse("KC"))
TWENTY_NINE = (parse_cards("5H 5D 5C JS"), Card.parse("5S"))


@pytest.mark.parametrize(
    "text, crib, rules, total",
    [
        ("5H 5D 5C JS | 5S", False, SIX_CARD, 29),
        ("5H 5D 5C JS | 5S", True, SIX_CARD, 29),
        ("5H 5D 5C 5S | JS", False, SIX_CARD, 28),
        ("5H 5D 5C JH | 5S", False, SIX_CARD, 28),
        ("5H 5D 5C 5S | 10D", False, SIX_CARD, 28),
        ("5H 5D JS QC | 5C", True, SIX_CARD, 20),
        ("4H 4D 5C 5S | 6H", False, SIX_CARD, 24),
        ("AH AD 2C 2S | 3H", False, SIX_CARD, 16),
        ("7H 7D 8C 8S | 9H", False, SIX_CARD, 24),
        ("3H 3D 3C 4S | 5H", False, SIX_CARD, 21),
        ("3H 3D 4C 5S | KH", False, SIX_CARD, 12),
        ("AH 2D 3C 4S | 5H", False, SIX_CARD, 7),
        ("2C 4D 6H 8S | KC", False, SIX_CARD, 0),
        ("2H 4H 6H 8H | KS", False, SIX_CARD, 4),
        ("2H 4H 6H 8H | KS", True, SIX_CARD, 0),
        ("2H 4H 6H 8H | KH", False, SIX_CARD, 5),
        ("2H 4H 6H 8H | KH", True, SIX_CARD, 5),
        ("2H 4H 6H 8S | KH", False, SIX_CARD, 0),
        ("JH 2C 3D 7S | KH", False, SIX_CARD, 5),
        ("JH 2C 3D 7S | KH", True, SIX_CARD, 5),
        ("JH 2C 3D 7S | KC", False, SIX_CARD, 4),
        ("5H 10H JH QH | 5S", False, SIX_CARD, 21),
        ("5H 10H JH QH | KH", False, SIX_CARD, 18),
        ("5H 10H JH QH | KH", False, THREE_HAND, 18),
        ("5H 10H JH QH | KH", False, FOUR_HAND, 18),
        ("2H 4H 6H | KS", False, FIVE_CARD, 3),
        ("2H 4H 6H | KH", False, FIVE_CARD, 4),
        ("2H 4H 6S | KH", False, FIVE_CARD, 0),
        ("5H 5D JS | 5C", False, FIVE_CARD, 14),
        ("5H 5D JS | 5S", False, FIVE_CARD, 15),
        ("2H 4H 6H 8H | KS", True, FIVE_CARD, 0),
        ("2H 4H 6H 8H | KH", True, FIVE_CARD, 5),
    ],
    ids=rule_names,
)
def test_known_totals(text: str, crib: bool, rules: RuleSet, total: int) -> None:
    """Totals counted by hand from the rule books."""
    hand, starter = deal(text)
    breakdown = score_show(hand, starter, crib=crib, rules=rules)
    assert breakdown.total == total
    assert sum(i.points for i in breakdown.items) == total


def test_twenty_nine_items() -> None:
    """The 29 hand: eight fifteens, six pairs and nobs, each with its cards."""
    items = score_show(*TWENTY_NINE).items
    fives = parse_cards("5H 5D 5C 5S")
    jack = Card.parse("JS")
    fifteens = {frozenset(i.cards) for i in items if i.kind is Kind.FIFTEEN}
    assert fifteens == {frozenset({f, jack}) for f in fives} | {
        frozenset(t) for t in itertools.combinations(fives, 3)
    }
    pairs = {frozenset(i.cards) for i in items if i.kind is Kind.PAIR}
    assert pairs == {frozenset(p) for p in itertools.combinations(fives, 2)}
    assert [(i.kind, i.cards, i.points) for i in items if i.kind is Kind.NOBS] == [
        (Kind.NOBS, (jack,), 1)
    ]
    assert [i.points for i in items] == [2] * 8 + [2] * 6 + [1]


@pytest.mark.parametrize(
    "text, runs",
    [
        ("4H 4D 5C 5S | 6H", ["4H 5C 6H", "4H 5S 6H", "4D 5C 6H", "4D 5S 6H"]),
        ("AH AD 2C 2S | 3H", ["AH 2C 3H", "AH 2S 3H", "AD 2C 3H", "AD 2S 3H"]),
        ("3H 3D 4C 5S | KH", ["3H 4C 5S", "3D 4C 5S"]),
        ("3H 3D 3C 4S | 5H", ["3H 4S 5H", "3D 4S 5H", "3C 4S 5H"]),
        ("7H 8D 8C 9S | 10H", ["7H 8D 9S 10H", "7H 8C 9S 10H"]),
        ("AH 2D 3C 4S | 5H", ["AH 2D 3C 4S 5H"]),
        ("5H 10H JH QH | KH", ["10H JH QH KH"]),
        ("2C 4D 6H 8S | KC", []),
    ],
)
def test_every_run_listed(text: str, runs: list[str]) -> None:
    """A double run lists both runs, a triple run three, a double-double run all four."""
    items = score_show(*deal(text)).items
    found = [i for i in items if i.kind is Kind.RUN]
    assert {frozenset(i.cards) for i in found} == {cards_of(r) for r in runs}
    assert len(found) == len(runs)
    assert all(i.points == len(i.cards) for i in found)


@pytest.mark.parametrize(
    "text, pairs",
    [
        ("4H 4D 5C 5S | 6H", ["4H 4D", "5C 5S"]),
        ("3H 3D 3C 4S | 5H", ["3H 3D", "3H 3C", "3D 3C"]),
        ("2C 4D 6H 8S | 2H", ["2C 2H"]),
    ],
)
def test_every_pair_listed(text: str, pairs: list[str]) -> None:
    """Each pair of cards of a rank is its own item worth 2."""
    items = [i for i in score_show(*deal(text)).items if i.kind is Kind.PAIR]
    assert Counter(frozenset(i.cards) for i in items) == Counter(cards_of(p) for p in pairs)
    assert all(i.points == 2 for i in items)


def test_items_in_order() -> None:
    """Items come as fifteens, pairs, runs, flush, nobs."""
    items = score_show(*deal("5H 10H JH QH | KH")).items
    assert [i.kind for i in items] == [Kind.FIFTEEN] * 4 + [Kind.RUN, Kind.FLUSH, Kind.NOBS]
    items = score_show(*deal("5H 10H JH QH | 5S")).items
    assert [i.kind for i in items] == [Kind.FIFTEEN] * 6 + [Kind.PAIR, Kind.RUN, Kind.FLUSH]


@pytest.mark.parametrize(
    "text, crib, flush",
    [
        ("2H 4H 6H 8H | KS", False, "2H 4H 6H 8H"),
        ("2H 4H 6H 8H | KH", False, "2H 4H 6H 8H KH"),
        ("2H 4H 6H 8H | KH", True, "2H 4H 6H 8H KH"),
    ],
)
def test_flush_item(text: str, crib: bool, flush: str) -> None:
    """The flush names its cards and scores one a card."""
    [item] = [i for i in score_show(*deal(text), crib=crib).items if i.kind is Kind.FLUSH]
    assert frozenset(item.cards) == cards_of(flush)
    assert item.points == len(item.cards)


def test_jack_starter_is_not_nobs() -> None:
    """A jack turned up is his heels for the dealer, never nobs in a hand."""
    breakdown = score_show(*deal("5H 5D 5C 5S | JS"))
    assert Kind.NOBS not in breakdown.points_by_kind()
    assert breakdown.total == 28
    assert heels("JS") == 2


def test_four_card_flush_needs_the_hand_cards() -> None:
    """Three hand cards and the starter of one suit are no flush."""
    for crib in (False, True):
        breakdown = score_show(*deal("2H 4H 6H 8S | KH"), crib=crib)
        assert Kind.FLUSH not in breakdown.points_by_kind()


def test_no_four_card_crib_flush() -> None:
    """A crib flush needs the starter too."""
    hand, starter = deal("2H 4H 6H 8H | KS")
    assert score_show(hand, starter).points_by_kind() == {Kind.FLUSH: 4}
    assert score_show(hand, starter, crib=True).items == ()


@pytest.mark.parametrize("card", DECK, ids=str)
def test_heels(card: Card) -> None:
    """Two for his heels exactly when the starter is a jack."""
    assert heels(card) == (2 if card.rank is Rank.JACK else 0)
    assert heels(str(card)) == heels(card)


@pytest.mark.parametrize(
    "text, say",
    [
        (
            "5H 5D 5C JS | 5S",
            "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
            "fifteen fourteen, fifteen sixteen, and a double pair royal of fives is 28, "
            "and one for his nobs is 29",
        ),
        (
            "4H 4D 5C 5S | 6H",
            "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair of fours is 10, "
            "and a pair of fives is 12, and a double-double run of three is 24",
        ),
        (
            "3H 3D 3C 4S | 5H",
            "fifteen two, fifteen four, fifteen six, and a pair royal of threes is 12, "
            "and a triple run of three is 21",
        ),
        (
            "3H 3D 4C 5S | KH",
            "fifteen two, fifteen four, and a pair of threes is 6, and a double run of three is 12",
        ),
        ("2H 4H 6H 8H | KS", "a flush of four is 4"),
        ("2H 4H 6H 8H | KH", "a flush of five is 5"),
        ("JH 2C 3D 7S | KH", "fifteen two, fifteen four, and one for his nobs is 5"),
        ("2C 4D 6H 8S | KC", "nineteen: nothing to count"),
    ],
)
def test_say(text: str, say: str) -> None:
    """The count as players say it aloud."""
    assert score_show(*deal(text)).say() == say


def test_to_json() -> None:
    """The breakdown as JSON: total, items with cards, the deal and the spoken count."""
    breakdown = score_show(*deal("JH 2C 3D 7S | KH"), crib=True)
    data = json.loads(json.dumps(breakdown.to_json()))
    assert data == {
        "total": 5,
        "items": [
            {"kind": "fifteen", "cards": ["JH", "2C", "3D"], "points": 2},
            {"kind": "fifteen", "cards": ["2C", "3D", "KH"], "points": 2},
            {"kind": "nobs", "cards": ["JH"], "points": 1},
        ],
        "hand": ["JH", "2C", "3D", "7S"],
        "starter": "KH",
        "crib": True,
        "rules": "six-card",
        "say": "fifteen two, fifteen four, and one for his nobs is 5",
    }


def test_repr_and_points_by_kind() -> None:
    """A short repr and the points grouped by kind."""
    breakdown = score_show(*TWENTY_NINE)
    assert repr(breakdown) == "<Breakdown 5H 5D 5C JS | 5S: 29>"
    assert repr(score_show(*TWENTY_NINE, crib=True)) == "<Breakdown 5H 5D 5C JS | 5S crib: 29>"
    assert breakdown.points_by_kind() == {Kind.FIFTEEN: 16, Kind.PAIR: 12, Kind.NOBS: 1}


def test_accepts_strings_and_cards() -> None:
    """Notation and Card objects score the same."""
    assert score_show(["5h", "5♦", "5C", "JS"], "5s").total == score_show(*TWENTY_NINE).total


@pytest.mark.parametrize(
    "hand, starter, crib, rules, error, message",
    [
        ("5H 5D 5C", "JS", False, SIX_CARD, HandSizeError, "a six-card hand has 4 cards, got 3"),
        (
            "5H 5D 5C JS 2C",
            "5S",
            False,
            SIX_CARD,
            HandSizeError,
            "six-card hand has 4 cards, got 5",
        ),
        ("5H 5D 5C", "JS", True, SIX_CARD, HandSizeError, "a six-card crib has 4 cards, got 3"),
        ("5H 5D 5C JS", "5S", False, FIVE_CARD, HandSizeError, "five-card hand has 3 cards, got 4"),
        ("5H 5D 5C", "JS", True, FIVE_CARD, HandSizeError, "five-card crib has 4 cards, got 3"),
        ("", "JS", False, SIX_CARD, HandSizeError, "six-card hand has 4 cards, got 0"),
        ("5H 5D 5C 5H", "JS", False, SIX_CARD, DuplicateCardError, "card given twice: '5H'"),
        ("5H 5D 5C JS", "5H", False, SIX_CARD, DuplicateCardError, "card given twice: '5H'"),
        ("5H 5D 5C 1S", "5S", False, SIX_CARD, InvalidCardError, "unknown rank '1' in '1S'"),
        ("5H 5D 5C JS", "5X", False, SIX_CARD, InvalidCardError, "unknown suit 'X' in '5X'"),
    ],
    ids=rule_names,
)
def test_rejects(
    hand: str, starter: str, crib: bool, rules: RuleSet, error: type[Exception], message: str
) -> None:
    """Wrong sizes, duplicates and bad tokens each raise their own error."""
    with pytest.raises(error, match=re.escape(message)):
        score_show(hand.split(), starter, crib=crib, rules=rules)


@example(deal=TWENTY_NINE, crib=False)
@example(deal=ZERO, crib=False)
@given(deal=deals(4), crib=st.booleans())
def test_matches_reference(deal: tuple[list[Card], Card], crib: bool) -> None:
    """Total, items and the textbook count agree on any deal."""
    breakdown = score_show(*deal, crib=crib)
    assert breakdown.total == sum(i.points for i in breakdown.items)
    assert breakdown.total == reference_score(*deal, crib)
    kinds = [i.kind for i in breakdown.items]
    assert kinds == sorted(kinds, key=KIND_ORDER.index)


@given(deal=deals(3), crib=st.just(False))
def test_five_card_hand_matches_reference(deal: tuple[list[Card], Card], crib: bool) -> None:
    """Three-card hands of the five-card game agree with the textbook count."""
    breakdown = score_show(*deal, crib=crib, rules=FIVE_CARD)
    assert breakdown.total == sum(i.points for i in breakdown.items)
    assert breakdown.total == reference_score(*deal, crib)


@example(deal=TWENTY_NINE, order=[3, 2, 1, 0])
@example(deal=ZERO, order=[1, 3, 0, 2])
@given(deal=deals(4), order=st.permutations(range(4)))
def test_order_does_not_matter(deal: tuple[list[Card], Card], order: list[int]) -> None:
    """Any order of the hand gives the same total and the same points per kind."""
    hand, starter = deal
    shuffled = [hand[i] for i in order]
    first, second = score_show(hand, starter), score_show(shuffled, starter)
    assert first.total == second.total
    assert first.points_by_kind() == second.points_by_kind()
    assert Counter(frozenset(i.cards) for i in first.items) == Counter(
        frozenset(i.cards) for i in second.items
    )


@given(deal=deals(4))
def test_crib_differs_only_by_four_card_flush(deal: tuple[list[Card], Card]) -> None:
    """Hand and crib scores differ by 4 exactly when the hand alone is one suit."""
    hand, starter = deal
    four_flush = len({c.suit for c in hand}) == 1 and starter.suit != hand[0].suit
    difference = score_show(hand, starter).total - score_show(hand, starter, crib=True).total
    assert difference == (4 if four_flush else 0)


@given(deal=deals(4))
def test_say_ends_with_total(deal: tuple[list[Card], Card]) -> None:
    """The spoken count ends on the total ("fifteen six" when there are only fifteens)."""
    breakdown = score_show(*deal)
    say = breakdown.say()
    if not breakdown.total:
        assert say == "nineteen: nothing to count"
    elif set(breakdown.points_by_kind()) == {Kind.FIFTEEN}:
        assert say.endswith(f"fifteen {number_words(breakdown.total)}")
    else:
        assert say.endswith(f" is {breakdown.total}")


# --- rank-only notation -----------------------------------------------------------------


@pytest.mark.parametrize(
    "hand, starter, crib, rules, text",
    [
        ("5-5-5-J", "5", False, SIX_CARD, "28; 29 if the jack is the starter's suit"),
        ("5 5 5 J", "J", False, SIX_CARD, "22"),
        ("5 5 J J", "K", False, SIX_CARD, "16; 17 if a jack is the starter's suit"),
        (
            "2 4 6 8",
            "K",
            False,
            SIX_CARD,
            "0; 4 if the hand is all one suit; 5 if all five cards are one suit",
        ),
        ("2 4 6 8", "K", True, SIX_CARD, "0; 5 if all five cards are one suit"),
        ("4 4 5 5", "6", False, SIX_CARD, "24"),
        ("A A 2 2", "3", True, SIX_CARD, "16"),
        (
            "2 4 6",
            "K",
            False,
            FIVE_CARD,
            "0; 3 if the hand is all one suit; 4 if all four cards are one suit",
        ),
        ("J J J J", "5", False, SIX_CARD, "21"),
    ],
    ids=rule_names,
)
def test_score_ranks(hand: str, starter: str, crib: bool, rules: RuleSet, text: str) -> None:
    """What ranks score for certain, and what the suits could add."""
    assert str(score_ranks(hand, starter, crib=crib, rules=rules)) == text


def test_score_ranks_to_json() -> None:
    """Certain points, each possible higher total with its condition, and the summary."""
    assert score_ranks("5-5-5-J", "5").to_json() == {
        "certain": 28,
        "possible": [{"total": 29, "if": "the jack is the starter's suit"}],
        "say": "28; 29 if the jack is the starter's suit",
    }


@pytest.mark.parametrize(
    "hand, starter",
    [
        ([5, 5, 5, 11], 5),
        ([Rank.FIVE, Rank.FIVE, Rank.FIVE, Rank.JACK], Rank.FIVE),
        (["5", "5", "5", "j"], "5"),
        ("5,5,5,J", "5"),
    ],
)
def test_score_ranks_inputs(hand: Sequence[int | str] | str, starter: int | str) -> None:
    """Ranks may be ints, Rank members or notation."""
    assert score_ranks(hand, starter).certain == 28


@pytest.mark.parametrize(
    "hand, starter, error, message",
    [
        ("5 5 5 5", "5", HandSizeError, "more than four cards of one rank"),
        ("5 5 5", "5", HandSizeError, "six-card hand has 4 cards, got 3"),
        ("1 5 5 5", "5", InvalidCardError, "unknown rank '1'"),
        ("5 5 5 J", "Z", InvalidCardError, "unknown rank 'Z'"),
    ],
)
def test_score_ranks_rejects(hand: str, starter: str, error: type[Exception], message: str) -> None:
    """Bad ranks and impossible hands are errors."""
    with pytest.raises(error, match=re.escape(message)):
        score_ranks(hand, starter)


@pytest.mark.parametrize(
    "hand, starter, text",
    [
        ("5 5 5 J", Card.parse("5S"), "28; 29 if the jack is the starter's suit"),
        (["5", "5", "5", Card.parse("JS")], Card.parse("5S"), "29"),
        (["5", "5", "5", Card.parse("JH")], Card.parse("5S"), "28"),
        ([Card.parse("2C"), Card.parse("4H"), 6, 8], "K", "0"),
        (
            "2 4 6 8",
            Card.parse("KH"),
            "0; 4 if the hand is all one suit; 5 if all five cards are one suit",
        ),
    ],
)
def test_score_ranks_keeps_known_suits(
    hand: Sequence[Card | int | str] | str, starter: Card | str, text: str
) -> None:
    """A card among the ranks keeps its suit: a suited starter is one more known card."""
    assert str(score_ranks(hand, starter)) == text


def test_score_ranks_refuses_a_known_card_twice() -> None:
    """The same suited card twice is named, as for whole cards."""
    with pytest.raises(DuplicateCardError, match="card given twice: '5H'"):
        score_ranks([Card.parse("5H"), 5, 5, 11], Card.parse("5H"))


@pytest.mark.parametrize(
    "text, starter, crib, expected",
    [
        ("5H 5D 5C JS | 5S", None, False, "29"),
        ("5H 5D 5C JS 5S", None, False, "29"),
        ("5H 5D 5C JS", "5S", False, "29"),
        ("2H 4H 6H 8H", "KS", True, "0"),
        ("5-5-5-J", "5", False, "28; 29 if the jack is the starter's suit"),
        ("5 5 5 J", "5S", False, "28; 29 if the jack is the starter's suit"),
    ],
)
def test_score_typed(text: str, starter: str | None, crib: bool, expected: str) -> None:
    """Typed text, the starter apart, after a bar or last: suited cards give the breakdown,
    any rank alone gives what is certain and what the suits could add."""
    result = score_typed(text, starter, crib=crib)
    if expected.isdigit():
        assert isinstance(result, Breakdown) and result.total == int(expected)
    else:
        assert str(result) == expected


@pytest.mark.parametrize(
    "text, starter, error, message",
    [
        ("5H 5D 5C JS", None, HandSizeError, "the starter is missing"),
        ("5H 5D 5C JS | 5S", "6S", HandSizeError, "the starter is given twice"),
        ("5H 5 5 J", "5H", DuplicateCardError, "card given twice: '5H'"),
        ("5H 5D 5C foo", "5S", InvalidCardError, "'foo'"),
    ],
)
def test_score_typed_rejects(
    text: str, starter: str | None, error: type[Exception], message: str
) -> None:
    """Bad text is an error in players' words."""
    with pytest.raises(error, match=re.escape(message)):
        score_typed(text, starter)


@settings(max_examples=40, deadline=None)
@given(
    ranks=st.lists(st.sampled_from(list(Rank)), min_size=5, max_size=5).filter(
        lambda r: max(Counter(r).values()) <= 4
    ),
    crib=st.booleans(),
)
@pytest.mark.slow
def test_score_ranks_covers_every_suiting(ranks: list[Rank], crib: bool) -> None:
    """The certain total is the least over all suits, and every other total is listed."""
    assume(ranks[:4].count(Rank.JACK) < 4)  # four jacks: see test_score_ranks
    totals = {
        score_show(cards[:4], cards[4], crib=crib).total
        for suits in itertools.product(Suit, repeat=5)
        if len(set(cards := [Card(r, s) for r, s in zip(ranks, suits, strict=True)])) == 5
    }
    result = score_ranks(ranks[:4], ranks[4], crib=crib)
    assert result.certain == min(totals)
    assert {result.certain, *(total for total, _ in result.outcomes)} == totals
