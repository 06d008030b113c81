"""Hostile JSON and form input: a clear 4xx, never a 500, and nothing junk stored."""

from __future__ import annotations

import io
import socket
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from deploy.local_server import free_port, spawn
from records.models import Answer
from trainer import score_show
from trainer.answers import FASTEST_ANSWER
from web.db import get_db
from web.request_data import JSON_BODY_LIMIT

from .conftest import post_form

DEEP = "[" * 2000 + "]" * 2000
"""Nested far past the parser's recursion limit, within the size cap."""


def score_body(crib: str) -> str:
    """A ``/api/score`` body with ``crib`` as written (JSON text)."""
    return '{"hand": ["5H", "5D", "5C", "JS"], "starter": "5S", "crib": ' + crib + "}"


def post_raw(client: FlaskClient, path: str, body: str) -> tuple[int, str]:
    """POST ``body`` as JSON; the status and the error message."""
    response = client.post(path, data=body, content_type="application/json")
    assert response.is_json, response.get_data(as_text=True)[:200]
    return response.status_code, str(response.json.get("error", ""))


def dealt(client: FlaskClient) -> dict[str, object]:
    drill = client.get("/api/drills/next?kind=hand").json
    assert drill is not None
    return drill


def right_points(drill: dict[str, object]) -> int:
    return score_show(drill["hand"], drill["starter"]).total  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "body",
    [DEEP, score_body(DEEP), '{"points": ' + DEEP + "}"],
    ids=["deep-array", "deep-field", "deep-answer"],
)
def test_deeply_nested_json_is_a_400(client: FlaskClient, body: str) -> None:
    """A 2,000-deep array (a RecursionError in the parser) is refused as bad JSON; 5,000
    deep is also over the size cap."""
    drill = dealt(client)
    for path in ("/api/score", f"/api/drills/{drill['id']}/answer"):
        status, error = post_raw(client, path, body)
        assert status == 400, path
        assert "nested too deeply" in error
        status, error = post_raw(client, path, "[" * 5000 + "]" * 5000)
        assert status in (400, 413) and error, path


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_a_400(client: FlaskClient, constant: str) -> None:
    """JSON has no NaN or Infinity (Python's parser takes them; PostgreSQL then fails)."""
    drill = dealt(client)
    for path, body in (
        ("/api/score", score_body(constant)),
        (f"/api/drills/{drill['id']}/answer", '{"points": 2, "seconds": ' + constant + "}"),
    ):
        status, error = post_raw(client, path, body)
        assert status == 400, path
        assert constant in error
    assert client.post(
        f"/api/drills/{drill['id']}/answer", json={"points": right_points(drill)}
    ).json["correct"]


@pytest.mark.parametrize(
    "number",
    ["1" + "0" * 400, "-1" + "0" * 400, "1" + "0" * 5000, "1e400", "-1e400", str(2**53 + 1)],
    ids=["huge-int", "huge-negative-int", "5001-digits", "1e400", "-1e400", "2**53+1"],
)
def test_numbers_out_of_range_are_a_400(app: Flask, client: FlaskClient, number: str) -> None:
    """A number too large for a float (a 500), or one that parses to infinity (stored as
    ``Infinity`` on SQLite, a 500 on PostgreSQL) is refused, saying so; nothing is stored."""
    drill = dealt(client)
    path = f"/api/drills/{drill['id']}/answer"
    for where, body in (
        (path, '{"points": 2, "seconds": ' + number + "}"),
        (path, '{"points": ' + number + "}"),
        ("/api/score", score_body('false, "rules": ' + number)),
    ):
        status, error = post_raw(client, where, body)
        assert status == 400, body[:40]
        assert "out of range" in error and len(error) < 200
    with app.app_context():
        assert get_db().scalar(select(Answer.id)) is None
    assert client.post(path, json={"points": right_points(drill), "seconds": 2.5}).json["correct"]


