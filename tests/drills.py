"""What the engine says of a drill as the web app serves it, for tests that answer drills."""

from __future__ import annotations

from typing import Any

from trainer import score_show
from trainer.pegging import score_peg


def right_points(drill: dict[str, Any]) -> int:
    """The engine's count for a hand, crib or pegging drill."""
    if drill["kind"] == "pegging":
        return sum(i.points for i in score_peg(drill["played"], drill["card"]))
    return score_show(drill["hand"], drill["starter"], crib=drill["crib"]).total
