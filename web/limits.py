"""Rate limits (Flask-Limiter) and caps on expensive work running at once.

Each log-in or registration spends ~75 ms of CPU on scrypt, each cookie-less deal creates a
guest player row, each photo or camera frame read runs the card model: the limits bound them.
The counts live in the trainer's database by default (``CRIB_RATELIMIT_STORAGE_URI=database://``,
:mod:`records.limit_storage`), shared by every worker and server using it; ``memory://`` keeps them
in each worker process (the effective limit is then ``workers`` times the figure), and
``redis://host:6379`` or ``memcached://host:11211`` use such a store (see the ``limits``
package). ``CRIB_RATELIMIT_ENABLED=false`` turns them off.

Only the requests a limit is about pay for it: a post to a limited view, a deal that makes a
guest. A client is its address (or the one a trusted proxy reports, ``CRIB_TRUSTED_PROXIES``),
an IPv6 client its /64 network (:func:`client_key`). Floods are refused before the trainer by
nginx's ``limit_req`` (``deploy/nginx.conf``), required on a network (docs/deployment.md).
"""

from __future__ import annotations

import concurrent.futures
import contextvars
import dataclasses
import ipaddress
import math
import os
import sys
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from flask import Flask, Response, current_app, g, request, session
from flask.typing import ResponseReturnValue
from flask_limiter import Limiter, RateLimitExceeded
from gunicorn.http.errors import ParseException
from limits import parse_many
from limits.errors import ConfigurationError
from werkzeug.exceptions import HTTPException, ServiceUnavailable, TooManyRequests

from records import limit_storage, players, proofs

from . import clock, errors, sessions
from .db import get_db
from .settings import SettingError

View = TypeVar("View", bound=Callable[..., Any])
Result = TypeVar("Result")


def client_key() -> str:
    """The client a limit counts: its address, an IPv6 client by its /64 (one client's share).

    >>> with Flask(__name__).test_request_context(environ_base={"REMOTE_ADDR": "2001:db8::7"}):
    ...     client_key()
    '2001:db8::/64'
    """
    address = request.remote_addr or "unknown"
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return address


def posted_username() -> str:
    """The username a form posts, as names are compared."""
    return request.form.get("username", "").strip().lower()


def _known_browser() -> bool:
    """Whether the posted name's account logged in here since its sessions were revoked.

    (:func:`web.sessions.is_known`); the name is looked up only when the device cookie names
    any account.
    """
    player = players.by_name(get_db(), posted_username()) if sessions.known_players() else None
    return player is not None and sessions.is_known(player)


def _discard_unread_body() -> None:
    """Read what is left of the request's body (a refused photo) and drop it, unparsed.

    Served without nginx in front (``crib serve`` on loopback), gunicorn closes the connection
    once it has answered: a client still sending a photo it refused would lose the answer (a
    "broken pipe" or a reset, not the 429 or 503 and its ``Retry-After``). A body beyond
    ``MAX_CONTENT_LENGTH`` or cut short is left as it is.
    """
    try:
        while request.stream.read(64 * 1024):
            pass
    except (HTTPException, OSError, ParseException):  # too large, the client gone, bad chunks
        pass


def _failed(response: Response) -> bool:
    return response.status_code == 401


def proof_purpose() -> str:
    """What this request's proof of work is for: its form (the view) and its client.

    A challenge given with a page is good only for a post of that page's form from the client
    it was given to (attack round 4, finding 7: a proof was good on any form, from anywhere).
    """
    return f"{request.endpoint} {client_key()}"


def proven() -> bool:
    """Whether the posted form carries a proof of work (:mod:`records.proofs`), then spent.

    It lets the post past the site's budget of password checks (checked once a request), if
    its client has not had :data:`PROOFS_PER_CLIENT` let through already.
    """
    if "proven" not in g:
        form = request.form
        limiter: Limiter = current_app.extensions["crib_limits"]
        accepted = proofs.accept(
            current_app.secret_key or "",
            form.get("proof_challenge", ""),
            form.get("proof_nonce", ""),
            limiter.storage,
            clock.now(),
            proof_purpose(),
        )
        g.proven = accepted and _within(limiter, PROOFS_PER_CLIENT, "proof-of-work")
    return bool(g.proven)


