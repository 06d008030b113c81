"""Errors: JSON with a message under ``/api``, a plain page elsewhere; never a traceback.

The one place where what the engine and the records refuse becomes HTTP: bad cards or answers
a 400, a drill refused an answer a 404, 403, 409 or 410, another player's game against the
computer a 404, a board read as it moved on a 409, a pace a 429 with ``Retry-After``, a database
that cannot be used a 503.
"""

from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask.typing import ResponseReturnValue
from gunicorn.http.errors import NoMoreData, ParseException
from sqlalchemy.exc import DBAPIError, OperationalError
from werkzeug.exceptions import (
    BadRequest,
    Conflict,
    Forbidden,
    Gone,
    HTTPException,
    InternalServerError,
    NotFound,
    ServiceUnavailable,
    TooManyRequests,
)

from records.database import READ_ONLY_SQLSTATE, DatabaseUnavailable
from records.errors import (
    AlreadyAnswered,
    BoardMovedOn,
    DrillExpired,
    DrillNotFound,
    DrillRefused,
    GameNotFound,
    NotYourDrill,
    PaceError,
)
from trainer.errors import CribbageError

UNAVAILABLE = (
    "The trainer cannot reach its records right now, so nothing was saved"
    " (an answer given now was not counted). Please try again in a minute."
)
RETRY_AFTER_SECONDS = 30
_SQLITE_UNAVAILABLE = (
    "readonly",  # a read-only file or mount
    "unable to open",  # its directory is gone
    "disk i/o",
    "database is locked",  # still busy after the busy timeout
    "no such table",  # the file was deleted and an empty one made in its place
)


def handle_http(error: HTTPException) -> ResponseReturnValue:
    """Answer a 4xx/5xx from ``abort`` or routing: ``{"error": ...}`` or a page.

    The error's headers come along (``Allow`` on a 405, ``Retry-After`` on a 503).
    """
    code = error.code or 500
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]  # Allow…
    if request.path.startswith("/api/"):  # JSON for the API
        return {"error": error.description}, code, headers
    return render_template("error.html", code=code, message=error.description), code, headers


def handle_bad_input(error: CribbageError) -> ResponseReturnValue:
    """Bad cards, a bad answer or a bad photo reaching a view: a 400 naming the problem.

    Only the project's own errors say something the player can act on; any other exception
    (a ``ValueError`` from a bug included) is a 500 (:func:`handle_unexpected`).
    """
    return handle_http(BadRequest(str(error)))


DRILL_REFUSALS: dict[type[DrillRefused], type[HTTPException]] = {
    DrillNotFound: NotFound,
    NotYourDrill: Forbidden,
    AlreadyAnswered: Conflict,
    DrillExpired: Gone,
}
"""The status of each answer :func:`records.drills.answer` refuses."""


def handle_drill_refused(error: DrillRefused) -> ResponseReturnValue:
    """An answer the records refuse: no such drill, another's, answered, or expired."""
    return handle_http(DRILL_REFUSALS[type(error)](str(error)))


def handle_game_not_found(error: GameNotFound) -> ResponseReturnValue:
    """A game against the computer that is not this player's (or none): a 404."""
    return handle_http(NotFound(str(error)))


def handle_board_moved_on(error: BoardMovedOn) -> ResponseReturnValue:
    """A board read as another phone took a move back: a 409, as a move on a board moved on."""
    return handle_http(Conflict(str(error)))


def handle_pace(error: PaceError) -> ResponseReturnValue:
    """Too many in too short a time: a 429 with the wait as ``Retry-After``."""
    return handle_http(TooManyRequests(str(error), retry_after=error.retry_after))


def handle_unreadable_body(error: Exception) -> ResponseReturnValue:
    """A request body the server cannot read as HTTP frames it: a 400 naming the fault.

    A chunk size that is not a number, a chunk without its end, a body cut short: the client's
    fault, so nothing is logged.
    """
    return handle_http(BadRequest(f"The request body is malformed: {error}."))


def _database_unavailable(error: Exception) -> bool:
    """Whether ``error`` says the database cannot be used, rather than a statement is wrong.

    Down, unreachable, read-only, its file gone.
    """
    if isinstance(error, DatabaseUnavailable):
        return True
    if not isinstance(error, DBAPIError):
        return False
    if error.connection_invalidated:
        return True
    if type(error.orig).__module__.startswith("sqlite3"):  # no codes, only messages
        message = str(error.orig).lower()
        return any(m in message for m in _SQLITE_UNAVAILABLE)
    sqlstate = str(getattr(error.orig, "sqlstate", None) or "")
    if not sqlstate:  # the driver's own: no connection could be made
        return isinstance(error, OperationalError)
    # the server's: connection failures (08…), shutting down (57P…), read-only
    return sqlstate.startswith(("08", "57P")) or sqlstate == READ_ONLY_SQLSTATE


def handle_unexpected(error: Exception) -> ResponseReturnValue:
    """Anything else: logged, and a 500 without internals; a 503 if the database is unusable.

    The 503 says in players' words that nothing was stored (so nothing is acknowledged).

    HTTP errors never get here: Flask picks the most specific handler, :func:`handle_http`.
    """
    if _database_unavailable(error):  # SQL parameters are hidden: no password hash in the log
        current_app.logger.error("database unavailable on %s: %s", request.path, error)
        return handle_http(ServiceUnavailable(UNAVAILABLE, retry_after=RETRY_AFTER_SECONDS))
    current_app.logger.exception("unhandled error on %s", request.path)
    return handle_http(InternalServerError("something went wrong on our side"))


def init_app(app: Flask) -> None:
    """Register the handlers."""
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(CribbageError, handle_bad_input)
    app.register_error_handler(PaceError, handle_pace)
    app.register_error_handler(DrillRefused, handle_drill_refused)
    app.register_error_handler(GameNotFound, handle_game_not_found)
    app.register_error_handler(BoardMovedOn, handle_board_moved_on)
    for unreadable in (ParseException, NoMoreData):  # raised by gunicorn as a view reads
        app.register_error_handler(unreadable, handle_unreadable_body)
    app.register_error_handler(Exception, handle_unexpected)
