"""The session cookie: signed, HttpOnly, SameSite=Lax, 30 days, ``Secure`` over HTTPS.

The cookie lasts 30 days after the browser's last visit: a cookie signed more than a day ago is
signed again with the new date; a younger one is left as it is (re-signing it on every response
costs each request an HMAC and a ``Set-Cookie`` header).

``SESSION_COOKIE_SECURE`` (``CRIB_SESSION_COOKIE_SECURE``) is ``"auto"`` by default: the
cookie is marked ``Secure`` on a request made over HTTPS, directly or through a proxy trusted
with ``CRIB_TRUSTED_PROXIES`` (which reports the scheme); ``true`` or ``false`` force it.
Revoking sessions is the accounts' business (:mod:`web.auth`).

A second cookie, the device cookie, remembers the accounts that logged in on this browser
(signed, a year): the log-in limits let such a browser through for those accounts
(:mod:`web.limits`), so that guessing a name from elsewhere never locks its owner out. It
names ids, not names: a cookie of another account whose name differs only in case (``vic``
beside ``Vic``, before names were one in any case) lets nobody past the limits for ``Vic``.
Each id comes with a mark of the account's session key and version (:func:`device_mark`), so
that revoking the account's sessions (a new password, logging out everywhere) ends its device
cookies too: before (attack round 4, finding 4), a thief who had once logged in with the old
password stayed exempt from the per-name limit for good.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta
from typing import Any

from flask import Flask, Request, Response, after_this_request, current_app, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature, URLSafeTimedSerializer

from records.players import PlayerRecord

LIFETIME = timedelta(days=30)
"""How long a session lasts after the browser's last visit."""
RESIGN_AFTER = timedelta(days=1)
"""An unchanged session's cookie is signed again (its lifetime restarts) once it is this old."""
DEVICE_COOKIE = "device"
"""The cookie naming the accounts that logged in on this browser."""
DEVICE_LIFETIME = timedelta(days=365)
"""How long a browser stays known after its last log-in."""
DEVICE_NAMES = 5
"""The most accounts one browser is known for (the latest ones)."""


class _Session(SecureCookieSession):
    """A cookie session that knows when its cookie was signed (``None``: not yet)."""

    signed_at: float | None = None


class _SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, re-signed once a day, ``Secure`` as configured."""

    session_class = _Session

    def open_session(self, app: Flask, request: Request) -> _Session | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return _Session()
        lifetime = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, signed = serializer.loads(value, max_age=lifetime, return_timestamp=True)
        except BadSignature:
            return _Session()
        session = _Session(data)
        session.signed_at = signed.timestamp()
        return session

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        signed_at = getattr(session, "signed_at", None)
        age = app.extensions["crib_clock"]() - signed_at if signed_at is not None else None
        return age is None or age >= RESIGN_AFTER.total_seconds()

    def get_cookie_secure(self, app: Flask) -> bool:
        setting = app.config["SESSION_COOKIE_SECURE"]
        if setting == "auto":
            return request.is_secure
        return bool(setting)


def _device_serializer() -> URLSafeTimedSerializer:
    # a salt of its own: the cookies that named usernames (before attack round 3), or bare ids
    # (before round 4), are not read
    return URLSafeTimedSerializer(current_app.secret_key or "", salt="known-device-sessions")


def device_mark(player: PlayerRecord) -> str:
    """What the device cookie keeps of ``player``: a digest of its session key and version.

    Revoking the player's sessions (a new version) makes every earlier mark another's.
    """
    made = f"{player.session_key}:{player.session_version}".encode()
    return hashlib.sha256(made).hexdigest()[:32]


def known_players() -> dict[int, str]:
    """The accounts that logged in on this browser, from its device cookie: id to mark."""
    value = request.cookies.get(DEVICE_COOKIE, "")
    try:  # the trainer signed it: a list of [id, mark] pairs
        pairs = _device_serializer().loads(value, max_age=DEVICE_LIFETIME.days * 86400)
    except BadSignature:  # none, forged, or older than its lifetime
        return {}
    return {int(player_id): str(mark) for player_id, mark in pairs}


def is_known(player: PlayerRecord) -> bool:
    """Whether ``player`` logged in on this browser since its sessions were last revoked."""
    mark = known_players().get(player.id)
    return mark is not None and hmac.compare_digest(mark, device_mark(player))


def remember_device(player: PlayerRecord) -> None:
    """Set the device cookie on this request's response: ``player`` logged in here."""
    known = [[player.id, device_mark(player)]]
    known += [[other, mark] for other, mark in known_players().items() if other != player.id]
    known = known[:DEVICE_NAMES]

    @after_this_request
    def set_cookie(response: Response) -> Response:
        response.set_cookie(
            DEVICE_COOKIE,
            _device_serializer().dumps(known),
            max_age=DEVICE_LIFETIME,
            secure=current_app.session_interface.get_cookie_secure(current_app),
            httponly=True,
            samesite="Lax",
        )
        return response


DEFAULTS: dict[str, Any] = {
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_REFRESH_EACH_REQUEST": True,
    "PERMANENT_SESSION_LIFETIME": LIFETIME,
}
"""Flask's session options, fixed (``SESSION_COOKIE_SECURE`` is a setting: :mod:`web.settings`)."""


def init_app(app: Flask) -> None:
    """Use the session cookie described above."""
    app.session_interface = _SessionInterface()
