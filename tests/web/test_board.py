"""A game's score kept at the table (``/board``, ``/api/games``): set up, moved by its keeper on
the version seen, watched by every phone with the link, kept across a restart, counted in the
player's games won and lost; every bad move gets a sentence and the board never loses or
doubles a move."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event
from werkzeug.test import TestResponse

from records import games
from records.errors import BoardMovedOn
from trainer import board as board_rules
from web import create_app

from .conftest import AuthActions

TWO = {"names": ["Ann", "Bob"], "seat": 0}


def new_game(client: FlaskClient, **body: Any) -> dict[str, Any]:
    reply = client.post("/api/games", json=TWO | body)
    assert reply.status_code == 201, reply.json
    game: dict[str, Any] = reply.json
    return game


def move(client: FlaskClient, game: dict[str, Any], **body: Any) -> TestResponse:
    """A move on the version ``game`` was seen at."""
    return client.post(
        f"/api/games/{game['code']}/moves", json={"version": game["version"], **body}
    )


def moved(client: FlaskClient, game: dict[str, Any], **body: Any) -> dict[str, Any]:
    reply = move(client, game, **body)
    assert reply.status_code == 200, reply.json
    result: dict[str, Any] = reply.json
    return result


def pegged_to(client: FlaskClient, game: dict[str, Any], seat: int, score: int) -> dict[str, Any]:
    """The game after ``seat`` pegs up to ``score``, at most a hand's 29 a peg."""
    while game["sides"][seat]["front"] < score:
        points = min(29, score - game["sides"][seat]["front"])
        game = moved(client, game, move="peg", seat=seat, points=points)
    return game


def test_a_game_is_set_up_and_its_board_shown(client: FlaskClient) -> None:
    game = new_game(client, muggins=True)
    assert (game["version"], game["keeper"], game["seat"], game["phase"]) == (0, True, 0, "play")
    assert len(game["code"]) == 12 and len(game["key"]) == 32
    assert (game["rules"], game["length"], game["muggins"]) == ("six-card", 121, True)
    assert client.get(f"/api/games/{game['code']}").json == game
    page = client.get(f"/board/{game['code']}")
    assert page.status_code == 200 and f'data-code="{game["code"]}"' in page.text
    assert "board.js" in page.text and "board.css" in page.text
    missing = client.get("/board/nothing-here")
    assert missing.status_code == 404 and "No game has this link" in missing.text
    assert client.get("/api/games/nothing-here").json == {"error": "No game has this link."}


def test_a_watcher_sees_each_move_and_a_304_while_nothing_moved(
    app: Flask, client: FlaskClient
) -> None:
    game = new_game(client)
    watcher = app.test_client()
    first = watcher.get(f"/api/games/{game['code']}")
    assert first.headers["ETag"] == '"0"' and "no-cache" in first.headers["Cache-Control"]
    assert first.json["keeper"] is False and "key" not in first.json
    again = watcher.get(f"/api/games/{game['code']}", headers={"If-None-Match": '"0"'})
    assert again.status_code == 304 and again.data == b""
    game = moved(client, game, move="peg", seat=1, points=2, reason="fifteen two")
    seen = watcher.get(f"/api/games/{game['code']}", headers={"If-None-Match": '"0"'})
    assert seen.status_code == 200 and seen.headers["ETag"] == '"1"'
    assert seen.json["sides"][1] == {"name": "Bob", "seats": [1], "front": 2, "back": 0}
    assert seen.json["log"][-1]["reason"] == "fifteen two"


@pytest.mark.any_database
def test_a_watchers_poll_is_one_read_while_nothing_moved(app: Flask, client: FlaskClient) -> None:
    """What a watching phone costs the server each second: one indexed read of the version."""
    game = new_game(client)
    watcher = app.test_client()
    watcher.get(f"/api/games/{game['code']}")  # the connection's first request may read more
    engine = app.extensions["crib_database"].engine
    seen: list[str] = []
    listen = lambda *args: seen.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listen)
    reply = watcher.get(f"/api/games/{game['code']}", headers={"If-None-Match": '"0"'})
    event.remove(engine, "before_cursor_execute", listen)
    assert reply.status_code == 304
    assert len(seen) == 1 and seen[0].startswith("SELECT games.version")


