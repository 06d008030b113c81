"""Live camera benchmark (issue 19): frames read a second for 1, 2 and 4 live clients, each frame's
time from its capture to its outline on the page, and the drill answers a second another player
keeps meanwhile.

Frames a second are given twice: over the whole window (the time a client holds a reading and
opens its camera again included) and while reading (each client's frames over its time in live
mode, from a run's start to its hold: what a player aiming the phone gets; the target).

The trainer runs as ``crib serve`` runs it (``deploy.local_server.spawn``) on 127.0.0.1. A live
client is a headless Chromium page on ``/photo`` in live mode (whole table) whose fake camera
plays a generated two-player table (``tests/e2e/video.py``); when its reading holds, it goes
straight back to live, so it keeps sending frames. The page measures each frame from its capture
to its outline with ``performance.now()`` (``window.liveStats``). The drill player is
``--drill-threads`` threads dealing and answering hand drills (``GET /api/drills/next``, ``POST
/api/drills/<id>/answer``) as fast as the trainer answers: measured alone, then beside each count
of live clients. Its deals are not limited per minute here (``CRIB_DEALS_PER_MINUTE``), so it
measures the trainer, not the limit; the read limits (per client, and at once) stay on, and
every live client is the same address, 127.0.0.1. Chromium (decoding the fake camera, encoding
each frame) and the drill threads share this machine's cores with the trainer: run it on a quiet
machine.

    python benchmarks/live.py [--seconds 20] [--clients 1,2,4] [--workers 2]

With ``--phones scripted`` a live client is instead a thread that posts the same table, as
the page sends it (960 px long side, JPEG quality 85), to ``/api/read`` as the page does (one
frame in flight, waiting out a 429 or 503's ``Retry-After``): the phones' own work (decoding the
camera, encoding frames, drawing the page), which a phone does on its own chip, then takes
nothing from the trainer's cores, so the drills kept measure what live frames cost the trainer.
Frames a second are then those read (200) a second; there is no page to time an outline on.

Targets: one client >= 4 frames a second; capture to outline median <= 300 ms; with 4 live
clients the drills keep >= 80 % of their answers a second.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from playwright.sync_api import Browser, Page, Response, ViewportSize, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from photo_post import read_request  # noqa: E402  (this folder is on sys.path)

from deploy.local_server import free_port, spawn  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE  # noqa: E402
from tests.e2e.video import SIZE, still_then_pan, table_scene, write_y4m  # noqa: E402

WARM_UP_S = 60
"""Seconds every live client may take to get its first frame read (each worker loads the
card model on its first frame)."""
HELD_POLL_S = 0.2
"""How often a held client is sent back to live."""
BACK_TO_LIVE = """() => {
  const again = document.getElementById("live-again");
  if (!again.hidden) again.click();
}"""
"""Press "Back to live" where the reading holds."""


def drill_player(url: str, stop: threading.Event, tally: Counter[str]) -> None:
    """Deal and answer hand drills as one guest until ``stop``; count answers and refusals."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    while not stop.is_set():
        try:
            with opener.open(f"{url}/api/drills/next?kind=hand", timeout=10) as reply:
                drill = json.load(reply)
            answer = urllib.request.Request(
                f"{url}/api/drills/{drill['id']}/answer",
                data=b'{"points": 4}',
                headers={"Content-Type": "application/json"},
                method="POST",
            )
            opener.open(answer, timeout=10).close()
            tally["answers"] += 1
        except (urllib.error.URLError, TimeoutError):
            tally["errors"] += 1


@contextmanager
def drills(url: str, threads: int) -> Iterator[Counter[str]]:
    """Drill players running for the ``with`` block; the tally of what they got."""
    stop, tally = threading.Event(), Counter[str]()
    players = [
        threading.Thread(target=drill_player, args=(url, stop, tally)) for _ in range(threads)
    ]
    for player in players:
        player.start()
    try:
        yield tally
    finally:
        stop.set()
        for player in players:
            player.join()


