"""Cross-site request forgery: forms carry a token; the JSON API takes JSON from this site.

Every form (log in, register, log out, password) and any other state-changing request outside
``/api`` needs the page's token (Flask-WTF's ``CSRFProtect``): the forms post it as
``csrf_token``, the pages' scripts send it as ``X-CSRFToken`` from ``<meta name="csrf-token">``.

The JSON API stays usable from scripts without a browser token. What protects it instead: a
state-changing ``/api`` request must have a JSON body (another site's form can only send
form-encoded, multipart or plain-text bodies, and a cross-site ``fetch`` with JSON needs a CORS
preflight the trainer never grants), and a request that says it comes from another site
(``Origin`` of another host, or ``Sec-Fetch-Site: cross-site``) is refused. A view marked
:func:`web.request_data.takes_upload` (the photo reader, ``POST /api/read``) takes a multipart
upload and changes nothing, so only the second check applies to it.

``GET /api/drills/next`` and ``GET /api/daily`` store rows (the deal, so that the answer can be
graded against it); another site making a browser fetch them only deals that browser a drill
it never sees (the daily set is the same for everyone anyway): nothing is answered, revealed
or given to the attacker, and guest creation from them is rate-limited (:mod:`web.limits`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, abort, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError, CSRFProtect

from .errors import handle_http
from .request_data import upload_request

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

csrf = CSRFProtect()


def _from_another_site() -> bool:
    """Whether the browser says another site made this request."""
    if request.headers.get("Sec-Fetch-Site") == "cross-site":
        return True
    origin = request.headers.get("Origin")
    return origin is not None and urlsplit(origin).netloc != request.host


def _json_api_from_this_site() -> None:
    """Refuse a state-changing API request from another site or without a JSON body."""
    if not request.path.startswith("/api/") or request.method in SAFE_METHODS:
        return
    if request.routing_exception is not None:  # no such route or method: routing's 404/405
        return
    if _from_another_site():
        abort(403, "The trainer's API does not take requests made by another site's page.")
    if not request.is_json and not upload_request():
        abort(415, "Send a JSON body (Content-Type: application/json).")


def _expired_form(error: CSRFError) -> ResponseReturnValue:
    """A form without a valid token: a page from another site, or one open too long."""
    error.description = (
        "This form has expired or was sent from another site: reload the page and try again."
    )
    return handle_http(error)


def _forms_carry_a_token() -> None:
    """Check the token of a state-changing request outside ``/api`` (a 400 without it)."""
    if not request.path.startswith("/api/") and request.method not in SAFE_METHODS:
        csrf.protect()


def init_app(app: Flask) -> None:
    """Protect the forms with tokens and the JSON API with its body and origin checks."""
    app.config.setdefault("WTF_CSRF_TIME_LIMIT", None)  # valid as long as the session
    app.config["WTF_CSRF_CHECK_DEFAULT"] = False  # checked by path: _forms_carry_a_token
    csrf.init_app(app)
    app.before_request(_forms_carry_a_token)
    app.before_request(_json_api_from_this_site)
    app.register_error_handler(CSRFError, _expired_form)
