"""A hand laid as two overlapping pairs, its starter set apart beside them: the photo page
groups a hand and its starter, not all five cards in one group (issue players2, 3.4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.shared import shared_path
from trainer.table import Role
from vision import MODELS_DIR
from vision.grouping import group_cards
from vision.reader import DetectedCard

PAIRS_AND_STARTER = "data/real-cards/images/edje_train_IMG_2616.jpg"
"""A real photo: Q♣ 9♠ overlapping at the top, 10♦ J♣ overlapping below them, 9♣ apart."""


def card(code: str, x: float, y: float, body: int | None) -> DetectedCard:
    """A card read at one corner, ``(x, y)``, on the stretch of face ``body``."""
    return DetectedCard(code, 0.97, (x, y, x + 12, y + 30), body=body)


def test_the_card_alone_beside_two_pairs_is_the_starter() -> None:
    cards = [
        card("QC", 20, 60, 1),
        card("9S", 150, 165, 1),
        card("10D", 125, 400, 2),
        card("JC", 165, 400, 2),
        card("9C", 320, 290, 3),
    ]
    layout = group_cards(cards)
    assert layout.question is None
    roles = {group.role: sorted(cards[i].card for i in group.cards) for group in layout.groups}
    assert roles == {Role.HAND: ["10D", "9S", "JC", "QC"], Role.STARTER: ["9C"]}


def test_scattered_cards_are_still_asked_about() -> None:
    """Cards each alone, none clearly apart: nothing is guessed, the starter is asked."""
    cards = [
        card("9H", 60, 380, None),
        card("9D", 80, 40, None),
        card("AD", 60, 130, 2),
        card("QD", 200, 330, 3),
        card("AC", 330, 220, 4),
    ]
    layout = group_cards(cards)
    assert layout.question is not None and layout.question.kind == "starter"


@pytest.mark.slow  # the real reader on a real photo
def test_the_real_photo_of_two_pairs_and_a_starter() -> None:
    from vision.answer import answer_photo
    from vision.reader import read_image_bytes

    reading = read_image_bytes(Path(shared_path(PAIRS_AND_STARTER)).read_bytes(), MODELS_DIR)
    answer = answer_photo(reading).to_json()
    groups = [
        (g["role"], [answer["cards"][i]["card"] for i in g["cards"]]) for g in answer["groups"]
    ]
    assert groups == [("hand", ["QC", "10D", "9S", "JC"]), ("starter", ["9C"])]
    assert answer["question"] is None
