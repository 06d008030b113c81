"""Live mode on /photo in Chromium with a fake camera playing a generated table: the cards named
and counted while the camera runs, the reading held and fixed like a photo's; and each way it
cannot run (no camera, refused, taken, plain HTTP, a busy or vanished trainer) ends in one
sentence and the file form.

The fake camera is Chromium's own (``--use-fake-device-for-media-stream``) playing a y4m video
of a :mod:`vision.training.synth.table` scene (:mod:`tests.e2e.video`), read by the real reader.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from benchmarks.photo_post import read_request
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, scroll_width, strict_context
from tests.e2e.test_photo import symbol
from tests.e2e.video import still_then_pan, table_scene, write_y4m
from trainer import score_show
from trainer.table import Role
from vision.training.synth.table import TableScene
from web import limits

READ_SECONDS = 60
"""Seconds within which the page must name every card and total (the first frame also loads
the card model in the server's worker): generous, as a slow or busy machine needs (a quiet
one takes under 5)."""
SAY = {
    "insecure": "The camera opens only on a page served over HTTPS",
    "refused": "The camera was not allowed",
    "missing": "No camera was found on this device",
    "taken": "The camera is in use by another app",
    "busy": "The trainer is busy, so the camera reads more slowly",
    "unreachable": "The trainer cannot be reached",
}
"""How each sentence of live.js begins."""


@pytest.fixture(scope="module")
def scene() -> TableScene:
    """A two-player table at the show the reader reads exactly at 960 × 720."""
    return table_scene()


@pytest.fixture(scope="module")
def camera(
    playwright: Playwright, scene: TableScene, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Browser]:
    """Chromium whose camera plays :func:`scene` (3 s still, 2 s panned, in a loop), allowed
    without asking."""
    video = write_y4m(tmp_path_factory.mktemp("camera") / "table.y4m", still_then_pan(scene.image))
    fake = [
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={video}",
    ]
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS + fake)
    yield browser
    browser.close()


def phone_context(browser: Browser) -> tuple[BrowserContext, list[str]]:
    """A phone's context (390 × 844, touch) and its problems, as :func:`strict_context`."""
    return strict_context(browser, viewport=PHONE, has_touch=True, is_mobile=True)


@pytest.fixture
def live(camera: Browser) -> Iterator[Page]:
    """A phone page with the fake camera; fails on any script error or policy violation."""
    context, problems = phone_context(camera)
    yield context.new_page()
    context.close()
    assert problems == []


@pytest.fixture
def refused_live(camera: Browser) -> Iterator[Page]:
    """As :func:`live`, for tests whose reads are refused (the browser logs each refusal)."""
    context, problems = phone_context(camera)
    yield context.new_page()
    context.close()
    assert [p for p in problems if "Failed to load resource" not in p] == []


def expected_lines(scene: TableScene) -> list[tuple[list[str], int]]:
    """Each hand's and the crib's cards as the page writes them, with its score."""
    starter = starter_code(scene)
    return [
        ([symbol(c) for c in cards], score_show(cards, starter, crib=role is Role.CRIB).total)
        for role, cards in scene.groups
        if role is not Role.STARTER
    ]


COUNT_SHOWS = """([lines, starter]) => {
  const shown = [...document.querySelectorAll('#live-count li')].map((li) => ({
    cards: (li.querySelector('.cards') || li).textContent,
    total: (li.querySelector('.total') || {}).textContent,
  }));
  return shown.some((s) => s.cards.includes(starter))
    && lines.every(([cards, total]) => shown.some(
      (s) => cards.every((c) => s.cards.includes(c)) && s.total === String(total)));
}"""
"""Whether the running count names every card and shows each group's total."""


def wait_for_count(page: Page, scene: TableScene) -> None:
    """Wait :data:`READ_SECONDS` for the running count of ``scene`` (:data:`COUNT_SHOWS`), or fail
    saying what the page showed instead."""
    lines, starter = expected_lines(scene), symbol(starter_code(scene))
    try:
        page.wait_for_function(
            COUNT_SHOWS, arg=[lines, starter], polling="raf", timeout=READ_SECONDS * 1000
        )
    except PlaywrightTimeoutError:
        shown = page.evaluate(
            """() => ({
              count: document.getElementById('live-count').textContent,
              said: document.getElementById('live-error').textContent,
              frames: window.liveStats.frames,
            })"""
        )
        pytest.fail(f"the count of {lines} with the starter {starter} never showed: {shown}")


def one_sentence(page: Page, begins: str, *, stopped: bool = True) -> None:
    """The page says one sentence beginning ``begins`` and offers the file form (the camera
    ``stopped``, or still reading more slowly)."""
    error = page.locator("#live-error")
    expect(error).to_contain_text(begins, timeout=10_000)
    text = error.inner_text()
    assert len(re.findall(r"[.!?](\s|$)", text)) == 1, text
    expect(page.locator("#photo-form")).to_be_visible()
    expect(page.locator("#image")).to_be_visible()
    if stopped:
        expect(page.locator("#live")).to_be_hidden()


