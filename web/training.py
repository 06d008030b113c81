"""Drills as stored things: deal one to a player, deal the daily set, record an answer.

The cards and the verdict come from :mod:`trainer.dealing` and :mod:`trainer.grading`; this
module only keeps them.
These are the hot paths of the trainer, so they use SQLAlchemy Core statements (a few
indexed queries, one commit per request) rather than the ORM's unit of work, run on the
session's connection (``Session.execute`` adds ORM bookkeeping: ~70 us a statement).
"""

from __future__ import annotations

import datetime
import functools
import random
import time
from typing import Any, cast

from sqlalchemy import Row, Table, bindparam, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from trainer import dealing, weak_spots
from trainer.dealing import Category, Deal, Difficulty, DrillKind
from trainer.errors import InvalidAnswerError
from trainer.grading import Grade, grade
from trainer.weak_spots import Tally

from .db import write_lock
from .models import Answer, Drill, Skill

REVIEW_AFTER = (120.0, 1800.0, 86400.0, 4 * 86400.0)
"""Seconds until a missed deal comes back, by how often it was dealt before."""
_MAX_SECONDS = 600.0
FASTEST_ANSWER = 0.25
"""Seconds below which a page's answer time is refused: about the fastest simple reaction to
something seen (0.2-0.25 s), before a single card is even read; faster is a script or a bug,
and would skew the player's speed figures."""
_MAX_ID = 2**31 - 1
"""The largest id an ``INTEGER`` key holds everywhere (32 bits in PostgreSQL)."""

DRILLS = cast(Table, Drill.__table__)
ANSWERS = cast(Table, Answer.__table__)
SKILLS = cast(Table, Skill.__table__)

# Statements built once: a request only binds parameters to them.
_INSERT_DRILL = insert(DRILLS).returning(*DRILLS.c)
_INSERT_ANSWER = insert(ANSWERS)
_GET_DRILL = select(DRILLS).where(DRILLS.c.id == bindparam("id"))
_TALLIES = select(SKILLS.c.category, SKILLS.c.seen, SKILLS.c.missed, SKILLS.c.seconds).where(
    SKILLS.c.player_id == bindparam("player_id")
)
_DUE = (
    select(ANSWERS.c.id.label("answer_id"), DRILLS)
    .join(DRILLS, DRILLS.c.id == ANSWERS.c.drill_id)
    .where(ANSWERS.c.player_id == bindparam("player_id"), ANSWERS.c.review_at <= bindparam("now"))
    .where(DRILLS.c.kind == bindparam("kind"))
    .order_by(ANSWERS.c.review_at)
    .limit(1)
)
_UNQUEUE = update(ANSWERS).where(ANSWERS.c.id == bindparam("answer_id")).values(review_at=None)


def today() -> str:
    """Today's date (UTC) as ``YYYY-MM-DD``."""
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def drill_json(drill: Row[Any]) -> dict[str, Any]:
    """What a page needs to show a drill: its id, its cards, and how it was dealt."""
    return {
        "id": drill.id,
        **drill.deal,
        "mode": drill.mode,
        "difficulty": drill.difficulty,
        "position": drill.position,
    }


def _drill_values(
    player_id: int, deal: Deal, mode: str, difficulty: Difficulty, **extra: Any
) -> dict[str, Any]:
    categories = ",".join(sorted(c.value for c in dealing.classify(deal)))
    return {
        "player_id": player_id,
        "kind": deal.kind,
        "mode": mode,
        "difficulty": difficulty.value,
        "deal": deal.to_json(),
        "categories": categories,
        "dealt_at": time.time(),
        "daily_date": None,
        "position": None,
        "repeat": 0,
    } | extra


def tallies(db: Session, player_id: int) -> dict[Category, Tally]:
    """The player's running tally per category."""
    rows = db.connection().execute(_TALLIES, {"player_id": player_id})
    return {Category(c): Tally(seen, missed, seconds) for c, seen, missed, seconds in rows}


