"""Progress figures: the gentle streak, sprints and records, weekly trends, the share line."""

from __future__ import annotations

import pytest

from trainer import progress
from trainer.dealing import Category
from trainer.progress import DailyResult, SprintRun, Trend
from trainer.weak_spots import Tally


@pytest.mark.parametrize(
    ("completed", "today", "run"),
    [
        ([], "2026-11-22", 0),
        (["2026-11-22"], "2026-11-22", 1),
        (["2026-11-21"], "2026-11-22", 1),
        (["2026-11-20"], "2026-11-22", 1),  # one day missed: still on
        (["2026-11-19"], "2026-11-22", 0),  # two days missed: over
        (["2026-11-17", "2026-11-19", "2026-11-20", "2026-11-22"], "2026-11-22", 4),
        (["2026-11-10", "2026-11-13", "2026-11-14"], "2026-11-15", 2),
    ],
)
def test_gentle_streak(completed: list[str], today: str, run: int) -> None:
    """A streak survives one missed day between daily challenges."""
    assert progress.streak(completed, today) == run


def test_best_streak_counts_the_longest_run_with_the_grace_day() -> None:
    completed = ["2026-11-01", "2026-11-03", "2026-11-04", "2026-11-10", "2026-11-11"]
    assert progress.best_streak(completed) == 3
    assert progress.best_streak([]) == 0


def test_a_sprint_is_the_answers_dealt_within_its_length_of_its_first() -> None:
    answers = [
        (0.0, True, "d1", True),
        (170.0, True, "d1", False),
        (181.0, False, "d1", False),
        (400.0, True, "d2", False),
    ]
    runs = progress.sprint_runs(answers, 180)
    assert runs == [
        SprintRun("d1", 0.0, 2, 2),
        SprintRun("d1", 181.0, 0, 1),
        SprintRun("d2", 400.0, 1, 1),
    ]


def test_a_sprint_played_again_at_once_is_a_sprint_of_its_own() -> None:
    """Misses cut a sprint's clock short: the next one, begun within its length of the first,
    starts at its own first hand (issue players2, 2: the best must be this sprint's)."""
    answers = [(0.0, True, "d", True), (60.0, True, "d", False), (130.0, False, "d", True)]
    assert [r.right for r in progress.sprint_runs(answers, 180)] == [2, 0]


def test_best_sprint_is_the_most_right_the_first_of_equals() -> None:
    runs = [SprintRun("d1", 0.0, 4, 5), SprintRun("d2", 9.0, 6, 9), SprintRun("d3", 20.0, 6, 6)]
    assert progress.best_sprint(runs) == runs[1]
    assert progress.best_sprint([SprintRun("d", 0.0, 0, 3)]) is None


def test_next_daily_in_players_words() -> None:
    assert progress.next_daily_in(18 * 3600 + 60) == "next in 6 h"
    assert progress.next_daily_in(86400 - 61) == "next in 1 min"
    assert progress.next_daily_in(21 * 3600, utc_offset=-120) == "next in 1 h"  # UTC+2: 23:00


def test_personal_bests_are_each_sprint_that_beat_all_before_latest_first() -> None:
    runs = [SprintRun("d", float(i), right, right) for i, right in enumerate([3, 2, 5, 5, 7, 0])]
    assert [r.right for r in progress.personal_bests(runs)] == [7, 5, 3]


def test_weekly_tallies_group_answers_by_monday_in_order() -> None:
    nobs, flush = Category.NOBS, Category.FLUSH
    answers = [
        ("2026-11-25", [nobs], [nobs], 4.0),
        ("2026-11-17", [nobs, flush], [], 2.0),
        ("2026-11-23", [nobs], [], 6.0),
    ]
    weeks = progress.weekly_tallies(answers)
    assert list(weeks[nobs]) == ["2026-11-16", "2026-11-23"]
    assert weeks[nobs]["2026-11-23"] == Tally(2, 1, 10.0)
    trend = Trend.of(nobs, weeks[nobs])
    assert trend.accuracy == (100.0, 50.0) and trend.seconds == (2.0, 5.0) and trend.answers == 3


def test_the_share_line_spoils_nothing() -> None:
    result = DailyResult("2026-11-28", 6, 4, 75.0)
    line = progress.share_line(result, [True, False, True, True, False, True], 2)
    assert line == "Cribbage count 2026-11-28\n🟩🟥🟩🟩🟥🟩 4/6 in 1:15\nStreak 2"
    assert str(DailyResult("2026-11-28", 2, 2, 10.0)) == "2 of 6 answered"


def test_ranked_puts_the_most_missed_first_and_weakest_needs_a_miss() -> None:
    tallies = {Category.NOBS: Tally(10, 1, 5.0), Category.FLUSH: Tally(6, 3, 5.0)}
    ranked = progress.ranked(tallies)
    assert [c for c, _ in ranked] == [Category.FLUSH, Category.NOBS]
    assert progress.weakest(ranked) == (Category.FLUSH, Tally(6, 3, 5.0))
    assert progress.weakest(progress.ranked({Category.NOBS: Tally(8, 0, 1.0)})) is None


def test_one_wrong_answer_is_not_a_weak_spot() -> None:
    """A category is weak only after :data:`WEAK_AFTER` answers (issue players2, 2)."""
    once = progress.ranked({Category.CRIB_FLUSH: Tally(1, 1, 3.0)})
    assert progress.weakest(once) is None and progress.weak_spots(once) == []
    often = progress.ranked({Category.CRIB_FLUSH: Tally(progress.WEAK_AFTER, 1, 3.0)})
    assert progress.weakest(often) == (Category.CRIB_FLUSH, Tally(progress.WEAK_AFTER, 1, 3.0))
