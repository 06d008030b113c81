"""The show at a table: every hand, the crib and the starter, each scored by its own rule.

A table is a list of groups, each with its role: hands (the hand rule), at most one crib (the
crib-flush rule) and exactly one starter, which every hand and the crib count with (nobs
included). A group not yet named (role ``None``: a hand or the crib, the player has not said
which) is scored as a hand, with its score as the crib beside it when a crib flush makes them
differ. The scoring itself is :func:`trainer.show.score_show`'s.

>>> table = score_table(
...     [
...         Group.of("hand", "5H 5D 5C JS"),
...         Group.of("crib", "2H 4H 6H 8H"),
...         Group.of("starter", "5S"),
...     ]
... )
>>> [(g.role.value, s.total if s else None) for g, s in zip(table.groups, table.scores)]
[('hand', 29), ('crib', 7), ('starter', None)]
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Any

from .cards import Card, CardLike, as_card, check_distinct, split_tokens
from .errors import HandSizeError, TableError
from .items import number_words
from .rules import SIX_CARD, RuleSet
from .show import Breakdown, score_show


class Role(enum.Enum):
    """What a group of cards on the table is."""

    HAND = "hand"
    """A player's hand: scored with the hand rule."""
    CRIB = "crib"
    """The crib: scored with the crib-flush rule (a flush only with the starter)."""
    STARTER = "starter"
    """The starter (turn-up), one card, counted with every hand and the crib."""

    @classmethod
    def parse(cls, name: str) -> Role:
        """The role called ``name`` (``"hand"``, ``"crib"`` or ``"starter"``).

        Raises:
            TableError: For any other name.
        """
        try:
            return cls(name)
        except ValueError:
            raise TableError(f"a group is a hand, the crib or the starter, not {name!r}") from None


@dataclasses.dataclass(frozen=True)
class Group:
    """Cards lying together on the table, and what they are."""

    role: Role | None
    """Hand, crib or starter; ``None`` for a hand or the crib not yet named."""
    cards: tuple[Card, ...]
    """The cards, in the order given."""

    @classmethod
    def of(cls, role: Role | str | None, cards: Sequence[CardLike] | str) -> Group:
        """A group from a role (or its name, or ``None``) and cards (or their notation).

        Raises:
            TableError: For an unknown role.
            InvalidCardError: For a token that is not a card.


        >>> Group.of("starter", "5s")
        Group.of('starter', '5S')
        """
        tokens = split_tokens(cards) if isinstance(cards, str) else cards
        named = role if role is None or isinstance(role, Role) else Role.parse(role)
        return cls(named, tuple(as_card(c) for c in tokens))

    def __repr__(self) -> str:
        role = None if self.role is None else self.role.value
        return f"Group.of({role!r}, {' '.join(map(str, self.cards))!r})"


@dataclasses.dataclass(frozen=True)
class TableShow:
    """Every group on the table with its score (``None`` for the starter)."""

    groups: tuple[Group, ...]
    """The groups, in the order given."""
    scores: tuple[Breakdown | None, ...]
    """Each group's breakdown (a group not yet named: as a hand), ``None`` for the starter."""
    crib_scores: tuple[Breakdown | None, ...]
    """A group not yet named: its breakdown as the crib when that differs (a flush of four not
    in the starter's suit counts in a hand only); ``None`` for every other group."""
    starter: Card
    """The starter card."""
    rules: RuleSet
    """The rule set the table was scored under."""

    def to_json(self) -> list[dict[str, object]]:
        """Each group as JSON, in order: ``{"role", "cards", "score", "crib_score"}``.

        ``role`` is ``None`` for a group not yet named; ``score`` and ``crib_score`` are
        breakdowns as :meth:`Breakdown.to_json` gives them, or ``None``.
        """
        return [
            {
                "role": None if group.role is None else group.role.value,
                "cards": [str(c) for c in group.cards],
                "score": None if score is None else score.to_json(),
                "crib_score": None if as_crib is None else as_crib.to_json(),
            }
            for group, score, as_crib in zip(
                self.groups, self.scores, self.crib_scores, strict=True
            )
        ]


def group_names(roles: Sequence[Role | None]) -> list[str]:
    """A name for each group as players point at it ("the hand" when there is one hand).

    >>> group_names([Role.HAND, Role.HAND, Role.CRIB, None, Role.STARTER])
    ['hand 1', 'hand 2', 'the crib', 'a group', 'the starter']
    """
    hands = sum(role is Role.HAND for role in roles)
    names, seen = [], 0
    for role in roles:
        if role is Role.HAND:
            seen += 1
            names.append(f"hand {seen}" if hands > 1 else "the hand")
        else:
            names.append("a group" if role is None else f"the {role.value}")
    return names


