"""One player dealing as fast as it can (issue 17 N4): the unanswered drill comes back instead
of a new one, new deals are limited per player, and expired drills and idle guests are purged
on a schedule."""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update
from sqlalchemy.exc import OperationalError

import records.drills
from records.database import writing
from records.drills import EXPIRES_AFTER, GUEST_IDLE_FOR, PURGE_EVERY
from records.models import Answer, Drill, Player
from web.db import get_db
from web.settings import BY_NAME

from .conftest import Clock
from .test_api import deal, right_points

DAY = 86400.0
DEALS_PER_MINUTE = BY_NAME["DEALS_PER_MINUTE"].default


def _count(app: Flask, model: type[Drill] | type[Player] | type[Answer]) -> int:
    with app.app_context():
        return int(get_db().scalar(select(func.count()).select_from(model)) or 0)


def _age(app: Flask, model: type[Drill] | type[Player], ids: list[int], seconds: float) -> None:
    """Make the drills (their deal) or players (their making) ``ids`` ``seconds`` older."""
    column = Drill.dealt_at if model is Drill else Player.created_at
    with app.app_context(), writing(get_db()) as connection:
        connection.execute(
            update(model).where(model.id.in_(ids)).values({column: column - seconds})
        )


def _player(app: Flask) -> int:
    """The id of the latest player."""
    with app.app_context():
        return int(get_db().scalar(select(func.max(Player.id))) or 0)


def _answer(client: FlaskClient, drill: dict[str, Any]) -> int:
    body = {"points": right_points(drill)} if drill["kind"] != "discard" else {}
    return client.post(f"/api/drills/{drill['id']}/answer", json=body).status_code


def test_asking_again_hands_back_the_unanswered_drill(client: FlaskClient) -> None:
    """A reload, or coming back to a kind, deals the drill not yet answered; another kind,
    difficulty or pace deals its own; once answered, the next deal is new."""
    first = deal(client, "hand")
    assert deal(client, "hand") == first
    assert deal(client, "crib")["id"] != first["id"]
    assert deal(client, "hand") == first
    assert deal(client, "hand", difficulty="dense")["id"] != first["id"]
    assert deal(client, "hand", mode="sprint")["id"] != first["id"]
    assert deal(client, "hand")["id"] == first["id"]
    assert _answer(client, first) == 200
    assert deal(client, "hand")["id"] != first["id"]


def test_a_sprint_starts_on_a_new_hand(client: FlaskClient) -> None:
    """A sprint ends on a hand left unanswered when its clock stops: the next sprint does not
    start on it (seen already, and counted in the last sprint by its deal time)."""
    last = deal(client, "hand", mode="sprint")
    assert deal(client, "hand", mode="sprint")["id"] != last["id"]


def test_a_flood_of_deals_stores_one_drill(app: Flask, client: FlaskClient) -> None:
    """One guest cookie dealing as fast as it can (1,010 deals a second made 15,230 rows in
    15 s) gets its one drill back each time: one row."""
    dealt = {deal(client, "hand")["id"] for _ in range(200)}
    assert len(dealt) == 1
    assert _count(app, Drill) == 1


def test_an_unanswered_drill_is_dealt_anew_after_an_hour(client: FlaskClient, clock: Clock) -> None:
    """A drill left for longer than an hour is not handed back: the player gets a new one."""
    first = deal(client, "pegging")
    clock.advance(records.drills.HANDED_BACK_FOR + 1)
    assert deal(client, "pegging")["id"] != first["id"]


@pytest.mark.slow
def test_new_deals_beyond_the_limit_are_a_429_until_a_minute_has_passed(
    client: FlaskClient, clock: Clock
) -> None:
    """A player answering as fast as it can is dealt 60 new drills a minute, then told how
    long to wait."""
    for _ in range(DEALS_PER_MINUTE):
        assert _answer(client, deal(client, "pegging")) == 200
    refused = client.get("/api/drills/next?kind=pegging")
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "too many deals" in refused.json["error"].lower()
    clock.advance(61)
    assert client.get("/api/drills/next?kind=pegging").status_code == 200


def test_the_deal_limit_is_a_setting(app: Flask, client: FlaskClient) -> None:
    """``DEALS_PER_MINUTE`` sets the limit (``CRIB_DEALS_PER_MINUTE``); 0 turns it off."""
    app.config["DEALS_PER_MINUTE"] = 2
    for _ in range(2):
        assert _answer(client, deal(client, "hand")) == 200
    assert client.get("/api/drills/next?kind=hand").status_code == 429
    app.config["DEALS_PER_MINUTE"] = 0
    assert client.get("/api/drills/next?kind=hand").status_code == 200


