"""Cards, ranks, suits and the notation players type.

>>> Card.parse("10d")
Card.parse('10D')
>>> str(Card.parse("5♥")), Card.parse("5H").unicode()
('5H', '5♥')
>>> [str(c) for c in parse_cards("5H, 5D-5C JS")]
['5H', '5D', '5C', 'JS']
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Iterable, Sequence

from .errors import DuplicateCardError, HandSizeError, InvalidCardError


class Rank(enum.IntEnum):
    """A card's rank, ace low (A=1 … K=13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """The rank as printed in a corner index: ``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
        return _RANK_SYMBOLS[self]

    @property
    def pip(self) -> int:
        """The counting value: ace 1, faces 10."""
        return min(int(self), 10)

    @property
    def word(self) -> str:
        """The rank in words (``"five"``, ``"jack"``)."""
        return self.name.lower()

    @property
    def plural(self) -> str:
        """The rank in words, plural (``"fives"``, ``"sixes"``)."""
        return self.word + ("es" if self is Rank.SIX else "s")


class Suit(enum.IntEnum):
    """A card's suit (ordered clubs, diamonds, hearts, spades, as in bridge)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """``C``, ``D``, ``H`` or ``S``."""
        return self.name[0]

    @property
    def symbol(self) -> str:
        """``♣``, ``♦``, ``♥`` or ``♠``."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Whether the suit is printed red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_RANK_SYMBOLS = {r: {1: "A", 11: "J", 12: "Q", 13: "K"}.get(int(r), str(int(r))) for r in Rank}
_RANK_TOKENS = {sym: r for r, sym in _RANK_SYMBOLS.items()} | {"T": Rank.TEN, "1": None}
_SUIT_TOKENS = {s.letter: s for s in Suit} | {s.symbol: s for s in Suit}
_SUIT_TOKENS |= {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}


@dataclasses.dataclass(frozen=True, order=True, slots=True)
class Card:
    """An immutable playing card.

    >>> Card(Rank.JACK, Suit.SPADES)
    Card.parse('JS')
    >>> Card.parse("JS").value, Card.parse("JS").index
    (10, 43)
    """

    rank: Rank
    """The card's rank."""
    suit: Suit
    """The card's suit."""
    index: int = dataclasses.field(init=False, repr=False, compare=False)
    """A dense index 0…51: ``(rank - 1) * 4 + suit``."""
    value: int = dataclasses.field(init=False, repr=False, compare=False)
    """The counting value: ace 1, faces 10."""
    bit: int = dataclasses.field(init=False, repr=False, compare=False)
    """``1 << index``, for fast set arithmetic on hands."""

    def __post_init__(self) -> None:
        rank, suit = Rank(self.rank), Suit(self.suit)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "index", (rank - 1) * 4 + suit)
        object.__setattr__(self, "value", rank.pip)
        object.__setattr__(self, "bit", 1 << self.index)

    def __hash__(self) -> int:
        return self.index

    def unicode(self) -> str:
        """The card with a suit symbol, for people: ``5♥``."""
        return self.rank.symbol + self.suit.symbol

    def __str__(self) -> str:
        return self.rank.symbol + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with dense index ``index`` (0…51).

        Raises:
            InvalidCardError: if the index is out of range.
        """
        if not 0 <= index < 52:
            raise InvalidCardError(f"card index out of range 0-51: {index!r}")
        return DECK[index]

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse one card as a player types it: ``5H``, ``5h``, ``5♥``, ``10D``, ``TD``.

        Raises:
            InvalidCardError: naming the bad rank or suit.

        >>> Card.parse("1H")
        Traceback (most recent call last):
        ...
        trainer.errors.InvalidCardError: unknown rank '1' in '1H' (use A,2-10,J,Q,K)
        """
        if not isinstance(token, str):
            raise InvalidCardError(f"not a card: {token!r} (expected text like 5H)")
        card = _PARSED.get(token)
        if card is not None:
            return card
        typed = token.strip()
        text = typed.upper()
        card = _PARSED.get(text)
        if card is not None:
            return card
        if _RANK_TOKENS.get(text) is not None:
            raise InvalidCardError(f"missing suit in {token!r} (add C,D,H,S or ♣♦♥♠)")
        if len(text) < 2:
            raise InvalidCardError(f"not a card: {token!r} (expected a rank and a suit, like 5H)")
        rank_text, suit_text = typed[:-1], typed[-1]  # quoted as typed
        if _RANK_TOKENS.get(rank_text.upper()) is None:
            raise InvalidCardError(f"unknown rank {rank_text!r} in {token!r} (use A,2-10,J,Q,K)")
        raise InvalidCardError(f"unknown suit {suit_text!r} in {token!r} (use C,D,H,S or ♣♦♥♠)")


DECK: tuple[Card, ...] = tuple(Card(r, s) for r in Rank for s in Suit)
"""The 52 cards in index order (A♣, A♦, A♥, A♠, 2♣, …)."""

_PARSED: dict[str, Card] = {
    rank_token + suit_token: Card(rank, suit)
    for rank_token, rank in _RANK_TOKENS.items()
    if rank is not None
    for suit_token, suit in _SUIT_TOKENS.items()
}
_PARSED |= {key.lower(): card for key, card in _PARSED.items()}

CardLike = Card | str
"""A card object or its notation (``"5H"``)."""

_SEPARATORS = re.compile(r"[\s,;\-–]+")


