"""Load benchmark: drill round trips (deal + answer) against gunicorn, measured with wrk.

The trainer runs as ``crib serve`` runs it (``web.serve``: gunicorn with its worker
model and whatever limits the app applies) on 127.0.0.1 with a fresh database: a SQLite file,
and a PostgreSQL database on a throwaway cluster (``scripts/test-postgres --serve``: fsync off,
so the disk is not what is measured). wrk, a separate process, drives it with a Lua script in
which every connection, a guest player of its own, deals a hand (``GET /api/drills/next``) and
answers it (``POST /api/drills/<id>/answer``). Bounded in time. The trainer is started with
``CRIB_DEALS_PER_MINUTE=0``: a guest dealing a hundred times a second is what is measured here,
not refused.

With ``--attack``, each database is measured as above, then once under each attack of
:data:`ATTACKS` (``--attacks`` picks some): slow-loris heads, slow bodies (a POST head and one
byte of its body), 64 silent connections, a password guesser, guessers from 64 loopback
addresses, registrations of new names from 64 addresses (each a password to hash), one guest
dealing as fast as it can, and 8 clients posting a 29-byte GIF that claims 6320 x 6320 pixels
to the photo reader, and GETs from one address (4 clients settling a ranks-only dispute on
``/score``, 8 asking for the home page, each as fast as answered); each figure is the honest
throughput kept under that attack, against an honest run just before it (the machine's pace
drifts over a run of several minutes). ``--baseline`` first measures the same round
trip against two apps on the same gunicorn setup (``benchmarks/baseline_app.py``): one that does
nothing, the ceiling that the server and Flask alone allow on this machine, and one that only
stores the deals and answers in SQLite (raw ``sqlite3``), the ceiling with storage.

With ``--attack-alone`` instead, each attack runs with no honest traffic, on a server of its
own for each database, and the CPU it cost the trainer (and nginx) over its first seconds is
printed: its whole price, onset included, which the honest figures only show as throughput lost
beside the machine's noise (a later attack meets the counts an earlier one left).

With ``--reader-share`` instead (the card reader's models needed), 10 ordinary photos from
one address, one at a time, alone and then beside a polite attacker on another address that
keeps two photos in flight, waiting out each 429 and 503 as the live page does: how many of
the 10 are read (attack round 4, finding 1: 1 to 3 before; the target is 9 or more).

With ``--attackers-apart`` (Linux, two CPUs or more), the attackers' clients run on a CPU of
their own, the last one, and everything else (the trainer, nginx, wrk, PostgreSQL) on the
others, in the honest run and the attacked ones alike: as if the attackers were on other
machines, so that what is kept measures what an attack costs the server, not what its clients
take of a shared machine's cores (they still share one CPU among themselves: ``attack
requests`` says how hard they pushed).

With ``--proxy``, every client goes through the documented deployment instead: nginx running
``deploy/nginx.conf`` as an install sets it up (``deploy/local_nginx.py``, as the deployment
tests run it; a throwaway certificate, ``worker_processes auto`` as in Debian's main config)
over HTTPS, in front of the trainer started with ``CRIB_TRUSTED_PROXIES=1``. wrk, the
slow-loris clients (over TLS) and the guesser all talk to nginx, and nginx's CPU (its master
and workers) is reported next to the trainer's. With ``--firewall`` too, the shipped firewall
rules (``deploy/nftables.conf``: new connections per address) are loaded for nginx's ports while
it runs (``deploy.local_firewall``: root and nft needed), as a deployment loads them.

    python benchmarks/web_load.py [--database sqlite|postgresql|both] [--attack | --attack-alone]
        [--attacks NAME,...] [--baseline] [--reader-share]
        [--attackers-apart] [--proxy [--firewall]] [--workers 2] [--server-threads 4] [--seconds 10]
        [--connections 8] [--rounds 1]

Prints requests per second, answers (round trips) per second, latency percentiles, errors,
the CPU the server's processes (and nginx's, with ``--proxy``) used (cores busy, milliseconds
per answer: whether the server ran out of CPU or waited), and the machine's load average
before each run (the CPU may be shared).
Targets, as ratios within one run so that the machine's noise cancels (absolute figures on a
shared 2-core machine swing by 2x): the trainer's server CPU per answer on SQLite <= 2.5x the
``stored_app`` baseline's (``--baseline``), p99 <= 25 ms at 8 connections on SQLite, no errors,
and PostgreSQL's CPU per answer within 1.3x of SQLite's; under attack, through nginx, >= 90 %
of the honest throughput kept. The last lines print each ratio beside its target. One round's
ratios still swing by a quarter on a quiet machine (the kernel hands the 8 connections to the 2
workers unevenly, sometimes all to one: ``by worker``); ``--rounds 3`` measures everything three
times over and prints the median of each ratio, each round's beside it.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.client
import json
import os
import re
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from photo_post import read_request  # noqa: E402  (this folder is on sys.path)

from crib.serve import DEFAULT_THREADS, DEFAULT_WORKERS  # noqa: E402
from deploy.local_firewall import applied  # noqa: E402
from deploy.local_nginx import find_program, prepare, running  # noqa: E402
from deploy.local_server import free_port, spawn  # noqa: E402

LUA = r"""
local cookies = {%(cookies)s}
local counter = 0
local threads = {}

