"""The trainer in a real browser: a daily challenge by keyboard, a miss shown on the cards,
registering, progress, and a phone-sized screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from trainer import Kind, score_show
from trainer.dealing import DAILY_KINDS
from trainer.discard import analyze_discards
from trainer.grading import SHOW_KINDS, explain_shortfall
from trainer.pegging import score_peg

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A page on a 390×844 touch phone, closed after the test (pass or fail)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    yield context.new_page()
    context.close()


def goto_drill(page: Page, url: str) -> dict[str, Any]:
    """Open a drill page and return the drill its script was dealt."""
    with page.expect_response("**/api/drills/next*") as dealt:
        page.goto(url)
    drill: dict[str, Any] = dealt.value.json()
    return drill


def scroll_width(page: Page) -> int:
    """How wide the page scrolls (wider than the screen: it scrolls sideways)."""
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


def right_answer(drill: dict[str, Any]) -> int:
    """The engine's count for a hand, crib or pegging drill."""
    if drill["kind"] == "pegging":
        return sum(i.points for i in score_peg(drill["played"], drill["card"]))
    return score_show(drill["hand"], drill["starter"], crib=drill["crib"]).total


def answer_by_keyboard(page: Page, drill: dict[str, Any], points: int | None) -> None:
    """Type a count and Enter, or pick a throw with the number keys and Enter."""
    if drill["kind"] == "discard":
        best = [str(c) for c in analyze_discards(drill["cards"], dealer=drill["dealer"])[0].discard]
        for card in best:
            page.keyboard.press(str(drill["cards"].index(card) + 1))
    else:
        page.keyboard.type(str(points))
    page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_be_visible()


