"""HTML pages: every page renders; the calculators settle disputes from the URL."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from trainer import score_show
from trainer.items import PLAY_RULE_TEXT, RULE_TEXT, Kind
from trainer.pegging import play_out, score_sequence
from trainer.rules import RULESETS
from trainer.show import score_ranks


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


STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
IMPORT = re.compile(r'^import [^;]+ from "\./([\w-]+\.js)";$', re.MULTILINE)


def test_static_assets_served(client: FlaskClient) -> None:
    """The stylesheet and scripts come from our own static folder, scripts as JavaScript
    (browsers run modules only with a JavaScript type)."""
    names = sorted(p.name for p in STATIC.iterdir())
    assert {"style.css", "favicon.svg", "dom.js", "cards.js", "api.js", "drill.js"} <= set(names)
    for name in names:
        with client.get(f"/static/{name}") as response:
            assert response.status_code == 200 and response.data
            if name.endswith(".js"):
                assert response.mimetype == "text/javascript"


def test_module_imports_resolve() -> None:
    """Every module a script imports is a file of the static folder, so no page loads a
    missing module (a broken import stops the whole page's script)."""
    imported = {name for p in STATIC.glob("*.js") for name in IMPORT.findall(p.read_text())}
    assert {"dom.js", "cards.js", "api.js"} <= imported
    assert imported <= {p.name for p in STATIC.glob("*.js")}


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
        assert page.count(str(escape(RULE_TEXT[kind]))) == 1  # one rule line per kind
    assert "Two-hand six-card cribbage" in page
    assert page.count('data-card="5S"') == 1
    starter = page.index('class="starter-slot"')
    assert page.index('data-card="5S"') > starter
    assert page.index('<span class="slot-label">starter</span>') > starter


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
        ("cards=5H+5D+5C+JS", "the starter is missing: a hand is 4 cards and a starter"),
        ("cards=5H+5D+5C+JS+5S&starter=6S", "the starter is given twice: 5S last and 6S in"),
        ("cards=5H+5D+5C+JS+|+5S&starter=6S", "the starter is given twice: give it after"),
        ("cards=5H+5D+5C", "a hand is 4 cards and a starter: got 3 cards"),
        ("cards=5H+5D+5C+JS+5S+6S", "a hand is 4 cards and a starter: got 6 cards"),
        ("cards=5H+5D&crib=1", "a crib is 4 cards and a starter: got 2 cards"),
    ],
)
def test_score_page_bad_input(client: FlaskClient, query: str, message: str) -> None:
    """Bad cards give a 400 page naming the problem, the form kept."""
    response = client.get(f"/score?{query}")
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_pegging_page(client: FlaskClient) -> None:
    """The play calculator shows every card's count and pegs, with one rule line per kind."""
    play = "5H 5D 5C 10S go AH"
    response = client.get("/score/pegging", query_string={"play": play, "end": "1"})
    page = response.get_data(as_text=True)
    pegs = score_sequence(play.split(), end=True)
    assert response.status_code == 200
    assert page.count('<tr class="play">') == sum(1 for p in pegs if p.card)
    assert page.count(str(escape(PLAY_RULE_TEXT[Kind.PAIR_ROYAL]))) == 1
    assert not [rule for rule in RULE_TEXT.values() if str(escape(rule)) in page]  # the show's
    bad = client.get("/score/pegging", query_string={"play": "10H 10S 10D 5C"})
    assert bad.status_code == 400 and "past 31" in bad.get_data(as_text=True)


