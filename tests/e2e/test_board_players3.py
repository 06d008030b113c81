"""What players tripped on keeping a game's score on the board (issue players3, items 3, 5 and
6), in Chromium at phone size: a card the reader is unsure of on a photo of the table, the
board held sideways, and the match between the same players."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, strict_context
from tests.e2e.readings import read_table
from trainer.board import apply, new_game

ROOT = Path(__file__).resolve().parents[2]
SIDEWAYS = {"width": PHONE["height"], "height": PHONE["width"]}
"""A phone held sideways: 844×390."""
BOB, ANN, CRIB, STARTER = "5H 5D 5C KD", "2H 4H 6H 8H", "AC 2C 3C 4D", "5S"
"""A table at the show: the pone's hand (Bob's, K♦ read unsure), the dealer's, the crib."""


def start(page: Page, server: str, names: list[str]) -> str:
    """Set a game up on the page (the first named deals); its code."""
    page.goto(f"{server}/board")
    page.locator(f"input[name=players][value='{len(names)}']").check()
    for seat, name in enumerate(names):
        page.fill(f"input[data-seat='{seat}']", name)
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_url(f"{server}/board/*")
    expect(page.locator("#scores .side")).to_have_count(2 if len(names) != 3 else 3)
    return page.url.rsplit("/", 1)[1]


def test_an_unsure_card_on_the_table_is_confirmed_with_one_tap(
    phone: Page, server: str, shots: Path
) -> None:
    """K♦ read unsure among the 13 cards of the table: the page asks "is it K♦?", one tap on
    the reader's guess takes it, and the show is counted from the photo (item 3)."""
    page = phone
    answer = read_table([BOB, ANN, CRIB, STARTER], {"KD": ["KD", "KH"]})
    page.route("**/api/read", lambda route: route.fulfill(json=answer))
    start(page, server, ["Ann", "Bob"])
    page.set_input_files("#table-photo", str(ROOT / "docs" / "sample-hand.jpg"))
    question = page.locator("#photo-read .question")
    expect(question).to_have_text(
        "The reader is unsure of a card, in a group with 5♥ 5♦ 5♣: is it K♦?"
    )
    expect(page.locator("#photo-read .other-card option")).to_have_count(1 + 52 - 12)
    page.screenshot(path=shots / "phone-board-unsure-card.png", full_page=True)
    page.get_by_role("button", name="it is K♦").tap()
    rows = page.locator("#photo-read .read-group")
    expect(rows).to_have_count(4)
    expect(page.locator("#photo-read")).not_to_contain_text("null")  # the crib is not asked
    bob = rows.filter(has_text="5♥ 5♦ 5♣ K♦")
    expect(bob.locator("select.owner")).to_have_value("1")  # the pone's, counted first
    page.screenshot(path=shots / "phone-board-unsure-confirmed.png", full_page=True)
    page.locator("#count-photo").tap()
    game = new_game({"names": ["Ann", "Bob"]})
    for hand, cards in ((1, BOB), (0, ANN), ("crib", CRIB)):
        move = {"move": "show", "hand": hand, "cards": cards, "starter": STARTER}
        game = apply(game, move | {"source": "photo"})
    expect(page.locator("#log > li")).to_have_count(len(game.log))
    for side, score in enumerate(game.scores):
        expect(page.locator(f"#scores .side[data-side='{side}'] .score")).to_have_text(str(score))
    expect(page.locator("#log")).to_contain_text("hand: 28 (photo: 5♥ 5♦ 5♣ K♦ | 5♠)")
    expect(page.locator("#photo-read")).to_be_hidden()


def test_an_unsure_card_is_changed_to_another(phone: Page, server: str) -> None:
    """The reader's guess is wrong: another card chosen in the picker is counted instead."""
    page = phone
    answer = read_table([BOB, ANN, CRIB, STARTER], {"KD": ["KD"]})
    page.route("**/api/read", lambda route: route.fulfill(json=answer))
    start(page, server, ["Ann", "Bob"])
    page.set_input_files("#table-photo", str(ROOT / "docs" / "sample-hand.jpg"))
    expect(page.locator("#photo-read .choice")).to_have_text(["K♦"])
    page.locator("#photo-read .other-card").select_option("QS")
    expect(page.locator("#photo-read .read-group").filter(has_text="5♥ 5♦ 5♣ Q♠")).to_have_count(1)
    page.locator("#count-photo").tap()
    expect(page.locator("#log")).to_contain_text("hand: 28 (photo: 5♥ 5♦ 5♣ Q♠ | 5♠)")


