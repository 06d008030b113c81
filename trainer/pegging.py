"""The play (pegging): what each card pegs, and a whole play scored and checked.

>>> [p.points for p in score_sequence("3H 6D 4C 5S 2H".split())]
[0, 0, 0, 4, 5]
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence

from .cards import Card, CardLike, as_card, check_distinct, parse_cards, split_tokens
from .errors import HandSizeError, IllegalPlayError
from .items import Kind, ScoreItem
from .rules import SIX_CARD, RuleSet

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


def score_sequence(
    tokens: Sequence[CardLike], end: bool = False, rules: RuleSet = SIX_CARD
) -> list[Peg]:
    """Score cards in the order played, players alternating; ``"go"`` marks a go.

    ``go`` says the player to play cannot: the other plays on, so the cards after a go are
    his while they fit under 31. When he cannot play either (the next card would pass 31, a
    second ``go``, or the end of the play) he pegs 1 for the go, and the player who said go
    leads the next count. Each player holds ``rules.hand_size`` cards: one who has played
    them all plays no more, and the other plays on alone. A card may say who played it
    (``2:KS``, player 1 or 2): a player named where the other was to play says that the
    other could not (a go). Once every card is played, or with ``end=True``, the final card
    also pegs one for last card (not on 31, nor after a go, which already scored it). In the
    five-card game the play is one count (:attr:`RuleSet.one_count`): the first go or 31
    ends it.

    Raises:
        IllegalPlayError: for a card that would pass 31 with no go called, a go with nothing
            played since the count restarted, a card past a player's hand or past the play's
            end, a player named who cannot have played the card, or a rule set of more than
            two players.
        HandSizeError: for no cards at all.

    >>> pegs = score_sequence(["10H", "KD", "5C", "go", "4S", "2D", "7H"], end=True)
    >>> [(p.card and str(p.card), p.player, p.points) for p in pegs]
    [('10H', 0, 0), ('KD', 1, 0), ('5C', 0, 0), ('4S', 0, 0), ('2D', 0, 2), ('7H', 1, 1)]
    """
    typed = [_who_played(t) for t in tokens]
    if all(_is_go(t) for _, t in typed):
        raise HandSizeError("no cards played: give the cards in the order they were played")
    play = _TypedPlay(rules)
    for who, token in typed:
        if _is_go(token):
            play.go()
        else:
            play.card(as_card(token), who)
    return play.finished(end=end)


class _TypedPlay:
    """A play read from its notation: whose turn it is, who has said go, the cards each holds."""

    def __init__(self, rules: RuleSet) -> None:
        _check_two_hand(rules)
        self.rules = rules
        self.count = _Count()
        self.pegs: list[Peg] = []
        self.cards: list[Card] = []
        self.left = [rules.hand_size, rules.hand_size]
        self.said_go = [False, False]
        self.turn = 0
        self.over = False
        """The five-card game's single count has ended: no card is played after it."""

    def out(self, player: int) -> bool:
        """Whether ``player`` can play no more on this count: he said go, or holds no card."""
        return self.said_go[player] or not self.left[player]

    def to_play(self) -> int:
        """Who plays next: the player whose turn it is, or the other playing on."""
        if self.out(self.turn) and not self.out(1 - self.turn):
            return 1 - self.turn
        return self.turn

    def go(self) -> None:
        """A typed go: the player to play cannot; when neither can, the count ends."""
        self._check_open("no go after the play's end")
        if not self.count.pile:
            raise IllegalPlayError("a go needs a card played since the count restarted")
        self.said_go[self.to_play()] = True
        if self.out(0) and self.out(1):
            self.end_count()

    def card(self, card: Card, who: int | None) -> None:
        """``card`` played by the player to play (``who``, when the notation names him)."""
        self._check_open(f"{card} cannot be played")
        self.cards.append(card)
        check_distinct(self.cards)
        named_other = who is not None and who != self.to_play()
        if named_other and self.count.pile and not self.out(self.to_play()):
            self.said_go[self.to_play()] = True  # he could not play: the other played on
        fits = self.count.total + card.value <= 31
        if self.out(0) and self.out(1):
            self.end_count()
        elif not fits:
            if not (self.out(0) or self.out(1)):
                raise IllegalPlayError(
                    f"{card} would take the count from {self.count.total} past 31: mark a go first"
                )
            self.end_count()
        self._check_open(f"{card} cannot be played")
        player = self.to_play()
        if who is not None and who != player:
            raise IllegalPlayError(
                f"{card} cannot be player {who + 1}'s: by the goes and the cards each holds,"
                f" player {player + 1} plays it (write a go where a player cannot play)"
            )
        self.pegs.append(self.count.play(card, player))
        self.left[player] -= 1
        self.turn = 1 - player
        if self.count.total == 0:  # 31: the count starts again, the other leads
            self.said_go = [False, False]
            self.over = self.rules.one_count

    def end_count(self) -> None:
        """Neither can play: the last card's player pegs the go, and the next count begins.

        The next count is led by the player after the last card's, unless he holds no card.
        """
        last = self.pegs[-1].player
        self.pegs.append(self.count.go(last))
        self.said_go = [False, False]
        self.turn = 1 - last if self.left[1 - last] else last
        self.over = self.rules.one_count

    def finished(self, *, end: bool) -> list[Peg]:
        """The pegs, with the go still owed and the last card once the play is over."""
        complete = not any(self.left)
        owed = any(self.said_go) or (end and self.rules.one_count)  # the single count's end
        if not complete and not self.over and owed and self.count.pile:
            self.end_count()
        if (complete or end) and not self.over:
            _last_card(self.pegs)
        return self.pegs

    def _check_open(self, what: str) -> None:
        """Refuse ``what`` (a card, or a go) after the play's end."""
        if self.over:
            raise IllegalPlayError(f"{what}: {ONE_COUNT_RULE}")
        if not any(self.left):
            size = self.rules.hand_size
            raise IllegalPlayError(
                f"{what}: each player holds {size} cards in {self.rules.title.lower()}, and"
                f" all {2 * size} are played"
            )


