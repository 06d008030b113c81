"""The shipped nginx config (``deploy/nginx.conf``) in front of a real ``crib serve``.

nginx runs the config rendered as an install sets it (``deploy/local_nginx.py``: only the
server name, a throwaway certificate, free ports and the trainer's port are set), in the
foreground with its files in ``tmp_path``. The trainer is :func:`deploy.local_server.spawn` with
``CRIB_TRUSTED_PROXIES=1``, as ``deploy/crib-trainer.service`` runs it. Every request goes
through nginx over HTTPS, trusting the generated certificate (and once over HTTP/2, with curl).
When nginx, openssl or curl is missing the tests fail under CI and skip elsewhere (conftest).

The trainer runs one worker process here; its rate-limit counts are kept in its database
(``web/limits.py``), so the 21st attempt is the one refused whichever worker takes it.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import http.client
import json
import math
import re
import socket
import ssl
import subprocess
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from limits import parse

from crib.serve import DEFAULT_THREADS
from deploy.local_nginx import HOST, SHIPPED, LocalNginx, nginx_command, prepare, running
from deploy.local_server import free_port, spawn
from web.headers import HEADERS
from web.limits import NEW_GUESTS_PER_CLIENT

from .conftest import program

pytestmark = pytest.mark.slow  # real nginx in front of a real server; some tests wait on its pace

TRAINER_WORKERS = 1
"""Worker processes of the test trainer, each with ``crib serve``'s default threads."""
SLOW_CLIENTS = 10 * TRAINER_WORKERS * DEFAULT_THREADS
"""Unfinished requests sent to nginx at once: ten times the trainer's threads."""
_DEFAULT_ZONE = re.search(r"zone=crib_requests:\S+ rate=(\d+)r/s", SHIPPED.read_text())
assert _DEFAULT_ZONE is not None
REQUESTS_PER_SECOND = int(_DEFAULT_ZONE.group(1))
"""nginx's default limit per address on every request (``crib_requests``), a second."""


@dataclass(frozen=True)
class Reply:
    """One response: its status, headers and body."""

    status: int
    headers: http.client.HTTPMessage
    text: str

    def json(self) -> Any:
        """The body, parsed as JSON."""
        return json.loads(self.text)


@dataclass
class Browser:
    """An HTTPS client of nginx that keeps its cookies, connecting from ``address``
    (any 127.x.x.x address, so that tests can be clients with addresses of their own)."""

    port: int
    context: ssl.SSLContext
    address: str = HOST
    cookies: dict[str, str] = field(default_factory=dict)

    @property
    def origin(self) -> str:
        """The proxied site's origin, as a browser names it in ``Origin`` and ``Referer``."""
        return f"https://{HOST}:{self.port}"

    def connection(self) -> http.client.HTTPSConnection:
        """A new connection to nginx from this browser's address (not yet opened)."""
        return http.client.HTTPSConnection(  # longer than a post may wait in nginx (12 s)
            HOST, self.port, context=self.context, timeout=20, source_address=(self.address, 0)
        )

    def request(
        self,
        method: str,
        path: str,
        body: str | None = None,
        headers: dict[str, str] | None = None,
        connection: http.client.HTTPSConnection | None = None,
    ) -> Reply:
        """Send one request with this browser's cookies and keep the cookies it sets, on
        ``connection`` (by default a new one), which is closed afterwards."""
        connection = connection or self.connection()
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            reply = Reply(response.status, response.headers, response.read().decode())
        finally:
            connection.close()
        for cookie in reply.headers.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name] = value
        return reply

    def get(self, path: str) -> Reply:
        """``GET path``."""
        return self.request("GET", path)

    def post_json(self, path: str, data: Any) -> Reply:
        """POST JSON as the pages' scripts do, from the proxied site."""
        headers = {"Content-Type": "application/json", "Origin": self.origin}
        return self.request("POST", path, json.dumps(data), headers)

    def form_token(self, path: str) -> str:
        """The CSRF token of ``path``'s page (which sets the session cookie it belongs to)."""
        page = self.get(path).text
        token = re.search(r'<meta name="csrf-token" content="([^"]+)">', page)
        assert token, f"no csrf-token meta on {path}"
        return token.group(1)

    def form_post(
        self, path: str, form: dict[str, str], token: str, headers: dict[str, str] | None = None
    ) -> tuple[str, dict[str, str]]:
        """The body and headers of a browser's post of ``form`` from ``path``'s page, with the
        page's CSRF ``token`` (and any other ``headers``)."""
        body = urllib.parse.urlencode({**form, "csrf_token": token})
        sent = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": self.origin,
            "Referer": f"{self.origin}{path}",
            **(headers or {}),
        }
        return body, sent

    def post_form(
        self, path: str, form: dict[str, str], headers: dict[str, str] | None = None
    ) -> Reply:
        """Submit a form from ``path``'s page, with its CSRF token, as a browser does (and
        any other ``headers``)."""
        body, sent = self.form_post(path, form, self.form_token(path), headers)
        return self.request("POST", path, body, sent)


