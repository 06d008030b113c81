"""Coming back: the home page says where the player stands; the history shows the days
practised with the daily results, sprint bests and weekly trends, in a few queries."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from urllib.parse import quote_plus

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, insert, select

from records.database import writing
from records.models import Answer, Drill, Player
from trainer.dealing import DAILY_KINDS, Category, Deal
from trainer.discard import analyze_discards
from trainer.grading import grade
from trainer.progress import WEAK_AFTER
from web import clock
from web.db import get_db


def right_answer(drill: dict[str, object]) -> dict[str, object]:
    """The engine's answer to a drill as the API takes it."""
    deal = Deal.from_json(drill)
    if deal.kind == "discard":
        best = analyze_discards(deal.cards, dealer=bool(deal.dealer))[0]
        return {"discard": [str(c) for c in best.discard], "seconds": 5}
    return {"points": int(grade(deal, {"points": 0}).total), "seconds": 5}


def play_daily(client: FlaskClient, wrong: int = 0) -> None:
    """Answer today's daily challenge, the first ``wrong`` counts wrongly."""
    for n, drill in enumerate(client.get("/api/daily").json["drills"]):
        body = {"points": 99, "seconds": 5} if n < wrong else right_answer(drill)
        assert client.post(f"/api/drills/{drill['id']}/answer", json=body).status_code == 200


def test_home_says_where_the_player_stands(client: FlaskClient) -> None:
    """Today's challenge (not played, then its result), the streak and the best one, and the
    weakest category with its accuracy, linking to a drill of that category alone: a first
    visit too is told the challenge is not played yet, at a streak of 0; one wrong answer is
    no weak spot (issue players2, 2)."""
    home = client.get("/").text  # a first visit: no player yet
    assert "Today’s challenge: not played yet" in home
    assert re.search(r'streak <strong id="streak">0</strong>.*best <strong>0</strong>', home)
    drill = client.get("/api/drills/next?kind=hand").json
    client.post(f"/api/drills/{drill['id']}/answer", json={"points": 99, "seconds": 5})
    home = client.get("/").text
    assert "Today’s challenge: not played yet" in home and 'id="suggested"' not in home
    for _ in range(WEAK_AFTER):
        drill = client.get("/api/drills/next?kind=hand&focus=nobs").json
        client.post(f"/api/drills/{drill['id']}/answer", json={"points": 99, "seconds": 5})
    home = client.get("/").text
    next_up = re.search(
        r'<a id="suggested" href="/practice/(\w+)\?focus=([^"]+)">practise ([^<]+)</a> · (\d+)%',
        home,
    )
    assert next_up is not None and next_up.group(4) == "0"
    category = Category(next_up.group(3))
    assert category.kinds[0] == next_up.group(1) and next_up.group(2) == quote_plus(category.value)
    play_daily(client, wrong=1)
    home = client.get("/").text
    assert re.search(r"Today’s challenge: <strong>done, 5/6 in \d:\d\d</strong>", home)
    assert re.search(r'streak <strong id="streak">1</strong>.*best <strong>1</strong>', home)


def test_home_counts_today_in_the_players_time_zone(app: Flask, client: FlaskClient) -> None:
    """The daily page plays the challenge of the browser's date, which for hours a day is not
    UTC's (an evening in America, a morning in Asia): told the zone by the pages' cookie, the
    trainer deals that challenge, records answers on that day, and the home page says the
    challenge is today's and done."""
    now = datetime.datetime.now(datetime.UTC)
    offset = 720 if now.hour < 12 else -840  # UTC-12 before noon, UTC+14 after: another date
    local = (now - datetime.timedelta(minutes=offset)).date().isoformat()
    assert local != now.date().isoformat()
    client.set_cookie("crib_utc_offset", str(offset))
    day = client.get("/api/daily").json
    assert day["date"] == local
    for drill in day["drills"]:
        reply = client.post(f"/api/drills/{drill['id']}/answer", json=right_answer(drill))
        assert reply.status_code == 200
    with app.app_context():
        assert set(get_db().scalars(select(Answer.day))) == {local}
    home = client.get("/").text
    assert re.search(r"Today’s challenge: <strong>done, 6/6 in \d:\d\d</strong>", home)
    assert re.search(r'streak <strong id="streak">1</strong>', home)
    for nonsense in ("abc", "99999", "-0x10", "1e3", "721"):  # no such zone: UTC's day
        client.set_cookie("crib_utc_offset", nonsense)
        assert "Today’s challenge: not played yet" in client.get("/").text


