"""Stand-in answers of the card reader, for pages whose photo the tests route (``/api/read``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def side_by_side(cards: Sequence[str]) -> list[dict[str, Any]]:
    """The reader's ``cards`` for ``cards`` read certain, side by side in one row."""
    return [
        {
            "card": c,
            "confidence": 0.97,
            "box": [40.0 + 90 * i, 60.0, 70.0 + 90 * i, 110.0],
            "uncertain": False,
            "choices": [c],
        }
        for i, c in enumerate(cards)
    ]


def read_table(groups: Sequence[str], unsure: dict[str, Sequence[str]]) -> dict[str, Any]:
    """The reader's answer for a photo of the whole table: ``groups`` of cards ("5H 5D 5C KD",
    the hands first, then the crib and the starter beside it) read certain, but for the cards
    of ``unsure``, read with little confidence as their first choice."""
    from tests.web.test_photo import FakeReading, fanned
    from vision.answer import answer_photo

    places = [(100.0, 100.0 + 600 * i) for i in range(len(groups) - 2)] + [
        (420.0, 420.0),
        (360.0, 420.0),
    ]
    cards = [
        card for group, (x, y) in zip(groups, places, strict=True) for card in fanned(group, x, y)
    ]
    for card in cards:
        if card.card in unsure:
            card.uncertain, card.confidence, card.choices = True, 0.4, tuple(unsure[card.card])
    return answer_photo(FakeReading(cards, None), players=len(groups) - 2).to_json()
