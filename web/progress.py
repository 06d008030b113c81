"""A player's progress: per-day accuracy and speed, misses by category, streak, summaries."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Row, case, func, select
from sqlalchemy.orm import Session

from trainer.dealing import DAILY_KINDS, Category

from .models import Answer, Drill, Skill

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


def days(db: Session, player_id: int, limit: int = 30) -> list[Day]:
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


def drills_by_kind(db: Session, player_id: int) -> dict[str, int]:
    """How many drills of each kind the player has answered."""
    rows = db.execute(
        select(Answer.kind, func.count(Answer.id))
        .where(Answer.player_id == player_id)
        .group_by(Answer.kind)
    )
    return {kind: count for kind, count in rows}


def skills(db: Session, player_id: int) -> list[tuple[Category, Skill]]:
    """The player's tallies, most missed (by rate) first."""
    rows = db.scalars(select(Skill).where(Skill.player_id == player_id))
    ranked = sorted(rows, key=lambda s: (-(s.missed / s.seen if s.seen else 0), s.category))
    return [(Category(s.category), s) for s in ranked]


def completed_dailies(db: Session, player_id: int) -> list[str]:
    """Dates of the daily challenges the player finished, oldest first."""
    rows = db.execute(
        select(Drill.daily_date)
        .join(Answer, Answer.drill_id == Drill.id)
        .where(Drill.player_id == player_id, Drill.daily_date.is_not(None))
        .group_by(Drill.daily_date)
        .having(func.count(Answer.id) == len(DAILY_KINDS))
        .order_by(Drill.daily_date)
    )
    return [d for (d,) in rows if d is not None]


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
    db: Session,
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
    right = sum(a.correct for a in answers.values())
    seconds = sum(a.seconds for a in answers.values())
    run = streak(completed_dailies(db, player_id), date)
    clock = f"{int(seconds) // 60}:{int(seconds) % 60:02d}"
    summary |= {
        "complete": True,
        "score": right,
        "seconds": round(seconds, 1),
        "streak": run,
        "share": f"Cribbage count {date}\n{marks} {right}/{len(dealt)} in {clock}\nStreak {run}",
    }
    return summary
