"""Rule sets: the six-card game, the five-card game, three- and four-hand deals.

Sources are the rule books in ``shared/seeds`` (see README "Rules implemented").
"""

from __future__ import annotations

import dataclasses

from .errors import UnknownRulesError


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """How many cards are dealt, kept and thrown, and how the show is scored.

    >>> SIX_CARD.hand_size, SIX_CARD.discards, FIVE_CARD.hand_size, THREE_HAND.crib_from_deck
    (4, 2, 3, 1)
    """

    name: str
    """Short identifier, e.g. ``"six-card"``."""
    title: str
    """A name for people."""
    players: int
    """Number of players (each plays for himself, four-hand in two partnerships)."""
    dealt: int
    """Cards dealt to each player."""
    hand_size: int
    """Cards each player keeps for the play and the show."""
    crib_from_deck: int = 0
    """Cards dealt straight into the crib (one in three-hand)."""
    game: int = 121
    """Points to win."""
    crib_size: int = 4
    """Cards in the crib (before the starter)."""
    one_count: bool = False
    """Whether the play is a single count, ended by the first go or 31 (the five-card game:
    after the go "each player's hand is then counted up", 001; "such cards as remain after
    this, are not to be played", old Hoyle). Its last card pegs one, a 31 two."""

    @property
    def discards(self) -> int:
        """Cards each player throws to the crib."""
        return self.dealt - self.hand_size

    @property
    def table_size(self) -> int:
        """Cards on the table at the show: every hand, the crib and the starter.

        >>> SIX_CARD.table_size, FIVE_CARD.table_size, THREE_HAND.table_size, FOUR_HAND.table_size
        (13, 11, 17, 21)
        """
        return self.players * self.hand_size + self.crib_size + 1

    def show_size(self, *, crib: bool) -> int:
        """Cards counted with the starter: the hand's size, or the crib's."""
        return self.crib_size if crib else self.hand_size


SIX_CARD = RuleSet("six-card", "Two-hand six-card cribbage", players=2, dealt=6, hand_size=4)
FIVE_CARD = RuleSet(
    "five-card", "Two-hand five-card cribbage", 2, dealt=5, hand_size=3, game=61, one_count=True
)
THREE_HAND = RuleSet("three-hand", "Three-hand cribbage", 3, dealt=5, hand_size=4, crib_from_deck=1)
FOUR_HAND = RuleSet("four-hand", "Four-hand (partnership) cribbage", 4, dealt=5, hand_size=4)

RULESETS: dict[str, RuleSet] = {r.name: r for r in (SIX_CARD, FIVE_CARD, THREE_HAND, FOUR_HAND)}
"""Every rule set by name."""


def get_rules(name: str) -> RuleSet:
    """Look up a rule set by name.

    Raises:
        UnknownRulesError: naming the known rule sets.
    """
    try:
        return RULESETS[name]
    except KeyError:
        known = ", ".join(RULESETS)
        raise UnknownRulesError(f"unknown rule set {name!r} (use one of: {known})") from None
