"""A two-hand game dealt card by card: each seat's choices asked for in turn, every point exact.

A :class:`Match` deals from its own :class:`random.Random`, then waits: both seats throw to the
dealer's crib (:meth:`Match.discard`), the starter is cut (a jack pegs the dealer two for his
heels), the cards are played (:meth:`Match.play`: the pone leads; a player who cannot play says
go and the other plays on; the go or the last card pegs one, a 31 two; the player after the last
card's leads the next count; the five-card play is one count, ended by the first go or 31), then
the pone's hand, the dealer's and the crib are counted (:meth:`Match.show`). The first player
to reach the game's end wins at once, in the play or in the show, his peg in the game hole (a
count beyond it is not pegged). The five-card game gives the first pone three for last.

What a seat pegs for a card or a show is what its player claims (the exact count when none is
claimed): a claim over the count is refused, one under it pegs less, and :meth:`Match.peg`
lets the caller give the rest to the other seat (muggins). Both the computer games
(:mod:`trainer.versus`) and the policies' games (:mod:`trainer.selfplay`) are played on it.

>>> from trainer.rules import SIX_CARD
>>> match = Match(SIX_CARD, random.Random(3))
>>> match.phase, match.dealer, len(match.dealt[0])
('discard', 0, 6)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Literal

from .cards import DECK, Card
from .errors import IllegalPlayError
from .game import THREE_FOR_LAST, THREE_FOR_LAST_POINTS
from .items import Kind, ScoreItem
from .opponent import DiscardView, PlayView
from .pegging import score_peg
from .rules import FIVE_CARD, RuleSet
from .show import Breakdown, heels, score_show

HAND = "hand"
"""What a hand's count is pegged for."""
CRIB = "crib"
"""What the crib's count is pegged for."""
MUGGINS = "muggins"
"""What points taken from a player's undercount are pegged for."""
CLAIMED = "claimed"
"""What a card pegs for when its player claimed less than it scores."""

Phase = Literal["discard", "play", "show", "over"]
"""Where a match stands: waiting for discards, a card, a count, or finished."""


@dataclasses.dataclass(frozen=True)
class Pegged:
    """Points pegged by a seat, and what for."""

    seat: int
    """The seat that pegged them (0 or 1)."""
    points: int
    """The points."""
    what: str
    """A play item's kind (``"fifteen"``, ``"go"``, ``"his heels"`` …), ``"hand"`` or
    ``"crib"`` for a count, ``"three for last"`` or ``"muggins"``."""


@dataclasses.dataclass(frozen=True)
class Deal:
    """One deal of a game as far as it was played."""

    dealer: int
    """The dealer's seat."""
    dealt: tuple[tuple[Card, ...], tuple[Card, ...]]
    """Each seat's cards as dealt."""
    kept: tuple[tuple[Card, ...], tuple[Card, ...]]
    """Each seat's cards kept for the play and the show (empty before the discard)."""
    starter: Card | None
    """The starter (``None`` before the cut)."""
    plays: tuple[tuple[int, Card], ...]
    """Each card played, by whom, in order."""
    pegged: tuple[Pegged, ...]
    """Every score of the deal, in order (the first score of a game may come before it)."""


@dataclasses.dataclass(frozen=True)
class Shown:
    """A hand or the crib as it was counted."""

    seat: int
    """Whose count it is (the dealer's for the crib)."""
    what: str
    """:data:`HAND` or :data:`CRIB`."""
    cards: tuple[Card, ...]
    """The cards counted with the starter."""
    breakdown: Breakdown
    """The exact count."""
    pegged: int
    """What the seat pegged for it: the count, or less when its player claimed less."""


@dataclasses.dataclass(frozen=True)
class Played:
    """A card as it was played, and what it pegged."""

    seat: int
    """Who played it."""
    card: Card
    """The card."""
    count: int
    """The count after it."""
    items: tuple[ScoreItem, ...]
    """What the card scores (fifteen, 31, pairs, runs)."""
    pegged: int
    """What the seat pegged for it: the items' points, or less when its player claimed less."""
    went: tuple[Pegged, ...]
    """The go or last card it brought, and who pegged it (empty when the play goes on)."""
    stuck: int | None
    """The seat that said go after it (``None`` when the other seat plays next)."""