@dataclass
class LiveRun:
    """What the live clients measured over one window."""

    clients: int
    frames_per_s: float
    """Frames read a second over the whole window, the time held and reopening the camera
    included."""
    live_frames_per_s: float
    """Frames read a second while reading (each client's frames over its own time in live)."""
    latencies_ms: list[float]
    refusals: Counter[int]
    drill_answers_per_s: float


def open_live(browser: Browser, url: str, refusals: Counter[int]) -> Page:
    """A phone page in live mode on the whole table; its read refusals counted in
    ``refusals`` by status."""
    phone = ViewportSize(width=PHONE["width"], height=PHONE["height"])
    page = browser.new_context(viewport=phone).new_page()

    def count(response: Response) -> None:
        if response.url.endswith("/api/read") and response.status != 200:
            refusals[response.status] += 1

    page.on("response", count)
    page.goto(f"{url}/photo")
    page.locator("#live-start").click()
    page.select_option("#live-mode", "table")
    return page


RESET_STATS = """() => {
  const since = window.liveStats.since === null ? null : performance.now();
  window.liveStats = { frames: 0, latencies: [], liveMs: 0, since };
}"""
"""Start a page's live statistics afresh (a run reading now counts from now)."""
READ_STATS = """() => {
  const stats = window.liveStats;
  const running = stats.since === null ? 0 : performance.now() - stats.since;
  return { ...stats, liveMs: stats.liveMs + running };
}"""
"""A page's live statistics, with the time of the run still reading counted."""


def keep_live(pages: list[Page], seconds: float) -> None:
    """For ``seconds``, send every page whose reading holds back to live."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for page in pages:
            page.evaluate(BACK_TO_LIVE)
        time.sleep(HELD_POLL_S)


def measure(browser: Browser, url: str, clients: int, args: argparse.Namespace) -> LiveRun:
    """Frames, latencies and drill answers over ``args.seconds`` with ``clients`` live pages."""
    refusals: Counter[int] = Counter()
    pages = [open_live(browser, url, refusals) for _ in range(clients)]
    warm_by = time.monotonic() + WARM_UP_S
    while any(page.evaluate("() => window.liveStats.frames") == 0 for page in pages):
        if time.monotonic() > warm_by:
            raise SystemExit(f"a live client read no frame in {WARM_UP_S} s")
        keep_live(pages, 0.5)
    for page in pages:
        page.evaluate(RESET_STATS)
    refusals.clear()
    with drills(url, args.drill_threads) as tally:
        keep_live(pages, args.seconds)
    stats = [page.evaluate(READ_STATS) for page in pages]
    for page in pages:
        page.context.close()
    return LiveRun(
        clients,
        sum(s["frames"] for s in stats) / args.seconds,
        sum(s["frames"] / max(s["liveMs"] / 1000, 1e-9) for s in stats),
        [ms for s in stats for ms in s["latencies"]],
        refusals,
        tally["answers"] / args.seconds,
    )


def scripted_phone(url: str, frame: bytes, stop: threading.Event, tally: Counter[int]) -> None:
    """Post ``frame`` to ``/api/read`` as the live page does until ``stop``: one frame in
    flight, a refusal's ``Retry-After`` waited out; count the answers by status."""
    request = read_request(url, frame, "frame.jpg", "image/jpeg", {"rules": "six-card"})
    while not stop.is_set():
        try:
            urllib.request.urlopen(request, timeout=30).close()
            tally[200] += 1
        except urllib.error.HTTPError as refusal:
            tally[refusal.code] += 1
            stop.wait(float(refusal.headers.get("Retry-After", 1)))
        except (urllib.error.URLError, TimeoutError):
            tally[0] += 1


def measure_scripted(url: str, clients: int, frame: bytes, args: argparse.Namespace) -> LiveRun:
    """Frames read and drill answers over ``args.seconds`` with ``clients`` scripted phones."""
    stop, tally = threading.Event(), Counter[int]()
    phones = [
        threading.Thread(target=scripted_phone, args=(url, frame, stop, tally))
        for _ in range(clients)
    ]
    for phone in phones:
        phone.start()
    warm_by = time.monotonic() + WARM_UP_S
    while tally[200] < clients:  # a frame read a phone: the workers have loaded the model
        if time.monotonic() > warm_by:
            raise SystemExit(f"the scripted phones got {tally[200]} frames read in {WARM_UP_S} s")
        time.sleep(0.1)
    tally.clear()
    with drills(url, args.drill_threads) as drill_tally:
        time.sleep(args.seconds)
        read = tally[200]
    stop.set()
    for phone in phones:
        phone.join()
    refusals = Counter({status: n for status, n in tally.items() if status != 200})
    frames_per_s = read / args.seconds
    answers_per_s = drill_tally["answers"] / args.seconds
    return LiveRun(clients, frames_per_s, frames_per_s, [], refusals, answers_per_s)


