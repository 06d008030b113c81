"""The JSON API the pages use: scoring, drills, answers, the daily challenge."""

from __future__ import annotations

import datetime
from typing import Any

from flask import Blueprint, abort, current_app, request
from flask.blueprints import BlueprintSetupState

from records import drills, progress
from trainer.dealing import KINDS, Category, Difficulty
from trainer.items import PLAY_RULE_TEXT, RULE_TEXT
from trainer.pegging import score_sequence
from trainer.rules import SIX_CARD, get_rules
from trainer.show import score_typed, spoken_count, typed_body
from trainer.table import groups_of, score_table

from . import clock
from .db import get_db
from .openapi import DOCUMENT
from .players import as_player, session_player_id
from .request_data import cap_body, choice, flag, given_discard, json_body

bp = Blueprint("api", __name__, url_prefix="/api")
bp.before_request(cap_body)

RULES_BY_KIND = {kind.value: text for kind, text in RULE_TEXT.items()}
PLAY_RULES_BY_KIND = {kind.value: text for kind, text in PLAY_RULE_TEXT.items()}


@bp.get("/openapi.json")
def openapi() -> dict[str, Any]:
    """This API as an OpenAPI 3.1 document (:mod:`web.openapi`)."""
    return DOCUMENT


@bp.post("/score")
def score() -> dict[str, Any]:
    """Score a hand or crib as typed: ``{"cards": "5H 5D 5C JS | 5S", "crib": false}``.

    The cards are read as ``crib score`` and the /score page read them
    (:func:`trainer.show.score_typed`): the starter after a bar, last, or in ``"starter"``;
    ranks alone (``"5 5 5 J"``) give what is certain and what suits could add. The first
    shape, ``{"hand": ["5H", ...], "starter": "5S"}``, is read the same way.
    ``"rules": "five-card"`` picks another rule set (six-card by default).
    """
    data = json_body()
    cards, starter = typed_body(data)
    rules = get_rules(str(data.get("rules", SIX_CARD.name)))
    crib = flag(data, "crib")
    result = score_typed(cards, starter, crib=crib, rules=rules, starter_place="in 'starter'")
    return result.to_json() | {"rule_text": RULES_BY_KIND}


@bp.post("/table")
def table() -> dict[str, Any]:
    """Score a whole table, each group by its rule.

    The body: ``{"rules": "six-card", "groups": [{"role": "hand", "cards": [...]}, {"role":
    "crib", ...}, {"role": "starter", "cards": ["5S"]}]}``; each group comes back with its
    ``score`` (``null`` for the starter). A group not yet named (``"role": null``, a hand or
    the crib) is scored as a hand, with its ``crib_score`` when a crib flush makes it differ.
    """
    data = json_body()
    groups = groups_of(data.get("groups"))
    rules = get_rules(str(data.get("rules", SIX_CARD.name)))
    scored = score_table(groups, rules=rules)
    return {"rules": rules.name, "groups": scored.to_json(), "rule_text": RULES_BY_KIND}


@bp.post("/pegging")
def pegging() -> dict[str, Any]:
    """Score a play: ``{"play": ["5H", "10S", "go", ...], "end": true}``, players alternating.

    ``"rules": "five-card"`` plays by another rule set: its hand size, and its single count.
    """
    data = json_body()
    play = data.get("play")
    if not isinstance(play, list) or not play or not all(isinstance(t, str) for t in play):
        abort(400, "give 'play' as a list of cards and 'go'")
    rules = get_rules(str(data.get("rules", SIX_CARD.name)))
    pegs = score_sequence(play, end=flag(data, "end"), rules=rules)
    return {"pegs": [p.to_json() for p in pegs], "rule_text": PLAY_RULES_BY_KIND}


@bp.record_once
def _schedule_purges(state: BlueprintSetupState) -> None:
    state.app.extensions["crib_purges"] = drills.PurgeSchedule()


