"""A game against the computer on the web (``/play``, ``/api/play``): started, moved on the
version seen, resumed by a new app, reviewed at the end, listed in the history; every bad move a
400 naming it with nothing stored; the computer's cards never sent before they are shown."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from records.versus import GAMES
from trainer.cards import Card, as_card
from trainer.grading import MOST_PEG
from trainer.versus import COMPUTER, VersusGame
from web import create_app
from web.db import get_db

from ..drills import game_items
from .conftest import Clock

_STATE = re.compile(r'data-state="([^"]*)"')


def start(client: FlaskClient, **setup: Any) -> dict[str, Any]:
    reply = client.post("/api/play", json=setup)
    assert reply.status_code == 201, reply.json
    game: dict[str, Any] = reply.json
    return game


def move(client: FlaskClient, game: dict[str, Any], **body: Any) -> TestResponse:
    """A move on the version ``game`` was seen at."""
    return client.post(f"/api/play/{game['id']}/moves", json={"version": game["version"], **body})


def moved(client: FlaskClient, game: dict[str, Any], **body: Any) -> dict[str, Any]:
    reply = move(client, game, **body)
    assert reply.status_code == 200, reply.json
    result: dict[str, Any] = reply.json
    return result


def page_state(client: FlaskClient) -> dict[str, Any]:
    """The game ``/play`` draws."""
    found = _STATE.search(client.get("/play").text)
    assert found, "/play shows no game"
    state: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    return state


def next_move(game: dict[str, Any], short: bool = False) -> dict[str, Any]:
    """The player's next move, claiming the exact count (``short``: its last item left out)."""
    if game["waiting"] == "discard":
        return {"do": "throw", "cards": game["hand"][: game["throw"]]}
    card = game["playable"][0] if game["waiting"] == "play" else None
    items = game_items(game, card)
    claim = sum(i.points for i in items) - (items[-1].points if short and items else 0)
    return {"do": "play", "card": card, "claim": claim} if card else {"do": "count", "claim": claim}


def the_computers_hidden_cards(app: Flask, game: dict[str, Any]) -> set[str]:
    """The computer's cards not yet shown, as tokens and as players write them: all it was
    dealt before the starter, then those it holds and its throw."""
    with app.app_context():
        data = get_db().execute(select(GAMES.c.data).where(GAMES.c.id == game["id"])).scalar_one()
    match = VersusGame.from_json(data).match
    if match.phase == "discard":
        cards: tuple[Card, ...] = match.dealt[COMPUTER]
    else:
        cards = (*match.held[COMPUTER], *match.thrown[COMPUTER])
    return {str(c) for c in cards} | {c.unicode() for c in cards}


def test_a_game_is_dealt_and_the_computers_cards_are_not_sent(
    app: Flask, client: FlaskClient
) -> None:
    assert "Play the computer" in client.get("/play").text
    game = start(client, level="beginner")
    assert (game["waiting"], game["version"], game["length"], game["muggins"]) == (
        "discard",
        0,
        121,
        True,
    )
    assert len(game["hand"]) == 6 and game["throw"] == 2 and game["scores"] == [0, 0]
    moves = 0
    while game["waiting"] != "count":  # the first deal's discard and play
        hidden = the_computers_hidden_cards(app, game)
        log = [line for line in game["log"] if not line["text"].startswith("The cut: ")]
        sent = json.dumps(game | {"log": log}, ensure_ascii=False)  # the cut's cards go back
        assert hidden and not [card for card in hidden if card in sent]
        if game["waiting"] == "play":  # beginner: the count is told
            assert game["count"] == sum(as_card(c).value for c in game["pile"])
            assert 0 <= game["computer_holds"] <= 4
        game = moved(client, game, **next_move(game))
        moves += 1
    assert moves >= 3 and game["counting"]["what"] == "hand"


