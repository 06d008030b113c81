"""Group the cards read on a table photo by position: each hand, the crib and the starter.

A photo of the show holds a known set of groups: for ``n`` players their hands, the crib and
the starter (13 cards for two players, 17 for three, 21 for four; 11 in five-card cribbage), or
just one hand and its starter (5), or the hand alone (4). The cards are joined into groups by
their closeness (the longest links of the minimum spanning tree of their positions are cut,
as many as the groups the table holds; cards whose faces overlap on the photo count as closer,
:data:`TOUCHING`; two cards each read at opposite corners lie as far apart as the gap between
their edges, so that hands of separate cards in a row split at the gaps between them, and a
gap between cards end to end counts :data:`END_GAP` times, so that rows split) and the
groups' sizes must be the table's. The starter is the lone card; among groups of the crib's
size, the crib is the one against the starter, if any (players lay it beside the dealer).

Nothing is guessed: when the starter is not clearly set apart, or no group is clearly nearest
the starter, the layout carries the smallest :class:`Question` that settles it (which card is
the starter? which group is the crib?) and the groups it concerns have no role yet.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from trainer.cards import as_card, check_distinct
from trainer.errors import TableError
from trainer.rules import FIVE_CARD, FOUR_HAND, SIX_CARD, THREE_HAND, RuleSet
from trainer.table import Role

if TYPE_CHECKING:
    from vision.detection import DetectedCard, Outline

CLEAR_GAP = 1.25
"""A cut between groups must be this many times longer than the longest link kept inside one
(1.05 for tables found more groups exact on synthetic tables, but also wrong ones, unasked)."""
STARTER_GAP = 1.6
"""The starter is set apart when it is this many times farther from the nearest group than
that group's cards are from each other (as the reader's own starter rule asks)."""
WHOLE_STARTER_GAP = 1.3
"""The same for a starter and the card nearest it both read whole, their gap measured between
their edges (:func:`_distances`): a hand of separate cards up to half a card apart, and the
starter a card's width beyond it, are 1.67 apart at the least."""
DOUBTFUL = 0.8
"""Only readings less confident than this are left out to make the cards fit a table."""
MOST_CHOICES = 35
"""At most this many choices of the uncertain readings that complete a table are tried."""
CLEARLY_NEAREST = 0.75
"""The crib is nearest the starter when no other candidate is nearer than 1 / this."""
AGAINST_STARTER = 2.0
"""The crib is taken to be the group nearest the starter only within this many index sizes of
it (against the deck). On synthetic tables whose crib lies beside the dealer or the deck, and
the deck beside any group, a hand was clearly nearest the starter from 3.2 index sizes on, as
often as the crib was, on the cards' true positions (series 21 and 31), and at 2.9 on a
reading; on the readings of series 12 to 14 (270 tables) two hands of four-hand tables lay 2.1
and 2.4 index sizes from the starter and were taken for the crib at 2.5, none at 2.0 (which
asks for the crib on 3 more tables; 1.5 asks no more than 2.0). Confirmed on series 15 and 16
(180 tables): wrong without a question 6 -> 4, no table more asked."""
LEFT_OUT_REACH = 6.0
"""A reading left out within this many index sizes of the starter may be the other corner of it
or of a crib card (a card's diagonal is about 5-6 index heights). 6 was chosen on synthetic
tables (series 11 and 13): it asked where 4 let a misread corner make a crib card the starter
unasked, and 9 asked about many more starters with print left out beside them."""
TOUCHING = 0.5
"""Cards that lie on one stretch of card face (they overlap or touch: a fan, a row; see
:mod:`vision.bodies`) count as this many times as far apart as their indices are (0.35 did no
better on the synthetic tables of series 11, 1.0 is the indices alone)."""

WHOLE_APART = 2.5
"""A card's corners read this many index sizes apart (or more) are opposite corners: the
card lies whole on the photo (opposite indices lie about 4.5 index heights apart)."""
INDEX_DIAGONAL = float(np.arctan2(237, 174))
"""The angle from a card's width to the line between its opposite corner indices' middles
(measured on the synthetic decks' faces)."""
CARD_OVER_INDICES = np.array([1.2, 1.35])
"""A card's width and height over those between its opposite indices' middles (1.24 and 1.42
on the synthetic decks' faces; a little less, so that touching cards do not seem to overlap)."""
WHOLE_OFFSET = 0.25
"""Two cards read whole lie their edges' gap plus this many card widths apart (chosen on the
cards' true positions of synthetic tables, series 21: 0.5 asked to sort the cards of more
tables of separate cards, 0 took a hand for the crib, unasked, on three)."""
END_GAP = 4.0
"""The gap between two cards read whole that lie end to end (one above the other in the
cards' own frame) counts this many times its width: players lay a hand's cards side by side,
so a card above or below is another hand's, though the gap may be no wider. Chosen on the
synthetic tables of series 17 and 18 (of 1 (off), 1.5, 2, 3, 4, 6: 4 and 6 grouped the most
exactly once the crib was named, 139 -> 144 of 180, and no more wrong unasked; 1.5 to 3 took a
fan beside the deck for the crib); confirmed on series 19 and 20 (131 -> 138 of 180, grouped
wrong unasked 4 -> 2, a card misread unasked 5 -> 6: a misread starter no longer asked about)."""

