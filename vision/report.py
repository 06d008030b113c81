"""Turn a :class:`~vision.reader.Reading` into cards, a starter and the score (when it fits).

Shared by ``crib read`` and ``POST /api/read``: the scoring itself is the engine's.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from trainer import SIX_CARD, CribbageError, RuleSet, as_card, score_show
from trainer.table import Group, group_names, score_table

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
    """Each group on the table with its cards, its box and, when it can be scored, its score.

    A group is scored when every role on the table is settled (no question open) and none of
    its cards was read with low confidence; ``note`` says plainly why any group has no score.

    Args:
        reading (Reading): What the reader found.
        layout (Layout): How :func:`vision.grouping.group_cards` grouped it.

    Returns:
        (dict): ``{"rules": "six-card", "groups": [{"role": "hand" | "crib" | "starter" |
        None, "cards": [...], "card_indices": [...], "box": [x1, y1, x2, y2] | None,
        "score": {...} | None}], "question": {"kind", "text", "choices"} | None,
        "left_out": [card indices], "note": str}``.
    """
    codes = [c.card for c in reading.cards]
    groups: list[dict[str, Any]] = [
        {
            "role": g.role.value if g.role else None,
            "cards": [g.typed] if g.typed else [codes[i] for i in g.cards],
            "card_indices": list(g.cards),
            "box": None if g.box is None else [round(v, 1) for v in g.box],
            "score": None,
        }
        for g in layout.groups
    ]
    question = layout.question
    result: dict[str, Any] = {
        "rules": layout.rules.name,
        "groups": groups,
        "question": None if question is None else dataclasses.asdict(question),
        "left_out": list(layout.left_out),
    }
    notes = []
    if layout.left_out:
        shown = " ".join(f"{codes[i]}?" for i in layout.left_out)
        notes.append(f"left out, read with low confidence: {shown}")
    if question is not None:
        result["note"] = "; ".join([question.text, *notes])
        return result
    try:
        table = score_table([Group.of(g["role"], g["cards"]) for g in groups], rules=layout.rules)
    except CribbageError as error:
        result["note"] = "; ".join([f"no score: {error}", *notes])
        return result
    unsure = {i for i, c in enumerate(reading.cards) if c.uncertain}
    for group, score, found in zip(groups, table.scores, layout.groups, strict=True):
        doubtful = [codes[i] for i in found.cards if i in unsure]
        if score is not None and not doubtful:
            group["score"] = score.to_json()
        elif doubtful:
            notes.append(f"check {' '.join(doubtful)}: read with low confidence")
    names = group_names([g.role for g in layout.groups])
    totals = [
        f"{name} scores {g['score']['total']}"
        for name, g in zip(names, groups, strict=True)
        if g["score"] is not None
    ]
    result["note"] = "; ".join([", ".join(totals), *notes] if totals else notes)
    return result


def read_table(
    reading: Reading,
    *,
    players: int | None = None,
    rules: RuleSet | None = None,
    starter: str | None = None,
    crib: bool = False,
    crib_card: str | None = None,
) -> dict[str, Any]:
    """Group a reading into the table's groups and summarize them.

    Used by ``crib read --show`` and ``POST /api/read``.

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
    from vision.grouping import group_cards, mark_crib, table_rules

    count = sum(not c.uncertain for c in reading.cards)
    layout = group_cards(
        reading.cards,
        table_rules(count, players=players, rules=rules),
        starter=starter,
        crib=crib,
        set_apart=reading.starter_index,
    )
    if crib_card is not None:
        layout = mark_crib(layout, reading.cards, crib_card)
    return summarize_table(reading, layout)
