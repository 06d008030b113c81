"""Pages: home, the score calculators that settle disputes, progress and history."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from records import games, progress, ratings, versus
from trainer import counting_rating
from trainer import progress as figures
from trainer.cards import Rank
from trainer.dealing import Category
from trainer.errors import CribbageError
from trainer.grading import HEELS_NOTE
from trainer.items import PLAY_RULE_TEXT, RULE_TEXT, Kind, ScoreItem
from trainer.pegging import score_play
from trainer.rules import RULESETS, SIX_CARD, get_rules
from trainer.show import Breakdown, score_typed

from . import charts
from .clock import now, players_offset, players_today
from .db import get_db
from .players import current_player
from .request_data import checked

bp = Blueprint("pages", __name__)


@bp.get("/")
def home() -> str:
    """The start page: where the player stands today (a new visitor too), then the drills."""
    player = current_player()
    today = players_today()
    player_id = None if player is None else player.id
    standing = progress.standing(None if player_id is None else get_db(), player_id, today)
    rating = None if player_id is None else ratings.standing(get_db(), player_id, today)
    next_daily = figures.next_daily_in(now(), players_offset())
    playing = None if player_id is None else versus.in_progress(get_db(), player_id)
    return render_template(
        "pages/home.html",
        playing=playing,
        today=today,
        standing=standing,
        rating=rating,
        shown=counting_rating.shown,
        next_daily=next_daily,
    )


@bp.get("/register", endpoint="register")
@bp.get("/login", endpoint="login")
def account_page() -> Response:
    """The account pages live under ``/auth/``: ``/register`` and ``/login`` lead there."""
    return redirect(url_for(f"auth.{request.path.strip('/')}"), 301)


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

    With ``pone=...&dealer=...`` (both hands) the goes are found and every card is checked;
    ``rules=five-card`` plays the five-card game's hands of three and its single count.
    """
    play = request.args.get("play", "")
    pone = request.args.get("pone", "")
    dealer = request.args.get("dealer", "")
    end = checked(request.args, "end")
    context: dict[str, Any] = {"play": play, "pone": pone, "dealer": dealer, "end": end}
    context["rulesets"] = {name: r for name, r in RULESETS.items() if r.players == 2}
    context["rules"], status = SIX_CARD, 200
    if play.strip():
        try:
            rules = context["rules"] = get_rules(request.args.get("rules", SIX_CARD.name))
            pegs = score_play(play, pone=pone, dealer=dealer, end=end, rules=rules)
            context["pegs"] = pegs
            context["totals"] = [sum(p.points for p in pegs if p.player == who) for who in (0, 1)]
            context["kinds"] = _kinds_in_order(i for p in pegs for i in p.items)
        except CribbageError as error:
            context["error"], status = str(error), 400
    page = render_template("pages/pegging.html", rule_text=PLAY_RULE_TEXT, **context)
    return page, status


CALENDAR_WEEKS = 16
"""Weeks of days practised the history shows (a phone's width)."""
TREND_WEEKS = 8
"""Weeks the history's trends by category go back."""
HISTORY_GAMES = 10
"""Games kept at the table, and games against the computer, the history lists (the latest
first; ``/board`` lists more of the first)."""


@bp.get("/history")
def history() -> str:
    """Days practised, sprint bests, weekly trends, the games at the table and the computer's."""
    player = current_player()
    if player is None:
        return render_template("pages/history.html", player=None)
    db = get_db()
    today = players_today()
    start = figures.week_of(today)
    calendar_from = figures.weeks_before(start, CALENDAR_WEEKS - 1)
    results = progress.daily_results(db, player.id, calendar_from)
    marks = {
        date: (str(result.right) if result.complete else "", f"daily {result}")
        for date, result in results.items()
    }
    answers = progress.answers_by_day(db, player.id, calendar_from)
    runs = progress.sprint_runs(db, player.id, figures.SPRINT_SECONDS)
    weeks = progress.weekly_tallies(db, player.id, figures.weeks_before(start, TREND_WEEKS - 1))
    return render_template(
        "pages/history.html",
        player=player,
        calendar=charts.calendar(today, answers, marks, CALENDAR_WEEKS),
        calendar_weeks=CALENDAR_WEEKS,
        days_practised=len(answers),
        bests=figures.personal_bests(runs),
        sprints=len(runs),
        trends=[_trend(figures.Trend.of(c, weeks[c])) for c in Category if c in weeks],
        kept=games.of_player(db, player.id, HISTORY_GAMES),
        matches=games.matches(db, player.id),
        record=games.record(db, player.id),
        computer=versus.finished(db, player.id, HISTORY_GAMES),
    )


RATING_CHART_STEP = 100
"""The rating chart's axis runs between the hundreds around the ratings shown."""


def _rating_chart(by_day: list[tuple[str, float]]) -> Markup:
    """The overall counting rating by day, its axis the hundreds around it."""
    values = [value for _, value in by_day]
    step = RATING_CHART_STEP
    bottom = min(values, default=0) // step * step
    top = max(values, default=0) // step * step + step
    return charts.line_chart([day for day, _ in by_day], values, "rating", top, bottom)


def _trend(trend: figures.Trend) -> dict[str, Any]:
    """One category's row of the trends: its sparklines of accuracy and seconds per answer."""
    labels = [f"week of {week}" for week in trend.weeks]
    return {
        "trend": trend,
        "accuracy": charts.sparkline(labels, list(trend.accuracy), "%", 100),
        "seconds": charts.sparkline(labels, list(trend.seconds), "s"),
    }


@bp.get("/progress", endpoint="progress")
def progress_page() -> str:
    """The counting rating, accuracy and speed over days, misses by category, drills done."""
    player = current_player()
    if player is None:
        return render_template("pages/progress.html", player=None)
    db = get_db()
    days = progress.days(db, player.id)
    labels = [d.day for d in days]
    ranked = progress.skills(db, player.id)
    rating = ratings.standing(db, player.id, players_today())
    return render_template(
        "pages/progress.html",
        player=player,
        days=days,
        rating=rating,
        shown=counting_rating.shown,
        trend_days=counting_rating.TREND_DAYS,
        rating_chart=_rating_chart(rating.by_day),
        accuracy_chart=charts.line_chart(labels, [100 * d.accuracy for d in days], "%", 100),
        speed_chart=charts.line_chart(labels, [d.seconds_per_hand for d in days], "s"),
        misses_chart=charts.bar_chart(
            [c.value for c, _ in ranked],
            [s.missed / s.seen for _, s in ranked],
            [f"{s.missed} of {s.seen}, {s.seconds / s.seen:.1f}s" for _, s in ranked],
        ),
        weak=figures.weak_spots(ranked)[:3],
        by_kind=progress.drills_by_kind(db, player.id),
        streak=figures.streak(
            figures.completed(progress.daily_results(db, player.id)), players_today()
        ),
    )
