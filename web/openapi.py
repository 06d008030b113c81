"""The JSON API described as an OpenAPI 3.1 document, served at ``/api/openapi.json``.

Written by hand beside the views in :mod:`web.api`, :mod:`web.photo` and :mod:`web.board`;
the test suite runs schemathesis against it (every operation, generated requests), which fails
on any response that the document does not describe.
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


def _array(items: Schema, **extra: Any) -> Schema:
    return {"type": "array", "items": items, **extra}


def _object(properties: dict[str, Schema], *optional: str, **extra: Any) -> Schema:
    """An object with these properties, all required but ``optional``."""
    required = [name for name in properties if name not in optional]
    return {"type": "object", "properties": properties, "required": required, **extra}


def _ref(schema: str) -> Schema:
    return {"$ref": f"#/components/schemas/{schema}"}


CARD: Schema = {
    "type": "string",
    "pattern": "^(?:[AaTtJjQqKk2-9]|10)[HDCShdcs♥♦♣♠]$",
    "description": "A card as players write it: 5H, 10D, TD, JS, 5♥",
}
CARDS = _array({"type": "string"})
NUMBER: Schema = {"type": "number"}
INTEGER: Schema = {"type": "integer"}
BOOLEAN: Schema = {"type": "boolean"}
STRING: Schema = {"type": "string"}
RULES: Schema = {"type": "string", "enum": sorted(RULESETS)}
KIND_NAMES = [kind.value for kind in Kind]
ROLE_NAMES = [role.value for role in Role]

BREAKDOWN: dict[str, Schema] = {
    "total": INTEGER,
    "items": _array(_ref("Item")),
    "hand": CARDS,
    "starter": STRING,
    "crib": BOOLEAN,
    "rules": RULES,
    "say": STRING,
}

PEG: dict[str, Schema] = {
    "card": STRING,
    "player": {"type": "integer", "enum": [0, 1]},
    "count": INTEGER,
    "points": INTEGER,
    "items": _array(_ref("Item")),
}
"""A card (or go) of a play and what it pegged."""
SAID = _object({"count": INTEGER, "points": INTEGER})

SCHEMAS: dict[str, Schema] = {
    "Error": _object({"error": STRING}),
    "Item": _object(
        {"kind": {"type": "string", "enum": KIND_NAMES}, "cards": CARDS, "points": INTEGER}
    ),
    "RuleText": {
        "type": "object",
        "description": "The rule of each kind of item, by kind",
        "propertyNames": {"enum": KIND_NAMES},
        "additionalProperties": STRING,
    },
    "Breakdown": _object(BREAKDOWN, description="A hand's or crib's score, item by item"),
    "Score": _object({**BREAKDOWN, "rule_text": _ref("RuleText")}),
    "RankScore": _object(
        {
            "certain": INTEGER,
            "possible": _array(_object({"total": INTEGER, "if": STRING})),
            "say": STRING,
            "rule_text": _ref("RuleText"),
        }
    ),
    "Pegging": _object(
        {
            "pegs": _array(_object(PEG)),
            "rule_text": _ref("RuleText"),
        }
    ),
    "Drill": _object(
        {
            "id": INTEGER,
            "kind": {"type": "string", "enum": list(KINDS)},
            "mode": {"type": "string", "enum": ["practice", "sprint", "daily", "review"]},
            "difficulty": {"type": "string", "enum": [d.value for d in Difficulty]},
            "position": {"type": ["integer", "null"]},
            "hand": CARDS,
            "starter": STRING,
            "crib": BOOLEAN,
            "played": CARDS,
            "card": STRING,
            "count": INTEGER,
            "count_before": INTEGER,
            "ask_count": BOOLEAN,
            "cards": CARDS,
            "dealer": {"type": ["boolean", "array"], "items": STRING},
            "role": {"type": "string", "enum": ["dealer", "pone"]},
            "pone": CARDS,
            "steps": _array(_object({"card": STRING, "player": INTEGER}, "player")),
        },
        *("hand", "starter", "crib", "played", "card", "count", "count_before", "ask_count"),
        *("cards", "dealer", "role", "pone", "steps"),
        description="hand, starter, crib: hands, cribs; played, card, count (or count_before, or"
        " ask_count): pegging; cards, dealer, role: discards; pone, dealer, steps: a play",
    ),
    "Answer": _object(
        {
            "points": {"type": "integer", "minimum": 0, "maximum": 99},
            "by_kind": {
                "type": "object",
                "propertyNames": {"enum": KIND_NAMES},
                "additionalProperties": {"type": "integer", "minimum": 0},
            },
            "discard": _array(CARD, minItems=1, maxItems=2),
            "count": {"type": "integer", "minimum": 0, "maximum": 99},
            "steps": _array(SAID, minItems=1, description="A play's cards so far (checked)"),
            "seconds": {"type": "number", "description": "Seconds the drill was on screen"},
            "muggins": BOOLEAN,
        },
        *("points", "by_kind", "discard", "count", "steps", "seconds", "muggins"),
        description="One of points (hands, cribs, pegging, with the count when asked),"
        " by_kind (hands, cribs), discard, or steps (a play)",
    ),
    "Verdict": _object(
        {
            "id": INTEGER,
            "kind": {"type": "string", "enum": list(KINDS)},
            "correct": BOOLEAN,
            "total": NUMBER,
            "claimed": NUMBER,
            "items": _array(_ref("Item")),
            "missed": _array(_ref("Item")),
            "over": NUMBER,
            "under": NUMBER,
            "missed_categories": _array(STRING),
            "options": _array(
                _object(
                    {
                        "keep": CARDS,
                        "discard": CARDS,
                        "hand_ev": NUMBER,
                        "crib_ev": NUMBER,
                        "crib_ev_uniform": NUMBER,
                        "crib_ev_weighted": {"type": ["number", "null"]},
                        "crib_model": {"type": "string", "enum": ["uniform", "weighted"]},
                        "net_ev": NUMBER,
                    },
                    *("crib_ev_uniform", "crib_ev_weighted", "crib_model"),
                )
            ),
            "lost": NUMBER,
            "note": STRING,
            "reason": STRING,
            "heels": STRING,
            "by_kind": _array(
                _object({"kind": {"enum": KIND_NAMES}, "claimed": INTEGER, "right": INTEGER})
            ),
            "count": _object({"claimed": INTEGER, "right": INTEGER}),
            "steps": _array(_object({**PEG, "claimed": SAID, "correct": BOOLEAN})),
            "complete": BOOLEAN,
            "seconds": NUMBER,
            "say": STRING,
            "muggins": _object({"you": NUMBER, "opponent": NUMBER}),
            "rule_text": _ref("RuleText"),
        },
        *("options", "lost", "note", "reason", "heels", "by_kind", "say", "muggins"),
        *("count", "steps", "complete"),
    ),
    "Daily": _object(
        {
            "date": {"type": "string", "format": "date"},
            "drills": _array(
                {
                    "allOf": [
                        _ref("Drill"),
                        _object({"answered": BOOLEAN, "correct": {"type": ["boolean", "null"]}}),
                    ]
                }
            ),
            "summary": _object(
                {
                    "done": INTEGER,
                    "of": INTEGER,
                    "complete": BOOLEAN,
                    "score": INTEGER,
                    "seconds": NUMBER,
                    "streak": INTEGER,
                    "share": STRING,
                },
                *("score", "seconds", "streak", "share"),
            ),
        }
    ),
    "ScoredGroup": _object(
        {
            "role": {"type": ["string", "null"], "enum": [*ROLE_NAMES, None]},
            "cards": CARDS,
            "score": {"oneOf": [_ref("Breakdown"), {"type": "null"}]},
            "crib_score": {
                "oneOf": [_ref("Breakdown"), {"type": "null"}],
                "description": "A group not yet named: its score as the crib, when that differs",
            },
        }
    ),
    "Table": _object(
        {
            "rules": RULES,
            "groups": _array(_ref("ScoredGroup")),
            "rule_text": _ref("RuleText"),
        }
    ),
    "Reading": _object(
        {
            "rules": RULES,
            "image_size": _array(INTEGER, minItems=2, maxItems=2),
            "seconds": NUMBER,
            "cards": _array(
                _object(
                    {
                        "card": CARD,
                        "confidence": NUMBER,
                        "box": {
                            "oneOf": [_array(NUMBER, minItems=4, maxItems=4), {"type": "null"}],
                            "description": "Its corner index on the photo; null when typed",
                        },
                        "uncertain": BOOLEAN,
                        "choices": _array(
                            CARD, minItems=1, description="What it may be, best first"
                        ),
                    }
                ),
                description="Every card read, then a starter the player typed",
            ),
            "groups": _array(
                _object(
                    {
                        "role": {"type": ["string", "null"], "enum": [*ROLE_NAMES, None]},
                        "name": STRING,
                        "cards": _array(INTEGER, description="Indices into cards"),
                        "box": {
                            "oneOf": [_array(NUMBER, minItems=4, maxItems=4), {"type": "null"}]
                        },
                        "score": {
                            "oneOf": [_ref("Breakdown"), {"type": "null"}],
                            "description": "As a hand while the role is asked; null for the"
                            " starter, an unknown starter or a doubtful card",
                        },
                        "crib_score": {
                            "oneOf": [_ref("Breakdown"), {"type": "null"}],
                            "description": "While the role is asked: the score as the crib,"
                            " when a crib flush makes it differ",
                        },
                    }
                ),
                description="The table's groups (hands, crib, starter) by where the cards lie",
            ),
            "question": {
                "oneOf": [
                    _object(
                        {
                            "kind": {"type": "string", "enum": ["starter", "crib", "groups"]},
                            "text": STRING,
                            "choices": _array(
                                INTEGER,
                                description="Card (starter) or group (crib) indices; for groups,"
                                " the group that seems one card short, when one does",
                            ),
                        }
                    ),
                    {"type": "null"},
                ],
                "description": "The smallest question that settles an ambiguous layout",
            },
            "left_out": _array(INTEGER, description="Indices of readings left out of the groups"),
            "note": STRING,
        },
        additionalProperties=False,
    ),
}


def _reply(schema: Schema | str, description: str) -> Schema:
    ref = _ref(schema) if isinstance(schema, str) else schema
    return {"description": description, "content": {JSON: {"schema": ref}}}


def _errors(*codes: int, about: dict[int, str] | None = None) -> dict[str, Schema]:
    """Error replies: ``{"error": "..."}`` in players' words (``about``: an operation's own)."""
    meaning = {
        400: "Bad input, named in the message",
        403: "Refused: a drill dealt to another player, or a request another site's page made",
        404: "No such drill",
        409: "The drill is already answered",
        410: "The drill has expired (a practice drill dealt over a day ago)",
        413: "The body is too large",
        415: "Not a JSON body",
        429: "Too many new players or photo reads from one address, or new deals for one player"
        " in a minute: wait (Retry-After)",
        503: "The database is unavailable (nothing was stored), or for photos the card reader is"
        " unavailable or busy with as many reads as it runs at once (Retry-After)",
    }
    meaning |= about or {}
    return {str(code): _reply("Error", meaning[code]) for code in (*codes, 503)}


def _body(schema: Schema | str) -> Schema:
    ref = _ref(schema) if isinstance(schema, str) else schema
    return {"required": True, "content": {JSON: {"schema": ref}}}


def _query(name: str, values: list[str], default: str | None = None) -> Schema:
    schema: Schema = {"type": "string", "enum": values}
    if default is not None:
        schema["default"] = default
    return {"name": name, "in": "query", "required": False, "schema": schema}


PATHS: dict[str, Schema] = {
    "/api/score": {
        "post": {
            "operationId": "score",
            "summary": "Score a hand or crib as typed (as crib score and /score read it)",
            "requestBody": _body(
                _object(
                    {
                        "cards": {"type": "string", "description": "'5H 5D 5C JS | 5S', '5 5 5 J'"},
                        "hand": _array(STRING, minItems=3, maxItems=4, description="Or a list"),
                        "starter": STRING,
                        "crib": BOOLEAN,
                        "rules": RULES,
                    },
                    *("cards", "hand", "starter", "crib", "rules"),
                    oneOf=[{"required": ["cards"]}, {"required": ["hand", "starter"]}],
                )
            ),
            "responses": {
                "200": _reply(
                    {"oneOf": [_ref("Score"), _ref("RankScore")]},
                    "The score, item by item; for ranks alone, what is certain and what suits"
                    " could add",
                ),
                **_errors(400, 403, 413, 415),
            },
        }
    },
    "/api/pegging": {
        "post": {
            "operationId": "pegging",
            "summary": "Score a play, players alternating ('go' marks a go)",
            "requestBody": _body(
                _object({"play": _array(STRING, minItems=1), "end": BOOLEAN}, "end")
            ),
            "responses": {
                "200": _reply("Pegging", "Each card's points"),
                **_errors(400, 403, 413, 415),
            },
        }
    },
    "/api/table": {
        "post": {
            "operationId": "scoreTable",
            "summary": "Score a whole table: each hand, the crib and the starter by its rule",
            "requestBody": _body(
                _object(
                    {
                        "rules": RULES,
                        "groups": _array(
                            _object(
                                {
                                    "role": {
                                        "type": ["string", "null"],
                                        "enum": [*ROLE_NAMES, None],
                                        "description": "null: a hand or the crib, not yet named",
                                    },
                                    "cards": CARDS,
                                }
                            ),
                            minItems=1,
                        ),
                    },
                    "rules",
                )
            ),
            "responses": {
                "200": _reply("Table", "Each group scored"),
                **_errors(400, 403, 413, 415),
            },
        }
    },
    "/api/drills/next": {
        "get": {
            "operationId": "nextDrill",
            "summary": "Deal the player's next drill, or the one not yet answered (a guest is"
            " made on a first visit)",
            "parameters": [
                _query("kind", list(KINDS), "hand"),
                _query("difficulty", [d.value for d in Difficulty], "standard"),
                _query("mode", ["practice", "sprint"], "practice"),
                _query("focus", [c.value for c in Category]),  # a weak spot: every deal has it
                _query("first", ["0", "1"], "0"),  # a sprint's first hand
            ],
            "responses": {"200": _reply("Drill", "The drill"), **_errors(400, 429)},
        }
    },
    "/api/drills/{drill_id}/answer": {
        "post": {
            "operationId": "answerDrill",
            "summary": "Answer a drill (once); the verdict, the breakdown, what was missed",
            "parameters": [{"name": "drill_id", "in": "path", "required": True, "schema": INTEGER}],
            "requestBody": _body("Answer"),
            "responses": {
                "200": _reply("Verdict", "The verdict"),
                **_errors(400, 403, 404, 409, 410, 413, 415),
            },
        }
    },
    "/api/daily": {
        "get": {
            "operationId": "daily",
            "summary": "The daily challenge: its six drills, the answers so far, the summary",
            "parameters": [
                {
                    "name": "date",
                    "in": "query",
                    "required": False,
                    "description": "The player's date (YYYY-MM-DD), within a day of UTC's",
                    "schema": {"type": "string"},
                }
            ],
            "responses": {"200": _reply("Daily", "The day's challenge"), **_errors(400, 429)},
        }
    },
    "/api/read": {
        "post": {
            "operationId": "readPhoto",
            "summary": "Read the cards in a photo: the table's groups, each scored, and what is"
            " still asked",
            "requestBody": {
                "required": True,
                "content": {
                    "multipart/form-data": {
                        "schema": _object(
                            {
                                "image": {"type": "string", "format": "binary"},
                                "crib": STRING,
                                "starter": STRING,
                                "players": {"type": "string", "enum": ["2", "3", "4"]},
                                "rules": RULES,
                            },
                            "crib",
                            "starter",
                            "players",
                            "rules",
                        )
                    }
                },
            },
            "responses": {
                "200": _reply("Reading", "The cards read"),
                **_errors(400, 403, 413, 429),
            },
        }
    },
}

SHOW_TARGET: Schema = {
    "oneOf": [{"type": "integer", "minimum": 0}, {"const": "crib"}],
    "description": "A hand (its seat) or the crib",
}
SCHEMAS["Board"] = _object(
    {
        "code": STRING,
        "version": {"type": "integer", "description": "Moves saved: a move names it"},
        "keeper": {"type": "boolean", "description": "Whether this phone keeps the game"},
        "seat": {"type": ["integer", "null"], "description": "The keeper's own seat, if any"},
        "key": {"type": "string", "description": "The keeper's key (to the keeper only)"},
        "rules": RULES,
        "title": STRING,
        "names": _array(STRING),
        "hand_size": INTEGER,
        "crib_size": INTEGER,
        "length": {"type": "integer", "enum": [61, 121]},
        "muggins": BOOLEAN,
        "lurch_line": INTEGER,
        "double_skunk_line": {"type": ["integer", "null"]},
        "sides": _array(
            _object({"name": STRING, "seats": _array(INTEGER), "front": INTEGER, "back": INTEGER}),
            description="Each side's pegs: front is the score, back the score before",
        ),
        "deal": INTEGER,
        "dealer": INTEGER,
        "pone": INTEGER,
        "phase": {"type": "string", "enum": ["play", "show", "deal", "over"]},
        "show_order": _array(SHOW_TARGET),
        "next_to_show": {"oneOf": [SHOW_TARGET, {"type": "null"}]},
        "play": _object(
            {
                "count": INTEGER,
                "pile": CARDS,
                "played": _array(_object({"seat": INTEGER, "card": STRING})),
                "cards_left": INTEGER,
                "next_seat": INTEGER,
            },
            description="The play entered card by card",
        ),
        "log": _array(
            _object(
                {
                    "index": INTEGER,
                    "phase": {"type": "string", "enum": [phase.value for phase in Phase]},
                    "deal": INTEGER,
                    "seat": INTEGER,
                    "side": INTEGER,
                    "who": STRING,
                    "points": INTEGER,
                    "pegged": INTEGER,
                    "reason": STRING,
                    "crib": BOOLEAN,
                    "card": STRING,
                }
            ),
            description="Every move, oldest first: who, how many, why",
        ),
        "result": {
            "oneOf": [
                _object(
                    {
                        "winner": INTEGER,
                        "name": STRING,
                        "scores": _array(INTEGER),
                        "lurch": BOOLEAN,
                        "lurched": _array(INTEGER),
                        "double_skunk": BOOLEAN,
                        "games_won": INTEGER,
                        "text": STRING,
                    }
                ),
                {"type": "null"},
            ]
        },
    },
    "key",
    description="A game kept at the table: the board, the deal, the play, the log, the result",
)
CODE = {"name": "code", "in": "path", "required": True, "schema": STRING}
GAME_ERRORS = {
    403: "Only the game's keeper moves its pegs, or a request another site's page made",
    404: "No game has this link",
    429: "Too many games set up or moves made from one address: wait (Retry-After)",
}
PATHS["/api/games"] = {
    "post": {
        "operationId": "newGame",
        "summary": "Set up a game to keep at the table (the keeper is this browser's player)",
        "requestBody": _body(
            _object(
                {
                    "names": _array(STRING, minItems=2, maxItems=4, description="Seating order"),
                    "rules": RULES,
                    "first_dealer": INTEGER,
                    "length": {"type": ["integer", "null"], "enum": [61, 121, None]},
                    "muggins": BOOLEAN,
                    "seat": {"type": ["integer", "null"], "description": "The keeper's seat"},
                },
                *("rules", "first_dealer", "length", "muggins", "seat"),
            )
        ),
        "responses": {
            "201": _reply("Board", "The game, with its link (code) and the keeper's key"),
            **_errors(400, 403, 413, 415, 429, about=GAME_ERRORS),
        },
    }
}
PATHS["/api/games/{code}"] = {
    "get": {
        "operationId": "board",
        "summary": "The board; 304 while the version named in If-None-Match is the latest",
        "parameters": [
            CODE,
            {"name": "If-None-Match", "in": "header", "required": False, "schema": STRING},
        ],
        "responses": {
            "200": _reply("Board", "The board, its version as its ETag"),
            "304": {"description": "The board has not moved since that version"},
            **_errors(404, about=GAME_ERRORS),
        },
    }
}
PATHS["/api/games/{code}/moves"] = {
    "post": {
        "operationId": "move",
        "summary": "Make a move on the version seen: a peg, a card, a go, a count, the deal, undo",
        "parameters": [CODE],
        "requestBody": _body(
            _object(
                {
                    "version": INTEGER,
                    "key": STRING,
                    "move": {"type": "string", "enum": list(MOVES)},
                    "seat": INTEGER,
                    "points": INTEGER,
                    "reason": STRING,
                    "card": STRING,
                    "hand": SHOW_TARGET,
                    "cards": {"oneOf": [STRING, CARDS]},
                    "starter": {"type": ["string", "null"]},
                    "source": {"type": "string", "enum": list(SOURCES)},
                    "claimed": INTEGER,
                    "index": INTEGER,
                },
                *("key", "seat", "points", "reason", "card", "hand", "cards", "starter"),
                *("source", "claimed", "index"),
                description="peg: seat, points, reason; card: seat, card; show: hand and cards"
                " (with starter, source, claimed) or points; undo: index (the last move without)",
            )
        ),
        "responses": {
            "200": _reply("Board", "The board after the move"),
            "409": _reply(
                _object({"error": STRING, "board": _ref("Board")}),
                "The board moved on since the version seen: nothing was saved; the board now",
            ),
            **_errors(400, 403, 404, 413, 415, 429, about=GAME_ERRORS),
        },
    }
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