def deal_next(
    db: Session,
    player_id: int,
    kind: DrillKind,
    difficulty: Difficulty,
    mode: str = "practice",
    rng: random.Random | None = None,
) -> Row[Any]:
    """Deal and store the player's next drill of ``kind``.

    In practice a missed deal that is due comes back first; otherwise the deal aims at the
    player's weak spots (:func:`trainer.weak_spots.choose_focus`).

    Raises:
        sqlalchemy.exc.IntegrityError: when the player does not exist.
    """
    rng = rng or random.Random()
    due = _due_review(db, player_id, kind) if mode == "practice" else None
    if due is None:
        focus = weak_spots.choose_focus(kind, tallies(db, player_id), rng)
        deal = dealing.deal(kind, rng, difficulty, focus)
        values = _drill_values(player_id, deal, mode, difficulty)
    else:
        answer_id, values = due
    with write_lock(db):
        if due is not None:
            db.connection().execute(_UNQUEUE, {"answer_id": answer_id})
        drill = db.connection().execute(_INSERT_DRILL, values).one()
        db.commit()
    return drill


def _due_review(db: Session, player_id: int, kind: str) -> tuple[int, dict[str, Any]] | None:
    """The answer id and a new deal of the oldest missed deal of ``kind`` that is due again."""
    now = time.time()
    due = db.connection().execute(_DUE, {"player_id": player_id, "now": now, "kind": kind}).first()
    if due is None:
        return None
    old = due._mapping
    repeat = {"mode": "review", "dealt_at": now, "repeat": old["repeat"] + 1}
    return due.answer_id, {c.name: old[c] for c in DRILLS.c if c.name != "id"} | repeat


def get_drill(db: Session, drill_id: int) -> Row[Any] | None:
    """The drill with this id, if any (none for an id no key can hold)."""
    if not 0 < drill_id <= _MAX_ID:
        return None
    return db.connection().execute(_GET_DRILL, {"id": drill_id}).first()


def daily_set(db: Session, player_id: int, date: str) -> list[Row[Any]]:
    """The player's drills for the daily challenge of ``date``, dealt on first visit.

    Raises:
        sqlalchemy.exc.IntegrityError: when the player does not exist.
    """
    query = select(DRILLS).where(DRILLS.c.player_id == player_id, DRILLS.c.daily_date == date)
    existing = list(db.connection().execute(query.order_by(DRILLS.c.position)))
    if existing:
        return existing
    deals = zip(_daily_deals(date), dealing.DAILY_LEVELS, strict=True)
    rows = [
        _drill_values(player_id, deal, "daily", level, daily_date=date, position=position)
        for position, (deal, level) in enumerate(deals)
    ]
    with write_lock(db):
        db.connection().execute(insert(DRILLS), rows)
        db.commit()
    return list(db.connection().execute(query.order_by(DRILLS.c.position)))


@functools.lru_cache(maxsize=4)
def _daily_deals(date: str) -> tuple[Deal, ...]:
    """The daily challenge's deals: the same for every player, so dealt once per date.

    The API opens yesterday's, today's and tomorrow's.
    """
    return tuple(dealing.daily(date))


def answered(db: Session, drill_ids: list[int]) -> dict[int, Row[Any]]:
    """The answers to these drills, by drill id."""
    rows = db.connection().execute(select(ANSWERS).where(ANSWERS.c.drill_id.in_(drill_ids)))
    return {a.drill_id: a for a in rows}


def record_answer(db: Session, drill: Row[Any], given: dict[str, Any]) -> tuple[Grade, float]:
    """Grade ``given`` against the engine, store it with the tallies and commit.

    Returns:
        The verdict and the seconds the answer took.

    Raises:
        InvalidAnswerError: for a malformed answer (nothing is stored).
        sqlalchemy.exc.IntegrityError: when the drill already has an answer.
    """
    verdict = grade(Deal.from_json(drill.deal), given)
    now = time.time()
    seconds = min(now - drill.dealt_at, _MAX_SECONDS, _shown_for(given))
    review_at = None
    if not verdict.correct and drill.mode != "daily":
        review_at = now + REVIEW_AFTER[min(drill.repeat, len(REVIEW_AFTER) - 1)]
    missed = sorted(c.value for c in verdict.missed_categories)
    answer = {
        "drill_id": drill.id,
        "player_id": drill.player_id,
        "kind": drill.kind,
        "correct": verdict.correct,
        "claimed": verdict.claimed,
        "total": verdict.total,
        "seconds": seconds,
        "answered_at": now,
        "day": datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat(),
        "given": _checked_fields(drill.kind, given),
        "missed": ",".join(missed),
        "review_at": review_at,
    }
    added = _skill_rows(
        drill.player_id,
        weak_spots.tally([(_categories(drill.categories), verdict.missed_categories, seconds)]),
    )
    with write_lock(db):
        db.connection().execute(_INSERT_ANSWER, answer)
        if added:
            db.connection().execute(_skills_upsert(db), added)
        db.commit()
    return verdict, seconds