@pytest.mark.any_database
def test_a_refused_move_costs_a_check_and_writes_nothing(app: Flask, client: FlaskClient) -> None:
    """A move the game refuses reads the game's row, no move (the game is kept since its last
    move), and writes nothing to the game (issue 54, finding 2)."""
    game = moved(client, new_game(client), move="peg", seat=0, points=2)
    engine = app.extensions["crib_database"].engine
    seen: list[str] = []
    listen = lambda *args: seen.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listen)
    refused = move(client, game, move="peg", seat=0, points=0)
    event.remove(engine, "before_cursor_execute", listen)
    assert refused.status_code == 400
    games_read = [sql for sql in seen if "games" in sql]  # beside the address's count of moves
    assert len(games_read) == 1 and games_read[0].startswith("SELECT games.id")


def test_a_board_read_as_another_phone_took_a_move_back_is_a_409(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its moves were read after the undo was saved (``records.games.BoardMovedOn``): nothing is
    saved, and the page reads the board again, as after a move on a board that moved on."""
    game = new_game(client)

    def moved_on(*args: Any) -> None:
        raise BoardMovedOn

    monkeypatch.setattr(games, "game_of", moved_on)
    refused = move(client, game, move="peg", seat=0, points=2)
    assert refused.status_code == 409
    assert refused.json["error"].startswith("The board moved on as this phone read it")
    monkeypatch.undo()
    assert client.get(f"/api/games/{game['code']}").json["version"] == 0


def test_only_the_keeper_moves_the_pegs(app: Flask, client: FlaskClient) -> None:
    game = new_game(client)
    watcher = app.test_client()
    refused = move(watcher, game, move="peg", seat=0, points=2)
    assert refused.status_code == 403
    assert refused.json["error"] == (
        "Only the game's keeper moves its pegs: open the keeper's link on this phone."
    )
    assert move(watcher, game, move="peg", seat=0, points=2, key="0" * 32).status_code == 403
    # the keeper's link on another phone (its key): a lost phone's game goes on
    other = moved(watcher, game, move="peg", seat=0, points=2, key=game["key"])
    assert other["version"] == 1 and other["keeper"] is True
    assert client.get(f"/api/games/{game['code']}").json["sides"][0]["front"] == 2


def test_a_move_on_a_board_that_moved_on_is_refused_with_the_board(client: FlaskClient) -> None:
    game = new_game(client)
    after = moved(client, game, move="peg", seat=1, points=2)
    stale = move(client, game, move="peg", seat=1, points=2)  # the same tap, sent twice
    assert stale.status_code == 409
    assert stale.json["error"].startswith("The board moved on since this phone last saw it")
    assert stale.json["board"] == after and stale.json["board"]["sides"][1]["front"] == 2


def test_two_phones_pegging_at_once_save_one_peg(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both phones saw version 0 and both moves passed the version check before either was
    saved: the UPDATE ... WHERE version = 0 saves one, the other gets 409 and the board."""
    game = new_game(client)
    both_checked = threading.Barrier(2, timeout=10)
    apply = board_rules.apply

    def apply_together(*args: Any) -> Any:
        both_checked.wait()
        return apply(*args)

    monkeypatch.setattr(board_rules, "apply", apply_together)
    replies: list[TestResponse] = []

    def phone(points: int) -> None:
        replies.append(
            move(app.test_client(), game, move="peg", seat=0, points=points, key=game["key"])
        )

    phones = [threading.Thread(target=phone, args=(points,)) for points in (2, 3)]
    for thread in phones:
        thread.start()
    for thread in phones:
        thread.join()
    assert sorted(r.status_code for r in replies) == [200, 409]
    saved = next(r for r in replies if r.status_code == 200).json
    board = client.get(f"/api/games/{game['code']}").json
    assert board["version"] == 1 and len(board["log"]) == 1
    assert board["sides"][0]["front"] == saved["sides"][0]["front"] in (2, 3)
    assert next(r for r in replies if r.status_code == 409).json["board"]["version"] == 1


@pytest.mark.parametrize(
    ("moves", "bad", "message"),
    [
        ([], {"move": "undo"}, "nothing to undo: the game is at its start"),
        ([], {"move": "show", "hand": 0, "cards": "5H 5D 5C JS | 5S"}, "Ann's hand is not yet"),
        (
            [{"move": "show", "hand": 1, "cards": "5H 5D 5C JS | 5S"}],
            {"move": "show", "hand": 1, "cards": "5H 5D 5C JS | 5S"},
            "Bob's hand has been counted in deal 1: Ann's hand is counted next",
        ),
        (
            [],
            {"move": "show", "hand": 1, "cards": ["5H", "5D", "5C"], "starter": "5S"},
            "a hand is 4 cards and a starter: got 3 cards",  # a photo a card short
        ),
        (
            [{"move": "peg", "seat": 0, "points": points} for points in (29, 29, 29, 29, 5)],
            {"move": "peg", "seat": 1, "points": 1},
            "the game is over: Ann won by a lurch",
        ),
        ([], {"move": "card", "seat": 0, "card": "11H"}, "unknown rank"),
        ([], {"move": "peg", "seat": 5, "points": 2}, "seats are 0 to 1, not 5"),
        ([], {"move": "jump"}, "unknown move 'jump'"),
    ],
)
def test_a_bad_move_gets_a_sentence_and_changes_nothing(
    client: FlaskClient, moves: list[dict[str, Any]], bad: dict[str, Any], message: str
) -> None:
    game = new_game(client)
    for good in moves:
        game = moved(client, game, **good)
    reply = move(client, game, **bad)
    assert reply.status_code == 400 and message in reply.json["error"], reply.json
    assert client.get(f"/api/games/{game['code']}").json == game


def test_a_move_needs_the_version_seen(client: FlaskClient) -> None:
    game = new_game(client)
    for version in (None, "0", True):
        reply = client.post(
            f"/api/games/{game['code']}/moves", json={"version": version, "move": "go"}
        )
        assert reply.status_code == 400
        assert reply.json["error"] == "send the board's 'version' this page saw with each move"
    assert client.post("/api/games/nothing/moves", json={"version": 0}).status_code == 404


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"names": ["Ann"]}, "names were given"),
        ({"names": ["Ann", "Bob"], "seat": 2}, "your seat is one of the players' (0 to 1)"),
        ({"names": ["Ann", "Bob"], "seat": "0"}, "your seat is one of the players'"),
        ({"names": ["Ann", "Bob"], "rules": "four-hand"}, "has 4 players, but 2 names"),
    ],
)
def test_a_bad_set_up_gets_a_sentence(
    client: FlaskClient, body: dict[str, Any], message: str
) -> None:
    reply = client.post("/api/games", json=body)
    assert reply.status_code == 400 and message in reply.json["error"]