function setup(thread)
  counter = counter + 1
  thread:set("cookie", cookies[counter])
  table.insert(threads, thread)
end

function init(args)
  pending = {}
  answers = 0
  deals = 0
  errors = 0
  wrk.headers["Cookie"] = cookie
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  local id = table.remove(pending)
  if id then
    return wrk.format("POST", "/api/drills/" .. id .. "/answer", nil, '{"points": 4}')
  end
  return wrk.format("GET", "/api/drills/next?kind=hand", nil, nil)
end

function response(status, headers, body)
  if status ~= 200 then
    errors = errors + 1
    return
  end
  if string.find(body, '"correct"', 1, true) then
    answers = answers + 1
  else
    local id = string.match(body, '"id":%%s*(%%d+)')
    if id then
      deals = deals + 1
      table.insert(pending, id)
    end
  end
end

function done(summary, latency, requests)
  local a, d, e = 0, 0, 0
  for _, thread in ipairs(threads) do
    a = a + thread:get("answers")
    d = d + thread:get("deals")
    e = e + thread:get("errors")
  end
  io.write(string.format("LUA answers=%%d\nLUA deals=%%d\nLUA errors=%%d\n", a, d, e))
  for _, p in ipairs({50, 90, 99, 99.9}) do
    io.write(string.format("LUA p%%s=%%.3f\n", p, latency:percentile(p) / 1000))
  end
end
"""


@dataclass(frozen=True)
class Target:
    """Where the clients send their requests, and the processes that answer them."""

    url: str
    """``http://127.0.0.1:PORT`` (the trainer) or ``https://127.0.0.1:PORT`` (nginx)."""
    server: int
    """The trainer's gunicorn master (its workers are its children)."""
    context: ssl.SSLContext | None = None
    """With nginx: a TLS context trusting its throwaway certificate."""
    proxy: int | None = None
    """With nginx: its master process (its workers are its children)."""

    @property
    def address(self) -> tuple[str, int]:
        """The host and port the clients connect to."""
        parts = urllib.parse.urlsplit(self.url)
        assert parts.hostname is not None and parts.port is not None
        return parts.hostname, parts.port

    def connect(
        self, *, timeout: float, source_address: tuple[str, int]
    ) -> http.client.HTTPConnection:
        """A new connection to this target from ``source_address`` (TLS with nginx)."""
        host, port = self.address
        if self.context is None:
            return http.client.HTTPConnection(
                host, port, timeout=timeout, source_address=source_address
            )
        return http.client.HTTPSConnection(
            host, port, timeout=timeout, source_address=source_address, context=self.context
        )

    def opener(self, *handlers: urllib.request.BaseHandler) -> urllib.request.OpenerDirector:
        """A urllib opener for this target (trusting nginx's certificate) with ``handlers``."""
        return urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=self.context), *handlers
        )


def guest_cookie(target: Target) -> str:
    """A new guest's session cookie (the first deal makes the guest)."""
    with target.opener().open(f"{target.url}/api/drills/next?kind=hand") as reply:
        return str(reply.headers.get("Set-Cookie", "")).split(";", 1)[0]


@dataclass
class Figures:
    """What one wrk run measured."""

    requests_per_s: float
    answers_per_s: float
    latency_ms: dict[str, float]
    errors: int
    output: str
    server_cores: float = 0.0
    """CPU cores the server's processes kept busy, on average."""
    proxy_cores: float | None = None
    """CPU cores nginx's processes kept busy, on average (with ``--proxy``)."""
    worker_cores: tuple[float, ...] = ()
    """The server's share by worker process: a worker's threads share one core at most (the
    GIL), so a worker holding more of the connections than the others caps the whole."""


def cpu_seconds(pid: int) -> dict[int, float]:
    """CPU seconds (user + system) spent so far by process ``pid`` and by each of its
    children, by process id (Linux)."""
    spent: dict[int, float] = {}
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    for process in (pid, *map(int, children)):
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
            spent[process] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return spent


@contextlib.contextmanager
def measured(target: Target) -> Iterator[list[dict[int, float]]]:
    """While the block runs, the CPU cores each process of the trainer (and of nginx, second)
    kept busy on average, by process id; filled in when the block ends."""
    processes = [target.server] if target.proxy is None else [target.server, target.proxy]
    spent: list[dict[int, float]] = []
    started, busy = time.monotonic(), [cpu_seconds(pid) for pid in processes]
    yield spent
    elapsed = time.monotonic() - started
    spent.extend(
        {process: (now - before.get(process, 0.0)) / elapsed for process, now in after.items()}
        for after, before in zip([cpu_seconds(pid) for pid in processes], busy, strict=True)
    )


