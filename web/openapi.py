"""The JSON API described as an OpenAPI 3.1 document, served at ``/api/openapi.json``.

Written by hand beside the views in :mod:`web.api`, :mod:`web.photo`, :mod:`web.board` and
:mod:`web.play`, in a short notation that :func:`schema` spells out as JSON Schema: ``int``,
``float``, ``bool`` and ``str`` are their types, ``[spec]`` an array of them, a capitalised name a
schema of the components, a dict an object whose keys ending in ``?`` are optional. The test suite
runs schemathesis against the document (every operation, generated requests), which fails on any
response that the document does not describe.
"""

from __future__ import annotations

from typing import Any

from trainer.board import MOVES, SOURCES
from trainer.dealing import KINDS, Category, Difficulty
from trainer.game import Phase
from trainer.items import Kind
from trainer.rules import RULESETS
from trainer.table import Role

JSON = "application/json"
Schema = dict[str, Any]
_TYPES = {int: "integer", float: "number", bool: "boolean", str: "string", None: "null"}


class Raw(dict[str, Any]):
    """A JSON Schema written out: :func:`schema` takes it as it is."""


def schema(spec: Any) -> Schema:
    """The JSON Schema of ``spec`` in the notation of this module's docstring."""
    if isinstance(spec, Raw):
        return spec
    if isinstance(spec, list):
        return array(*spec)
    if isinstance(spec, dict):
        return obj(spec)
    if isinstance(spec, str):
        return {"$ref": f"#/components/schemas/{spec}"}
    return {"type": _TYPES[spec]}


def obj(properties: dict[str, Any], **extra: Any) -> Raw:
    """An object of these properties, each required but those named with a final ``?``."""
    required = [name for name in properties if not name.endswith("?")]
    spelled = {name.rstrip("?"): schema(spec) for name, spec in properties.items()}
    return Raw(type="object", properties=spelled, required=required, **extra)


def array(item: Any, **extra: Any) -> Raw:
    """An array of ``item``; ``extra``: ``minItems``, ``description``..."""
    return Raw(type="array", items=schema(item), **extra)


def enum(*values: Any, **extra: Any) -> Raw:
    """One of ``values`` (strings, integers, ``None``)."""
    types = sorted({_TYPES[None if value is None else type(value)] for value in values})
    return Raw(type=types[0] if len(types) == 1 else types, enum=list(values), **extra)


def nullable(spec: Any, **extra: Any) -> Raw:
    """``spec``, or ``null``."""
    return Raw(oneOf=[schema(spec), {"type": "null"}], **extra)


def about(spec: Any, description: str) -> Raw:
    """``spec`` with its description."""
    return Raw(schema(spec), description=description)


CARD = Raw(
    type="string",
    pattern="^(?:[AaTtJjQqKk2-9]|10)[HDCShdcs♥♦♣♠]$",
    description="A card as players write it: 5H, 10D, TD, JS, 5♥",
)
RULES = enum(*sorted(RULESETS))
KIND = enum(*(kind.value for kind in Kind))
ROLE = enum(*(role.value for role in Role), None)
BOX = nullable(array(float, minItems=4, maxItems=4))
COUNT = Raw(type="integer", minimum=0, maximum=99)
BY_KIND = Raw(type="object", propertyNames={"enum": KIND["enum"]})
BREAKDOWN = {"total": int, "items": ["Item"], "hand": [str], "starter": str, "crib": bool}
BREAKDOWN |= {"rules": RULES, "say": str}
PEG = {"card": str, "player": enum(0, 1), "count": int, "points": int, "items": ["Item"]}
"""A card (or go) of a play and what it pegged."""
SAID = {"count": int, "points": int}
SHOW_TARGET = Raw(
    oneOf=[{"type": "integer", "minimum": 0}, {"const": "crib"}],
    description="A hand (its seat) or the crib",
)

