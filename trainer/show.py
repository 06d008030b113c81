"""The show: scoring a hand or crib with its starter, itemized.

>>> score_show(["5H", "5D", "5C", "JS"], "5S").total
29
>>> print(score_show(["5H", "5D", "5C", "JS"], "5S").say())  # doctest: +NORMALIZE_WHITESPACE
fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve,
fifteen fourteen, fifteen sixteen, and a double pair royal of fives is 28,
and one for his nobs is 29
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .cards import (
    Card,
    CardLike,
    Rank,
    Suit,
    as_card,
    check_distinct,
    is_rank_only,
    parse_rank,
    split_show,
    split_tokens,
)
from .errors import HandSizeError, InvalidJSONError
from .items import Kind, ScoreItem, number_words
from .rules import SIX_CARD, RuleSet


class Breakdown:
    """The score of one show: total, itemized combinations and the spoken count.

    The total comes from precomputed tables; the items are worked out when first asked for.
    """

    __slots__ = ("_items", "crib", "hand", "rules", "starter", "total")

    def __init__(
        self, hand: tuple[Card, ...], starter: Card, crib: bool, rules: RuleSet, total: int
    ) -> None:
        self.hand = hand
        """The hand or crib cards, in the order given."""
        self.starter = starter
        """The starter (turn-up) card."""
        self.crib = crib
        """Whether this was scored as a crib."""
        self.rules = rules
        """The rule set used."""
        self.total = total
        """The points scored."""
        self._items: tuple[ScoreItem, ...] | None = None

    @property
    def items(self) -> tuple[ScoreItem, ...]:
        """Every scoring combination: fifteens, pairs, runs, flush, nobs, in that order."""
        if self._items is None:
            self._items = itemize(self.hand, self.starter, crib=self.crib)
        return self._items

    def points_by_kind(self) -> dict[Kind, int]:
        """Points per kind of item (only kinds that scored)."""
        points: dict[Kind, int] = {}
        for item in self.items:
            points[item.kind] = points.get(item.kind, 0) + item.points
        return points

    def say(self) -> str:
        """The count as a player says it aloud."""
        return spoken_count(self.items)

    def to_json(self) -> dict[str, object]:
        """``{"total": 29, "items": [...], "hand": [...], "starter": "5S", "crib": false}``."""
        return {
            "total": self.total,
            "items": [item.to_json() for item in self.items],
            "hand": [str(c) for c in self.hand],
            "starter": str(self.starter),
            "crib": self.crib,
            "rules": self.rules.name,
            "say": self.say(),
        }

    def __repr__(self) -> str:
        hand = " ".join(map(str, self.hand))
        return f"<Breakdown {hand} | {self.starter}{' crib' if self.crib else ''}: {self.total}>"


# --- the rules, itemized: the one place where show points are decided -------------------------


def _fifteens(cards: Sequence[Card]) -> list[ScoreItem]:
    return [
        ScoreItem(Kind.FIFTEEN, combo, 2)
        for size in range(2, len(cards) + 1)
        for combo in itertools.combinations(cards, size)
        if sum(c.value for c in combo) == 15
    ]


def _pairs(cards: Sequence[Card]) -> list[ScoreItem]:
    ordered = sorted(cards)
    return [
        ScoreItem(Kind.PAIR, (a, b), 2)
        for a, b in itertools.combinations(ordered, 2)
        if a.rank == b.rank
    ]


def _runs(cards: Sequence[Card]) -> list[ScoreItem]:
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards):
        by_rank.setdefault(card.rank, []).append(card)
    items: list[ScoreItem] = []
    start = 1
    while start <= 13:
        end = start
        while end in by_rank:
            end += 1
        if end - start >= 3:
            columns = [by_rank[r] for r in range(start, end)]
            items += [ScoreItem(Kind.RUN, run, end - start) for run in itertools.product(*columns)]
        start = end + 1
    return items


def _rank_items(cards: Sequence[Card]) -> list[ScoreItem]:
    """Fifteens, pairs and runs: the part of the show that depends on ranks alone."""
    return _fifteens(cards) + _pairs(cards) + _runs(cards)


def _suit_items(hand: Sequence[Card], starter: Card, crib: bool) -> list[ScoreItem]:
    """Flush and nobs."""
    items: list[ScoreItem] = []
    suit = hand[0].suit
    if all(c.suit is suit for c in hand):
        if starter.suit is suit:
            items.append(ScoreItem(Kind.FLUSH, (*hand, starter), len(hand) + 1))
        elif not crib:
            items.append(ScoreItem(Kind.FLUSH, tuple(hand), len(hand)))
    items += [
        ScoreItem(Kind.NOBS, (c,), 1)
        for c in hand
        if c.rank is Rank.JACK and c.suit is starter.suit
    ]
    return items


def itemize(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> tuple[ScoreItem, ...]:
    """Every scoring combination of a show, found the slow, obvious way.

    This is the reference the fast tables are built from; prefer :func:`score_show`.
    """
    return (*_rank_items([*hand, starter]), *_suit_items(hand, starter, crib))


# --- the fast path --------------------------------------------------------------------------


def rank_code(ranks: Iterable[int]) -> int:
    """A key for a multiset of ranks: the base-5 number with one digit per rank count."""
    return sum(5 ** (r - 1) for r in ranks)


_RANK_CODE = tuple([0] + [5 ** (r - 1) for r in range(1, 14)])


@functools.cache
def rank_points_table() -> dict[int, int]:
    """Fifteens + pairs + runs for every multiset of 4 or 5 ranks, keyed by :func:`rank_code`.

    Built once (a fraction of a second) from the itemized rules above.
    """
    table: dict[int, int] = {}
    for size in (4, 5):
        for ranks in itertools.combinations_with_replacement(range(1, 14), size):
            counts = Counter(ranks)
            if max(counts.values()) > 4:
                continue
            seen: Counter[int] = Counter()
            cards = []
            for r in ranks:
                cards.append(Card(Rank(r), Suit(seen[r])))
                seen[r] += 1
            table[rank_code(ranks)] = sum(item.points for item in _rank_items(cards))
    return table


def score_show(
    hand: Sequence[CardLike],
    starter: CardLike,
    *,
    crib: bool = False,
    rules: RuleSet = SIX_CARD,
) -> Breakdown:
    """Score a hand (or crib, ``crib=True``) with its starter.

    Cards may be :class:`Card` objects or strings such as ``"5H"``.

    Raises:
        InvalidCardError: for a token that is not a card.
        DuplicateCardError: for a card given twice.
        HandSizeError: when the hand has the wrong number of cards for the rule set.

    >>> score_show(["5H", "5D", "JS", "QC"], "5C", crib=True).total
    20
    >>> flush = ["2H", "4H", "6H", "8H"]
    >>> score_show(flush, "KS").total, score_show(flush, "KS", crib=True).total
    (4, 0)
    """
    cards = tuple([c if type(c) is Card else as_card(c) for c in hand])
    turned = starter if type(starter) is Card else as_card(starter)
    size = rules.crib_size if crib else rules.hand_size
    if len(cards) != size:
        what = "crib" if crib else "hand"
        raise HandSizeError(f"a {rules.name} {what} has {size} cards, got {len(cards)}")
    mask = turned.bit
    code = _RANK_CODE[turned.rank]
    for card in cards:
        mask |= card.bit
        code += _RANK_CODE[card.rank]
    if mask.bit_count() != size + 1:
        check_distinct([*cards, turned])  # raises, naming the card given twice
    total = rank_points_table()[code]
    suit = cards[0].suit
    for card in cards:
        if card.suit is not suit:
            break
    else:
        if turned.suit is suit:
            total += size + 1
        elif not crib:
            total += size
    for card in cards:
        if card.rank is Rank.JACK and card.suit is turned.suit:
            total += 1
    return Breakdown(cards, turned, crib, rules, total)


def heels(starter: CardLike) -> int:
    """Points for his heels: 2 to the dealer when the starter is a jack.

    >>> heels("JD"), heels("5D")
    (2, 0)
    """
    return 2 if as_card(starter).rank is Rank.JACK else 0


# --- the count said aloud -----------------------------------------------------------------

_RUN_MULTIPLES = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double-double run"}
_PAIR_GROUPS = {1: "a pair", 3: "a pair royal", 6: "a double pair royal"}


def spoken_count(items: Sequence[ScoreItem]) -> str:
    """The count as players say it: fifteens one by one, then pairs, runs, flush, nobs.

    >>> spoken_count([])
    'nineteen: nothing to count'
    """
    if not items:
        return "nineteen: nothing to count"
    phrases: list[str] = []
    running = 0
    fifteens = [i for i in items if i.kind is Kind.FIFTEEN]
    for item in fifteens:
        running += item.points
        phrases.append(f"fifteen {number_words(running)}")
    groups: list[tuple[str, int]] = []
    pairs = Counter(i.cards[0].rank for i in items if i.kind is Kind.PAIR)
    groups += [(f"{_PAIR_GROUPS[n]} of {Rank(r).plural}", 2 * n) for r, n in pairs.items()]
    runs = [i for i in items if i.kind is Kind.RUN]
    if runs:
        length = runs[0].points
        name = _RUN_MULTIPLES[len(runs)]
        groups.append((f"{name} of {number_words(length)}", length * len(runs)))
    groups += [
        (f"a flush of {number_words(i.points)}", i.points) for i in items if i.kind is Kind.FLUSH
    ]
    groups += [("one for his nobs", 1) for i in items if i.kind is Kind.NOBS]
    for text, points in groups:
        running += points
        joiner = "and " if phrases else ""
        phrases.append(f"{joiner}{text} is {running}")
    return ", ".join(phrases)


# --- rank-only notation: suits unknown ----------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RankOnlyScore:
    """The score of ranks without suits: what is certain, and what suits could add.

    >>> print(score_ranks("5 5 5 J", "5"))
    28; 29 if the jack is the starter's suit
    """

    certain: int
    """Points scored whatever the suits."""
    outcomes: tuple[tuple[int, str], ...]
    """Each higher total the suits allow, with the condition for it."""
    starter_rank: Rank
    """The starter's rank (a jack pegs the dealer 2 for his heels)."""

    def __str__(self) -> str:
        return "; ".join([str(self.certain), *(f"{t} if {why}" for t, why in self.outcomes)])

    def to_json(self) -> dict[str, object]:
        """``{"certain": 28, "possible": [{"total": 29, "if": "..."}]}``."""
        return {
            "certain": self.certain,
            "possible": [{"total": t, "if": why} for t, why in self.outcomes],
            "say": str(self),
        }