def test_live_names_counts_holds_and_rescores(
    live: Page, server: str, scene: TableScene, shots: Path
) -> None:
    """Within 20 s the count names every card and each group's total; the reading holds (the
    frame frozen under the result view, the camera off); fixing a chip re-scores it."""
    page = live
    page.goto(f"{server}/photo")
    page.locator("#live-start").tap()
    page.select_option("#live-mode", "table")
    expect(page.locator("#live-video")).to_be_visible()
    wait_for_count(page, scene)
    lines = expected_lines(scene)
    expect(page.locator("#live-again")).to_be_visible(timeout=READ_SECONDS * 1000)
    expect(page.locator("#live")).to_be_hidden()
    assert page.evaluate("() => document.getElementById('live-video').srcObject") is None
    expect(page.locator("#shot")).to_be_visible()
    for cards, _ in lines:
        for card in cards:
            expect(page.locator("#boxes .box", has_text=card)).to_have_count(1)
    totals = sorted(
        int(page.locator(".group .group-total").nth(i).inner_text())
        for i in range(page.locator(".group .group-total").count())
    )
    assert totals == sorted(total for _, total in lines)
    page.evaluate("() => document.getElementById('live-again').scrollIntoView()")
    page.screenshot(path=shots / "phone-live-held.png")
    assert scroll_width(page) <= PHONE["width"]

    cards = next(cards for role, cards in scene.groups if role is Role.HAND)
    on_table = {card for _, group in scene.groups for card in group}
    fixed = next(card for card in ("KS", "QS", "JS", "10S") if card not in on_table)
    chip = page.get_by_label(f"card {symbol(cards[0])} in")
    chip.fill(fixed)
    chip.press("Enter")
    rescored = score_show([fixed, *cards[1:]], starter_code(scene)).total
    hand = page.locator(".group", has=page.get_by_label(f"card {symbol(fixed)} in"))
    expect(hand.locator(".group-total")).to_have_text(f" {rescored}")


def starter_code(scene: TableScene) -> str:
    """The scene's starter card ("6D")."""
    return next(cards[0] for role, cards in scene.groups if role is Role.STARTER)


@pytest.mark.parametrize(
    "failure, sentence",
    [("NotAllowedError", "refused"), ("NotFoundError", "missing"), ("NotReadableError", "taken")],
)
def test_a_camera_that_will_not_open(
    browser: Browser, server: str, failure: str, sentence: str
) -> None:
    """Permission refused, no camera, the camera taken by another app: one sentence each."""
    context, problems = phone_context(browser)
    context.add_init_script(
        "if (navigator.mediaDevices) navigator.mediaDevices.getUserMedia = () =>"
        f" Promise.reject(new DOMException('the browser said no', '{failure}'));"
    )
    page = context.new_page()
    page.goto(f"{server}/photo")
    page.locator("#live-start").tap()
    one_sentence(page, SAY[sentence])
    expect(page.locator("#live-start")).to_be_visible()
    context.close()
    assert problems == []


def test_plain_http_from_another_machine(browser: Browser, server: str) -> None:
    """A page the browser does not deem secure (HTTP, not this machine) has no camera: the page
    says why at once, with no Live button. (Chromium deems every 127.x.y.z address secure, so
    the insecure page is made here as Chromium makes one: no isSecureContext, no
    mediaDevices.)"""
    context, problems = phone_context(browser)
    context.add_init_script(
        "Object.defineProperty(window, 'isSecureContext', { get: () => false });"
        "Object.defineProperty(Navigator.prototype, 'mediaDevices', { get: () => undefined });"
    )
    page = context.new_page()
    page.goto(f"{server}/photo")
    one_sentence(page, SAY["insecure"])
    expect(page.locator("#live-start")).to_be_hidden()
    context.close()
    assert problems == []


@pytest.mark.parametrize("status", [429, 503])
def test_a_busy_trainer_slows_the_camera(refused_live: Page, server: str, status: int) -> None:
    """A 429 or 503 with Retry-After: one sentence and the file form, and the next frame only
    after the wait; reading goes on when the trainer answers again."""
    page = refused_live
    asked: list[float] = []

    def busy(route: Route) -> None:
        asked.append(time.monotonic())
        route.fulfill(status=status, headers={"Retry-After": "2"}, json={"error": "busy"})

    page.route("**/api/read", busy)
    page.goto(f"{server}/photo")
    page.locator("#live-start").tap()
    one_sentence(page, SAY["busy"], stopped=False)
    deadline = time.monotonic() + READ_SECONDS
    while len(asked) < 3 and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    gaps = [later - earlier for earlier, later in itertools.pairwise(asked)]
    assert len(asked) >= 3 and min(gaps) >= 1.9, gaps
    page.unroute("**/api/read")
    expect(page.locator("#live-error")).to_be_hidden(timeout=READ_SECONDS * 1000)
    expect(page.locator("#live-count li").first).to_be_visible()