_BY_PLAYERS = {2: SIX_CARD, 3: THREE_HAND, 4: FOUR_HAND}
_BY_TABLE_SIZE = {r.table_size: r for r in (SIX_CARD, FIVE_CARD, THREE_HAND, FOUR_HAND)}


@dataclasses.dataclass(frozen=True)
class CardGroup:
    """Cards read that lie together, and what they are.

    Attributes:
        role (Role | None): Hand, crib or starter; ``None`` while a question is open about it.
        cards (tuple[int, ...]): Indices into the reading's cards (empty for a typed starter).
        box (tuple[float, float, float, float] | None): Around the cards' indices, in pixels.
        typed (str | None): A starter the player typed (not in the photo).
    """

    role: Role | None
    cards: tuple[int, ...]
    box: tuple[float, float, float, float] | None
    typed: str | None = None


@dataclasses.dataclass(frozen=True)
class Question:
    """The smallest question that settles the layout.

    Attributes:
        kind (str): ``"starter"`` (which card?), ``"crib"`` (which group?) or ``"groups"``
            (the cards do not fall into the table's groups).
        text (str): The question, in players' words.
        choices (tuple[int, ...]): Card indices (starter) or group indices (crib; for groups,
            the one group that seems a card short, when one does).
    """

    kind: str
    text: str
    choices: tuple[int, ...] = ()


NO_STARTER = Question("starter", "The starter is not in the photo: what is it?")
"""Asked once the table's groups are settled and none of the cards read is the starter."""


@dataclasses.dataclass(frozen=True)
class Layout:
    """The groups found on a photo, and what is still to be settled.

    Attributes:
        groups (tuple[CardGroup, ...]): The groups, hands first, then the crib, then the starter.
        rules (RuleSet): The rule set the group sizes come from.
        question (Question | None): What the player must settle before every group is scored.
        left_out (tuple[int, ...]): Cards read with low confidence that no group needs.
    """

    groups: tuple[CardGroup, ...]
    rules: RuleSet
    question: Question | None = None
    left_out: tuple[int, ...] = ()


def table_rules(
    count: int,
    *,
    players: int | None = None,
    rules: RuleSet | None = None,
    unsure: int = 0,
) -> RuleSet:
    """The rule set for a photo of ``count`` cards: named, by players, or by the count.

    Args:
        count (int): Cards read with confidence.
        players (int | None): Players at the table (2, 3 or 4).
        rules (RuleSet | None): The rule set named; it decides when given.
        unsure (int): Further readings, unsure (mostly cards; some strays or a card's other
            corner): when ``count`` makes no whole table, the largest whole table that these
            could complete is taken; when it does, but these complete a larger one that differs
            by less than a hand (11 sure cards of a six-card table's 13, two unsure), the
            larger (a five-card table of hands of 3 would be laid out of the sure cards alone,
            the two left out, unasked).

    Returns:
        (RuleSet): The rule set named; else the one for ``players`` (five-card for two players
        when the count is a five-card table); else the one whose whole table has ``count``
        cards (or the most up to ``count + unsure``); else six-card.

    Raises:
        TableError: For players not 2 to 4, or that do not match the rules named.

    Examples:
        >>> table_rules(17).name, table_rules(11).name, table_rules(5).name
        ('three-hand', 'five-card', 'six-card')
        >>> table_rules(13, players=4).name
        'four-hand'
        >>> table_rules(15).name, table_rules(15, unsure=3).name
        ('six-card', 'three-hand')
        >>> table_rules(11, unsure=2).name, table_rules(13, unsure=4).name
        ('six-card', 'six-card')
        >>> table_rules(10, unsure=3).name
        'six-card'
    """
    if players is not None and players not in _BY_PLAYERS:
        raise TableError(f"a cribbage table has 2, 3 or 4 players, not {players}")
    if rules is not None:
        if players is not None and rules.players != players:
            raise TableError(f"{rules.title.lower()} is for {rules.players} players, not {players}")
        return rules
    sizes = [size for size in sorted(_BY_TABLE_SIZE) if count < size <= count + unsure]
    by_count = _BY_TABLE_SIZE.get(count, _BY_TABLE_SIZE[sizes[-1]] if sizes else None)
    if count in _BY_TABLE_SIZE and sizes and sizes[0] - count < _BY_TABLE_SIZE[count].hand_size:
        by_count = _BY_TABLE_SIZE[sizes[0]]  # short of a larger table by less than a hand
    if players is not None:
        return by_count if by_count and by_count.players == players else _BY_PLAYERS[players]
    return by_count or SIX_CARD


def whole_table_instead(layout: Layout, read: int) -> RuleSet | None:
    """The rule set whose whole table ``layout`` lays out, when that is not its own rules'.

    For rules guessed from the count (:func:`table_rules`): a stray reading taken for a card
    can make 18 sure cards and four-hand rules, whose cards then lie as four hands and a
    starter with no crib, unasked; 17 cards laid out whole are likelier a whole three-hand
    table (its crib found or asked). Five-card hands of three laid out with readings left
    over are likelier a six-card table short of a card or two, a doubtful reading left out
    (show-mode series 18): six-card rules then, which ask. ``None`` for a whole table of its
    own rules, a layout with a question, or a count that is no table's.

    Args:
        layout (Layout): As :func:`group_cards` found it (no starter named).
        read (int): The cards read, ``layout.left_out`` among them.
    """
    if layout.rules is FIVE_CARD and layout.left_out and layout.question is None:
        return SIX_CARD
    roles = [g.role for g in layout.groups]
    whole = roles.count(Role.HAND) == layout.rules.players and Role.CRIB in roles
    other = _BY_TABLE_SIZE.get(read - len(layout.left_out))
    if whole or layout.question is not None or other in (None, layout.rules):
        return None
    return other