def test_an_expired_drill_cannot_be_answered(app: Flask, client: FlaskClient) -> None:
    """A practice drill dealt over a day ago is a 410 (it is about to be purged), unless it
    was answered: that is a 409, as on the day; a daily challenge's drill does not expire."""
    drill = deal(client, "hand")
    done = deal(client, "crib")
    assert _answer(client, done) == 200
    daily = client.get("/api/daily").json["drills"][0]
    _age(app, Drill, [drill["id"], done["id"], daily["id"]], EXPIRES_AFTER + 1)
    late = client.post(f"/api/drills/{drill['id']}/answer", json={"points": 2})
    assert late.status_code == 410 and "expired" in late.json["error"]
    again = client.post(f"/api/drills/{done['id']}/answer", json={"points": 2})
    assert again.status_code == 409 and "already answered" in again.json["error"]
    assert _answer(client, daily) == 200


def test_purge_deletes_expired_unanswered_drills_and_idle_guests(app: Flask) -> None:
    """Unanswered practice drills a day and an hour old go; answered ones, recent ones and
    daily challenges stay. Guests idle for 30 days with no answers go with their drills;
    guests with answers or a recent deal, and registered players, stay."""
    player = app.test_client()
    old, recent, answered = deal(player, "hand"), deal(player, "crib"), deal(player, "pegging")
    assert _answer(player, answered) == 200
    daily = player.get("/api/daily").json["drills"][0]
    stale = [old["id"], answered["id"], daily["id"]]
    _age(app, Drill, stale, EXPIRES_AFTER + 3601)

    idle, with_answer, dealing = app.test_client(), app.test_client(), app.test_client()
    idle_drill = deal(idle, "hand")
    idle_id = _player(app)
    assert _answer(with_answer, deal(with_answer, "hand")) == 200
    answering_id = _player(app)
    deal(dealing, "hand")
    dealing_id = _player(app)
    _age(app, Player, [idle_id, answering_id, dealing_id], GUEST_IDLE_FOR + 1)
    _age(app, Drill, [idle_drill["id"]], GUEST_IDLE_FOR + 1)

    drills, players = _count(app, Drill), _count(app, Player)
    with app.app_context():
        assert records.drills.purge(get_db(), time.time()) == (2, 1, 0)
        db = get_db()
        kept = set(db.scalars(select(Drill.id)))
        assert old["id"] not in kept and idle_drill["id"] not in kept
        assert {recent["id"], answered["id"], daily["id"]} <= kept
        assert set(db.scalars(select(Player.id))) & {idle_id, answering_id, dealing_id} == {
            answering_id,
            dealing_id,
        }
    assert (_count(app, Drill), _count(app, Player)) == (drills - 2, players - 1)


def test_purges_ride_on_deals_at_most_once_an_hour(
    app: Flask, client: FlaskClient, clock: Clock
) -> None:
    """A server purges on its first deal, then on the first deal an hour or more later."""
    expired = deal(client, "hand")["id"]
    _age(app, Drill, [expired], 2 * DAY)
    deal(client, "crib")
    assert _count(app, Drill) == 2  # purged at the first deal, before this one was old
    clock.advance(PURGE_EVERY + 1)
    deal(client, "pegging")
    with app.app_context():
        assert expired not in set(get_db().scalars(select(Drill.id)))
    assert _count(app, Drill) == 2


def test_a_purge_that_fails_does_not_fail_the_deal(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The purge is housekeeping: when its delete meets a locked database, the deal that ran it
    is still dealt, and the failure is logged."""

    def locked(db: object, now: float) -> tuple[int, int]:
        raise OperationalError("DELETE FROM drills", {}, Exception("database is locked"))

    monkeypatch.setattr(records.drills, "purge", locked)
    reply = client.get("/api/drills/next?kind=hand")
    assert reply.status_code == 200 and reply.json["kind"] == "hand"
    assert "the hourly purge failed" in caplog.text


def test_purged_ids_are_never_dealt_again(app: Flask) -> None:
    """SQLite gives a new row the largest id plus one: the newest guest and drill are kept, so
    no id is reused and an old cookie or page never reaches someone else's player or drill."""
    idle = app.test_client()
    drill = deal(idle, "hand")
    guest = _player(app)
    _age(app, Player, [guest], GUEST_IDLE_FOR + 1)
    _age(app, Drill, [drill["id"]], GUEST_IDLE_FOR + 1)
    with app.app_context():
        assert records.drills.purge(get_db(), time.time()) == (0, 0, 0)
    newcomer = app.test_client()
    fresh = deal(newcomer, "hand")
    assert fresh["id"] > drill["id"] and _player(app) > guest
    with app.app_context():
        assert records.drills.purge(get_db(), time.time()) == (1, 1, 0)
    assert deal(app.test_client(), "hand")["id"] > fresh["id"]
    assert _player(app) > guest + 1