SCHEMAS: dict[str, Schema] = {
    "Error": obj({"error": str}),
    "Item": obj({"kind": KIND, "cards": [str], "points": int}),
    "RuleText": Raw(
        BY_KIND,
        additionalProperties={"type": "string"},
        description="The rule of each kind of item, by kind",
    ),
    "Breakdown": obj(BREAKDOWN, description="A hand's or crib's score, item by item"),
    "Score": obj({**BREAKDOWN, "rule_text": "RuleText"}),
    "RankScore": obj(
        {
            "certain": int,
            "possible": [{"total": int, "if": str}],
            "say": str,
            "rule_text": "RuleText",
        }
    ),
    "Pegging": obj({"pegs": [PEG], "rule_text": "RuleText"}),
    "Drill": obj(
        {
            "id": int,
            "kind": enum(*KINDS),
            "mode": enum("practice", "sprint", "daily", "review"),
            "difficulty": enum(*(d.value for d in Difficulty)),
            "position": nullable(int),
            "hand?": [str],
            "starter?": str,
            "crib?": bool,
            "played?": [str],
            "card?": str,
            "count?": int,
            "count_before?": int,
            "ask_count?": bool,
            "cards?": [str],
            "role?": enum("dealer", "pone"),
            "dealer?": Raw(type=["boolean", "array"], items={"type": "string"}),
            "pone?": [str],
            "steps?": [{"card": str, "player?": int}],
        },
        description="hand, starter, crib: hands, cribs; played, card, count (or count_before, or"
        " ask_count): pegging; cards, dealer, role: discards; pone, dealer, steps: a play",
    ),
    "Answer": obj(
        {
            "points?": COUNT,
            "by_kind?": Raw(BY_KIND, additionalProperties={"type": "integer", "minimum": 0}),
            "discard?": array(CARD, minItems=1, maxItems=2),
            "count?": COUNT,
            "steps?": array(SAID, minItems=1, description="A play's cards so far (checked)"),
            "seconds?": about(float, "Seconds the drill was on screen"),
            "muggins?": bool,
        },
        description="One of points (hands, cribs, pegging, with the count when asked),"
        " by_kind (hands, cribs), discard, or steps (a play)",
    ),
    "Verdict": obj(
        {
            "id": int,
            "kind": enum(*KINDS),
            "correct": bool,
            "total": float,
            "claimed": float,
            "items": ["Item"],
            "missed": ["Item"],
            "missed_kinds?": array(
                {"kind": KIND, "points": int, "text": str},
                description="Counted by kind: the points of each kind missed, in words",
            ),
            "over": float,
            "under": float,
            "missed_categories": [str],
            "options?": [
                {
                    "keep": [str],
                    "discard": [str],
                    "hand_ev": float,
                    "crib_ev": float,
                    "crib_ev_uniform?": float,
                    "crib_ev_weighted?": nullable(float),
                    "crib_model?": enum("uniform", "weighted"),
                    "net_ev": float,
                }
            ],
            "lost?": float,
            "note?": str,
            "reason?": str,
            "heels?": str,
            "by_kind?": [{"kind": KIND, "claimed": int, "right": int}],
            "count?": {"claimed": int, "right": int},
            "steps?": [{**PEG, "claimed": SAID, "correct": bool}],
            "complete?": bool,
            "seconds": float,
            "say?": str,
            "muggins?": {"you": float, "opponent": float},
            "rule_text": "RuleText",
        }
    ),
    "Daily": obj(
        {
            "date": Raw(type="string", format="date"),
            "drills": [
                Raw(allOf=[schema("Drill"), obj({"answered": bool, "correct": nullable(bool)})])
            ],
            "summary": {
                "done": int,
                "of": int,
                "complete": bool,
                "score?": int,
                "seconds?": float,
                "streak?": int,
                "share?": str,
            },
        }
    ),
    "ScoredGroup": obj(
        {
            "role": ROLE,
            "cards": [str],
            "score": nullable("Breakdown"),
            "crib_score": nullable(
                "Breakdown",
                description="A group not yet named: its score as the crib, when that differs",
            ),
        }
    ),
    "Table": obj({"rules": RULES, "groups": ["ScoredGroup"], "rule_text": "RuleText"}),
    "Reading": obj(
        {
            "rules": RULES,
            "image_size": array(int, minItems=2, maxItems=2),
            "seconds": float,
            "cards": array(
                {
                    "card": CARD,
                    "confidence": float,
                    "box": about(BOX, "Its corner index on the photo; null when typed"),
                    "uncertain": bool,
                    "choices": array(CARD, minItems=1, description="What it may be, best first"),
                },
                description="Every card read, then a starter the player typed",
            ),
            "groups": array(
                {
                    "role": ROLE,
                    "name": str,
                    "cards": about([int], "Indices into cards"),
                    "box": BOX,
                    "score": nullable(
                        "Breakdown",
                        description="As a hand while the role is asked; null for the starter, an"
                        " unknown starter or a doubtful card",
                    ),
                    "crib_score": nullable(
                        "Breakdown",
                        description="While the role is asked: the score as the crib, when a"
                        " crib flush makes it differ",
                    ),
                },
                description="The table's groups (hands, crib, starter) by where the cards lie",
            ),
            "question": nullable(
                {
                    "kind": enum("starter", "crib", "groups"),
                    "text": str,
                    "choices": about(
                        [int],
                        "Card (starter) or group (crib) indices; for groups, the group that"
                        " seems one card short, when one does",
                    ),
                },
                description="The smallest question that settles an ambiguous layout",
            ),
            "left_out": about([int], "Indices of readings left out of the groups"),
            "note": str,
        },
        additionalProperties=False,
    ),
    "Board": obj(
        {
            "code": str,
            "version": about(int, "Moves saved: a move names it"),
            "keeper": about(bool, "Whether this phone keeps the game"),
            "seat": nullable(int, description="The keeper's own seat, if any"),
            "key?": about(str, "The keeper's key (to the keeper only)"),
            "rules": RULES,
            "title": str,
            "names": [str],
            "hand_size": int,
            "crib_size": int,
            "length": enum(61, 121),
            "muggins": bool,
            "double_skunk_games": enum(2, 4),
            "one_count": about(bool, "Whether the play is one count (the five-card game)"),
            "lurch_line": int,
            "double_skunk_line": nullable(int),
            "sides": array(
                {"name": str, "seats": [int], "front": int, "back": int},
                description="Each side's pegs: front is the score, back the score before",
            ),
            "deal": int,
            "dealer": int,
            "pone": int,
            "phase": enum("play", "show", "deal", "over"),
            "show_order": [SHOW_TARGET],
            "next_to_show": nullable(SHOW_TARGET),
            "play": obj(
                {
                    "count": int,
                    "pile": [str],
                    "played": [{"seat": int, "card": str}],
                    "cards_left": int,
                    "next_seat": int,
                },
                description="The play entered card by card",
            ),
            "moves": about(int, "Moves in the whole log"),
            "log": array(
                {
                    "index": int,
                    "phase": enum(*(phase.value for phase in Phase)),
                    "deal": int,
                    "seat": int,
                    "side": int,
                    "who": str,
                    "points": int,
                    "pegged": int,
                    "reason": str,
                    "crib": bool,
                    "card": str,
                    "cards": about(str, "A show's cards and starter, if counted from them"),
                },
                description="The latest moves (up to 80), oldest first: who, how many, why",
            ),
            "result": nullable(
                {
                    "winner": int,
                    "name": str,
                    "scores": [int],
                    "lurch": bool,
                    "lurched": [int],
                    "double_skunk": bool,
                    "games_won": int,
                    "games_lost": about([int], "What each loser loses, in games"),
                    "text": str,
                }
            ),
        },
        description="A game kept at the table: the board, the deal, the play, the log, the result",
    ),
    "ComputerGame": obj(
        {
            "id": int,
            "version": about(int, "Moves saved: a move names it"),
            "rules": enum("six-card", "five-card"),
            "length": enum(61, 121),
            "level": enum(*(d.value for d in Difficulty)),
            "muggins": bool,
            "waiting": enum("discard", "play", "count", "over"),
            "deal": int,
            "dealer": about(enum(0, 1), "0: the player, 1: the computer"),
            "scores": about([int], "The player's, then the computer's"),
            "sides": array(
                {"name": str, "front": int, "back": int},
                description="Each side's pegs: front is the score, back the score before",
            ),
            "lurch_line": int,
            "double_skunk_line": nullable(int),
            "hand": about([str], "The player's cards: dealt, held in the play, or kept"),
            "throw": about(int, "Cards the player throws to the crib"),
            "playable": about([str], "The player's cards that keep the count within 31"),
            "starter": nullable(str),
            "count": nullable(int, description="The count of the play (told at beginner)"),
            "pile": about([str], "The cards of the count (the last one only at dense)"),
            "computer_holds": about(int, "Cards the computer holds in the play"),
            "counting": nullable({"what": enum("hand", "crib"), "cards": [str]}),
            "log": array(
                {
                    "deal": int,
                    "seat": nullable(enum(0, 1)),
                    "text": str,
                    "points": int,
                    "kind": enum("", "muggins", "refused", "missed"),
                },
                description="Every line of the game, oldest first",
            ),
            "result": nullable({"won": bool, "lurch": bool, "text": str, "review": str}),
        },
        description="A game against the computer: the board, the player's cards, the play, the"
        " log; none of the computer's cards before they are shown",
    ),
}