def _plans(count: int, rules: RuleSet, *, starter: bool) -> list[tuple[int, int, int]]:
    """(hands, cribs, starters) that make ``count`` cards, the likeliest first.

    A whole table first, then a starter before none, then no crib before one (a lone group of
    four is a hand unless the player says crib).
    """
    plans = [
        (h, c, s)
        for h in range(rules.players + 1)
        for c in (0, 1)
        for s in ((1, 0) if starter else (0,))
        if h + c >= 1 and h * rules.hand_size + c * rules.crib_size + s == count
    ]
    full = (rules.players, 1, 1 if starter else 0)
    return sorted(plans, key=lambda p: (p != full, -p[2], p[1]))


def _distances(cards: Sequence[DetectedCard]) -> np.ndarray:
    """How far apart each two cards lie.

    Two cards each read whole (:func:`_outlines`) lie as far apart as the gap between their
    edges (:data:`END_GAP` times that where they lie end to end), plus :data:`WHOLE_OFFSET`
    of a card's width: side by side, a hand's cards are closer than a card's width while the
    next hand is a card's width away or more, though their centres differ by little more than
    a width either way. Other cards: halfway between
    the distance of their positions and that of their nearest corners read (the last card of
    a row, read at both corners, lies as near its neighbour as the row's other cards do,
    though its centre is half a card beyond). Cards on one body count as :data:`TOUCHING`
    times that.
    """
    if not cards:
        return np.zeros((0, 0))
    points = np.array([c.position for c in cards], np.float64)
    centres = np.linalg.norm(points[:, None] - points[None], axis=2)
    corners = [c.corners or (c.box,) for c in cards]
    starts = np.cumsum([0] + [len(k) for k in corners[:-1]])
    middles = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for k in corners for b in k])
    apart = np.linalg.norm(middles[:, None] - middles[None], axis=2).reshape(-1, len(middles))
    apart = np.minimum.reduceat(np.minimum.reduceat(apart, starts, axis=0), starts, axis=1)
    dist = (centres + apart.reshape(centres.shape)) / 2
    whole, gaps, widths, ends = _outlines(cards)
    both = whole[:, None] & whole[None]
    offset = WHOLE_OFFSET * (widths[:, None] + widths[None]) / 2
    dist = np.where(both, gaps * (1 + (END_GAP - 1) * ends) + offset, dist)
    bodies = np.array([-1 if c.body is None else c.body for c in cards])
    touching = (bodies[:, None] == bodies[None]) & (bodies[:, None] >= 0)
    shortened: np.ndarray = np.where(touching, TOUCHING * dist, dist)
    return shortened


def _outlines(
    cards: Sequence[DetectedCard],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Which cards are read whole, the gaps between their edges, their widths, how end to end.

    A card read at opposite corners (:func:`_opposite_corners`) lies whole on the photo: its
    outline is the rectangle around them (:data:`CARD_OVER_INDICES`) centred between them,
    turned as their diagonal says (of the two ways a four-corner deck allows, the nearer). A
    card alone on its stretch of face has that face's rectangle as its outline
    (:attr:`~vision.reader.DetectedCard.outline`) and counts as whole too.

    Returns:
        Whether each card is whole; the gap between each two whole cards' edges along the
        line between their centres (0 where they overlap; unset for the others); each whole
        card's width (0 for the others); for each two whole cards, how nearly that line runs
        along their heights (the cosine between them, the mean of both cards': 0 side by side,
        1 end to end; unset for the others).
    """
    n = len(cards)
    whole = np.zeros(n, bool)
    centres = np.zeros((n, 2))
    axes = np.zeros((n, 2, 2, 2))  # card, way it may be turned, its width and height axes
    half = np.zeros((n, 2))
    for k, card in enumerate(cards):
        opposite = _opposite_corners(card)
        if opposite is None:
            if card.outline is not None:
                whole[k] = True
                centres[k], axes[k], half[k] = _body_outline(card.outline)
            continue
        whole[k] = True
        centres[k] = (opposite[0] + opposite[1]) / 2
        apart = float(np.linalg.norm(opposite[1] - opposite[0]))
        dx, dy = (opposite[1] - opposite[0]) / apart
        for way, turn in enumerate((-INDEX_DIAGONAL, INDEX_DIAGONAL)):
            cos, sin = np.cos(turn), np.sin(turn)
            along = np.array([dx * cos - dy * sin, dx * sin + dy * cos])
            axes[k, way] = (along, (-along[1], along[0]))
        diagonal = apart * np.array([np.cos(INDEX_DIAGONAL), np.sin(INDEX_DIAGONAL)])
        half[k] = diagonal * CARD_OVER_INDICES / 2
    between = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    towards = (centres[None] - centres[:, None]) / np.maximum(between, 1e-9)[..., None]
    reach = np.full((n, n), np.inf)
    along_height = np.zeros((n, n))
    for way in range(2):
        on_axes = np.abs(np.einsum("ijc,iac->ija", towards, axes[:, way]))
        way_reach = np.einsum("ija,ia->ij", on_axes, half)
        along_height = np.where(way_reach < reach, on_axes[..., 1], along_height)
        reach = np.minimum(reach, way_reach)
    gaps = np.maximum(between - reach - reach.T, 0.0)
    return whole, gaps, 2 * half[:, 0], (along_height + along_height.T) / 2


def _body_outline(outline: Outline) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A card's centre, width and height axes (the same both ways) and half sizes, from its body.

    ``outline`` is the rectangle of the stretch of face the card lies alone on.
    """
    (x, y), (w, h), angle = outline
    turn = np.radians(angle)
    along = np.array([np.cos(turn), np.sin(turn)])  # the side of length w
    across = np.array([-along[1], along[0]])
    width_axis, height_axis = (along, across) if w <= h else (across, along)
    return np.array([x, y]), np.array([(width_axis, height_axis)] * 2), np.array(sorted((w, h))) / 2


def _opposite_corners(card: DetectedCard) -> tuple[np.ndarray, np.ndarray] | None:
    """The middles of two corners of ``card`` read at opposite corners, or None.

    The two corners read farthest apart, when :data:`WHOLE_APART` index sizes apart or more.
    """
    if len(card.corners) < 2:
        return None
    middles = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in card.corners])
    apart = np.linalg.norm(middles[:, None] - middles[None], axis=2)
    i, j = np.unravel_index(int(np.argmax(apart)), apart.shape)
    size = max(max(b[2] - b[0], b[3] - b[1]) for b in card.corners)
    return (middles[i], middles[j]) if apart[i, j] >= WHOLE_APART * size else None