ONE_COUNT_RULE = (
    "the five-card play is one count: after the first go or 31 \"each player's hand is then"
    ' counted up" (the rule book), and the cards left are not played'
)
"""Why no card is played after the five-card game's first go or 31, in the rule book's words."""

_WHO = re.compile(r"^\s*([12])\s*:\s*(\S.*)$")


def _who_played(token: CardLike) -> tuple[int | None, CardLike]:
    """A token and the player it names (``2:KS`` is player 1's, from 0), if it names one."""
    if isinstance(token, str) and (named := _WHO.match(token)):
        return int(named[1]) - 1, named[2]
    return None, token


def _check_two_hand(rules: RuleSet) -> None:
    if rules.players != 2:
        raise IllegalPlayError(
            f"a play is scored here for two players, and {rules.title.lower()} has"
            f" {rules.players}: keep it on the board, card by card"
        )


def play_out(
    pone: Sequence[CardLike] | str,
    dealer: Sequence[CardLike] | str,
    order: Sequence[CardLike] | str,
    rules: RuleSet | None = None,
) -> list[Peg]:
    """Score a whole play from both hands and the order the cards were played.

    The pone leads. Goes are found from the hands: a player who cannot play without passing
    31 says go and the other plays on; a player who can play must. A ``go`` in ``order`` may
    be left out; one given is checked (the player saying it must hold no card that fits), and
    so is a card that names its player (``1:10H``, the pone's). When every card is played the
    last one pegs one for last card (not on 31). With ``rules`` the hands hold its hand size,
    and in the five-card game the play is one count (:attr:`RuleSet.one_count`): it ends at
    the first go or 31, the go pegged as soon as neither can play. Player 0 is the pone, 1
    the dealer.

    Raises:
        IllegalPlayError: for a card out of turn or past 31, a card in neither hand or not in
            the hand of the player it names, a card after the five-card game's single count,
            or a go called by a player holding a card that fits.
        HandSizeError: when the hands differ in size (or from the rules'), or no card is
            played.

    >>> pegs = play_out("10H 9C 5D 2S", "JD 6C 4H AS", "10H JD 9C AS 5D 4H 2S 6C")
    >>> [(p.player, [i.kind.value for i in p.items]) for p in pegs if p.points]
    [(0, ['run']), (1, ['go']), (1, ['last card'])]
    """
    hands = [parse_cards(pone), parse_cards(dealer)]
    if len(hands[0]) != len(hands[1]):
        raise HandSizeError(f"hands differ in size: {len(hands[0])} and {len(hands[1])}")
    if rules is not None:
        _check_two_hand(rules)
        if len(hands[0]) != rules.hand_size:
            raise HandSizeError(
                f"a hand holds {rules.hand_size} cards in {rules.title.lower()}, not"
                f" {len(hands[0])}"
            )
    one_count = rules is not None and rules.one_count
    check_distinct(hands[0] + hands[1])
    tokens = split_tokens(order) if isinstance(order, str) else list(order)
    typed = [_who_played(t) for t in tokens]
    played = parse_cards([t for _, t in typed if not _is_go(t)])
    if not played:
        raise HandSizeError("no cards played: give the cards in the order they were played")
    count = _Count()
    pegs: list[Peg] = []
    turn = 0
    goes = 0  # goes typed since the last card
    over = False  # the five-card game's single count has ended

    def stuck() -> bool:
        return bool(count.pile) and not any(
            count.total + c.value <= 31 for hand in hands for c in hand
        )

    for who, token in typed:
        if _is_go(token):
            goes += 1
            _check_go(hands, count, pegs, goes)
            continue
        goes = 0
        card = as_card(token)
        owner = 0 if card in hands[0] else 1 if card in hands[1] else None
        if owner is None:
            raise IllegalPlayError(f"{card} is in neither hand")
        if who is not None and who != owner:
            raise IllegalPlayError(
                f"{card} is in the {_ROLES[owner]}'s hand, not player {who + 1}'s"
            )
        if stuck():
            pegs.append(count.go(pegs[-1].player))
            turn = 1 - pegs[-1].player
            over = one_count
        if over:
            raise IllegalPlayError(f"{card} cannot be played: {ONE_COUNT_RULE}")
        if owner != turn:
            playable = [c for c in hands[turn] if count.total + c.value <= 31]
            if playable:
                who_can = _ROLES[turn]
                raise IllegalPlayError(f"{card} out of turn: the {who_can} can play {playable[0]}")
        if count.total + card.value > 31:
            raise IllegalPlayError(f"{card} would take the count from {count.total} past 31")
        hands[owner].remove(card)
        pegs.append(count.play(card, owner))
        over = one_count and count.total == 0  # 31
        other = 1 - owner
        turn = (
            other
            if count.total == 0 or any(count.total + c.value <= 31 for c in hands[other])
            else owner
        )
    if not hands[0] and not hands[1]:
        _last_card(pegs)
    elif one_count and stuck():  # the single count ends: one for the go
        pegs.append(count.go(pegs[-1].player))
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
    rules: RuleSet = SIX_CARD,
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
        rules: the rule set: each hand's size, and whether the play is one count.

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
        return score_sequence(tokens, end=end, rules=rules)
    if pone_hand is None or dealer_hand is None:
        raise HandSizeError("give both hands (the pone's and the dealer's), or neither")
    return play_out(pone_hand, dealer_hand, tokens, rules)
