"""GETs limited per address by the shipped nginx config, the costly ones more tightly.

Attack round 4, finding 3: ``deploy/nginx.conf`` limited only account posts and photo reads,
so from one address 4 connections on ``/score`` (ranks alone: 62 ms of CPU each) kept the
drills at 35-50 % of their answers, and a flood of ``GET /`` at 40 %. Now every request counts
against a default per address (10 a second, 30 more at once) and the costly pages against a
tighter one (2 a second, 10 more at once); past them nginx refuses at once, before the trainer
sees the request. What the limits guarantee is counted, not timed: a flood of requests sent at
once gets at most the burst, plus what the rate lets through while the flood lasts.
"""

from __future__ import annotations

import concurrent.futures
import math
import threading
import time

import pytest

from deploy.local_nginx import HOST

from .test_nginx import Browser, Proxy, Reply, local_nginx, proxy, trainer, trainer_port

__all__ = ["local_nginx", "proxy", "trainer", "trainer_port"]  # the fixtures used here

pytestmark = pytest.mark.slow  # real nginx in front of a real server

DEFAULT = (10, 30)
"""The default limit: requests a second per address, and how many more at once."""
COSTLY = (2, 10)
"""The costly pages' limit (``/score``, ``/history``, ``/progress``)."""
RANKS_ONLY = "/score?cards=A+2+3+4&starter=5"


def flood(browser: Browser, path: str, size: int) -> tuple[list[Reply], float]:
    """``size`` GETs of ``path`` sent at once by ``browser``, each on a connection opened
    beforehand; and the seconds from the first sent to the last answered."""
    everyone_connected = threading.Barrier(size)

    def get(_: int) -> Reply:
        connection = browser.connection()
        connection.connect()
        everyone_connected.wait(timeout=30)
        return browser.request("GET", path, connection=connection)

    with concurrent.futures.ThreadPoolExecutor(size) as pool:
        started = time.monotonic()
        replies = list(pool.map(get, range(size)))
    return replies, time.monotonic() - started


def assert_limited(replies: list[Reply], seconds: float, limit: tuple[int, int]) -> None:
    """At most the burst and what the rate allows in ``seconds`` were answered; the rest were
    refused by nginx at once, with Retry-After: 1, in players' words, their connections
    closed."""
    rate, burst = limit
    allowed = burst + 1 + math.ceil(rate * seconds)
    assert allowed < len(replies), "the flood took too long to test the limit"
    answered = [reply for reply in replies if reply.status == 200]
    refused = [reply for reply in replies if reply.status != 200]
    assert 1 <= len(answered) <= allowed, (len(answered), allowed)
    for reply in refused:
        assert reply.status == 429
        assert reply.headers["Retry-After"] == "1"
        assert reply.text.startswith("Too many requests from your address")
        assert reply.headers["Connection"] == "close"  # a script ignoring it must reconnect


@pytest.mark.parametrize(
    ("path", "limit"),
    [(RANKS_ONLY, COSTLY), ("/history", COSTLY), ("/", DEFAULT)],
    ids=["score", "history", "home"],
)
def test_a_flood_of_gets_from_one_address_is_refused_by_nginx(
    proxy: Proxy, path: str, limit: tuple[int, int]
) -> None:
    """One address flooding a page gets its limit's share answered, the rest refused at once;
    another address is answered meanwhile."""
    address = {RANKS_ONLY: "127.0.0.90", "/history": "127.0.0.91", "/": "127.0.0.92"}[path]
    replies, seconds = flood(proxy.browser(address), path, 3 * (limit[1] + 10))
    assert_limited(replies, seconds, limit)
    assert proxy.browser("127.0.0.93").get(path).status == 200


def test_the_machine_itself_is_not_limited(proxy: Proxy) -> None:
    """Loopback (a health check, the benchmarks' honest clients) is not counted: a flood from
    it is answered whole."""
    replies, _ = flood(proxy.browser(HOST), RANKS_ONLY, 2 * (COSTLY[1] + 10))
    assert [reply.status for reply in replies] == [200] * len(replies)
