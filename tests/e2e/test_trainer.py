"""The trainer in a real browser: a daily challenge by keyboard, a miss shown on the cards,
registering, progress, counting by kind, the sprint's start, discards as dealer and pone, the
calculators, and a phone-sized screen. Every page runs under a strict Content-Security-Policy
(``script-src 'self'``, no inline scripts or handlers) and must not break it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.drills import right_points
from tests.e2e.conftest import DESKTOP, PHONE, scroll_width, strict_context
from trainer import parse_cards, score_show
from trainer.answers import FASTEST_ANSWER
from trainer.cards import Card
from trainer.dealing import DAILY_KINDS, Deal
from trainer.discard import analyze_discards
from trainer.grading import HEELS_NOTE, SHOW_KINDS, explain_shortfall, grade
from trainer.progress import WEAK_AFTER


def goto_drill(page: Page, url: str) -> dict[str, Any]:
    """Open a drill page and return the drill its script was dealt."""
    with page.expect_response("**/api/drills/next*") as dealt:
        page.goto(url)
    drill: dict[str, Any] = dealt.value.json()
    return drill


def best_throw(drill: dict[str, Any]) -> list[str]:
    """The engine's best two cards to throw from a discard drill."""
    return [str(c) for c in analyze_discards(drill["cards"], dealer=drill["dealer"])[0].discard]


def laid_cards(drill: dict[str, Any]) -> list[str]:
    """The cards the drill page lays for ``drill``, in order."""
    if drill["kind"] in ("hand", "crib"):
        return [*drill["hand"], drill["starter"]]
    if drill["kind"] == "pegging":
        return [*drill["played"], drill["card"]]
    return list(drill["cards"])


def look_at_the_cards(page: Page, drill: dict[str, Any]) -> None:
    """Take as long as a person at least takes before answering: the trainer refuses answers
    given sooner (``records.drills.FASTEST_ANSWER``). The wait starts once the page has laid the
    drill's cards: the page's clock starts then, which may be well after its fetch began."""
    page.wait_for_function(
        "cards => [...document.querySelectorAll('#cards .card')]"
        ".map((c) => c.dataset.card).join() === cards",
        arg=",".join(laid_cards(drill)),
    )
    page.wait_for_timeout(FASTEST_ANSWER * 1000 + 50)


def answer_by_keyboard(page: Page, drill: dict[str, Any], points: int | None) -> None:
    """Type a count and Enter, or pick the best throw with the number keys and Enter."""
    look_at_the_cards(page, drill)
    if drill["kind"] == "discard":
        for card in best_throw(drill):
            page.keyboard.press(str(drill["cards"].index(card) + 1))
    else:
        page.keyboard.type(str(points))
    page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_be_visible()


def test_daily_by_keyboard_then_register(desktop: Page, server: str, shots: Path) -> None:
    """Do today's challenge with the keyboard only, missing two points on the last (dense)
    hand; the options show only on the drills they work on; register; see the progress."""
    page = desktop
    page.goto(f"{server}/daily")
    expect(page.locator("#cards .card").first).to_be_visible()
    drills = page.request.get(f"{server}/api/daily").json()["drills"]
    assert [d["kind"] for d in drills] == list(DAILY_KINDS) and DAILY_KINDS[-1] == "hand"
    for n, drill in enumerate(drills):
        expect(page.locator("#step")).to_have_text(f"{n + 1} / {len(drills)}")
        by_kind_shown = expect(page.locator("#bykind"))
        if drill["kind"] in ("hand", "crib"):
            by_kind_shown.to_be_visible()
            expect(page.locator("#cards .starter-slot .slot-label")).to_have_text("starter")
        else:
            by_kind_shown.to_be_hidden()
        if n == len(drills) - 1:  # the dense hand: seven items or more, so two points to miss
            breakdown = score_show(drill["hand"], drill["starter"], crib=drill["crib"])
            answer_by_keyboard(page, drill, breakdown.total - 2)
            expect(page.locator("#verdict")).to_contain_text("you missed 2")
            missed = {c for i in explain_shortfall(breakdown.items, 2) for c in map(str, i.cards)}
            highlighted = page.locator("#cards .card.missed")
            expect(highlighted).to_have_count(len(missed))
            assert {
                highlighted.nth(i).get_attribute("data-card") for i in range(len(missed))
            } == missed
            expect(page.locator("#missed h3")).to_have_text("You probably missed")
            expect(page.locator("#ask-by-kind button")).to_have_text("Count by kind")
            page.screenshot(path=shots / "daily-miss.png")
        else:
            counted = None if drill["kind"] == "discard" else right_points(drill)
            answer_by_keyboard(page, drill, counted)
            expect(page.locator("#verdict")).to_have_class("verdict right")
        page.keyboard.press("n")
    expect(page.locator("#summary")).to_be_visible()
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
    expect(page.locator("svg.chart")).to_have_count(4)  # the counting rating too
    page.screenshot(path=shots / "progress.png", full_page=True)


