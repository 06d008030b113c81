"""A whole game to 121 kept on the board in Chromium on a phone, watched from a second phone.

The keeper sets up a two-player game, pegs the first deal's play card by card (the pegging
engine scores each card), the later ones with the big buttons, undoes a wrong peg and a move in
the middle of the log, and scores every show from a photo of the whole table: the generator's
tables (``table_scene``), read by the real card reader, the crib named from the dealer's seat.
A photo the reader finds cards missing on is refused with a sentence. The game ends in the
last show, as the pone's hand goes out (the dealer's hand and crib are never counted): the
winner and the lurch are shown on both phones. Every action is mirrored on the rules
(:func:`trainer.board.apply`), which give the scores the pages must show.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, strict_context
from tests.e2e.video import table_scene
from trainer.board import apply, new_game
from trainer.cards import as_card
from trainer.game import Game
from trainer.show import score_show
from trainer.table import Role

SEEDS = [0, 2, 3, 5]
"""Tables of the generator (``spread/seats``) the reader reads exactly, one a deal."""
SHORT_SEED = 9
"""A table whose photo is made a card short (:class:`Table`'s ``hidden``: its corners painted
over), on which the reader finds 12 of the 13 cards."""
WATCH_DELAY_S = 10
"""How soon a watching phone must show a peg, by its own asking (once a second): generous, for
a slow or busy machine; benchmarks/board_watchers.py measures what it costs."""


class Table:
    """A generated table at the show: its photo and its cards, the hands in seat order."""

    def __init__(self, seed: int, hidden: int | None = None) -> None:
        scene = table_scene(seed)
        image = scene.image.copy()
        for label in scene.labels:  # the ``hidden``-th card's corner indices painted over
            if label.card_id == hidden:
                x1, y1, x2, y2 = (round(v) for v in label.box)
                pad = max(x2 - x1, y2 - y1) // 2
                paper = np.median(image[y1:y2, x1:x2].reshape(-1, 3), 0).tolist()
                cv2.rectangle(image, (x1 - pad, y1 - pad), (x2 + pad, y2 + pad), paper, -1)
        self.jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
        groups: dict[Role, list[list[str]]] = {role: [] for role in Role}
        for role, cards in scene.groups:
            groups[role].append([str(c) for c in cards])
        self.hands = groups[Role.HAND]
        self.crib = groups[Role.CRIB][0]
        self.starter = groups[Role.STARTER][0][0]

    def points(self, seat: int) -> int:
        return score_show(self.hands[seat], self.starter).total


def symbols(cards: list[str]) -> set[str]:
    """Cards as the page writes them: "5H" → "5♥"."""
    return {as_card(c).unicode() for c in cards}


class Keeper:
    """The keeper's phone, and the rules the test holds the page to."""

    def __init__(self, page: Page, game: Game) -> None:
        self.page = page
        self.game = game

    def expect_board(self) -> None:
        """The page shows the rules' log and scores."""
        expect(self.page.locator("#log > li")).to_have_count(len(self.game.log), timeout=15000)
        for side, score in enumerate(self.game.scores):
            locator = self.page.locator(f"#scores .side[data-side='{side}'] .score")
            expect(locator).to_have_text(str(score))

    def did(self, move: dict[str, Any]) -> None:
        self.game = apply(self.game, move)
        self.expect_board()

    def peg(self, seat: int, label: str, points: int, reason: str = "", said: str = "") -> None:
        """Peg with a button (``said``: what for, chosen first for a number)."""
        self.page.locator(f"#seats button[data-seat='{seat}']").click()
        if said:
            self.page.select_option("#peg-for", said)
        self.page.locator("#peg-buttons").get_by_role("button", name=label, exact=True).click()
        self.did({"move": "peg", "seat": seat, "points": points, "reason": reason or said})

    def card(self, seat: int, card: str) -> None:
        self.page.locator(f"#seats button[data-seat='{seat}']").click()
        self.page.locator(f"#card-chips button[data-card='{card}']").click()
        self.did({"move": "card", "seat": seat, "card": card})

    def go(self) -> None:
        self.page.locator("#go").click()
        self.did({"move": "go"})

    def play(self, table: Table) -> None:
        """Play both hands card by card as players do: each plays the first card that fits,
        a player who cannot says go and the other plays on; when neither can, Go ends the count
        (one to the last card's player); the last card pegs one for last."""
        self.page.locator("#by-card summary").click()
        hands = {seat: list(table.hands[seat]) for seat in (0, 1)}
        turn, count, last = self.game.pone, 0, self.game.dealer

        def fits(seat: int) -> list[str]:
            return [c for c in hands[seat] if count + as_card(c).value <= 31]

        while hands[0] or hands[1]:
            if fits(turn):
                card = fits(turn)[0]
                hands[turn].remove(card)
                self.card(turn, card)
                count, last = count + as_card(card).value, turn
                count, turn = (0, 1 - last) if count == 31 else (count, 1 - turn)
            elif fits(1 - turn):  # a go: the other plays on
                turn = 1 - turn
            else:  # neither can play: the count ends, one to the last card's player
                self.go()
                count, turn = 0, 1 - last

    def show_from_photo(
        self, table: Table, shots: Path, name: str, claims: dict[int | str, int] | None = None
    ) -> None:
        """Count the hands still due and the crib from the table's photo, in the show's order,
        naming the dealer's crib and whose each hand is (``claims``: what a player claimed)."""
        claims = claims or {}
        page = self.page
        page.set_input_files(
            "#table-photo",
            files=[{"name": f"{name}.jpg", "mimeType": "image/jpeg", "buffer": table.jpeg}],
        )
        dealer = self.game.setup.names[self.game.dealer]
        question = page.locator("#photo-read .question")
        expect(question).to_have_text(
            f"Which group is {dealer}’s crib ({dealer} deals)?", timeout=90000
        )
        page.screenshot(path=shots / f"board-{name}-read.png", full_page=True)
        rows = page.locator("#photo-read .read-group")
        for i in range(rows.count()):
            if symbols(table.crib) == set(rows.nth(i).locator(".mini").inner_text().split()):
                rows.nth(i).locator(".crib-pick").click()
                break
        else:
            raise AssertionError("the crib's cards are not among the groups read")
        expect(page.locator("#photo-read select.owner")).to_have_count(2)
        for i in range(rows.count()):
            row = rows.nth(i)
            if row.locator("select.owner").count():
                shown = set(row.locator(".mini").inner_text().split())
                owner = next(s for s in (0, 1) if symbols(table.hands[s]) == shown)
                row.locator("select.owner").select_option(str(owner))
                if owner in claims:
                    row.locator("input.claimed").fill(str(claims[owner]))
        expect(rows.filter(has_text=f"{dealer}’s crib")).to_have_count(1)
        page.locator("#count-photo").click()
        for target in self.game.show_order[self.game.shown :]:
            cards = table.crib if target == "crib" else table.hands[target]
            self.game = apply(
                self.game,
                {
                    "move": "show",
                    "hand": target,
                    "cards": cards,
                    "starter": table.starter,
                    "source": "photo",
                    **({"claimed": claims[target]} if target in claims else {}),
                },
            )
            if self.game.over:
                break
        self.expect_board()
        expect(page.locator("#photo-read")).to_be_hidden()

    def next_deal(self) -> None:
        self.page.locator("#next-deal").click()
        self.did({"move": "deal"})


