"""Watching a board (issue "board"): what each phone watching a game costs the server, and how
many watching phones the trainer holds while the drills keep >= 90 % of their answers a second.

A watching phone asks for the board once a second (``GET /api/games/<code>`` with the version it
has in ``If-None-Match``: a 304 while nothing moved, the whole board after a move), as
``static/board.js`` does. The watchers are coroutines of one client process, a connection each
(kept alive), spread over the second. A keeper moves a peg every ``--move-every`` seconds (a peg,
then its undo, on a game of ``--moves`` moves), so that each watcher fetches the whole board
after each move, as a page does.

The trainer runs as ``crib serve`` runs it (``deploy.local_server.spawn``, ``--workers`` processes)
on 127.0.0.1 with a fresh SQLite file. For each count of watchers it measures, first with the
watchers alone: the server's CPU (its processes' user and system time, in cores) and its
workers' memory (resident set) against the idle server, each over the watchers (the cost of
one watching phone); the polls answered a second and their latency; and then, with the drill
player of ``benchmarks/live.py`` (threads dealing and answering hand drills as fast as the
trainer answers) running beside them, the drill answers a second, against the drills alone
measured just before (the machine's pace drifts over a run): the drills kept. The baseline of the
run is the drills alone, and the CPU one drill round trip (a deal and its answer) costs: a
watcher's CPU is also given as round trips' worth.

    python benchmarks/board_watchers.py [--watchers 25,50,100,200,400] [--seconds 15]
        [--workers 2] [--drill-threads 2] [--moves 120] [--move-every 3] [--rounds 1]

Target: the most watchers held with the drills keeping >= 90 % of their answers a second
(printed last; with ``--rounds`` the median over the rounds). The machine's cores are shared
with the client process (its CPU is printed): on a shared machine the figures are the
trainer's share, not its ceiling.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from live import drills  # noqa: E402  (this folder is on sys.path)
from web_load import cpu_seconds  # noqa: E402

from deploy.local_server import free_port, spawn  # noqa: E402

POLL_S = 1.0
"""How often a watching page asks for the board (``POLL_MS`` in ``static/board.js``)."""
TARGET_KEPT = 0.90
"""The drills must keep this share of their answers a second."""


def rss_kib(pid: int) -> int:
    """Resident memory (KiB) of process ``pid``'s children: the server's workers."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    total = 0
    for child in children:
        for line in Path(f"/proc/{child}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


class Keeper:
    """The game's keeper: sets it up, then moves a peg (and takes it back) every few seconds."""

    def __init__(self, url: str, moves: int) -> None:
        self.url = url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.game = self.post("/api/games", {"names": ["Ann", "Bob"]})
        self.code = str(self.game["code"])
        for n in range(moves):  # a game under way: a log of this many moves
            self.move({"move": "peg", "seat": n % 2, "points": 1, "reason": "go"})

    def post(self, path: str, body: dict[str, object]) -> dict[str, object]:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with self.opener.open(request, timeout=30) as reply:
            answer: dict[str, object] = json.load(reply)
            return answer

    def move(self, move: dict[str, object]) -> None:
        self.game = self.post(
            f"/api/games/{self.code}/moves", {"version": self.game["version"], **move}
        )

    def run(self, stop: threading.Event, every: float) -> None:
        """Peg, then undo, every ``every`` seconds until ``stop``."""
        while not stop.wait(every):
            self.move({"move": "peg", "seat": 0, "points": 2, "reason": "fifteen two"})
            if stop.wait(every):
                break
            self.move({"move": "undo"})


async def _watch(
    port: int, path: str, start: float, end: float, tally: Counter[str], waits: list[float]
) -> None:
    """One watching phone: a poll a second from ``start`` to ``end``, on a kept-alive connection."""
    loop = asyncio.get_running_loop()
    etag, at, connection = '"-1"', start, None
    while True:
        await asyncio.sleep(max(0.0, at - loop.time()))
        if loop.time() >= end:
            break
        try:
            if connection is None:
                connection = await asyncio.open_connection("127.0.0.1", port)
            reader, writer = connection
            asked = loop.time()
            request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: {etag}\r\n\r\n"
            writer.write(request.encode())
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            status = head[9:12]
            fields = dict(line.split(": ", 1) for line in head.split("\r\n")[1:] if ": " in line)
            await reader.readexactly(int(fields.get("Content-Length", "0")))
            waits.append(loop.time() - asked)
            tally[status] += 1
            etag = fields.get("ETag", etag)
            if fields.get("Connection", "").lower() == "close":
                writer.close()
                connection = None
        except (OSError, asyncio.IncompleteReadError):
            tally["error"] += 1
            connection = None
        at += POLL_S


def watchers(
    port: int, path: str, count: int, seconds: float, queue: multiprocessing.Queue
) -> None:  # type: ignore[type-arg]
    """Run ``count`` watchers for ``seconds`` (in a process of their own); put what they got,
    and this process's CPU seconds, on ``queue``."""

    async def main() -> tuple[Counter[str], list[float]]:
        loop = asyncio.get_running_loop()
        start = loop.time() + 0.5
        tally: Counter[str] = Counter()
        waits: list[float] = []
        await asyncio.gather(
            *(
                _watch(port, path, start + POLL_S * k / count, start + seconds, tally, waits)
                for k in range(count)
            )
        )
        return tally, waits

    tally, waits = asyncio.run(main())
    times = os.times()
    queue.put((dict(tally), waits, times.user + times.system))


@dataclass
class Run:
    """What one count of watchers measured."""

    watchers: int
    server_cores: float
    """The server's CPU with the watchers alone, less the idle server's."""
    rss_kib: int
    """The workers' memory with the watchers connected, less just before."""
    polls_per_s: float
    fetched: int
    """Polls answered with the whole board (after a move)."""
    p50_ms: float
    p99_ms: float
    errors: int
    client_cores: float
    drills_per_s: float
    alone_per_s: float
    """The drills alone just before."""


@dataclass
class Watched:
    """What ``count`` watchers got over a window, and what the server spent meanwhile."""

    tally: dict[str, int]
    waits: list[float]
    server_cores: float
    client_cores: float
    rss_kib: int
    """The workers' memory at the end, less at the start."""
    drills_per_s: float


def measure_watchers(
    server: int, port: int, path: str, count: int, seconds: float, drilled: Counter[str]
) -> Watched:
    """``count`` watchers for ``seconds`` (the drills of ``drilled`` running beside, or not)."""
    queue: multiprocessing.Queue[tuple[dict[str, int], list[float], float]] = (
        multiprocessing.Queue()
    )
    client = multiprocessing.Process(
        target=watchers, args=(port, path, count, seconds, queue), daemon=True
    )
    memory = rss_kib(server)
    client.start()
    time.sleep(0.5)  # the watchers' first polls start now
    before, answers, started = cpu_seconds(server), drilled["answers"], time.monotonic()
    time.sleep(seconds)
    after, answered = cpu_seconds(server), drilled["answers"] - answers
    elapsed = time.monotonic() - started
    memory = rss_kib(server) - memory  # the watchers still connected
    tally, waits, client_cpu = queue.get(timeout=60)
    client.join()
    cores = sum(after.get(p, 0.0) - before.get(p, 0.0) for p in after) / elapsed
    return Watched(tally, waits, cores, client_cpu / seconds, memory, answered / elapsed)


def percentile(values: list[float], share: float) -> float:
    """The value ``share`` of the way up ``values`` (0 when there are none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def drills_alone(url: str, server: int, args: argparse.Namespace) -> tuple[float, float]:
    """The drills alone: answers a second, and the server's CPU seconds per round trip."""
    before, started = cpu_seconds(server), time.monotonic()
    with drills(url, args.drill_threads) as tally:
        time.sleep(args.seconds)
    after, elapsed = cpu_seconds(server), time.monotonic() - started
    spent = sum(after.get(p, 0.0) - before.get(p, 0.0) for p in after)
    answers = tally["answers"]
    return answers / args.seconds, spent / max(answers, 1) * (args.seconds / elapsed)


def main() -> None:
    """Measure each count of watchers, then print the figures and the watchers held."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--watchers",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[25, 50, 100, 200, 400],
    )
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--drill-threads", type=int, default=2)
    parser.add_argument("--moves", type=int, default=120, help="moves in the watched game's log")
    parser.add_argument("--move-every", type=float, default=3.0, help="seconds between moves")
    parser.add_argument(
        "--rounds", type=int, default=1, help="measure every count so many times (the median)"
    )
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        process = spawn(
            port,
            args.workers,
            Path(folder) / "server",
            "benchmark",
            environment={"CRIB_DEALS_PER_MINUTE": "0", "CRIB_RATELIMIT_ENABLED": "false"},
        )
        url = f"http://127.0.0.1:{port}"
        try:
            keeper = Keeper(url, args.moves)
            path = f"/api/games/{keeper.code}"
            with drills(url, args.drill_threads):  # warm up: every worker's first requests
                time.sleep(2)
            idle_before = cpu_seconds(process.pid)
            time.sleep(3)
            idle_cores = (
                sum(
                    cpu_seconds(process.pid).get(p, 0.0) - idle_before.get(p, 0.0)
                    for p in idle_before
                )
                / 3
            )
            idle_kib = rss_kib(process.pid)
            alone, cpu_per_trip = drills_alone(url, process.pid, args)
            print(
                f"baseline: drills alone {alone:.1f} answers/s, {1000 * cpu_per_trip:.2f} ms of"
                f" server CPU a round trip; idle server {idle_cores:.3f} cores,"
                f" workers {idle_kib / 1024:.1f} MiB"
            )
            stop = threading.Event()
            mover = threading.Thread(target=keeper.run, args=(stop, args.move_every))
            mover.start()
            runs = []
            try:
                for count in [n for _ in range(args.rounds) for n in args.watchers]:
                    just_before, _ = drills_alone(url, process.pid, args)
                    seen = measure_watchers(process.pid, port, path, count, args.seconds, Counter())
                    with drills(url, args.drill_threads) as drilled:
                        beside = measure_watchers(
                            process.pid, port, path, count, args.seconds, drilled
                        )
                    tally = seen.tally
                    runs.append(
                        Run(
                            count,
                            seen.server_cores - idle_cores,
                            seen.rss_kib,
                            sum(v for k, v in tally.items() if k in ("200", "304")) / args.seconds,
                            tally.get("200", 0),
                            1000 * percentile(seen.waits, 0.5),
                            1000 * percentile(seen.waits, 0.99),
                            sum(v for k, v in tally.items() if k not in ("200", "304")),
                            seen.client_cores,
                            beside.drills_per_s,
                            just_before,
                        )
                    )
                    print(f"  {count} watchers measured", flush=True)
            finally:
                stop.set()
                mover.join()
            after, _ = drills_alone(url, process.pid, args)
        finally:
            process.terminate()
            process.wait(timeout=30)
    print(f"drills alone at the end: {after:.1f} answers/s")
    print(
        "watchers  polls/s  fetched  p50 ms  p99 ms  errors  server cores  per watcher"
        "        MiB  KiB/watcher  client cores  drills/s  alone  kept"
    )
    kept_by: dict[int, list[float]] = {}
    per_by: dict[int, list[float]] = {}
    for run in runs:
        kept = run.drills_per_s / run.alone_per_s if run.alone_per_s else 0.0
        per = run.server_cores / run.watchers
        trips = per / cpu_per_trip if cpu_per_trip else 0.0
        kept_by.setdefault(run.watchers, []).append(kept)
        per_by.setdefault(run.watchers, []).append(per)
        print(
            f"{run.watchers:8d}  {run.polls_per_s:7.1f}  {run.fetched:7d}  {run.p50_ms:6.1f}"
            f"  {run.p99_ms:6.1f}  {run.errors:6d}  {run.server_cores:12.3f}"
            f"  {1000 * per:5.2f} ms/s ({trips:.2f} trips)  {run.rss_kib / 1024:5.1f}"
            f"  {run.rss_kib / run.watchers:11.1f}  {run.client_cores:12.3f}"
            f"  {run.drills_per_s:8.1f}  {run.alone_per_s:5.1f}  {100 * kept:3.0f} %"
        )
    held = 0
    if args.rounds > 1:
        print("\nmedians over the rounds:")
    for count, kepts in kept_by.items():
        kept, per = statistics.median(kepts), statistics.median(per_by[count])
        if args.rounds > 1:
            print(
                f"{count:8d} watchers: drills kept {100 * kept:3.0f} %"
                f" ({', '.join(f'{100 * k:.0f}' for k in kepts)}),"
                f" {1000 * per:.2f} ms of server CPU a second a watcher"
            )
        if kept >= TARGET_KEPT:
            held = max(held, count)
    print(
        f"\nwatchers held with the drills keeping >= {100 * TARGET_KEPT:.0f} % of their answers"
        f" a second: {held} (of {', '.join(map(str, args.watchers))} measured)"
    )


if __name__ == "__main__":
    main()
