"""The queries behind a player's home, progress and history pages.

Each function is one query, whatever the span of days it covers; the arithmetic on its rows
(streaks, sprints, weekly trends) is :mod:`trainer.progress`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, case, func, select

from trainer import progress
from trainer.dealing import Category
from trainer.progress import DailyResult, Day, SprintRun
from trainer.weak_spots import Tally

from .drills import DealtDrill, GivenAnswer, parse_categories
from .models import Answer, Drill, Skill


def days(db: Connection, player_id: int, limit: int = 30) -> list[Day]:
    """The player's last ``limit`` days with answers, oldest first."""
    counting = Answer.kind.in_(("hand", "crib"))
    rows = db.execute(
        select(
            Answer.day,
            func.count(Answer.id),
            func.sum(case((Answer.correct, 1), else_=0)),
            func.sum(case((counting, 1), else_=0)),
            func.sum(case((counting, Answer.seconds), else_=0.0)),
        )
        .where(Answer.player_id == player_id)
        .group_by(Answer.day)
        .order_by(Answer.day.desc())
        .limit(limit)
    ).all()
    return [Day(d, n, int(c or 0), int(h or 0), float(s or 0)) for d, n, c, h, s in reversed(rows)]


def drills_by_kind(db: Connection, player_id: int) -> dict[str, int]:
    """How many drills of each kind the player has answered."""
    return _answers_by(db, Answer.kind, Answer.player_id == player_id)


def answers_by_day(db: Connection, player_id: int, since: str) -> dict[str, int]:
    """How many answers the player gave each day from ``since`` on."""
    return _answers_by(db, Answer.day, Answer.player_id == player_id, Answer.day >= since)


def _answers_by(db: Connection, column: Any, *where: Any) -> dict[str, int]:
    """How many answers there are for each value of ``column``, among those ``where`` picks."""
    rows = db.execute(select(column, func.count(Answer.id)).where(*where).group_by(column))
    return {value: count for value, count in rows}


def skills(db: Connection, player_id: int) -> list[tuple[Category, Tally]]:
    """The player's tallies, most missed (by rate) first (:func:`trainer.progress.ranked`)."""
    rows = db.execute(select(Skill).where(Skill.player_id == player_id))
    return progress.ranked({Category(s.category): Tally(s.seen, s.missed, s.seconds) for s in rows})


def daily_results(db: Connection, player_id: int, since: str = "") -> dict[str, DailyResult]:
    """The player's daily challenges with an answer, by date (from ``since`` on), oldest first."""
    rows = db.execute(
        select(
            Drill.daily_date,
            func.count(Answer.id),
            func.sum(case((Answer.correct, 1), else_=0)),
            func.sum(Answer.seconds),
        )
        .join(Answer, Answer.drill_id == Drill.id)
        .where(Drill.player_id == player_id, Drill.daily_date >= since)
        .group_by(Drill.daily_date)
        .order_by(Drill.daily_date)
    )
    return {d: DailyResult(d, n, int(r or 0), float(s or 0)) for d, n, r, s in rows if d}


def sprint_runs(db: Connection, player_id: int, seconds: float) -> list[SprintRun]:
    """The player's sprints of ``seconds``, oldest first (:func:`trainer.progress.sprint_runs`)."""
    rows = db.execute(
        select(Drill.dealt_at, Answer.correct, Answer.day, Drill.position)
        .join(Answer, Answer.drill_id == Drill.id)
        .where(Drill.player_id == player_id, Drill.mode == "sprint")
        .order_by(Drill.dealt_at)
    )
    return progress.sprint_runs(
        ((d, bool(c), day, position == 0) for d, c, day, position in rows), seconds
    )


def standing(db: Connection | None, player_id: int | None, today: str) -> dict[str, Any]:
    """Where the player stands on ``today``: the daily, the streaks, the weak spot to practise.

    A new visitor (no player yet) has played nothing: today's challenge is not played yet.
    """
    if db is None or player_id is None:
        db, player_id = None, None
    results = {} if db is None or player_id is None else daily_results(db, player_id)
    completed = progress.completed(results)
    return {
        "daily": results.get(today),
        "streak": progress.streak(completed, today),
        "best_streak": progress.best_streak(completed),
        "weakest": None
        if db is None or player_id is None
        else progress.weakest(skills(db, player_id)),
    }


def weekly_tallies(db: Connection, player_id: int, since: str) -> dict[Category, dict[str, Tally]]:
    """Per category, the player's tally for each week (by its Monday) from ``since`` on."""
    rows = db.execute(
        select(Answer.day, Drill.categories, Answer.missed, Answer.seconds)
        .join(Drill, Drill.id == Answer.drill_id)
        .where(Answer.player_id == player_id, Answer.day >= since)
    )
    return progress.weekly_tallies(
        (day, parse_categories(present), parse_categories(missed), seconds)
        for day, present, missed, seconds in rows
    )


def daily_summary(
    db: Connection,
    player_id: int,
    date: str,
    dealt: Sequence[DealtDrill],
    answers: Mapping[int, GivenAnswer],
) -> dict[str, Any]:
    """Where the player stands in a daily challenge, and, once done, a spoiler-free share."""
    summary: dict[str, Any] = {"done": len(answers), "of": len(dealt), "complete": False}
    if len(answers) < len(dealt):
        return summary
    result = DailyResult(
        date,
        len(answers),
        sum(a.correct for a in answers.values()),
        sum(a.seconds for a in answers.values()),
    )
    run = progress.streak(progress.completed(daily_results(db, player_id)), date)
    summary |= {
        "complete": True,
        "score": result.right,
        "seconds": round(result.seconds, 1),
        "streak": run,
        "share": progress.share_line(result, (answers[d.id].correct for d in dealt), run),
    }
    return summary
