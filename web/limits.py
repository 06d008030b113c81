"""Rate limits (Flask-Limiter): password guessing and guest creation, per address and name.

Each log-in or registration spends ~75 ms of CPU on scrypt, so guessing passwords is also a
way to slow the trainer down for everyone; each cookie-less deal creates a guest player row.
The limits below bound both. The counts live in memory by default (one server: every worker
process keeps its own, so the effective limit is at most ``workers`` times the figure);
``CRIB_RATELIMIT_STORAGE_URI`` points several workers or servers at one store
(``redis://host:6379``, ``memcached://host:11211``, see the ``limits`` package).
``CRIB_RATELIMIT_ENABLED=false`` turns them off.

The client's address is the connection's, or the one a trusted proxy reports
(``CRIB_TRUSTED_PROXIES``, :func:`web.trust_proxies`).
"""

from __future__ import annotations

from flask import Flask, request, session
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

limiter = Limiter(get_remote_address, headers_enabled=True)

ACCOUNT_TRIES_PER_ADDRESS = "20 per minute;200 per hour"
"""Log-in or registration attempts one address may make."""
FAILED_LOGINS_PER_NAME = "10 per 10 minutes;50 per day"
"""Failed log-ins for one username, from anywhere (a right password is never counted)."""
REGISTRATIONS_PER_NAME = "5 per minute"
"""Registration attempts for one username, from anywhere."""
NEW_GUESTS_PER_ADDRESS = "60 per hour"
"""Guest players one address may create (browsers or scripts without the trainer's cookie)."""

TOO_MANY_TRIES = "Too many tries: wait a few minutes, then try again."
TOO_MANY_NAME_TRIES = "Too many tries for this username: wait a few minutes, then try again."
TOO_MANY_GUESTS = (
    "Too many new players from your address: let your browser keep the trainer's cookie, "
    "or wait a while."
)


def posted_username() -> str:
    """The username a form posts, as names are compared (the rate limit's key)."""
    return request.form.get("username", "").strip().lower()


def _failed(response: object) -> bool:
    return getattr(response, "status_code", 200) == 401


def _has_player() -> bool:
    """Whether this browser already plays as someone (no guest will be made for it)."""
    return "player_id" in session


account_tries = limiter.shared_limit(
    ACCOUNT_TRIES_PER_ADDRESS, scope="account", methods=["POST"], error_message=TOO_MANY_TRIES
)
"""Decorates the log-in and registration views: attempts per address, counted together."""
failed_logins = limiter.limit(
    FAILED_LOGINS_PER_NAME,
    key_func=posted_username,
    methods=["POST"],
    deduct_when=_failed,
    error_message=TOO_MANY_NAME_TRIES,
)
"""Decorates the log-in view: failed attempts per username."""
registrations = limiter.limit(
    REGISTRATIONS_PER_NAME,
    key_func=posted_username,
    methods=["POST"],
    error_message=TOO_MANY_NAME_TRIES,
)
"""Decorates the registration view: attempts per username."""
new_guests = limiter.shared_limit(
    NEW_GUESTS_PER_ADDRESS,
    scope="new-guest",
    exempt_when=_has_player,
    error_message=TOO_MANY_GUESTS,
)
"""Decorates the views that make a guest for a browser without one (dealing drills)."""


def init_app(app: Flask) -> None:
    """Count with the storage the config names (memory by default)."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    limiter.init_app(app)