@pytest.mark.parametrize("go", ["", "go "])
def test_pegging_page_with_hands_finds_the_goes(client: FlaskClient, go: str) -> None:
    """With both hands the goes are found (typing the right ``go`` is allowed, not needed)
    and labelled with who scores them; the totals are the engine's."""
    hands = {"pone": "10H 9C 5D 2S", "dealer": "JD 6C 4H AS"}
    play = f"10H JD 9C AS {go}5D 4H 2S 6C"
    pegs = play_out(hands["pone"], hands["dealer"], play.replace("go ", ""))
    response = client.get("/score/pegging", query_string={"play": play, **hands})
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    goes = [p for p in pegs if p.card is None]
    assert len(goes) == 1 and f"go: 1 to P{goes[0].player + 1}" in page
    totals = [sum(p.points for p in pegs if p.player == who) for who in (0, 1)]
    assert (
        f"P1 (pone) <strong>{totals[0]}</strong>, P2 (dealer) <strong>{totals[1]}</strong>" in page
    )


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (
            {"play": "5H 10S 5D 5C go AH", "pone": "5H 5D AH 2C", "dealer": "10S 5C 3D 4D"},
            "no go after 5♣",
        ),
        ({"play": "5H 10S", "pone": "5H 5D AH 2C"}, "give both hands"),
        ({"play": ","}, "no cards played"),
        ({"play": "go"}, "no cards played"),
        ({"play": "5H 10S", "pone": "5H 5D AH", "dealer": "10S 5C 3D 4D"}, "differ in size"),
    ],
)
def test_pegging_page_checks_the_play_against_the_hands(
    client: FlaskClient, query: dict[str, str], message: str
) -> None:
    """A go called while holding a card that fits is refused, naming the card; so are one hand
    alone and hands of different sizes."""
    response = client.get("/score/pegging", query_string=query)
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)


def test_pegging_page_plays_on_after_a_go(client: FlaskClient) -> None:
    """Without hands, the cards after a go are the other player's while they fit; the go is
    pegged when he stops, and labelled with who pegs it."""
    response = client.get("/score/pegging", query_string={"play": "10H KD 5C go 4S AD 6H"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    rows = re.findall(r'<tr class="(play|go)"><td>(P\d)?', page)
    assert [who or kind for kind, who in rows] == ["P1", "P2", "P1", "P1", "P1", "go", "P2"]
    assert "go: 1 to P1" in page


def test_pegging_page_example_is_legal(client: FlaskClient) -> None:
    """The example the page links to gives both hands and scores without an error."""
    page = client.get("/score/pegging").get_data(as_text=True)
    href = re.search(r'<a id="example" href="([^"]+)"', page)
    assert href is not None
    example = client.get(html.unescape(href.group(1)))
    shown = example.get_data(as_text=True)
    assert example.status_code == 200 and 'class="error"' not in shown
    query = parse_qs(urlsplit(html.unescape(href.group(1))).query)
    assert query.keys() >= {"pone", "dealer", "play"}
    assert shown.count('<tr class="play">') == len(query["play"][0].split())


def test_score_page_other_rules(client: FlaskClient) -> None:
    """Five-card cribbage: three cards and a starter, the rule set named; unknown sets refused."""
    response = client.get("/score?cards=5H+5D+JS+5C&rules=five-card")
    total = score_show(["5H", "5D", "JS"], "5C", rules=RULESETS["five-card"]).total
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert f"<strong>{total}</strong>" in page and "Two-hand five-card cribbage" in page
    bad = client.get("/score?cards=5H+5D+JS+5C&rules=seven-card")
    assert bad.status_code == 400 and "unknown rule set" in bad.get_data(as_text=True)


@pytest.mark.parametrize(
    ("query", "hand", "starter"),
    [
        ("cards=5H+5D+5C+JS+|+5S", "5H 5D 5C JS", "5S"),
        ("cards=5H,5D,5C,JS|5S", "5H 5D 5C JS", "5S"),
        ("cards=2H+4H+6H+8H&starter=KS", "2H 4H 6H 8H", "KS"),
    ],
)
def test_score_page_bar_form(client: FlaskClient, query: str, hand: str, starter: str) -> None:
    """The starter after a bar, as the command line and README write it, is the starter."""
    response = client.get(f"/score?{query}")
    assert response.status_code == 200
    assert f"<strong>{score_show(hand.split(), starter).total}</strong> hand" in response.text


@pytest.mark.parametrize(
    ("query", "ranks", "starter"),
    [
        ("cards=5+5+5+J&starter=5", "5 5 5 J", "5"),
        ("cards=5-5-5-J-5", "5 5 5 J", "5"),
        ("cards=A+2+3+4+|+9", "A 2 3 4", "9"),
    ],
)
def test_score_page_ranks_alone(client: FlaskClient, query: str, ranks: str, starter: str) -> None:
    """Ranks alone give what is certain and each total the suits could make, with its
    condition, as ``crib score`` does."""
    response = client.get(f"/score?{query}")
    expected = score_ranks(ranks.split(), starter)
    page = response.text
    assert response.status_code == 200
    assert f"<strong>{expected.certain}</strong> hand whatever the suits" in page
    assert expected.outcomes
    for total, condition in expected.outcomes:
        assert f"<li><strong>{total}</strong> if {escape(condition)}</li>" in page


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("cards=5H+5D+5C+JS+|+5S&starter=5S", "not both"),
        ("cards=5H+5D+5C+JS+|+5S+6S", "one starter card, not 2"),
        ("cards=5+5+5+5&starter=5", "more than four"),
        ("cards=5H+5D+5C+JS+|+5H", "card given twice"),
    ],
)
def test_score_page_bad_deal_forms(client: FlaskClient, query: str, message: str) -> None:
    """Bars and ranks used wrongly get a 400 naming the problem."""
    response = client.get(f"/score?{query}")
    assert response.status_code == 400
    assert message in response.text