def as_card(card: CardLike) -> Card:
    """Return ``card`` as a :class:`Card`, parsing it if it is a string.

    Raises:
        InvalidCardError: for anything that is not a card.
    """
    if type(card) is Card:
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise InvalidCardError(f"not a card: {card!r}")


def split_tokens(text: str) -> list[str]:
    """Split typed cards on spaces, commas, semicolons or dashes.

    >>> split_tokens("5-5-5-J")
    ['5', '5', '5', 'J']
    """
    return [t for t in _SEPARATORS.split(text.strip()) if t]


def parse_cards(text: str | Iterable[CardLike]) -> list[Card]:
    """Parse several cards (``"5H 5D 5C JS"`` or a list of tokens), checking duplicates.

    Raises:
        InvalidCardError: for a bad token.
        DuplicateCardError: for a card given twice.
    """
    tokens = split_tokens(text) if isinstance(text, str) else list(text)
    cards = [as_card(t) for t in tokens]
    check_distinct(cards)
    return cards


def check_distinct(cards: Sequence[Card]) -> None:
    """Raise :class:`DuplicateCardError` naming the first card given twice."""
    if len(set(cards)) == len(cards):
        return
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"card given twice: {str(card)!r}")
        seen.add(card)


def parse_rank(token: str) -> Rank:
    """Parse a rank alone (``5``, ``10``, ``T``, ``J``, ``a``).

    Raises:
        InvalidCardError: for an unknown rank.
    """
    rank = _RANK_TOKENS.get(token.strip().upper())
    if rank is None:
        raise InvalidCardError(f"unknown rank {token!r} (use A,2-10,J,Q,K)")
    return rank


def is_rank_only(tokens: Iterable[str]) -> bool:
    """Whether every token is a rank alone (``5``, ``J``), as the rule books write hands.

    >>> is_rank_only(["5", "5", "J", "10"]), is_rank_only(["5", "JS"])
    (True, False)
    """
    try:
        for token in tokens:
            parse_rank(token)
    except InvalidCardError:
        return False
    return True


def split_show(
    text: str,
    starter: str | None = None,
    *,
    size: int,
    crib: bool = False,
    starter_place: str = "with --starter",
) -> tuple[list[str], str]:
    """Split typed cards into the hand's (or crib's) tokens and the starter's, before parsing.

    The starter is given apart (``starter``), after a bar (``5H 5D 5C JS | 5S``) or last. A
    wrong count is told in players' words: a missing starter, a starter given twice, a hand of
    the wrong size.

    Args:
        text: the cards as typed.
        starter: the starter given apart, if any (blank counts as not given).
        size: cards in the hand or crib (``RuleSet.show_size``).
        crib: whether a crib is scored (for the messages).
        starter_place: where else the starter can be given, for the messages.

    Returns:
        The hand's tokens and the starter's token.

    Raises:
        InvalidCardError: for a token that is neither a card nor a rank.
        HandSizeError: for a missing, doubled or extra starter, or the wrong number of cards.

    >>> split_show("5H 5D 5C JS | 5S", size=4)
    (['5H', '5D', '5C', 'JS'], '5S')
    >>> split_show("5 5 5 J", "5", size=4)
    (['5', '5', '5', 'J'], '5')
    """
    what = "crib" if crib else "hand"
    hand_text, bar, after_bar = text.partition("|")
    apart = split_tokens(starter or "")
    if bar and apart:
        raise HandSizeError(
            f"the starter is given twice: give it after '|' or {starter_place}, not both"
        )
    tokens = split_tokens(hand_text)
    starters = split_tokens(after_bar) if bar else apart
    for token in (*tokens, *starters):  # a bad card is named before the count is
        if not is_rank_only([token]):
            Card.parse(token)
    if len(starters) > 1:
        raise HandSizeError(f"give one starter card, not {len(starters)}")
    if not tokens:
        raise HandSizeError(f"no cards given: a {what} is {size} cards and a starter")
    if starters:
        if len(tokens) == size + 1:
            raise HandSizeError(
                f"the starter is given twice: {tokens[-1]} last and {starters[0]} "
                f"{'after |' if bar else starter_place}; a {what} is {size} cards and a starter"
            )
        if len(tokens) != size:
            raise HandSizeError(
                f"a {what} is {size} cards and a starter: got {len(tokens)} cards and a starter"
            )
        return tokens, starters[0]
    if len(tokens) == size:
        raise HandSizeError(
            f"the starter is missing: a {what} is {size} cards and a starter, got {size} cards "
            f"(type the starter last, after '|', or {starter_place})"
        )
    if len(tokens) != size + 1:
        raise HandSizeError(f"a {what} is {size} cards and a starter: got {len(tokens)} cards")
    return tokens[:-1], tokens[-1]


def parse_deal(text: str) -> tuple[list[Card], Card | None]:
    """Parse ``"5H 5D 5C JS | 5S"`` into the hand and the starter after the bar.

    Without a bar the starter is ``None``; the caller decides (the CLI takes the last card).

    >>> hand, starter = parse_deal("5H 5D 5C JS | 5S")
    >>> [str(c) for c in hand], str(starter)
    (['5H', '5D', '5C', 'JS'], '5S')
    """
    if "|" not in text:
        return parse_cards(text), None
    hand_text, _, starter_text = text.partition("|")
    starter_tokens = split_tokens(starter_text)
    if len(starter_tokens) != 1:
        raise HandSizeError(f"expected one starter after '|', got {len(starter_tokens)}")
    hand = parse_cards(hand_text)
    starter = Card.parse(starter_tokens[0])
    check_distinct([*hand, starter])
    return hand, starter
