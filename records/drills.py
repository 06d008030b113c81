"""Drills as stored things: deal one to a player, deal the daily set, record an answer, purge.

The cards come from :mod:`trainer.dealing` and the verdict from :mod:`trainer.answers`; this
module only keeps them. Every function is told the time (``now``, seconds since the epoch):
nothing here reads a clock.
These are the hot paths of the trainer: a few indexed Core statements on one connection, one
commit per call that writes.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
import random
import threading
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Integer,
    Row,
    Table,
    bindparam,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from trainer import answers, counting_rating, dealing, weak_spots
from trainer.counting_rating import Rated
from trainer.dealing import Category, Deal, Difficulty, DrillKind
from trainer.errors import CribbageError
from trainer.rating import Rating
from trainer.weak_spots import Tally

from . import ratings
from .database import DatabaseUnavailable, writing
from .errors import AlreadyAnswered, DrillExpired, DrillNotFound, NotYourDrill, PaceError
from .models import MAX_ID, Answer, Drill, GameRecord, Player, Skill

HANDED_BACK_FOR = 3600.0
"""Seconds an unanswered drill is dealt again, rather than a new one, to a player asking for
the same kind in practice (at the same difficulty): reloading the page deals no new rows."""
EXPIRES_AFTER = 86400.0
"""Seconds after its deal an unanswered practice or sprint drill can no longer be answered;
it is then purged. Daily challenges do not expire (they close with their date)."""
GUEST_IDLE_FOR = 30 * 86400.0
"""Seconds after which a guest with no answer, no deal and no game moved since is purged, and
a game no registered player keeps that nobody has moved since."""
PURGE_EVERY = 3600.0
"""Seconds between purges in one server process (:class:`PurgeSchedule`)."""
_PURGE_MARGIN = 3600.0
"""Purged drills are this much older than :data:`EXPIRES_AFTER`: none is being answered."""
_PURGE_BATCH = 1000
"""Drills deleted per write (SQLite's write lock is let go between batches)."""

DRILLS = cast(Table, Drill.__table__)
ANSWERS = cast(Table, Answer.__table__)
SKILLS = cast(Table, Skill.__table__)
PLAYERS = cast(Table, Player.__table__)
GAMES = cast(Table, GameRecord.__table__)

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
_LATEST_LIKE = (
    select(DRILLS, ANSWERS.c.id.label("answer_id"))
    .outerjoin(ANSWERS, ANSWERS.c.drill_id == DRILLS.c.id)
    .where(DRILLS.c.player_id == bindparam("player_id"), DRILLS.c.kind == bindparam("kind"))
    .where(DRILLS.c.difficulty == bindparam("difficulty"))
    .where(DRILLS.c.mode.in_(bindparam("modes", expanding=True)))
    .order_by(DRILLS.c.id.desc())
    .limit(1)
)
_NTH_LATEST_DEAL = (
    select(DRILLS.c.dealt_at)
    .where(DRILLS.c.player_id == bindparam("player_id"))
    .order_by(DRILLS.c.id.desc())
    .limit(1)
    .offset(bindparam("skip", type_=Integer))
)
_UNANSWERED = ~exists().where(ANSWERS.c.drill_id == DRILLS.c.id)
# The newest drill and player are never purged: SQLite numbers a new row the largest id plus
# one, so deleting the largest would hand its id (in a page, in a cookie) to a new one.
_NEWEST_DRILL = select(func.max(DRILLS.alias("newest").c.id)).scalar_subquery()
_NEWEST_PLAYER = select(func.max(PLAYERS.alias("newest").c.id)).scalar_subquery()
_EXPIRED = select(DRILLS.c.id).where(
    DRILLS.c.daily_date.is_(None),
    DRILLS.c.dealt_at < bindparam("before"),
    _UNANSWERED,
    DRILLS.c.id < _NEWEST_DRILL,
)
_IDLE_GUESTS = delete(PLAYERS).where(
    PLAYERS.c.username.is_(None),
    PLAYERS.c.created_at < bindparam("since"),
    PLAYERS.c.id < _NEWEST_PLAYER,
    ~exists().where(ANSWERS.c.player_id == PLAYERS.c.id),
    ~exists().where(
        DRILLS.c.player_id == PLAYERS.c.id,
        or_(DRILLS.c.dealt_at >= bindparam("since"), DRILLS.c.id == _NEWEST_DRILL),
    ),
    ~exists().where(GAMES.c.owner_id == PLAYERS.c.id, GAMES.c.updated_at >= bindparam("since")),
)
"""Guests made before ``since`` who have not answered, been dealt or moved a game's pegs since
(a guest keeping a board at the table is not idle: attack round 4, finding 6)."""
_IDLE_GAMES = delete(GAMES).where(
    GAMES.c.updated_at < bindparam("since"),
    ~exists().where(PLAYERS.c.id == GAMES.c.owner_id, PLAYERS.c.username.is_not(None)),
)
"""Games not moved since ``since`` that no registered player keeps (a guest's, or nobody's
once its guest is purged): a registered player's games are his history, kept (attack round
4, finding 8: games were never purged)."""
_HANDED_BACK = {"practice": ("practice", "review")}
"""The modes of the unanswered drills handed back to a request for each mode (practice brings
missed deals back). Sprint hands never come back: every sprint ends on a hand left unanswered
when its clock stops, which would be the next sprint's first, already seen and counted as the
last sprint's."""


TOO_MANY_DEALS = "Too many deals in a minute: answer the one you have, or wait a little."
_log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class DealtDrill:
    """A drill as stored: one deal given to one player (a ``drills`` row)."""

    id: int
    player_id: int
    kind: DrillKind
    mode: str
    """``practice``, ``sprint``, ``daily`` or ``review`` (a missed deal dealt again)."""
    difficulty: str
    deal: dict[str, Any]
    """:meth:`trainer.dealing.Deal.to_json`."""
    categories: str
    """Comma-separated :class:`trainer.dealing.Category` values."""
    dealt_at: float
    daily_date: str | None
    position: int | None
    repeat: int

    @classmethod
    def of(cls, row: Row[Any]) -> DealtDrill:
        """The drill a row of ``drills`` (with any other columns beside) holds."""
        columns = row._mapping
        return cls(**{field.name: columns[field.name] for field in dataclasses.fields(cls)})


@dataclasses.dataclass(frozen=True)
class GivenAnswer:
    """What is read back of a drill's answer: whether it was right and how long it took."""

    drill_id: int
    correct: bool
    seconds: float


@dataclasses.dataclass(frozen=True)
class Answered:
    """An answer taken (:func:`answer`): the drill answered, the answer as marked, the ratings."""

    drill: DealtDrill
    marked: answers.MarkedAnswer
    rated: Rated | None
    """The counting ratings the answer moved (none for a play checked before its last card)."""


def _drill_values(
    player_id: int, deal: Deal, mode: str, difficulty: Difficulty, now: float, **extra: Any
) -> dict[str, Any]:
    categories = ",".join(sorted(c.value for c in dealing.classify(deal)))
    return {
        "player_id": player_id,
        "kind": deal.kind,
        "mode": mode,
        "difficulty": difficulty.value,
        "deal": deal.to_json(),
        "categories": categories,
        "dealt_at": now,
        "daily_date": None,
        "position": None,
        "repeat": 0,
    } | extra


def tallies(db: Connection, player_id: int) -> dict[Category, Tally]:
    """The player's running tally per category."""
    rows = db.execute(_TALLIES, {"player_id": player_id})
    return {Category(c): Tally(seen, missed, seconds) for c, seen, missed, seconds in rows}


def deal_next(
    db: Connection,
    player_id: int,
    kind: DrillKind,
    difficulty: Difficulty,
    mode: str = "practice",
    rng: random.Random | None = None,
    *,
    now: float,
    per_minute: int,
    focus: Category | None = None,
    first: bool = False,
) -> DealtDrill:
    """Deal and store the player's next drill of ``kind``, or hand back the one not answered.

    In practice, the player's latest drill of ``kind`` comes back while it is unanswered, dealt
    within :data:`HANDED_BACK_FOR` at this difficulty (a sprint's hands are always new).
    Otherwise, in practice, a missed deal that is due comes back first; else the deal aims at
    the player's weak spots (:func:`trainer.weak_spots.choose_focus`), the one of a few such
    nearest the player's counting rating (:func:`trainer.counting_rating.nearest`). With
    ``focus`` (a weak spot the player chose) every deal exercises that category, and only a
    drill that does is handed back. ``first`` marks a sprint's first hand (a sprint begins there).

    Raises:
        PaceError: a new drill would be the player's ``per_minute + 1``-th in a minute.
        CribbageError: a ``focus`` that does not come up in drills of ``kind``.
        sqlalchemy.exc.IntegrityError: when the player does not exist.
    """
    if focus is not None and kind not in focus.kinds:
        raise CribbageError(f"{focus.value!r} does not come up in {kind} drills")
    handed_back = mode in _HANDED_BACK
    pending = _pending(db, player_id, kind, difficulty, mode, now) if handed_back else None
    if pending is not None and (focus is None or focus in parse_categories(pending.categories)):
        return DealtDrill.of(pending)
    _check_pace(db, player_id, per_minute, now)
    rng = rng or random.Random()
    due = _due_review(db, player_id, kind, now) if mode == "practice" and not focus else None
    if due is None:
        aim = focus or weak_spots.choose_focus(kind, tallies(db, player_id), rng)
        if mode == "practice":
            deal = _near_rating(db, player_id, kind, difficulty, aim, rng)
        else:
            deal = dealing.deal(kind, rng, difficulty, aim)
        values = _drill_values(player_id, deal, mode, difficulty, now)
        if first and mode == "sprint":
            values["position"] = 0
    else:
        answer_id, values = due
    with writing(db) as connection:
        if due is not None:
            connection.execute(_UNQUEUE, {"answer_id": answer_id})
        drill = connection.execute(_INSERT_DRILL, values).one()
    return DealtDrill.of(drill)


def _near_rating(
    db: Connection,
    player_id: int,
    kind: DrillKind,
    difficulty: Difficulty,
    aim: Category | None,
    rng: random.Random,
) -> Deal:
    """Of a few deals of ``kind``, the one nearest the player's counting rating in it."""
    dealt = range(counting_rating.CANDIDATES)
    candidates = [dealing.deal(kind, rng, difficulty, aim) for _ in dealt]
    known = ratings.difficulties(db, map(counting_rating.deal_class, candidates))
    player = ratings.of_player(db, player_id).get(kind) or Rating()
    return counting_rating.nearest(candidates, counting_rating.deal_class, known, player)


def _pending(
    db: Connection, player_id: int, kind: str, difficulty: Difficulty, mode: str, now: float
) -> Row[Any] | None:
    """The player's latest drill like the one asked for, if it is still to be answered."""
    like = {"kind": kind, "difficulty": difficulty.value, "modes": _HANDED_BACK[mode]}
    drill = db.execute(_LATEST_LIKE, {"player_id": player_id, **like}).first()
    if drill is None or drill.answer_id is not None:
        return None
    return drill if now - drill.dealt_at <= HANDED_BACK_FOR else None


def deal_given(
    db: Connection,
    player_id: int,
    deal: Deal,
    *,
    now: float,
    per_minute: int,
    mode: str = "practice",
) -> DealtDrill:
    """Store ``deal`` as a drill of the player's, dealt at ``now``.

    A game's discard thrown again (practice), or a count said in a game against the computer
    (mode ``game``).

    Raises:
        PaceError: a new drill would be the player's ``per_minute + 1``-th in a minute.
        sqlalchemy.exc.IntegrityError: when the player does not exist.
    """
    _check_pace(db, player_id, per_minute, now)
    values = _drill_values(player_id, deal, mode, Difficulty.STANDARD, now)
    with writing(db) as connection:
        return DealtDrill.of(connection.execute(_INSERT_DRILL, values).one())


def _check_pace(db: Connection, player_id: int, per_minute: int, now: float) -> None:
    """Refuse a new drill beyond ``per_minute`` in the last minute (none when 0).

    Raises:
        PaceError: with the seconds until the oldest of them is a minute old.
    """
    if per_minute <= 0:
        return
    nth = {"player_id": player_id, "skip": per_minute - 1}
    oldest = db.execute(_NTH_LATEST_DEAL, nth).scalar()
    wait = 0.0 if oldest is None else oldest + 60.0 - now
    if wait > 0:
        raise PaceError(TOO_MANY_DEALS, retry_after=math.ceil(wait))


def _due_review(
    db: Connection, player_id: int, kind: str, now: float
) -> tuple[int, dict[str, Any]] | None:
    """The answer id and a new deal of the oldest missed deal of ``kind`` that is due again."""
    due = db.execute(_DUE, {"player_id": player_id, "now": now, "kind": kind}).first()
    if due is None:
        return None
    old = due._mapping
    repeat = {"mode": "review", "dealt_at": now, "repeat": old["repeat"] + 1}
    return due.answer_id, {c.name: old[c] for c in DRILLS.c if c.name != "id"} | repeat


def expired(drill: DealtDrill, now: float) -> bool:
    """Whether ``drill`` can no longer be answered at ``now`` (:data:`EXPIRES_AFTER`)."""
    return drill.daily_date is None and now - drill.dealt_at > EXPIRES_AFTER


def get_drill(db: Connection, drill_id: int) -> DealtDrill | None:
    """The drill with this id, if any (none for an id no key can hold)."""
    if not 0 < drill_id <= MAX_ID:
        return None
    row = db.execute(_GET_DRILL, {"id": drill_id}).first()
    return None if row is None else DealtDrill.of(row)


def daily_set(db: Connection, player_id: int, date: str, now: float) -> list[DealtDrill]:
    """The player's drills for the daily challenge of ``date``, dealt on first visit.

    Raises:
        sqlalchemy.exc.IntegrityError: when the player does not exist, or another request
            dealt the set at the same moment (:func:`records.players.run_as` tries again).
    """
    query = select(DRILLS).where(DRILLS.c.player_id == player_id, DRILLS.c.daily_date == date)
    existing = [DealtDrill.of(row) for row in db.execute(query.order_by(DRILLS.c.position))]
    if existing:
        return existing
    deals = zip(_daily_deals(date), dealing.DAILY_LEVELS, strict=True)
    rows = [
        _drill_values(player_id, deal, "daily", level, now, daily_date=date, position=position)
        for position, (deal, level) in enumerate(deals)
    ]
    with writing(db) as connection:
        connection.execute(insert(DRILLS), rows)
    return [DealtDrill.of(row) for row in db.execute(query.order_by(DRILLS.c.position))]


@functools.lru_cache(maxsize=4)
def _daily_deals(date: str) -> tuple[Deal, ...]:
    """The daily challenge's deals: the same for every player, so dealt once per date.

    The API opens yesterday's, today's and tomorrow's.
    """
    return tuple(dealing.daily(date))


_ANSWERED = select(ANSWERS.c.drill_id, ANSWERS.c.correct, ANSWERS.c.seconds)


def answered(db: Connection, drill_ids: list[int]) -> dict[int, GivenAnswer]:
    """The answers to these drills, by drill id."""
    rows = db.execute(_ANSWERED.where(ANSWERS.c.drill_id.in_(drill_ids)))
    return {a.drill_id: GivenAnswer(a.drill_id, bool(a.correct), a.seconds) for a in rows}


def answer(
    db: Connection,
    drill_id: int,
    player_id: int | None,
    given: dict[str, Any],
    *,
    day: str,
    now: float,
) -> Answered:
    """Take ``player_id``'s answer ``given`` to drill ``drill_id`` at ``now`` (on ``day``).

    The rules of answering, for the web's API and ``crib drill`` alike: a drill is answered
    once, by the player it was dealt to, within :data:`EXPIRES_AFTER` of its deal (a daily
    challenge's any time). The answer is marked (:func:`trainer.answers.mark`) and stored with
    the tallies and the counting ratings (:mod:`records.ratings`) in one commit; a play drill
    checked before its last card
    (:attr:`trainer.answers.MarkedAnswer.final` false) is checked, not stored.

    Raises:
        DrillNotFound: no drill has this id.
        NotYourDrill: the drill was dealt to another player (or ``player_id`` is none).
        AlreadyAnswered: the drill has its answer (nothing is stored).
        DrillExpired: the drill, unanswered, was dealt too long ago.
        InvalidAnswerError: for a malformed answer (nothing is stored).
    """
    drill = get_drill(db, drill_id)
    if drill is None:
        raise DrillNotFound(drill_id)
    if drill.player_id != player_id:
        raise NotYourDrill(drill_id)
    if expired(drill, now):
        if answered(db, [drill_id]):
            raise AlreadyAnswered(drill_id)
        raise DrillExpired(drill_id)
    try:
        return _record_answer(db, drill, given, day, now)
    except IntegrityError:  # rolled back (records.database.writing): another took its place
        raise AlreadyAnswered(drill_id) from None


def _record_answer(
    db: Connection, drill: DealtDrill, given: dict[str, Any], day: str, now: float
) -> Answered:
    """Mark ``given``, store it with the tallies and ratings and commit (:func:`answer`).

    Raises:
        InvalidAnswerError: for a malformed answer (nothing is stored).
        sqlalchemy.exc.IntegrityError: when the drill already has an answer.
    """
    deal = Deal.from_json(drill.deal)
    marked = answers.mark(
        deal,
        given,
        dealt_at=drill.dealt_at,
        now=now,
        repeat=drill.repeat,
        daily=drill.mode == "daily",
    )
    if not marked.final:
        return Answered(drill, marked, None)
    verdict = marked.grade
    answer = {
        "drill_id": drill.id,
        "player_id": drill.player_id,
        "kind": drill.kind,
        "correct": verdict.correct,
        "claimed": verdict.claimed,
        "total": verdict.total,
        "seconds": marked.seconds,
        "answered_at": now,
        "day": day,
        "given": marked.fields,
        "missed": ",".join(sorted(c.value for c in verdict.missed_categories)),
        "review_at": marked.review_at,
    }
    present = parse_categories(drill.categories)
    added = _skill_rows(
        drill.player_id, weak_spots.tally([(present, verdict.missed_categories, marked.seconds)])
    )
    score = counting_rating.answer_score(
        drill.kind, correct=verdict.correct, seconds=marked.seconds
    )
    deal_class = counting_rating.deal_class(deal)
    with writing(db) as connection:
        rated = ratings.rate_answer(connection, drill.player_id, drill.kind, deal_class, score)
        moved = {"kind_rating": rated.kind.rating, "overall_rating": rated.overall.rating}
        connection.execute(_INSERT_ANSWER, answer | moved)
        if added:
            connection.execute(_skills_upsert(connection.dialect.name), added)
    return Answered(drill, marked, rated)


@functools.cache
def _skills_upsert(dialect_name: str) -> Any:
    """``INSERT … ON CONFLICT DO UPDATE`` adding to a player's tallies (SQLite, PostgreSQL)."""
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


def parse_categories(text: str) -> list[Category]:
    """The categories in a comma-separated column (``drills.categories``, ``answers.missed``)."""
    return [Category(c) for c in text.split(",") if c]


def rebuild_skills(db: Connection, player_id: int) -> None:
    """Recount the player's tallies from their stored answers (after merging a guest)."""
    rows = db.execute(
        select(DRILLS.c.categories, ANSWERS.c.missed, ANSWERS.c.seconds)
        .join(ANSWERS, ANSWERS.c.drill_id == DRILLS.c.id)
        .where(ANSWERS.c.player_id == player_id)
    )
    totals = weak_spots.tally(
        (parse_categories(present), parse_categories(missed), seconds)
        for present, missed, seconds in rows
    )
    db.execute(delete(SKILLS).where(SKILLS.c.player_id == player_id))
    if totals:
        db.execute(insert(SKILLS), _skill_rows(player_id, totals))


def _skill_rows(player_id: int, totals: dict[Category, Tally]) -> list[dict[str, Any]]:
    """``skills`` rows for the player's tallies."""
    return [
        {"player_id": player_id, "category": c.value}
        | {"seen": t.seen, "missed": t.missed, "seconds": t.seconds}
        for c, t in totals.items()
    ]


def purge(db: Connection, now: float) -> tuple[int, int, int]:
    """Delete expired unanswered drills, idle guests with no answers and their idle games.

    Drills go an hour after they expire (:data:`EXPIRES_AFTER`); guests once
    :data:`GUEST_IDLE_FOR` has passed since they were made, their last deal and the last move
    on a game they keep, with their drills; a game no registered player keeps once as long has
    passed since its last move. The expired drills are found by a read, so writers wait only
    for deletes.

    Returns:
        The numbers of drills, guests and games deleted.
    """
    found = db.execute(_EXPIRED, {"before": now - EXPIRES_AFTER - _PURGE_MARGIN})
    stale, drills = list(found.scalars()), 0
    for start in range(0, len(stale), _PURGE_BATCH):
        batch = delete(DRILLS).where(DRILLS.c.id.in_(stale[start : start + _PURGE_BATCH]))
        with writing(db) as connection:
            drills += connection.execute(batch.where(_UNANSWERED)).rowcount
    with writing(db) as connection:
        games = connection.execute(_IDLE_GAMES, {"since": now - GUEST_IDLE_FOR}).rowcount
        guests = connection.execute(_IDLE_GUESTS, {"since": now - GUEST_IDLE_FOR}).rowcount
    return drills, guests, games


class PurgeSchedule:
    """Runs :func:`purge` at most once every :data:`PURGE_EVERY` seconds in this process.

    Deals call :meth:`run_if_due`: the first one after start-up or after an hour purges, while
    other threads deal on.
    """

    def __init__(self) -> None:
        self.due = 0.0
        """When the next purge is due (seconds since the epoch)."""
        self._running = threading.Lock()

    def run_if_due(self, db: Connection, now: float) -> tuple[int, int, int] | None:
        """Purge if it is due at ``now`` and no other thread is purging: what :func:`purge` returns.

        A purge that fails is logged and waits for the next hour; the deal that ran it goes on.
        """
        if now < self.due or not self._running.acquire(blocking=False):
            return None
        try:
            self.due = now + PURGE_EVERY
            return purge(db, now)
        except (SQLAlchemyError, DatabaseUnavailable):
            db.rollback()
            _log.exception("the hourly purge failed; it runs again in an hour")
            return None
        finally:
            self._running.release()