def test_dim_light_asks_for_the_strict_rule(refused_live: Page, server: str) -> None:
    """Ticking "Dim light" while the camera runs: the frames after it ask ``/api/read`` for the
    strict rule (a card certain only where its face agrees), and the photo form's box follows."""
    page = refused_live
    posted: list[bytes] = []

    def busy(route: Route) -> None:
        posted.append(route.request.post_data_buffer or b"")
        route.fulfill(status=503, headers={"Retry-After": "1"}, json={"error": "busy"})

    page.route("**/api/read", busy)
    page.goto(f"{server}/photo")
    page.locator("#live-start").tap()
    deadline = time.monotonic() + READ_SECONDS
    while not posted and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    page.locator("#live-strict").check()
    strict = b'name="strict"\r\n\r\n1\r\n'
    seen = len(posted)
    while len(posted) < seen + 2 and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert posted and strict not in posted[0] and strict in posted[-1], len(posted)
    page.locator("#live-stop").tap()
    expect(page.locator("#strict")).to_be_checked()


def test_a_vanished_trainer(refused_live: Page, server: str) -> None:
    """The connection drops: one sentence and the file form, never a spinner for ever."""
    page = refused_live
    page.route("**/api/read", lambda route: route.abort())
    page.goto(f"{server}/photo")
    page.locator("#live-start").tap()
    one_sentence(page, SAY["unreachable"], stopped=False)


def test_two_live_clients_and_a_drill_player(
    camera: Browser, server: str, scene: TableScene
) -> None:
    """Two phones reading the table live and a player answering drills meanwhile: the
    drills are answered while the frames are read, and both phones count the whole table
    (frames beyond the server's reading cap are answered 503 and sent again after the wait)."""
    contexts = [phone_context(camera) for _ in range(3)]
    phones = [context.new_page() for context, _ in contexts[:2]]
    for page in phones:
        page.goto(f"{server}/photo")
        page.locator("#live-start").tap()
        page.select_option("#live-mode", "table")
    player = contexts[2][0].request
    for _ in range(3):
        drill = player.get(f"{server}/api/drills/next?kind=hand")
        assert drill.ok, drill.text()
        answer = player.post(f"{server}/api/drills/{drill.json()['id']}/answer", data={"points": 4})
        assert answer.ok and "correct" in answer.json(), answer.text()
    for page in phones:
        wait_for_count(page, scene)
    busy = "the server responded with a status of 503"  # a frame beyond the cap: sent again
    for context, problems in contexts:
        context.close()
        assert [p for p in problems if busy not in p] == []


SERVER_WORKERS = 2
"""Worker processes of the ``server`` fixture, each serving 4 requests at once."""


def post_frame(url: str, frame: bytes, start: threading.Barrier) -> tuple[int, str | None]:
    """Post one JPEG camera frame to ``/api/read`` as the live page does, once every poster is
    ready; the answer's status and ``Retry-After``."""
    request = read_request(url, frame, "frame.jpg", "image/jpeg")
    start.wait(timeout=10)
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, reply.headers.get("Retry-After")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers.get("Retry-After")


def test_frames_beyond_the_cap_are_refused_busy(server: str, scene: TableScene) -> None:
    """More camera frames at once than the server reads at once (its workers times
    ``READS_AT_ONCE``): the frames beyond are answered 503 with ``Retry-After``, and a frame
    sent again after the wait is read.

    What the limit guarantees under any load: frames beyond the cap at once are refused, with a
    busy answer that says when to come back. Which frames of the burst are read depends on the
    machine (on a loaded one the earlier tests' reads may still hold every slot), so a burst
    with none read is followed by one frame sent alone, again after each wait, until read.
    """
    frame = cv2.imencode(".jpg", scene.image)[1].tobytes()
    sent = 4 * SERVER_WORKERS
    assert sent > SERVER_WORKERS * limits.READS_AT_ONCE
    start = threading.Barrier(sent)
    with concurrent.futures.ThreadPoolExecutor(sent) as pool:
        answers = list(pool.map(post_frame, [server] * sent, [frame] * sent, [start] * sent))
    statuses = sorted(status for status, _ in answers)
    assert set(statuses) <= {200, 503} and 503 in statuses, statuses
    assert all(wait == str(limits.BUSY_RETRY_AFTER) for status, wait in answers if status == 503)
    for _ in range(60):  # the busy server reads a frame sent again after the wait
        if 200 in statuses:
            break
        time.sleep(limits.BUSY_RETRY_AFTER)
        statuses = [post_frame(server, frame, threading.Barrier(1))[0]]
    assert 200 in statuses, statuses
