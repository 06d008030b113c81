"""Progress: charts drawn on the server, misses by category, the gentle streak."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

import records.drills
from records import progress
from records.models import Player
from trainer import score_show
from trainer.dealing import Category
from trainer.progress import WEAK_AFTER
from web import charts
from web.db import get_db

from .conftest import Clock


def test_progress_page_after_answers(client: FlaskClient) -> None:
    """Accuracy and speed are drawn as SVG; missed categories are listed, most missed first,
    once answered often enough to be weak spots, each a link to a drill of it alone."""
    drills = []
    for n in range(WEAK_AFTER):  # each answered before the next (an unanswered one comes back)
        drill = client.get("/api/drills/next?kind=crib&focus=fifteens").json
        total = score_show(drill["hand"], drill["starter"], crib=True).total
        client.post(f"/api/drills/{drill['id']}/answer", json={"points": total + (n == 0)})
        drills.append(drill)
        if n == 2:  # one miss in three answers: no weak spot yet
            assert 'class="chip-link"' not in client.get("/progress").text
    page = client.get("/progress").get_data(as_text=True)
    assert page.count("<svg") == 4  # the counting rating, accuracy, speed, misses
    assert "<polyline" in page and "<rect" in page
    assert f'id="done">{WEAK_AFTER}<' in page and f"crib {WEAK_AFTER}" in page
    assert "categories" not in drills[0]  # nothing is given away before the answer
    assert f"{round(100 * (WEAK_AFTER - 1) / WEAK_AFTER)}%" in page
    assert 'class="chip-link" href="/practice/hand?focus=fifteens"' in page  # a weak spot


def test_charts() -> None:
    """Line charts scale to the top value; bar charts are proportional; empty data says so."""
    line = charts.line_chart(["2026-11-21", "2026-11-22"], [50.0, 100.0], "%", 100)
    assert line.count("<circle") == 2 and "11-22" in line
    bars = charts.bar_chart([Category.NOBS.value], [0.5], ["1 of 2"])
    assert 'width="65.0"' in bars and "nobs" in bars
    assert "Nothing yet" in charts.line_chart([], [], "s")
    assert "&lt;b&gt;" in charts.bar_chart(["<b>"], [1.0], [""])


def test_speed_counts_only_hands_and_cribs(app: Flask, client: FlaskClient, clock: Clock) -> None:
    """Seconds per hand leave out pegging and discard answers; accuracy counts them all."""
    hand = client.get("/api/drills/next?kind=hand").json
    peg = client.get("/api/drills/next?kind=pegging").json
    clock.advance(30)
    client.post(f"/api/drills/{hand['id']}/answer", json={"points": 99, "seconds": 4.0})
    client.post(f"/api/drills/{peg['id']}/answer", json={"points": 99, "seconds": 0.5})
    with app.app_context():
        player = get_db().scalar(select(Player.id))
        assert player is not None
        (day,) = progress.days(get_db(), player)
    assert (day.answers, day.correct, day.hands) == (2, 0, 1)
    assert day.seconds_per_hand == 4.0  # the pegging answer's 0.5 s is not in it


def test_tallies_kept_per_answer_match_a_recount(app: Flask, client: FlaskClient) -> None:
    """The tallies added answer by answer equal :func:`records.drills.rebuild_skills`'s recount."""
    for kind, points in [("hand", 0), ("crib", 99), ("pegging", 99), ("hand", 99), ("discard", 0)]:
        drill = client.get(f"/api/drills/next?kind={kind}").json
        body = {"discard": drill["cards"][:2]} if kind == "discard" else {"points": points}
        assert client.post(f"/api/drills/{drill['id']}/answer", json=body).status_code == 200
    with app.app_context():
        db = get_db()
        player_id = db.scalars(select(Player.id)).one()
        kept = records.drills.tallies(db, player_id)
        records.drills.rebuild_skills(db, player_id)
        assert kept and records.drills.tallies(db, player_id) == kept


def test_one_day_chart_is_centred_with_one_label() -> None:
    """With a single day the dot sits in the middle and the day is named once."""
    chart = charts.line_chart(["2026-11-23"], [80.0], "%", 100)
    assert chart.count(">11-23</text>") == 1
    assert '<circle cx="160.0"' in chart
