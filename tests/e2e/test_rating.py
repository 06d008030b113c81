"""The counting rating in Chromium at phone size (issue players3, item 15): a hand counted right
on the phone's keypad moves the rating the home page shows, with its trend, and the progress
page shows it by kind with its chart; nothing scrolls sideways."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.drills import right_points
from tests.e2e.conftest import PHONE, scroll_width
from tests.e2e.test_trainer import goto_drill, look_at_the_cards


def test_a_right_count_on_the_phone_moves_the_rating_on_home_and_progress(
    phone: Page, server: str, shots: Path
) -> None:
    page = phone
    page.goto(server)
    expect(page.locator("#streak")).to_be_visible()
    expect(page.locator("#rating")).to_have_count(0)  # a newcomer is not rated yet
    drill = goto_drill(page, f"{server}/practice/hand")
    look_at_the_cards(page, drill)
    for key in str(right_points(drill)):
        page.locator(f'#pad button[data-key="{key}"]').tap()
    page.locator('#pad button[data-key="Enter"]').tap()
    expect(page.locator("#verdict")).to_have_class("verdict right")
    page.goto(server)
    rating = page.locator("#rating")
    expect(rating).to_have_text(re.compile(r"^\d{4}\?$"))  # provisional after one answer
    assert int(rating.inner_text().rstrip("?")) > 1500
    expect(page.locator("#rating-trend")).to_have_text(re.compile(r"^\(\+\d+ this week\)$"))
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "phone-rating-home.png", full_page=True)
    page.locator('a[href="/progress#ratings"]').tap()
    expect(page.locator('.kind-rating[data-kind="hand"]')).to_have_text(rating.inner_text())
    expect(page.locator("figure.wide svg.chart").first).to_be_visible()
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "phone-rating-progress.png", full_page=True)
