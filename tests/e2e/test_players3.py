"""What a new player tripped on in the drills and on the photo page (issue players3, items 7-14),
in Chromium at phone size. The deal and the engine's verdict on it are served to the page where
the test needs one deal; the page's words are checked against the engine's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.e2e.conftest import PHONE, scroll_width
from tests.trainer.test_players3 import DENSE, OFFSETTING, TIED
from trainer.dealing import Deal
from trainer.discard import analyze_discards
from trainer.grading import grade
from trainer.items import RULE_TEXT
from trainer.show import spoken_count


def serve_verdict(page: Page, deal: Deal, answer: dict[str, Any]) -> None:
    """Serve ``deal`` as the next drill and the engine's verdict on ``answer`` to it."""
    drill = {"id": 1, **deal.to_json(), "mode": "practice", "difficulty": "standard"}
    verdict = grade(deal, answer)
    result: dict[str, Any] = {"id": 1, "kind": deal.kind, **verdict.to_json(), "seconds": 2.0}
    if deal.kind in ("hand", "crib"):
        result["say"] = spoken_count(verdict.items)
    result["rule_text"] = {i.kind.value: RULE_TEXT[i.kind] for i in verdict.items}
    page.route("**/api/drills/next*", lambda route: route.fulfill(json=drill))
    page.route("**/api/drills/1/answer", lambda route: route.fulfill(json=result))


def test_a_right_total_counted_by_kind(phone: Page, server: str, shots: Path) -> None:
    """Fifteens 10 and pairs 4 where they are 12 and 2: the total, 18, is right (never "✘ It
    is 18, not 18"), the two kinds are flagged, and the fifteen missed is one of six, no
    fifteen's cards named or marked as the missed one (item 7)."""
    page = phone
    serve_verdict(page, DENSE, {"by_kind": OFFSETTING})
    page.goto(f"{server}/practice/hand")
    page.locator("#bykind").check()
    expect(page.locator("#by-kind")).to_be_visible()
    for kind in ("fifteen", "pair", "run", "flush", "nobs"):
        page.locator(f"#by-kind input[data-kind='{kind}']").fill(str(OFFSETTING.get(kind, 0)))
    page.wait_for_timeout(400)
    page.locator("#by-kind input").last.press("Enter")
    verdict = page.locator("#verdict")
    expect(verdict).to_have_text("✔ Right: 18, but not kind by kind")
    expect(verdict).to_have_class("verdict right")
    expect(page.locator(".kind-table tr.off td:first-child")).to_have_text(["fifteen", "pair"])
    expect(page.locator("#missed .miss")).to_have_text(["one of the 6 fifteens, for 2"])
    expect(page.locator("#cards .card.missed")).to_have_count(0)
    expect(page.locator("#say .note")).to_contain_text("the pair 5♣ 5♥ counted twice?")
    assert scroll_width(page) <= PHONE["width"]
    page.screenshot(path=shots / "phone-by-kind-right-total.png", full_page=True)


def test_throws_alike_at_two_decimals_tie(phone: Page, server: str, shots: Path) -> None:
    """The throw a shade (0.0018) below the best: right, and the words say it ties the best
    at the table's two decimals, never "beats … by 0.00 points" (item 8)."""
    page = phone
    best, rival = analyze_discards(TIED.cards, dealer=False)[:2]
    serve_verdict(page, TIED, {"discard": [str(c) for c in rival.discard]})
    page.goto(f"{server}/practice/discard")
    expect(page.locator("#cards .card")).to_have_count(6)
    page.wait_for_timeout(400)
    for card in rival.discard:
        page.locator(f"#cards .card[data-card='{card}']").tap()
    page.locator("#throw").tap()
    expect(page.locator("#verdict")).to_have_text(
        f"✔ Best throw ({rival.net_ev:.2f} expected points)"
    )
    note = page.locator("#say .note")
    expect(note).to_contain_text("the same to two decimals")
    expect(note).not_to_contain_text("0.00")
    rows = page.locator("table.ev-table tbody tr")
    expect(rows.nth(0).locator("td").last).to_have_text(f"{best.net_ev:.2f}")
    expect(rows.nth(1).locator("td").last).to_have_text(f"{best.net_ev:.2f}")
    page.screenshot(path=shots / "phone-discard-tie.png", full_page=True)