def score_ranks(
    hand: Sequence[Card | Rank | int | str] | str,
    starter: Card | Rank | int | str,
    *,
    crib: bool = False,
    rules: RuleSet = SIX_CARD,
) -> RankOnlyScore:
    """Score ranks as the rule books write them (``5-5-5-J``, starter ``5``), suits unknown.

    Suits change a show's score only through its flush and his nobs: one assignment of suits
    of each pattern of them (:func:`_suit_pattern`, 8 at most) is scored with
    :func:`score_show`, where scoring all of them cost up to 1,024 scorings (62 ms of CPU a
    ``/score`` request: attack round 4, finding 3). The least total is certain, and each flush
    or nobs that some assignment allows is listed with its condition. A :class:`Card` among
    the ranks (a suited starter, say) keeps its suit.

    Raises:
        InvalidCardError: for an unknown rank.
        DuplicateCardError: for a card given twice.
        HandSizeError: for the wrong number of ranks, or more than four of a rank.

    >>> print(score_ranks("5 5 5 J", Card.parse("5S")))
    28; 29 if the jack is the starter's suit
    """
    tokens = split_tokens(hand) if isinstance(hand, str) else hand
    known = [_as_known(c) for c in (*tokens, starter)]  # the starter last
    check_distinct([c for c in known if isinstance(c, Card)])
    ranks = [c.rank if isinstance(c, Card) else c for c in known]
    if Counter(ranks).most_common(1)[0][1] > 4:
        raise HandSizeError("more than four cards of one rank")
    suits_allowed = [(c.suit,) if isinstance(c, Card) else tuple(Suit) for c in known]
    found: dict[tuple[int, int], int] = {}
    scored: set[tuple[bool, bool, bool]] = set()
    for suits in itertools.product(*suits_allowed):
        pattern = _suit_pattern(ranks, suits)
        if pattern in scored or len(set(zip(ranks, suits, strict=True))) < len(ranks):
            continue
        scored.add(pattern)
        cards = [Card(r, s) for r, s in zip(ranks, suits, strict=True)]
        breakdown = score_show(cards[:-1], cards[-1], crib=crib, rules=rules)
        by_kind = breakdown.points_by_kind()
        found[(by_kind.get(Kind.FLUSH, 0), by_kind.get(Kind.NOBS, 0))] = breakdown.total
    certain = found.pop(min(found, key=found.__getitem__))  # (0, 0) unless nobs is forced
    jacks = ranks[:-1].count(Rank.JACK)
    outcomes = sorted(
        (total, _condition(flush, nobs, len(ranks) - 1, jacks))
        for (flush, nobs), total in found.items()
    )
    return RankOnlyScore(certain, tuple(outcomes), ranks[-1])


