"""This round's pieces in Chromium, most on a 390×844 phone (issue players2): the count asked at
the hardest pegging level, a whole play pegged card by card, the sprint's best and Play again,
a weak spot one tap from its drill, the home page for a new visitor and after the daily, the
account pages' short addresses, the photo page's fix-up of a typed card, the levels explained,
the discard's words rounding as its table does. Screenshots in tests/e2e/screenshots."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.drills import right_points
from tests.e2e.conftest import PHONE, scroll_width, strict_context
from tests.e2e.readings import side_by_side
from tests.e2e.test_trainer import answer_by_keyboard, goto_drill, look_at_the_cards
from trainer import parse_cards, score_show
from trainer.dealing import Category, Deal, classify, level_words
from trainer.grading import grade
from trainer.items import PLAY_RULE_TEXT, RULE_TEXT
from trainer.progress import WEAK_AFTER

ROOT = Path(__file__).resolve().parents[2]


def tap_number(page: Page, number: int) -> None:
    """Type a number on the page's keypad."""
    for key in str(number):
        page.locator(f'#pad button[data-key="{key}"]').tap()


def no_show_rules(page: Page) -> None:
    """The page shows none of the show's rule sentences."""
    text = page.locator("#feedback").inner_text()
    assert not [rule for rule in RULE_TEXT.values() if rule in text]


def test_the_hardest_pegging_level_asks_the_count(phone: Page, server: str, shots: Path) -> None:
    """Dense pegging: the prompt gives no count; the keypad takes the count, then the pegs;
    a wrong count is named; every rule shown is the play's."""
    page = phone
    drill = goto_drill(page, f"{server}/practice/pegging?difficulty=dense")
    deal = Deal.from_json(drill)
    count = sum(c.value for c in (*deal.cards, deal.played) if c)
    points = sum(i.points for i in deal.peg_items())
    expect(page.locator("#prompt")).to_contain_text("What is the count now")
    expect(page.locator("#prompt")).not_to_contain_text(f"making {count}")
    expect(page.locator("#count-box")).to_be_visible()
    expect(page.locator("#level-help")).to_contain_text(level_words("pegging")["dense"])
    page.screenshot(path=shots / "phone-pegging-count-asked.png")
    look_at_the_cards(page, drill)
    tap_number(page, count + 1)
    page.locator('#pad button[data-key="Enter"]').tap()
    expect(page.locator("#points")).to_be_focused()
    tap_number(page, points)
    page.locator('#pad button[data-key="Enter"]').tap()
    expect(page.locator("#verdict")).to_have_text(
        f"✘ The count is {count}, not {count + 1}; it pegs {points}, as you said"
    )
    kinds = dict.fromkeys(i.kind for i in deal.peg_items())
    expect(page.locator("#rules dd")).to_have_text([PLAY_RULE_TEXT[k] for k in kinds])
    no_show_rules(page)
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "phone-pegging-count.png", full_page=True)


def test_a_play_pegged_card_by_card(phone: Page, server: str, shots: Path) -> None:
    """Every card and go of a play is graded as it is pegged; at the end the whole play."""
    page = phone
    drill = goto_drill(page, f"{server}/practice/play")
    pegs = Deal.from_json(drill).pegs()
    expect(page.locator("#hands .hand-row")).to_have_count(2)
    for n, peg in enumerate(pegs):
        expect(page.locator("#prompt")).to_contain_text(f"Card {n + 1} of {len(pegs)}")
        if peg.card is not None:
            expect(page.locator("#cards .card.just")).to_have_attribute("data-card", str(peg.card))
        page.wait_for_timeout(300)
        wrong = n == 1
        tap_number(page, peg.count + wrong)
        page.locator('#pad button[data-key="Enter"]').tap()
        tap_number(page, peg.points)
        page.locator('#pad button[data-key="Enter"]').tap()
        verdict = page.locator("#verdict")
        expect(verdict).to_have_class("verdict wrong" if wrong else "verdict right")
        if n == 1:
            page.screenshot(path=shots / "phone-play-step.png", full_page=True)
        no_show_rules(page)
        if n < len(pegs) - 1:
            expect(page.locator("#next")).to_contain_text("Next card")
            page.locator("#next").tap()
    expect(page.locator("#say")).to_contain_text(
        f"The play is over: {len(pegs) - 1} of {len(pegs)} right."
    )
    expect(page.locator("#play-table tbody tr")).to_have_count(len(pegs))
    expect(page.locator("#play-table tbody tr.off")).to_have_count(1)
    expect(page.locator("#next")).to_contain_text("Next play")
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "phone-play-out.png", full_page=True)


