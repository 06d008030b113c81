"""The play (pegging): what each card pegs, and a whole play scored and checked.

>>> [p.points for p in score_sequence("3H 6D 4C 5S 2H".split())]
[0, 0, 0, 4, 5]
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from .cards import Card, CardLike, as_card, check_distinct, parse_cards
from .errors import HandSizeError, IllegalPlayError
from .items import Kind, ScoreItem

GO = "go"
"""The token that marks a go in a played sequence."""

_PAIR_KINDS = {2: (Kind.PAIR, 2), 3: (Kind.PAIR_ROYAL, 6), 4: (Kind.DOUBLE_PAIR_ROYAL, 12)}


def score_peg(pile: Sequence[CardLike], card: CardLike) -> tuple[ScoreItem, ...]:
    """What playing ``card`` pegs on the current count's ``pile`` (oldest first).

    Scores 15 and 31 (2 each), pairs (2), pairs royal (6), double pairs royal (12) among the
    last cards played, and runs of 3 to 7 in any order among the last cards played.

    Raises:
        IllegalPlayError: if the count would pass 31.

    >>> [str(i) for i in score_peg(["6H", "4D", "3C"], "3S")]
    ['pair 3♣ 3♠ for 2']
    >>> sum(i.points for i in score_peg(["10H", "10D", "5C", "4S"], "2H"))
    2
    """
    played = [as_card(c) for c in pile]
    new = as_card(card)
    check_distinct([*played, new])
    count = sum(c.value for c in played) + new.value
    if count > 31:
        raise IllegalPlayError(f"{new} would take the count to {count}, past 31")
    cards = [*played, new]
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem(Kind.FIFTEEN, tuple(cards), 2))
    elif count == 31:
        items.append(ScoreItem(Kind.THIRTY_ONE, tuple(cards), 2))
    same = 1
    while same < len(cards) and cards[-1 - same].rank == new.rank:
        same += 1
    if same >= 2:
        kind, points = _PAIR_KINDS[same]
        items.append(ScoreItem(kind, tuple(cards[-same:]), points))
    for length in range(len(cards), 2, -1):
        tail = cards[-length:]
        ranks = sorted(c.rank for c in tail)
        if all(b == a + 1 for a, b in itertools.pairwise(ranks)):
            items.append(ScoreItem(Kind.RUN, tuple(tail), length))
            break
    return tuple(items)


@dataclasses.dataclass(frozen=True)
class Peg:
    """One event of the play: a card played (or a go), by whom, and what it pegged."""

    card: Card | None
    """The card played, or ``None`` for a go."""
    player: int
    """Who scores it: 0 for the player who led the play (the pone), 1 for the other."""
    count: int
    """The count after the card (for a go, the count the go was called on)."""
    items: tuple[ScoreItem, ...]
    """What it pegged."""

    @property
    def points(self) -> int:
        """Points pegged."""
        return sum(i.points for i in self.items)

    def to_json(self) -> dict[str, object]:
        """``{"card": "3H", "player": 0, "count": 3, "points": 0, "items": []}``."""
        return {
            "card": str(self.card) if self.card else GO,
            "player": self.player,
            "count": self.count,
            "points": self.points,
            "items": [i.to_json() for i in self.items],
        }


class _Count:
    """The running count of the play, with the cards since the last reset."""

    def __init__(self) -> None:
        self.pile: list[Card] = []
        self.total = 0

    def play(self, card: Card, player: int) -> Peg:
        items = score_peg(self.pile, card)
        self.pile.append(card)
        self.total += card.value
        peg = Peg(card, player, self.total, items)
        if self.total == 31:
            self.reset()
        return peg

    def go(self, player: int) -> Peg:
        peg = Peg(None, player, self.total, (ScoreItem(Kind.GO, tuple(self.pile[-1:]), 1),))
        self.reset()
        return peg

    def reset(self) -> None:
        self.pile, self.total = [], 0


def _last_card(pegs: list[Peg]) -> None:
    """Award the last card of the play: 1, unless it made 31 (already scored) or was a go."""
    last = pegs[-1]
    if last.card is not None and last.count != 31:
        item = ScoreItem(Kind.LAST_CARD, (last.card,), 1)
        pegs[-1] = dataclasses.replace(last, items=(*last.items, item))


def score_sequence(tokens: Sequence[CardLike], end: bool = False) -> list[Peg]:
    """Score cards in the order played, players alternating; the token ``"go"`` marks a go.

    A go scores 1 for whoever played the last card, and the count restarts with the other
    player. With ``end=True`` the final card also pegs one for last card (not on 31).

    Raises:
        IllegalPlayError: for a card that would pass 31, or a go with nothing played.

    >>> pegs = score_sequence(["10H", "KD", "9C", "go", "5S"], end=True)
    >>> [(p.card and str(p.card), p.points) for p in pegs]
    [('10H', 0), ('KD', 0), ('9C', 0), (None, 1), ('5S', 1)]
    """
    count = _Count()
    pegs: list[Peg] = []
    cards: list[Card] = []
    player = 0
    for token in tokens:
        if isinstance(token, str) and token.strip().lower() == GO:
            if not count.pile:
                raise IllegalPlayError("a go needs a card played since the count restarted")
            pegs.append(count.go(pegs[-1].player))
            continue
        card = as_card(token)
        cards.append(card)
        check_distinct(cards)
        if count.total + card.value > 31:
            raise IllegalPlayError(
                f"{card} would take the count from {count.total} past 31: mark a go first"
            )
        pegs.append(count.play(card, player))
        player = 1 - player
    if end and pegs:
        _last_card(pegs)
    return pegs


def play_out(
    pone: Sequence[CardLike] | str,
    dealer: Sequence[CardLike] | str,
    order: Sequence[CardLike] | str,
) -> list[Peg]:
    """Score a whole play from both hands and the order the cards were played.

    The pone leads. Goes are found from the hands: a player who cannot play without passing
    31 says go and the other plays on; a player who can play must. When every card is played
    the last one pegs one for last card (not on 31). Player 0 is the pone, 1 the dealer.

    Raises:
        IllegalPlayError: for a card out of turn or past 31, or a card in neither hand.
        HandSizeError: when the hands differ in size.

    >>> pegs = play_out("10H 9C 5D 2S", "JD 6C 4H AS", "10H JD 9C AS 5D 4H 2S 6C")
    >>> [(p.player, [i.kind.value for i in p.items]) for p in pegs if p.points]
    [(0, ['run']), (1, ['go']), (1, ['last card'])]
    """
    hands = [parse_cards(pone), parse_cards(dealer)]
    if len(hands[0]) != len(hands[1]):
        raise HandSizeError(f"hands differ in size: {len(hands[0])} and {len(hands[1])}")
    check_distinct(hands[0] + hands[1])
    played = parse_cards(order)
    count = _Count()
    pegs: list[Peg] = []
    turn = 0
    for card in played:
        owner = 0 if card in hands[0] else 1 if card in hands[1] else None
        if owner is None:
            raise IllegalPlayError(f"{card} is in neither hand")
        if not any(count.total + c.value <= 31 for hand in hands for c in hand):
            pegs.append(count.go(pegs[-1].player))
            turn = 1 - pegs[-1].player
        if owner != turn:
            playable = [c for c in hands[turn] if count.total + c.value <= 31]
            if playable:
                who = ("pone", "dealer")[turn]
                raise IllegalPlayError(f"{card} out of turn: the {who} can play {playable[0]}")
        if count.total + card.value > 31:
            raise IllegalPlayError(f"{card} would take the count from {count.total} past 31")
        hands[owner].remove(card)
        pegs.append(count.play(card, owner))
        other = 1 - owner
        turn = (
            other
            if count.total == 0 or any(count.total + c.value <= 31 for c in hands[other])
            else owner
        )
    if pegs and not hands[0] and not hands[1]:
        _last_card(pegs)
    return pegs