@pytest.fixture
def player(app: Flask, client: FlaskClient) -> Iterator[int]:
    """A guest who has been dealt one drill (so has an id), in the app's context."""
    client.get("/api/drills/next?kind=hand")
    with app.app_context():
        player_id = get_db().scalars(select(Player.id)).one()
        yield player_id


def answer_on(
    player_id: int, day: datetime.date, mode: str, correct: bool, **drill: object
) -> None:
    """Store a hand drill answered on ``day`` (at noon UTC plus a minute per drill that day)."""
    db = get_db()
    noon = datetime.datetime.combine(day, datetime.time(12), datetime.UTC).timestamp()
    at = noon + 60 * len(db.scalars(select(Answer.id).where(Answer.day == day.isoformat())).all())
    drill_row = {
        "player_id": player_id,
        "kind": "hand",
        "mode": mode,
        "difficulty": "standard",
        "deal": {"kind": "hand", "hand": ["5H", "5D", "5C", "JS"], "starter": "5S", "crib": False},
        "categories": "fifteens,nobs",
        "dealt_at": at,
        **drill,
    }
    with writing(db):
        drill_id = db.execute(insert(Drill).returning(Drill.id), drill_row).scalar_one()
        db.execute(
            insert(Answer),
            {
                "drill_id": drill_id,
                "player_id": player_id,
                "kind": "hand",
                "correct": correct,
                "claimed": 0,
                "total": 29,
                "seconds": 6.0,
                "answered_at": at + 6,
                "day": day.isoformat(),
                "given": {},
                "missed": "" if correct else "nobs",
            },
        )


def practise(player_id: int, days_ago: list[int]) -> datetime.date:
    """Days of practice (two answers, one wrong), a daily challenge done on each, and a sprint
    of three hands (two right) on the first; returns today."""
    today = datetime.date.fromisoformat(clock.today())
    for ago in days_ago:
        day = today - datetime.timedelta(days=ago)
        answer_on(player_id, day, "practice", True)
        answer_on(player_id, day, "practice", False)
        for position in range(len(DAILY_KINDS)):
            answer_on(
                player_id, day, "daily", position > 0, daily_date=day.isoformat(), position=position
            )
    first = today - datetime.timedelta(days=days_ago[0])
    for n in range(3):
        answer_on(player_id, first, "sprint", n != 1)
    return today


def test_history_page(app: Flask, client: FlaskClient, player: int) -> None:
    """The calendar marks the days practised with the daily result, the sprint record has its
    date, and each category has its weekly accuracy and speed drawn."""
    today = practise(player, [20, 9, 8, 1])
    page = client.get("/history").text
    assert page.count('class="day l') == 16 * 7 - (6 - today.weekday())  # up to today
    assert len(re.findall(r'class="day l\d daily"', page)) == 4
    day = (today - datetime.timedelta(days=9)).isoformat()
    assert f"{day}: 8 answers, daily 5/6 in 0:36" in page
    first = (today - datetime.timedelta(days=20)).isoformat()
    assert re.search(rf"<li><strong>2</strong> right of 3 · {first}</li>", page)
    assert page.count('class="chart spark"') == 2 * 2  # fifteens and nobs: accuracy, speed
    assert 'href="/history"' in client.get("/progress").text


def test_history_queries_do_not_grow_with_the_days(
    app: Flask, client: FlaskClient, player: int
) -> None:
    """The history costs the same few queries for three days of practice as for fifteen."""
    engine = app.extensions["crib_database"].engine

    def queries() -> int:
        seen: list[str] = []
        listen = lambda *args: seen.append(args[2])  # noqa: E731
        event.listen(engine, "before_cursor_execute", listen)
        assert client.get("/history").status_code == 200
        event.remove(engine, "before_cursor_execute", listen)
        return len(seen)

    practise(player, [3, 2, 1])
    queries()  # the first request of a connection may read more (the schema, the session)
    few = queries()
    practise(player, list(range(40, 28, -1)))
    assert queries() == few <= 9  # the days, the sprints, the trends, the games, the matches...