def score_typed(
    text: str,
    starter: str | None = None,
    *,
    crib: bool = False,
    rules: RuleSet = SIX_CARD,
    starter_place: str = "with --starter",
) -> Breakdown | RankOnlyScore:
    """Score a hand or crib as a player types it, the one reading ``crib score`` and /score share.

    The starter is given apart (``starter``), after a bar (``5H 5D 5C JS | 5S``) or last.
    Cards with suits give the breakdown; when any card is a rank alone (``5 5 5 J``, starter
    ``5S``) the answer is what is certain and what the suits could add.

    Args:
        text: the cards as typed.
        starter: the starter typed apart, if any (blank counts as not given).
        crib: score as a crib.
        rules: the rule set.
        starter_place: where else the starter can be typed, for the messages.

    Raises:
        InvalidCardError: for a token that is neither a card nor a rank.
        DuplicateCardError: for a card given twice.
        HandSizeError: for a missing or doubled starter, or the wrong number of cards.

    >>> score_typed("5H 5D 5C JS | 5S").total
    29
    >>> print(score_typed("5 5 5 J", "5S"))
    28; 29 if the jack is the starter's suit
    """
    tokens, starter_token = split_show(
        text, starter, size=rules.show_size(crib=crib), crib=crib, starter_place=starter_place
    )
    typed = [*tokens, starter_token]
    if not any(is_rank_only([t]) for t in typed):
        return score_show(tokens, starter_token, crib=crib, rules=rules)
    known = [t if is_rank_only([t]) else as_card(t) for t in typed]
    return score_ranks(known[:-1], known[-1], crib=crib, rules=rules)


