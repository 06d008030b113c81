"""Turn a :class:`~vision.reader.Reading` into cards, a starter and the score (when it fits).

For ``crib read``: one hand (:func:`summarize`), or the whole table (:func:`read_table`), which
lists the photo answer of :mod:`vision.answer` (``POST /api/read``'s) in the command line's
JSON. The scoring itself is the engine's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from trainer import SIX_CARD, RuleSet, as_card, score_show

if TYPE_CHECKING:
    from vision.grouping import Layout
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
        if len(hand) == size:  # the hand alone: its starter was not in the photo
            result["note"] += ": name the starter with --starter CARD"
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


def summarize_table(reading: Reading, layout: Layout) -> dict[str, Any]:
    """Each group on the table with its cards, its box and its score, as ``crib read`` lists it.

    The scoring is :func:`vision.answer.answer_layout`'s (the photo answer's): a group is
    scored once its starter is known and none of its cards was read with low confidence (while
    the crib is asked, as a hand, with ``crib_score`` where a crib flush differs); ``note``
    says plainly why any group has no score.

    Args:
        reading (Reading): What the reader found.
        layout (Layout): How :func:`vision.grouping.group_cards` grouped it.

    Returns:
        (dict): ``{"rules": "six-card", "groups": [{"role": "hand" | "crib" | "starter" |
        None, "name": "hand 1", "cards": [...], "card_indices": [...], "box": [...] | None,
        "score": {...} | None, "crib_score": {...} | None}], "question": {"kind", "text",
        "choices"} | None, "left_out": [card indices], "note": str}``.
    """
    from vision.answer import answer_layout

    answer = answer_layout(reading, layout)
    read = len(reading.cards)
    groups = [
        {
            **group.to_json(),
            "cards": [str(answer.cards[i].card) for i in group.cards],
            "card_indices": [i for i in group.cards if i < read],  # a typed starter: none
        }
        for group in answer.groups
    ]
    result = answer.to_json()
    return {key: result[key] for key in ("rules", "question", "left_out", "note")} | {
        "groups": groups
    }


def read_table(
    reading: Reading,
    *,
    players: int | None = None,
    rules: RuleSet | None = None,
    starter: str | None = None,
    crib: bool = False,
    crib_card: str | None = None,
) -> dict[str, Any]:
    """Group a reading into the table's groups and summarize them (``crib read --show``).

    Args:
        reading (Reading): What the reader found.
        players (int | None): Players at the table, when known.
        rules (RuleSet | None): The rule set, when named.
        starter (str | None): The starter, when the player names it.
        crib (bool): A lone group is the crib.
        crib_card (str | None): A card of the crib, when the player names it: its group is
            the crib (the answer to "which group is the crib?").

    Returns:
        (dict): As :func:`summarize_table`.

    Raises:
        TableError: For players that make no table or do not fit ``rules``.
        InvalidCardError: For a ``starter`` or ``crib_card`` that is not a card.
    """
    from vision.answer import group_reading

    layout = group_reading(
        reading, players=players, rules=rules, starter=starter, crib=crib, crib_card=crib_card
    )
    return summarize_table(reading, layout)
