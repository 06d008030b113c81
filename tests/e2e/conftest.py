"""End-to-end fixtures: the trainer on gunicorn (``web.serve``) in a subprocess, and Chromium.

The browser is Debian's ``/usr/bin/chromium`` driven by Playwright; without it these tests
fail (CI installs it with ``scripts/install-test-deps``), they never skip.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from web.serve import free_port, spawn

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


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The trainer served by ``web.serve.serve`` on 127.0.0.1, with its own SQLite file."""
    port = free_port()
    try:
        process = spawn(port, 2, tmp_path_factory.mktemp("server"), "e2e", timeout=20)
    except RuntimeError as error:
        pytest.fail(str(error))
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


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
