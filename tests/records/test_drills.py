"""Drills in the records, without Flask: dealt, answered by the rules of answering (issue
house3, section 3), read back as frozen dataclasses."""

from __future__ import annotations

import dataclasses
import random

import pytest
from sqlalchemy import Connection, func, select

from records import drills, players
from records.errors import AlreadyAnswered, DrillExpired, DrillNotFound, NotYourDrill
from records.models import Answer
from trainer.dealing import Deal, Difficulty
from trainer.errors import InvalidAnswerError
from trainer.grading import grade

from .conftest import NOW


def _hand(db: Connection, player_id: int, now: float = NOW) -> drills.DealtDrill:
    return drills.deal_next(
        db, player_id, "hand", Difficulty.STANDARD, rng=random.Random(7), now=now, per_minute=0
    )


def _right(drill: drills.DealtDrill) -> dict[str, object]:
    return {"points": grade(Deal.from_json(drill.deal), {"points": 0}).total, "seconds": 4}


def _answers(db: Connection) -> int:
    return int(db.execute(select(func.count(Answer.id))).scalar_one())


def test_a_drill_dealt_is_a_frozen_record_and_comes_back_until_answered(
    db: Connection, guest: int
) -> None:
    drill = _hand(db, guest)
    assert isinstance(drill, drills.DealtDrill) and drill.player_id == guest
    with pytest.raises(dataclasses.FrozenInstanceError):
        drill.mode = "sprint"  # type: ignore[misc]
    assert _hand(db, guest, NOW + 5) == drill == drills.get_drill(db, drill.id)


def test_an_answer_is_taken_once_from_the_player_it_was_dealt_to(
    db: Connection, guest: int
) -> None:
    drill = _hand(db, guest)
    taken = drills.answer(db, drill.id, guest, _right(drill), day="2027-01-15", now=NOW + 9)
    assert taken.drill == drill and taken.marked.grade.correct and taken.marked.seconds == 4
    assert drills.answered(db, [drill.id]) == {drill.id: drills.GivenAnswer(drill.id, True, 4)}
    with pytest.raises(AlreadyAnswered, match=f"drill {drill.id} is already answered"):
        drills.answer(db, drill.id, guest, _right(drill), day="2027-01-15", now=NOW + 10)
    assert _answers(db) == 1


@pytest.mark.parametrize("asker", ["another", "nobody"])
def test_another_players_drill_is_refused(db: Connection, guest: int, asker: str) -> None:
    drill = _hand(db, guest)
    other = int(players.new_guest(db, NOW).id) if asker == "another" else None
    with pytest.raises(NotYourDrill, match="dealt to another player"):
        drills.answer(db, drill.id, other, _right(drill), day="2027-01-15", now=NOW + 9)
    assert _answers(db) == 0


@pytest.mark.parametrize("drill_id", [0, 999, 2**40])
def test_no_such_drill(db: Connection, guest: int, drill_id: int) -> None:
    with pytest.raises(DrillNotFound, match=f"no drill {drill_id}"):
        drills.answer(db, drill_id, guest, {"points": 2}, day="2027-01-15", now=NOW)


def test_a_drill_expires_a_day_after_its_deal_unless_answered(db: Connection, guest: int) -> None:
    """Past :data:`records.drills.EXPIRES_AFTER` an unanswered drill has expired; one answered
    in time says so (the client retrying an answer it did not hear back about)."""
    late = NOW + drills.EXPIRES_AFTER + 1
    left, done = _hand(db, guest), _hand(db, guest)
    with pytest.raises(DrillExpired, match="expired"):
        drills.answer(db, left.id, guest, _right(left), day="2027-01-16", now=late)
    drills.answer(db, done.id, guest, _right(done), day="2027-01-15", now=NOW + 3)
    with pytest.raises(AlreadyAnswered):
        drills.answer(db, done.id, guest, _right(done), day="2027-01-16", now=late)


def test_a_malformed_answer_stores_nothing(db: Connection, guest: int) -> None:
    drill = _hand(db, guest)
    with pytest.raises(InvalidAnswerError):
        drills.answer(db, drill.id, guest, {"points": "many"}, day="2027-01-15", now=NOW + 2)
    assert _answers(db) == 0


def test_the_daily_set_is_dealt_once(db: Connection, guest: int) -> None:
    first = drills.daily_set(db, guest, "2027-01-15", NOW)
    assert [d.position for d in first] == list(range(6))
    assert drills.daily_set(db, guest, "2027-01-15", NOW + 60) == first