def _spanning_tree(dist: np.ndarray) -> list[tuple[float, int, int]]:
    """The minimum spanning tree's links (length, i, j) for distances ``dist`` (Prim's)."""
    n = len(dist)
    inside = np.zeros(n, bool)
    inside[0] = True
    best, parent = dist[0].copy(), np.zeros(n, int)
    links = []
    for _ in range(n - 1):
        j = int(np.argmin(np.where(inside, np.inf, best)))
        links.append((float(best[j]), int(parent[j]), j))
        inside[j] = True
        closer = dist[j] < best
        best = np.where(closer, dist[j], best)
        parent = np.where(closer, j, parent)
    return links


def _cut(dist: np.ndarray, groups: int) -> tuple[list[list[int]], float]:
    """Split points ``dist`` apart into ``groups`` by cutting the longest spanning-tree links.

    Returns:
        The groups (point indices, each sorted) and how clear the cut is: the shortest link cut
        over the longest link kept (infinite when nothing is kept or nothing cut).
    """
    n = len(dist)
    links = sorted(_spanning_tree(dist), reverse=True)
    cut, kept = links[: groups - 1], links[groups - 1 :]
    label = list(range(n))

    def root(i: int) -> int:
        while label[i] != i:
            i = label[i]
        return i

    for _, i, j in kept:
        label[root(i)] = root(j)
    members: dict[int, list[int]] = {}
    for i in range(n):
        members.setdefault(root(i), []).append(i)
    longest_kept = max((length for length, _, _ in kept), default=0.0)
    shortest_cut = min((length for length, _, _ in cut), default=np.inf)
    clarity = np.inf if longest_kept == 0 else shortest_cut / longest_kept
    return sorted(members.values()), float(clarity)


def _box(
    cards: Sequence[DetectedCard], members: Sequence[int]
) -> tuple[float, float, float, float]:
    boxes = np.array([cards[i].box for i in members])
    return (
        float(boxes[:, 0].min()),
        float(boxes[:, 1].min()),
        float(boxes[:, 2].max()),
        float(boxes[:, 3].max()),
    )


def group_cards(
    cards: Sequence[DetectedCard],
    rules: RuleSet = SIX_CARD,
    *,
    starter: str | None = None,
    crib: bool = False,
    set_apart: int | None = None,
) -> Layout:
    """Group the cards read on a photo into the table's hands, crib and starter.

    Args:
        cards (Sequence[DetectedCard]): The reader's cards (one per physical card).
        rules (RuleSet): Decides the sizes of the hands and crib and how many hands.
        starter (str | None): The starter, when the player names it: taken from the cards read
            when it is among them, else a typed starter.
        crib (bool): A lone group of the crib's size is the crib (not a hand).
        set_apart (int | None): The card the reader saw set apart from a single hand (its
            starter guess), used when the gaps alone do not show the starter.

    Returns:
        (Layout): The groups, with a question when the layout does not settle a role.

    Raises:
        InvalidCardError: When ``starter`` is not a card.
    """
    placed = list(range(len(cards)))
    fixed: list[CardGroup] = []
    if starter is not None:
        code = str(as_card(starter))
        among = [i for i in placed if cards[i].card == code and not cards[i].uncertain]
        if among:
            placed.remove(among[0])
            fixed.append(CardGroup(Role.STARTER, (among[0],), _box(cards, among[:1])))
        else:
            fixed.append(CardGroup(Role.STARTER, (), None, typed=code))
    want_starter = not fixed
    dist = _distances(cards)
    for members in _trials(cards, placed, rules, starter=want_starter):
        left_out = tuple(i for i in placed if i not in members)
        for plan in _plans(len(members), rules, starter=want_starter):
            layout = _place(cards, dist, members, plan, rules, crib=crib, set_apart=set_apart)
            if layout is not None and not _hand_left_out(layout, len(fixed), left_out, rules):
                if layout.question is None and fixed == []:
                    layout = _starter_beside_left_out(cards, layout, left_out)
                groups = (*layout.groups, *fixed)
                question = layout.question
                if question is None and not any(g.role is Role.STARTER for g in groups):
                    question = NO_STARTER
                return dataclasses.replace(
                    layout, groups=groups, left_out=left_out, question=question
                )
    return _unsettled(cards, dist, placed, fixed, rules)


