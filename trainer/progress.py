"""A player's progress in numbers: days, daily results, streaks, sprints, weekly trends.

Pure arithmetic on what a player answered (the records' queries hand it the rows): the same
figures for the web pages and the terminal.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable, Mapping, Sequence

from .dealing import DAILY_KINDS, Category
from .weak_spots import Tally, tally

STREAK_GRACE_DAYS = 1
"""A gentle streak: one missed day between two daily challenges does not break it."""
SPRINT_SECONDS = 180
"""How long a sprint lasts."""
SPRINT_PENALTY = 10
"""Seconds a wrong count costs in a sprint."""
WEAK_AFTER = 5
"""Answers in a category before it can be called a weak spot: one wrong answer is not one."""


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


def share_line(result: DailyResult, marks: Iterable[bool], streak_days: int) -> str:
    """A daily challenge's result to share, spoiling no deal.

    >>> print(share_line(DailyResult("2026-11-28", 6, 5, 102.0), [True] * 5 + [False], 3))
    Cribbage count 2026-11-28
    🟩🟩🟩🟩🟩🟥 5/6 in 1:42
    Streak 3
    """
    squares = "".join("🟩" if right else "🟥" for right in marks)
    return f"Cribbage count {result.date}\n{squares} {result}\nStreak {streak_days}"


def completed(results: Mapping[str, DailyResult]) -> list[str]:
    """The dates of the daily challenges finished, in the order of ``results``."""
    return [date for date, result in results.items() if result.complete]


def streak(completed: Sequence[str], today: str) -> int:
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


def best_streak(completed: Sequence[str]) -> int:
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


def ranked(tallies: Mapping[Category, Tally]) -> list[tuple[Category, Tally]]:
    """The categories, most missed (by rate) first; ties by name.

    >>> ranked({Category.NOBS: Tally(4, 1, 8.0), Category.FLUSH: Tally(2, 1, 3.0)})[0][0].value
    'flush'
    """
    return sorted(
        tallies.items(),
        key=lambda pair: (-(pair[1].missed / pair[1].seen if pair[1].seen else 0), pair[0].value),
    )


def weak_spots(ranked: Sequence[tuple[Category, Tally]]) -> list[tuple[Category, Tally]]:
    """The weak spots among :func:`ranked`: missed, and answered :data:`WEAK_AFTER` times or more.

    Most missed first.

    >>> weak_spots([(Category.NOBS, Tally(1, 1, 2.0)), (Category.FLUSH, Tally(6, 2, 9.0))])
    [(<Category.FLUSH: 'flush'>, Tally(seen=6, missed=2, seconds=9.0))]
    """
    return [(c, t) for c, t in ranked if t.missed and t.seen >= WEAK_AFTER]


def weakest(ranked: Sequence[tuple[Category, Tally]]) -> tuple[Category, Tally] | None:
    """The category to practise next: the first of :func:`weak_spots`, if any."""
    return next(iter(weak_spots(ranked)), None)


@dataclasses.dataclass(frozen=True)
class SprintRun:
    """One sprint: when it started and how many hands were counted right."""

    day: str
    started: float
    right: int
    answered: int


def sprint_runs(
    answers: Iterable[tuple[float, bool, str, bool]], seconds: float
) -> list[SprintRun]:
    """Sprint answers (``(dealt_at, correct, day, first)``, in the order dealt) in sprints.

    A sprint is not stored as such: its drills are the sprint drills dealt within ``seconds``
    (the sprint's length) of the first one, or up to the next one dealt as a sprint's
    ``first`` (a sprint played again at once, its clock cut short by misses).

    >>> answers = [(0, True, "d", True), (10, True, "d", False), (20, False, "d", True)]
    >>> [r.right for r in sprint_runs([*answers, (500, False, "d", False)], 180)]
    [2, 0, 0]
    """
    runs: list[SprintRun] = []
    for dealt_at, correct, day, first in answers:
        last = runs[-1] if runs else None
        if last is None or first or dealt_at - last.started > seconds:
            runs.append(SprintRun(day, dealt_at, int(correct), 1))
        else:
            runs[-1] = dataclasses.replace(
                last, right=last.right + int(correct), answered=last.answered + 1
            )
    return runs


def best_sprint(runs: Sequence[SprintRun]) -> SprintRun | None:
    """The sprint with the most hands counted right (the first of equals), if any scored.

    >>> best_sprint([SprintRun("d1", 0, 4, 5), SprintRun("d2", 9, 6, 9), SprintRun("d3", 99, 6, 6)])
    SprintRun(day='d2', started=9, right=6, answered=9)
    """
    scored = [r for r in runs if r.right]
    return max(scored, key=lambda r: (r.right, -r.started)) if scored else None


def personal_bests(runs: Sequence[SprintRun]) -> list[SprintRun]:
    """Each sprint that beat every one before it, the latest record first."""
    records: list[SprintRun] = []
    for run in runs:
        if run.right and (not records or run.right > records[-1].right):
            records.append(run)
    return records[::-1]


def next_daily_in(now: float, utc_offset: int = 0) -> str:
    """How long from ``now`` until the next daily challenge, in players' words.

    It comes at midnight ``utc_offset`` minutes behind UTC (``getTimezoneOffset``); hours are
    said to the nearest, less than one in minutes.

    >>> next_daily_in(19 * 3600 + 60), next_daily_in(23 * 3600, 60), next_daily_in(86390)
    ('next in 5 h', 'next in 2 h', 'next in under a minute')
    """
    seconds = 86400 - (now - 60 * utc_offset) % 86400
    if seconds >= 3600:
        return f"next in {round(seconds / 3600)} h"
    if seconds >= 60:
        return f"next in {int(seconds // 60)} min"
    return "next in under a minute"


def week_of(day: str) -> str:
    """The Monday of ``day``'s week (``YYYY-MM-DD``).

    >>> week_of("2026-11-25")
    '2026-11-23'
    """
    date = datetime.date.fromisoformat(day)
    return (date - datetime.timedelta(days=date.weekday())).isoformat()


def weeks_before(monday: str, weeks: int) -> str:
    """The Monday ``weeks`` weeks before ``monday``.

    >>> weeks_before("2026-11-23", 2)
    '2026-11-09'
    """
    return (datetime.date.fromisoformat(monday) - datetime.timedelta(weeks=weeks)).isoformat()


def weekly_tallies(
    answers: Iterable[tuple[str, Sequence[Category], Sequence[Category], float]],
) -> dict[Category, dict[str, Tally]]:
    """Per category, a tally for each week (by its Monday), weeks in order.

    ``answers`` are ``(day, categories present, categories missed, seconds)``.
    """
    by_week: dict[str, list[tuple[Sequence[Category], Sequence[Category], float]]] = {}
    for day, present, missed, seconds in answers:
        by_week.setdefault(week_of(day), []).append((present, missed, seconds))
    trends: dict[Category, dict[str, Tally]] = {}
    for week in sorted(by_week):
        for category, counted in tally(by_week[week]).items():
            trends.setdefault(category, {})[week] = counted
    return trends


@dataclasses.dataclass(frozen=True)
class Trend:
    """One category's weeks: the share right (%) and seconds per answer, oldest week first."""

    category: Category
    weeks: tuple[str, ...]
    accuracy: tuple[float, ...]
    seconds: tuple[float, ...]
    answers: int

    @classmethod
    def of(cls, category: Category, weeks: Mapping[str, Tally]) -> Trend:
        """The trend of ``category`` from its weekly tallies."""
        return cls(
            category,
            tuple(weeks),
            tuple(100 * (1 - t.missed / t.seen) for t in weeks.values()),
            tuple(t.seconds / t.seen for t in weeks.values()),
            sum(t.seen for t in weeks.values()),
        )