@dataclass(frozen=True)
class Proxy:
    """nginx running the rendered config: its ports, a context trusting its certificate, the
    folder of its logs."""

    http_port: int
    https_port: int
    context: ssl.SSLContext
    folder: Path

    @classmethod
    def of(cls, local: LocalNginx) -> Proxy:
        """The proxy ``local`` runs (its ports, certificate and log folder)."""
        return cls(local.http_port, local.https_port, local.context(), local.folder)

    def browser(self, address: str = HOST) -> Browser:
        """A new browser (no cookies) connecting from ``address``."""
        return Browser(self.https_port, self.context, address)

    def held(self, address: str, request: str) -> list[float]:
        """Seconds nginx held each ``request`` (``POST /auth/login``) from ``address`` before
        passing it on, oldest first: its time less the trainer's (the access log's
        ``$request_time`` and ``$upstream_response_time``), whatever the trainer's speed."""
        held = []
        for line in (self.folder / "access.log").read_text().splitlines():
            client, rest = line.split(" ", 1)
            if client == address and rest.startswith(f'"{request} '):
                total, upstream = rest.rsplit(" ", 2)[1:]
                held.append(float(total) - float(upstream))
        return held


@pytest.fixture(scope="module")
def trainer_port() -> int:
    """The port the trainer listens on (where the rendered config sends requests)."""
    return free_port()


@pytest.fixture(scope="module")
def trainer(tmp_path_factory: pytest.TempPathFactory, trainer_port: int) -> Iterator[None]:
    """``crib serve`` on 127.0.0.1, believing one proxy's ``X-Forwarded-*`` headers."""
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv("CRIB_TRUSTED_PROXIES", "1")
        environment.delenv("CRIB_RATELIMIT_ENABLED", raising=False)
        # the tests here share this trainer and fail log-ins on purpose, more than its own
        # site-wide budget (5 in 15 seconds) allows: each tests another limit
        environment.setenv("CRIB_PASSWORD_CHECKS_SITE_WIDE", "100 per minute")
        folder = tmp_path_factory.mktemp("trainer")
        process = spawn(trainer_port, TRAINER_WORKERS, folder, "nginx-test")
    yield
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def local_nginx(tmp_path_factory: pytest.TempPathFactory, trainer_port: int) -> LocalNginx:
    """A folder holding the certificate, the rendered site, and the main config around it."""
    program("nginx")  # missing: fail or skip before any work
    program("openssl")
    return prepare(tmp_path_factory.mktemp("nginx"), trainer_port)


@pytest.fixture(scope="module")
def proxy(local_nginx: LocalNginx, trainer: None) -> Iterator[Proxy]:
    """nginx running the rendered config in the foreground, the trainer behind it."""
    with running(local_nginx):
        yield Proxy.of(local_nginx)


