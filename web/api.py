"""The JSON API the pages use: scoring, drills, answers, the daily challenge."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Blueprint, abort, current_app, request
from flask.blueprints import BlueprintSetupState
from sqlalchemy import Row
from sqlalchemy.exc import IntegrityError

from trainer.dealing import KINDS, Difficulty
from trainer.errors import InvalidJSONError
from trainer.items import RULE_TEXT
from trainer.pegging import score_sequence
from trainer.rules import SIX_CARD, get_rules
from trainer.show import score_typed, spoken_count
from trainer.table import Group, score_table

from . import clock, progress, training
from .auth import as_player, session_player_id
from .db import get_db
from .openapi import DOCUMENT

bp = Blueprint("api", __name__, url_prefix="/api")

RULES_BY_KIND = {kind.value: text for kind, text in RULE_TEXT.items()}
View = TypeVar("View", bound=Callable[..., Any])


JSON_BODY_LIMIT = 8 * 1024
"""Bytes an API body may have: the largest real one (a count by kind) is under 200. A view
that takes an upload (:func:`takes_upload`: the photo, ``POST /api/read``) keeps the app's own
larger limit."""

_UPLOAD = "takes_upload"


def takes_upload(view: View) -> View:
    """Mark an API view that takes a multipart upload instead of a JSON body.

    It keeps the app's body limit, and :mod:`web.csrf` takes its multipart body (it still
    refuses other sites).
    """
    setattr(view, _UPLOAD, True)
    return view


def upload_request() -> bool:
    """Whether this request goes to a view marked :func:`takes_upload`."""
    view = current_app.view_functions.get(request.endpoint or "")
    return bool(getattr(view, _UPLOAD, False))


@bp.before_request
def _cap_body() -> None:
    """Refuse a body over :data:`JSON_BODY_LIMIT` (or the app's smaller limit).

    It is refused before it is read, or while it is read when its length is not announced.
    """
    if upload_request():
        return
    limit = min(JSON_BODY_LIMIT, current_app.config["MAX_CONTENT_LENGTH"] or JSON_BODY_LIMIT)
    request.max_content_length = limit
    if (request.content_length or 0) > limit:
        abort(413, f"The request is too large: the API takes bodies up to {limit} bytes.")


LARGEST_NUMBER = 2**53
"""The largest magnitude a number in an API body may have: every JSON parser holds integers up
to it exactly (I-JSON, RFC 7493); no real answer comes near it. Larger ones (an integer too
big for a float, ``1e400`` parsed as infinity) are refused before anything reads them."""


def _no_constant(name: str) -> Any:
    raise InvalidJSONError(f"JSON has no {name}: send a number")


def _out_of_range(text: str) -> InvalidJSONError:
    shown = text if len(text) <= 24 else f"{text[:12]}... ({len(text)} characters)"
    return InvalidJSONError(f"the number {shown} is out of range (the API takes up to 2**53)")


def _parse_int(text: str) -> int:
    if len(text) > len(str(-LARGEST_NUMBER)) or abs(value := int(text)) > LARGEST_NUMBER:
        raise _out_of_range(text)
    return value


def _parse_float(text: str) -> float:
    value = float(text)
    if abs(value) > LARGEST_NUMBER:  # infinity too
        raise _out_of_range(text)
    return value


def _json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 saying what is wrong with it.

    Raises:
        InvalidJSONError: for JSON nested too deeply for the parser, holding ``NaN`` or
            ``Infinity`` (which Python's parser takes and JSON does not have), or a number
            beyond :data:`LARGEST_NUMBER`.
    """
    try:
        data = json.loads(
            request.get_data(),
            parse_constant=_no_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except InvalidJSONError:
        raise
    except RecursionError:
        raise InvalidJSONError("the JSON body is nested too deeply") from None
    except ValueError:  # not JSON, or not UTF-8
        data = None
    if not isinstance(data, dict):
        abort(400, "expected a JSON object body (Content-Type: application/json)")
    return data


def _flag(data: dict[str, Any], name: str) -> bool:
    """The body's boolean ``name`` (false when left out), or a 400."""
    value = data.get(name, False)
    if not isinstance(value, bool):
        abort(400, f"'{name}' must be true or false, not {value!r}")
    return value


def _choice(name: str, allowed: tuple[str, ...], default: str) -> str:
    value = request.args.get(name, default)
    if value not in allowed:
        abort(400, f"unknown {name} {value!r} (use one of: {', '.join(allowed)})")
    return value


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
    data = _json_body()
    cards, starter = _typed_show(data)
    rules = get_rules(str(data.get("rules", SIX_CARD.name)))
    crib = _flag(data, "crib")
    result = score_typed(cards, starter, crib=crib, rules=rules, starter_place="in 'starter'")
    return result.to_json() | {"rule_text": RULES_BY_KIND}


def _typed_show(data: dict[str, Any]) -> tuple[str, str | None]:
    """The cards as typed and the starter typed apart, from either shape of a score body."""
    cards, hand, starter = data.get("cards"), data.get("hand"), data.get("starter")
    listed = isinstance(hand, list) and all(isinstance(c, str) for c in hand)
    if cards is None and listed and isinstance(starter, str):  # the first shape
        cards, hand = " ".join(cast(list[str], hand)), None
    if hand is not None or not isinstance(cards, str) or not isinstance(starter, str | None):
        abort(
            400,
            "give 'cards' as typed (5H 5D 5C JS | 5S), or 'hand' as a list of cards and"
            " 'starter' as one card",
        )
    return cards, starter


@bp.post("/table")
def table() -> dict[str, Any]:
    """Score a whole table, each group by its rule.

    The body: ``{"rules": "six-card", "groups": [{"role": "hand", "cards": [...]}, {"role":
    "crib", ...}, {"role": "starter", "cards": ["5S"]}]}``; each group comes back with its
    ``score`` (``null`` for the starter). A group not yet named (``"role": null``, a hand or
    the crib) is scored as a hand, with its ``crib_score`` when a crib flush makes it differ.
    """
    data = _json_body()
    groups = data.get("groups")
    shape_ok = isinstance(groups, list) and all(
        isinstance(g, dict)
        and "role" in g
        and isinstance(g["role"], str | None)
        and isinstance(g.get("cards"), list)
        and all(isinstance(c, str) for c in g["cards"])
        for g in groups
    )
    if not shape_ok or groups is None:
        abort(400, "give 'groups' as a list of {'role': ..., 'cards': [...]} objects")
    rules = get_rules(str(data.get("rules", SIX_CARD.name)))
    scored = score_table([Group.of(g["role"], g["cards"]) for g in groups], rules=rules)
    return {"rules": rules.name, "groups": scored.to_json(), "rule_text": RULES_BY_KIND}


@bp.post("/pegging")
def pegging() -> dict[str, Any]:
    """Score a play: ``{"play": ["5H", "10S", "go", ...], "end": true}``, players alternating."""
    data = _json_body()
    play = data.get("play")
    if not isinstance(play, list) or not play or not all(isinstance(t, str) for t in play):
        abort(400, "give 'play' as a list of cards and 'go'")
    pegs = score_sequence(play, end=_flag(data, "end"))
    return {"pegs": [p.to_json() for p in pegs], "rule_text": RULES_BY_KIND}


@bp.record_once
def _schedule_purges(state: BlueprintSetupState) -> None:
    state.app.extensions["crib_purges"] = training.PurgeSchedule()


@bp.get("/drills/next")
def next_drill() -> dict[str, Any]:
    """Deal the player's next drill: ``?kind=hand|crib|pegging|discard&difficulty=...``.

    The drill of that kind not yet answered comes back instead of a new one; new ones are
    limited to ``DEALS_PER_MINUTE`` (a 429 beyond). A deal also purges, once an hour
    (:class:`web.training.PurgeSchedule`).
    """
    kind: Any = _choice("kind", KINDS, "hand")
    level = Difficulty(_choice("difficulty", tuple(d.value for d in Difficulty), "standard"))
    mode = _choice("mode", ("practice", "sprint"), "practice")
    current_app.extensions["crib_purges"].run_if_due(get_db())
    per_minute = int(current_app.config.get("DEALS_PER_MINUTE", training.DEALS_PER_MINUTE))
    drill = as_player(
        lambda db, player_id: training.deal_next(
            db, player_id, kind, level, mode, per_minute=per_minute
        )
    )
    return training.drill_json(drill)


@bp.post("/drills/<int:drill_id>/answer")
def answer(drill_id: int) -> dict[str, Any]:
    """Answer a drill once: ``{"points": 12}``, ``{"by_kind": {...}}`` or ``{"discard": [...]}``.

    ``by_kind`` counts kind by kind (``{"fifteen": 6, ...}``), ``discard`` names the two cards
    thrown (``["7H", "8C"]``); ``"muggins": true`` adds what the opponent takes.
    """
    data = _json_body()
    muggins = _flag(data, "muggins")
    db = get_db()
    drill = training.get_drill(db, drill_id)
    if drill is None:
        abort(404, f"no drill {drill_id}")
    if drill.player_id != session_player_id():
        abort(403, f"drill {drill_id} was dealt to another player")
    already = f"drill {drill_id} is already answered"
    if training.expired(drill):
        if training.answered(db, [drill_id]):
            abort(409, already)
        abort(410, f"drill {drill_id} has expired (it was dealt over a day ago): deal a new one")
    try:
        grade, seconds = training.record_answer(db, drill, data, clock.players_today())
    except IntegrityError:  # rolled back (web.db.writing)
        abort(409, already)
    result = {"id": drill_id, "kind": drill.kind, **grade.to_json(), "seconds": seconds}
    if drill.kind in ("hand", "crib"):
        result["say"] = spoken_count(grade.items)
    if muggins and drill.kind != "discard":
        result["muggins"] = {"you": min(grade.claimed, grade.total), "opponent": grade.under}
    result["rule_text"] = {k: RULES_BY_KIND[k] for k in {i["kind"] for i in result["items"]}}
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
    player_id, dealt = as_player(lambda db, pid: (pid, training.daily_set(db, pid, date)))
    answers = training.answered(db, [d.id for d in dealt])
    return {
        "date": date,
        "drills": [
            {**training.drill_json(d), "answered": d.id in answers, "correct": _correct(answers, d)}
            for d in dealt
        ],
        "summary": progress.daily_summary(db, player_id, date, dealt, answers),
    }


def _correct(answers: dict[int, Row[Any]], drill: Row[Any]) -> bool | None:
    answer = answers.get(drill.id)
    return None if answer is None else bool(answer.correct)
