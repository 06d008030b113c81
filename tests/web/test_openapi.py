"""The OpenAPI document of the JSON API (``/api/openapi.json``), checked by schemathesis:
generated requests to every operation get no 5xx and only responses the document describes."""

from __future__ import annotations

import collections
import re
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.config import SchemathesisConfig
from werkzeug.test import TestResponse

from web.openapi import PATHS

api = schemathesis.pytest.from_fixture("api_schema")
CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "negative_data_rejection": {
                # schemathesis's list plus 413: a generated body over the API's 8 KB cap is
                # rightly refused as too large before its fields are read.
                "expected-statuses": [
                    *("400", "401", "403", "404", "405", "406", "409", "413", "415"),
                    *("422", "428", "429", "5xx"),
                ]
            }
        }
    }
)
GENERATED: collections.Counter[str] = collections.Counter()
"""Generated cases run, by operation (printed at the end of the module: ``pytest -s``)."""


@pytest.fixture(scope="module", autouse=True)
def _report_generated() -> Iterator[None]:
    yield
    if GENERATED:
        by_operation = ", ".join(f"{op} {n}" for op, n in sorted(GENERATED.items()))
        print(f"\nschemathesis: {GENERATED.total()} generated cases ({by_operation})")


@pytest.fixture
def api_schema(app: Flask) -> Any:
    """The document as the app serves it, calling the app in-process (WSGI)."""
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=CONFIG)


def test_document_lists_every_api_route(app: Flask) -> None:
    """Every JSON route of the app (but the document itself) is an operation, and no more."""
    routes = {
        (re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule), method.lower())
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/") and rule.rule != "/api/openapi.json"
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    documented = {(path, method) for path, item in PATHS.items() for method in item}
    assert documented == routes


@pytest.mark.slow  # hundreds of generated requests
@api.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_conforms_to_its_document(case: Any) -> None:
    """No 5xx, a documented status and content type, a body matching its schema. (Not every
    schema-valid body is an answer the engine accepts: a hand of cards that are all valid may
    hold a duplicate, so a 400 for a schema-valid request is no failure.)"""
    GENERATED[f"{case.method} {case.path}"] += 1
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["hand", "crib", "pegging", "discard"])
def test_successful_replies_conform(api_schema: Any, client: FlaskClient, kind: str) -> None:
    """One player deals a drill of each kind, answers it (with muggins) and answers it again,
    then opens the daily challenge: each reply matches the document (random requests rarely
    get this far)."""

    def check(path: str, method: str, reply: TestResponse, **request: Any) -> Any:
        api_schema[path][method].Case(**request).validate_response(
            reply, excluded_checks=[positive_data_acceptance]
        )
        return reply.json

    dealt = client.get(f"/api/drills/next?kind={kind}")
    drill = check("/api/drills/next", "GET", dealt, query={"kind": kind})
    body = {"discard": drill["cards"][:2]} if kind == "discard" else {"points": 0}
    body["muggins"] = kind != "discard"
    path = "/api/drills/{drill_id}/answer"
    for status in (200, 409):  # answered, then answered again
        reply = client.post(f"/api/drills/{drill['id']}/answer", json=body)
        assert reply.status_code == status
        check(path, "POST", reply, path_parameters={"drill_id": drill["id"]}, body=body)
    daily = check("/api/daily", "GET", client.get("/api/daily"))
    assert len(daily["drills"]) == 6


@pytest.mark.parametrize(
    "body",
    [
        {"cards": "5H 5D 5C JS | 5S"},
        {"cards": "5 5 5 J", "starter": "5"},
        {"hand": ["5", "5", "5", "J"], "starter": "5S"},
    ],
)
def test_score_replies_conform(api_schema: Any, client: FlaskClient, body: dict[str, Any]) -> None:
    """A score of typed cards, of ranks alone and of a listed hand: each matches the document."""
    reply = client.post("/api/score", json=body)
    assert reply.status_code == 200
    case = api_schema["/api/score"]["POST"].Case(body=body)
    case.validate_response(reply, excluded_checks=[positive_data_acceptance])


