"""What a photo answers: the cards read, the table they make and each group's score, as one model.

``POST /api/read`` returns it for a photo (and the live camera for a frame): the page draws it
as it is. The reader's card strings become :class:`trainer.cards.Card` here, once; everything
after (grouping's roles, the scores) works with them.

A group is scored as soon as its starter is known and none of its cards is doubtful. Before
the player names the crib, a group that may be a hand or the crib is scored as a hand, with its
score as the crib beside it when a crib flush makes them differ
(:func:`trainer.table.score_table`).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from trainer.cards import Card, as_card
from trainer.errors import CribbageError
from trainer.rules import RuleSet
from trainer.show import Breakdown
from trainer.table import Group, Role, group_names, score_table
from vision.grouping import (
    Layout,
    Question,
    group_cards,
    mark_crib,
    table_rules,
    whole_table_instead,
)

if TYPE_CHECKING:
    from vision.reader import Reading

Box = tuple[float, float, float, float]


@dataclasses.dataclass(frozen=True)
class CardRead:
    """One card of the answer: read on the photo, or typed by the player.

    Attributes:
        card (Card): The card (the reader's best reading when it is unsure).
        confidence (float): How sure the reader is, in [0, 1] (1 for a typed card).
        box (Box | None): Its corner index on the photo in pixels; ``None`` when typed.
        uncertain (bool): Read with too little confidence to count without the player.
        choices (tuple[Card, ...]): What it may be, best first (``card`` first).
    """

    card: Card
    confidence: float
    box: Box | None
    uncertain: bool
    choices: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"card": "5H", "confidence": 0.97, "box": [x1, y1, x2, y2] | None, ...}``."""
        return {
            "card": str(self.card),
            "confidence": round(self.confidence, 3),
            "box": None if self.box is None else [round(v, 1) for v in self.box],
            "uncertain": self.uncertain,
            "choices": [str(c) for c in self.choices],
        }


@dataclasses.dataclass(frozen=True)
class GroupRead:
    """A group on the table: its role, its cards and its score.

    Attributes:
        role (Role | None): Hand, crib or starter; ``None`` while the player is asked.
        name (str): What players call it ("hand 1", "the crib"; "group 2" while its role is
            asked, numbered among all the groups as the photo page and ``crib read`` number it).
        cards (tuple[int, ...]): Indices into the answer's cards.
        box (Box | None): Around its cards on the photo; ``None`` for a typed starter.
        score (Breakdown | None): Its score (as a hand while its role is asked about);
            ``None`` for the starter, an unknown starter or a doubtful card.
        crib_score (Breakdown | None): Its score as the crib, while the player is asked
            whether it is the crib and the crib flush rule makes that differ.
    """

    role: Role | None
    name: str
    cards: tuple[int, ...]
    box: Box | None
    score: Breakdown | None = None
    crib_score: Breakdown | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"role": "hand" | None, "name": "hand 1", "cards": [0, 1], "box", "score", ...}``."""
        return {
            "role": None if self.role is None else self.role.value,
            "name": self.name,
            "cards": list(self.cards),
            "box": None if self.box is None else [round(v, 1) for v in self.box],
            "score": None if self.score is None else self.score.to_json(),
            "crib_score": None if self.crib_score is None else self.crib_score.to_json(),
        }


@dataclasses.dataclass(frozen=True)
class TableAnswer:
    """A photo's answer: its cards, its groups with their scores and what is still asked.

    Attributes:
        cards (tuple[CardRead, ...]): Every card read, then a typed starter.
        groups (tuple[GroupRead, ...]): Hands, the crib, then the starter.
        rules (RuleSet): The rule set the groups' sizes and scores come from.
        question (Question | None): What the player must settle before every group counts.
        left_out (tuple[int, ...]): Doubtful readings (card indices) no group needs.
        note (str): The answer in a line of players' words.
        image_size (tuple[int, int]): The photo's width and height in pixels.
        seconds (float): The time reading took.
    """

    cards: tuple[CardRead, ...]
    groups: tuple[GroupRead, ...]
    rules: RuleSet
    question: Question | None
    left_out: tuple[int, ...]
    note: str
    image_size: tuple[int, int]
    seconds: float

    def to_json(self) -> dict[str, Any]:
        """The answer as ``POST /api/read`` sends it (see :data:`web.openapi.SCHEMAS`)."""
        return {
            "rules": self.rules.name,
            "image_size": list(self.image_size),
            "seconds": round(self.seconds, 3),
            "cards": [c.to_json() for c in self.cards],
            "groups": [g.to_json() for g in self.groups],
            "question": None if self.question is None else dataclasses.asdict(self.question),
            "left_out": list(self.left_out),
            "note": self.note,
        }


def group_reading(
    reading: Reading,
    *,
    players: int | None = None,
    rules: RuleSet | None = None,
    starter: str | None = None,
    crib: bool = False,
    crib_card: str | None = None,
) -> Layout:
    """Group a reading into the table's hands, crib and starter (:mod:`vision.grouping`).

    Args:
        reading (Reading): What the reader found.
        players (int | None): Players at the table, when known.
        rules (RuleSet | None): The rule set, when named (else from the players or the count).
        starter (str | None): The starter, when the player names it.
        crib (bool): A lone hand is the crib.
        crib_card (str | None): A card of the crib, when the player names it.

    Returns:
        (Layout): The groups, with the question that settles them when one is open.

    Raises:
        TableError: For players that make no table or do not fit ``rules``.
        InvalidCardError: For a ``starter`` or ``crib_card`` that is not a card.
    """
    count = sum(not c.uncertain for c in reading.cards)
    unsure = len(reading.cards) - count
    rule_set = table_rules(count, players=players, rules=rules, unsure=unsure)
    layout = group_cards(
        reading.cards, rule_set, starter=starter, crib=crib, set_apart=reading.starter_index
    )
    if rules is None and players is None and starter is None:  # the rules guessed from the count
        instead = whole_table_instead(layout, len(reading.cards))
        if instead is not None:
            layout = group_cards(reading.cards, instead, crib=crib, set_apart=reading.starter_index)
    return layout if crib_card is None else mark_crib(layout, reading.cards, crib_card)


def answer_photo(
    reading: Reading,
    *,
    players: int | None = None,
    rules: RuleSet | None = None,
    starter: str | None = None,
    crib: bool = False,
    crib_card: str | None = None,
) -> TableAnswer:
    """Group a reading into the table's groups and score each group that can be.

    The arguments are :func:`group_reading`'s.

    Returns:
        (TableAnswer): The cards, the groups with their scores, and any question.

    Raises:
        TableError: For players that make no table or do not fit ``rules``.
        InvalidCardError: For a ``starter`` or ``crib_card`` that is not a card.
    """
    layout = group_reading(
        reading, players=players, rules=rules, starter=starter, crib=crib, crib_card=crib_card
    )
    return answer_layout(reading, layout)


def answer_layout(reading: Reading, layout: Layout) -> TableAnswer:
    """The answer for ``reading`` grouped as ``layout``: its groups scored where they can be.

    Args:
        reading (Reading): What the reader found.
        layout (Layout): Its groups (:func:`group_reading`, or as the player named them).

    Returns:
        (TableAnswer): The cards, the groups with their scores, and any question.
    """
    cards = [
        CardRead(
            as_card(c.card),
            c.confidence,
            c.box,
            c.uncertain,
            tuple(as_card(code) for code in c.choices) or (as_card(c.card),),
        )
        for c in reading.cards
    ]
    groups, unscored = _scored(_groups(layout, cards), cards, layout)
    return TableAnswer(
        tuple(cards),
        tuple(groups),
        layout.rules,
        layout.question,
        layout.left_out,
        _note(groups, cards, layout, unscored),
        reading.image_size,
        reading.seconds,
    )


def _groups(layout: Layout, cards: list[CardRead]) -> list[GroupRead]:
    """The layout's groups, named, a typed starter added to ``cards`` (which it extends)."""
    names = group_names([g.role for g in layout.groups])
    groups = []
    for number, (found, name) in enumerate(zip(layout.groups, names, strict=True), start=1):
        name = name if found.role is not None else f"group {number}"  # as the page numbers it
        indices = found.cards
        if found.typed is not None:
            typed = as_card(found.typed)
            cards.append(CardRead(typed, 1.0, None, False, (typed,)))
            indices = (len(cards) - 1,)
        groups.append(GroupRead(found.role, name, indices, found.box))
    return groups


