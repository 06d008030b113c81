"""Whole two-hand games between two policies, every point scored by the engine.

Each deal is dealt from a shuffled pack, both players throw to the dealer's crib, the starter
is cut (a jack pegs the dealer two for his heels), the cards are played (the pone leads; each
card scored by :func:`trainer.pegging.score_peg`; a player who cannot play says go and the other
plays on; the go or the last card pegs one, a 31 two; the player after the last card's leads
the next count; the five-card play is one count, ended by the first go or 31), then the pone's
hand, the dealer's and the crib are counted by :func:`trainer.show.score_show`. The first player
to reach the game's end wins at once, in the play or in the show. The five-card game gives
the first pone three for last.

>>> from trainer.opponent import RandomPolicy
>>> game = play_game((RandomPolicy(), RandomPolicy()), random.Random(7))
>>> max(game.scores) >= 121, game.scores[game.winner] == max(game.scores)
(True, True)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from .cards import DECK, Card
from .errors import IllegalPlayError
from .game import THREE_FOR_LAST, THREE_FOR_LAST_POINTS
from .items import Kind
from .opponent import DiscardView, PlayView, Policy
from .pegging import score_peg
from .rules import FIVE_CARD, SIX_CARD, RuleSet
from .show import heels, score_show

HAND = "hand"
"""What a hand's count is pegged for."""
CRIB = "crib"
"""What the crib's count is pegged for."""


@dataclasses.dataclass(frozen=True)
class Pegged:
    """Points pegged by a seat, and what for."""

    seat: int
    """The seat that pegged them (0 or 1)."""
    points: int
    """The points."""
    what: str
    """A play item's kind (``"fifteen"``, ``"go"``, ``"his heels"`` …), ``"hand"`` or
    ``"crib"`` for a count, or ``"three for last"``."""


@dataclasses.dataclass(frozen=True)
class Deal:
    """One deal of a game as it was played."""

    dealer: int
    """The dealer's seat."""
    dealt: tuple[tuple[Card, ...], tuple[Card, ...]]
    """Each seat's cards as dealt."""
    kept: tuple[tuple[Card, ...], tuple[Card, ...]]
    """Each seat's cards kept for the play and the show."""
    starter: Card
    """The starter."""
    plays: tuple[tuple[int, Card], ...]
    """Each card played, by whom, in order."""
    pegged: tuple[Pegged, ...]
    """Every score of the deal, in order (the first score of a game may come before it)."""


@dataclasses.dataclass(frozen=True)
class GameResult:
    """A game played out."""

    winner: int
    """The seat that reached the end first."""
    scores: tuple[int, int]
    """Both seats' final scores."""
    deals: tuple[Deal, ...]
    """Every deal, the last one as far as it went."""


class _GameOver(Exception):
    """A player reached the game's end: the deal stops where it is."""


_NO_CARDS: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())


class _Table:
    """The game in progress: the scores, and the current deal as far as it has gone."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.scores = [0, 0]
        self.dealer = 0
        self.dealt = self.kept = _NO_CARDS
        self.starter = DECK[0]
        self.plays: list[tuple[int, Card]] = []
        self.pegged: list[Pegged] = []

    def peg(self, seat: int, points: int, what: str) -> None:
        """Peg ``points`` for ``seat``; raises :class:`_GameOver` when he reaches the end."""
        if not points:
            return
        self.scores[seat] += points
        self.pegged.append(Pegged(seat, points, what))
        if self.scores[seat] >= self.rules.game:
            raise _GameOver

    def seen_by(self, seat: int) -> tuple[int, int]:
        """The scores as ``seat`` sees them: his, then the opponent's."""
        return self.scores[seat], self.scores[1 - seat]

    def record(self) -> Deal:
        """The current deal as far as it has gone."""
        return Deal(
            self.dealer, self.dealt, self.kept, self.starter, tuple(self.plays), tuple(self.pegged)
        )


