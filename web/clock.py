"""The player's day: the date answers, daily challenges and streaks are counted by.

Every page (``static/clock.js``) keeps the browser's offset from UTC in a cookie, so that the
trainer's "today" is the player's, as the daily challenge's page (which plays the browser's
date) counts it. Scripts and first visits, without the cookie, count in UTC.
"""

from __future__ import annotations

import datetime

from flask import request

UTC_OFFSET_COOKIE = "crib_utc_offset"
"""The cookie that holds the browser's offset from UTC in minutes (``getTimezoneOffset``)."""
OFFSETS = range(-840, 721)
"""The offsets of the world's time zones (UTC+14 to UTC-12), in ``getTimezoneOffset`` minutes."""


def today(utc_offset: int = 0) -> str:
    """Today's date as ``YYYY-MM-DD``, in UTC or ``utc_offset`` minutes behind it.

    The offset is JavaScript's ``getTimezoneOffset``: 300 in New York in winter.
    """
    now = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=utc_offset)
    return now.date().isoformat()


def players_today() -> str:
    """Today in the requesting player's time zone (UTC unless the browser said one)."""
    offset = request.cookies.get(UTC_OFFSET_COOKIE, "")
    minutes = int(offset) if offset.lstrip("-").isdigit() and len(offset) <= 5 else 0
    return today(minutes if minutes in OFFSETS else 0)
