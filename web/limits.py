"""Rate limits (the ``limits`` library): password guessing and guest creation, per address and name.

Each log-in or registration spends ~75 ms of CPU on scrypt, so guessing passwords is also a
way to slow the trainer down for everyone; each cookie-less deal creates a guest player row.
The limits below bound both. The counts live in the trainer's database by default
(``CRIB_RATELIMIT_STORAGE_URI=database://``, :mod:`web.limit_storage`), shared by every worker
and every server using it; ``memory://`` keeps them in each worker process (faster, but the
effective limit is then ``workers`` times the figure), and ``redis://host:6379`` or
``memcached://host:11211`` use such a store (see the ``limits`` package).
``CRIB_RATELIMIT_ENABLED=false`` turns them off.

Only the requests a limit is about pay for it: a form post to the account views, a deal that
makes a guest. Drills dealt to a player who has one are never counted (they are most requests).

The client's address is the connection's, or the one a trusted proxy reports
(``CRIB_TRUSTED_PROXIES``, :func:`web.trust_proxies`).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from flask import Flask, current_app, render_template, request
from limits import RateLimitItem, parse_many
from limits.errors import ConfigurationError
from limits.storage import Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import TooManyRequests

from .headers import HEADERS
from .limit_storage import DatabaseStorage

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

ACCOUNT_TRIES_PER_ADDRESS = "20 per minute;200 per hour"
"""Log-in, registration or password change attempts one address may make, counted together."""
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

View = TypeVar("View", bound=Callable[..., Any])


class Limit:
    """A rate limit: at most ``rule`` (``"20 per minute;200 per hour"``) per key, in ``scope``."""

    def __init__(self, rule: str, scope: str, message: str) -> None:
        self.items: list[RateLimitItem] = parse_many(rule)
        self.scope = scope
        self.message = message

    def hit(self, key: str) -> None:
        """Count one try for ``key``.

        Raises:
            werkzeug.exceptions.TooManyRequests: (a 429 with ``Retry-After``) past the limit.
        """
        self._apply(key, count=True)

    def check(self, key: str) -> None:
        """Refuse ``key`` when it is at the limit already, without counting a try.

        Raises:
            werkzeug.exceptions.TooManyRequests: (a 429 with ``Retry-After``) at the limit.
        """
        self._apply(key, count=False)

    def _apply(self, key: str, *, count: bool) -> None:
        counter = _counter()
        if counter is None:
            return
        wait = self.wait(counter, key, count=count)
        if wait is not None:
            raise TooManyRequests(self.message, retry_after=wait)

    def wait(self, counter: FixedWindowRateLimiter, key: str, *, count: bool = False) -> int | None:
        """Seconds ``key`` must wait before trying again, or ``None`` when it may try now.

        With ``count``, this try is counted first (and refused when it is one too many);
        without, nothing is counted.
        """
        allowed = counter.hit if count else counter.test
        for item in self.items:
            if not allowed(item, self.scope, key):
                reset = counter.storage.get_expiry(item.key_for(self.scope, key))
                return max(1, math.ceil(reset - time.time()))
        return None


ACCOUNT_TRIES = Limit(ACCOUNT_TRIES_PER_ADDRESS, "account", TOO_MANY_TRIES)
FAILED_LOGINS = Limit(FAILED_LOGINS_PER_NAME, "failed-login", TOO_MANY_NAME_TRIES)
REGISTRATIONS = Limit(REGISTRATIONS_PER_NAME, "registration", TOO_MANY_NAME_TRIES)
NEW_GUESTS = Limit(NEW_GUESTS_PER_ADDRESS, "new-guest", TOO_MANY_GUESTS)


def client_address() -> str:
    """The client's address (a rate limit's key)."""
    return request.remote_addr or "unknown"


def posted_username() -> str:
    """The username a form posts, as names are compared (the rate limit's key)."""
    return request.form.get("username", "").strip().lower()


def _counter() -> FixedWindowRateLimiter | None:
    counter: FixedWindowRateLimiter | None = current_app.extensions["crib_limits"]
    return counter


def counting_posts(limit: Limit, key: Callable[[], str]) -> Callable[[View], View]:
    """A decorator for a view whose form posts each count against ``limit`` for ``key()``."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def limited(*args: Any, **kwargs: Any) -> Any:
            if request.method == "POST":
                limit.hit(key())
            return view(*args, **kwargs)

        limited.counted_by = (*getattr(view, "counted_by", ()), limit)  # type: ignore[attr-defined]
        return limited  # type: ignore[return-value]

    return decorate


account_tries = counting_posts(ACCOUNT_TRIES, client_address)
"""Decorates the account views: each form post counts against the address."""
registrations = counting_posts(REGISTRATIONS, posted_username)
"""Decorates the registration view: each form post counts against the username."""


def failed_logins(view: View) -> View:
    """Decorates the log-in view: failed log-ins count against the username.

    A username at its limit is refused before its password is hashed.
    """

    @functools.wraps(view)
    def limited(*args: Any, **kwargs: Any) -> Any:
        if request.method != "POST":
            return view(*args, **kwargs)
        username = posted_username()
        FAILED_LOGINS.check(username)
        response = current_app.make_response(view(*args, **kwargs))
        if response.status_code == 401:
            FAILED_LOGINS.hit(username)
        return response

    return limited  # type: ignore[return-value]


def new_guest() -> None:
    """Count a guest player about to be made for this address.

    Raises:
        werkzeug.exceptions.TooManyRequests: (a 429 with ``Retry-After``) past the limit.
    """
    NEW_GUESTS.hit(client_address())


class RefuseEarly:
    """WSGI middleware refusing, before Flask, account form posts from an address at its limit.

    Flask would open the session, check the form's token, run the view's limit and render the
    error page: about 2.5 ms of CPU for each refusal of a guesser that posts as fast as it is
    refused. Here the refusal is the same 429 page, rendered once, with ``Retry-After`` and
    the security headers. Nothing is counted: the address is at its limit already.
    """

    def __init__(self, app: Flask, counter: FixedWindowRateLimiter) -> None:
        self.app = app
        self.wsgi_app = app.wsgi_app
        self.counter = counter
        self.paths = frozenset(
            rule.rule
            for rule in app.url_map.iter_rules()
            if "POST" in (rule.methods or ())
            and ACCOUNT_TRIES in getattr(app.view_functions[rule.endpoint], "counted_by", ())
        )
        self._page: bytes | None = None

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Answer the request: the refusal, or whatever the app answers."""
        if environ.get("REQUEST_METHOD") == "POST" and environ.get("PATH_INFO") in self.paths:
            address = environ.get("REMOTE_ADDR") or "unknown"
            try:
                wait = ACCOUNT_TRIES.wait(self.counter, address)
            except SQLAlchemyError:  # the database is down: the app answers (a 503)
                wait = None
            if wait is not None:
                return self._refuse(wait, start_response)
        return self.wsgi_app(environ, start_response)

    def _refuse(self, wait: int, start_response: StartResponse) -> list[bytes]:
        if self._page is None:  # the page Flask shows for the refusal, without a session
            with self.app.test_request_context():
                self._page = render_template(
                    "error.html", code=429, message=ACCOUNT_TRIES.message
                ).encode()
        headers = [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Content-Length", str(len(self._page))),
            ("Retry-After", str(wait)),
            *HEADERS.items(),
        ]
        start_response("429 TOO MANY REQUESTS", headers)
        return [self._page]


DATABASE_STORAGE = "database://"
"""The storage setting that keeps the counts in the trainer's own database (the default)."""


def _storage(app: Flask, uri: str) -> Storage:
    """The storage ``uri`` names: the app's database (:data:`DATABASE_STORAGE`), or any other.

    Raises:
        limits.errors.ConfigurationError: ``uri`` names no storage the trainer can use.
    """
    if uri == DATABASE_STORAGE:
        lock = app.extensions["crib_write_lock"]
        return DatabaseStorage(app.extensions["crib_engine"], lock.held if lock else None)
    try:
        storage = storage_from_string(uri)
    except ConfigurationError as error:  # an unknown scheme, or its client library missing
        raise ConfigurationError(f"{uri}: {str(error).replace(f' : {uri}', '')}") from None
    if not isinstance(storage, Storage):
        raise ConfigurationError(f"{uri} is an asyncio storage; the trainer needs another")
    return storage


def init_app(app: Flask) -> None:
    """Count with the storage the config names (the database by default), unless turned off.

    Call it once the database and the views are set up: :class:`RefuseEarly` guards the
    account views' routes.
    """
    app.config.setdefault("RATELIMIT_STORAGE_URI", DATABASE_STORAGE)
    app.config.setdefault("RATELIMIT_ENABLED", True)
    enabled = app.config["RATELIMIT_ENABLED"] not in (False, "false", "False", "0", 0)
    counter = None
    if enabled:
        counter = FixedWindowRateLimiter(_storage(app, app.config["RATELIMIT_STORAGE_URI"]))
    app.extensions["crib_limits"] = counter
    if counter is not None:
        app.wsgi_app = RefuseEarly(app, counter)  # type: ignore[method-assign]