def _hand_left_out(layout: Layout, typed: int, left_out: tuple[int, ...], rules: RuleSet) -> bool:
    """Whether a hand's worth of readings is left out beside groups that make no whole table.

    A hand may lie among them, unread. ``typed`` cards are named apart (a typed starter); the
    table may be of any rules.
    """
    laid = sum(len(g.cards) for g in layout.groups) + typed
    return laid not in _BY_TABLE_SIZE and len(left_out) >= rules.hand_size


def _starter_beside_left_out(
    cards: Sequence[DetectedCard], layout: Layout, left_out: tuple[int, ...]
) -> Layout:
    """The layout, or the starter question when a reading left out lies by the starter.

    A doubtful reading within a card's reach of the starter may be the starter's other corner
    (it would lie elsewhere), or a corner of a crib card misread (the starter found would be
    that card): the crib and the starter become one group, and the question names its cards.
    """
    starter = next((g for g in layout.groups if g.role is Role.STARTER), None)
    crib = next((g for g in layout.groups if g.role is Role.CRIB), None)
    if starter is None or crib is None:
        return layout
    at = np.array(cards[starter.cards[0]].position)
    box = cards[starter.cards[0]].box
    reach = LEFT_OUT_REACH * max(box[2] - box[0], box[3] - box[1])
    if all(np.linalg.norm(np.array(cards[i].position) - at) > reach for i in left_out):
        return layout
    both = (*crib.cards, *starter.cards)
    groups = [g for g in layout.groups if g.role is Role.HAND]
    groups.append(CardGroup(Role.CRIB, both, _box(cards, both)))
    question = Question("starter", "Which card is the starter? It lies by the crib.", both)
    return dataclasses.replace(layout, groups=tuple(groups), question=question)


def _trials(
    cards: Sequence[DetectedCard], placed: list[int], rules: RuleSet, *, starter: bool
) -> list[list[int]]:
    """The sets of cards to try to lay out, in order.

    Every card read; the certain ones with as many uncertain ones as make the whole table
    (every such choice of them, the likeliest first: a card read unsure still has its place,
    while a stray reading beside them is left out); the certain ones; the certain ones less the
    least confident beyond the largest table they could make, when those are doubtful (a stray
    reading of print, or of a card's other corner).
    """
    certain = [i for i in placed if not cards[i].uncertain]
    trials = [placed]
    whole = rules.table_size - (not starter)
    unsure = [i for i in placed if cards[i].uncertain]
    missing = whole - len(certain)
    if 0 < missing < len(unsure) and math.comb(len(unsure), missing) <= MOST_CHOICES:
        choices = itertools.combinations(unsure, missing)
        likeliest = sorted(choices, key=lambda chosen: -sum(cards[i].confidence for i in chosen))
        trials += [sorted([*certain, *chosen]) for chosen in likeliest]
    if len(certain) < len(placed):
        trials.append(certain)
    sizes = [
        h * rules.hand_size + c * rules.crib_size + s
        for h in range(rules.players + 1)
        for c in (0, 1)
        for s in ((0, 1) if starter else (0,))
    ]
    fits = max((n for n in sizes if n < len(certain)), default=0)
    ranked = sorted(certain, key=lambda i: -cards[i].confidence)
    if fits >= rules.hand_size and all(cards[i].confidence < DOUBTFUL for i in ranked[fits:]):
        trials.append(sorted(ranked[:fits]))
    return trials


