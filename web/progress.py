"""A player's progress: accuracy and speed by day, misses by category, streaks, the history.

The history is the days practised, the daily results, sprint bests and weekly trends by
category; each function is one query, whatever the span of days it covers.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Row, case, func, select

from trainer.dealing import DAILY_KINDS, Category
from trainer.weak_spots import Tally, tally

from .models import Answer, Drill, Skill
from .training import parse_categories

STREAK_GRACE_DAYS = 1
"""A gentle streak: one missed day between two daily challenges does not break it."""


@dataclasses.dataclass(frozen=True)
class Day:
    """One day's answers."""

    day: str
    answers: int
    correct: int
    hands: int
    """Hand and crib counts answered (the speed chart's answers)."""
    hand_seconds: float
    """Seconds spent on them."""

    @property
    def accuracy(self) -> float:
        """The share of right answers (0…1)."""
        return self.correct / self.answers if self.answers else 0.0

    @property
    def seconds_per_hand(self) -> float:
        """Average seconds to count a hand or crib (0 on a day without one)."""
        return self.hand_seconds / self.hands if self.hands else 0.0


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


def _answers_by(db: Connection, column: Any, *where: Any) -> dict[str, int]:
    """How many answers there are for each value of ``column``, among those ``where`` picks."""
    rows = db.execute(select(column, func.count(Answer.id)).where(*where).group_by(column))
    return {value: count for value, count in rows}


def skills(db: Connection, player_id: int) -> list[tuple[Category, Row[Any]]]:
    """The player's tallies (``seen``, ``missed``, ``seconds``), most missed (by rate) first."""
    rows = db.execute(select(Skill).where(Skill.player_id == player_id))
    ranked = sorted(rows, key=lambda s: (-(s.missed / s.seen if s.seen else 0), s.category))
    return [(Category(s.category), s) for s in ranked]


def completed_dailies(db: Connection, player_id: int) -> list[str]:
    """Dates of the daily challenges the player finished, oldest first."""
    return [date for date, result in daily_results(db, player_id).items() if result.complete]


@dataclasses.dataclass(frozen=True)
class DailyResult:
    """How far the player got with one date's daily challenge."""

    date: str
    answered: int
    right: int
    seconds: float

    @property
    def complete(self) -> bool:
        """Whether every deal of the challenge was answered."""
        return self.answered == len(DAILY_KINDS)

    def __str__(self) -> str:
        """``5/6 in 1:42`` once done, ``2 of 6 answered`` before."""
        if not self.complete:
            return f"{self.answered} of {len(DAILY_KINDS)} answered"
        clock = f"{int(self.seconds) // 60}:{int(self.seconds) % 60:02d}"
        return f"{self.right}/{self.answered} in {clock}"


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


def best_streak(completed: list[str]) -> int:
    """The longest run of daily challenges, with :data:`STREAK_GRACE_DAYS` as in :func:`streak`.

    >>> best_streak(["2026-11-01", "2026-11-02", "2026-11-10", "2026-11-11", "2026-11-13"])
    3
    """
    best = run = 0
    previous: datetime.date | None = None
    for date in completed:
        day = datetime.date.fromisoformat(date)
        gap = (day - previous).days - 1 if previous else STREAK_GRACE_DAYS + 1
        run = run + 1 if gap <= STREAK_GRACE_DAYS else 1
        best, previous = max(best, run), day
    return best


def weakest(ranked: Sequence[tuple[Category, Row[Any]]]) -> tuple[Category, Row[Any]] | None:
    """The category to practise next: the first of :func:`skills` with a miss, if any."""
    return next(((c, s) for c, s in ranked if s.missed), None)


def answers_by_day(db: Connection, player_id: int, since: str) -> dict[str, int]:
    """How many answers the player gave each day from ``since`` on."""
    return _answers_by(db, Answer.day, Answer.player_id == player_id, Answer.day >= since)


@dataclasses.dataclass(frozen=True)
class SprintRun:
    """One sprint: when it started and how many hands were counted right."""

    day: str
    started: float
    right: int
    answered: int