def test_a_photo_answer_conforms(
    api_schema: Any, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table read from a photo (the reader stood in for) with the crib asked about, and a
    hand with a typed starter: each answer matches the document."""
    from .test_photo import FakeReading, fanned, install_reader, upload

    cards = [
        *fanned("5H 5D 5C JS", 100, 100),
        *fanned("2H 4H 6H 8H", 700, 400),
        *fanned("AC 2C 3C 4D", 100, 400),
        *fanned("KS", 400, 400),
    ]
    install_reader(monkeypatch, lambda data: FakeReading(cards, None))
    operation = api_schema["/api/read"]["POST"]
    table = upload(client)
    assert table.json["groups"][1]["crib_score"] is not None
    operation.Case(media_type="multipart/form-data").validate_response(
        table, excluded_checks=[positive_data_acceptance]
    )
    install_reader(monkeypatch, lambda data: FakeReading(fanned("5H 5D 5C JS", 100, 100), None))
    typed = upload(client, starter="5S")
    assert typed.json["cards"][4]["box"] is None
    operation.Case(media_type="multipart/form-data").validate_response(
        typed, excluded_checks=[positive_data_acceptance]
    )


def test_a_games_replies_conform(api_schema: Any, client: FlaskClient) -> None:
    """A game set up, watched (200, then 304), moved, a show counted from cards, a stale move
    (409 with the board) and a refused one: each reply matches the document."""

    def check(path: str, method: str, reply: TestResponse, **request: Any) -> Any:
        api_schema[path][method].Case(**request).validate_response(
            reply, excluded_checks=[positive_data_acceptance]
        )
        return reply.json

    body = {"names": ["Ann", "Bob"], "seat": 0, "muggins": True}
    game = check("/api/games", "POST", client.post("/api/games", json=body), body=body)
    code = {"code": game["code"]}
    board = client.get(f"/api/games/{game['code']}")
    check("/api/games/{code}", "GET", board, path_parameters=code)
    unmoved = client.get(f"/api/games/{game['code']}", headers={"If-None-Match": '"0"'})
    assert unmoved.status_code == 304
    check("/api/games/{code}", "GET", unmoved, path_parameters=code)
    path = "/api/games/{code}/moves"
    for move, status in [
        ({"version": 0, "move": "card", "seat": 1, "card": "5H"}, 200),
        (
            {
                "version": 1,
                "move": "show",
                "hand": 1,
                "cards": "5H 5C 5S JS",  # the 5♥ he played
                "starter": "KH",
                "claimed": 10,
            },
            200,
        ),
        ({"version": 1, "move": "go"}, 409),
        ({"version": 2, "move": "show", "hand": "crib", "cards": "AH 2H 3H 4H | KH"}, 400),
    ]:
        reply = client.post(f"/api/games/{game['code']}/moves", json=move)
        assert reply.status_code == status, reply.json
        check(path, "POST", reply, path_parameters=code, body=move)


@pytest.mark.slow
def test_a_computer_games_replies_conform(api_schema: Any, client: FlaskClient) -> None:
    """A game against the computer started, a throw, a stale move (409 with the game) and a
    refused one: each reply matches the document."""

    def check(path: str, reply: TestResponse, **request: Any) -> Any:
        api_schema[path]["POST"].Case(**request).validate_response(
            reply, excluded_checks=[positive_data_acceptance]
        )
        return reply.json

    body = {"rules": "six-card", "game": 61, "level": "beginner", "muggins": True}
    game = check("/api/play", client.post("/api/play", json=body), body=body)
    path, ids = "/api/play/{game_id}/moves", {"game_id": game["id"]}
    for move, status in [
        ({"version": 0, "do": "throw", "cards": game["hand"][:2]}, 200),
        ({"version": 0, "do": "throw", "cards": game["hand"][2:4]}, 409),
        ({"version": 1, "do": "count", "claim": 3}, 400),
    ]:
        reply = client.post(f"/api/play/{game['id']}/moves", json=move)
        assert reply.status_code == status, reply.json
        check(path, reply, path_parameters=ids, body=move)