def _within(limiter: Limiter, limit_value: str, scope: str) -> bool:
    """Count one against ``limit_value`` for this client in ``scope``: whether it was within."""
    items = parse_many(limit_value)
    client = client_key()
    if not all(limiter.limiter.test(item, scope, client) for item in items):
        return False
    return all([limiter.limiter.hit(item, scope, client) for item in items])


def _proof_of_work() -> dict[str, Any]:
    """The account forms' challenge (``auth/proof.html``): a new one each page."""

    def challenge() -> str:
        return proofs.challenge(current_app.secret_key or "", clock.now(), purpose=proof_purpose())

    return {"proof_challenge": challenge, "proof_difficulty": proofs.DIFFICULTY}


def site_password_check_budget() -> str:
    """The ``PASSWORD_CHECKS_SITE_WIDE`` setting: password hashes for strangers on the site.

    From however many addresses: failed log-ins from browsers that never logged in to the name,
    registrations and failed password changes, counted together; what guessers or account
    makers may spend in scrypt (~0.1 s of a core each). Given in small steps (20 a minute at
    most), since a window's budget is spent the moment it opens: 60 failed log-ins a minute cost
    the drills 6 s of a core at once at the start of each minute. While it is spent, a post with
    a proof of work (:func:`proven`: the page's browser spent about a second of its own CPU) gets
    past it, so that it is no way to lock everybody out (attack round 3, finding 4).
    """
    return str(current_app.config["PASSWORD_CHECKS_SITE_WIDE"])


@dataclasses.dataclass
class PostLimit:
    """At most ``limit_value`` (``"20 per minute;200 per hour"``) posts per ``key_func()``.

    Its fields are the arguments of Flask-Limiter's ``shared_limit``: decorating a view marks
    it, and :func:`init_app` puts the app's limiter around it with them. Limits of
    one ``scope`` are counted together on every view they decorate. With ``deduct_when``, only
    the posts whose response it approves count, and a key at its limit is refused before the
    view runs; with ``exempt_when``, the posts it approves are not limited.
    """

    limit_value: str | Callable[[], str]
    scope: str
    error_message: str
    key_func: Callable[[], str] = client_key
    deduct_when: Callable[[Response], bool] | None = None
    exempt_when: Callable[[], bool] | None = None

    def __call__(self, view: View) -> View:
        """Mark ``view`` as limited (it is returned as it is)."""
        vars(view)["post_limits"] = (*vars(view).get("post_limits", ()), self)
        return view