@bp.get("/drills/next")
def next_drill() -> dict[str, Any]:
    """Deal the player's next drill: ``?kind=hand|crib|pegging|discard|play&difficulty=...``.

    The drill of that kind not yet answered comes back instead of a new one; new ones are
    limited to ``DEALS_PER_MINUTE`` (a 429 beyond). ``focus`` (a category) aims every deal at
    it; ``first=1`` starts a sprint. A discard drill of given cards is dealt with
    ``cards=...&dealer=0|1`` (a game's discard thrown again,
    :func:`web.request_data.given_discard`).
    A deal also purges, once an hour (:class:`records.drills.PurgeSchedule`).
    """
    kind: Any = choice("kind", KINDS, "hand")
    level = Difficulty(choice("difficulty", tuple(d.value for d in Difficulty), "standard"))
    mode = choice("mode", ("practice", "sprint"), "practice")
    aim = choice("focus", tuple(c.value for c in Category), "") if "focus" in request.args else ""
    first = choice("first", ("0", "1"), "0") == "1"
    now = clock.now()
    current_app.extensions["crib_purges"].run_if_due(get_db(), now)
    options = {"now": now, "per_minute": current_app.config["DEALS_PER_MINUTE"], "first": first}
    options["focus"] = Category(aim) if aim else None
    given = given_discard()
    if given is not None and kind != "discard":
        abort(400, "given cards deal a discard drill: ask for kind=discard")
    if given is not None:
        per_minute = options["per_minute"]
        drill = as_player(
            lambda db, pid: drills.deal_given(db, pid, given, now=now, per_minute=per_minute)
        )
    else:
        drill = as_player(lambda db, pid: drills.deal_next(db, pid, kind, level, mode, **options))
    return drill_json(drill)


def drill_json(drill: drills.DealtDrill) -> dict[str, Any]:
    """What a page needs to show a drill: its id, its cards, and how it was dealt."""
    return {
        "id": drill.id,
        **drill.deal,
        "mode": drill.mode,
        "difficulty": drill.difficulty,
        "position": drill.position,
    }


@bp.post("/drills/<int:drill_id>/answer")
def answer(drill_id: int) -> dict[str, Any]:
    """Answer a drill once: ``{"points": 12}``, ``{"by_kind": {...}}`` or ``{"discard": [...]}``.

    ``by_kind`` counts kind by kind (``{"fifteen": 6, ...}``), ``discard`` names the two cards
    thrown (``["7H", "8C"]``); ``"muggins": true`` adds what the opponent takes. The rules of
    answering are :func:`records.drills.answer`'s (its refusals: :mod:`web.errors`).
    """
    data = json_body()
    muggins = flag(data, "muggins")
    taken = drills.answer(
        get_db(), drill_id, session_player_id(), data, day=clock.players_today(), now=clock.now()
    )
    drill, marked = taken.drill, taken.marked
    grade = marked.grade
    result = {"id": drill_id, "kind": drill.kind, **grade.to_json(), "seconds": marked.seconds}
    if drill.kind in ("hand", "crib"):
        result["say"] = spoken_count(grade.items)
    if muggins and drill.kind in ("hand", "crib", "pegging"):
        result["muggins"] = {"you": min(grade.claimed, grade.total), "opponent": grade.under}
    rules = PLAY_RULES_BY_KIND if drill.kind in ("pegging", "play") else RULES_BY_KIND
    result["rule_text"] = {k: rules[k] for k in {i["kind"] for i in result["items"]}}
    return result


def _daily_date() -> str:
    """``?date=`` (the player's local date, within a day of UTC) or the player's today."""
    today = clock.today()
    date = request.args.get("date", clock.players_today())
    try:
        day = datetime.date.fromisoformat(date)
    except ValueError:
        abort(400, f"bad date {date!r} (use YYYY-MM-DD)")
    if abs((day - datetime.date.fromisoformat(today)).days) > 1:
        abort(400, f"the daily challenge for {date} is not open (today is {today})")
    return day.isoformat()


@bp.get("/daily")
def daily() -> dict[str, Any]:
    """The daily challenge: its drills (dealt on first visit), answers so far, the summary."""
    date = _daily_date()
    db = get_db()
    now = clock.now()
    player_id, dealt = as_player(lambda db, pid: (pid, drills.daily_set(db, pid, date, now)))
    answers = drills.answered(db, [d.id for d in dealt])
    return {
        "date": date,
        "drills": [
            {**drill_json(d), "answered": d.id in answers, "correct": _correct(answers, d)}
            for d in dealt
        ],
        "summary": progress.daily_summary(db, player_id, date, dealt, answers),
    }


def _correct(answers: dict[int, drills.GivenAnswer], drill: drills.DealtDrill) -> bool | None:
    given = answers.get(drill.id)
    return None if given is None else given.correct