def test_json_bodies_are_capped(client: FlaskClient) -> None:
    """A few KB is plenty for any API body; a bigger one is a 413, and nothing is stored."""
    drill = dealt(client)
    junk = "x" * JSON_BODY_LIMIT
    for path in ("/api/score", f"/api/drills/{drill['id']}/answer"):
        status, error = post_raw(client, path, '{"points": 2, "junk": "' + junk + '"}')
        assert status == 413, path
        assert "too large" in error
    unannounced = client.post(  # no Content-Length: the cap applies as the body is read
        "/api/score",
        input_stream=io.BytesIO(b'{"junk": "' + junk.encode() + b'"}'),
        content_type="application/json",
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert unannounced.status_code == 413


def test_photos_keep_their_own_larger_limit(client: FlaskClient) -> None:
    """The JSON cap does not apply to photo uploads (they are refused for not being photos)."""
    photo = b"\xff\xd8" + b"\0" * 100_000
    response = client.post("/api/read", data={"image": (io.BytesIO(photo), "p.jpg")})
    assert response.status_code != 413


def test_only_the_validated_answer_is_stored(app: Flask, client: FlaskClient) -> None:
    """Extra fields in an answer body are not stored (a 9 MB junk field was)."""
    drill = dealt(client)
    body = {"points": right_points(drill), "seconds": 3.5, "junk": "x" * 1000, "muggins": True}
    assert client.post(f"/api/drills/{drill['id']}/answer", json=body).status_code == 200
    with app.app_context():
        stored = get_db().scalar(select(Answer.given).where(Answer.drill_id == drill["id"]))
    assert stored == {"points": right_points(drill), "seconds": 3.5, "muggins": True}


def test_a_discard_keeps_its_crib_model(app: Flask, client: FlaskClient) -> None:
    """A discard answer is stored with the crib model it was graded by, and nothing else."""
    drill = client.get("/api/drills/next?kind=discard").json
    body = {"discard": drill["cards"][:2], "crib_model": "weighted", "junk": [1, 2, 3]}
    assert client.post(f"/api/drills/{drill['id']}/answer", json=body).status_code == 200
    with app.app_context():
        stored = get_db().scalar(select(Answer.given).where(Answer.drill_id == drill["id"]))
    assert stored == {"discard": drill["cards"][:2], "crib_model": "weighted"}


@pytest.mark.parametrize("seconds", [0, -1, FASTEST_ANSWER / 2])
def test_impossibly_fast_answers_are_refused(client: FlaskClient, seconds: float) -> None:
    """No one counts a hand faster than they can see it: such a time is refused, not stored."""
    drill = dealt(client)
    path = f"/api/drills/{drill['id']}/answer"
    response = client.post(path, json={"points": right_points(drill), "seconds": seconds})
    assert response.status_code == 400
    assert "too fast" in response.json["error"]
    assert client.post(path, json={"points": right_points(drill), "seconds": 2}).status_code == 200


def test_a_nul_byte_in_a_username_is_refused(client: FlaskClient) -> None:
    """A NUL byte (which PostgreSQL text cannot hold) never reaches the database: log in
    says the name or password is wrong, registration says what a username may hold."""
    form = {"username": "ali\0ce", "password": "cribbage29"}
    assert post_form(client, "/auth/login", form).status_code == 401
    registered = post_form(client, "/auth/register", form)
    assert "Username: 3 to 40" in registered.get_data(as_text=True)


BAD_CHUNK = b"ZZ\r\n{}\r\n0\r\n\r\n"
"""A chunked body whose first chunk size is not hexadecimal."""


@pytest.mark.slow
def test_a_malformed_chunked_body_is_a_400(tmp_path: Path) -> None:
    """A body whose chunk size is ``ZZ`` (gunicorn's reader raises while a view reads it) is
    a 400 saying so, on a JSON route and a form route, and no traceback is logged."""
    port = free_port()
    server = spawn(port, 1, tmp_path, "chunks")
    try:
        for path, content_type in (
            ("/api/score", "application/json"),
            ("/auth/login", "application/x-www-form-urlencoded"),
        ):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
                connection.sendall(
                    f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {content_type}"
                    "\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
                    + BAD_CHUNK
                )
                reply = connection.makefile("rb").read().decode()
            assert reply.startswith("HTTP/1.1 400"), (path, reply[:200])
            assert "chunk" in reply.split("\r\n\r\n", 1)[1], path
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert "Traceback" not in (tmp_path / "server.log").read_text()
