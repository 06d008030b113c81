"""Drills as stored things: deal one to a player, deal the daily set, record an answer.

The cards and the verdict come from :mod:`trainer.drills`; this module only keeps them.
"""

from __future__ import annotations

import datetime
import random
import time
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from trainer import drills
from trainer.drills import Category, Deal, Difficulty, Grade, Tally

from .models import Answer, Drill, Skill

REVIEW_AFTER = (120.0, 1800.0, 86400.0, 4 * 86400.0)
"""Seconds until a missed deal comes back, by how often it was dealt before."""
_MAX_SECONDS = 600.0


def today() -> str:
    """Today's date (UTC) as ``YYYY-MM-DD``."""
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def drill_json(drill: Drill) -> dict[str, Any]:
    """What a page needs to show a drill: its id, its cards, and how it was dealt."""
    return {
        "id": drill.id,
        **drill.deal,
        "mode": drill.mode,
        "difficulty": drill.difficulty,
        "position": drill.position,
    }


def _new_drill(
    player_id: int, deal: Deal, mode: str, difficulty: Difficulty, **extra: Any
) -> Drill:
    categories = ",".join(sorted(c.value for c in drills.classify(deal)))
    return Drill(
        player_id=player_id,
        kind=deal.kind,
        mode=mode,
        difficulty=difficulty.value,
        deal=deal.to_json(),
        categories=categories,
        dealt_at=time.time(),
        **extra,
    )


def tallies(db: Session, player_id: int) -> dict[Category, Tally]:
    """The player's running tally per category."""
    rows = db.scalars(select(Skill).where(Skill.player_id == player_id))
    return {Category(s.category): Tally(s.seen, s.missed, s.seconds) for s in rows}


def deal_next(
    db: Session,
    player_id: int,
    kind: drills.DrillKind,
    difficulty: Difficulty,
    mode: str = "practice",
    rng: random.Random | None = None,
) -> Drill:
    """Deal and store the player's next drill of ``kind``.

    In practice a missed deal that is due comes back first; otherwise the deal aims at the
    player's weak spots (:func:`trainer.drills.choose_focus`).
    """
    rng = rng or random.Random()
    drill = _due_review(db, player_id, kind) if mode == "practice" else None
    if drill is None:
        focus = drills.choose_focus(kind, tallies(db, player_id), rng)
        drill = _new_drill(player_id, drills.deal(kind, rng, difficulty, focus), mode, difficulty)
    db.add(drill)
    db.commit()
    return drill


def _due_review(db: Session, player_id: int, kind: str) -> Drill | None:
    """The oldest missed deal of ``kind`` that is due again, re-dealt (or ``None``)."""
    due = db.execute(
        select(Answer, Drill)
        .join(Drill, Drill.id == Answer.drill_id)
        .where(Answer.player_id == player_id, Answer.review_at <= time.time())
        .where(Drill.kind == kind)
        .order_by(Answer.review_at)
        .limit(1)
    ).first()
    if due is None:
        return None
    answer, old = due
    answer.review_at = None
    return Drill(
        player_id=player_id,
        kind=old.kind,
        mode="review",
        difficulty=old.difficulty,
        deal=old.deal,
        categories=old.categories,
        dealt_at=time.time(),
        repeat=old.repeat + 1,
    )


def daily_set(db: Session, player_id: int, date: str) -> list[Drill]:
    """The player's drills for the daily challenge of ``date``, dealt on first visit."""
    query = select(Drill).where(Drill.player_id == player_id, Drill.daily_date == date)
    existing = list(db.scalars(query.order_by(Drill.position)))
    if existing:
        return existing
    deals = zip(drills.daily(date), drills.DAILY_LEVELS, strict=True)
    dealt = [
        _new_drill(player_id, deal, "daily", level, daily_date=date, position=i)
        for i, (deal, level) in enumerate(deals)
    ]
    db.add_all(dealt)
    db.commit()
    return dealt


def answered(db: Session, drill_ids: list[int]) -> dict[int, Answer]:
    """The answers to these drills, by drill id."""
    rows = db.scalars(select(Answer).where(Answer.drill_id.in_(drill_ids)))
    return {a.drill_id: a for a in rows}


def record_answer(db: Session, drill: Drill, given: dict[str, Any]) -> tuple[Grade, Answer]:
    """Grade ``given`` against the engine, store it with the tallies, and commit.

    :raises ValueError: for a malformed answer (nothing is stored).
    """
    grade = drills.grade(Deal.from_json(drill.deal), given)
    now = time.time()
    seconds = min(now - drill.dealt_at, _MAX_SECONDS)
    review_at = None
    if not grade.correct and drill.mode != "daily":
        review_at = now + REVIEW_AFTER[min(drill.repeat, len(REVIEW_AFTER) - 1)]
    answer = Answer(
        drill_id=drill.id,
        player_id=drill.player_id,
        kind=drill.kind,
        correct=grade.correct,
        claimed=grade.claimed,
        total=grade.total,
        seconds=seconds,
        answered_at=now,
        day=datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat(),
        given=given,
        review_at=review_at,
    )
    db.add(answer)
    _add_to_skills(db, drill.player_id, drill.categories.split(","), grade.correct, seconds)
    db.commit()
    return grade, answer


def _add_to_skills(
    db: Session, player_id: int, categories: list[str], correct: bool, seconds: float
) -> None:
    categories = [c for c in categories if c]
    if not categories:
        return
    query = select(Skill).where(Skill.player_id == player_id, Skill.category.in_(categories))
    skills = {s.category: s for s in db.scalars(query)}
    for category in categories:
        skill = skills.get(category)
        if skill is None:
            skill = Skill(player_id=player_id, category=category, seen=0, missed=0, seconds=0.0)
            db.add(skill)
        skill.seen += 1
        skill.missed += not correct
        skill.seconds += seconds


def rebuild_skills(db: Session, player_id: int) -> None:
    """Recount the player's tallies from their stored answers (after merging a guest)."""
    rows = db.execute(
        select(Drill.categories, Answer.correct, Answer.seconds)
        .join(Answer, Answer.drill_id == Drill.id)
        .where(Answer.player_id == player_id)
    )
    totals = drills.tally(
        ([Category(c) for c in cats.split(",") if c], correct, seconds)
        for cats, correct, seconds in rows
    )
    db.execute(delete(Skill).where(Skill.player_id == player_id))
    db.add_all(
        Skill(
            player_id=player_id, category=c.value, seen=t.seen, missed=t.missed, seconds=t.seconds
        )
        for c, t in totals.items()
    )