def test_a_whole_game_reaches_the_review_with_muggins_a_refusal_and_the_history(
    app: Flask, client: FlaskClient, clock: Clock
) -> None:
    game = start(client, game=61)
    assert client.get("/").text.count("Play the computer: resume") == 1
    refused = scored = 0
    while game["result"] is None:
        body = next_move(game)
        if body.get("claim"):  # every other count that scores misses an item
            scored += 1
            body = next_move(game, short=scored % 2 == 1)
        if game["waiting"] == "count" and not refused:
            over = moved(
                client, game, do="count", claim=sum(i.points for i in game_items(game)) + 1
            )
            assert over["log"][-1]["kind"] == "refused" and over["version"] == game["version"] + 1
            assert "over the count: refused" in over["log"][-1]["text"]
            assert over["waiting"] == "count" and over["scores"] == game["scores"]
            game, refused = over, refused + 1
        clock.advance(5)
        game = moved(client, game, **body)
    assert refused and any(line["kind"] == "muggins" for line in game["log"])
    muggins = next(line for line in game["log"] if line["kind"] == "muggins")
    assert muggins["seat"] == COMPUTER and muggins["points"] > 0
    assert re.fullmatch(r"Muggins: .+ for \d+, to the computer", muggins["text"]), muggins
    assert game["hand"] == [] and game["result"]["review"] == f"/play/{game['id']}/review"
    assert max(game["scores"]) >= 61
    assert re.fullmatch(
        r"(You win|The computer wins) \d+–\d+(: a lurch, two games)?", game["result"]["text"]
    )
    again = move(client, game, do="count", claim=0)
    assert again.status_code == 400 and again.json == {"error": "the game is over"}

    review = client.get(game["result"]["review"])
    assert review.status_code == 200
    summary = re.search(r'id="review-summary">([^<]*)<', review.text)
    assert summary and summary.group(1).startswith("You gave away ")
    assert ", " in summary.group(1) and "overlooked." in summary.group(1)
    deals = {line["deal"] for line in game["log"] if line["text"].startswith("You throw")}
    assert review.text.count('class="drill-link"') == len(deals)
    link = re.search(r'class="drill-link" href="([^"]+)"', review.text)
    assert link and "/practice/discard?cards=" in html.unescape(link.group(1))
    assert "(muggins: to the computer)" in review.text and "refused" in review.text

    history = client.get("/history").text
    assert 'id="computer-games"' in history and f"/play/{game['id']}/review" in history
    assert "Play the computer: resume" not in client.get("/").text
    assert 'id="new-versus"' in client.get("/play").text  # no game left to resume


def test_a_game_is_resumed_by_a_new_app_and_another_tab_is_told_it_moved_on(
    client: FlaskClient, database_url: str
) -> None:
    game = start(client, rules="five-card", level="dense")
    assert game["length"] == 61 and len(game["hand"]) == 5
    thrown = moved(client, game, **next_move(game))
    stale = move(client, game, **next_move(game))
    assert stale.status_code == 409 and "moved on" in stale.json["error"]
    assert stale.json["game"] == thrown
    restarted = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": database_url})
    again = restarted.test_client()
    cookie = client.get_cookie("session")
    assert cookie is not None
    again.set_cookie("session", cookie.value)
    resumed = page_state(again)
    restarted.extensions["crib_database"].dispose()
    assert resumed == thrown and resumed["waiting"] == "play"
    while resumed["waiting"] == "play":  # dense: only the count's last card is shown
        assert len(resumed["pile"]) <= 1 and resumed["count"] is None
        card = resumed["playable"][0]  # claimed 0: the pile shown is not the count's
        resumed = moved(client, resumed, do="play", card=card, claim=0)


def test_a_bad_move_is_refused_saying_why_and_nothing_is_stored(client: FlaskClient) -> None:
    game = start(client)
    hand = game["hand"]
    bad = [
        ({"do": "throw", "cards": hand[:3]}, "throw"),
        ({"do": "throw", "cards": "5H KD"}, "list"),
        ({"do": "throw", "cards": [hand[0], "ZZ"]}, "ZZ"),
        ({"do": "play", "card": hand[0], "claim": 0}, ""),
        ({"do": "count", "claim": 0}, ""),
        ({"do": "shuffle"}, "throw, play or count"),
        ({"do": "play", "card": 7, "claim": 0}, "card"),
    ]
    for body, said in bad:
        reply = move(client, game, **body)
        assert reply.status_code == 400, body
        assert said in reply.json["error"] and reply.json["error"], body
    game = moved(client, game, **next_move(game))
    for claim in (MOST_PEG + 1, -1, "2", True, None):
        reply = move(client, game, do="play", card=game["playable"][0], claim=claim)
        assert reply.status_code == 400 and f"from 0 to {MOST_PEG}" in reply.json["error"]
    for body in (b"not json", b"[1, 2]", b'{"version": 1e999}'):
        reply = client.post(
            f"/api/play/{game['id']}/moves", data=body, content_type="application/json"
        )
        assert reply.status_code == 400 and reply.json["error"]
    unseen = client.post(f"/api/play/{game['id']}/moves", json={"do": "count", "claim": 1})
    assert unseen.status_code == 400 and "version" in unseen.json["error"]
    assert page_state(client) == game


