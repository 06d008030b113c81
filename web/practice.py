"""Drill pages: the daily challenge, practice by kind, the timed sprint.

The pages are shells: ``static/drill.js`` deals and answers through the JSON API, so that
every answer is stored the moment it is given.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request

from trainer.dealing import DAILY_KINDS, KINDS, Difficulty
from trainer.progress import SPRINT_PENALTY, SPRINT_SECONDS

bp = Blueprint("practice", __name__)

TITLES = {
    "hand": "Count the hand",
    "crib": "Count the crib",
    "pegging": "What does it peg?",
    "discard": "Throw two to the crib",
}


@bp.get("/daily")
def daily() -> str:
    """Today's challenge: the same deals for everyone, then a spoiler-free summary to share."""
    return _drill_page("daily", "", "Daily challenge", DAILY_KINDS)


@bp.get("/practice/<kind>")
def practice(kind: str) -> str:
    """Unlimited practice of one kind, aimed at the player's weak spots."""
    if kind not in KINDS:
        abort(404, f"no drill {kind!r} (use one of: {', '.join(KINDS)})")
    levels = [d.value for d in Difficulty]
    difficulty = request.args.get("difficulty", Difficulty.STANDARD.value)
    if difficulty not in levels:
        difficulty = Difficulty.STANDARD.value
    return _drill_page(
        "practice", kind, TITLES[kind], (kind,), difficulty=difficulty, difficulties=levels
    )


@bp.get("/sprint")
def sprint() -> str:
    """As many hand counts as possible against the clock; misses cost time."""
    return _drill_page(
        "sprint", "hand", "Sprint", (), sprint_seconds=SPRINT_SECONDS, penalty=SPRINT_PENALTY
    )


def _drill_page(
    mode: str, kind: str, title: str, option_kinds: tuple[str, ...], **extra: Any
) -> str:
    """The drill page in ``mode``; ``option_kinds`` are the kinds whose options it shows."""
    return render_template(
        "practice/drill.html", mode=mode, kind=kind, title=title, option_kinds=option_kinds, **extra
    )
