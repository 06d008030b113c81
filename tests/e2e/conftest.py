"""End-to-end fixtures: the trainer on gunicorn (``web.serve``) in a subprocess, and Chromium.

The browser is Debian's ``/usr/bin/chromium`` driven by Playwright; without it these tests
fail (CI installs it with ``scripts/install-test-deps``), they never skip.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    Response,
    ViewportSize,
    sync_playwright,
)

from deploy.local_server import free_port, spawn
from web.headers import CONTENT_SECURITY_POLICY

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here drives a browser against a real server: each is marked ``slow``."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The trainer served by ``web.serve`` on 127.0.0.1, with its own SQLite file."""
    port = free_port()
    try:
        process = spawn(port, 2, tmp_path_factory.mktemp("server"), "e2e")
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


PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}


def strict_context(browser: Browser, **options: Any) -> tuple[BrowserContext, list[str]]:
    """A browser context and the list that collects every script error and policy violation
    its pages report, and every page served without the trainer's Content-Security-Policy."""
    context = browser.new_context(**options)
    problems: list[str] = []
    context.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    context.on("weberror", lambda error: problems.append(str(error.error)))

    def check_policy(response: Response) -> None:
        if response.request.resource_type == "document":
            policy = response.headers.get("content-security-policy")
            if policy != CONTENT_SECURITY_POLICY:
                problems.append(f"{response.url} served under {policy!r}")

    context.on("response", check_policy)
    return context, problems


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A page on a 390×844 touch phone; the test fails on any script error or CSP violation."""
    context, problems = strict_context(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    yield context.new_page()
    context.close()
    assert problems == []


@pytest.fixture
def desktop(browser: Browser) -> Iterator[Page]:
    """A page on a 1280×900 screen with a keyboard; fails on any script error or violation."""
    context, problems = strict_context(browser, viewport=DESKTOP)
    yield context.new_page()
    context.close()
    assert problems == []


def scroll_width(page: Page) -> int:
    """How wide the page scrolls (wider than the screen: it scrolls sideways), once its
    stylesheet has loaded (a page's text can be there before it: then a table is as wide as
    unstyled, 730 px on a 390 px phone in one CI run)."""
    page.wait_for_load_state("load")
    return int(page.evaluate("() => document.documentElement.scrollWidth"))
