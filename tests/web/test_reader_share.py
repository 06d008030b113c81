"""The card reader is shared fairly: a client reading cannot take the place in line too.

Attack round 4, finding 1: one address keeping two ordinary photos in flight (every 429 and
503 waited out, as the live page does) held the reader, first come first served, and honest
photos were read 1 to 3 times of 10. Now a worker reads one photo at a time and another
client's waits for its turn instead of being refused, while the reading client's next is
refused at once.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from typing import Any

from flask import Flask
from werkzeug.test import TestResponse

from web import limits

from .test_limits import read_photo


def places_held() -> int:
    """Reads running or in line in this process (0 before the reader had a line)."""
    held = getattr(limits.READING, "_held", None)
    return 0 if held is None else held.total()


def busy(reply: TestResponse) -> bool:
    """Whether ``reply`` is the reader's refusal (busy), not an answer of the read."""
    return reply.status_code == 503 and "busy" in reply.json["error"]


def wait_until(condition: Any) -> None:
    """Wait for ``condition()`` (a stand-in's thread to get there), 30 s at most."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, "never got there"
        time.sleep(0.01)


def test_another_client_waits_its_turn_the_reading_one_is_refused(
    app: Flask, held_reader: tuple[threading.Semaphore, threading.Event]
) -> None:
    """While one client's photo is read, another client's waits in line and is read once the
    first is done (before: refused at once, busy); the reading client's next photo, and a
    third client's beyond the line, are refused at once."""
    running, release = held_reader
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        first = pool.submit(read_photo, app.test_client(), "10.8.5.1")
        assert running.acquire(timeout=30)
        other = pool.submit(read_photo, app.test_client(), "10.8.5.2")
        wait_until(lambda: other.done() or places_held() == 2)
        again = read_photo(app.test_client(), "10.8.5.1")
        beyond = read_photo(app.test_client(), "10.8.5.3")
        release.set()
        replies = first.result(), other.result()
    assert busy(again) and busy(beyond)
    assert again.headers["Retry-After"] == "1"
    assert [busy(reply) for reply in replies] == [False, False]  # both read (and failed)
