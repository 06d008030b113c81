"""Cards and the notation players type: parsing, printing, errors."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.cards import (
    DECK,
    Card,
    DuplicateCardError,
    HandSizeError,
    InvalidCardError,
    Rank,
    Suit,
    as_card,
    parse_cards,
    parse_deal,
    parse_rank,
    split_tokens,
)


@pytest.mark.parametrize(
    "token, rank, suit",
    [
        ("5H", Rank.FIVE, Suit.HEARTS),
        ("5h", Rank.FIVE, Suit.HEARTS),
        ("5♥", Rank.FIVE, Suit.HEARTS),
        ("5♡", Rank.FIVE, Suit.HEARTS),
        ("10D", Rank.TEN, Suit.DIAMONDS),
        ("10d", Rank.TEN, Suit.DIAMONDS),
        ("TD", Rank.TEN, Suit.DIAMONDS),
        ("td", Rank.TEN, Suit.DIAMONDS),
        ("10♦", Rank.TEN, Suit.DIAMONDS),
        ("JS", Rank.JACK, Suit.SPADES),
        ("j♠", Rank.JACK, Suit.SPADES),
        ("AC", Rank.ACE, Suit.CLUBS),
        ("a♣", Rank.ACE, Suit.CLUBS),
        ("Q♧", Rank.QUEEN, Suit.CLUBS),
        ("K♤", Rank.KING, Suit.SPADES),
        ("2♢", Rank.TWO, Suit.DIAMONDS),
        (" 9S ", Rank.NINE, Suit.SPADES),
    ],
)
def test_parse(token: str, rank: Rank, suit: Suit) -> None:
    """Every accepted spelling gives the card."""
    assert Card.parse(token) == Card(rank, suit)


@pytest.mark.parametrize(
    "token, text, symbols",
    [("5h", "5H", "5♥"), ("TD", "10D", "10♦"), ("js", "JS", "J♠"), ("AC", "AC", "A♣")],
)
def test_canonical_text(token: str, text: str, symbols: str) -> None:
    """``str`` is the canonical ASCII notation, ``unicode()`` uses suit symbols."""
    card = Card.parse(token)
    assert str(card) == text
    assert card.unicode() == symbols
    assert repr(card) == f"Card.parse({text!r})"


@pytest.mark.parametrize(
    "token, message",
    [
        ("1H", "unknown rank '1' in '1H'"),
        ("0S", "unknown rank '0' in '0S'"),
        ("11D", "unknown rank '11' in '11D'"),
        ("XH", "unknown rank 'X' in 'XH'"),
        ("1♥", "unknown rank '1' in '1♥'"),
        ("5X", "unknown suit 'X' in '5X'"),
        ("10Z", "unknown suit 'Z' in '10Z'"),
        ("J*", "unknown suit '*' in 'J*'"),
        ("5", "missing suit in '5'"),
        ("10", "missing suit in '10'"),
        ("j", "missing suit in 'j'"),
        ("H", "not a card: 'H'"),
        ("", "not a card: ''"),
    ],
)
def test_parse_rejects(token: str, message: str) -> None:
    """A bad token raises InvalidCardError naming the token and what is wrong."""
    with pytest.raises(InvalidCardError, match=re.escape(message)):
        Card.parse(token)


@pytest.mark.parametrize("error", [InvalidCardError, DuplicateCardError, HandSizeError])
def test_errors_are_value_errors(error: type[Exception]) -> None:
    """Callers can catch every notation error as ValueError."""
    assert issubclass(error, ValueError)


@pytest.mark.parametrize("thing", [5, None, 5.0, ("5", "H")])
def test_as_card_rejects_non_cards(thing: object) -> None:
    """Only cards and strings are cards."""
    with pytest.raises(InvalidCardError, match="not a card"):
        as_card(thing)  # type: ignore[arg-type]


def test_as_card_passes_cards_through() -> None:
    """A Card is returned as it is."""
    card = Card.parse("QH")
    assert as_card(card) is card


def test_deck() -> None:
    """52 distinct cards in index order, with pip values ace 1 and faces 10."""
    assert len(set(DECK)) == 52
    assert [c.index for c in DECK] == list(range(52))
    assert [c.bit for c in DECK] == [1 << i for i in range(52)]
    assert str(DECK[0]) == "AC"
    assert str(DECK[51]) == "KS"
    assert Card.parse("JS").index == 43
    assert [c.value for c in parse_cards("AS 2S 9S 10S JS QS KS")] == [1, 2, 9, 10, 10, 10, 10]


@pytest.mark.parametrize("index", [-1, 52, 100])
def test_from_index_rejects(index: int) -> None:
    """Indices outside 0…51 are not cards."""
    with pytest.raises(InvalidCardError, match=f"out of range 0-51: {index}"):
        Card.from_index(index)


def test_card_takes_plain_ints() -> None:
    """Rank and suit given as ints become enums."""
    card = Card(5, 2)  # type: ignore[arg-type]
    assert card.rank is Rank.FIVE
    assert card.suit is Suit.HEARTS
    assert card == Card.parse("5H")


def test_rank_and_suit_words() -> None:
    """Rank and suit helpers used in spoken counts and display."""
    assert [r.symbol for r in (Rank.ACE, Rank.TEN, Rank.JACK, Rank.KING)] == ["A", "10", "J", "K"]
    assert [r.pip for r in (Rank.ACE, Rank.NINE, Rank.TEN, Rank.QUEEN)] == [1, 9, 10, 10]
    assert (Rank.FIVE.plural, Rank.SIX.plural, Rank.JACK.word) == ("fives", "sixes", "jack")
    assert [s.letter for s in Suit] == ["C", "D", "H", "S"]
    assert [s.is_red for s in Suit] == [False, True, True, False]


@pytest.mark.parametrize(
    "text",
    [
        "5H 5D 5C JS",
        "5H,5D,5C,JS",
        "5H, 5D, 5C, JS",
        "5H-5D-5C-JS",
        "5H – 5D – 5C – JS",
        "5h;5d;5c;js",
        "  5♥ 5♦\t5♣ \n J♠ ",
        "5H 5D, 5C-JS",
    ],
)
def test_parse_cards_separators(text: str) -> None:
    """Spaces, commas, semicolons and dashes all separate cards."""
    assert [str(c) for c in parse_cards(text)] == ["5H", "5D", "5C", "JS"]


def test_parse_cards_accepts_tokens_and_cards() -> None:
    """A list may mix strings and Card objects."""
    assert parse_cards(["5H", Card.parse("JS")]) == [Card.parse("5H"), Card.parse("JS")]


def test_split_tokens_on_ranks() -> None:
    """Rank-only notation splits on dashes too."""
    assert split_tokens("5-5-5-J") == ["5", "5", "5", "J"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("5H 5D 5h", "card given twice: '5H'"),
        ("TD 10D", "card given twice: '10D'"),
        ("5♥ 5H", "card given twice: '5H'"),
    ],
)
def test_parse_cards_rejects_duplicates(text: str, message: str) -> None:
    """The same card twice, however spelled, is an error naming it."""
    with pytest.raises(DuplicateCardError, match=re.escape(message)):
        parse_cards(text)


@pytest.mark.parametrize(
    "text, message", [("5H 1D", "unknown rank '1'"), ("5H 5X", "unknown suit 'X'")]
)
def test_parse_cards_rejects_bad_tokens(text: str, message: str) -> None:
    """One bad token spoils the list."""
    with pytest.raises(InvalidCardError, match=re.escape(message)):
        parse_cards(text)


@pytest.mark.parametrize(
    "text",
    ["5H 5D 5C JS | 5S", "5H,5D,5C,JS|5S", "5h 5d 5c js |5s", "5♥-5♦-5♣-J♠ | 5♠"],
)
def test_parse_deal(text: str) -> None:
    """The starter follows a bar."""
    hand, starter = parse_deal(text)
    assert [str(c) for c in hand] == ["5H", "5D", "5C", "JS"]
    assert starter == Card.parse("5S")


def test_parse_deal_without_bar() -> None:
    """Without a bar there is no starter: the caller decides."""
    hand, starter = parse_deal("5H 5D 5C JS 5S")
    assert len(hand) == 5
    assert starter is None


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("5H 5D 5C JS | 5S 6S", HandSizeError, "expected one starter after '|', got 2"),
        ("5H 5D 5C JS |", HandSizeError, "expected one starter after '|', got 0"),
        ("5H 5D 5C JS | 5H", DuplicateCardError, "card given twice: '5H'"),
        ("5H 5D 5C JS | 5", InvalidCardError, "missing suit in '5'"),
        ("5H 5D 5C 1S | 5S", InvalidCardError, "unknown rank '1'"),
    ],
)
def test_parse_deal_rejects(text: str, error: type[Exception], message: str) -> None:
    """Each bad deal raises its own error type."""
    with pytest.raises(error, match=re.escape(message)):
        parse_deal(text)


@pytest.mark.parametrize(
    "token, rank",
    [("5", Rank.FIVE), ("10", Rank.TEN), ("T", Rank.TEN), ("j", Rank.JACK), ("a", Rank.ACE)],
)
def test_parse_rank(token: str, rank: Rank) -> None:
    """Ranks alone, for rank-only notation."""
    assert parse_rank(token) is rank


@pytest.mark.parametrize("token", ["1", "0", "11", "X", "5H", ""])
def test_parse_rank_rejects(token: str) -> None:
    """Anything but A, 2-10, T, J, Q, K is not a rank."""
    with pytest.raises(InvalidCardError, match=re.escape(f"unknown rank {token!r}")):
        parse_rank(token)


@given(st.sampled_from(DECK))
def test_round_trips(card: Card) -> None:
    """Every way of writing a card parses back to it."""
    assert Card.parse(str(card)) == card
    assert Card.parse(card.unicode()) == card
    assert Card.parse(str(card).lower()) == card
    assert eval(repr(card), {"Card": Card}) == card
    assert Card.from_index(card.index) is card
    assert hash(card) == card.index


@given(
    st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True),
    st.sampled_from([" ", ",", ", ", "-", " - ", ";", " – "]),
)
def test_parse_cards_round_trip(cards: list[Card], separator: str) -> None:
    """Printed cards joined by any separator parse back in order."""
    assert parse_cards(separator.join(map(str, cards))) == cards
    assert parse_cards(separator.join(c.unicode() for c in cards)) == cards


@given(st.sampled_from(DECK), st.sampled_from(DECK))
def test_order_is_rank_then_suit(a: Card, b: Card) -> None:
    """Cards sort by rank, then suit, which is index order."""
    assert (a < b) == (a.index < b.index)