def _place(
    cards: Sequence[DetectedCard],
    dist: np.ndarray,
    members: list[int],
    plan: tuple[int, int, int],
    rules: RuleSet,
    *,
    crib: bool,
    set_apart: int | None,
) -> Layout | None:
    """The layout of ``members`` as ``plan`` (hands, cribs, starters), or None if no fit.

    None when the cards do not fall clearly into groups of the plan's sizes.
    """
    hands, cribs, starters = plan
    count = hands + cribs + starters
    parts, clarity = _cut(dist[np.ix_(members, members)], count)
    sizes = sorted(len(p) for p in parts)
    wanted = sorted([rules.hand_size] * hands + [rules.crib_size] * cribs + [1] * starters)
    question = None
    if sizes != wanted or clarity < CLEAR_GAP:
        if starters and count == 2 and len(members) > 1:  # one hand (or crib) and its starter
            return _single_with_starter(cards, dist, members, rules, crib=crib, set_apart=set_apart)
        if starters and cribs and hands:
            return _crib_beside_starter(cards, dist, members, hands, rules)
        return None
    groups = [[members[i] for i in part] for part in parts]
    lone = [g for g in groups if len(g) == 1] if starters else []
    starter = lone[0] if len(lone) == 1 else None
    if starters and starter is None:  # a hand or crib of one card (never in the rule sets)
        return None
    if starter is not None and not _set_apart(cards, dist, starter[0], groups):
        if cribs and hands:
            return _crib_beside_starter(cards, dist, members, hands, rules)
        if count == 2:
            return _single_with_starter(cards, dist, members, rules, crib=crib, set_apart=set_apart)
        return None
    rest = [g for g in groups if g is not starter]
    roles: list[Role | None] = [Role.HAND] * len(rest)
    if cribs and rules.crib_size != rules.hand_size:
        roles = [Role.CRIB if len(g) == rules.crib_size else Role.HAND for g in rest]
    elif cribs or (crib and len(rest) == 1):
        roles, question = _crib_roles(cards, dist, rest, starter)
    result = [CardGroup(r, tuple(g), _box(cards, g)) for r, g in zip(roles, rest, strict=True)]
    order = {Role.HAND: 0, None: 0, Role.CRIB: 1}
    result.sort(key=lambda g: order[g.role])
    if question is not None:  # the choices are group indices after sorting
        unknown = tuple(i for i, g in enumerate(result) if g.role is None)
        question = dataclasses.replace(question, choices=unknown)
    if starter is not None:
        result.append(CardGroup(Role.STARTER, tuple(starter), _box(cards, starter)))
    return Layout(tuple(result), rules, question)


def _crib_beside_starter(
    cards: Sequence[DetectedCard], dist: np.ndarray, members: list[int], hands: int, rules: RuleSet
) -> Layout | None:
    """The table's groups when the crib and the starter lie too close to cut apart.

    The hands, and one group of the crib with the starter, whose starter is its card set apart
    or, when none clearly is, the question (which card is the starter?) about its cards alone.
    """
    parts, clarity = _cut(dist[np.ix_(members, members)], hands + 1)
    both_size = rules.crib_size + 1
    wanted = sorted([rules.hand_size] * hands + [both_size])
    if sorted(len(p) for p in parts) != wanted or clarity < CLEAR_GAP:
        return None
    groups = [[members[i] for i in part] for part in parts]
    both = next(g for g in groups if len(g) == both_size)
    result = [CardGroup(Role.HAND, tuple(g), _box(cards, g)) for g in groups if g is not both]
    inner, _ = _cut(dist[np.ix_(both, both)], 2)
    lone = [both[p[0]] for p in inner if len(p) == 1]
    crib_part = [[i for i in both if i not in lone]]
    apart = None
    alone = sorted(map(len, inner)) == [1, rules.crib_size]
    if alone and _set_apart(cards, dist, lone[0], crib_part):
        apart = both.index(lone[0])
    if apart is None:
        question = Question(
            "starter", "Which card is the starter? It lies by the crib.", tuple(both)
        )
        return Layout(
            (*result, CardGroup(Role.CRIB, tuple(both), _box(cards, both))), rules, question
        )
    starter = both[apart]
    crib = [i for i in both if i != starter]
    result += [
        CardGroup(Role.CRIB, tuple(crib), _box(cards, crib)),
        CardGroup(Role.STARTER, (starter,), _box(cards, [starter])),
    ]
    return Layout(tuple(result), rules)


def _set_apart(
    cards: Sequence[DetectedCard], dist: np.ndarray, starter: int, groups: list[list[int]]
) -> bool:
    """Whether ``starter`` lies clearly apart from the group nearest it.

    Its distance to that group must be :data:`STARTER_GAP` times the longest link inside the
    group (:data:`WHOLE_STARTER_GAP` when it and its nearest card there are read whole): a
    starter in line with a row of cards, as far from it as they are from each other, is not
    set apart.
    """
    others = [g for g in groups if starter not in g]
    distance, nearest = min((float(dist[starter, g].min()), k) for k, g in enumerate(others))
    group = others[nearest]
    if len(group) < 2:
        return True
    longest = max(length for length, _, _ in _spanning_tree(dist[np.ix_(group, group)]))
    beside = group[int(np.argmin(dist[starter, group]))]
    whole = all(_opposite_corners(cards[i]) is not None for i in (starter, beside))
    return distance >= (WHOLE_STARTER_GAP if whole else STARTER_GAP) * longest


def _crib_roles(
    cards: Sequence[DetectedCard],
    dist: np.ndarray,
    groups: list[list[int]],
    starter: list[int] | None,
) -> tuple[list[Role | None], Question | None]:
    """Roles of same-size groups, one of them the crib: the one against the starter.

    The crib lies beside the dealer, and the deck beside anyone: only a group clearly nearest
    the starter and within :data:`AGAINST_STARTER` index sizes of it is taken for the crib;
    otherwise the player is asked.
    """
    if len(groups) == 1:
        return [Role.CRIB], None
    if starter is not None:
        far = [float(dist[starter[0], g].min()) for g in groups]
        order = np.argsort(far)
        x1, y1, x2, y2 = cards[starter[0]].box
        against = far[order[0]] <= AGAINST_STARTER * max(x2 - x1, y2 - y1)
        if against and far[order[0]] < CLEARLY_NEAREST * far[order[1]]:
            return [Role.CRIB if k == order[0] else Role.HAND for k in range(len(groups))], None
    question = Question("crib", "Which group is the crib?")
    return [None] * len(groups), question


