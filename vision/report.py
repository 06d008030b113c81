"""Turn a :class:`~vision.reader.Reading` into cards, a starter and the score (when it fits).

Shared by ``crib read`` and ``POST /api/read``: the scoring itself is the engine's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trainer import SIX_CARD, RuleSet, as_card, score_show

if TYPE_CHECKING:
    from vision.reader import Reading


def summarize(
    reading: Reading,
    starter: str | None = None,
    *,
    crib: bool = False,
    rules: RuleSet = SIX_CARD,
) -> dict[str, Any]:
    """The cards read, the starter and, when exactly a hand (or crib) and a starter, the score.

    Args:
        reading (Reading): What the reader found.
        starter (str | None): The caller's starter. When it is among the cards read it is taken
            from them; otherwise every card read is the hand. ``None``: the card set apart.
        crib (bool): Score as a crib.
        rules (RuleSet): The rule set (how many cards a hand or crib has).

    Returns:
        (dict): ``{"cards": [...], "starter": "5S" | None, "score": {...} | None, "note": str}``.

    Raises:
        InvalidCardError: When ``starter`` is not a card.
    """
    chosen = reading.starter_index
    if starter is not None:
        code = str(as_card(starter))
        matches = [i for i, c in enumerate(reading.cards) if c.card == code and not c.uncertain]
        chosen = matches[0] if matches else None
        turned: str | None = code
    else:
        turned = None if chosen is None else reading.cards[chosen].card
    cards = [
        {
            "card": c.card,
            "confidence": round(c.confidence, 3),
            "box": [round(v, 1) for v in c.box],
            "uncertain": c.uncertain,
            "starter": i == chosen,
        }
        for i, c in enumerate(reading.cards)
    ]
    hand = [c for i, c in enumerate(reading.cards) if i != chosen]
    size = rules.show_size(crib=crib)
    what = "crib" if crib else "hand"
    result: dict[str, Any] = {"cards": cards, "starter": turned, "score": None}
    if turned is None and len(hand) != size + 1:
        plural = "" if len(hand) == 1 else "s"
        result["note"] = f"read {len(hand)} card{plural}; a {what} and its starter are {size + 1}"
    elif turned is None:
        result["note"] = "no card is set apart as the starter: choose one"
    elif len(hand) != size:
        result["note"] = f"read {len(hand)} besides the starter; a {what} has {size} cards"
    elif any(c.uncertain for c in hand) or (chosen is not None and reading.cards[chosen].uncertain):
        result["note"] = "some cards were read with low confidence: check them"
    else:
        breakdown = score_show([c.card for c in hand], turned, crib=crib, rules=rules)
        result["score"] = breakdown.to_json()
        result["note"] = f"{what} scores {breakdown.total}"
    return result