def play_game(
    policies: Sequence[Policy],
    rng: random.Random,
    *,
    rules: RuleSet = SIX_CARD,
    first_dealer: int = 0,
) -> GameResult:
    """Play a whole game between ``policies[0]`` (seat 0) and ``policies[1]`` (seat 1).

    Args:
        policies: the two players, by seat.
        rng: deals the cards and is handed to the policies (a seeded one replays the game).
        rules: a two-hand rule set: six-card to 121, or five-card to 61.
        first_dealer: the seat that deals first.

    Returns:
        The winner, the scores and every deal.

    Raises:
        IllegalPlayError: for a rule set of more than two players, or a policy that throws
            cards it was not dealt or plays a card it does not hold or that passes 31.
    """
    if rules.players != 2:
        raise IllegalPlayError(f"a game between two policies is two-hand, not {rules.name}")
    table = _Table(rules)
    table.dealer = first_dealer
    deals: list[Deal] = []
    try:
        if rules.name == FIVE_CARD.name:
            table.peg(1 - first_dealer, THREE_FOR_LAST_POINTS, THREE_FOR_LAST)
        while True:
            _deal(policies, rng, table)
            deals.append(table.record())
            table.dealer = 1 - table.dealer
            table.plays, table.pegged = [], []
    except _GameOver:
        deals.append(table.record())
    winner = 0 if table.scores[0] >= rules.game else 1
    return GameResult(winner, (table.scores[0], table.scores[1]), tuple(deals))


def _deal(policies: Sequence[Policy], rng: random.Random, table: _Table) -> None:
    """Deal, discard, cut, play and show one deal (:class:`_GameOver` stops it)."""
    rules, dealer = table.rules, table.dealer
    pone = 1 - dealer
    pack = list(DECK)
    rng.shuffle(pack)
    size = rules.dealt
    hands = {pone: tuple(pack[0 : 2 * size : 2]), dealer: tuple(pack[1 : 2 * size : 2])}
    table.dealt = (hands[0], hands[1])
    thrown = {}
    for seat in (pone, dealer):
        view = DiscardView(hands[seat], seat == dealer, table.seen_by(seat), rules)
        thrown[seat] = _checked_discard(policies[seat].discard(view, rng), view)
    kept = {seat: tuple(c for c in hands[seat] if c not in thrown[seat]) for seat in hands}
    table.kept = (kept[0], kept[1])
    table.starter = starter = pack[2 * size]
    table.peg(dealer, heels(starter), Kind.HEELS.value)
    _play(policies, rng, table, kept, thrown)
    table.peg(pone, score_show(kept[pone], starter, rules=rules).total, HAND)
    table.peg(dealer, score_show(kept[dealer], starter, rules=rules).total, HAND)
    crib = (*thrown[pone], *thrown[dealer])
    table.peg(dealer, score_show(crib, starter, crib=True, rules=rules).total, CRIB)


def _checked_discard(discard: Sequence[Card], view: DiscardView) -> tuple[Card, ...]:
    thrown = tuple(discard)
    if len(set(thrown)) != view.rules.discards or not set(thrown) <= set(view.dealt):
        raise IllegalPlayError(f"cannot throw {[str(c) for c in thrown]} from this deal")
    return thrown


def _play(
    policies: Sequence[Policy],
    rng: random.Random,
    table: _Table,
    kept: dict[int, tuple[Card, ...]],
    thrown: dict[int, tuple[Card, ...]],
) -> None:
    """The play, card by card: the pone leads, and the goes are found from the hands."""
    rules = table.rules
    held = {seat: list(cards) for seat, cards in kept.items()}
    pile: list[Card] = []
    turn = 1 - table.dealer

    def fits(seat: int) -> bool:
        total = sum(c.value for c in pile)
        return any(total + c.value <= 31 for c in held[seat])

    while held[0] or held[1]:
        view = PlayView(
            held=tuple(held[turn]),
            kept=kept[turn],
            thrown=thrown[turn],
            starter=table.starter,
            played=tuple(card for _, card in table.plays),
            pile=tuple(pile),
            opponent_held=len(held[1 - turn]),
            dealer=turn == table.dealer,
            scores=table.seen_by(turn),
            rules=rules,
        )
        card = policies[turn].play(view, rng)
        if card not in view.playable:
            raise IllegalPlayError(f"{card} cannot be played on a count of {view.count}")
        items = score_peg(pile, card)
        held[turn].remove(card)
        pile.append(card)
        table.plays.append((turn, card))
        for item in items:
            table.peg(turn, item.points, item.kind.value)
        other = 1 - turn
        if view.count + card.value < 31:
            if fits(other):
                turn = other
                continue
            if fits(turn):
                continue
            over = not (held[0] or held[1])
            table.peg(turn, 1, (Kind.LAST_CARD if over else Kind.GO).value)
        if rules.one_count:
            return
        pile = []
        turn = other if held[other] else turn