def test_a_game_survives_a_server_restart(
    app: Flask, client: FlaskClient, database_url: str
) -> None:
    game = new_game(client)
    game = moved(client, game, move="card", seat=1, card="7H")
    game = moved(client, game, move="card", seat=0, card="8H")
    restarted = create_app(app.config | {"CLOCK": app.config["CLOCK"]})
    try:
        phone = restarted.test_client()
        with client.session_transaction() as cookie:  # the keeper's browser keeps its cookie
            kept = dict(cookie)
        with phone.session_transaction() as cookie:
            cookie.update(kept)
        again = phone.get(f"/api/games/{game['code']}").json
        assert again == game and again["play"]["count"] == 15
        assert moved(phone, again, move="card", seat=1, card="6S")["play"]["count"] == 21
    finally:
        restarted.extensions["crib_database"].dispose()


def test_names_are_shown_as_typed_never_as_html(client: FlaskClient) -> None:
    name = "<b onclick='go()'>Ann"
    game = new_game(client, names=[name, "Bob & Co"])
    assert game["names"][0] == name
    listed = client.get("/board").text
    assert name not in listed and "&lt;b onclick=&#39;go()&#39;&gt;Ann" in listed
    assert "Bob &amp; Co" in listed
    assert name not in client.get(f"/board/{game['code']}").text  # the page draws names as text