ERRORS = {
    400: "Bad input, named in the message",
    403: "Refused: a drill dealt to another player, or a request another site's page made",
    404: "No such drill",
    409: "The drill is already answered",
    410: "The drill has expired (a practice drill dealt over a day ago)",
    413: "The body is too large",
    415: "Not a JSON body",
    429: "Too many new players or photo reads from one address, or new deals for one player in a"
    " minute: wait (Retry-After)",
    503: "The database is unavailable (nothing was stored), or for photos the card reader is"
    " unavailable or busy with as many reads as it runs at once (Retry-After)",
}
GAME_ERRORS = {
    403: "Only the game's keeper moves its pegs, or a request another site's page made",
    404: "No game has this link",
    429: "Too many games set up or moves made from one address: wait (Retry-After)",
}


def reply(spec: Any, description: str, media: str = JSON) -> Schema:
    """A reply of ``spec`` (none when ``None``)."""
    if spec is None:
        return {"description": description}
    return {"description": description, "content": {media: {"schema": schema(spec)}}}


def operation(
    name: str,
    summary: str,
    replies: dict[int, Schema],
    *errors: int,
    body: Any = None,
    media: str = JSON,
    parameters: tuple[Schema, ...] = (),
    meaning: dict[int, str] | None = None,
) -> Schema:
    """One operation: its replies, then ``errors`` (and 503) as ``{"error": ...}`` replies."""
    said = ERRORS | (meaning or {})
    spelled: Schema = {"operationId": name, "summary": summary}
    if parameters:
        spelled["parameters"] = list(parameters)
    if body is not None:
        spelled["requestBody"] = {"required": True, "content": {media: {"schema": schema(body)}}}
    spelled["responses"] = {str(code): answer for code, answer in replies.items()} | {
        str(code): reply("Error", said[code]) for code in (*errors, 503)
    }
    return spelled


