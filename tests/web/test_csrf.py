"""Cross-site requests: forms need the page's token; the JSON API takes JSON from this site
(or from scripts, which send no Origin) and refuses other sites."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .conftest import AuthActions, csrf_token


def test_login_csrf_is_refused(app: Flask, auth: AuthActions) -> None:
    """Another site's auto-submitted log-in form (no token) does not sign the victim in."""
    auth.register()
    victim = app.test_client()
    response = victim.post(
        "/auth/login",
        data={"username": "alice", "password": "cribbage29"},
        headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
    )
    assert response.status_code == 400
    assert "reload the page" in response.get_data(as_text=True)
    assert "Log out alice" not in victim.get("/").get_data(as_text=True)


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("/auth/register", {"username": "mallory", "password": "cribbage29"}),
        ("/auth/logout", {}),
        ("/auth/password", {"password": "cribbage29", "new_password": "fifteen-two"}),
    ],
)
def test_every_form_needs_the_token(
    app: Flask, auth: AuthActions, path: str, data: dict[str, str]
) -> None:
    """Register, log out and password change are refused without the page's token."""
    auth.register()
    response = auth._client.post(path, data=data)
    assert response.status_code == 400
    assert "Log out alice" in auth._client.get("/").get_data(as_text=True)


def test_pages_carry_the_token_for_scripts(client: FlaskClient) -> None:
    """Every page has the token in ``<meta name="csrf-token">`` for ``static/api.js``."""
    for path in ("/", "/daily", "/photo", "/auth/login"):
        assert csrf_token(client, path)


def test_scripts_use_the_json_api_without_a_token(client: FlaskClient) -> None:
    """A script (no browser, no token, no Origin) scores and answers with JSON bodies."""
    scored = client.post("/api/score", json={"hand": ["5H", "5D", "5C", "JS"], "starter": "5S"})
    assert scored.status_code == 200 and scored.json["total"] == 29
    drill = client.get("/api/drills/next").json
    answer = client.post(f"/api/drills/{drill['id']}/answer", json={"points": 0})
    assert answer.status_code == 200


def test_the_json_api_needs_a_json_body(client: FlaskClient) -> None:
    """A form-encoded or text/plain POST (what another site's form can send) is refused."""
    drill = client.get("/api/drills/next").json
    for content_type in ("application/x-www-form-urlencoded", "text/plain"):
        response = client.post(
            f"/api/drills/{drill['id']}/answer",
            data='{"points": 0}',
            headers={"Content-Type": content_type},
        )
        assert response.status_code == 415, content_type
        assert "application/json" in response.json["error"]


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_the_json_api_refuses_other_sites(client: FlaskClient, headers: dict[str, str]) -> None:
    """A request another site's page makes is refused, even with a JSON body; nothing is
    stored."""
    drill = client.get("/api/drills/next").json
    response = client.post(f"/api/drills/{drill['id']}/answer", json={"points": 0}, headers=headers)
    assert response.status_code == 403
    assert "another site" in response.json["error"]
    again = client.post(f"/api/drills/{drill['id']}/answer", json={"points": 0})
    assert again.status_code == 200


def test_the_json_api_takes_its_own_pages_requests(client: FlaskClient) -> None:
    """The pages' own fetches (same origin) go through."""
    headers = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    response = client.post(
        "/api/score", json={"hand": ["5H", "5D", "5C", "JS"], "starter": "5S"}, headers=headers
    )
    assert response.status_code == 200
