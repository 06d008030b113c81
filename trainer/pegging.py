"""The play (pegging): what each card pegs, and a whole play scored and checked.

>>> [p.points for p in score_sequence("3H 6D 4C 5S 2H".split())]
[0, 0, 0, 4, 5]
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

from .cards import Card, CardLike, as_card, check_distinct, parse_cards, split_tokens
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


def _is_go(token: CardLike) -> bool:
    return isinstance(token, str) and token.strip().lower() == GO


def score_sequence(tokens: Sequence[CardLike], end: bool = False) -> list[Peg]:
    """Score cards in the order played, players alternating; ``"go"`` marks a go.

    ``go`` says the player to play cannot: the other plays on, so the cards after a go are
    his while they fit under 31. When he cannot play either (the next card would pass 31, a
    second ``go``, or the end of the play) he pegs 1 for the go, and the player who said go
    leads the next count. With ``end=True`` the final card also pegs one for last card (not
    on 31, nor after a go, which already scored it).

    Raises:
        IllegalPlayError: for a card that would pass 31 with no go called, or a go with
            nothing played since the count restarted.
        HandSizeError: for no cards at all.

    >>> pegs = score_sequence(["10H", "KD", "5C", "go", "4S", "2D", "7H"], end=True)
    >>> [(p.card and str(p.card), p.player, p.points) for p in pegs]
    [('10H', 0, 0), ('KD', 1, 0), ('5C', 0, 0), ('4S', 0, 0), ('2D', 0, 2), ('7H', 1, 1)]
    """
    if not any(not _is_go(t) for t in tokens):
        raise HandSizeError("no cards played: give the cards in the order they were played")
    count = _Count()
    pegs: list[Peg] = []
    cards: list[Card] = []
    player = 0
    go_called = False  # the player to play said go: the other plays on

    def end_count() -> None:
        nonlocal player, go_called
        last = pegs[-1].player
        pegs.append(count.go(last))
        player, go_called = 1 - last, False

    for token in tokens:
        if _is_go(token):
            if not count.pile:
                raise IllegalPlayError("a go needs a card played since the count restarted")
            if go_called:
                end_count()
            else:
                go_called, player = True, pegs[-1].player
            continue
        card = as_card(token)
        cards.append(card)
        check_distinct(cards)
        if count.total + card.value > 31:
            if not go_called:
                raise IllegalPlayError(
                    f"{card} would take the count from {count.total} past 31: mark a go first"
                )
            end_count()
        pegs.append(count.play(card, player))
        if count.total == 0:  # 31: the other leads the next count
            go_called = False
        if not go_called:
            player = 1 - player
    if go_called:
        end_count()
    if end:
        _last_card(pegs)
    return pegs


def play_out(
    pone: Sequence[CardLike] | str,
    dealer: Sequence[CardLike] | str,
    order: Sequence[CardLike] | str,
) -> list[Peg]:
    """Score a whole play from both hands and the order the cards were played.

    The pone leads. Goes are found from the hands: a player who cannot play without passing
    31 says go and the other plays on; a player who can play must. A ``go`` in ``order`` may
    be left out; one given is checked (the player saying it must hold no card that fits).
    When every card is played the last one pegs one for last card (not on 31). Player 0 is
    the pone, 1 the dealer.

    Raises:
        IllegalPlayError: for a card out of turn or past 31, a card in neither hand, or a go
            called by a player holding a card that fits.
        HandSizeError: when the hands differ in size, or no card is played.

    >>> pegs = play_out("10H 9C 5D 2S", "JD 6C 4H AS", "10H JD 9C AS 5D 4H 2S 6C")
    >>> [(p.player, [i.kind.value for i in p.items]) for p in pegs if p.points]
    [(0, ['run']), (1, ['go']), (1, ['last card'])]
    """
    hands = [parse_cards(pone), parse_cards(dealer)]
    if len(hands[0]) != len(hands[1]):
        raise HandSizeError(f"hands differ in size: {len(hands[0])} and {len(hands[1])}")
    check_distinct(hands[0] + hands[1])
    tokens = split_tokens(order) if isinstance(order, str) else list(order)
    played = parse_cards([t for t in tokens if not _is_go(t)])
    if not played:
        raise HandSizeError("no cards played: give the cards in the order they were played")
    count = _Count()
    pegs: list[Peg] = []
    turn = 0
    goes = 0  # goes typed since the last card
    for token in tokens:
        if _is_go(token):
            goes += 1
            _check_go(hands, count, pegs, goes)
            continue
        goes = 0
        card = as_card(token)
        owner = 0 if card in hands[0] else 1 if card in hands[1] else None
        if owner is None:
            raise IllegalPlayError(f"{card} is in neither hand")
        if not any(count.total + c.value <= 31 for hand in hands for c in hand):
            pegs.append(count.go(pegs[-1].player))
            turn = 1 - pegs[-1].player
        if owner != turn:
            playable = [c for c in hands[turn] if count.total + c.value <= 31]
            if playable:
                who = _ROLES[turn]
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


_ROLES = ("pone", "dealer")


def _check_go(hands: list[list[Card]], count: _Count, pegs: list[Peg], goes: int) -> None:
    """A typed go: first the player after the last card's says it, then the last card's."""
    if not count.pile or goes > 2:
        raise IllegalPlayError("a go needs a card played since the count restarted")
    last = pegs[-1]
    sayer = 1 - last.player if goes == 1 else last.player
    fits = [c for c in hands[sayer] if count.total + c.value <= 31]
    if fits:
        assert last.card is not None  # a go peg is only added before a card
        raise IllegalPlayError(
            f"no go after {last.card.unicode()}: the {_ROLES[sayer]} can play "
            f"{fits[0].unicode()} (with both hands given, the goes are found: 'go' may be "
            "left out)"
        )


def _given(hand: Sequence[CardLike] | str | None) -> list[str] | list[CardLike] | None:
    """A hand as tokens, or ``None`` when it is not given (or blank)."""
    if hand is None:
        return None
    tokens = split_tokens(hand) if isinstance(hand, str) else list(hand)
    return tokens or None


def score_play(
    play: Sequence[CardLike] | str,
    *,
    pone: Sequence[CardLike] | str | None = None,
    dealer: Sequence[CardLike] | str | None = None,
    end: bool = False,
) -> list[Peg]:
    """Score a play as typed, with or without the hands (the ``crib peg`` and web notation).

    Without hands the players alternate and ``go`` says the player to play cannot (see
    :func:`score_sequence`); with both hands every card and every typed go is checked and the
    goes are found (:func:`play_out`).

    Args:
        play: the cards in the order played, with ``go`` where a player could not play.
        pone: the pone's hand, if known.
        dealer: the dealer's hand, if known.
        end: without hands, whether the last card ends the play (one for last card).

    Returns:
        Every card and go with who pegged what.

    Raises:
        HandSizeError: for one hand without the other, hands of different sizes, no cards.
        IllegalPlayError: for a play the rules forbid.
        InvalidCardError: for a token that is not a card or ``go``.

    >>> [p.points for p in score_play("10H KD 5C go 4S AD", end=True)]
    [0, 0, 0, 0, 0, 1]
    """
    tokens = split_tokens(play) if isinstance(play, str) else list(play)
    pone_hand, dealer_hand = _given(pone), _given(dealer)
    if pone_hand is None and dealer_hand is None:
        return score_sequence(tokens, end=end)
    if pone_hand is None or dealer_hand is None:
        raise HandSizeError("give both hands (the pone's and the dealer's), or neither")
    return play_out(pone_hand, dealer_hand, tokens)