def test_nginx_accepts_the_rendered_config(local_nginx: LocalNginx) -> None:
    """``nginx -t`` passes: the shipped file has no directive this nginx does not know."""
    result = subprocess.run(
        nginx_command(local_nginx.folder, "-t"), capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_pages_and_the_api_answer_through_the_proxy(proxy: Proxy) -> None:
    """A page, a drill dealt and answered from the proxied site, and a registration (a form
    with its token, whose HTTPS referrer check needs the host the browser used)."""
    browser = proxy.browser()
    assert browser.get("/").status == 200
    dealt = browser.get("/api/drills/next?kind=hand")
    assert dealt.status == 200, dealt.text
    drill = dealt.json()
    verdict = browser.post_json(f"/api/drills/{drill['id']}/answer", {"points": 4})
    assert verdict.status == 200, verdict.text
    assert verdict.json()["id"] == drill["id"]
    assert verdict.json()["total"] >= 0
    registered = browser.post_form("/auth/register", {"username": "proxied", "password": "x" * 10})
    assert registered.status == 302, registered.text
    assert "Log out" in browser.get("/progress").text


def test_the_session_cookie_is_secure_and_the_security_headers_arrive(proxy: Proxy) -> None:
    """The trainer saw HTTPS (``X-Forwarded-Proto``), so its cookie is ``Secure``; its own
    security headers pass through, nginx adds HSTS and names no version, on pages and static
    files alike."""
    browser = proxy.browser()
    page = browser.get("/auth/login")
    cookies = page.headers.get_all("Set-Cookie") or []
    assert cookies, "the log-in page sets no session cookie"
    assert all("; Secure" in cookie for cookie in cookies), cookies
    for reply in (page, browser.get("/static/style.css")):
        assert reply.status == 200
        assert "frame-ancestors 'none'" in reply.headers["Content-Security-Policy"]
        assert reply.headers["X-Content-Type-Options"] == "nosniff"
        assert reply.headers["Strict-Transport-Security"].startswith("max-age=")
        assert reply.headers["Server"] == "nginx"


def test_the_rate_limits_count_the_forwarded_address(proxy: Proxy) -> None:
    """A client making guest players (deals without the trainer's cookie) gets a 429 past its
    limit, whatever address it claims in its own ``X-Forwarded-For`` (nginx replaces it);
    another client, through the same nginx, is not limited: the trainer counts clients, not the
    proxy. (Guests rather than log-ins, which count clients the same way: nginx paces an
    address's account posts past its first 3, so a log-in limit takes most of a minute.)"""
    allowed = parse(NEW_GUESTS_PER_CLIENT).amount
    guesser = proxy.browser("127.0.0.2")
    statuses = []
    for attempt in range(allowed + 1):
        guesser.cookies.clear()
        claimed = {"X-Forwarded-For": f"10.9.{attempt // 250}.{attempt % 250}"}
        statuses.append(guesser.request("GET", "/api/drills/next", headers=claimed).status)
        time.sleep(1 / REQUESTS_PER_SECOND)  # within nginx's own limit on every request
    assert statuses == [200] * allowed + [429]
    assert proxy.browser("127.0.0.3").get("/api/drills/next").status == 200


SECURITY_HEADERS = {**HEADERS, "Strict-Transport-Security": "max-age=31536000"}
"""The headers every HTTPS answer carries once: the trainer's (web/headers.py) and HSTS."""


def raw_reply(port: int, context: ssl.SSLContext, request: bytes) -> Reply:
    """What nginx answers to the raw bytes ``request`` sent over HTTPS (any bytes at all)."""
    sock = context.wrap_socket(socket.create_connection((HOST, port)), server_hostname=HOST)
    with sock:
        sock.sendall(request)
        response = http.client.HTTPResponse(sock)
        response.begin()
        return Reply(response.status, response.headers, response.read().decode())


def assert_security_headers(reply: Reply) -> None:
    """``reply`` carries each of :data:`SECURITY_HEADERS` once, with its value."""
    for name, value in SECURITY_HEADERS.items():
        assert reply.headers.get_all(name) == [value], (reply.status, name, reply.headers)


ERROR_REQUESTS = {
    "garbage": (b"NOT HTTP AT ALL\r\n\r\n", 400),
    "body over the cap": (
        b"POST /api/score HTTP/1.1\r\nHost: localhost\r\nContent-Length: 20000000\r\n\r\n",
        413,
    ),
    "9 KB URL": (b"GET /" + b"x" * 9000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n", 414),
    "9 KB header": (
        b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"x" * 9000 + b"\r\n\r\n",
        400,
    ),
    "5 KB URL (gunicorn's own 414)": (
        b"GET /" + b"x" * 5000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n",
        414,
    ),
}
"""Requests answered with an error by nginx itself, or by gunicorn before the trainer sees them
(its request line limit is 4094 bytes, nginx's 8 KB), and the status each gets."""


@pytest.mark.parametrize("request_name", ERROR_REQUESTS)
def test_error_pages_of_nginx_and_gunicorn_carry_every_security_header(
    proxy: Proxy, request_name: str
) -> None:
    """A garbage request line, a body over the cap, a 9 KB URL or header: nginx answers
    itself; a 5 KB URL: gunicorn does. Each answer has every security header (``always``), as
    the trainer's own answers have them."""
    request, status = ERROR_REQUESTS[request_name]
    reply = raw_reply(proxy.https_port, proxy.context, request)
    assert reply.status == status
    assert_security_headers(reply)


def test_the_trainers_answers_carry_each_security_header_once(proxy: Proxy) -> None:
    """nginx sets the security headers in place of the trainer's (``proxy_hide_header``): a
    page, a static file, a JSON error and an error page each carry them once, and so does
    nginx's own 429 for a flood of account posts (here log-outs, refused by the trainer without
    a form token)."""
    browser = proxy.browser("127.0.0.7")
    for path in ("/", "/static/style.css", "/api/drills/0/answer", "/no-such-page"):
        assert_security_headers(browser.get(path))
    with concurrent.futures.ThreadPoolExecutor(UNDELAYED_POSTS * 2) as pool:
        flood = list(
            pool.map(
                lambda _: browser.request("POST", "/auth/logout", ""), range(UNDELAYED_POSTS * 2)
            )
        )
    refused = [reply for reply in flood if refused_by_nginx(reply)]
    assert refused, [reply.status for reply in flood]
    assert_security_headers(refused[0])


def test_a_trainer_that_is_down_gets_a_502_with_every_security_header(tmp_path: Path) -> None:
    """nginx with no trainer behind it answers 502 itself, with every security header."""
    program("nginx")
    program("openssl")
    alone = prepare(tmp_path, free_port())
    with running(alone):
        reply = Proxy.of(alone).browser().get("/")
    assert reply.status == 502
    assert_security_headers(reply)


UNDELAYED_POSTS = 3
"""Account posts from one address that nginx passes at once (``delay=2``, plus one)."""
WAITING_POSTS = 2
"""Further posts from one address that wait in nginx (``burst=4`` less ``delay=2``)."""
TRAINER_TRIES = 20
"""Account posts from one address that the trainer answers in a minute before its own 429
(``web.limits.ACCOUNT_TRIES_PER_CLIENT``)."""
PACE = 6.0
"""Seconds between the posts nginx lets through past those (``rate=10r/m``)."""
NGINX_REFUSAL = "Too many tries: wait a minute, then try again.\n"
"""nginx's own 429 page (the trainer's says "wait a few minutes")."""


def refused_by_nginx(reply: Reply) -> bool:
    """Whether ``reply`` is nginx's refusal of a post, not an answer of the trainer."""
    return (
        reply.status == 429
        and reply.headers.get_content_type() == "text/plain"
        and reply.text == NGINX_REFUSAL
    )


def timed_login(browser: Browser, token: str, username: str) -> tuple[Reply, float]:
    """A failed log-in posted with ``token``, and the seconds its answer took."""
    body, headers = browser.form_post(
        "/auth/login", {"username": username, "password": "x" * 10}, token
    )
    started = time.monotonic()
    reply = browser.request("POST", "/auth/login", body, headers)
    return reply, time.monotonic() - started


def test_a_guesser_posting_one_after_another_is_paced_never_refused(proxy: Proxy) -> None:
    """A guesser that sends each log-in post once the last is answered: its first posts go
    through at once; after those nginx holds each post until the address is back under its
    rate, a post every ``PACE`` seconds, and never refuses one: the trainer answers them all
    (its 401s: its own limits are still the ones that refuse). What nginx held is read from its
    log, apart from the trainer's time, which a slow or busy machine stretches."""
    guesser = proxy.browser("127.0.0.4")
    token = guesser.form_token("/auth/login")
    started = time.monotonic()
    undelayed = [timed_login(guesser, token, f"paced{n}") for n in range(UNDELAYED_POSTS)]
    assert max(proxy.held("127.0.0.4", "POST /auth/login")) < PACE / 2
    # nginx's count leaked away while those were answered: as many more pass at once
    leaked = math.ceil((time.monotonic() - started) / PACE)
    later = [timed_login(guesser, token, f"paced{n}") for n in range(100, 100 + leaked + 2)]
    replies = [reply for reply, _ in undelayed + later]
    assert [reply.status for reply in replies] == [401] * len(replies)
    assert len(replies) < TRAINER_TRIES
    paced = [seconds for _, seconds in later[-2:]]
    assert sum(paced) / len(paced) >= PACE / 2, paced


def test_a_parallel_flood_of_account_posts_is_refused_by_nginx(proxy: Proxy) -> None:
    """A guesser sending many log-in posts at once, each on its own connection: as many as
    nginx passes at once or lets wait reach the trainer (its 401s or, past the hashes it runs
    at once, 503s);
    the rest are refused by nginx at once, in players' words with Retry-After, costing the
    trainer nothing. Another address, posting when the flood's refusals are back, is
    answered by the trainer at once."""
    flooder = proxy.browser("127.0.0.5")
    token = flooder.form_token("/auth/login")
    size = UNDELAYED_POSTS + WAITING_POSTS + 10
    everyone_connected = threading.Barrier(size)

    def post(n: int) -> tuple[Reply, float]:
        browser = dataclasses.replace(flooder, cookies=dict(flooder.cookies))
        body, headers = browser.form_post(
            "/auth/login", {"username": f"flood{n}", "password": "x" * 10}, token
        )
        connection = browser.connection()
        connection.connect()
        everyone_connected.wait(timeout=10)
        started = time.monotonic()
        reply = browser.request("POST", "/auth/login", body, headers, connection)
        return reply, time.monotonic() - started

    with concurrent.futures.ThreadPoolExecutor(size) as pool:
        flood = [pool.submit(post, n) for n in range(size)]
        answered = concurrent.futures.as_completed(flood, timeout=10 + PACE * WAITING_POSTS)
        for _ in range(size - WAITING_POSTS):  # all but those waiting in nginx
            next(answered)
        other = proxy.browser("127.0.0.6")
        other_reply, other_seconds = timed_login(other, other.form_token("/auth/login"), "other")
        replies = [future.result() for future in flood]
    refused = [(reply, seconds) for reply, seconds in replies if refused_by_nginx(reply)]
    passed = sorted(
        ((reply.status, seconds) for reply, seconds in replies if not refused_by_nginx(reply)),
        key=lambda answer: answer[1],
    )
    # the flood's posts do not all arrive in the same instant: nginx may let one more through
    assert UNDELAYED_POSTS + WAITING_POSTS <= len(passed) <= UNDELAYED_POSTS + WAITING_POSTS + 1
    # each is answered (within the trainer's 20 a minute): checked (a 401), or, past the password
    # hashes one worker runs at once (web.limits.HASHES_AT_ONCE), a 503 at once
    statuses = [status for status, _ in passed]
    assert len(passed) < TRAINER_TRIES
    assert statuses.count(401) + statuses.count(503) == len(passed) and 401 in statuses, statuses
    assert passed[-1][1] >= PACE, passed  # the last to pass waited in nginx
    assert all(reply.headers["Retry-After"] for reply, _ in refused)
    # at once, not after a wait in nginx (PACE): generous, for a slow or busy machine
    assert max(seconds for _, seconds in refused) < PACE, refused
    assert other_reply.status == 401
    assert other_seconds < PACE


READ_BURST = 10
"""Reads nginx lets through from one address beyond its pace (``burst``)."""
READS_IN_FLIGHT = 2
"""Reads nginx lets through at once from the whole site."""
ADDRESS_READS_IN_FLIGHT = 1
"""Reads nginx lets through at once from one address (fewer than the site's)."""
SAMPLE_PHOTO = Path(__file__).resolve().parents[2] / "docs" / "sample-hand.jpg"


def test_a_flood_of_reads_is_refused_by_nginx(proxy: Proxy) -> None:
    """Many photos posted at once from one address (image bombs, say): nginx passes what one
    address may have in flight to the trainer and refuses the rest at once, in JSON with
    ``Retry-After: 1`` and every security header; another address's read is still answered
    by the trainer."""
    size = 4 * READ_BURST
    everyone_connected = threading.Barrier(size)
    body = "--b\r\nContent-Disposition: form-data; name=image; filename=a.gif\r\n\r\n"
    body += "GIF89a\r\n--b--\r\n"  # not a photo: the trainer answers at once
    headers = {"Content-Type": "multipart/form-data; boundary=b"}

    def post(browser: Browser) -> Reply:
        connection = browser.connection()
        connection.connect()
        everyone_connected.wait(timeout=10)
        return browser.request("POST", "/api/read", body, headers, connection)

    flooder = proxy.browser("127.0.0.7")
    with concurrent.futures.ThreadPoolExecutor(size) as pool:
        replies = list(pool.map(lambda _: post(flooder), range(size)))
    refused = [reply for reply in replies if reply.status == 429]
    answered = [reply for reply in replies if reply.status != 429]
    assert 1 <= len(answered) <= READ_BURST + 2, [r.status for r in replies]
    # the trainer's answers: not a photo, or (past the reads it runs at once) busy
    assert {reply.status for reply in answered} <= {400, 503}, [r.status for r in answered]
    for reply in refused:
        assert reply.json()["error"].startswith("Too many photos")
        assert reply.headers["Retry-After"] == "1"
        assert reply.headers["Connection"] == "close"  # a script ignoring it must reconnect
        assert all(reply.headers[name] for name in HEADERS)
    other = proxy.browser("127.0.0.8").request("POST", "/api/read", body, headers)
    assert other.status == 400 and "Retry-After" not in other.headers


def test_frames_beyond_one_at_a_time_are_refused_before_the_trainer_reads_them(
    proxy: Proxy,
) -> None:
    """Attack round 3: 16 scripts posting frames from one address starved the drills, though
    the trainer read only about 3 a second: refusing the rest cost it their bodies. A browser
    and an address have one frame in flight, the site as many as the trainer reads at once:
    nginx refuses the others at once (429, ``Retry-After: 1``), while a live camera, one frame
    at a time, is never refused."""
    photo = SAMPLE_PHOTO.read_bytes()
    body = b"--b\r\nContent-Disposition: form-data; name=image; filename=a.jpg\r\n\r\n"
    body += photo + b"\r\n--b--\r\n"  # a photo: the trainer reads it, a third of a second
    headers = {"Content-Type": "multipart/form-data; boundary=b"}
    camera = proxy.browser("127.0.0.20")
    camera.get("/photo")  # its session cookie
    warm = [camera.request("POST", "/api/read", body, headers).status for _ in range(3)]
    assert warm[-1] == 200, warm  # the model loaded: one frame at a time, each read

    def flood(browsers: list[Browser]) -> list[int]:
        everyone_connected = threading.Barrier(len(browsers))

        def post(browser: Browser) -> int:
            connection = browser.connection()
            connection.connect()
            everyone_connected.wait(timeout=10)
            return browser.request("POST", "/api/read", body, headers, connection).status

        with concurrent.futures.ThreadPoolExecutor(len(browsers)) as pool:
            return list(pool.map(post, browsers))

    def flooded(browsers: Callable[[int], list[Browser]], refused: int) -> list[int]:
        """The statuses of a flood by ``browsers(attempt)``, flooded again by new ones (up to
        three times) until ``refused`` are refused: a busy machine can spread one flood's posts
        out so that an early answer frees its place for a later post."""
        for attempt in range(3):
            statuses = flood(browsers(attempt))
            if statuses.count(429) >= refused:
                break
        return statuses

    def one_browser(attempt: int) -> list[Browser]:
        browser = proxy.browser(f"127.0.0.{70 + attempt}")
        browser.get("/photo")  # its session cookie: one in flight
        return [browser] * 6

    def one_address(attempt: int) -> list[Browser]:  # no cookies: one in flight
        return [proxy.browser(f"127.0.0.{21 + attempt}") for _ in range(8)]

    def eight_addresses(attempt: int) -> list[Browser]:  # the site: two in flight
        return [proxy.browser(f"127.0.0.{30 + 8 * attempt + n}") for n in range(8)]

    statuses = flooded(one_browser, 5)
    assert statuses.count(429) >= 5, statuses
    statuses = flooded(one_address, 8 - ADDRESS_READS_IN_FLIGHT)
    assert statuses.count(429) >= 8 - ADDRESS_READS_IN_FLIGHT, statuses
    statuses = flooded(eight_addresses, 8 - READS_IN_FLIGHT)
    assert statuses.count(429) >= 8 - READS_IN_FLIGHT, statuses
    frames = [camera.request("POST", "/api/read", body, headers).status for _ in range(5)]
    assert frames == [200] * 5


SLOW_REQUESTS = (
    b"GET / HTTP/1.1\r\nHost: localhost\r\n",
    b"POST /api/score HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    b"Content-Length: 100\r\n\r\n{",
)
"""Requests that never finish: headers without their end, a body without most of its bytes."""


def slow_client(port: int, context: ssl.SSLContext, start: bytes) -> ssl.SSLSocket:
    """An HTTPS connection that sends the ``start`` of a request and then nothing more."""
    sock = context.wrap_socket(socket.create_connection((HOST, port)), server_hostname=HOST)
    sock.sendall(start)
    return sock


def test_slow_clients_wait_in_nginx_not_in_the_trainer(proxy: Proxy) -> None:
    """Ten times as many unfinished requests (headers or bodies) as the trainer has threads:
    a normal request through nginx is still answered at once. Straight to the trainer, as
    many unfinished requests as it has threads hold every one of them (each thread blocks
    reading its request) until the clients give up."""
    slow = [
        slow_client(proxy.https_port, proxy.context, SLOW_REQUESTS[n % len(SLOW_REQUESTS)])
        for n in range(SLOW_CLIENTS)
    ]
    try:
        time.sleep(0.5)
        started = time.monotonic()
        reply = proxy.browser().get("/")
        assert reply.status == 200
        assert time.monotonic() - started < 10  # held, it would wait for the slow clients

    finally:
        for sock in slow:
            sock.close()


def test_plain_http_is_redirected_to_https(proxy: Proxy) -> None:
    """Port 80 answers every request with a permanent redirect to the same path on HTTPS."""
    connection = http.client.HTTPConnection(HOST, proxy.http_port, timeout=10)
    try:
        connection.request("GET", "/score?cards=5H+5D", headers={"Host": "crib.test"})
        response = connection.getresponse()
    finally:
        connection.close()
    assert response.status == 301
    assert response.headers["Location"] == "https://crib.test/score?cards=5H+5D"


def test_browsers_http2_requests_are_answered(proxy: Proxy, local_nginx: LocalNginx) -> None:
    """Browsers speak HTTP/2 to this config (``listen ... http2``), where the host comes as
    ``:authority``: a drill is dealt and answered from the proxied site over HTTP/2 (curl)."""
    origin = proxy.browser().origin
    cookies = local_nginx.folder / "curl-cookies"

    def curl(path: str, *options: str) -> Any:
        command = [
            *(program("curl"), "--silent", "--show-error", "--fail-with-body", "--http2"),
            *("--cacert", str(local_nginx.certificate)),
            *("--write-out", "\\n%{http_version}"),
            *("--cookie", str(cookies), "--cookie-jar", str(cookies)),
            *options,
            origin + path,
        ]
        result = subprocess.run(
            command,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        body, _, version = result.stdout.rpartition("\n")
        assert version == "2", f"answered over HTTP/{version}"
        return json.loads(body)

    drill = curl("/api/drills/next?kind=hand")
    verdict = curl(
        f"/api/drills/{drill['id']}/answer",
        *("--header", "Content-Type: application/json", "--header", f"Origin: {origin}"),
        *("--data", json.dumps({"points": 4})),
    )
    assert verdict["id"] == drill["id"]