def _suit_pattern(ranks: Sequence[Rank], suits: Sequence[Suit]) -> tuple[bool, bool, bool]:
    """What of the suits ``suits`` (the starter's last) a show's score depends on.

    Whether the hand is one suit, whether the starter is of it too, and whether a jack in the
    hand is the starter's suit: two assignments alike in these score the same.

    >>> _suit_pattern([Rank.JACK, Rank.FIVE], [Suit.HEARTS, Suit.HEARTS])
    (True, True, True)
    """
    *hand, starter = suits
    one_suit = len(set(hand)) == 1
    nobs = any(r is Rank.JACK and s == starter for r, s in zip(ranks[:-1], hand, strict=True))
    return one_suit, one_suit and hand[0] == starter, nobs


def _as_known(card: Card | Rank | int | str) -> Card | Rank:
    """A card keeps its suit; anything else is a rank alone."""
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return parse_rank(card)
    return Rank(card)


def _condition(flush: int, nobs: int, size: int, jacks: int) -> str:
    parts = []
    if flush == size:
        parts.append("the hand is all one suit")
    elif flush:
        parts.append(f"all {number_words(size + 1)} cards are one suit")
    if nobs:
        parts.append(f"{'the' if jacks == 1 else 'a'} jack is the starter's suit")
    return " and ".join(parts)


def typed_body(data: Mapping[str, Any]) -> tuple[str, str | None]:
    """The cards as typed and the starter typed apart, from a score request (``/api/score``).

    ``{"cards": "5H 5D 5C JS | 5S"}`` (a ``"starter"`` may be given apart), or the first shape,
    ``{"hand": ["5H", ...], "starter": "5S"}``.

    Raises:
        InvalidJSONError: For neither shape.
    """
    cards, hand, starter = data.get("cards"), data.get("hand"), data.get("starter")
    listed = isinstance(hand, list) and all(isinstance(c, str) for c in hand)
    if cards is None and listed and isinstance(starter, str):  # the first shape
        cards, hand = " ".join(map(str, hand or ())), None
    if hand is not None or not isinstance(cards, str) or not isinstance(starter, str | None):
        raise InvalidJSONError(
            "give 'cards' as typed (5H 5D 5C JS | 5S), or 'hand' as a list of cards and"
            " 'starter' as one card"
        )
    return cards, starter
