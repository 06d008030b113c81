"""The session cookie: signed, HttpOnly, SameSite=Lax, 30 days, ``Secure`` over HTTPS.

The cookie lasts 30 days after the browser's last visit.

``SESSION_COOKIE_SECURE`` (``CRIB_SESSION_COOKIE_SECURE``) is ``"auto"`` by default: the
cookie is marked ``Secure`` on a request made over HTTPS, directly or through a proxy trusted
with ``CRIB_TRUSTED_PROXIES`` (which reports the scheme); ``true`` or ``false`` force it.
Revoking sessions is the accounts' business (:mod:`web.auth`).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface

LIFETIME = timedelta(days=30)
"""How long a session lasts after the browser's last visit."""


class _SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, ``Secure`` over HTTPS when the setting is ``auto``."""

    def get_cookie_secure(self, app: Flask) -> bool:
        setting = app.config["SESSION_COOKIE_SECURE"]
        if setting == "auto":
            return request.is_secure
        return bool(setting)


def defaults() -> dict[str, Any]:
    """The session settings, before the instance's config and the environment."""
    return {
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SECURE": "auto",
        "SESSION_REFRESH_EACH_REQUEST": True,
        "PERMANENT_SESSION_LIFETIME": LIFETIME,
    }


def init_app(app: Flask) -> None:
    """Use the session cookie described above."""
    app.session_interface = _SessionInterface()