def _scored(
    groups: list[GroupRead], cards: list[CardRead], layout: Layout
) -> tuple[list[GroupRead], str | None]:
    """The groups with their scores when the starter is known, and why the engine refused.

    The engine refuses a table with a group of the wrong size or a card twice. A group holding
    a doubtful card keeps no score.
    """
    if layout.question is not None and layout.question.kind != "crib":
        return groups, None
    try:
        table = score_table(
            [Group(g.role, tuple(cards[i].card for i in g.cards)) for g in groups],
            rules=layout.rules,
        )
    except CribbageError as error:
        return groups, f"no score: {error}"
    scored = [
        group
        if any(cards[i].uncertain for i in group.cards)
        else dataclasses.replace(group, score=score, crib_score=as_crib)
        for group, score, as_crib in zip(groups, table.scores, table.crib_scores, strict=True)
    ]
    return scored, None


def _note(
    groups: list[GroupRead], cards: list[CardRead], layout: Layout, unscored: str | None
) -> str:
    """The answer in a line: the question, each score (or why none), what was left out."""
    parts = [text for text in (layout.question and layout.question.text, unscored) if text]
    totals = [
        f"{g.name} scores {g.score.total}"
        + ("" if g.crib_score is None else f" ({g.crib_score.total} if it is the crib)")
        for g in groups
        if g.score is not None
    ]
    if totals:
        parts.append(", ".join(totals))
    doubtful = [str(cards[i].card) for g in groups for i in g.cards if cards[i].uncertain]
    if doubtful:
        parts.append(f"check {' '.join(doubtful)}: read with low confidence")
    if layout.left_out:
        shown = " ".join(f"{cards[i].card}?" for i in layout.left_out)
        parts.append(f"left out, read with low confidence: {shown}")
    return "; ".join(parts)


__all__ = [
    "CardRead",
    "GroupRead",
    "TableAnswer",
    "answer_layout",
    "answer_photo",
    "group_reading",
]
