"""Score items and their names: the shared vocabulary of the show and the play."""

from __future__ import annotations

import dataclasses
import enum

from .cards import Card

_NUMBER_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]


def number_words(n: int) -> str:
    """Spell a small number as players say it: ``24`` → ``"twenty-four"``.

    >>> number_words(16), number_words(29)
    ('sixteen', 'twenty-nine')
    """
    if n <= 20:
        return _NUMBER_WORDS[n]
    tens, units = divmod(n, 10)
    word = {2: "twenty", 3: "thirty"}[tens]
    return word if units == 0 else f"{word}-{_NUMBER_WORDS[units]}"


class Kind(enum.Enum):
    """What a score item is for."""

    FIFTEEN = "fifteen"
    """Cards adding to fifteen (2; in the play, the count reaching 15)."""
    PAIR = "pair"
    """Two cards of a rank (2)."""
    PAIR_ROYAL = "pair royal"
    """Three of a rank played in a row (6; in the show, three pairs)."""
    DOUBLE_PAIR_ROYAL = "double pair royal"
    """Four of a rank played in a row (12; in the show, six pairs)."""
    RUN = "run"
    """Cards in rank sequence (1 a card)."""
    FLUSH = "flush"
    """Hand (or crib with the starter) all of one suit."""
    NOBS = "nobs"
    """The jack of the starter's suit in hand or crib (1)."""
    THIRTY_ONE = "thirty-one"
    """The count reaching exactly 31 (2)."""
    GO = "go"
    """The last card of a count that stopped short of 31 (1)."""
    LAST_CARD = "last card"
    """The last card of the play, when it did not make 31 (1)."""
    HEELS = "his heels"
    """A jack turned as starter: 2 to the dealer."""


RULE_TEXT: dict[Kind, str] = {
    Kind.FIFTEEN: "Each combination of cards adding to 15 scores 2.",
    Kind.PAIR: "Each pair of cards of the same rank scores 2.",
    Kind.RUN: "Three or more cards in rank sequence score 1 each. Only the longest run counts "
    "(not the shorter runs inside it), once for each way of making it with different cards: "
    "3-4-4-5 is two runs of three.",
    Kind.FLUSH: (
        "All hand cards of one suit score one each, plus one if the starter matches; "
        "a crib flush counts only when all five cards match."
    ),
    Kind.NOBS: "The jack of the starter's suit in hand or crib scores 1 (his nobs).",
    Kind.HEELS: "A jack turned as the starter scores 2 for the dealer (his heels).",
}
"""The rule behind each kind of item in the show (hands and the crib) and at the cut."""

PLAY_RULE_TEXT: dict[Kind, str] = {
    Kind.FIFTEEN: "A card that makes the count (the running total of the cards played) exactly "
    "15 scores 2.",
    Kind.PAIR: "A card of the same rank as the card played just before it, in the same count,"
    " scores 2; a go or 31 between them breaks the pair.",
    Kind.PAIR_ROYAL: "A third card of a rank played straight after a pair of it scores 6 "
    "(three pairs: a pair royal).",
    Kind.DOUBLE_PAIR_ROYAL: "A fourth card of a rank played straight after a pair royal scores "
    "12 (six pairs: a double pair royal).",
    Kind.RUN: "When the last three or more cards played since the count restarted are in rank "
    "sequence, in any order, the last card scores 1 for each of them; a duplicate or another "
    "card among them breaks the run.",
    Kind.THIRTY_ONE: "A card that makes the count exactly 31 scores 2; the count starts again.",
    Kind.GO: "When no player can play without passing 31, the player of the last card scores 1 "
    "for the go; the count starts again (in the five-card game the play ends there).",
    Kind.LAST_CARD: "The last card of the play scores 1, unless it made 31 (which scored 2).",
}
"""The rule behind each kind of item in the play (pegging): only the running total of 15 or
31 scores, a pair only with the card just before, a run only among the last cards played.
From the rule books (``../shared/seeds``: the points in play)."""


@dataclasses.dataclass(frozen=True)
class ScoreItem:
    """One scoring combination: what it is, the cards in it, and the points.

    >>> from trainer.cards import parse_cards
    >>> ScoreItem(Kind.FIFTEEN, tuple(parse_cards("5H JS")), 2)
    ScoreItem(Kind.FIFTEEN, '5H JS', 2)
    """

    kind: Kind
    """What the item scores for."""
    cards: tuple[Card, ...]
    """The cards that make it."""
    points: int
    """Points it is worth."""

    def __str__(self) -> str:
        cards = " ".join(c.unicode() for c in self.cards)
        return f"{self.kind.value} {cards} for {self.points}"

    def __repr__(self) -> str:
        cards = " ".join(map(str, self.cards))
        return f"ScoreItem(Kind.{self.kind.name}, {cards!r}, {self.points})"

    def to_json(self) -> dict[str, object]:
        """``{"kind": "fifteen", "cards": ["5H", "JS"], "points": 2}``."""
        return {
            "kind": self.kind.value,
            "cards": [str(c) for c in self.cards],
            "points": self.points,
        }
