"""Pages: home, the score calculators that settle disputes, progress and history."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

from flask import Blueprint, render_template, request
from sqlalchemy import Connection

from trainer.cards import Rank
from trainer.dealing import Category
from trainer.errors import CribbageError
from trainer.grading import HEELS_NOTE
from trainer.items import RULE_TEXT, Kind, ScoreItem
from trainer.pegging import score_play
from trainer.rules import RULESETS, SIX_CARD, get_rules
from trainer.show import Breakdown, score_typed
from trainer.weak_spots import Tally

from . import charts, practice, progress
from .auth import current_player
from .clock import players_today
from .db import get_db

bp = Blueprint("pages", __name__)


def checked(values: Mapping[str, str], name: str) -> bool:
    """A checkbox or URL flag: on unless missing, empty, ``0`` or ``false``."""
    return values.get(name, "") not in ("", "0", "false")


@bp.get("/")
def home() -> str:
    """The start page: where the player stands today, then the drills and calculators."""
    player = current_player()
    today = players_today()
    standing = None if player is None else _standing(get_db(), player.id, today)
    return render_template("pages/home.html", today=today, standing=standing)


def _standing(db: Connection, player_id: int, today: str) -> dict[str, Any]:
    """Today's daily challenge, the current and best streaks, and the category to practise."""
    results = progress.daily_results(db, player_id)
    completed = [date for date, result in results.items() if result.complete]
    return {
        "daily": results.get(today),
        "streak": progress.streak(completed, today),
        "best_streak": progress.best_streak(completed),
        "weakest": progress.weakest(progress.skills(db, player_id)),
    }


def _kinds_in_order(items: Iterable[ScoreItem]) -> list[Kind]:
    """The kinds of ``items``, each once, in the order they first appear."""
    return list(dict.fromkeys(i.kind for i in items))


@bp.get("/score")
def score() -> tuple[str, int]:
    """Settle a dispute: score a hand or crib from the URL (``?cards=5H+5D+5C+JS&starter=5S``).

    ``rules`` picks the rule set (six-card by default); ``crib=1`` scores a crib. The cards may
    carry the starter after a bar, or be ranks alone (``?cards=5+5+5+J&starter=5``).
    """
    cards = request.args.get("cards", "")
    starter = request.args.get("starter", "")
    crib = checked(request.args, "crib")
    context: dict[str, Any] = {"cards": cards, "starter": starter, "crib": crib}
    status, turned = 200, None
    try:
        rules = get_rules(request.args.get("rules", SIX_CARD.name))
        if cards.strip():
            scored = score_typed(
                cards, starter, crib=crib, rules=rules, starter_place="in the starter box"
            )
            if isinstance(scored, Breakdown):
                context |= {"breakdown": scored, "kinds": _kinds_in_order(scored.items)}
                turned = scored.starter.rank
            else:  # ranks alone: what is certain, and what suits could add
                context["ranks"], turned = scored, scored.starter_rank
    except CribbageError as error:
        rules = SIX_CARD
        context["error"], status = str(error), 400
    context["heels_note"] = HEELS_NOTE if turned is Rank.JACK else ""
    page = render_template(
        "pages/score.html", rules=rules, rulesets=RULESETS, rule_text=RULE_TEXT, **context
    )
    return page, status


@bp.get("/score/pegging")
def score_pegging() -> tuple[str, int]:
    """Settle a dispute about the play: ``?play=5H+10S+go+...``, players alternating.

    With ``pone=...&dealer=...`` (both hands) the goes are found and every card is checked.
    """
    play = request.args.get("play", "")
    pone = request.args.get("pone", "")
    dealer = request.args.get("dealer", "")
    end = checked(request.args, "end")
    context: dict[str, Any] = {"play": play, "pone": pone, "dealer": dealer, "end": end}
    status = 200
    if play.strip():
        try:
            pegs = score_play(play, pone=pone, dealer=dealer, end=end)
            context["pegs"] = pegs
            context["totals"] = [sum(p.points for p in pegs if p.player == who) for who in (0, 1)]
            context["kinds"] = _kinds_in_order(i for p in pegs for i in p.items)
        except CribbageError as error:
            context["error"], status = str(error), 400
    page = render_template("pages/pegging.html", rule_text=RULE_TEXT, **context)
    return page, status


CALENDAR_WEEKS = 16
"""Weeks of days practised the history shows (a phone's width)."""
TREND_WEEKS = 8
"""Weeks the history's trends by category go back."""


@bp.get("/history")
def history() -> str:
    """Days practised with each daily result, sprint bests, weekly trends by category."""
    player = current_player()
    if player is None:
        return render_template("pages/history.html", player=None)
    db = get_db()
    today = players_today()
    start = progress.week_of(today)
    calendar_from = _weeks_before(start, CALENDAR_WEEKS - 1)
    results = progress.daily_results(db, player.id, calendar_from)
    marks = {
        date: (str(result.right) if result.complete else "", f"daily {result}")
        for date, result in results.items()
    }
    answers = progress.answers_by_day(db, player.id, calendar_from)
    runs = progress.sprint_runs(db, player.id, practice.SPRINT_SECONDS)
    trends = progress.weekly_tallies(db, player.id, _weeks_before(start, TREND_WEEKS - 1))
    return render_template(
        "pages/history.html",
        player=player,
        calendar=charts.calendar(today, answers, marks, CALENDAR_WEEKS),
        calendar_weeks=CALENDAR_WEEKS,
        days_practised=len(answers),
        bests=progress.personal_bests(runs),
        sprints=len(runs),
        trends=[_trend(category, trends[category]) for category in Category if category in trends],
    )


def _weeks_before(monday: str, weeks: int) -> str:
    return (datetime.date.fromisoformat(monday) - datetime.timedelta(weeks=weeks)).isoformat()


def _trend(category: Category, weeks: Mapping[str, Tally]) -> dict[str, Any]:
    """One category's row of the trends: accuracy and seconds per answer, week by week."""
    labels = [f"week of {week}" for week in weeks]
    accuracy = [100 * (1 - t.missed / t.seen) for t in weeks.values()]
    seconds = [t.seconds / t.seen for t in weeks.values()]
    return {
        "category": category,
        "accuracy": charts.sparkline(labels, accuracy, "%", 100),
        "seconds": charts.sparkline(labels, seconds, "s"),
        "last_accuracy": accuracy[-1],
        "last_seconds": seconds[-1],
        "answers": sum(t.seen for t in weeks.values()),
    }


@bp.get("/progress", endpoint="progress")
def progress_page() -> str:
    """Accuracy and speed over days, misses by category, streak, drills done."""
    player = current_player()
    if player is None:
        return render_template("pages/progress.html", player=None)
    db = get_db()
    days = progress.days(db, player.id)
    labels = [d.day for d in days]
    ranked = progress.skills(db, player.id)
    return render_template(
        "pages/progress.html",
        player=player,
        days=days,
        accuracy_chart=charts.line_chart(labels, [100 * d.accuracy for d in days], "%", 100),
        speed_chart=charts.line_chart(labels, [d.seconds_per_hand for d in days], "s"),
        misses_chart=charts.bar_chart(
            [c.value for c, _ in ranked],
            [s.missed / s.seen for _, s in ranked],
            [f"{s.missed} of {s.seen}, {s.seconds / s.seen:.1f}s" for _, s in ranked],
        ),
        weak=[(c, s) for c, s in ranked if s.missed][:3],
        by_kind=progress.drills_by_kind(db, player.id),
        streak=progress.streak(progress.completed_dailies(db, player.id), players_today()),
    )