def _single_with_starter(
    cards: Sequence[DetectedCard],
    dist: np.ndarray,
    members: list[int],
    rules: RuleSet,
    *,
    crib: bool,
    set_apart: int | None,
) -> Layout:
    """One hand (or crib) and its starter, the starter not clearly apart by the gaps alone.

    The reader's guess when it made one, else the one card lying alone beside a hand laid in
    pairs or fans (:func:`_lone_card`), else the question.
    """
    role = Role.CRIB if crib else Role.HAND
    if set_apart is None or set_apart not in members:
        set_apart = _lone_card(cards, dist, members)
    if set_apart is not None and set_apart in members:
        rest = [i for i in members if i != set_apart]
        groups = (
            CardGroup(role, tuple(rest), _box(cards, rest)),
            CardGroup(Role.STARTER, (set_apart,), _box(cards, [set_apart])),
        )
        return Layout(groups, rules)
    question = Question("starter", "Which card is the starter?", tuple(members))
    return Layout((CardGroup(None, tuple(members), _box(cards, members)),), rules, question)


def _lone_card(cards: Sequence[DetectedCard], dist: np.ndarray, members: list[int]) -> int | None:
    """The card of ``members`` lying alone beside a hand laid in pairs or fans, if one does.

    It is the one card on a stretch of face of its own while every other overlaps or touches
    another, and :data:`STARTER_GAP` times farther from its nearest card than any of them is
    from theirs; else None.

    A hand laid as two overlapping pairs, one above the other, with the starter beside them
    lies in three groups by the gaps: the reader's starter (the card farthest from the middle
    of the rest) and the cut into a hand and a starter both miss it.
    """
    bodies = [cards[i].body for i in members]
    alone = [
        i
        for i, body in zip(members, bodies, strict=True)
        if body is None or bodies.count(body) == 1
    ]
    if len(alone) != 1 or len(members) < 3:
        return None
    nearest = {i: min(float(dist[i, j]) for j in members if j != i) for i in members}
    lone = alone[0]
    rest = max(nearest[i] for i in members if i != lone)
    return lone if nearest[lone] >= STARTER_GAP * rest else None


def _unsettled(
    cards: Sequence[DetectedCard],
    dist: np.ndarray,
    placed: list[int],
    fixed: list[CardGroup],
    rules: RuleSet,
) -> Layout:
    """Cards that do not make the table's groups: the clusters found, and a question.

    One group for each cluster, no roles, and the question asking the player to sort them; when
    the cards fall clearly into the table's groups but for one a card short (a card not read),
    those groups, and the question names the short one (:func:`_one_card_short`).
    """
    if not placed:
        return Layout(tuple(fixed), rules)
    near = dist[np.ix_(placed, placed)]
    short = _one_card_short(near, rules, starter=not fixed)
    if short is not None:
        parts, gap = short
        groups = [[placed[i] for i in p] for p in parts]
        found = tuple(CardGroup(None, tuple(g), _box(cards, g)) for g in groups)
        named = " ".join(cards[i].card for i in groups[gap])
        text = (
            f"Read {len(placed)} cards: one card seems to be missing from the group of "
            f"{len(groups[gap])} ({named}): add it there, or move, add or delete cards, then "
            "mark the groups."
        )
        return Layout((*found, *fixed), rules, Question("groups", text, (gap,)))
    links = sorted(length for length, _, _ in _spanning_tree(near)) if len(placed) > 1 else []
    typical = float(np.median(links)) if links else 0.0
    count = 1 + sum(length > 3 * typical for length in links)
    parts, _ = _cut(near, count)
    groups = [[placed[i] for i in p] for p in parts]
    found = tuple(CardGroup(None, tuple(g), _box(cards, g)) for g in groups)
    hand, crib = rules.hand_size, rules.crib_size
    sizes = f"hands of {hand}" + ("" if hand == crib else f", a crib of {crib}")
    text = (
        f"Read {len(placed)} card{'' if len(placed) == 1 else 's'}: they do not make "
        f"{sizes} and a starter. Move, add or delete cards, then mark the groups."
    )
    return Layout((*found, *fixed), rules, Question("groups", text))


def _one_card_short(
    dist: np.ndarray, rules: RuleSet, *, starter: bool
) -> tuple[list[list[int]], int] | None:
    """The table's groups, one of them a card short, when the cards fall clearly into them.

    For a count one short of a whole table: the cards cut into its hands, crib and starter
    (:func:`_cut`, as clear as :data:`CLEAR_GAP`) whose sizes are the table's but for one group
    of one card fewer, when that group cannot be taken for a whole one of another size (a
    table without its starter is asked for it elsewhere).

    Returns:
        The groups (indices into ``dist``) and which of them is short, or None.
    """
    wanted = [rules.hand_size] * rules.players + [rules.crib_size] + [1] * starter
    if len(dist) != sum(wanted) - 1:
        return None
    parts, clarity = _cut(dist, len(wanted))
    if clarity < CLEAR_GAP:
        return None
    sizes = sorted(len(p) for p in parts)
    for size in set(wanted) - {1}:
        if size - 1 in wanted:
            continue  # a group one short would look like a whole one: which is it?
        left = list(wanted)
        left.remove(size)
        if sorted([*left, size - 1]) == sizes:
            return parts, next(i for i, p in enumerate(parts) if len(p) == size - 1)
    return None