def test_the_sprint_ends_on_the_best(phone: Page, server: str, shots: Path) -> None:
    """The end of a sprint says whether it was a new best, and Play again starts the next at
    once; the second, worse, says the best to beat."""
    page = phone
    page.clock.install()
    page.goto(f"{server}/sprint")
    with page.expect_response("**/api/drills/next*") as first:
        page.locator("#start").tap()
    drill = first.value.json()
    assert "first=1" in first.value.url
    answer_by_keyboard(page, drill, Deal.from_json(drill).breakdown().total)
    page.clock.run_for(181_000)
    expect(page.locator("#summary-title")).to_have_text("Sprint over: 1 right of 1")
    expect(page.locator("#best")).to_have_text("New best! Your first sprint on the board.")
    expect(page.locator("#again")).to_be_visible()
    page.screenshot(path=shots / "phone-sprint-best.png", full_page=True)
    with page.expect_response("**/api/drills/next*") as again:
        page.locator("#again").tap()
    assert "first=1" in again.value.url
    expect(page.locator("#clock")).to_have_text("3:00")
    expect(page.locator("#summary")).to_be_hidden()
    page.clock.run_for(181_000)
    expect(page.locator("#summary-title")).to_have_text("Sprint over: 0 right of 0")
    expect(page.locator("#best")).to_contain_text("Your best: 1 right (")
    page.reload()
    expect(page.locator("#drill")).to_have_attribute("data-best", "1")


def test_a_weak_spot_is_one_tap_from_its_drill(phone: Page, server: str, shots: Path) -> None:
    """Missed often enough, a category is named on the home page; a tap deals only it."""
    page = phone
    page.goto(server)
    for _ in range(WEAK_AFTER):
        drill = page.request.get(f"{server}/api/drills/next?kind=crib&focus=crib flush").json()
        answer = {"points": 99, "seconds": 3}
        page.request.post(
            f"{server}/api/drills/{drill['id']}/answer",
            data=answer,
            headers={"X-CSRFToken": csrf(page)},
        )
    page.goto(server)
    suggested = page.locator("#suggested")
    expect(suggested).to_contain_text("practise ")
    category = suggested.inner_text().removeprefix("practise ")
    page.screenshot(path=shots / "phone-home-weak.png", full_page=True)
    with page.expect_response("**/api/drills/next*") as dealt:
        suggested.tap()
    assert "focus=" in dealt.value.url
    expect(page.locator("#focus")).to_contain_text(f"Only {category}")
    assert Category(category) in classify(Deal.from_json(dealt.value.json()))
    page.screenshot(path=shots / "phone-weak-drill.png", full_page=True)


def csrf(page: Page) -> str:
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    assert token
    return token


def test_the_home_page_for_a_new_visitor_and_after_the_daily(
    browser: Browser, server: str, shots: Path
) -> None:
    """A first visit is told the challenge is not played yet and the streak is 0; once the
    daily is done its tile says so and when the next comes, in the browser's time zone; a
    player who registered is no longer told to play as a guest; /register leads to the form."""
    context, problems = strict_context(
        browser, viewport=PHONE, has_touch=True, is_mobile=True, timezone_id="America/New_York"
    )
    page = context.new_page()
    page.goto(server)
    expect(page.locator("#standing")).to_contain_text("Today’s challenge: not played yet")
    expect(page.locator("#streak")).to_have_text("0")
    expect(page.locator("#account-hint")).to_contain_text("Play as a guest")
    page.screenshot(path=shots / "phone-home-new.png", full_page=True)
    page.goto(f"{server}/daily")
    expect(page.locator("#cards .card").first).to_be_visible()
    for drill in page.request.get(f"{server}/api/daily").json()["drills"]:
        answer_by_keyboard(page, drill, None if drill["kind"] == "discard" else right_points(drill))
        page.keyboard.press("n")
    expect(page.locator("#summary")).to_be_visible()
    page.goto(server)
    tile = page.locator("#daily-tile")
    expect(tile).to_contain_text("Daily challenge ✔")
    hours = page.evaluate(
        "() => { const n = new Date(); const m = new Date(n); m.setHours(24, 0, 0, 0);"
        " return (m - n) / 3600000; }"
    )
    expected = f"next in {round(hours)} h" if hours >= 1 else "next in "
    expect(tile).to_contain_text(expected)
    page.screenshot(path=shots / "phone-home-daily-done.png", full_page=True)
    page.goto(f"{server}/register")
    page.wait_for_url(f"{server}/auth/register")
    page.fill("#username", "bob")
    page.fill("#password", "cribbage29")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{server}/progress")
    page.goto(server)
    expect(page.locator("#account-hint")).not_to_contain_text("Play as a guest")
    expect(page.locator("#account-hint")).to_contain_text("kept in your account, bob")
    context.close()
    assert problems == []


