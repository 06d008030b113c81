"""A whole game against the computer to 121 in Chromium on a phone: set up, every discard made
by tapping two cards, every card played and its pegs claimed on the pad, every hand and crib
counted; some claims a point short (the computer takes the point, muggins, shown in the log),
one over the count (refused, shown), the rest right (the engine counts them from the cards on
the page). The game ends with its result and the review, each discard with its drill's link."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from trainer import score_show
from trainer.pegging import score_peg

GAME_TIMEOUT_MS = 10_000
"""How long a move may take to come back drawn, on a busy machine."""
READ_PAGE = """() => {
  const root = document.getElementById("versus");
  const cards = (selector) => [...document.querySelectorAll(selector)].map((c) => c.dataset.card);
  return {
    version: Number(root.dataset.version),
    waiting: root.dataset.waiting,
    hand: cards("#hand .card"),
    playable: cards("#hand .card:not(.unplayable)"),
    pile: cards("#pile .card:not(.starter)"),
    starter: cards("#pile .card.starter")[0] || null,
    prompt: document.getElementById("prompt").textContent,
  };
}"""


def moved(page: Page, seen: int) -> dict[str, Any]:
    """The page once it has drawn the version after ``seen``."""
    page.wait_for_selector(f"#versus[data-version='{seen + 1}']", timeout=GAME_TIMEOUT_MS)
    state: dict[str, Any] = page.evaluate(READ_PAGE)
    return state


def test_a_whole_game_against_the_computer_on_a_phone(
    phone: Page, server: str, shots: Path
) -> None:
    page = phone
    page.goto(f"{server}/play")
    expect(page.locator("#new-versus")).to_be_visible()
    expect(page.locator("#muggins")).to_be_checked()
    expect(page.get_by_text("you keep the count; the cards of the count are shown")).to_be_visible()
    page.screenshot(path=shots / "play-setup.png", full_page=True)
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#versus[data-version='0']")
    state: dict[str, Any] = page.evaluate(READ_PAGE)
    shot: set[str] = set()
    scored = refused = 0
    while state["waiting"] != "over":
        seen = state["version"]
        if state["waiting"] == "discard":
            assert len(state["hand"]) == 6
            for card in state["hand"][:2]:
                page.locator(f"#hand .card[data-card='{card}']").click()
            if "discard" not in shot:
                page.screenshot(path=shots / "play-discard.png", full_page=True)
                shot.add("discard")
            page.locator("#throw").click()
        elif state["waiting"] == "play":
            card = state["playable"][0]
            items = score_peg(state["pile"], card)
            due = sum(i.points for i in items)
            page.locator(f"#hand .card[data-card='{card}']").click()
            expect(page.locator("#claim")).to_be_visible()
            if "play" not in shot and state["pile"]:
                page.screenshot(path=shots / "play-claim.png", full_page=True)
                shot.add("play")
            if due:  # every other card that scores misses an item
                scored += 1
                due -= items[-1].points * (scored % 2)
            page.locator(f"#claims button[data-claim='{due}']").click()
        else:
            crib = state["prompt"].startswith("Your crib")
            shown = score_show(state["hand"], state["starter"], crib=crib)
            due = shown.total
            if not refused:
                page.locator("#count-claim").fill(str(due + 1))
                page.locator("#count-send").click()
                state = moved(page, seen)
                expect(page.locator("#refused")).to_contain_text("over the count: refused")
                page.screenshot(path=shots / "play-refused.png", full_page=True)
                refused, seen = 1, state["version"]
            elif due:
                scored += 1
                due -= shown.items[-1].points * (scored % 2)
            page.locator("#count-claim").fill(str(due))
            if "count" not in shot:
                page.screenshot(path=shots / "play-count.png", full_page=True)
                shot.add("count")
            page.locator("#count-send").click()
        state = moved(page, seen)
        if "muggins" not in shot and page.locator(".log .line.muggins").count():
            page.screenshot(path=shots / "play-muggins.png", full_page=True)
            shot.add("muggins")
    muggins = page.locator(".log .line.muggins").first
    expect(muggins).to_have_text(re.compile(r"Muggins: .+ for \d+, to the computer"))
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result-text")).to_have_text(re.compile(r".* wins 12[1-9]–\d+.*"))
    page.screenshot(path=shots / "play-over.png", full_page=True)
    page.locator("#review-link").click()
    expect(page.locator("#review-summary")).to_contain_text("You gave away")
    expect(page.locator("#review-summary")).to_contain_text("overlooked")
    assert page.locator(".drill-link").count() >= 3
    expect(page.locator("#review-overlooked")).to_contain_text("muggins: to the computer")
    page.screenshot(path=shots / "play-review.png", full_page=True)
    page.locator(".drill-link").first.click()
    expect(page.locator("#cards .card")).to_have_count(6)
