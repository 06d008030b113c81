"""End-to-end fixtures: the trainer on gunicorn (``web.serve``) in a subprocess, and Chromium.

The browser is Debian's ``/usr/bin/chromium`` driven by Playwright; without it these tests
fail (CI installs it with ``scripts/install-test-deps``), they never skip.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).parent / "screenshots"
ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The trainer served by ``web.serve.serve`` on 127.0.0.1, with its own SQLite file."""
    port = _free_port()
    folder = tmp_path_factory.mktemp("server")
    env = {
        **os.environ,
        "CRIB_DATABASE_URL": f"sqlite:///{folder / 'trainer.sqlite'}",
        "CRIB_SECRET_KEY": "e2e",
    }
    code = f"from web.serve import serve; serve('127.0.0.1', {port}, 2)"
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(url, timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"the server did not start:\n{(folder / 'server.log').read_text()}")
            time.sleep(0.1)
    yield url
    process.terminate()
    process.wait(timeout=10)
    log.close()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """Playwright's driver."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Headless Debian Chromium; a missing browser is a failure, not a skip."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (scripts/install-test-deps)")
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    """Where screenshots go (git-ignored)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