def check_table(groups: Sequence[Group], *, rules: RuleSet = SIX_CARD) -> Card:
    """Check that ``groups`` make a show under ``rules``; return the starter.

    A table has exactly one starter (one card), at most one crib and at most as many hands as
    the rule set has players, at least one hand or crib, each of the rule set's size, and no
    card twice. A group not yet named must be the size of a hand and of the crib, and fit among
    the hands and the crib still missing.

    Raises:
        TableError: For a missing or extra starter, crib or hand.
        HandSizeError: For a hand or crib with the wrong number of cards.
        DuplicateCardError: For a card in two places.


    >>> try:
    ...     check_table([Group.of("hand", "5H 5D 5C"), Group.of("starter", "5S")])
    ... except HandSizeError as error:
    ...     print(error)
    the hand has 3 cards (5H 5D 5C); a hand has 4 in two-hand six-card cribbage
    """
    starters = [g for g in groups if g.role is Role.STARTER]
    cards = [c for g in starters for c in g.cards]
    if not cards:
        raise TableError("mark one card as the starter (or type it)")
    if len(cards) > 1:
        shown = " ".join(map(str, cards))
        raise TableError(f"the starter is one card, but {len(cards)} are marked: {shown}")
    cribs = sum(g.role is Role.CRIB for g in groups)
    if cribs > 1:
        raise TableError(f"a table has one crib, but {number_words(cribs)} groups are marked crib")
    hands = sum(g.role is Role.HAND for g in groups)
    if hands > rules.players:
        raise TableError(
            f"{rules.title.lower()} has {number_words(rules.players)} hands, "
            f"but {number_words(hands)} groups are marked hand"
        )
    unnamed = sum(g.role is None for g in groups)
    if hands + cribs + unnamed > rules.players + 1:
        raise TableError(
            f"{rules.title.lower()} has {number_words(rules.players)} hands and the crib, "
            f"but {number_words(hands + cribs + unnamed)} groups"
        )
    if hands + cribs + unnamed == 0:
        raise TableError("there is no hand or crib to count with the starter")
    for group, name in zip(groups, group_names([g.role for g in groups]), strict=True):
        if group.role is None:
            _check_unnamed(group, rules)
            continue
        crib = group.role is Role.CRIB
        if group.role is Role.STARTER or len(group.cards) == rules.show_size(crib=crib):
            continue
        size = rules.show_size(crib=crib)
        shown = " ".join(map(str, group.cards)) or "none"
        raise HandSizeError(
            f"{name} has {len(group.cards)} card{'' if len(group.cards) == 1 else 's'} "
            f"({shown}); a {group.role.value} has {size} in {rules.title.lower()}"
        )
    check_distinct([c for g in groups for c in g.cards])
    return cards[0]


def _check_unnamed(group: Group, rules: RuleSet) -> None:
    """Check that a group not yet named could be a hand or the crib.

    Raises:
        HandSizeError: When it is not the size of both.
    """
    if len(group.cards) == rules.hand_size == rules.crib_size:
        return
    shown = " ".join(map(str, group.cards)) or "none"
    sizes = (
        f"a hand or the crib has {rules.hand_size}"
        if rules.hand_size == rules.crib_size
        else f"a hand has {rules.hand_size} and the crib {rules.crib_size}: say which it is"
    )
    plural = "" if len(group.cards) == 1 else "s"
    raise HandSizeError(
        f"a group has {len(group.cards)} card{plural} ({shown}); {sizes} in {rules.title.lower()}"
    )


def score_table(groups: Sequence[Group], *, rules: RuleSet = SIX_CARD) -> TableShow:
    """Score every hand and the crib on a table with its starter.

    A group not yet named is scored as a hand, and as the crib too when that differs.

    Raises:
        TableError: As :func:`check_table`.
        HandSizeError: As :func:`check_table`.
        DuplicateCardError: As :func:`check_table`.
    """
    starter = check_table(groups, rules=rules)
    scores = tuple(
        None
        if group.role is Role.STARTER
        else score_show(group.cards, starter, crib=group.role is Role.CRIB, rules=rules)
        for group in groups
    )
    as_crib = tuple(
        score_show(group.cards, starter, crib=True, rules=rules) if group.role is None else None
        for group in groups
    )
    crib_scores = tuple(
        crib if crib is not None and score is not None and crib.total != score.total else None
        for crib, score in zip(as_crib, scores, strict=True)
    )
    return TableShow(tuple(groups), scores, crib_scores, starter, rules)


def groups_of(groups: Any) -> list[Group]:
    """The groups of a request: ``[{"role": "hand", "cards": ["5H", ...]}, ...]`` (``/api/table``).

    Raises:
        TableError: For anything but a list of such objects (a role may be ``None``).
        InvalidCardError: For a token that is not a card.
    """
    shape_ok = isinstance(groups, list) and all(
        isinstance(g, dict)
        and "role" in g
        and isinstance(g["role"], str | None)
        and isinstance(g.get("cards"), list)
        and all(isinstance(c, str) for c in g["cards"])
        for g in groups
    )
    if not shape_ok:
        raise TableError("give 'groups' as a list of {'role': ..., 'cards': [...]} objects")
    return [Group.of(g["role"], g["cards"]) for g in groups]
