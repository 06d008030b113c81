"""The computer player: policies that choose a discard and a card to play.

A policy sees what a player at the table sees (:class:`DiscardView`, :class:`PlayView`) and
chooses with a :class:`random.Random` of the caller's, so a seeded game is replayed exactly.

* :class:`StrongPolicy` discards by exact expected value (:func:`trainer.discard.analyze_discards`,
  the crib weighted by how players throw) and plays by looking ahead: the opponent's unseen
  cards are drawn from those it cannot have seen, the rest of the play is solved for each draw
  (:class:`trainer.lookahead.PlaySolver`), and the card that nets the most on average is played.
  Near the end of the game it plays and discards for position: reaching the end this deal is
  worth :data:`~trainer.lookahead.WIN` points, in the play and in the show that follows it.
* :class:`GreedyPolicy` keeps the best hand by its own cards over every starter (no crib) and
  plays the card that pegs the most now; :class:`RandomPolicy` makes any legal choice.

>>> from trainer.cards import parse_cards
>>> view = DiscardView(tuple(parse_cards("5H 5D JS QC 7H 8C")), dealer=True, scores=(0, 0))
>>> sorted(str(c) for c in StrongPolicy().discard(view, random.Random(1)))
['7H', '8C']
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from .cards import DECK, Card
from .discard import DiscardOption, analyze_discards
from .lookahead import WIN, Ending, PlaySolver, Ranks
from .pegging import score_peg
from .rules import SIX_CARD, RuleSet
from .show import score_show


@dataclasses.dataclass(frozen=True)
class DiscardView:
    """What a player sees when he discards."""

    dealt: tuple[Card, ...]
    """The cards dealt to him."""
    dealer: bool
    """Whether the crib is his."""
    scores: tuple[int, int]
    """His score and the opponent's."""
    rules: RuleSet = SIX_CARD
    """The rule set (how many to throw, the game's end)."""


@dataclasses.dataclass(frozen=True)
class PlayView:
    """What a player sees when he plays a card: his cards, the cards played, the count."""

    held: tuple[Card, ...]
    """The cards he still holds."""
    kept: tuple[Card, ...]
    """The cards he kept for the play (those held and those he played)."""
    thrown: tuple[Card, ...]
    """The cards he threw to the crib."""
    starter: Card
    """The starter."""
    played: tuple[Card, ...]
    """Every card played this deal, by both, in order."""
    pile: tuple[Card, ...]
    """The cards on the current count, oldest first."""
    opponent_held: int
    """How many cards the opponent still holds."""
    dealer: bool
    """Whether the crib is his."""
    scores: tuple[int, int]
    """His score and the opponent's."""
    rules: RuleSet = SIX_CARD
    """The rule set."""

    @property
    def count(self) -> int:
        """The count."""
        return sum(c.value for c in self.pile)

    @property
    def playable(self) -> tuple[Card, ...]:
        """The cards he may play: those that keep the count to 31 or under."""
        return tuple(c for c in self.held if self.count + c.value <= 31)

    def unseen(self) -> list[Card]:
        """The cards he has not seen: not his, not the starter, not played by the opponent."""
        seen = {*self.kept, *self.thrown, self.starter, *self.played}
        return [c for c in DECK if c not in seen]


class Policy(Protocol):
    """A player: a discard for a deal, a card for a count."""

    @property
    def name(self) -> str:
        """A short name for reports."""
        ...

    def discard(self, view: DiscardView, rng: random.Random) -> tuple[Card, ...]:
        """The cards to throw to the crib (``view.rules.discards`` of ``view.dealt``)."""
        ...

    def play(self, view: PlayView, rng: random.Random) -> Card:
        """The card to play, one of ``view.playable`` (never called when none is)."""
        ...


class RandomPolicy:
    """Any legal choice, each alike."""

    name = "random"

    def discard(self, view: DiscardView, rng: random.Random) -> tuple[Card, ...]:
        """Any cards of the deal."""
        return tuple(rng.sample(view.dealt, view.rules.discards))

    def play(self, view: PlayView, rng: random.Random) -> Card:
        """Any card that fits the count."""
        return rng.choice(view.playable)


class GreedyPolicy:
    """The best hand alone (no crib) and the most pegs now; ties broken at random."""

    name = "greedy"

    def discard(self, view: DiscardView, rng: random.Random) -> tuple[Card, ...]:
        """The discard that keeps the best hand over every starter, the crib not considered."""
        starters = [c for c in DECK if c not in view.dealt]
        totals: dict[tuple[Card, ...], int] = {}
        for thrown in itertools.combinations(view.dealt, view.rules.discards):
            keep = [c for c in view.dealt if c not in thrown]
            totals[thrown] = sum(score_show(keep, s, rules=view.rules).total for s in starters)
        best = max(totals.values())
        return rng.choice([t for t, total in totals.items() if total == best])

    def play(self, view: PlayView, rng: random.Random) -> Card:
        """The card that pegs the most on this count."""
        points = {c: sum(i.points for i in score_peg(view.pile, c)) for c in view.playable}
        best = max(points.values())
        return rng.choice([c for c, p in points.items() if p == best])