def test_a_whole_game_kept_on_a_phone_and_watched_on_another(
    browser: Browser, phone: Page, server: str, shots: Path
) -> None:
    tables = [Table(seed) for seed in SEEDS]
    page = phone
    page.goto(f"{server}/board")
    page.fill("input[data-seat='0']", "Ann")
    page.fill("input[data-seat='1']", "Bob")
    page.select_option("#first-dealer", "0")
    page.select_option("#me", "0")
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_url(f"{server}/board/*")
    keeper = Keeper(page, new_game({"names": ["Ann", "Bob"], "first_dealer": 0}))
    expect(page.locator("#status")).to_have_text("Deal 1 · Ann deals · the play")

    context, problems = strict_context(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    watcher = context.new_page()
    watcher.goto(f"{server}{page.locator('#watch-link').get_attribute('href')}")
    expect(watcher.locator("#game-title")).to_have_text("Ann v Bob")
    expect(watcher.locator("#keep")).to_be_hidden()

    # deal 1: the play card by card, a wrong peg undone, a photo a card short, then the show
    keeper.play(tables[0])
    pegged = [r.reason for r in keeper.game.log if r.points]
    assert pegged, "the play pegged nothing: pick a table whose play scores"
    page.screenshot(path=shots / "board-play.png", full_page=True)
    keeper.peg(1, "6", 6)
    page.locator("#undo").click()
    keeper.did({"move": "undo"})
    page.set_input_files(
        "#table-photo",
        files=[
            {
                "name": "short.jpg",
                "mimeType": "image/jpeg",
                "buffer": Table(SHORT_SEED, hidden=1).jpeg,
            }
        ],
    )
    expect(page.locator("#photo-read .error")).to_contain_text(
        "This photo shows 12 cards; at the show this table has 13: 2 hands of 4, the crib of 4"
        " and the starter.",
        timeout=90000,
    )
    keeper.show_from_photo(tables[0], shots, "deal-1")
    keeper.next_deal()

    # deal 2 (Bob deals): pegs by the buttons, one in the middle of the log undone
    keeper.peg(0, "2", 2)
    keeper.peg(1, "3", 3)
    keeper.peg(0, "Go", 1, "go")
    middle = len(keeper.game.log) - 2
    page.locator(f"#log button.undo-one[data-index='{middle}']").click()
    keeper.did({"move": "undo", "index": middle})
    shown = time.monotonic()  # on the keeper's phone: now on the watcher's within the delay
    for side, score in enumerate(keeper.game.scores):
        expect(watcher.locator(f"#scores .side[data-side='{side}'] .score")).to_have_text(
            str(score), timeout=WATCH_DELAY_S * 1000
        )
    assert time.monotonic() - shown < WATCH_DELAY_S
    expect(watcher.locator("#log > li")).to_have_count(len(keeper.game.log))
    for _ in range(6):
        keeper.peg(0, "6", 6)
    keeper.show_from_photo(tables[1], shots, "deal-2")
    keeper.next_deal()

    # deal 3 (Ann deals)
    for _ in range(5):
        keeper.peg(0, "6", 6)
    keeper.peg(1, "31", 2, "31")
    keeper.peg(0, "2", 2, said="fifteen two")
    keeper.peg(0, "Last card", 1, "last card")
    claim = max(0, tables[2].points(1) - 1)  # Bob claims a point short (no muggins: he gets all)
    keeper.show_from_photo(tables[2], shots, "deal-3", claims={1: claim})
    bob = next(r for r in reversed(keeper.game.log) if r.phase.value == "show" and r.seat == 1)
    if claim < bob.points:  # the log says the cards' count and the claim
        assert f"hand: {bob.points}, claimed {claim} (photo: " in bob.reason
        expect(page.locator("#log > li", has_text=f"claimed {claim} (photo")).to_have_count(1)
    expect(page.locator("#log > li", has_text="Ann +2: fifteen two")).to_have_count(1)
    keeper.next_deal()

    # deal 4 (Bob deals): Ann pegs to her hand's count short of home; her hand goes out first
    final = tables[3]
    hand = final.points(0)
    assert hand > 0, "Ann's last hand must count"
    while keeper.game.scores[0] + hand < 121:
        gap = 121 - hand - keeper.game.scores[0]
        label, points = next((str(p), p) for p in (6, 4, 3, 2, 1) if p <= gap)
        keeper.peg(0, label, points)
    assert keeper.game.scores[0] == 121 - hand and not keeper.game.over
    page.screenshot(path=shots / "board-before-the-last-show.png", full_page=True)
    page.locator("#by-card summary").click()  # closed again: the board and the buttons
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=shots / "board-phone.png")  # README's (docs/board-phone.png)
    keeper.show_from_photo(final, shots, "deal-4")
    result = keeper.game.result
    assert result is not None and result.winner == 0
    assert keeper.game.log[-1].reason.startswith(f"hand: {hand} (photo: ")
    expect(page.locator("#log > li").first).to_contain_text(f"Ann +{hand}: hand: {hand} (photo")
    bob = keeper.game.scores[1]
    lurch = ": a lurch, two games" + (" (a double skunk)" if bob < 61 else "") if bob < 91 else ""
    text = f"Ann won, 121 to {bob}{lurch}"
    assert result.lurch is (bob < 91)
    for screen in (page, watcher):
        expect(screen.locator("#result")).to_have_text(text, timeout=WATCH_DELAY_S * 1000)
        expect(screen.locator("#status")).to_have_text(text)
    expect(page.locator("#show-panel")).to_be_hidden()
    expect(page.locator("#play-panel")).to_be_hidden()
    expect(watcher.locator("#log > li")).to_have_count(len(keeper.game.log))
    page.screenshot(path=shots / "board-over.png", full_page=True)
    watcher.screenshot(path=shots / "board-watcher-over.png", full_page=True)
    watcher.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    watcher.locator("#board-box").scroll_into_view_if_needed()
    watcher.screenshot(path=shots / "board-watcher-sideways.png")
    box = watcher.locator("#board").bounding_box()  # held sideways, the whole board in view
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["width"]
    assert box["width"] > 0.9 * PHONE["height"] - 40
    context.close()
    assert problems == []


