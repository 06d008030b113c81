"""Security headers on every response: what the pages may load, and who may frame them.

The pages run under ``script-src 'self'`` and ``style-src 'self'``: their scripts are files in
``static/`` (no inline script or ``on...=`` handler, see docs/development.md) and their styles are
``style.css`` (scripts set styles through the DOM, which the policy allows). Photos are shown
from ``blob:`` URLs; the charts are inline SVG. No page may be framed (clickjacking), no
response is sniffed into another type, and only this site sees the address a visitor came from.
Behind nginx, ``deploy/nginx.conf`` sends these values in their place on every answer, its own
and gunicorn's error pages included (``tests/deploy`` checks that they agree).
"""

from __future__ import annotations

from flask import Flask
from werkzeug.wrappers import Response

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def add_security_headers(response: Response) -> Response:
    """Add :data:`HEADERS` to ``response`` (any it already has are kept)."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    """Send the headers with every response, errors and static files included."""
    app.after_request(add_security_headers)