class Match:
    """A two-hand game in progress: the scores, and the current deal as far as it has gone.

    Args:
        rules: a two-hand rule set (six-card or five-card; its ``game`` is the end).
        rng: shuffles each deal (a seeded one deals the same game again).
        first_dealer: the seat that deals first.

    Raises:
        IllegalPlayError: for a rule set of more than two players.
    """

    def __init__(self, rules: RuleSet, rng: random.Random, first_dealer: int = 0) -> None:
        if rules.players != 2:
            raise IllegalPlayError(f"a two-hand match is not {rules.name}")
        self.rules = rules
        self.rng = rng
        self.scores = [0, 0]
        self.dealer = first_dealer
        self.winner: int | None = None
        self.deals: list[Deal] = []
        self._pegged: list[Pegged] = []
        self.dealt: tuple[tuple[Card, ...], tuple[Card, ...]]
        self.thrown: list[tuple[Card, ...]]
        self.kept: list[tuple[Card, ...]]
        self.held: list[list[Card]]
        self.starter: Card | None
        self.pile: list[Card]
        self.plays: list[tuple[int, Card]]
        self.turn: int
        self._shown: list[Shown]
        self._pack: list[Card]
        if rules.name == FIVE_CARD.name:
            self._peg(1 - first_dealer, THREE_FOR_LAST_POINTS, THREE_FOR_LAST)
        self._new_deal()

    # The deal as it stands.

    @property
    def phase(self) -> Phase:
        """What the match waits for."""
        if self.winner is not None:
            return "over"
        if self.starter is None:
            return "discard"
        return "play" if self.held[0] or self.held[1] else "show"

    @property
    def pone(self) -> int:
        """The dealer's opponent."""
        return 1 - self.dealer

    @property
    def count(self) -> int:
        """The count of the play."""
        return sum(c.value for c in self.pile)

    @property
    def crib(self) -> tuple[Card, ...]:
        """The crib: the pone's throw, then the dealer's."""
        return (*self.thrown[self.pone], *self.thrown[self.dealer])

    @property
    def next_show(self) -> tuple[int, str, tuple[Card, ...]]:
        """The show due next: whose, :data:`HAND` or :data:`CRIB`, and its cards."""
        if len(self._shown) == 2:
            return self.dealer, CRIB, self.crib
        seat = (self.pone, self.dealer)[len(self._shown)]
        return seat, HAND, self.kept[seat]

    def record(self) -> Deal:
        """The current deal as far as it has gone."""
        kept = self.kept if self.starter is not None else ((), ())
        return Deal(
            self.dealer,
            (self.dealt[0], self.dealt[1]),
            (kept[0], kept[1]),
            self.starter,
            tuple(self.plays),
            tuple(self._pegged),
        )

    def fits(self, seat: int) -> bool:
        """Whether ``seat`` holds a card that keeps the count within 31."""
        return any(self.count + c.value <= 31 for c in self.held[seat])

    def discard_view(self, seat: int) -> DiscardView:
        """What ``seat`` sees when it discards."""
        return DiscardView(self.dealt[seat], seat == self.dealer, self._seen_by(seat), self.rules)

    def play_view(self, seat: int) -> PlayView:
        """What ``seat`` sees when it plays a card."""
        assert self.starter is not None
        return PlayView(
            held=tuple(self.held[seat]),
            kept=self.kept[seat],
            thrown=self.thrown[seat],
            starter=self.starter,
            played=tuple(card for _, card in self.plays),
            pile=tuple(self.pile),
            opponent_held=len(self.held[1 - seat]),
            dealer=seat == self.dealer,
            scores=self._seen_by(seat),
            rules=self.rules,
        )

    def card_scores(self, seat: int, card: Card) -> tuple[ScoreItem, ...]:
        """What ``card`` would score played by ``seat`` now.

        Raises:
            IllegalPlayError: out of the play, out of turn, a card not held, or one that
                passes 31.
        """
        self._expect("play")
        if seat != self.turn:
            raise IllegalPlayError("it is not your turn to play")
        if card not in self.held[seat]:
            raise IllegalPlayError(f"{card.unicode()} is not in your hand")
        return score_peg(self.pile, card)

    def show_due(self) -> Breakdown:
        """The exact count of the show due next.

        Raises:
            IllegalPlayError: before the show.
        """
        self._expect("show")
        assert self.starter is not None
        _, what, cards = self.next_show
        return score_show(cards, self.starter, crib=what == CRIB, rules=self.rules)

    # Moves.

    def discard(self, seat: int, cards: Sequence[Card]) -> None:
        """``seat`` throws ``cards`` to the crib; the starter is cut when both have thrown.

        Raises:
            IllegalPlayError: out of the discard, a seat throwing twice, or a throw of the
                wrong number of cards or of cards it was not dealt.
        """
        self._expect("discard")
        thrown = tuple(cards)
        if self.thrown[seat]:
            raise IllegalPlayError("you have thrown to the crib already")
        if len(set(thrown)) != self.rules.discards or not set(thrown) <= set(self.dealt[seat]):
            shown = " ".join(c.unicode() for c in thrown) or "nothing"
            raise IllegalPlayError(
                f"throw {self.rules.discards} of the cards dealt to the crib, not {shown}"
            )
        self.thrown[seat] = thrown
        self.kept[seat] = tuple(c for c in self.dealt[seat] if c not in thrown)
        if all(self.thrown):
            self.held = [list(self.kept[0]), list(self.kept[1])]
            self.starter = self._pack[2 * self.rules.dealt]
            self._pegging(self.dealer, heels(self.starter), Kind.HEELS.value)

    def play(self, seat: int, card: Card, claimed: int | None = None) -> Played:
        """``seat`` plays ``card`` and pegs what it scores (or ``claimed``, when less).

        Raises:
            IllegalPlayError: out of the play, out of turn, a card not held, one that passes
                31, or a claim over what the card scores (nothing is played then).
        """
        items = self.card_scores(seat, card)
        due = sum(item.points for item in items)
        pegged = due if claimed is None else claimed
        if not 0 <= pegged <= due:
            raise IllegalPlayError(_refusal(card.unicode(), pegged, due))
        self.held[seat].remove(card)
        self.pile.append(card)
        self.plays.append((seat, card))
        count = self.count
        if pegged == due:
            for item in items:
                self._pegging(seat, item.points, item.kind.value)
        else:
            self._pegging(seat, pegged, CLAIMED)
        went, stuck = self._after_card(seat) if self.winner is None else ((), None)
        return Played(seat, card, count, items, pegged, went, stuck)

    def show(self, claimed: int | None = None) -> Shown:
        """Count the show due next and peg it (or ``claimed``, when less).

        Raises:
            IllegalPlayError: before the show, or for a claim over the count (nothing is
                pegged then).
        """
        breakdown = self.show_due()
        seat, what, cards = self.next_show
        pegged = breakdown.total if claimed is None else claimed
        if not 0 <= pegged <= breakdown.total:
            raise IllegalPlayError(_refusal(f"the {what}", pegged, breakdown.total))
        shown = Shown(seat, what, cards, breakdown, pegged)
        self._shown.append(shown)
        self._pegging(seat, pegged, what)
        if what == CRIB and self.winner is None:
            self.deals.append(self.record())
            self.dealer = self.pone
            self._new_deal()
        return shown

    def peg(self, seat: int, points: int, what: str) -> None:
        """Peg ``points`` for ``seat`` outside the cards' own scores (muggins)."""
        self._pegging(seat, points, what)

    # Inside.

    def _expect(self, phase: Phase) -> None:
        if self.phase == "over":
            raise IllegalPlayError("the game is over")
        if self.phase != phase:
            raise IllegalPlayError(f"it is time for the {self.phase}, not the {phase}")

    def _new_deal(self) -> None:
        pack = list(DECK)
        self.rng.shuffle(pack)
        self._pack = pack
        size, pone = self.rules.dealt, self.pone
        hands = {pone: tuple(pack[0 : 2 * size : 2]), self.dealer: tuple(pack[1 : 2 * size : 2])}
        self.dealt = (hands[0], hands[1])
        self.thrown = [(), ()]
        self.kept = [(), ()]
        self.held = [[], []]
        self.starter = None
        self.pile = []
        self.plays = []
        self.turn = pone
        self._shown = []
        self._pegged = [] if self.deals else self._pegged

    def _after_card(self, seat: int) -> tuple[tuple[Pegged, ...], int | None]:
        """Whose turn it is after ``seat``'s card.

        Returns:
            The go or last card it brought, and who said go (``None`` when the other plays on).
        """
        other = 1 - seat
        went: tuple[Pegged, ...] = ()
        stuck = None
        if self.count < 31:
            if self.fits(other):
                self.turn = other
                return (), None
            if self.fits(seat):
                return (), other
            over = not (self.held[0] or self.held[1])
            stuck = None if over else other
            went = (Pegged(seat, 1, (Kind.LAST_CARD if over else Kind.GO).value),)
            self._peg(seat, 1, went[0].what)
            if self.winner is not None:
                return went, stuck
        if self.rules.one_count:
            self.held = [[], []]
        self.pile = []
        self.turn = other if self.held[other] else seat
        return went, stuck

    def _pegging(self, seat: int, points: int, what: str) -> None:
        if points:
            self._peg(seat, points, what)

    def _peg(self, seat: int, points: int, what: str) -> None:
        if self.winner is not None:
            return
        self.scores[seat] = min(self.scores[seat] + points, self.rules.game)  # the game hole
        self._pegged.append(Pegged(seat, points, what))
        if self.scores[seat] >= self.rules.game and self.winner is None:
            self.winner = seat
            self.deals.append(self.record())

    def _seen_by(self, seat: int) -> tuple[int, int]:
        return self.scores[seat], self.scores[1 - seat]


def _refusal(what: str, claimed: int, due: int) -> str:
    if claimed < 0:
        return f"a claim is 0 points or more, not {claimed}"
    return f"{what} does not make {claimed}: a claim over the count is refused; say again"