def test_phone_practice_by_touch(phone: Page, server: str, shots: Path) -> None:
    """On a 390×844 phone the cards fit, the keypad answers, and nothing scrolls sideways."""
    page = phone
    drill = goto_drill(page, f"{server}/practice/hand")
    cards = page.locator("#cards .card")
    expect(cards).to_have_count(5)
    for i in range(5):
        box = cards.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["width"] >= 56
    expect(page.locator("#cards .starter-slot .card")).to_have_class(re.compile(r"\bstarter\b"))
    expect(page.locator("#cards .starter-slot .slot-label")).to_have_text("starter")
    page.screenshot(path=shots / "phone-hand.png")
    look_at_the_cards(page, drill)
    for key in "99":
        page.locator(f'#pad button[data-key="{key}"]').tap()
    page.locator('#pad button[data-key="Enter"]').tap()
    expect(page.locator("#feedback")).to_be_visible()
    expect(page.locator("#verdict")).to_have_class("verdict wrong")
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "phone-feedback.png", full_page=True)


def test_score_page_on_phone(phone: Page, server: str, shots: Path) -> None:
    """Tap the cards of a dispute, score it, and get a shareable URL with every item and one
    rule line per kind."""
    page = phone
    page.goto(f"{server}/score")
    for card in ("5H", "5D", "5C", "JS", "5S"):
        page.locator(f'#picker button[data-card="{card}"]').tap()
    expect(page.locator("#cards")).to_have_value("5H 5D 5C JS")
    expect(page.locator("#starter")).to_have_value("5S")
    page.locator("form.calc button[type=submit]").tap()
    page.wait_for_url("**/score?cards=5H+5D+5C+JS&starter=5S&rules=six-card")
    expect(page.locator(".total strong")).to_have_text("29")
    breakdown = score_show(["5H", "5D", "5C", "JS"], "5S")
    expect(page.locator(".result .item")).to_have_count(len(breakdown.items))
    expect(page.locator(".result .rules dt")).to_have_count(len(breakdown.points_by_kind()))
    page.locator(".result .item").last.tap()  # his nobs: the jack lifts
    expect(page.locator(".result .card.hl")).to_have_attribute("data-card", "JS")
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "phone-score.png", full_page=True)


def test_picker_follows_the_rules(desktop: Page, server: str) -> None:
    """In five-card cribbage the hand takes three cards before the starter."""
    page = desktop
    page.goto(f"{server}/score")
    page.select_option("select[name=rules]", "five-card")
    for card in ("5H", "5D", "JS", "5C"):
        page.locator(f'#picker button[data-card="{card}"]').click()
    expect(page.locator("#cards")).to_have_value("5H 5D JS")
    expect(page.locator("#starter")).to_have_value("5C")
    expect(page.locator("#picker button.on")).to_have_count(4)