def test_a_game_is_set_up_only_as_the_rules_allow(client: FlaskClient) -> None:
    for body, said in (
        ({"rules": "three-hand"}, "six-card or five-card"),
        ({"rules": ["six-card"]}, "six-card or five-card"),
        ({"game": 100}, "61 or 121"),
        ({"game": "121"}, "61 or 121"),
        ({"level": "expert"}, "beginner"),
        ({"level": ["standard"]}, "beginner"),
        ({"muggins": "yes"}, "true or false"),
    ):
        reply = client.post("/api/play", json=body)
        assert reply.status_code == 400 and said in reply.json["error"], body
    assert start(client, muggins=False)["muggins"] is False


def test_another_players_game_is_not_found(app: Flask, client: FlaskClient) -> None:
    game = start(client)
    other = app.test_client()
    reply = move(other, game, **next_move(game))
    assert reply.status_code == 404 and "no game" in reply.json["error"]
    assert other.get(f"/play/{game['id']}/review").status_code == 404
    assert client.get("/play/99999/review").status_code == 404
    unfinished = client.get(f"/play/{game['id']}/review")
    assert unfinished.status_code == 409 and "not over yet" in unfinished.text


def test_a_games_discard_is_drilled_again_on_its_cards(client: FlaskClient) -> None:
    cards = "5H 5D 6C JS 2C 9D"
    page = client.get("/practice/discard", query_string={"cards": cards, "dealer": "1"})
    assert page.status_code == 200 and f'data-cards="{cards}" data-dealer="1"' in page.text
    drill = client.get(
        "/api/drills/next", query_string={"kind": "discard", "cards": cards, "dealer": "1"}
    )
    assert drill.status_code == 200, drill.json
    assert drill.json["cards"] == cards.split() and drill.json["dealer"] is True
    for wrong, said in (("5H 5D 6C JS 2C", "six cards"), ("5H 5H 6C JS 2C 9D", "5H")):
        reply = client.get("/api/drills/next", query_string={"kind": "discard", "cards": wrong})
        assert reply.status_code == 400 and said in reply.json["error"]
        assert client.get("/practice/discard", query_string={"cards": wrong}).status_code == 400
    reply = client.get(
        "/api/drills/next", query_string={"kind": "discard", "cards": cards, "dealer": "2"}
    )
    assert reply.status_code == 400 and "dealer" in reply.json["error"]


_CARD_PLAYED = re.compile(r"^(You play|The computer plays) ")


def test_at_dense_the_log_tells_only_the_last_card_of_the_play(client: FlaskClient) -> None:
    """The player keeps the count at dense: the log, like the pile, tells only the last card
    played while the play is on; once it is over, every card of it (the show counts them)."""
    told: dict[str, list[int]] = {}
    for level in ("dense", "standard"):
        game = start(client, level=level)
        game = moved(client, game, **next_move(game))
        told[level] = []
        while game["waiting"] == "play" and game["deal"] == 1:
            lines = [line for line in game["log"] if line["deal"] == 1]
            told[level].append(sum(bool(_CARD_PLAYED.match(line["text"])) for line in lines))
            assert len(game["pile"]) <= 1 or level == "standard"
            game = moved(client, game, do="play", card=game["playable"][0], claim=0)
        if game["deal"] == 1:
            lines = [line for line in game["log"] if line["deal"] == 1]
            assert sum(bool(_CARD_PLAYED.match(line["text"])) for line in lines) >= 4
    assert max(told["dense"]) == 1
    assert max(told["standard"]) > 1