@dataclasses.dataclass(frozen=True)
class StrongPolicy:
    """Exact expected value in the discard, lookahead in the play, position near the end.

    Args:
        worlds: how many draws of the opponent's unseen cards each card is judged over.
        early_worlds: as many while seven or eight cards are still to be played, when each
            search is longest (the lead and the first reply: 4 keeps a choice near 10 ms).
    """

    worlds: int = 12
    early_worlds: int = 4
    name: str = "strong"

    def discard(self, view: DiscardView, rng: random.Random) -> tuple[Card, ...]:
        """The discard with the best net expected points, or near the end the best chance.

        Near the end (:func:`near_end`) each option also gains :data:`WIN` points times how
        often the kept hand (with the crib's average, for the dealer) reaches the end in the
        show (:func:`reach_chance`): a hand sure of the few points needed beats a better one
        that may fall short.
        """
        options = analyze_discards(
            view.dealt, dealer=view.dealer, rules=view.rules, crib_model="weighted"
        )
        if not near_end(view.scores, view.rules):
            return options[0].discard
        return max(options, key=lambda o: o.net_ev + WIN * reach_chance(o, view)).discard

    def play(self, view: PlayView, rng: random.Random) -> Card:
        """The card that nets the most over the rest of the play, the opponent's cards drawn.

        Near the end the rest of the deal is judged: the play and the show in its order,
        reaching the end first worth :data:`WIN` points.
        """
        choices = {int(c.rank): c for c in reversed(view.playable)}  # one card a rank
        if len(choices) == 1:
            return next(iter(choices.values()))
        mine = tuple(sorted(int(c.rank) for c in view.held))
        pile = tuple(int(c.rank) for c in view.pile)
        totals = dict.fromkeys(choices, 0.0)
        for weight, solver, theirs in self._worlds(view, rng):
            for rank in choices:
                value = solver.after(mine, theirs, pile, view.count, rank)
                totals[rank] += weight * value
        return choices[max(choices, key=lambda r: totals[r])]

    def _worlds(self, view: PlayView, rng: random.Random) -> list[tuple[float, PlaySolver, Ranks]]:
        """The opponent's cards drawn: each draw's weight, solver and the ranks he holds."""
        unseen = view.unseen()
        held = view.opponent_held
        worlds = self.worlds if len(view.held) + held < 7 else self.early_worlds
        if not near_end(view.scores, view.rules):
            solver = _SOLVERS[view.rules.one_count]
            if held == 0:
                return [(1.0, solver, ())]
            if held == 1:  # every rank he can hold, by how many are unseen
                ranks = [int(c.rank) for c in unseen]
                return [(ranks.count(r) / len(ranks), solver, (r,)) for r in sorted(set(ranks))]
            return [
                (1.0, solver, tuple(sorted(int(c.rank) for c in rng.sample(unseen, held))))
                for _ in range(worlds)
            ]
        return [(1.0, *_ending_world(view, unseen, rng)) for _ in range(worlds)]


_SOLVERS = {one_count: PlaySolver(one_count=one_count) for one_count in (False, True)}
"""One solver each for the play of many counts and the five-card single count, shared by
every choice away from the end (their positions do not depend on the game)."""


def _ending_world(
    view: PlayView, unseen: Sequence[Card], rng: random.Random
) -> tuple[PlaySolver, Ranks]:
    """A draw of the opponent's hand and crib cards, with the show it makes after the play."""
    rules = view.rules
    theirs_played = [c for c in view.played if c not in view.kept]
    drawn = rng.sample(unseen, view.opponent_held + rules.discards)
    held, thrown = drawn[: view.opponent_held], drawn[view.opponent_held :]
    my_hand = score_show(view.kept, view.starter, rules=rules).total
    their_hand = score_show([*theirs_played, *held], view.starter, rules=rules).total
    crib = score_show([*view.thrown, *thrown], view.starter, crib=True, rules=rules).total
    show = (my_hand + crib, their_hand) if view.dealer else (my_hand, their_hand + crib)
    ending = Ending(rules.game, view.scores, show, root_is_pone=not view.dealer)
    return PlaySolver(one_count=rules.one_count, ending=ending), tuple(
        sorted(int(c.rank) for c in held)
    )


def near_end(scores: tuple[int, int], rules: RuleSet) -> bool:
    """Whether a player may reach the game's end this deal: a quarter of the game to go.

    >>> near_end((95, 60), SIX_CARD), near_end((60, 90), SIX_CARD)
    (True, False)
    """
    return max(scores) >= rules.game - rules.game // 4


def reach_chance(option: DiscardOption, view: DiscardView) -> float:
    """How often the kept hand reaches the game's end in the show, over every starter.

    The dealer's crib counts as its average; the pegs of the play are not counted.
    """
    need = view.rules.game - view.scores[0] - (option.crib_ev if view.dealer else 0.0)
    starters = [c for c in DECK if c not in view.dealt]
    reached = sum(score_show(option.keep, s, rules=view.rules).total >= need for s in starters)
    return reached / len(starters)


POLICIES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "strong": StrongPolicy,
}
"""Every policy by name."""