def test_a_registered_players_games_count_won_and_lost(
    client: FlaskClient, auth: AuthActions
) -> None:
    auth.register()
    won = new_game(client)  # Ann's seat: the keeper is Ann
    won = pegged_to(client, pegged_to(client, won, 1, 95), 0, 121)
    lurched = new_game(client, seat=1)  # as Bob
    pegged_to(client, lurched, 0, 121)
    new_game(client, seat=None)  # kept for others: no record
    assert won["result"]["text"] == "Ann won, 121 to 95"
    page = client.get("/board").text
    assert "Games won <strong>1</strong>, lost <strong>2</strong>" in page
    assert "(1 won; 1 lost, 1 lurched; a lurch counts two)" in page
    assert page.count('href="/board/') == 3 and "under way, 0–0" in page
    assert "(you won)" in page and "(you lost)" in page
    history = client.get("/history").text
    assert "Games won <strong>1</strong>, lost <strong>2</strong>" in history
    assert f'href="/board/{won["code"]}"' in history


def test_a_guests_games_become_the_accounts_on_log_in(
    app: Flask, client: FlaskClient, auth: AuthActions
) -> None:
    auth.register()
    auth.logout()
    game = new_game(client)  # as a guest on this browser
    auth.login()
    assert moved(client, game, move="peg", seat=0, points=2)["keeper"] is True
    assert f'href="/board/{game["code"]}"' in client.get("/board").text


@pytest.mark.any_database
def test_new_games_are_limited_per_client(app: Flask, client: FlaskClient) -> None:
    for _ in range(30):
        new_game(client)
    refused = client.post("/api/games", json=TWO)
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert refused.json["error"].startswith("Too many new games from your address")


def test_the_games_list_gives_the_winners_score_first(client: FlaskClient) -> None:
    """ "Bob won 121–53", as a scoreboard says it, not the seats' order "53–121"."""
    game = pegged_to(client, pegged_to(client, new_game(client), 0, 53), 1, 121)
    assert game["result"]["winner"] == 1
    assert "<strong>Bob won</strong> 121–53" in client.get("/board").text


def test_a_guest_who_kept_no_game_sees_no_empty_list(client: FlaskClient) -> None:
    assert client.get("/api/drills/next?kind=hand").status_code == 200  # a guest now
    assert "Your games" not in client.get("/board").text
    new_game(client)
    assert "Your games" in client.get("/board").text


def test_the_match_between_the_same_players_is_on_the_board_and_the_list(
    client: FlaskClient,
) -> None:
    """Ann lurches Bob, Bob wins one, Ann one with the seats the other way round: the next
    game's board and the games list say "Ann 3 – Bob 1 (one lurch)" (issue players3, item 6)."""
    pegged_to(client, pegged_to(client, new_game(client), 1, 80), 0, 121)
    pegged_to(client, pegged_to(client, new_game(client), 0, 100), 1, 121)
    swapped = new_game(client, names=["Bob", "Ann"])
    last = pegged_to(client, pegged_to(client, swapped, 0, 95), 1, 121)
    assert last["match"]["text"] == "Bob 1 – Ann 3 (one lurch)"  # this game's seats
    game = new_game(client)
    assert game["match"] == {
        "names": ["Ann", "Bob"],
        "games": [3, 1],
        "wins": [2, 1],
        "lurches": [1, 0],
        "played": 3,
        "text": "Ann 3 – Bob 1 (one lurch)",
    }
    assert client.get(f"/api/games/{game['code']}").json["match"] == game["match"]
    assert new_game(client, names=["Ann", "Cy"])["match"] is None  # no game over yet
    for page in ("/board", "/history"):
        assert (
            "<strong>Ann 3 – Bob 1 (one lurch)</strong> <small>3 games</small>"
            in client.get(page).text
        )