def drive(target: Target, folder: Path, args: argparse.Namespace, cookies: list[str]) -> Figures:
    """Run wrk's round trips against ``target``, a connection for each guest of ``cookies``."""
    script = folder / "roundtrip.lua"
    script.write_text(LUA % {"cookies": ", ".join(f'"{cookie}"' for cookie in cookies)})
    command = [
        args.wrk,
        f"-t{args.connections}",  # one connection a thread, each its own guest: a guest's
        f"-c{args.connections}",  # unanswered drill is dealt again, so one request at a time
        f"-d{args.seconds}s",
        "--timeout",
        "5s",
        "-s",
        str(script),
        target.url,
    ]
    with measured(target) as spent:
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    server = sum(spent[0].values())
    proxy = sum(spent[1].values()) if target.proxy is not None else None
    workers = tuple(c for process, c in spent[0].items() if process != target.server)
    figures = dict(re.findall(r"LUA (\S+)=(\S+)", output))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    latency = {p: float(figures["p" + p]) for p in ("50", "90", "99", "99.9")}
    answers = int(figures["answers"]) / args.seconds
    summary = output.split("LUA")[0].rstrip()
    errors = int(figures["errors"])
    return Figures(rps, answers, latency, errors, summary, server, proxy, workers)


def connect(target: Target) -> socket.socket:
    """A connection to ``target`` (over TLS to nginx)."""
    connection = socket.create_connection(target.address, timeout=5)
    if target.context is None:
        return connection
    return target.context.wrap_socket(connection, server_hostname=target.address[0])


def slow_loris(target: Target, stop: threading.Event, _index: int, _tries: list[int]) -> None:
    """Hold a connection with a request whose headers never end (a header a second)."""
    while not stop.is_set():
        try:
            with connect(target) as connection:
                connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
                while not stop.wait(1.0):
                    connection.sendall(b"X-Wait: 1\r\n")
        except OSError:
            stop.wait(0.1)  # the server closed it: open another


def slow_body(target: Target, stop: threading.Event, _index: int, _tries: list[int]) -> None:
    """Send a whole POST head announcing 100 bytes of body, one byte of it, then nothing."""
    head = (
        b"POST /api/drills/1/answer HTTP/1.1\r\nHost: x\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
    )
    while not stop.is_set():
        try:
            with connect(target) as connection:
                connection.sendall(head)
                connection.settimeout(1.0)
                while not stop.is_set():  # until the server gives up on the body
                    with contextlib.suppress(TimeoutError):
                        if not connection.recv(4096):
                            break
        except OSError:
            stop.wait(0.1)


def silent(target: Target, stop: threading.Event, _index: int, _tries: list[int]) -> None:
    """Open a connection and send nothing (over TLS: not even a handshake)."""
    while not stop.is_set():
        try:
            with socket.create_connection(target.address, timeout=5) as connection:
                connection.settimeout(1.0)
                while not stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        if not connection.recv(4096):
                            break
        except OSError:
            stop.wait(0.1)


def post_account_forms(
    target: Target, stop: threading.Event, index: int, tries: list[int], path: str
) -> None:
    """Post account forms to ``path`` as fast as the server answers, from the loopback address
    ``127.0.0.(index + 2)``, as a browser would (the page's cookie and form token sent back, the
    page named as the form's origin and referrer): a wrong password for one name to
    ``/auth/login``, a new name to ``/auth/register``."""
    import http.cookies

    source = (f"127.0.0.{index + 2}", 0)
    n = 0
    while not stop.is_set():
        connection = target.connect(timeout=10, source_address=source)
        try:
            connection.request("GET", path)
            reply = connection.getresponse()
            page = reply.read().decode()
            cookie = http.cookies.SimpleCookie(reply.headers.get("Set-Cookie", ""))
            jar = "; ".join(f"{name}={morsel.value}" for name, morsel in cookie.items())
            token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page)
            for _ in range(20):  # a fresh form now and then
                if stop.is_set():
                    break
                name = "alice" if path == "/auth/login" else f"bot{index}x{n:08d}"
                form = {"username": name, "password": f"guess{index}-{n:08d}"}
                if token:
                    form["csrf_token"] = token.group(1)
                headers = {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Origin": target.url,
                    "Referer": f"{target.url}{path}",
                    "Cookie": jar,
                }
                connection.request("POST", path, urllib.parse.urlencode(form), headers)
                connection.getresponse().read()  # 302, 401, 429, 503 alike
                n += 1
                tries[0] += 1
        except (OSError, http.client.HTTPException):
            stop.wait(0.1)
        finally:
            connection.close()


def guess_passwords(target: Target, stop: threading.Event, index: int, tries: list[int]) -> None:
    """Log in with wrong passwords for one name (all guessers try the same)."""
    post_account_forms(target, stop, index, tries, "/auth/login")


