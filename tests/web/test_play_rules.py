"""The play by the rule set on the web's surfaces: the five-card play is one count, and a play
typed without hands gives each card to the player who held it."""

from __future__ import annotations

from flask.testing import FlaskClient


def test_the_api_plays_the_five_card_game_as_one_count(client: FlaskClient) -> None:
    """001: after Q, Q, J and the dealer's go, the hands are counted: no card after it."""
    play = {"play": ["QH", "QC", "JD", "go"], "rules": "five-card"}
    pegs = client.post("/api/pegging", json=play).json["pegs"]
    assert [(p["card"], p["player"], p["points"]) for p in pegs][-1] == ("go", 0, 1)
    refused = client.post("/api/pegging", json=play | {"play": [*play["play"], "7S"]})
    assert refused.status_code == 400
    assert "the five-card play is one count" in refused.json["error"]
    unknown = client.post("/api/pegging", json=play | {"rules": "seven-card"})
    assert unknown.status_code == 400 and "unknown rule set" in unknown.json["error"]


def test_the_api_gives_the_last_king_to_the_player_who_held_it(client: FlaskClient) -> None:
    """``6H 9H JC go 6C 7D 8D 10D go KS``: the pone's four are down, so K♠ is the dealer's."""
    play = ["6H", "9H", "JC", "go", "6C", "7D", "8D", "10D", "go", "KS"]
    pegs = client.post("/api/pegging", json={"play": play}).json["pegs"]
    assert (pegs[-1]["card"], pegs[-1]["player"]) == ("KS", 1)
    totals = [sum(p["points"] for p in pegs if p["player"] == who) for who in (0, 1)]
    assert totals == [4, 4]


def test_the_dispute_page_plays_by_the_rules_chosen(client: FlaskClient) -> None:
    page = client.get(
        "/score/pegging", query_string={"play": "QH QC JD go 7S", "rules": "five-card"}
    )
    assert page.status_code == 400 and "the five-card play is one count" in page.text
    page = client.get("/score/pegging", query_string={"play": "QH QC JD go", "rules": "five-card"})
    assert page.status_code == 200 and "Two-hand five-card cribbage" in page.text
    assert "three-hand" not in page.text  # a typed play is two-hand: the others are the board's