def percentile(values: list[float], share: float) -> float:
    """The value ``share`` of the way up ``values``, interpolated as NumPy does (the median of
    an even count is the mean of the middle two); NaN when empty.

    >>> percentile([4.0, 1.0, 3.0, 2.0], 0.5), percentile([float(v) for v in range(1, 11)], 0.9)
    (2.5, 9.1)
    """
    return float(np.percentile(values, 100 * share)) if values else float("nan")


def main() -> None:
    """Measure and print each run, then the targets."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument(
        "--clients", type=lambda text: [int(n) for n in text.split(",")], default=[1, 2, 4]
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--drill-threads", type=int, default=2, help="0: the live clients alone, no drills"
    )
    parser.add_argument(
        "--phones",
        choices=("browser", "scripted"),
        default="browser",
        help="live clients as Chromium pages, or as threads posting frames (see above)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as driver:
        folder = Path(tmp)
        table = table_scene().image
        port = free_port()
        server = spawn(
            port,
            args.workers,
            folder / "server",
            "benchmark",
            environment={"CRIB_DEALS_PER_MINUTE": "1000000"},
        )
        url = f"http://127.0.0.1:{port}"
        browser = None
        if args.phones == "browser":
            video = write_y4m(folder / "table.y4m", still_then_pan(table))
            fake = [
                "--use-fake-ui-for-media-stream",
                "--use-fake-device-for-media-stream",
                f"--use-file-for-fake-video-capture={video}",
            ]
            browser = driver.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS + fake
            )
        try:
            with drills(url, args.drill_threads) as tally:
                time.sleep(args.seconds)
            alone = tally["answers"] / args.seconds
            print(f"drills alone: {alone:.1f} answers/s ({tally['errors']} errors)")
            if browser is None:
                frame = cv2.resize(table, SIZE, interpolation=cv2.INTER_AREA)
                jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
                runs = [measure_scripted(url, n, jpeg, args) for n in args.clients]
            else:
                runs = [measure(browser, url, n, args) for n in args.clients]
        finally:
            if browser is not None:
                browser.close()
            server.terminate()
            server.wait(timeout=30)
    print(
        "clients  frames/s  live frames/s  capture→outline median  p90     drills/s  kept   refused"
    )
    for run in runs:
        kept = f"{100 * run.drill_answers_per_s / alone:4.0f} %" if alone else "   - "
        print(
            f"{run.clients:7d}  {run.frames_per_s:8.2f}  {run.live_frames_per_s:13.2f}"
            f"  {percentile(run.latencies_ms, 0.5):17.0f} ms"
            f"  {percentile(run.latencies_ms, 0.9):5.0f} ms"
            f"  {run.drill_answers_per_s:8.1f}  {kept}"
            f"  {dict(run.refusals) or '-'}"
        )
    by_clients = {run.clients: run for run in runs}
    if 1 in by_clients and by_clients[1].latencies_ms:
        one = by_clients[1]
        print(
            f"\none client: {one.live_frames_per_s:.2f} frames/s while reading (target >= 4);"
            f" {one.frames_per_s:.2f} over the window, holds and camera reopenings included"
        )
        print(
            f"capture to outline, one client: median {percentile(one.latencies_ms, 0.5):.0f} ms"
            " (target <= 300 ms)"
        )
    if 4 in by_clients and alone:
        kept = 100 * by_clients[4].drill_answers_per_s / alone
        print(f"drills kept beside 4 live clients: {kept:.0f} % (target >= 80 %)")


if __name__ == "__main__":
    main()