def register_accounts(target: Target, stop: threading.Event, index: int, tries: list[int]) -> None:
    """Register new names, each with its password to hash."""
    post_account_forms(target, stop, index, tries, "/auth/register")


def deal_flood(target: Target, stop: threading.Event, _index: int, tries: list[int]) -> None:
    """One guest dealing drills as fast as the server answers, answering none."""
    opener = target.opener()
    opener.addheaders = [("Cookie", guest_cookie(target))]
    while not stop.is_set():
        with contextlib.suppress(OSError):  # 429s and resets alike
            opener.open(f"{target.url}/api/drills/next?kind=hand", timeout=10).read()
        tries[0] += 1


BOMB = (  # a GIF of 29 bytes whose screen and image claim 6320 x 6320 pixels
    b"GIF89a\xb0\x18\xb0\x18\x00\x00\x00,\x00\x00\x00\x00\xb0\x18\xb0\x18\x00\x02\x02L\x01\x00;"
)


def image_bombs(target: Target, stop: threading.Event, _index: int, tries: list[int]) -> None:
    """Post the GIF bomb to the photo reader, again and again."""
    request = read_request(target.url, BOMB, "a.gif", "image/gif")
    opener = target.opener()
    while not stop.is_set():
        with contextlib.suppress(OSError):  # 400, 413, 429, 503 alike
            opener.open(request, timeout=30).read()
        tries[0] += 1


_FRAME_LOCK = threading.Lock()


@functools.cache
def _camera_frame() -> bytes:
    import cv2

    from tests.e2e.video import SIZE, table_scene

    frame = cv2.resize(table_scene().image, SIZE, interpolation=cv2.INTER_AREA)
    return bytes(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes())


def camera_frame() -> bytes:
    """A live camera's frame as the page sends it: the e2e tests' table, 960 px, JPEG 85 (made
    once: the posters share a CPU)."""
    with _FRAME_LOCK:
        return _camera_frame()


def post_frames(
    target: Target, stop: threading.Event, tries: list[int], source: str, obey: bool
) -> None:
    """Post camera frames to ``/api/read`` from ``source`` on one kept-alive connection, one
    at a time: as fast as the answers come, or (``obey``) as the live page does, waiting out a
    refusal's ``Retry-After``. Counts every post in ``tries[0]``, each frame read in
    ``tries[1]`` and each refusal by nginx or the trainer (429, 503) in ``tries[2]``."""

    request = read_request(target.url, camera_frame(), "frame.jpg", "image/jpeg")
    headers = dict(request.header_items())
    while not stop.is_set():
        connection = target.connect(timeout=30, source_address=(source, 0))
        try:
            while not stop.is_set():
                connection.request("POST", "/api/read", request.data, headers)  # type: ignore[arg-type]
                reply = connection.getresponse()
                reply.read()
                tries[0] += 1
                tries[1] += reply.status == 200
                tries[2] += reply.status in (429, 503)
                if obey and reply.status in (429, 503):
                    stop.wait(float(reply.headers.get("Retry-After", 1)))
        except (OSError, http.client.HTTPException):
            stop.wait(0.1)
        finally:
            connection.close()


def frames_one_address(
    target: Target, stop: threading.Event, _index: int, tries: list[int]
) -> None:
    """Post frames as fast as they are answered, every poster from 127.0.0.2."""
    post_frames(target, stop, tries, "127.0.0.2", obey=False)


def frames_8_addresses(target: Target, stop: threading.Event, index: int, tries: list[int]) -> None:
    """Post frames as fast as they are answered, two posters on each of 8 addresses."""
    post_frames(target, stop, tries, f"127.0.0.{index % 8 + 2}", obey=False)


def live_camera(target: Target, stop: threading.Event, _index: int, tries: list[int]) -> None:
    """One honest live camera (127.0.0.20): a frame at a time, obeying ``Retry-After``."""
    post_frames(target, stop, tries, "127.0.0.20", obey=True)


def get_flood(target: Target, stop: threading.Event, tries: list[int], path: str) -> None:
    """GET ``path`` from 127.0.0.2 on a kept-alive connection as fast as it is answered (a new
    connection once nginx closes one), counting every request in ``tries[0]`` and each
    refusal (429) in ``tries[2]``."""

    while not stop.is_set():
        connection = target.connect(timeout=30, source_address=("127.0.0.2", 0))
        try:
            while not stop.is_set():
                connection.request("GET", path)
                reply = connection.getresponse()
                reply.read()
                tries[0] += 1
                tries[2] += reply.status == 429
        except (OSError, http.client.HTTPException):
            stop.wait(0.1)
        finally:
            connection.close()


def score_flood(target: Target, stop: threading.Event, _index: int, tries: list[int]) -> None:
    """Settle a ranks-only dispute (``/score``: every suit pattern scored) again and again."""
    get_flood(target, stop, tries, "/score?cards=A+2+3+4&starter=5")