def sprint_runs(db: Connection, player_id: int, seconds: float) -> list[SprintRun]:
    """The player's sprints, oldest first.

    A sprint is not stored as such: its drills are the sprint drills dealt within ``seconds``
    (the sprint's length) of the first one, so two sprints begun within that time of each
    other count as one.
    """
    rows = db.execute(
        select(Drill.dealt_at, Answer.correct, Answer.day)
        .join(Answer, Answer.drill_id == Drill.id)
        .where(Drill.player_id == player_id, Drill.mode == "sprint")
        .order_by(Drill.dealt_at)
    )
    runs: list[SprintRun] = []
    for dealt_at, correct, day in rows:
        last = runs[-1] if runs else None
        if last is None or dealt_at - last.started > seconds:
            runs.append(SprintRun(day, dealt_at, int(correct), 1))
        else:
            runs[-1] = dataclasses.replace(
                last, right=last.right + int(correct), answered=last.answered + 1
            )
    return runs


def personal_bests(runs: Sequence[SprintRun]) -> list[SprintRun]:
    """Each sprint that beat every one before it, the latest record first."""
    records: list[SprintRun] = []
    for run in runs:
        if run.right and (not records or run.right > records[-1].right):
            records.append(run)
    return records[::-1]


def week_of(day: str) -> str:
    """The Monday of ``day``'s week (``YYYY-MM-DD``).

    >>> week_of("2026-11-25")
    '2026-11-23'
    """
    date = datetime.date.fromisoformat(day)
    return (date - datetime.timedelta(days=date.weekday())).isoformat()


def weekly_tallies(db: Connection, player_id: int, since: str) -> dict[Category, dict[str, Tally]]:
    """Per category, the player's tally for each week (by its Monday) from ``since`` on."""
    rows = db.execute(
        select(Answer.day, Drill.categories, Answer.missed, Answer.seconds)
        .join(Drill, Drill.id == Answer.drill_id)
        .where(Answer.player_id == player_id, Answer.day >= since)
    )
    by_week: dict[str, list[tuple[list[Category], list[Category], float]]] = {}
    for day, present, missed, seconds in rows:
        answers = by_week.setdefault(week_of(day), [])
        answers.append((parse_categories(present), parse_categories(missed), seconds))
    trends: dict[Category, dict[str, Tally]] = {}
    for week in sorted(by_week):
        for category, counted in tally(by_week[week]).items():
            trends.setdefault(category, {})[week] = counted
    return trends


def streak(completed: list[str], today: str) -> int:
    """Daily challenges in the current run, allowing :data:`STREAK_GRACE_DAYS` missed days.

    >>> streak(["2026-11-18", "2026-11-20", "2026-11-21"], "2026-11-22")
    3
    >>> streak(["2026-11-18"], "2026-11-22")
    0
    """
    count = 0
    previous = datetime.date.fromisoformat(today)  # today's challenge may still be played
    for date in reversed(completed):
        day = datetime.date.fromisoformat(date)
        if max(0, (previous - day).days - 1) > STREAK_GRACE_DAYS:
            break
        count += 1
        previous = day
    return count


def daily_summary(
    db: Connection,
    player_id: int,
    date: str,
    dealt: Sequence[Row[Any]],
    answers: Mapping[int, Row[Any]],
) -> dict[str, Any]:
    """Where the player stands in a daily challenge, and, once done, a spoiler-free share."""
    summary: dict[str, Any] = {"done": len(answers), "of": len(dealt), "complete": False}
    if len(answers) < len(dealt):
        return summary
    marks = "".join("🟩" if answers[d.id].correct else "🟥" for d in dealt)
    result = DailyResult(
        date,
        len(answers),
        sum(a.correct for a in answers.values()),
        sum(a.seconds for a in answers.values()),
    )
    run = streak(completed_dailies(db, player_id), date)
    summary |= {
        "complete": True,
        "score": result.right,
        "seconds": round(result.seconds, 1),
        "streak": run,
        "share": f"Cribbage count {date}\n{marks} {result}\nStreak {run}",
    }
    return summary
