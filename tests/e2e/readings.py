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