def home_flood(target: Target, stop: threading.Event, _index: int, tries: list[int]) -> None:
    """Ask for the home page again and again (a guest's, no cookie kept)."""
    get_flood(target, stop, tries, "/")


BOARD_MOVES = 900
"""The moves a board keeper's game holds before the keeper moves on it (attack round 4,
finding 2: a move replayed the whole game, up to 1,000 moves, the cap): the other 100 are the
keeper's pegs, 25 seconds of them at the pace."""
MOVES_A_SECOND = 4.0
"""A keeper's pace: the trainer's move limit for a client (240 a minute)."""


def board_request(
    target: Target, source: str, path: str, body: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """POST ``body`` as JSON to ``path`` from ``source`` on a connection of its own, again after
    a refusal's ``Retry-After`` until it is not refused (429)."""
    while True:
        connection = target.connect(timeout=30, source_address=(source, 0))
        try:
            data = json.dumps(body).encode()
            connection.request("POST", path, data, {"Content-Type": "application/json"})
            reply = connection.getresponse()
            answer = reply.read()
            if reply.status != 429:
                try:
                    return reply.status, json.loads(answer or b"{}")
                except ValueError:  # nginx's own page for a 5xx or a limit
                    return reply.status, {"error": answer[:200].decode(errors="replace")}
            time.sleep(float(reply.headers.get("Retry-After", 1)))
        finally:
            connection.close()


def board_keeper(target: Target, stop: threading.Event, index: int, tries: list[int]) -> None:
    """Keep a board of :data:`BOARD_MOVES` moves from ``127.0.0.(index + 2)``, and peg on it at
    the move limit's pace. The game is grown first, each move from another
    address (the keeper's key moves it from anywhere) so that no address's limit slows the
    growing; it counts in ``tries[1]`` once grown, and every peg in ``tries[0]``."""
    source = f"127.0.0.{index + 2}"
    status, game = board_request(target, source, "/api/games", {"names": ["Ann", "Bob"]})
    if status != 201:
        raise RuntimeError(f"no game for the keeper: {status} {game}")
    path = f"/api/games/{game['code']}/moves"
    sent = 0

    def move(source: str, **move: object) -> None:
        nonlocal game, sent
        body = {**move, "version": game["version"], "key": game["key"]}
        status, reply = board_request(target, source, path, body)
        sent += 1
        if status != 200:
            raise RuntimeError(f"the keeper's move was refused: {status} {reply}")
        game = reply

    while int(game["moves"]) + 4 <= BOARD_MOVES and not stop.is_set():
        grower = f"127.0.{10 + index}.{sent % 250 + 2}"
        for _ in range(3):
            move(grower, move="show", hand=game["next_to_show"], points=0)
        move(grower, move="deal")
    tries[1] += 1
    while not stop.is_set():  # a peg each in turn: nobody reaches home
        move(source, move="peg", seat=tries[0] % 2, points=1, reason="bench")
        tries[0] += 1
        stop.wait(1 / MOVES_A_SECOND)


Attacker = Callable[[Target, threading.Event, int, list[int]], None]
ATTACKS: dict[str, tuple[Attacker, int]] = {
    "slow-loris": (slow_loris, 2),
    "slow-bodies": (slow_body, 8),
    "silent": (silent, 64),
    "guesser": (guess_passwords, 1),
    "guessers-64": (guess_passwords, 64),
    "registrars-64": (register_accounts, 64),
    "deal-flood": (deal_flood, 1),
    "image-bombs": (image_bombs, 8),
    "frames-16": (frames_one_address, 16),
    "frames-16-on-8": (frames_8_addresses, 16),
    "camera": (live_camera, 1),
    "score-4": (score_flood, 4),
    "home-8": (home_flood, 8),
    "boards-4": (board_keeper, 4),
}
"""Each attack: what every one of its clients does, and how many clients run at once."""
FRAME_POSTERS = {frames_one_address, frames_8_addresses, live_camera}


def on_cpus(attacker: Attacker, cpus: set[int] | None) -> Attacker:
    """``attacker``, its thread kept on ``cpus`` when given (Linux: a thread's own affinity)."""
    if cpus is None:
        return attacker

    def pinned(target: Target, stop: threading.Event, index: int, tries: list[int]) -> None:
        os.sched_setaffinity(0, cpus)
        attacker(target, stop, index, tries)

    return pinned


@contextlib.contextmanager
def attack(target: Target, name: str, cpus: set[int] | None = None) -> Iterator[list[int]]:
    """Run the attack ``name`` of :data:`ATTACKS` while the block runs, its clients on ``cpus``
    when given; yields its count of requests made (guesses, deals, bombs) where it counts them."""
    attacker, clients = ATTACKS[name]
    stop = threading.Event()
    tries = [0, 0, 0]  # requests made; for frames, those read and those refused
    threads = [
        threading.Thread(target=on_cpus(attacker, cpus), args=(target, stop, i, tries), daemon=True)
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # let the attack take hold
    warm_by = time.monotonic() + 60
    while attacker in FRAME_POSTERS and tries[1] < 2 and time.monotonic() < warm_by:
        time.sleep(0.2)  # frames read: the workers have loaded the card model
    while attacker is board_keeper and tries[1] < clients:
        if not all(thread.is_alive() for thread in threads):
            stop.set()
            raise RuntimeError("a board keeper stopped before its game was grown")
        time.sleep(0.2)  # every keeper's game grown to its moves
    try:
        yield tries
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=15)


def attack_alone(target: Target, name: str, args: argparse.Namespace) -> None:
    """Run the attack ``name`` of :data:`ATTACKS` with no honest traffic, from its first request
    for ``--seconds`` more than its one second to take hold, and print the CPU it cost the
    trainer (and nginx): the whole price of its onset and of its steady pace, which the honest
    figures only show as throughput lost beside the machine's noise."""
    with measured(target) as spent, attack(target, name, args.attacker_cpus) as tries:
        time.sleep(args.seconds)
    proxy = f", nginx {sum(spent[1].values()):.2f} cores" if target.proxy is not None else ""
    print(
        f"\n== alone: {name}: trainer {sum(spent[0].values()):.2f} cores{proxy} over"
        f" {args.seconds + 1} s; attack requests {tries[0]} ({tries[0] / (args.seconds + 1):.1f}/s)"
    )


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A new database on a throwaway PostgreSQL cluster (``scripts/test-postgres --serve``)."""
    import psycopg
    from sqlalchemy import make_url

    server = subprocess.Popen(
        [str(ROOT / "scripts" / "test-postgres"), "--serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        line = server.stdout.readline().strip()
        if not line:
            raise SystemExit("PostgreSQL did not start (scripts/test-postgres --serve)")
        url = make_url(line)
        dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(dsn, autocommit=True) as admin:
            admin.execute("CREATE DATABASE crib_bench")
        yield url.set(database="crib_bench").render_as_string(hide_password=False)
    finally:
        server.stdin.close()
        server.wait(timeout=60)


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes) and its CPU count."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def report(title: str, figures: Figures, args: argparse.Namespace) -> None:
    """Print one run's figures."""
    print(
        f"\n== {title}: workers={args.workers} threads={args.server_threads}"
        f" connections={args.connections}"
    )
    print(figures.output)
    print(f"requests/s         {figures.requests_per_s:8.1f}")
    print(f"answers/s          {figures.answers_per_s:8.1f}   (deal + answer round trips)")
    for p, ms in figures.latency_ms.items():
        print(f"latency p{p:<5}      {ms:8.2f} ms")
    print(f"errors             {figures.errors:8d}")
    answers = max(figures.answers_per_s, 1e-9)
    per_answer = ms_per_answer(figures)
    by_worker = ", ".join(f"{cores:.2f}" for cores in figures.worker_cores)
    print(
        f"server CPU         {figures.server_cores:8.2f} cores  ({per_answer:.2f} ms an answer;"
        f" by worker {by_worker})"
    )
    if figures.proxy_cores is not None:
        per_answer = 1000 * figures.proxy_cores / answers
        print(
            f"nginx CPU          {figures.proxy_cores:8.2f} cores  ({per_answer:.2f} ms an answer)"
        )


def ms_per_answer(figures: Figures) -> float:
    """The server's CPU milliseconds per answer (a round trip)."""
    return 1000 * figures.server_cores / max(figures.answers_per_s, 1e-9)


@contextlib.contextmanager
def serving(
    name: str, database_url: str | None, args: argparse.Namespace, app: str | None = None
) -> Iterator[tuple[Target, Path, str]]:
    """The trainer (or ``app``) served on ``database_url`` (a SQLite file when ``None``),
    through nginx with ``--proxy``, while the block runs: its target, a scratch folder, and
    the run's name."""
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as running_servers:
        folder = Path(tmp)
        port = free_port()
        try:
            server = spawn(
                port,
                args.workers,
                folder,
                "benchmark",
                database_url=database_url,
                app=app,
                threads=args.server_threads,
                environment={"CRIB_DEALS_PER_MINUTE": "0"},  # each guest deals ~100 a second
            )
        except RuntimeError as error:
            raise SystemExit(str(error)) from None
        running_servers.callback(stop, server)
        target = Target(f"http://127.0.0.1:{port}", server.pid)
        if args.proxy:
            proxy = prepare(folder / "nginx", port, worker_processes="auto")
            nginx = running_servers.enter_context(running(proxy))
            if args.firewall:
                running_servers.enter_context(applied([proxy.http_port, proxy.https_port]))
            target = Target(proxy.origin, server.pid, proxy.context(), nginx.pid)
            name = f"{name} through nginx"
        print(f"\n[{name}] {load()}")
        yield target, folder, name


SAMPLE_PHOTO = ROOT / "docs" / "sample-hand.jpg"
"""An ordinary photo of a hand (the README's), what the reader-sharing probe posts."""


def post_photo(target: Target, source: str) -> tuple[int, float]:
    """Post the sample photo to ``/api/read`` from ``source`` on a new connection: the answer's
    status and its ``Retry-After`` (0 without one)."""

    request = read_request(target.url, SAMPLE_PHOTO.read_bytes(), "hand.jpg", "image/jpeg")
    connection = target.connect(timeout=60, source_address=(source, 0))
    try:
        connection.request("POST", "/api/read", request.data, dict(request.header_items()))  # type: ignore[arg-type]
        reply = connection.getresponse()
        reply.read()
        return reply.status, float(reply.headers.get("Retry-After") or 0)
    finally:
        connection.close()


def reader_share(name: str, database_url: str | None, args: argparse.Namespace) -> None:
    """Attack round 4, finding 1: how many of 10 honest photos (127.0.0.30, one at a time) are
    read alone, and beside a polite attacker on 127.0.0.2 keeping two photos in flight (each
    429 or 503 waited out, as the live page does)."""
    with serving(name, database_url, args) as (target, _, _):
        for n in range(2 * args.workers):  # every worker's model loaded
            post_photo(target, f"127.0.0.{31 + n}")
        alone = [post_photo(target, "127.0.0.30")[0] for _ in range(10)]
        stop = threading.Event()

        def attacker() -> None:
            while not stop.is_set():
                status, wait = post_photo(target, "127.0.0.2")
                if status in (429, 503):
                    stop.wait(wait or 1)

        threads = [threading.Thread(target=attacker, daemon=True) for _ in range(2)]
        for thread in threads:
            thread.start()
        stop.wait(2)  # the attack holds the reader
        beside = [post_photo(target, "127.0.0.30")[0] for _ in range(10)]
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        print(f"honest photos read alone: {alone.count(200)} of 10 {alone}")
        print(f"beside the attacker: {beside.count(200)} of 10 {beside} (target: 9 or more)")


def attacks_alone(name: str, database_url: str | None, args: argparse.Namespace) -> None:
    """Serve as :func:`bench` does and measure each attack alone (:func:`attack_alone`)."""
    with serving(name, database_url, args) as (target, _folder, _name):
        for attack_name in args.attacks:
            attack_alone(target, attack_name, args)


def bench(
    name: str, database_url: str | None, args: argparse.Namespace, app: str | None = None
) -> Figures:
    """Serve on ``database_url`` (a SQLite file when ``None``) and measure, through nginx with
    ``--proxy``; ``app`` serves another app (the baseline) instead of the trainer. Returns the
    honest run's figures."""
    with serving(name, database_url, args, app) as (target, folder, name):
        # the same guests for every run: the trainer lets one address make 60 guests an hour
        cookies = [guest_cookie(target) for _ in range(args.connections)]
        honest = drive(target, folder, args, cookies)
        report(f"{name}, honest traffic", honest, args)
        if args.attack and app is None:
            for n, attack_name in enumerate(args.attacks):
                before = honest  # the first attack follows the honest run
                if n > 0:
                    print(f"\n[{name}] {load()}")
                    before = drive(target, folder, args, cookies)
                    report(f"{name}, honest traffic before {attack_name}", before, args)
                print(f"\n[{name}] {load()}")
                with attack(target, attack_name, args.attacker_cpus) as tries:
                    attacked = drive(target, folder, args, cookies)
                report(f"{name}, under attack: {attack_name}", attacked, args)
                kept = 100 * attacked.answers_per_s / before.answers_per_s
                print(f"attack requests    {tries[0]:8d}   ({tries[0] / args.seconds:.1f}/s)")
                if ATTACKS[attack_name][0] in FRAME_POSTERS and (tries[1] or tries[2]):
                    print(
                        f"frames read        {tries[1]:8d}   ({tries[1] / args.seconds:.2f}/s;"
                        f" {tries[2]} refused, 429 or 503)"
                    )
                print(
                    f"throughput kept    {kept:8.1f} %   (target >= 90 % through nginx,"
                    " >= 80 % directly)"
                )
                cost = ms_per_answer(attacked) / ms_per_answer(before)
                where = (
                    "the attackers' clients share this machine's cores"
                    if args.attacker_cpus is None
                    else f"the attackers' clients on CPU {min(args.attacker_cpus)} apart"
                )
                print(
                    f"server CPU/answer  {cost:8.2f}x   honest traffic's (what the attack costs"
                    f" the trainer itself: {where})"
                )
        return honest


def _ratios(runs: dict[str, Figures]) -> dict[str, float]:
    """The targets' figures of one round: each CPU ratio and the p99 that its runs allow."""
    sqlite, postgresql, stored = runs.get("sqlite"), runs.get("postgresql"), runs.get("stored")
    figures = {}
    if sqlite and stored:
        figures["stored"] = ms_per_answer(sqlite) / ms_per_answer(stored)
    if sqlite:
        figures["p99"] = sqlite.latency_ms.get("99", float("nan"))
    if sqlite and postgresql:
        figures["postgresql"] = ms_per_answer(postgresql) / ms_per_answer(sqlite)
    return figures


TARGETS = {
    "stored": "server CPU an answer, SQLite / stored baseline  {:6.2f}x  (target <= 2.5x)",
    "p99": "p99 on SQLite                                  {:6.1f} ms (target <= 25 ms)",
    "postgresql": "server CPU an answer, PostgreSQL / SQLite      {:6.2f}x  (target <= 1.3x)",
}
"""How each target's figure is printed."""


def targets(rounds: list[dict[str, Figures]]) -> None:
    """Print each target of the docstring as a ratio between runs of one round; with several
    rounds, the median of the rounds (each round's figure beside it)."""
    print(f"\n== Targets (ratios within a round; the median of {len(rounds)})")
    figures = [_ratios(runs) for runs in rounds]
    for key, line in TARGETS.items():
        values = [f[key] for f in figures if key in f]
        if values:
            each = ", ".join(f"{value:.2f}" for value in values) if len(values) > 1 else ""
            print(line.format(statistics.median(values)) + (f"  rounds: {each}" if each else ""))


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop the trainer's gunicorn and wait for it."""
    server.terminate()
    server.wait(timeout=30)


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--attack", action="store_true", help="also measure under attack")
    parser.add_argument(
        "--attacks",
        type=lambda text: text.split(","),
        default=list(ATTACKS),
        help="which attacks, comma-separated (default: all of " + ", ".join(ATTACKS) + ")",
    )
    parser.add_argument(
        "--attack-alone",
        action="store_true",
        help="instead: each attack with no honest traffic, the CPU it costs (the first attack"
        " meets a fresh server; later ones, the counts the earlier left)",
    )
    parser.add_argument(
        "--baseline", action="store_true", help="first measure an app that does nothing"
    )
    parser.add_argument(
        "--proxy", action="store_true", help="go through nginx (deploy/nginx.conf) over HTTPS"
    )
    parser.add_argument(
        "--firewall",
        action="store_true",
        help="with --proxy: load deploy/nftables.conf for nginx's ports too (root, nft)",
    )
    parser.add_argument(
        "--attackers-apart",
        action="store_true",
        help="the attackers' clients on the last CPU, everything else on the others",
    )
    parser.add_argument(
        "--reader-share",
        action="store_true",
        help="instead: honest photos read alone and beside one address holding the reader"
        " (SQLite; the card reader's models needed)",
    )
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS)
    parser.add_argument("--server-threads", type=int, default=DEFAULT_THREADS)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="measure everything this many times; the targets' figures are the rounds' medians",
    )
    args = parser.parse_args()
    unknown = set(args.attacks) - set(ATTACKS)
    if unknown:
        parser.error(f"unknown attacks: {', '.join(sorted(unknown))}")
    if args.firewall and not args.proxy:
        parser.error("--firewall goes with --proxy (the rules are for nginx's ports)")
    args.attacker_cpus = None
    if args.attackers_apart:
        cpus = sorted(os.sched_getaffinity(0))
        if len(cpus) < 2:
            parser.error("--attackers-apart needs two CPUs or more")
        args.attacker_cpus = {cpus[-1]}
        os.sched_setaffinity(0, set(cpus[:-1]))  # this thread and every program it starts
    if args.proxy:
        for program in ("nginx", "openssl"):
            if find_program(program) is None:
                raise SystemExit(f"{program} is missing: apt-get install {program}")
        os.environ["CRIB_TRUSTED_PROXIES"] = "1"  # as deploy/crib-trainer.service runs it
    if args.reader_share:
        reader_share("SQLite", None, args)
        return
    args.wrk = shutil.which("wrk")
    if args.wrk is None:
        raise SystemExit("wrk is missing: apt-get install wrk")
    if args.attack_alone:
        if args.database in ("sqlite", "both"):
            attacks_alone("SQLite", None, args)
        if args.database in ("postgresql", "both"):
            with postgres_database() as url:
                attacks_alone("PostgreSQL", url, args)
        return
    rounds: list[dict[str, Figures]] = []
    for _ in range(args.rounds):
        runs: dict[str, Figures] = {}
        if args.baseline:
            bench("Baseline (Flask and gunicorn alone)", None, args, "benchmarks.baseline_app:app")
            stored = "benchmarks.baseline_app:stored_app"
            runs["stored"] = bench(
                "Baseline storing deals and answers (sqlite3 alone)", None, args, stored
            )
        if args.database in ("sqlite", "both"):
            runs["sqlite"] = bench("SQLite", None, args)
        if args.database in ("postgresql", "both"):
            with postgres_database() as url:
                runs["postgresql"] = bench("PostgreSQL", url, args)
        rounds.append(runs)
    targets(rounds)


if __name__ == "__main__":
    main()
