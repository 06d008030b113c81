"""Security headers on every response, and pages that keep to their own policy."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from web.headers import CONTENT_SECURITY_POLICY

pytestmark = pytest.mark.any_database  # headers are set whatever the database

PAGES = ["/", "/daily", "/practice/hand", "/sprint", "/score?cards=5H+5D+5C+JS+5S", "/photo"]
PAGES += ["/score/pegging?play=5H+10S", "/progress", "/auth/login", "/auth/register"]


@pytest.mark.parametrize(
    "path", [*PAGES, "/static/api.js", "/api/drills/next", "/no-such-page", "/api/nothing"]
)
def test_every_response_has_the_security_headers(client: FlaskClient, path: str) -> None:
    """Pages, scripts, API answers and errors alike."""
    with client.get(path) as response:  # a static file's response holds it open until closed
        headers = response.headers
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("path", PAGES)
def test_pages_keep_to_the_policy(client: FlaskClient, path: str) -> None:
    """No inline script, inline handler or style attribute: what the policy would block."""
    page = client.get(path).get_data(as_text=True)
    assert "style-src 'self'" in CONTENT_SECURITY_POLICY
    assert not re.search(r"<script(?![^>]*\bsrc=)", page), "inline script"
    assert not re.search(r"\son[a-z]+\s*=", page), "inline event handler"
    assert not re.search(r"\sstyle\s*=", page), "style attribute"