@pytest.mark.parametrize(
    ("path", "by_kind", "muggins"),
    [
        ("/practice/hand", True, True),
        ("/practice/crib", True, True),
        ("/practice/pegging", False, True),
        ("/practice/discard", False, False),
        ("/sprint", False, False),
        ("/daily", True, False),
    ],
)
def test_drill_options_only_where_they_work(
    client: FlaskClient, path: str, by_kind: bool, muggins: bool
) -> None:
    """Count by kind is offered for hands and cribs, muggins for counts in practice; neither
    on a discard. The daily challenge mixes kinds: its page says which kinds each option is
    for (``data-kinds``) and the script shows it on those drills only."""
    page = client.get(path).text
    assert ('id="bykind"' in page) == by_kind
    assert ('id="muggins"' in page) == muggins
    if by_kind:
        assert 'data-kinds="hand crib"' in page


def test_sprint_waits_for_start(client: FlaskClient) -> None:
    """The sprint page has a Start button and shows no cards before it is pressed."""
    page = client.get("/sprint").text
    assert '<button type="button" id="start"' in page
    assert re.search(r'<div class="table" id="table"\s+hidden>', page)


PAGES = ["/", "/daily", "/practice/hand", "/sprint", "/score?cards=5H+5D+5C+JS&starter=5S"]
PAGES += ["/score/pegging?play=5H+10S", "/progress", "/photo", "/auth/login", "/auth/register"]


@pytest.mark.parametrize("path", PAGES)
def test_pages_keep_scripts_out_of_the_markup(client: FlaskClient, path: str) -> None:
    """Under ``script-src 'self'`` the pages work only with scripts from files: no inline
    script, no ``on...=`` handler, no ``javascript:`` URL; data goes in data- attributes."""
    page = client.get(path).text
    for tag in re.findall(r"<script\b[^>]*>", page):
        assert re.search(r'\bsrc="/static/[\w-]+\.js"', tag) or 'type="application/json"' in tag
    assert not re.search(r"<[^>]+\son[a-z]+\s*=", page)
    assert "javascript:" not in page


def test_favicon(client: FlaskClient) -> None:
    """Every page names its icon, and the icon is served as SVG from our static folder."""
    page = client.get("/").text
    href = re.search(r'<link rel="icon" type="image/svg\+xml" href="([^"]+)">', page)
    assert href is not None
    with client.get(href.group(1)) as icon:
        assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"
        assert b"<svg" in icon.data
