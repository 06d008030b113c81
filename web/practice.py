"""Drill pages: the daily challenge, practice by kind, the timed sprint.

The pages are shells: ``static/drill.js`` deals and answers through the JSON API, so that
every answer is stored the moment it is given.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request

from records import progress
from trainer.dealing import DAILY_KINDS, KINDS, Category, Difficulty, level_words
from trainer.progress import SPRINT_PENALTY, SPRINT_SECONDS, best_sprint

from .db import get_db
from .players import current_player
from .request_data import given_discard

bp = Blueprint("practice", __name__)

TITLES = {
    "hand": "Count the hand",
    "crib": "Count the crib",
    "pegging": "What does it peg?",
    "discard": "Throw two to the crib",
    "play": "Peg the play",
}


@bp.get("/daily")
def daily() -> str:
    """Today's challenge: the same deals for everyone, then a spoiler-free summary to share."""
    return _drill_page("daily", "", "Daily challenge", DAILY_KINDS)


@bp.get("/practice/<kind>")
def practice(kind: str) -> str:
    """Unlimited practice of one kind, aimed at the weak spots (or the one ``?focus=`` names).

    A discard drill may begin with given cards (``?cards=...&dealer=1``, a game's discard).
    """
    if kind not in KINDS:
        abort(404, f"no drill {kind!r} (use one of: {', '.join(KINDS)})")
    levels = level_words(kind)
    difficulty = request.args.get("difficulty", Difficulty.STANDARD.value)
    if difficulty not in levels:
        difficulty = Difficulty.STANDARD.value
    focus = request.args.get("focus", "")
    focus = focus if focus in {c.value for c in Category if kind in c.kinds} else ""
    extra: dict[str, Any] = {"difficulty": difficulty, "levels": levels, "focus": focus}
    if kind == "discard":
        extra["given"] = given_discard()
    return _drill_page("practice", kind, TITLES[kind], (kind,), **extra)


@bp.get("/sprint")
def sprint() -> str:
    """As many hand counts as possible against the clock; misses cost time; the best so far."""
    player = current_player()
    runs = [] if player is None else progress.sprint_runs(get_db(), player.id, SPRINT_SECONDS)
    extra = {"sprint_seconds": SPRINT_SECONDS, "penalty": SPRINT_PENALTY}
    return _drill_page("sprint", "hand", "Sprint", (), best=best_sprint(runs), **extra)


def _drill_page(
    mode: str, kind: str, title: str, option_kinds: tuple[str, ...], **extra: Any
) -> str:
    """The drill page in ``mode``; ``option_kinds`` are the kinds whose options it shows."""
    return render_template(
        "practice/drill.html", mode=mode, kind=kind, title=title, option_kinds=option_kinds, **extra
    )