def test_phone_pegging_and_discard_by_touch(phone: Page, server: str, shots: Path) -> None:
    """Pegging by the keypad and a discard by tapping two cards, each with its feedback; the
    options show only where they do something."""
    page = phone
    drill = goto_drill(page, f"{server}/practice/pegging")
    expect(page.locator("#cards .card.just")).to_have_attribute("data-card", drill["card"])
    expect(page.locator("#prompt")).to_contain_text(  # standard: the count before the card
        f"The count is {drill['count_before']}; "
    )
    expect(page.locator("#bykind")).to_have_count(0)
    expect(page.locator("#muggins")).to_be_visible()
    look_at_the_cards(page, drill)
    for key in str(right_points(drill)):
        page.locator(f'#pad button[data-key="{key}"]').tap()
    page.locator('#pad button[data-key="Enter"]').tap()
    expect(page.locator("#verdict")).to_have_class("verdict right")
    page.screenshot(path=shots / "phone-pegging.png", full_page=True)

    drill = goto_drill(page, f"{server}/practice/discard")
    expect(page.locator(".toggles input")).to_have_count(0)
    expect(page.locator("#crib-model")).to_be_visible()
    options = analyze_discards(drill["cards"], dealer=drill["dealer"])
    worst = [str(c) for c in options[-1].discard]
    look_at_the_cards(page, drill)
    for card in worst:
        page.locator(f'#cards .card[data-card="{card}"]').tap()
    expect(page.locator("#throw")).to_be_enabled()
    page.locator("#throw").tap()
    expect(page.locator("#verdict")).to_contain_text(  # the difference of the nets shown
        f"{round(options[0].net_ev, 2) - round(options[-1].net_ev, 2):.2f}"
    )
    expect(page.locator("table.ev-table tr.chosen")).to_have_count(1)
    expect(page.locator("dl.legend dt")).to_have_text(["Hand", "Crib", "Net"])
    page.screenshot(path=shots / "phone-discard.png", full_page=True)
    assert scroll_width(page) <= PHONE["width"]


def test_discard_as_dealer_and_as_pone(desktop: Page, server: str, shots: Path) -> None:
    """The crib column adds as dealer and is shown subtracted as pone, the legend saying so."""
    page = desktop
    seen: dict[bool, dict[str, Any]] = {}
    for _ in range(40):  # each deal is dealer or pone at even odds: deal until both came up
        drill = goto_drill(page, f"{server}/practice/discard")
        answer_by_keyboard(page, drill, None)  # the next visit deals anew, not this one again
        if drill["dealer"] in seen:
            continue
        seen[drill["dealer"]] = drill
        expect(page.locator("#verdict")).to_have_class("verdict right")
        options = analyze_discards(drill["cards"], dealer=drill["dealer"])
        sign, header, whose = (
            ("+", "Crib (+)", "added") if drill["dealer"] else ("−", "Crib (−)", "subtracted")
        )
        expect(page.locator("table.ev-table th").nth(2)).to_have_text(header)
        expect(page.locator("table.ev-table th.graded")).to_have_text("uniform")
        first = page.locator("table.ev-table tbody tr").first.locator("td")
        expect(first.nth(2)).to_have_text(f"{sign}{options[0].crib_ev_uniform:.2f}")
        expect(first.nth(3)).to_have_text(f"{sign}{options[0].crib_ev_weighted or 0:.2f}")
        expect(page.locator("dl.legend")).to_contain_text(whose)
        page.screenshot(path=shots / f"discard-{drill['role']}.png", full_page=True)
        if len(seen) == 2:
            break
    assert set(seen) == {True, False}, "40 deals in a row came up on the same side"