def in_view(page: Page, selector: str) -> bool:
    """Whether every element ``selector`` finds that is shown lies within the screen."""
    return bool(
        page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)]
                .filter((el) => el.getClientRects().length)
                .map((el) => el.getBoundingClientRect())
                .every((r) => r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth)""",
            selector,
        )
    )


KEEPERS_CONTROLS = (
    "#board, #scores, #seats button, #peg-for, #peg-buttons button, #by-card summary,"
    " .photo-button, #typed-show input, #typed-show button, .deal-row button, .deal-row select"
)
"""What the keeper's phone needs in view: the board, the pegs and the show, the deal's buttons."""


def test_held_sideways_the_board_and_its_buttons_need_no_scrolling(
    browser: Browser, server: str, shots: Path
) -> None:
    """At 844×390 the keeper sees the board, the peg buttons, the show and the deal's buttons
    without scrolling down, in the play and once the crib is counted, with two players and
    three; a watcher sees the whole board (item 5)."""
    context, problems = strict_context(browser, viewport=SIDEWAYS, has_touch=True, is_mobile=True)
    page = context.new_page()
    for names in (["Ann", "Bob", "Cy"], ["Ann", "Bob"]):
        code = start(page, server, names)
        page.screenshot(path=shots / f"sideways-board-{len(names)}-play.png")
        assert in_view(page, KEEPERS_CONTROLS)
    for cards in (BOB, ANN, CRIB):
        moves = page.locator("#log > li").count()
        page.fill("#typed-cards", cards)
        page.fill("#typed-starter", STARTER)
        page.locator("#typed-show button[type=submit]").tap()
        expect(page.locator("#log > li")).to_have_count(moves + 1)
    expect(page.locator("#next-deal")).to_be_visible()
    page.screenshot(path=shots / "sideways-board-deal.png")
    assert in_view(page, KEEPERS_CONTROLS)
    watching, watchers_problems = strict_context(browser, viewport=SIDEWAYS, is_mobile=True)
    watcher = watching.new_page()  # another phone at the table
    watcher.goto(f"{server}/board/{code}")
    expect(watcher.locator("#scores .side")).to_have_count(2)
    watcher.screenshot(path=shots / "sideways-board-watcher.png")
    assert in_view(watcher, "#board, #scores")
    box = watcher.locator("#board").bounding_box()
    assert box is not None and box["width"] > 0.9 * SIDEWAYS["width"] - 40
    watching.close()
    context.close()
    assert problems == watchers_problems == []


def csrf(page: Page) -> str:
    token = page.locator('meta[name="csrf-token"]').get_attribute("content")
    assert token
    return token


def finish(page: Page, server: str, names: list[str], scores: list[int]) -> None:
    """A game between ``names`` kept by this phone, pegged to ``scores`` (the winner's last)."""
    headers = {"X-CSRFToken": csrf(page)}
    game: dict[str, Any] = page.request.post(
        f"{server}/api/games", data={"names": names}, headers=headers
    ).json()
    for seat in sorted(range(len(scores)), key=lambda s: scores[s]):
        while game["sides"][seat]["front"] < scores[seat]:
            points = min(29, scores[seat] - game["sides"][seat]["front"])
            move = {"version": game["version"], "move": "peg", "seat": seat, "points": points}
            game = page.request.post(
                f"{server}/api/games/{game['code']}/moves", data=move, headers=headers
            ).json()
    assert game["phase"] == "over"


def test_the_match_between_the_same_players_is_tallied(
    phone: Page, server: str, shots: Path
) -> None:
    """Ann lurches Bob, Bob wins one and Ann another (with seats the other way round), Ann
    plays Cy once: the board of Ann and Bob's next game says "Ann 3 – Bob 1 (one lurch)", and
    so does the games list, with Ann v Cy's (item 6)."""
    page = phone
    page.goto(f"{server}/board")
    finish(page, server, ["Ann", "Bob"], [121, 80])
    finish(page, server, ["Ann", "Bob"], [100, 121])
    finish(page, server, ["Bob", "Ann"], [95, 121])
    finish(page, server, ["Ann", "Cy"], [110, 121])
    start(page, server, ["Ann", "Bob"])
    expect(page.locator("#match")).to_have_text("Match: Ann 3 – Bob 1 (one lurch)")
    page.screenshot(path=shots / "phone-board-match.png", full_page=True)
    page.goto(f"{server}/board")
    expect(page.locator("#matches li")).to_have_text(
        ["Cy 1 – Ann 0 1 game", "Ann 3 – Bob 1 (one lurch) 3 games"]
    )
    page.screenshot(path=shots / "phone-board-matches.png", full_page=True)
