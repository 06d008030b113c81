"""The counting rating on the pages (issue players3, item 15): every answer through the API moves
it; home shows it with its trend, progress by kind with its chart; a newcomer sees none."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.drills import right_points

from .conftest import Clock


def _answer(client: FlaskClient, kind: str, *, right: bool) -> None:
    drill = client.get(f"/api/drills/next?kind={kind}").json
    assert drill is not None
    points = right_points(drill) + (0 if right else 1)
    reply = client.post(f"/api/drills/{drill['id']}/answer", json={"points": points, "seconds": 3})
    assert reply.status_code == 200


def _rating(page: str) -> int:
    found = re.search(r'id="rating">(\d+)\??<', page)
    assert found, page
    return int(found.group(1))


def test_a_newcomer_has_no_rating_shown(client: FlaskClient) -> None:
    assert 'id="rating"' not in client.get("/").text
    client.get("/api/drills/next?kind=hand")  # a guest now, nothing answered
    assert 'id="rating"' not in client.get("/").text
    assert 'id="ratings"' not in client.get("/progress").text


def test_answers_move_the_rating_shown_on_home_and_progress(
    client: FlaskClient, clock: Clock
) -> None:
    _answer(client, "hand", right=True)
    first = _rating(client.get("/").text)
    assert first > 1500
    clock.advance(10)
    _answer(client, "pegging", right=True)
    home = client.get("/").text
    assert _rating(home) > first
    assert re.search(r'id="rating-trend">\(\+\d+ this week\)', home)
    progress = client.get("/progress").text
    assert _rating(progress) == _rating(home)
    kinds = dict(re.findall(r'data-kind="(\w+)">(\d+)\??<', progress))
    assert set(kinds) == {"hand", "pegging"}
    assert "Counting rating by day" in progress and 'aria-label="rating by day"' in progress


def test_a_miss_lowers_it(client: FlaskClient) -> None:
    _answer(client, "crib", right=False)
    assert _rating(client.get("/").text) < 1500
    assert "this week)" in client.get("/").text
