"""What a new player meets in the first ten minutes: words, not floats; a welcome; his heels."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.conftest import AuthActions
from trainer.answers import FASTEST_ANSWER
from trainer.grading import HEELS_NOTE


def test_too_fast_is_said_in_words(client: FlaskClient) -> None:
    """An answer sooner than anyone can count is refused in words, without the raw float."""
    drill = client.get("/api/drills/next?kind=hand").json
    seconds = 0.24109999999962747
    assert seconds < FASTEST_ANSWER
    reply = client.post(f"/api/drills/{drill['id']}/answer", json={"points": 0, "seconds": seconds})
    assert reply.status_code == 400
    error = reply.json["error"]
    assert "0.2410" not in error and not re.search(r"\d\.\d{3}", error)
    assert "too fast" in error and "count the cards" in error


def test_new_player_is_welcomed(client: FlaskClient, auth: AuthActions) -> None:
    """Just registered, progress welcomes the player and says where to start, with no empty
    brackets after 'drills done 0'."""
    auth.register("bob")
    page = client.get("/progress").text
    assert "()" not in page
    assert "Welcome, bob" in page and 'href="/daily"' in page
    drill = client.get("/api/drills/next?kind=hand").json
    client.post(f"/api/drills/{drill['id']}/answer", json={"points": 0, "seconds": 3})
    page = client.get("/progress").text
    assert "Welcome" not in page and "(hand 1)" in page


def test_score_page_notes_his_heels(client: FlaskClient) -> None:
    """A jack starter on the dispute page: the dealer pegs 2 for his heels, said once."""
    jack = client.get("/score?cards=5H+5D+5C+2S&starter=JS").text
    assert jack.count(str(HEELS_NOTE).replace("'", "&#39;")) == 1
    ranks = client.get("/score?cards=5+5+5+2&starter=J").text
    assert HEELS_NOTE in ranks
    assert HEELS_NOTE not in client.get("/score?cards=5H+5D+5C+JS&starter=2S").text