ACCOUNT_TRIES_PER_CLIENT = "20 per minute;200 per hour"
"""Log-in, registration or password change posts one client may make, counted together."""
FAILED_LOGINS_PER_NAME_AND_CLIENT = "10 per 10 minutes;50 per day"
"""Failed log-ins for one username from one client: a guesser is slowed down, and the name is
not locked for anybody else."""
FAILED_PASSWORD_CHANGES_PER_ACCOUNT = "10 per 10 minutes;50 per day"
"""Wrong current passwords given to change an account's password, from anywhere (its session's
copies shared by many addresses count together)."""
REGISTRATIONS_PER_NAME = "5 per minute"
"""Registration posts for one username, from anywhere."""
NEW_GUESTS_PER_CLIENT = "60 per hour"
"""Guest players one client may create (browsers or scripts without the trainer's cookie)."""
READS_PER_CLIENT = "300 per minute"
"""Photos and live-camera frames one client may send to be read (a camera sends about 4 a
second: 240 a minute)."""
NEW_GAMES_PER_CLIENT = "30 per hour"
"""Games one client may set up to keep at the table (each a stored row)."""
GAME_MOVES_PER_CLIENT = "240 per minute"
"""Moves one client may make on the boards it keeps (each checked on the kept game and stored
as one row): a table pegging card by card makes one every few seconds, several boards far fewer
than this."""
PROOFS_PER_CLIENT = "10 per 10 minutes;50 per day"
"""Proofs of work one client may have let past a spent budget of password checks: what
stockpiling challenges buys an address (a challenge is good for 10 minutes)."""
HASHES_AT_ONCE = 2
"""Password hashes (scrypt, ~75 ms of a core each) running at once in one worker process."""
WAIT_FOR_TURN = 10
"""Seconds a request in line waits for a turn of :class:`BackgroundWork` before a 503."""
READS_AT_ONCE = 1
"""Photo or frame reads (decoding and the card model) running at once in one worker process; with
``workers`` processes, as many across the server. The card model runs one read at a time in a
process anyway (its lock), so a second slot only parked a request and its photo behind it."""
READS_WAITING = 1
"""Photo or frame reads that wait in one worker process for their turn, each another client's
than the one reading (:class:`BackgroundWork`): behind nginx, which lets two reads in flight
for the site and one an address, a read is never refused for the reader being busy."""
NICENESS = 10
"""How far below the other requests' CPU priority reads and password hashes run (Unix nice,
raised for their threads alone: Linux gives each thread its own)."""
BUSY_RETRY_AFTER = 1
"""Seconds a client refused by a cap is told to wait."""

TOO_MANY_TRIES = "Too many tries: wait a few minutes, then try again."
TOO_MANY_NAME_TRIES = "Too many tries for this username: wait a few minutes, then try again."
TOO_MANY_GUESTS = (
    "Too many new players from your address: let your browser keep the trainer's cookie, "
    "or wait a while."
)

account_tries = PostLimit(ACCOUNT_TRIES_PER_CLIENT, "account", TOO_MANY_TRIES)
"""Decorates the account views: each post counts against the client."""
registrations = PostLimit(
    REGISTRATIONS_PER_NAME, "registration", TOO_MANY_NAME_TRIES, key_func=posted_username
)
"""Decorates the registration view: each post counts against the username."""
failed_logins = PostLimit(
    FAILED_LOGINS_PER_NAME_AND_CLIENT,
    "failed-login",
    TOO_MANY_NAME_TRIES,
    key_func=lambda: f"{posted_username()}|{client_key()}",
    deduct_when=_failed,
    exempt_when=_known_browser,
)
"""Decorates the log-in view: failed log-ins count against the name from this client, except
from a browser the name logged in on before."""
CHECKING_BROWSERS = (
    "The trainer is checking new browsers for now (too many wrong passwords or new accounts):"
    " reload the page, let it check your browser (a second or two), and try again."
)
site_failed_logins = PostLimit(
    site_password_check_budget,
    "password-check-site",
    CHECKING_BROWSERS,
    key_func=lambda: "everyone",
    deduct_when=_failed,
    exempt_when=lambda: _known_browser() or proven(),
)
"""Decorates the log-in view: failed log-ins count against the site's budget of password
checks, except from a browser the name logged in on before or with a proof of work."""
site_registrations = PostLimit(
    site_password_check_budget,
    "password-check-site",
    CHECKING_BROWSERS,
    key_func=lambda: "everyone",
    exempt_when=proven,
)
"""Decorates the registration view: each post counts against the site's budget of password
checks, except with a proof of work."""
failed_password_changes = PostLimit(
    FAILED_PASSWORD_CHANGES_PER_ACCOUNT,
    "failed-password-change",
    TOO_MANY_TRIES,
    key_func=lambda: f"account|{session.get('player_id')}",
    deduct_when=_failed,
)
"""Decorates the password change: wrong current passwords count against the account."""
site_password_changes = PostLimit(
    site_password_check_budget,
    "password-check-site",
    CHECKING_BROWSERS,
    key_func=lambda: "everyone",
    deduct_when=_failed,
    exempt_when=proven,
)
"""Decorates the password change: wrong current passwords count against the site's budget of
password checks, except with a proof of work."""
reads_per_client = PostLimit(
    READS_PER_CLIENT, "read", "Too many photos or frames: wait a minute, then try again."
)
"""Decorates the view that reads photos and camera frames: one limit for both, per client."""
new_games = PostLimit(
    NEW_GAMES_PER_CLIENT,
    "new-game",
    "Too many new games from your address: keep score in one you set up, or wait a while.",
)
"""Decorates the set-up of a game kept at the table: each counts against the client."""
new_computer_games = PostLimit(
    NEW_GAMES_PER_CLIENT,
    "computer-game",
    "Too many new games from your address: play the one you started, or wait a while.",
)
"""Decorates the set-up of a game against the computer: each counts against the client."""
game_moves = PostLimit(
    GAME_MOVES_PER_CLIENT,
    "game-move",
    "Too many moves in a minute from your address: wait a moment, then make it again.",
)
"""Decorates the moves of a game kept at the table or against the computer: each counts
against the client."""