def test_discard_graded_by_the_weighted_crib(desktop: Page, server: str, shots: Path) -> None:
    """Choosing "how players throw" grades by the weighted crib, shows both cribs side by side
    with the weighted one marked, and is remembered on the next visit."""
    page = desktop
    drill = goto_drill(page, f"{server}/practice/discard")
    page.select_option("#crib-model", "weighted")
    options = analyze_discards(drill["cards"], dealer=drill["dealer"], crib_model="weighted")
    look_at_the_cards(page, drill)
    for card in options[0].discard:
        page.keyboard.press(str(drill["cards"].index(str(card)) + 1))
    page.keyboard.press("Enter")
    expect(page.locator("#verdict")).to_have_class("verdict right")
    sign = "+" if drill["dealer"] else "−"
    expect(page.locator("table.ev-table th").nth(2)).to_have_text(f"Crib ({sign})")
    expect(page.locator("table.ev-table th.graded")).to_have_text("weighted")
    first = page.locator("table.ev-table tbody tr").first.locator("td")
    expect(first.nth(2)).to_have_text(f"{sign}{options[0].crib_ev_uniform:.2f}")
    expect(first.nth(3)).to_have_text(f"{sign}{options[0].crib_ev_weighted or 0:.2f}")
    expect(first.nth(4)).to_have_text(f"{options[0].net_ev:.2f}".replace("-", "−"))
    expect(page.locator("dl.legend")).to_contain_text("Graded by the weighted crib")
    page.screenshot(path=shots / "discard-weighted.png", full_page=True)
    goto_drill(page, f"{server}/practice/discard")
    expect(page.locator("#crib-model")).to_have_value("weighted")


def test_sprint_starts_when_the_player_does(desktop: Page, server: str, shots: Path) -> None:
    """Nothing is dealt and the clock stands until Start; then a right count adds to the tally
    and a wrong one takes the penalty off the clock."""
    page = desktop
    dealt: list[str] = []
    page.on("request", lambda r: dealt.append(r.url) if "/api/drills/next" in r.url else None)
    page.goto(f"{server}/sprint")
    expect(page.locator("#start")).to_be_focused()
    page.wait_for_timeout(1500)
    expect(page.locator("#clock")).to_have_text("3:00")
    expect(page.locator("#table")).to_be_hidden()
    assert dealt == []
    page.screenshot(path=shots / "sprint-ready.png")
    with page.expect_response("**/api/drills/next*") as first:
        page.keyboard.press("Enter")
    drill = first.value.json()
    assert drill["mode"] == "sprint"
    expect(page.locator("#start")).to_be_hidden()
    answer_by_keyboard(page, drill, right_points(drill))
    expect(page.locator("#tally")).to_have_text("1 right")
    with page.expect_response("**/api/drills/next*") as second:
        page.keyboard.press("Enter")
    drill = second.value.json()
    expect(page.locator("#feedback")).to_be_hidden()
    answer_by_keyboard(page, drill, right_points(drill) + 1)
    expect(page.locator("#verdict")).to_contain_text("(−10 s)")
    minutes, seconds = page.locator("#clock").inner_text().split(":")
    assert 60 * int(minutes) + int(seconds) <= 180 - 10
    page.screenshot(path=shots / "sprint.png")


def test_count_by_kind(desktop: Page, server: str, shots: Path) -> None:
    """A total alone gives a 'probably' and an offer to count by kind; taking it, the next hand
    is counted kind by kind (Tab between the boxes, Enter) and the wrong kind is flagged."""
    page = desktop
    drill = goto_drill(page, f"{server}/practice/hand?difficulty=dense")
    breakdown = score_show(drill["hand"], drill["starter"])
    answer_by_keyboard(page, drill, breakdown.total - min(i.points for i in breakdown.items))
    expect(page.locator("#missed h3")).to_have_text("You probably missed")
    page.locator("#ask-by-kind button").click()
    expect(page.locator("#bykind")).to_be_checked()

    with page.expect_response("**/api/drills/next*") as dealt:
        page.locator("#next").click()
    drill = dealt.value.json()
    points = score_show(drill["hand"], drill["starter"]).points_by_kind()
    short = next(kind for kind in SHOW_KINDS if points.get(kind, 0))  # dense: some kind scores
    claims = [0 if kind is short else points.get(kind, 0) for kind in SHOW_KINDS]
    expect(page.locator("#by-kind")).to_be_visible()
    expect(page.locator("#by-kind input").first).to_be_focused()
    look_at_the_cards(page, drill)
    for n, claim in enumerate(claims):
        page.keyboard.type(str(claim))
        if n < len(claims) - 1:
            page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#feedback")).to_be_visible()
    expect(page.locator(".kind-table tr.off")).to_have_count(1)
    expect(page.locator(".kind-table tr.off td").first).to_have_text(short.value)
    expect(page.locator("#missed h3")).to_have_text("You missed")
    expect(page.locator("#cards .card.missed").first).to_be_visible()
    expect(page.locator("#ask-by-kind")).to_have_count(0)
    page.screenshot(path=shots / "by-kind.png", full_page=True)


