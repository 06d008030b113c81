"""The counting ratings as stored (:mod:`trainer.counting_rating`).

Each player's per kind of drill and overall, each deal class's difficulty, and the overall
rating day by day.

Ratings move inside the commit that stores an answer (:func:`records.drills.answer`): the
rows an answer moves are read locked (``FOR UPDATE`` on PostgreSQL; SQLite has one writer).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from typing import Any, cast

from sqlalchemy import Connection, Table, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from trainer import counting_rating
from trainer.counting_rating import OVERALL, Rated
from trainer.rating import Rating

from .models import Answer, DealRating, PlayerRating

RATINGS = cast(Table, PlayerRating.__table__)
DEALS = cast(Table, DealRating.__table__)
ANSWERS = cast(Table, Answer.__table__)
_GLICKO = ("rating", "deviation", "volatility")


@dataclasses.dataclass(frozen=True)
class Standing:
    """A player's counting ratings as the pages show them."""

    overall: Rating
    by_kind: dict[str, Rating]
    """The kinds the player has answered, each one's rating."""
    by_day: list[tuple[str, float]]
    """The overall rating at the end of each day answered, oldest first."""
    trend: float
    """How far the overall rating moved in the last :data:`counting_rating.TREND_DAYS` days."""

    @property
    def rated(self) -> bool:
        """Whether the player has answered anything since ratings began."""
        return bool(self.by_kind)


def _rating(row: Any) -> Rating:
    return Rating(row.rating, row.deviation, row.volatility)


def of_player(db: Connection, player_id: int) -> dict[str, Rating]:
    """The player's ratings by kind (and :data:`OVERALL`): only those an answer moved."""
    rows = db.execute(select(RATINGS).where(RATINGS.c.player_id == player_id))
    return {row.kind: _rating(row) for row in rows}


def difficulties(db: Connection, names: Iterable[str]) -> dict[str, Rating]:
    """The difficulties of these deal classes that answers have moved, by class."""
    rows = db.execute(select(DEALS).where(DEALS.c.deal_class.in_(sorted(set(names)))))
    return {row.deal_class: _rating(row) for row in rows}


def by_day(db: Connection, player_id: int, limit: int = 30) -> list[tuple[str, float]]:
    """The player's overall rating at the end of each of its last ``limit`` days, oldest first."""
    rated = (ANSWERS.c.player_id == player_id, ANSWERS.c.overall_rating.is_not(None))
    last = (
        select(func.max(ANSWERS.c.id).label("id"))
        .where(*rated)
        .group_by(ANSWERS.c.day)
        .order_by(ANSWERS.c.day.desc())
        .limit(limit)
        .subquery()
    )
    rows = db.execute(
        select(ANSWERS.c.day, ANSWERS.c.overall_rating)
        .join(last, last.c.id == ANSWERS.c.id)
        .order_by(ANSWERS.c.day)
    )
    return [(day, float(rating)) for day, rating in rows]


def standing(db: Connection, player_id: int, today: str) -> Standing:
    """The player's ratings, the overall one's days and its trend up to ``today``."""
    ratings = of_player(db, player_id)
    days = by_day(db, player_id)
    return Standing(
        overall=ratings.pop(OVERALL, Rating()),
        by_kind={kind: ratings[kind] for kind in counting_rating.RATED if kind in ratings},
        by_day=days,
        trend=counting_rating.trend(days, today),
    )


def rate_answer(
    connection: Connection, player_id: int, kind: str, deal_class: str, score: float
) -> Rated:
    """Move the player's ratings in ``kind`` and overall, and the deal class's, by an answer.

    To be called inside :func:`records.database.writing`, with the answer's own write.
    """
    held = connection.execute(
        select(RATINGS)
        .where(RATINGS.c.player_id == player_id, RATINGS.c.kind.in_((kind, OVERALL)))
        .with_for_update()
    )
    mine = {row.kind: (_rating(row), row.answers) for row in held}
    found = connection.execute(
        select(DEALS).where(DEALS.c.deal_class == deal_class).with_for_update()
    ).first()
    deal, deal_answers = (
        (counting_rating.seed(deal_class), 0) if found is None else (_rating(found), found.answers)
    )
    start = (Rating(), 0)
    (kind_before, kind_answers), (overall_before, overall_answers) = (
        mine.get(kind, start),
        mine.get(OVERALL, start),
    )
    rated = counting_rating.rate(kind_before, overall_before, deal, score)
    dialect = connection.dialect.name
    connection.execute(
        _upsert(RATINGS, dialect),
        [
            {"player_id": player_id, "kind": kind, **_values(rated.kind, kind_answers + 1)},
            {"player_id": player_id, "kind": OVERALL} | _values(rated.overall, overall_answers + 1),
        ],
    )
    connection.execute(
        _upsert(DEALS, dialect), {"deal_class": deal_class, **_values(rated.deal, deal_answers + 1)}
    )
    return rated


def _values(rating: Rating, answers: int) -> dict[str, float]:
    return {name: getattr(rating, name) for name in _GLICKO} | {"answers": answers}


@functools.cache
def _upsert(table: Table, dialect_name: str) -> Any:
    """``INSERT … ON CONFLICT DO UPDATE`` setting a rating (SQLite, PostgreSQL)."""
    dialect = sqlite if dialect_name == "sqlite" else postgresql
    statement = dialect.insert(table)
    changed = {name: statement.excluded[name] for name in (*_GLICKO, "answers")}
    return statement.on_conflict_do_update(
        index_elements=list(table.primary_key.columns), set_=changed
    )


def merge(connection: Connection, guest_id: int, player_id: int) -> None:
    """Give ``player_id`` the guest's ratings in the kinds it has none of (inside a write)."""
    taken = select(RATINGS.c.kind).where(RATINGS.c.player_id == player_id)
    connection.execute(
        update(RATINGS)
        .where(RATINGS.c.player_id == guest_id, RATINGS.c.kind.not_in(taken))
        .values(player_id=player_id)
    )