class BackgroundWork:
    """Heavy work run below the requests' CPU priority, ``size`` at once, ``waiting`` in line.

    Each runs on a thread of its own, :data:`NICENESS` below the requests: the work takes the CPU
    that drills and pages leave instead of starving them, and the request waiting on it holds
    none (the card model and scrypt release the GIL). A request that finds every slot taken
    waits for one (up to :data:`WAIT_FOR_TURN` seconds) if a place in line is free, and is
    refused at once (a 503) otherwise. A client (:func:`client_key`) holds at most ``size``
    places, running or in line, so the places in line are always another client's: one client
    keeping its reads in flight cannot hold every turn (attack round 4, finding 1). The threads
    start at the first use (after gunicorn forks).
    """

    def __init__(self, size: int, name: str, message: str, waiting: int = 0) -> None:
        self._size = size
        self._places = size + waiting
        self._free = threading.BoundedSemaphore(size)
        self._threads = concurrent.futures.ThreadPoolExecutor(size, name, _lower_priority)
        self._held: Counter[str] = Counter()
        """Places (running or in line) held, by client."""
        self._taking = threading.Lock()
        self.message = message

    def run(self, function: Callable[..., Result], *args: Any) -> Result:
        """``function(*args)`` on a low-priority thread, in the caller's (a request's) context.

        Raises:
            werkzeug.exceptions.ServiceUnavailable: (``Retry-After``) no place for it: every
                slot and place in line taken, or this client's share; or no turn came in time.
        """
        client = client_key()
        with self._taking:
            taken = self._held[client] < self._size and self._held.total() < self._places
            if taken:
                self._held[client] += 1
        if not taken:
            self._refuse()
        try:
            if not self._free.acquire(timeout=WAIT_FOR_TURN):
                self._refuse()
            try:
                context = contextvars.copy_context()
                return self._threads.submit(context.run, function, *args).result()
            finally:
                self._free.release()
        finally:
            with self._taking:
                self._held -= Counter([client])

    def _refuse(self) -> NoReturn:
        _discard_unread_body()
        raise ServiceUnavailable(self.message, retry_after=BUSY_RETRY_AFTER)


def _lower_priority() -> None:
    """Lower the calling thread's CPU priority by :data:`NICENESS`.

    On Linux only: elsewhere the priority is the whole process's, and drills would lose it too.
    """
    if sys.platform == "linux":
        thread = threading.get_native_id()
        niceness = os.getpriority(os.PRIO_PROCESS, thread) + NICENESS
        os.setpriority(os.PRIO_PROCESS, thread, min(niceness, 19))