def test_pegging_calculator_with_hands(phone: Page, server: str, shots: Path) -> None:
    """The calculator's own example is a legal play: with both hands the go is found and its
    row says who scores it."""
    page = phone
    page.goto(f"{server}/score/pegging")
    page.locator("#example").tap()
    expect(page.locator("table.pegs tr.go td").nth(1)).to_have_text("go: 1 to P2")
    expect(page.locator(".error")).to_have_count(0)
    expect(page.locator("input[name=pone]")).not_to_have_value("")
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "phone-pegging-calculator.png", full_page=True)


def test_missed_kind_is_marked(desktop: Page, server: str) -> None:
    """Items of the kind the player left out are marked as missed in the breakdown."""
    page = desktop
    drill = goto_drill(page, f"{server}/practice/crib?difficulty=dense")
    breakdown = score_show(drill["hand"], drill["starter"], crib=True)
    answer_by_keyboard(page, drill, 0)
    expect(page.locator("#missed h3")).to_have_text("You missed all of it (marked below)")
    expect(page.locator("#items li.was-missed")).to_have_count(len(breakdown.items))
    kinds = list(dict.fromkeys(i.kind.value for i in breakdown.items))  # each once, in order
    expect(page.locator("#rules dt")).to_have_text(kinds)


GLYPH_BOXES = """() => [...document.querySelectorAll('.card')].map((card) => {
  const box = (element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const r = range.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const c = card.getBoundingClientRect();
  return {
    card: card.dataset.card,
    face: [c.left, c.top, c.right, c.bottom],
    corner: box(card.querySelector('.corner')),
    pip: box(card.querySelector('.pip')),
  };
})"""


