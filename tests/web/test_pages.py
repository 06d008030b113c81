"""HTML pages: every page renders; the calculators settle disputes from the URL."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from trainer import score_show
from trainer.items import RULE_TEXT, Kind
from trainer.pegging import score_sequence
from trainer.rules import RULESETS


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("/", "Daily challenge"),
        ("/daily", 'data-mode="daily"'),
        ("/practice/hand", 'data-kind="hand"'),
        ("/practice/crib", "Count the crib"),
        ("/practice/pegging", "What does it peg?"),
        ("/practice/discard?difficulty=dense", "Throw two"),
        ("/sprint", 'data-mode="sprint"'),
        ("/score", "Settle a dispute"),
        ("/score/pegging", "Score the play"),
        ("/progress", "No drills yet"),
        ("/auth/login", "Log in"),
        ("/auth/register", "Register"),
    ],
)
def test_page_renders(client: FlaskClient, path: str, text: str) -> None:
    """Each page answers 200 with its own content and local assets only."""
    response = client.get(path)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert text in page
    assert "http://" not in page.replace("http://localhost", "")
    assert "https://" not in page


def test_static_assets_served(client: FlaskClient) -> None:
    """The stylesheet and scripts come from our own static folder."""
    for name in (
        "style.css",
        "drill.js",
        "cards.js",
        "dom.js",
        "api.js",
        "picker.js",
        "highlight.js",
        "score.js",
        "photo.js",
    ):
        with client.get(f"/static/{name}") as response:
            assert response.status_code == 200 and response.data


def test_unknown_practice_kind_and_page(client: FlaskClient) -> None:
    """Unknown pages are HTML 404s, not JSON, with a way back."""
    for path in ("/practice/poker", "/nowhere"):
        response = client.get(path)
        assert response.status_code == 404
        assert "Back to the trainer" in response.get_data(as_text=True)


def test_score_page_from_url(client: FlaskClient) -> None:
    """The shareable URL scores the 29 hand, itemized, each item with its rule and cards."""
    response = client.get("/score?cards=5H+5D+5C+JS&starter=5S")
    page = response.get_data(as_text=True)
    breakdown = score_show(["5H", "5D", "5C", "JS"], "5S")
    assert response.status_code == 200
    assert f"<strong>{breakdown.total}</strong>" in page
    assert page.count('class="item"') == len(breakdown.items)
    for kind in breakdown.points_by_kind():
        assert escape(RULE_TEXT[kind]) in page
    assert "Two-hand six-card cribbage" in page
    assert page.count('data-card="5S"') == 1


def test_score_page_crib_and_five_cards(client: FlaskClient) -> None:
    """Five cards without a starter take the last as starter; ``crib=1`` uses the crib rules."""
    response = client.get("/score?cards=2H+4H+6H+8H+KS&crib=1")
    total = score_show(["2H", "4H", "6H", "8H"], "KS", crib=True).total
    assert f"<strong>{total}</strong> crib" in response.get_data(as_text=True)
    assert RULE_TEXT[Kind.FLUSH] not in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("cards=5H+5D+5C+1S&starter=5S", "unknown rank &#39;1&#39;"),
        ("cards=5H+5D+5C+5H&starter=5S", "card given twice"),
        ("cards=5H+5D+5C&starter=5S", "got 3"),
        ("cards=5H+5D+5C+JS", "give the starter card too"),
    ],
)
def test_score_page_bad_input(client: FlaskClient, query: str, message: str) -> None:
    """Bad cards give a 400 page naming the problem, the form kept."""
    response = client.get(f"/score?{query}")
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_pegging_page(client: FlaskClient) -> None:
    """The play calculator shows every card's count and pegs, with the rules."""
    play = "5H 5D 5C 10S go AH"
    response = client.get("/score/pegging", query_string={"play": play, "end": "1"})
    page = response.get_data(as_text=True)
    pegs = score_sequence(play.split(), end=True)
    assert response.status_code == 200
    assert page.count("<tr><td>") == len(pegs)
    assert escape(RULE_TEXT[Kind.PAIR_ROYAL]) in page
    bad = client.get("/score/pegging", query_string={"play": "10H 10S 10D 5C"})
    assert bad.status_code == 400 and "past 31" in bad.get_data(as_text=True)


def test_score_page_other_rules(client: FlaskClient) -> None:
    """Five-card cribbage: three cards and a starter, the rule set named; unknown sets refused."""
    response = client.get("/score?cards=5H+5D+JS+5C&rules=five-card")
    total = score_show(["5H", "5D", "JS"], "5C", rules=RULESETS["five-card"]).total
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert f"<strong>{total}</strong>" in page and "Two-hand five-card cribbage" in page
    bad = client.get("/score?cards=5H+5D+JS+5C&rules=seven-card")
    assert bad.status_code == 400 and "unknown rule set" in bad.get_data(as_text=True)
