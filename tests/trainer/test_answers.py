"""An answer's rules: its time, what is kept of it, when a missed deal comes back."""

from __future__ import annotations

import random

import pytest

from trainer import answers
from trainer.dealing import Deal, deal
from trainer.errors import InvalidAnswerError


@pytest.fixture
def hand() -> Deal:
    return deal("hand", random.Random("answers"))


def test_the_time_is_the_shortest_of_the_servers_the_pages_and_the_cap(hand: Deal) -> None:
    right = {"points": hand.breakdown().total}
    assert answers.mark(hand, right, dealt_at=0, now=30, repeat=0).seconds == 30
    assert answers.mark(hand, right | {"seconds": 12}, dealt_at=0, now=30, repeat=0).seconds == 12
    assert answers.mark(hand, right, dealt_at=0, now=5000, repeat=0).seconds == answers.MAX_SECONDS


@pytest.mark.parametrize("seconds", [0.1, "3", True])
def test_an_unbelievable_time_is_refused(hand: Deal, seconds: object) -> None:
    with pytest.raises(InvalidAnswerError):
        answers.mark(hand, {"points": 2, "seconds": seconds}, dealt_at=0, now=9, repeat=0)


def test_a_miss_comes_back_later_each_time_but_never_in_the_daily(hand: Deal) -> None:
    wrong = {"points": hand.breakdown().total + 1}
    due = [
        answers.mark(hand, wrong, dealt_at=0, now=100, repeat=repeat).review_at
        for repeat in range(6)
    ]
    assert (
        due
        == [100 + after for after in answers.REVIEW_AFTER] + [100 + answers.REVIEW_AFTER[-1]] * 2
    )
    assert answers.mark(hand, wrong, dealt_at=0, now=100, repeat=0, daily=True).review_at is None
    right = {"points": hand.breakdown().total}
    assert answers.mark(hand, right, dealt_at=0, now=100, repeat=0).review_at is None


def test_only_the_checked_fields_are_kept() -> None:
    given = {"points": 4, "by_kind": {"fifteen": 4}, "discard": ["5H"], "seconds": 3, "x": 1}
    assert answers.checked_fields("hand", given) == {"by_kind": {"fifteen": 4}, "seconds": 3}
    assert answers.checked_fields("pegging", given) == {"points": 4, "seconds": 3}
    assert answers.checked_fields("discard", given | {"muggins": True}) == {
        "discard": ["5H"],
        "seconds": 3,
        "muggins": True,
    }