def _shown_for(given: dict[str, Any]) -> float:
    """Seconds the page says the drill was on screen (``"seconds"``), or no limit.

    The server's clock runs from the deal; a daily challenge is dealt all at once, so the
    page's own timer is what separates its six answers. It can only shorten the server's.

    Raises:
        InvalidAnswerError: when ``"seconds"`` is given but is not a number.
    """
    shown = given.get("seconds")
    if shown is None:
        return _MAX_SECONDS
    if isinstance(shown, bool) or not isinstance(shown, int | float):
        raise InvalidAnswerError(f"'seconds' must be a number, got {shown!r}")
    if shown < FASTEST_ANSWER:
        raise InvalidAnswerError(
            f"That was too fast: under {FASTEST_ANSWER:g} seconds after the deal, before anyone "
            "could count the cards. Count them, then answer."
        )
    return float(shown)


def _checked_fields(kind: str, given: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``given`` that the grading and the API checked: what is stored.

    They are the answer its kind is graded on (a discard with its crib model), ``seconds`` and
    ``muggins``; anything else a client sent is not stored.
    """
    if kind == "discard":
        answer: tuple[str, ...] = ("discard", "crib_model")
    elif kind in ("hand", "crib") and given.get("by_kind") is not None:
        answer = ("by_kind",)
    else:
        answer = ("points",)
    return {name: given[name] for name in (*answer, "seconds", "muggins") if name in given}


def _skills_upsert(db: Session) -> Any:
    """``INSERT … ON CONFLICT DO UPDATE`` adding to a player's tallies (SQLite, PostgreSQL)."""
    return _upsert_for(db.get_bind().dialect.name)


@functools.cache
def _upsert_for(dialect_name: str) -> Any:
    dialect = sqlite if dialect_name == "sqlite" else postgresql
    statement = dialect.insert(SKILLS)
    return statement.on_conflict_do_update(
        index_elements=[SKILLS.c.player_id, SKILLS.c.category],
        set_={
            "seen": SKILLS.c.seen + statement.excluded.seen,
            "missed": SKILLS.c.missed + statement.excluded.missed,
            "seconds": SKILLS.c.seconds + statement.excluded.seconds,
        },
    )


def _categories(text: str) -> list[Category]:
    return [Category(c) for c in text.split(",") if c]


def rebuild_skills(db: Session, player_id: int) -> None:
    """Recount the player's tallies from their stored answers (after merging a guest)."""
    rows = db.connection().execute(
        select(DRILLS.c.categories, ANSWERS.c.missed, ANSWERS.c.seconds)
        .join(ANSWERS, ANSWERS.c.drill_id == DRILLS.c.id)
        .where(ANSWERS.c.player_id == player_id)
    )
    totals = weak_spots.tally(
        (_categories(present), _categories(missed), seconds) for present, missed, seconds in rows
    )
    db.connection().execute(delete(SKILLS).where(SKILLS.c.player_id == player_id))
    if totals:
        db.connection().execute(insert(SKILLS), _skill_rows(player_id, totals))


def _skill_rows(player_id: int, totals: dict[Category, Tally]) -> list[dict[str, Any]]:
    """``skills`` rows for the player's tallies."""
    return [
        {"player_id": player_id, "category": c.value}
        | {"seen": t.seen, "missed": t.missed, "seconds": t.seconds}
        for c, t in totals.items()
    ]
