"""Errors: JSON with a message under ``/api``, a plain page elsewhere; never a traceback."""

from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, InternalServerError

from trainer.errors import CribbageError


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def handle_http(error: HTTPException) -> ResponseReturnValue:
    """A 4xx/5xx from ``abort`` or routing: its description as ``{"error": ...}`` or a page."""
    code = error.code or 500
    if _wants_json():
        return {"error": error.description}, code
    return render_template("error.html", code=code, message=error.description), code


def handle_bad_input(error: CribbageError) -> ResponseReturnValue:
    """Bad cards, a bad answer or a bad photo reaching a view: a 400 naming the problem.

    Only the project's own errors say something the player can act on; any other exception
    (a ``ValueError`` from a bug included) is a 500 (:func:`handle_unexpected`).
    """
    if _wants_json():
        return {"error": str(error)}, 400
    return render_template("error.html", code=400, message=str(error)), 400


def handle_unexpected(error: Exception) -> ResponseReturnValue:
    """Anything else: logged, and a 500 without internals.

    HTTP errors never get here: Flask picks the most specific handler, :func:`handle_http`.
    """
    current_app.logger.exception("unhandled error on %s", request.path)
    return handle_http(InternalServerError("something went wrong on our side"))


def init_app(app: Flask) -> None:
    """Register the handlers."""
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(CribbageError, handle_bad_input)
    app.register_error_handler(Exception, handle_unexpected)
