"""The photo page in a real browser with the real card reader: a hand alone with the starter
typed, a whole table grouped and scored, fixing a misread, and no message in API words.

The photos are screenshots of the trainer's own cards (the score page draws them), laid out as
a player would lay them on a table, so the reader reads them as it reads a photo.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.e2e.conftest import DESKTOP, PHONE, scroll_width, strict_context
from trainer import score_show

API_WORDS = re.compile(r"'(hand|starter|groups|image|cards)'|\blist\b|JSON|multipart|field|null")
"""What an API message looks like (``give 'hand' as a list of cards``), never shown to players."""

TABLE = {
    "hand 1": ("5H 5D 5C JS", (60, 40)),
    "hand 2": ("2H 4H 6H 8H", (60, 900)),
    "crib": ("AC 2C 3C 4D", (730, 470)),
}
STARTER = ("5S", (700, 470))
ASKED = {"hand 1": "5H 5D 5C JS", "flush": "2H 4H 6H 8H", "crib": "AC 2C 3C 4D"}
"""A table whose crib lies as near the starter as a hand does: the reader asks which is the
crib (the flush is 4 more as a hand than as the crib, with the 5♠ starter)."""
PHONE_FIXUP_HEIGHT = 1400
"""Pixels the fix-up view (the groups, the totals) may take on a phone for a two-player table
(it took 2,591 with a full-width row for each card)."""


REAL_PIP = (
    ".result .card .pip { inset: 0; display: flex; align-items: center; justify-content: center;"
    " padding: 14% 0 0 14%; }"
)
"""The pip in the middle of the card, as on a real card (the page draws it low and right, where
a real card has its second corner index, which the reader would take it for)."""


def symbol(code: str) -> str:
    """A card as the page writes it: "5H" → "5♥"."""
    return code[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[code[-1]]


def cards_picture(browser: Browser, server: str, cards: str) -> np.ndarray:
    """The score page's drawing of ``cards`` side by side, as a BGR image (one card: the
    starter the page draws beside a hand)."""
    # the picture is staged with a style of the test's own, which the page's policy would block
    page = browser.new_page(viewport={"width": 1400, "height": 500}, bypass_csp=True)
    hand, starter = (cards, "KC") if " " in cards else ("AD 2D 3D 4D", cards)
    page.goto(f"{server}/score?cards={hand.replace(' ', '+')}&starter={starter}")
    page.add_style_tag(content=".result .cards { flex-wrap: nowrap }")
    page.add_style_tag(content=REAL_PIP)
    if " " in cards:
        page.add_style_tag(content=".starter-slot { display: none }")
        png = page.locator(".result .cards").screenshot()
    else:
        png = page.locator(".result .card.starter").screenshot()
    page.close()
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None
    return image


def lay_out(parts: list[tuple[np.ndarray, tuple[int, int]]], size: tuple[int, int]) -> np.ndarray:
    """Pictures pasted on a green table of ``size`` (width, height) at their (x, y)."""
    table = np.full((size[1], size[0], 3), (60, 120, 40), np.uint8)
    for picture, (x, y) in parts:
        h, w = picture.shape[:2]
        table[y : y + h, x : x + w] = picture
    return table


@pytest.fixture(scope="module")
def photos(
    browser: Browser, server: str, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Path]:
    """A hand alone, a hand with its starter set apart, and a two-player table at the show."""
    folder = tmp_path_factory.mktemp("photos")
    hand = cards_picture(browser, server, "5H 5D 5C JS")
    starter = cards_picture(browser, server, STARTER[0])
    pictures = {
        "hand": hand,
        "hand-and-starter": lay_out(
            [(hand, (20, 20)), (starter, (hand.shape[1] + 340, 20))],
            (hand.shape[1] + 560, hand.shape[0] + 40),
        ),
        "table": lay_out(
            [(cards_picture(browser, server, cards), at) for cards, at in TABLE.values()]
            + [(starter, STARTER[1])],
            (1800, 1100),
        ),
        "asked": asked_table(browser, server, starter),
    }
    paths = {}
    for name, picture in pictures.items():
        paths[name] = folder / f"{name}.png"
        cv2.imwrite(str(paths[name]), picture)
    return paths


def asked_table(browser: Browser, server: str, starter: np.ndarray) -> np.ndarray:
    """:data:`ASKED` laid out with the starter halfway between the flush and the crib (the
    table turned half a turn about the starter is the same), the other hand above."""
    hand, flush, crib = (cards_picture(browser, server, ASKED[k]) for k in ASKED)
    height, width = flush.shape[:2]
    gap, row = 120, 420
    middle = row + (height - starter.shape[0]) // 2
    at = 60 + width + gap
    return lay_out(
        [
            (hand, (60, 40)),
            (flush, (60, row)),
            (starter, (at, middle)),
            (crib, (at + starter.shape[1] + gap, row)),
        ],
        (2 * (60 + width + gap) + starter.shape[1], row + height + 60),
    )


@pytest.fixture
def messages() -> list[str]:
    """Every message the page showed during a test (filled by :func:`read_photo` and checks)."""
    return []


@pytest.fixture
def failing(browser: Browser) -> Iterator[Page]:
    """A desktop page whose refused requests are expected (a 400 logs "Failed to load
    resource"): only other problems fail the test."""
    context, problems = strict_context(browser, viewport=DESKTOP)
    yield context.new_page()
    context.close()
    assert [p for p in problems if "Failed to load resource" not in p] == []


def shown(page: Page, messages: list[str]) -> None:
    """Collect the messages on the page now (question, error, totals)."""
    for selector in ("#question", "#photo-error", "#table-total"):
        text = page.locator(selector).text_content() or ""
        if text.strip():
            messages.append(text)


def read_photo(page: Page, server: str, photo: Path) -> dict[str, object]:
    """Open /photo, send ``photo``, and return what the reader answered."""
    page.goto(f"{server}/photo")
    page.set_input_files("#image", photo)
    with page.expect_response("**/api/read", timeout=60_000) as read:
        page.locator("#photo-form button[type=submit]").click()
    assert read.value.status == 200, read.value.text()
    answer: dict[str, object] = read.value.json()
    return answer


def test_hand_alone_with_the_starter_typed(
    phone: Page, server: str, photos: dict[str, Path], shots: Path, messages: list[str]
) -> None:
    """Four cards side by side, nothing set apart: the hand, a question for the starter (no
    dead end), the starter typed, and the count with a /score link to share."""
    page = phone
    read_photo(page, server, photos["hand"])
    expect(page.locator("#question")).to_contain_text("Which card is the starter?")
    shown(page, messages)
    expect(page.locator(".group.hand .chip-edit")).to_have_count(4)
    page.fill("#add-card", "5s")
    expect(page.locator("#add-to")).to_have_value("starter")
    page.locator("#add-form button[type=submit]").tap()
    expect(page.locator(".group.hand .group-total")).to_have_text(" 29")
    expect(page.locator("#question")).to_have_text("")
    share = page.locator(".group.hand a.share")
    href = share.get_attribute("href") or ""
    assert href.startswith("/score?") and "starter=5S" in href and "5H+5D+5C+JS" in href
    shown(page, messages)
    page.screenshot(path=shots / "phone-photo-hand-typed-starter.png", full_page=True)
    assert scroll_width(page) <= PHONE["width"]
    share.tap()
    expect(page.locator(".result .total")).to_contain_text("29")
    assert not [m for m in messages if API_WORDS.search(m)]


def test_whole_table(
    desktop: Page, server: str, photos: dict[str, Path], shots: Path, messages: list[str]
) -> None:
    """Two hands, the crib beside the starter: each group drawn on the photo with its score,
    each score the engine's."""
    page = desktop
    answer = read_photo(page, server, photos["table"])
    assert len(answer["cards"]) == 13  # type: ignore[arg-type]
    expect(page.locator("#groups .group")).to_have_count(4)
    expect(page.locator("#boxes .group-box")).to_have_count(4)
    expect(page.locator("#question")).to_have_text("")
    starter = STARTER[0]
    for name, (cards, _) in TABLE.items():
        crib = name == "crib"
        total = score_show(cards.split(), starter, crib=crib).total
        first = page.get_by_label(f"card {symbol(cards.split()[0])} in")
        group = page.locator(".group.crib" if crib else ".group.hand", has=first)
        expect(group.locator(".group-total")).to_have_text(f" {total}")
        expect(page.locator("#boxes .group-box", has_text=f"· {total}").first).to_be_visible()
    expect(page.locator(".group.starter input")).to_have_value(starter)
    shown(page, messages)
    page.screenshot(path=shots / "desktop-photo-table.png", full_page=True)
    assert not [m for m in messages if API_WORDS.search(m)]


def test_fixing_a_misread(
    failing: Page, server: str, photos: dict[str, Path], shots: Path, messages: list[str]
) -> None:
    """Retype a card, delete one, add one, move a card to the starter: re-scored each time
    (a hand short of a card is refused by the server, in players' words)."""
    page = failing
    read_photo(page, server, photos["hand-and-starter"])
    hand = page.locator(".group.hand")
    expect(hand.locator(".group-total")).to_have_text(" 29")
    misread = hand.get_by_label("card 5♦ in")
    misread.fill("6D")
    misread.press("Enter")
    expected = score_show(["5H", "6D", "5C", "JS"], "5S").total
    expect(hand.locator(".group-total")).to_have_text(f" {expected}")
    hand.get_by_role("button", name="delete 6♦").click()
    expect(page.locator("#question")).to_contain_text("the hand has 3 cards")
    shown(page, messages)
    page.fill("#add-card", "5D")
    page.locator("#add-form button[type=submit]").click()
    expect(hand.locator(".group-total")).to_have_text(" 29")
    hand.get_by_role("combobox", name="move J♠").select_option("starter")
    expect(page.locator(".group.starter input")).to_have_value("JS")
    expected = score_show(["5H", "5C", "5D", "5S"], "JS").total
    expect(page.locator(".group.hand .group-total")).to_have_text(f" {expected}")
    shown(page, messages)
    page.screenshot(path=shots / "desktop-photo-fixed.png", full_page=True)
    assert not [m for m in messages if API_WORDS.search(m)]


@pytest.mark.parametrize(
    "status, body, message",
    [
        (413, "", "too large"),
        (500, '{"error": "something went wrong on our side"}', "Something went wrong"),
        (502, "<html>bad gateway</html>", "Something went wrong"),
    ],
)
def test_failures_are_in_players_words(
    failing: Page, server: str, photos: dict[str, Path], status: int, body: str, message: str
) -> None:
    """A photo the server cannot take, or a server failure: a message for players."""
    page = failing

    def refuse(route: Route) -> None:
        route.fulfill(status=status, body=body, content_type="application/json")

    page.route("**/api/read", refuse)
    page.goto(f"{server}/photo")
    page.set_input_files("#image", photos["hand"])
    page.locator("#photo-form button[type=submit]").click()
    error = page.locator("#photo-error")
    expect(error).to_contain_text(message)
    assert not API_WORDS.search(error.text_content() or "")


@pytest.mark.parametrize(
    "answer, message",
    [
        ("abort", "cannot be reached"),  # the connection drops (a server killed, a phone offline)
        ("never", "took too long"),  # the server never answers
    ],
)
def test_a_read_that_gets_no_answer_still_finishes(
    failing: Page, server: str, photos: dict[str, Path], answer: str, message: str
) -> None:
    """No answer, or none in time: the page says so in players' words and can be used again
    (before, it waited for ever, or stopped with nothing shown)."""
    page = failing
    held: list[Route] = []
    page.route(
        "**/api/read", lambda route: route.abort() if answer == "abort" else held.append(route)
    )
    page.goto(f"{server}/photo")
    page.locator("#photo-form").evaluate("form => { form.dataset.waitSeconds = '1'; }")
    page.set_input_files("#image", photos["hand"])
    button = page.locator("#photo-form button[type=submit]")
    button.click()
    if answer == "never":
        expect(page.locator("#photo-status")).to_be_visible()
        expect(button).to_be_disabled()
    error = page.locator("#photo-error")
    expect(error).to_contain_text(message, timeout=10_000)
    expect(button).to_be_enabled()
    expect(page.locator("#photo-status")).to_be_hidden()
    assert not API_WORDS.search(error.text_content() or "")


def totals_table(page: Page) -> dict[str, str]:
    """Who scored what, as the page's table of totals says it: name → points."""
    rows = page.locator("#table-total tr")
    return {
        rows.nth(i).locator("th").inner_text(): rows.nth(i).locator("td").first.inner_text()
        for i in range(rows.count())
    }


def test_every_score_is_shown_before_the_crib_is_named(
    phone: Page, server: str, photos: dict[str, Path], shots: Path, messages: list[str]
) -> None:
    """The crib as near the starter as a hand: the reader asks which is the crib, and every
    group's score is shown at once, the flush's score as the crib beside it."""
    page = phone
    answer = read_photo(page, server, photos["asked"])
    assert answer["question"]["kind"] == "crib"  # type: ignore[index]
    expect(page.locator("#question")).to_contain_text("Which group is the crib?")
    starter = STARTER[0]
    flush = page.locator(".group", has=page.get_by_label(f"card {symbol('2H')} in"))
    crib = page.locator(".group", has=page.get_by_label(f"card {symbol('AC')} in"))
    as_hand = score_show(ASKED["flush"].split(), starter).total
    as_crib = score_show(ASKED["flush"].split(), starter, crib=True).total
    expect(flush.locator(".group-total")).to_have_text(f" {as_hand}")
    expect(flush.locator(".crib-total")).to_have_text(f"{as_crib} if the crib")
    other = score_show(ASKED["crib"].split(), starter).total
    expect(crib.locator(".group-total")).to_have_text(f" {other}")
    expect(crib.locator(".crib-total")).to_have_count(0)
    assert totals_table(page)["group 2"] == str(as_hand)
    shown(page, messages)
    page.screenshot(path=shots / "phone-photo-crib-asked.png", full_page=True)
    assert not [m for m in messages if API_WORDS.search(m)]


def test_naming_the_crib_on_a_phone(
    phone: Page, server: str, photos: dict[str, Path], shots: Path, messages: list[str]
) -> None:
    """Naming the crib makes the other groups hands, without asking; the totals read as a
    table of who scored what; the fix-up view stays compact on a phone."""
    page = phone
    read_photo(page, server, photos["asked"])
    starter = STARTER[0]
    crib = page.locator(".group", has=page.get_by_label(f"card {symbol('AC')} in"))
    crib.get_by_role("combobox", name="what").select_option("crib")
    expect(page.locator("#question")).to_have_text("")
    expect(page.locator(".group.hand")).to_have_count(2)
    expect(page.locator(".group.open")).to_have_count(0)
    expect(page.locator(".crib-total")).to_have_count(0)
    hands = sorted(str(score_show(ASKED[k].split(), starter).total) for k in ("hand 1", "flush"))
    expect(page.locator("#table-total caption")).to_have_text("Who scored what")
    totals = totals_table(page)
    assert sorted(totals) == ["hand 1", "hand 2", "the crib"]
    assert sorted([totals["hand 1"], totals["hand 2"]]) == hands
    assert totals["the crib"] == str(score_show(ASKED["crib"].split(), starter, crib=True).total)
    shown(page, messages)
    page.screenshot(path=shots / "phone-photo-fixup.png", full_page=True)
    fixup = page.locator("#groups").bounding_box()
    assert fixup is not None and fixup["height"] <= PHONE_FIXUP_HEIGHT, fixup
    assert scroll_width(page) <= PHONE["width"]
    assert not [m for m in messages if API_WORDS.search(m)]


def test_an_unsure_card_offers_its_choices(
    desktop: Page, server: str, photos: dict[str, Path]
) -> None:
    """A card read with low confidence: the answer's choices as buttons; picking one settles
    the card and the hand is scored (the reader's answer stood in for)."""
    page = desktop
    box = [10.0, 10.0, 30.0, 40.0]
    answer = {
        "rules": "six-card",
        "image_size": [640, 480],
        "seconds": 0.1,
        "cards": [
            {"card": c, "confidence": 0.99, "box": box, "uncertain": False, "choices": [c]}
            for c in ("5H", "5D", "5C", "5S")
        ]
        + [
            {
                "card": "JS",
                "confidence": 0.5,
                "box": box,
                "uncertain": True,
                "choices": ["JS", "JC"],
            }
        ],
        "groups": [
            {
                "role": "hand",
                "name": "the hand",
                "cards": [0, 1, 2, 4],
                "box": box,
                "score": None,
                "crib_score": None,
            },
            {
                "role": "starter",
                "name": "the starter",
                "cards": [3],
                "box": box,
                "score": None,
                "crib_score": None,
            },
        ],
        "question": None,
        "left_out": [],
        "note": "check JS: read with low confidence",
    }
    page.route("**/api/read", lambda route: route.fulfill(json=answer))
    page.goto(f"{server}/photo")
    page.set_input_files("#image", photos["hand"])
    page.locator("#photo-form button[type=submit]").click()
    expect(page.locator(".group.hand .group-total")).to_have_count(0)
    page.get_by_role("button", name=f"it is {symbol('JS')}").click()
    expect(page.locator(".group.hand .group-total")).to_have_text(" 29")
    expect(page.get_by_role("button", name=f"it is {symbol('JC')}")).to_have_count(0)