def test_daily_by_keyboard_then_register(browser: Browser, server: str, shots: Path) -> None:
    """Do today's challenge with the keyboard only, miss once, register, see the progress."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.goto(f"{server}/daily")
    expect(page.locator("#cards .card").first).to_be_visible()
    drills = page.request.get(f"{server}/api/daily").json()["drills"]
    assert [d["kind"] for d in drills] == list(DAILY_KINDS)
    missed_once = False
    for n, drill in enumerate(drills):
        expect(page.locator("#step")).to_have_text(f"{n + 1} / {len(drills)}")
        if drill["kind"] == "discard":
            answer_by_keyboard(page, drill, None)
        elif not missed_once and right_answer(drill) >= 2:
            breakdown = score_show(drill["hand"], drill["starter"], crib=drill["crib"])
            answer_by_keyboard(page, drill, breakdown.total - 2)
            expect(page.locator("#verdict")).to_contain_text("you missed 2")
            missed = {c for i in explain_shortfall(breakdown.items, 2) for c in map(str, i.cards)}
            highlighted = page.locator("#cards .card.missed")
            expect(highlighted).to_have_count(len(missed))
            assert {
                highlighted.nth(i).get_attribute("data-card") for i in range(len(missed))
            } == missed
            expect(page.locator("#missed")).to_contain_text("You missed")
            page.screenshot(path=shots / "daily-miss.png")
            missed_once = True
        else:
            answer_by_keyboard(page, drill, right_answer(drill))
            expect(page.locator("#verdict")).to_have_class("verdict right")
        page.keyboard.press("n")
    expect(page.locator("#summary")).to_be_visible()
    assert missed_once
    share = page.locator("#share").inner_text()
    assert f"{len(drills) - 1}/{len(drills)}" in share and "Streak 1" in share
    page.screenshot(path=shots / "daily-summary.png")

    page.goto(f"{server}/auth/register")
    page.fill("#username", "alice")
    page.fill("#password", "cribbage29")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{server}/progress")
    expect(page.locator("#done")).to_have_text(str(len(drills)))
    expect(page.locator("#streak")).to_have_text("1")
    expect(page.locator("svg.chart")).to_have_count(3)
    page.screenshot(path=shots / "progress.png", full_page=True)
    context.close()


def test_phone_practice_by_touch(phone: Page, server: str, shots: Path) -> None:
    """On a 390×844 phone the cards fit, the keypad answers, and nothing scrolls sideways."""
    page = phone
    page.goto(f"{server}/practice/hand")
    cards = page.locator("#cards .card")
    expect(cards).to_have_count(5)
    for i in range(5):
        box = cards.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["width"] >= 56
    page.screenshot(path=shots / "phone-hand.png")
    for key in "99":
        page.locator(f'#pad button[data-key="{key}"]').tap()
    page.locator('#pad button[data-key="Enter"]').tap()
    expect(page.locator("#feedback")).to_be_visible()
    expect(page.locator("#verdict")).to_have_class("verdict wrong")
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "phone-feedback.png", full_page=True)


def test_score_page_on_phone(phone: Page, server: str, shots: Path) -> None:
    """Tap the cards of a dispute, score it, and get a shareable URL with every item."""
    page = phone
    page.goto(f"{server}/score")
    for card in ("5H", "5D", "5C", "JS", "5S"):
        page.locator(f'#picker button[data-card="{card}"]').tap()
    expect(page.locator("#cards")).to_have_value("5H 5D 5C JS")
    expect(page.locator("#starter")).to_have_value("5S")
    page.locator("form.calc button[type=submit]").tap()
    page.wait_for_url("**/score?cards=5H+5D+5C+JS&starter=5S&rules=six-card")
    expect(page.locator(".total strong")).to_have_text("29")
    items = score_show(["5H", "5D", "5C", "JS"], "5S").items
    expect(page.locator(".result .item")).to_have_count(len(items))
    page.locator(".result .item").last.tap()  # his nobs: the jack lifts
    expect(page.locator(".result .card.hl")).to_have_attribute("data-card", "JS")
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "phone-score.png", full_page=True)


def test_phone_pegging_and_discard_by_touch(phone: Page, server: str, shots: Path) -> None:
    """Pegging by the keypad and a discard by tapping two cards, each with its feedback."""
    page = phone
    drill = goto_drill(page, f"{server}/practice/pegging")
    expect(page.locator("#cards .card.just")).to_have_attribute("data-card", drill["card"])
    expect(page.locator("#prompt")).to_contain_text(f"making {drill['count']}.")
    for key in str(right_answer(drill)):
        page.locator(f'#pad button[data-key="{key}"]').tap()
    page.locator('#pad button[data-key="Enter"]').tap()
    expect(page.locator("#verdict")).to_have_class("verdict right")
    page.screenshot(path=shots / "phone-pegging.png", full_page=True)

    drill = goto_drill(page, f"{server}/practice/discard")
    options = analyze_discards(drill["cards"], dealer=drill["dealer"])
    worst = [str(c) for c in options[-1].discard]
    for card in worst:
        page.locator(f'#cards .card[data-card="{card}"]').tap()
    expect(page.locator("#throw")).to_be_enabled()
    page.locator("#throw").tap()
    expect(page.locator("#verdict")).to_contain_text(
        f"{options[0].net_ev - options[-1].net_ev:.3f}".rstrip("0").rstrip(".")
    )
    expect(page.locator("table.ev-table tr.chosen")).to_have_count(1)
    page.screenshot(path=shots / "phone-discard.png", full_page=True)
    assert scroll_width(page) <= PHONE["width"]


def test_sprint_counts_and_misses_cost_time(browser: Browser, server: str, shots: Path) -> None:
    """A right count adds to the tally; a wrong one takes the penalty off the clock."""
    page = browser.new_page()
    drill = goto_drill(page, f"{server}/sprint")
    assert drill["mode"] == "sprint"
    answer_by_keyboard(page, drill, right_answer(drill))
    expect(page.locator("#tally")).to_have_text("1 right")
    with page.expect_response("**/api/drills/next*") as dealt:
        page.keyboard.press("Enter")
    drill = dealt.value.json()
    expect(page.locator("#feedback")).to_be_hidden()
    answer_by_keyboard(page, drill, right_answer(drill) + 1)
    minutes, seconds = page.locator("#clock").inner_text().split(":")
    assert 60 * int(minutes) + int(seconds) <= 180 - 10
    page.screenshot(path=shots / "sprint.png")
    page.close()


def test_photo_read_correct_and_score(
    browser: Browser, phone: Page, server: str, shots: Path, tmp_path: Path
) -> None:
    """Photograph the trainer's own cards, read them with the card reader, fix, and score.

    The photo is a screenshot of a hand drawn by the score page with the starter set apart;
    whatever the reader makes of it, the chips can be corrected and scored by the engine.
    """
    page = browser.new_page(viewport={"width": 1400, "height": 500})
    page.goto(f"{server}/score?cards=5H+5D+5C+JS&starter=5S")
    page.add_style_tag(content=".result .cards { flex-wrap: nowrap } .starter-gap { width: 360px }")
    photo = tmp_path / "hand.png"
    page.locator(".result .cards").screenshot(path=photo)
    page.close()

    page = phone
    page.goto(f"{server}/photo")
    page.set_input_files("#image", photo)
    with page.expect_response("**/api/read") as read:
        page.locator("#photo-form button[type=submit]").tap()
    assert read.value.status == 200, read.value.text()
    found = read.value.json()["cards"]
    assert found, "the reader found no card in the photo"
    expect(page.locator("#boxes .box")).to_have_count(len(found))
    chips = page.locator("#chips .chip-edit")
    expect(chips).to_have_count(len(found))
    if len(found) == 5:  # correct whatever was misread, and say which card is the starter
        for i, card in enumerate(["5H", "5D", "5C", "JS", "5S"]):
            chips.nth(i).locator("input:not([type])").fill(card)
            chips.nth(i).locator("input:not([type])").dispatch_event("change")
        chips.nth(4).locator("input[type=radio]").check()
        page.locator("#rescore").tap()
        expect(page.locator("#photo-total")).to_contain_text("29")
    page.screenshot(path=shots / "phone-photo.png", full_page=True)
    assert scroll_width(page) <= PHONE["width"]


def test_count_by_kind(browser: Browser, server: str, shots: Path) -> None:
    """Counting kind by kind: Tab between the boxes, Enter; the wrong kinds are flagged."""
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    drill = goto_drill(page, f"{server}/practice/hand?difficulty=dense")
    page.check("#bykind")
    points = score_show(drill["hand"], drill["starter"]).points_by_kind()
    claims = [points.get(kind, 0) for kind in SHOW_KINDS]
    claims[0] = max(0, claims[0] - 2)  # two short on fifteens
    expect(page.locator("#by-kind input").first).to_be_focused()
    for n, claim in enumerate(claims):
        page.keyboard.type(str(claim))
        if n < len(claims) - 1:
            page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_be_visible()
    wrong = 1 if points.get(Kind.FIFTEEN, 0) else 0
    expect(page.locator(".kind-table tr.off")).to_have_count(wrong)
    if wrong:
        expect(page.locator(".kind-table tr.off td").first).to_have_text("fifteen")
        expect(page.locator("#cards .card.missed").first).to_be_visible()
    page.screenshot(path=shots / "by-kind.png", full_page=True)
    page.close()
