"""What a request sends: JSON bodies, flags and choices, uploads, a discard's cards.

Shared by the views that read them (:mod:`web.api`, :mod:`web.photo`) and the checks before
them (:mod:`web.csrf`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from flask import abort, current_app, request

from trainer.cards import parse_cards
from trainer.dealing import Deal
from trainer.errors import InvalidCardError, InvalidJSONError

View = TypeVar("View", bound=Callable[..., Any])


def checked(values: Mapping[str, str], name: str) -> bool:
    """A checkbox or URL flag: on unless missing, empty, ``0`` or ``false``."""
    return values.get(name, "") not in ("", "0", "false")


JSON_BODY_LIMIT = 8 * 1024
"""Bytes an API body may have: the largest real one (a count by kind) is under 200. A view
that takes an upload (:func:`takes_upload`: the photo, ``POST /api/read``) keeps the app's own
larger limit."""

_UPLOAD = "takes_upload"


def takes_upload(view: View) -> View:
    """Mark an API view that takes a multipart upload instead of a JSON body.

    It keeps the app's body limit, and :mod:`web.csrf` takes its multipart body (it still
    refuses other sites).
    """
    setattr(view, _UPLOAD, True)
    return view


def upload_request() -> bool:
    """Whether this request goes to a view marked :func:`takes_upload`."""
    view = current_app.view_functions.get(request.endpoint or "")
    return bool(getattr(view, _UPLOAD, False))


def cap_body() -> None:
    """Refuse an API body over :data:`JSON_BODY_LIMIT` (or the app's smaller limit).

    It is refused before it is read, or while it is read when its length is not announced.
    An upload (:func:`takes_upload`) keeps the app's limit.
    """
    if upload_request():
        return
    limit = min(JSON_BODY_LIMIT, current_app.config["MAX_CONTENT_LENGTH"] or JSON_BODY_LIMIT)
    request.max_content_length = limit
    if (request.content_length or 0) > limit:
        abort(413, f"The request is too large: the API takes bodies up to {limit} bytes.")


LARGEST_NUMBER = 2**53
"""The largest magnitude a number in an API body may have: every JSON parser holds integers up
to it exactly (I-JSON, RFC 7493); no real answer comes near it. Larger ones (an integer too
big for a float, ``1e400`` parsed as infinity) are refused before anything reads them."""


def _no_constant(name: str) -> Any:
    raise InvalidJSONError(f"JSON has no {name}: send a number")


def _out_of_range(text: str) -> InvalidJSONError:
    shown = text if len(text) <= 24 else f"{text[:12]}... ({len(text)} characters)"
    return InvalidJSONError(f"the number {shown} is out of range (the API takes up to 2**53)")


def _parse_int(text: str) -> int:
    if len(text) > len(str(-LARGEST_NUMBER)) or abs(value := int(text)) > LARGEST_NUMBER:
        raise _out_of_range(text)
    return value


def _parse_float(text: str) -> float:
    value = float(text)
    if abs(value) > LARGEST_NUMBER:  # infinity too
        raise _out_of_range(text)
    return value


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 saying what is wrong with it.

    Raises:
        InvalidJSONError: for JSON nested too deeply for the parser, holding ``NaN`` or
            ``Infinity`` (which Python's parser takes and JSON does not have), or a number
            beyond :data:`LARGEST_NUMBER`.
    """
    try:
        data = json.loads(
            request.get_data(),
            parse_constant=_no_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except InvalidJSONError:
        raise
    except RecursionError:
        raise InvalidJSONError("the JSON body is nested too deeply") from None
    except ValueError:  # not JSON, or not UTF-8
        data = None
    if not isinstance(data, dict):
        abort(400, "expected a JSON object body (Content-Type: application/json)")
    return data


def flag(data: dict[str, Any], name: str) -> bool:
    """The body's boolean ``name`` (false when left out), or a 400."""
    value = data.get(name, False)
    if not isinstance(value, bool):
        abort(400, f"'{name}' must be true or false, not {value!r}")
    return value


def choice(name: str, allowed: tuple[str, ...], default: str) -> str:
    """The query argument ``name`` (``default`` when left out), one of ``allowed``, or a 400."""
    value = request.args.get(name, default)
    if value not in allowed:
        abort(400, f"unknown {name} {value!r} (use one of: {', '.join(allowed)})")
    return value


def given_discard() -> Deal | None:
    """The discard drill the query names, if any: ``?cards=5H+5D+...&dealer=1``.

    Six cards, and whether the crib is the player's (``dealer``, 0 by default).

    Raises:
        InvalidCardError: for cards that are not six distinct cards.
    """
    dealer = choice("dealer", ("0", "1"), "0") == "1"
    if "cards" not in request.args:
        return None
    cards = parse_cards(request.args["cards"])
    if len(cards) != 6:
        raise InvalidCardError(f"a discard drill deals six cards, not {len(cards)}")
    return Deal("discard", tuple(cards), dealer=dealer)