def test_three_players_are_named_and_muggins_is_the_default(
    phone: Page, server: str, shots: Path
) -> None:
    """Seats 3 and 4 take names; the form starts with muggins on and says what it means; the
    board's words do not split mid-word on a phone."""
    page = phone
    page.goto(f"{server}/board")
    expect(page.locator("#muggins")).to_be_checked()
    expect(page.locator("#muggins-means")).to_contain_text("the opponent’s to take")
    page.locator("input[name=players][value='3']").check()
    expect(page.locator("input[data-seat='2']")).to_be_visible()
    page.fill("input[data-seat='0']", "Ann")
    page.fill("input[data-seat='1']", "Bob")
    page.fill("input[data-seat='2']", "Eve")
    page.screenshot(path=shots / "board-three-players.png", full_page=True)
    page.locator("#new-game button[type=submit]").click()
    page.wait_for_url(f"{server}/board/*")
    expect(page.locator("#game-title")).to_have_text("Ann v Bob v Eve")
    expect(page.locator("#share")).to_have_css("word-break", "normal")  # "lin / k" no more
    page.locator("#misdeal").click()
    expect(page.locator("#status")).to_contain_text("Deal 2 · Ann deals")
    expect(page.locator("#log")).to_contain_text("a misdeal: Ann deals again")