def test_the_levels_are_explained(phone: Page, server: str, shots: Path) -> None:
    page = phone
    goto_drill(page, f"{server}/practice/hand?difficulty=beginner")
    expect(page.locator("#level-help")).to_have_text(f"beginner: {level_words('hand')['beginner']}")
    page.locator("#level-help").tap()
    expect(page.locator("#levels dt")).to_have_text(["beginner", "standard", "dense"])
    page.screenshot(path=shots / "phone-levels.png")


def test_the_discard_words_round_as_the_table(desktop: Page, server: str) -> None:
    """The verdict's cost is the difference of the two nets the table shows: 11.94 − 9.85 =
    2.09, where the unrounded difference is 2.08 (the deal and its grade, the engine's, are
    served to the page)."""
    page = desktop
    deal = Deal("discard", tuple(parse_cards("4S 10D 9H 3C 6S 10H")), dealer=True)
    verdict = grade(deal, {"discard": ["9H", "6S"]})
    assert f"{verdict.total - verdict.claimed:.2f}" == "2.08"
    drill = {"id": 1, **deal.to_json(), "mode": "practice", "difficulty": "standard"}
    answer = {"id": 1, **verdict.to_json(), "seconds": 2.0, "rule_text": {}}
    page.route("**/api/drills/next*", lambda route: route.fulfill(json=drill))
    page.route("**/api/drills/1/answer", lambda route: route.fulfill(json=answer))
    page.goto(f"{server}/practice/discard")
    expect(page.locator("#cards .card")).to_have_count(6)
    for key in ("3", "5", "Enter"):
        page.keyboard.press(key)
    best = page.locator("table.ev-table tbody tr").first.locator("td").nth(4)
    mine = page.locator("table.ev-table tr.chosen td").nth(4)
    expect(best).to_have_text("11.94")
    expect(mine).to_have_text("9.85")
    expect(page.locator("#verdict")).to_have_text(
        "✘ Costs 2.09 expected points against the best throw"
    )
    expect(page.locator("#say .note")).to_contain_text(" by 2.09 points on average")


PHOTO_ANSWER: dict[str, Any] = {
    "rules": "six-card",
    "image_size": [640, 480],
    "seconds": 0.1,
    "cards": side_by_side(("5H", "5D", "5C", "JS", "5S")),
    "groups": [
        {
            "role": "hand",
            "name": "the hand",
            "cards": [0, 1, 2, 3],
            "box": [40.0, 60.0, 340.0, 110.0],
            "score": None,
            "crib_score": None,
        },
        {
            "role": "starter",
            "name": "the starter",
            "cards": [4],
            "box": [400.0, 60.0, 430.0, 110.0],
            "score": None,
            "crib_score": None,
        },
    ],
    "question": None,
    "left_out": [],
    "note": "",
}


def test_a_card_typed_on_the_photo_page(phone: Page, server: str, shots: Path) -> None:
    """Typing what is not a card says so and draws nothing ("Xundefined" was drawn); a card
    typed over a misread one is the player's, not "100% sure"."""
    page = phone
    page.route("**/api/read", lambda route: route.fulfill(json=PHOTO_ANSWER))
    page.goto(f"{server}/photo")
    page.set_input_files("#image", str(ROOT / "docs" / "sample-hand.jpg"))
    page.locator("#photo-form button[type=submit]").tap()
    hand = page.locator(".group.hand")
    chip = hand.get_by_label("card 5♦ in")
    chip.fill("XX")
    chip.press("Enter")
    expect(page.locator("#question")).to_have_text(
        "“XX” is not a card: type a rank and a suit, like 5H, 10D or QS."
    )
    expect(chip).to_have_class(re.compile(r"\binvalid\b"))
    assert "undefined" not in page.locator("#read").inner_text()
    assert "undefined" not in page.locator("#boxes").inner_html()
    chip.fill("6d")
    chip.press("Enter")
    total = score_show(["5H", "6D", "5C", "JS"], "5S").total
    expect(hand.locator(".group-total")).to_have_text(f" {total}")
    typed = hand.locator(".chip-edit").nth(1)
    expect(typed.locator("small")).to_have_text("typed by you")
    expect(page.locator("#boxes .box[title^='6♦']")).to_have_attribute("title", "6♦ typed by you")
    expect(hand.locator(".chip-edit small").first).to_have_text("97% sure")
    page.screenshot(path=shots / "phone-photo-typed.png", full_page=True)
