"""The request's time, and the player's day: the date answers, dailies and streaks count by.

The time comes from the app's clock (``time.time``; a test passes its own as ``CLOCK``), read
here and handed to the records: nothing patches the process's clock.

Every page (``static/clock.js``) keeps the browser's offset from UTC in a cookie, so that the
trainer's "today" is the player's, as the daily challenge's page (which plays the browser's
date) counts it. Scripts and first visits, without the cookie, count in UTC.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from flask import current_app, request

UTC_OFFSET_COOKIE = "crib_utc_offset"
"""The cookie that holds the browser's offset from UTC in minutes (``getTimezoneOffset``)."""
OFFSETS = range(-840, 721)
"""The offsets of the world's time zones (UTC+14 to UTC-12), in ``getTimezoneOffset`` minutes."""


def now() -> float:
    """Seconds since the epoch by the app's clock."""
    clock: Callable[[], float] = current_app.extensions["crib_clock"]
    return clock()


def today(utc_offset: int = 0) -> str:
    """Today's date as ``YYYY-MM-DD``, in UTC or ``utc_offset`` minutes behind it.

    The offset is JavaScript's ``getTimezoneOffset``: 300 in New York in winter.
    """
    utc = datetime.datetime.fromtimestamp(now(), datetime.UTC)
    return (utc - datetime.timedelta(minutes=utc_offset)).date().isoformat()


def players_today() -> str:
    """Today in the requesting player's time zone (UTC unless the browser said one)."""
    return today(players_offset())


def players_offset() -> int:
    """The browser's offset from UTC in minutes (``getTimezoneOffset``), 0 when unknown."""
    offset = request.cookies.get(UTC_OFFSET_COOKIE, "")
    minutes = int(offset) if offset.lstrip("-").isdigit() and len(offset) <= 5 else 0
    return minutes if minutes in OFFSETS else 0
