"""Whole two-hand games between two policies, played on a :class:`trainer.match.Match`.

Each deal, the pone and then the dealer discard, the cards are played as each policy chooses,
and the hands and the crib are counted exactly (:mod:`trainer.match` keeps the rules).

>>> from trainer.opponent import RandomPolicy
>>> game = play_game((RandomPolicy(), RandomPolicy()), random.Random(7))
>>> max(game.scores) >= 121, game.scores[game.winner] == max(game.scores)
(True, True)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from .errors import IllegalPlayError
from .match import Deal, Match
from .opponent import Policy
from .rules import SIX_CARD, RuleSet


@dataclasses.dataclass(frozen=True)
class GameResult:
    """A game played out."""

    winner: int
    """The seat that reached the end first."""
    scores: tuple[int, int]
    """Both seats' final scores."""
    deals: tuple[Deal, ...]
    """Every deal, the last one as far as it went."""


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
    match = Match(rules, rng, first_dealer)
    while match.winner is None:
        if match.phase == "discard":
            for seat in (match.pone, match.dealer):
                match.discard(seat, policies[seat].discard(match.discard_view(seat), rng))
        elif match.phase == "play":
            seat = match.turn
            view = match.play_view(seat)
            card = policies[seat].play(view, rng)
            if card not in view.playable:
                raise IllegalPlayError(f"{card} cannot be played on a count of {view.count}")
            match.play(seat, card)
        else:
            match.show()
    return GameResult(match.winner, (match.scores[0], match.scores[1]), tuple(match.deals))