def query(name: str, values: list[str], default: str | None = None) -> Schema:
    """An optional query parameter, one of ``values``."""
    spelled = enum(*values) if default is None else enum(*values, default=default)
    return {"name": name, "in": "query", "required": False, "schema": spelled}


def in_path(name: str, spec: Any) -> Schema:
    """A path parameter."""
    return {"name": name, "in": "path", "required": True, "schema": schema(spec)}


POSTED = (400, 403, 413, 415)
"""The errors of any JSON post."""
GAME = in_path("code", str)

PATHS: dict[str, Schema] = {
    "/api/score": {
        "post": operation(
            "score",
            "Score a hand or crib as typed (as crib score and /score read it)",
            {
                200: reply(
                    Raw(oneOf=[schema("Score"), schema("RankScore")]),
                    "The score, item by item; for ranks alone, what is certain and what suits"
                    " could add",
                )
            },
            *POSTED,
            body=obj(
                {
                    "cards?": about(str, "'5H 5D 5C JS | 5S', '5 5 5 J'"),
                    "hand?": array(str, minItems=3, maxItems=4, description="Or a list"),
                    "starter?": str,
                    "crib?": bool,
                    "rules?": RULES,
                },
                oneOf=[{"required": ["cards"]}, {"required": ["hand", "starter"]}],
            ),
        )
    },
    "/api/pegging": {
        "post": operation(
            "pegging",
            "Score a play, players alternating ('go' marks a go)",
            {200: reply("Pegging", "Each card's points")},
            *POSTED,
            body=obj({"play": array(str, minItems=1), "end?": bool}),
        )
    },
    "/api/table": {
        "post": operation(
            "scoreTable",
            "Score a whole table: each hand, the crib and the starter by its rule",
            {200: reply("Table", "Each group scored")},
            *POSTED,
            body=obj(
                {
                    "rules?": RULES,
                    "groups": array(
                        {
                            "role": about(ROLE, "null: a hand or the crib, not yet named"),
                            "cards": [str],
                        },
                        minItems=1,
                    ),
                }
            ),
        )
    },
    "/api/drills/next": {
        "get": operation(
            "nextDrill",
            "Deal the player's next drill, or the one not yet answered (a guest is made on a"
            " first visit)",
            {200: reply("Drill", "The drill")},
            400,
            429,
            parameters=(
                query("kind", list(KINDS), "hand"),
                query("difficulty", [d.value for d in Difficulty], "standard"),
                query("mode", ["practice", "sprint"], "practice"),
                query("focus", [c.value for c in Category]),  # a weak spot: every deal has it
                query("first", ["0", "1"], "0"),  # a sprint's first hand
                {  # a discard drill of given cards: a game's discard thrown again
                    "name": "cards",
                    "in": "query",
                    "required": False,
                    "schema": about(str, "Six cards dealt, for a discard drill: 5H 5D 5C JS 2C 9D"),
                },
                query("dealer", ["0", "1"], "0"),  # whose crib, with cards
            ),
        )
    },
    "/api/drills/{drill_id}/answer": {
        "post": operation(
            "answerDrill",
            "Answer a drill (once); the verdict, the breakdown, what was missed",
            {200: reply("Verdict", "The verdict")},
            *POSTED,
            404,
            409,
            410,
            body="Answer",
            parameters=(in_path("drill_id", int),),
        )
    },
    "/api/daily": {
        "get": operation(
            "daily",
            "The daily challenge: its six drills, the answers so far, the summary",
            {200: reply("Daily", "The day's challenge")},
            400,
            429,
            parameters=(
                {
                    "name": "date",
                    "in": "query",
                    "required": False,
                    "description": "The player's date (YYYY-MM-DD), within a day of UTC's",
                    "schema": {"type": "string"},
                },
            ),
        )
    },
    "/api/read": {
        "post": operation(
            "readPhoto",
            "Read the cards in a photo: the table's groups, each scored, and what is still asked",
            {200: reply("Reading", "The cards read")},
            400,
            403,
            413,
            429,
            body=obj(
                {
                    "image": Raw(type="string", format="binary"),
                    "crib?": str,
                    "starter?": str,
                    "players?": enum("2", "3", "4"),
                    "rules?": RULES,
                    "strict?": str,
                }
            ),
            media="multipart/form-data",
        )
    },
    "/api/games": {
        "post": operation(
            "newGame",
            "Set up a game to keep at the table (the keeper is this browser's player)",
            {201: reply("Board", "The game, with its link (code) and the keeper's key")},
            *POSTED,
            429,
            body=obj(
                {
                    "names": array(str, minItems=2, maxItems=4, description="Seating order"),
                    "rules?": RULES,
                    "first_dealer?": int,
                    "length?": enum(61, 121, None),
                    "muggins?": bool,
                    "seat?": nullable(int, description="The keeper's seat"),
                }
            ),
            meaning=GAME_ERRORS,
        )
    },
    "/api/games/{code}": {
        "get": operation(
            "board",
            "The board; 304 while the version named in If-None-Match is the latest",
            {
                200: reply("Board", "The board, its version as its ETag"),
                304: reply(None, "The board has not moved since that version"),
            },
            404,
            parameters=(
                GAME,
                {"name": "If-None-Match", "in": "header", "required": False, "schema": schema(str)},
            ),
            meaning=GAME_ERRORS,
        )
    },
    "/api/games/{code}/moves": {
        "post": operation(
            "move",
            "Make a move on the version seen: a peg, a card, a go, a count, the deal, undo",
            {
                200: reply("Board", "The board after the move"),
                409: reply(
                    {"error": str, "board": "Board"},
                    "The board moved on since the version seen: nothing was saved; the board now",
                ),
            },
            *POSTED,
            404,
            429,
            body=obj(
                {
                    "version": int,
                    "key?": str,
                    "move": enum(*MOVES),
                    "seat?": int,
                    "points?": int,
                    "reason?": str,
                    "card?": str,
                    "hand?": SHOW_TARGET,
                    "cards?": Raw(oneOf=[schema(str), schema([str])]),
                    "starter?": nullable(str),
                    "source?": enum(*SOURCES),
                    "claimed?": int,
                    "index?": int,
                },
                description="peg: seat, points, reason; card: seat, card; show: hand and cards"
                " (with starter, source, claimed) or points; undo: index (the last move without)",
            ),
            parameters=(GAME,),
            meaning=GAME_ERRORS,
        )
    },
    "/api/play": {
        "post": operation(
            "newComputerGame",
            "Start a game against the computer (a guest is made on a first visit)",
            {201: reply("ComputerGame", "The game, dealt")},
            *POSTED,
            429,
            body=obj(
                {
                    "rules?": enum("six-card", "five-card"),
                    "game?": enum(61, 121, None),
                    "level?": enum(*(d.value for d in Difficulty)),
                    "muggins?": bool,
                }
            ),
            meaning={429: "Too many games started from one address: wait (Retry-After)"},
        )
    },
    "/api/play/{game_id}/moves": {
        "post": operation(
            "computerGameMove",
            "The player's move on the version seen (a throw, a card and its claim, a count),"
            " and the computer's moves after it",
            {
                200: reply("ComputerGame", "The game after the move"),
                409: reply(
                    {"error": str, "game": "ComputerGame"},
                    "The game moved on since the version seen: nothing was saved; the game now",
                ),
            },
            *POSTED,
            404,
            429,
            body=obj(
                {
                    "version": int,
                    "do": enum("throw", "play", "count"),
                    "cards?": [str],
                    "card?": str,
                    "claim?": int,
                },
                description="throw: cards; play: card and claim (what it pegs); count: claim",
            ),
            parameters=(in_path("game_id", int),),
            meaning={
                404: "No game of this player's has this id",
                429: "Too many moves from one address: wait (Retry-After)",
            },
        )
    },
}

DOCUMENT: Schema = {
    "openapi": "3.1.0",
    "info": {
        "title": "Cribbage counting trainer",
        "version": "1",
        "description": "The JSON API the trainer's pages use. The player is the session"
        ' cookie\'s (a guest is made on a first visit). Errors are {"error": message}.',
    },
    "paths": PATHS,
    "components": {"schemas": SCHEMAS},
}