def mark_crib(layout: Layout, cards: Sequence[DetectedCard], card: str) -> Layout:
    """The layout with the group holding ``card`` as the crib.

    The player's answer to "which group is the crib?", or a correction of the crib found. The
    other groups of hand or crib that the table counts become hands; a question about the crib
    is settled (then the starter is asked for when none was read). Cards not sorted into the
    table's groups yet keep the question that asks the player to sort them, which then says
    where the crib goes.

    Args:
        layout (Layout): As :func:`group_cards` found it.
        cards (Sequence[DetectedCard]): The cards read (``layout`` indexes them).
        card (str): A card of the crib.

    Returns:
        (Layout): The layout with the crib marked.

    Raises:
        InvalidCardError: When ``card`` is not a card.
        TableError: When no hand or crib holds ``card`` or its group is not a crib's size.
    """
    code = str(as_card(card))
    if layout.question is not None and layout.question.kind == "groups":
        text = f"{layout.question.text} The crib is the group with {code}."
        return dataclasses.replace(layout, question=dataclasses.replace(layout.question, text=text))
    holding = [
        k
        for k, g in enumerate(layout.groups)
        if g.role is not Role.STARTER and any(cards[i].card == code for i in g.cards)
    ]
    if not holding:
        raise TableError(f"{code} was not read in a hand or the crib, so it marks no crib")
    crib = layout.groups[holding[0]]
    size = layout.rules.crib_size
    if len(crib.cards) != size:
        raise TableError(
            f"the group with {code} has {len(crib.cards)} cards; "
            f"a crib has {size} in {layout.rules.title.lower()}"
        )
    groups = [
        dataclasses.replace(g, role=Role.CRIB if g is crib else Role.HAND)
        if g.role in (None, Role.CRIB, Role.HAND)
        else g
        for g in layout.groups
    ]
    order = {Role.HAND: 0, Role.CRIB: 1, Role.STARTER: 2}
    groups.sort(key=lambda g: order[g.role] if g.role else 0)
    question = layout.question
    if question is not None and question.kind == "crib":
        question = None if any(g.role is Role.STARTER for g in groups) else NO_STARTER
    return dataclasses.replace(layout, groups=tuple(groups), question=question)


def name_groups(
    cards: Sequence[DetectedCard],
    named: Sequence[Sequence[str]],
    rules: RuleSet,
    *,
    starter: str | None = None,
    crib: bool = False,
) -> Layout:
    """The layout the player names, group by group, when the photo's cannot be found.

    The groups are the hands, then the crib, then the starter (or the starter is ``starter``):
    a lone group is the hand (the crib with ``crib``); of several, the last is the crib. Every
    card of a hand or the crib must have been read; the starter may be typed. Cards read but
    not named are left out.

    Args:
        cards (Sequence[DetectedCard]): The cards read.
        named (Sequence[Sequence[str]]): Each group's cards, as typed.
        rules (RuleSet): The rule set (sizes are checked when the table is scored).
        starter (str | None): The starter, when named apart from the groups.
        crib (bool): A lone group is the crib.

    Returns:
        (Layout): The groups with their roles, no question.

    Raises:
        InvalidCardError: For a token that is not a card.
        DuplicateCardError: For a card named twice.
        TableError: For an empty group, no starter, or a card named that was not read.
    """
    groups = [[str(as_card(token)) for token in group] for group in named]
    for number, group in enumerate(groups, start=1):
        if not group:
            raise TableError(f"group {number} has no cards")
    if starter is None:
        if len(groups) < 2 or len(groups[-1]) != 1:
            raise TableError(
                "name the starter: one card as the last group (... / 5S), or with --starter"
            )
        starter = groups.pop()[0]
    turned = str(as_card(starter))
    check_distinct([as_card(code) for code in (*(c for g in groups for c in g), turned)])
    unused = list(range(len(cards)))

    def take(code: str) -> int | None:
        """The first card read as ``code`` that no group has taken yet."""
        index = next((i for i in unused if cards[i].card == code), None)
        if index is not None:
            unused.remove(index)
        return index

    found: list[CardGroup] = []
    for number, group in enumerate(groups, start=1):
        role = Role.CRIB if (crib or number > 1) and number == len(groups) else Role.HAND
        indices = [take(code) for code in group]
        missing = [code for code, i in zip(group, indices, strict=True) if i is None]
        if missing:
            raise TableError(
                f"{' '.join(missing)} {'was' if len(missing) == 1 else 'were'} "
                "not read in the photo: name only cards read"
            )
        members = [i for i in indices if i is not None]
        found.append(CardGroup(role, tuple(members), _box(cards, members)))
    at = take(turned)
    found.append(
        CardGroup(Role.STARTER, (at,), _box(cards, [at]))
        if at is not None
        else CardGroup(Role.STARTER, (), None, typed=turned)
    )
    return Layout(tuple(found), rules, None, tuple(unused))


__all__ = [
    "CardGroup",
    "Layout",
    "Question",
    "group_cards",
    "mark_crib",
    "name_groups",
    "table_rules",
    "whole_table_instead",
]
