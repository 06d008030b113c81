"""What the engine says of a drill or a game's count as the web app serves them, for tests that
answer drills and play the computer."""

from __future__ import annotations

from typing import Any

from trainer import score_show
from trainer.items import ScoreItem
from trainer.pegging import score_peg
from trainer.rules import get_rules


def right_points(drill: dict[str, Any]) -> int:
    """The engine's count for a hand, crib or pegging drill."""
    if drill["kind"] == "pegging":
        return sum(i.points for i in score_peg(drill["played"], drill["card"]))
    return score_show(drill["hand"], drill["starter"], crib=drill["crib"]).total


def game_items(game: dict[str, Any], card: str | None = None) -> tuple[ScoreItem, ...]:
    """The engine's items of what a game against the computer (``/api/play``'s JSON) asks the
    player to count now: what ``card`` pegs on the pile, or the hand or crib counted."""
    if card is not None:
        return tuple(score_peg(game["pile"], card))
    counting = game["counting"]
    rules = get_rules(game["rules"])
    crib = counting["what"] == "crib"
    return score_show(counting["cards"], game["starter"], crib=crib, rules=rules).items