HASHING = BackgroundWork(
    HASHES_AT_ONCE, "hashing", "The trainer is busy checking passwords: try again in a second."
)
"""Every password hash (:mod:`web.auth`) runs here."""
READING = BackgroundWork(
    READS_AT_ONCE, "reader", "The card reader is busy: try again in a second.", READS_WAITING
)
"""Every read of a photo or a camera frame runs here (``web.photo``), once the upload is checked
in the request (an image bomb is refused without taking a turn: attack round 3, where two
scripts posting bombs refused 15 of 15 photos of a player).

At most :data:`READS_AT_ONCE` at once in a process and :data:`READS_WAITING` in line, each
another client's; beyond, a read is refused at once (503, ``Retry-After``) and the live page
sends its next frame after the wait. Before the line (attack round 4, finding 1), the first
client to come held the reader: one address keeping two ordinary photos in flight had 7 to 9
of 10 honest photos refused. Why one read at a time (issue 19,
``benchmarks/live.py``, 2 workers on this 2-core machine while other work loaded it 10 to 16):
before, each worker read two frames at once (one waiting on the model's lock) with two ONNX
threads that spun while idle, so a read cost twice its CPU; beside 1, 2 and 4 live phones the
drills kept 58 %, 39 % and 14 % of their answers a second, at 0.60, 0.53 and 0.60 frames a
second. With one read a worker, at this priority, on ONNX threads that sleep
(:class:`vision.reader.CardReader`), they kept 104 %, 95 % and 114 % at 0.40, 0.67 and 0.87
frames a second (one run each). One phone alone reads more slowly on a machine busy with other
work: its frames get the CPU that work leaves.
"""


def new_guest() -> None:
    """Count a guest player about to be made for this client.

    Raises:
        werkzeug.exceptions.TooManyRequests: (a 429 with ``Retry-After``) past the limit.
    """
    limiter: Limiter = current_app.extensions["crib_limits"]
    with limiter.shared_limit(NEW_GUESTS_PER_CLIENT, "new-guest", error_message=TOO_MANY_GUESTS):
        pass


def _refused(error: RateLimitExceeded) -> ResponseReturnValue:
    """A limit's refusal: the 429 page (or JSON) in players' words, with ``Retry-After``."""
    limiter: Limiter = current_app.extensions["crib_limits"]
    breached = limiter.current_limit  # set by the limiter as it raised the error
    assert breached is not None
    wait = max(1, math.ceil(breached.reset_at - clock.now()))
    _discard_unread_body()
    return errors.handle_http(TooManyRequests(error.description, retry_after=wait))


DATABASE_STORAGE = f"{limit_storage.SCHEME}://"
"""The storage setting that keeps the counts in the trainer's own database (the default)."""


def init_app(app: Flask) -> None:
    """Count with the storage the settings name (the database by default), unless turned off.

    Call it once the database and the views are set up: it puts the limiter around each view
    a :class:`PostLimit` marked.

    Raises:
        web.settings.SettingError: the storage setting names a scheme the ``limits`` package
            does not know, or whose client library is missing.
    """
    uri = app.config["RATELIMIT_STORAGE_URI"]
    database = {"database": app.extensions["crib_database"], "clock": app.extensions["crib_clock"]}
    limiter = Limiter(client_key, storage_options=database if uri == DATABASE_STORAGE else {})
    try:
        limiter.init_app(app)
    except ConfigurationError as error:  # an unknown scheme, or its client library missing
        message = str(error).replace(f" : {uri}", "")
        raise SettingError(f"CRIB_RATELIMIT_STORAGE_URI: {uri}: {message}") from None
    app.extensions["crib_limits"] = limiter
    app.register_error_handler(RateLimitExceeded, _refused)
    app.context_processor(_proof_of_work)
    for endpoint, view in app.view_functions.items():
        limited: Callable[..., Any] = view
        for limit in vars(view).get("post_limits", ()):
            limited = limiter.shared_limit(**vars(limit), methods=["POST"])(limited)
        app.view_functions[endpoint] = limited