def overlap(a: list[float], b: list[float]) -> bool:
    """Whether two boxes (left, top, right, bottom) share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_corner_and_pip_apart_on_a_phone(phone: Page, server: str, shots: Path) -> None:
    """On a phone the corner's rank and suit never run into the large centre pip, for the
    widest suit (hearts: J♥, Q♥) on the score page's cards and on the drills' smaller ones;
    the pip stays inside its card."""
    page = phone
    page.goto(f"{server}/score?cards=JH+QH+5C+KD&starter=AH")
    faces = page.evaluate(GLYPH_BOXES)
    page.screenshot(path=shots / "phone-hearts.png")
    for url in ("/practice/discard", "/practice/pegging", "/practice/hand"):
        goto_drill(page, f"{server}{url}")
        expect(page.locator("#cards .card").first).to_be_visible()
        faces += page.evaluate(GLYPH_BOXES)
    assert len(faces) >= 5 + 6 + 2 + 5
    for face in faces:
        assert not overlap(face["corner"], face["pip"]), face
        left, top, right, bottom = face["face"]
        pip = face["pip"]
        assert left <= pip[0] and top <= pip[1] and pip[2] <= right and pip[3] <= bottom, face


def test_one_point_short_of_a_two_point_crib(desktop: Page, server: str) -> None:
    """Answering 1 on a 2-point crib: the verdict says 1 missed and the list under it does not
    contradict it ('You missed all of it' was shown); the jack starter's heels are noted. The
    deal and its grade (the engine's) are served to the page in place of random ones."""
    page = desktop
    deal = Deal("crib", tuple(parse_cards("7H 8C KD 2S")), starter=Card.parse("JD"))
    verdict = grade(deal, {"points": 1})
    assert (verdict.total, verdict.under) == (2, 1)
    drill = {"id": 1, **deal.to_json(), "mode": "practice", "difficulty": "standard"}
    answer = {"id": 1, **verdict.to_json(), "seconds": 2.0, "rule_text": {}}
    page.route("**/api/drills/next*", lambda route: route.fulfill(json=drill))
    page.route("**/api/drills/1/answer", lambda route: route.fulfill(json=answer))
    page.goto(f"{server}/practice/crib")
    expect(page.locator("#cards .card")).to_have_count(5)
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(page.locator("#verdict")).to_have_text("✘ It is 2, not 1: you missed 1")
    expect(page.locator("#missed h3")).to_have_text(
        "Nothing here is worth exactly 1: you probably miscounted"
    )
    expect(page.locator("#say .note")).to_have_text([HEELS_NOTE])


def test_discard_reason_in_words(desktop: Page, server: str) -> None:
    """After a discard, one sentence says why the best throw is best, from the engine."""
    page = desktop
    drill = goto_drill(page, f"{server}/practice/discard")
    answer_by_keyboard(page, drill, None)
    reason = grade(Deal.from_json(drill), {"discard": best_throw(drill)}).reason
    expect(page.locator("#say .note")).to_have_text([reason] if reason else [])


@pytest.mark.parametrize(("zone", "offset"), [("Pacific/Kiritimati", -840), ("Etc/GMT+12", 720)])
def test_pages_tell_the_trainer_the_browsers_time_zone(
    browser: Browser, server: str, zone: str, offset: int
) -> None:
    """Every page keeps the browser's offset from UTC in a cookie, so that the home page's
    "today" is the day the daily page plays (the browser's date)."""
    context, problems = strict_context(browser, timezone_id=zone)
    context.new_page().goto(f"{server}/score")
    assert {c["name"]: c["value"] for c in context.cookies()}["crib_utc_offset"] == str(offset)
    context.close()
    assert problems == []


def test_home_and_history_after_a_daily(browser: Browser, server: str, shots: Path) -> None:
    """After today's challenge and a missed hand, the home page says the challenge is done with
    its result, the streak, and what to practise next; the history marks today with the result.
    Both fit a phone without scrolling sideways, and are taken on a desktop too."""
    context, problems = strict_context(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(f"{server}/daily")
    expect(page.locator("#cards .card").first).to_be_visible()
    for drill in page.request.get(f"{server}/api/daily").json()["drills"]:
        answer_by_keyboard(page, drill, None if drill["kind"] == "discard" else right_points(drill))
        page.keyboard.press("n")
    expect(page.locator("#summary")).to_be_visible()
    for _ in range(WEAK_AFTER):  # a weak spot is named once answered often enough
        drill = goto_drill(page, f"{server}/practice/hand?focus=nobs")
        answer_by_keyboard(page, drill, right_points(drill) + 1)

    page.goto(server)
    standing = page.locator("#standing")
    expect(standing).to_contain_text(f"Today’s challenge: done, {len(DAILY_KINDS)}/")
    expect(page.locator("#streak")).to_have_text("1")
    expect(page.locator("#suggested")).to_have_attribute(
        "href", re.compile(r"^/practice/\w+\?focus=")
    )
    expect(page.locator("#daily-tile")).to_contain_text("next in")
    expect(standing).to_contain_text("% right so far")
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "home-phone.png", full_page=True)

    page.locator("#standing a", has_text="your history").tap()
    page.wait_for_url(f"{server}/history")
    expect(page.locator("svg.calendar .day.daily")).to_have_count(1)
    expect(page.locator("svg.calendar .day.daily text")).to_have_text(str(len(DAILY_KINDS)))
    expect(page.locator("table.trends svg.spark").first).to_be_visible()
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "history-phone.png", full_page=True)

    wide = browser.new_context(viewport=DESKTOP, storage_state=context.storage_state())
    desk = wide.new_page()
    for name, path in (("home", "/"), ("history", "/history")):
        desk.goto(f"{server}{path}")
        desk.screenshot(path=shots / f"{name}-desktop.png", full_page=True)
    wide.close()
    context.close()
    assert problems == []
