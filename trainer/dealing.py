"""Drills as deals: their kinds and categories, dealing by difficulty, the daily challenge.

Everything is deterministic from a seed (the daily challenge is seeded by the date) and pure:
no Flask, no SQL. Points always come from the engine (:func:`trainer.show.score_show`,
:func:`trainer.pegging.score_peg`); grading is :mod:`trainer.grading`, weak spots
:mod:`trainer.weak_spots`.

>>> hand = deal("hand", random.Random("doc"))
>>> hand.kind, len(hand.cards), hand.starter is not None
('hand', 4, True)
>>> [d.kind for d in daily("2026-11-22")] == list(DAILY_KINDS)
True
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from .cards import DECK, Card, Rank, Suit, as_card
from .discard import analyze_discards
from .errors import CribbageError
from .items import Kind, ScoreItem
from .pegging import GO, Peg, play_out, score_peg
from .show import Breakdown, score_show

DrillKind = Literal["hand", "crib", "pegging", "discard", "play"]
KINDS: tuple[DrillKind, ...] = ("hand", "crib", "pegging", "discard", "play")
"""Every kind of drill: ``play`` is a whole play pegged card by card (the play-out drill)."""
CountShown = Literal["after", "before", "none"]
"""What a pegging drill shows of the count: the count the card makes, the count before it, or
nothing (the player keeps the count and says it)."""


class Difficulty(enum.Enum):
    """How busy a deal is: measured by the number of scoring items (or points pegged).

    In pegging it also says how much of the count is shown (:data:`PEGGING_COUNT_SHOWN`):
    at the densest level the player keeps the count. In discards it is how close the call
    is: how far the best throw beats the next.
    """

    BEGINNER = "beginner"
    """Few combinations: at most three items, no multiple runs."""
    STANDARD = "standard"
    """Whatever the deck deals."""
    DENSE = "dense"
    """Many combinations: seven or more items (double runs, many fifteens)."""


class Category(enum.Enum):
    """What a deal asks the player to see; answers are tallied per category for weak spots."""

    FIFTEENS = "fifteens"
    """Two-card fifteens."""
    LONG_FIFTEENS = "long fifteens"
    """Fifteens made of three or more cards."""
    PAIRS = "pairs"
    """Pairs, pairs royal and double pairs royal in the show."""
    RUNS = "runs"
    """A single run."""
    MULTIPLE_RUNS = "runs with duplicates"
    """Double, triple and double-double runs."""
    FLUSH = "flush"
    """A flush in hand or crib."""
    NOBS = "nobs"
    """The jack of the starter's suit."""
    CRIB_FLUSH = "crib flush"
    """The trap: four crib cards of one suit and a starter of another score no flush."""
    NINETEEN = "nineteen"
    """A hand worth nothing."""
    PEG_FIFTEEN = "pegging fifteen"
    """The count reaching fifteen."""
    PEG_PAIRS = "pegging pairs"
    """Pairs (royal, double royal) played in a row."""
    PEG_RUNS = "pegging runs"
    """Runs in the play, in any order."""
    PEG_THIRTY_ONE = "pegging 31"
    """The count reaching thirty-one."""
    PEG_GO = "pegging go"
    """The go and the last card."""
    PEG_COUNT = "pegging count"
    """Keeping the count: the running total after each card, restarted after a go or 31."""
    DISCARD_DEALER = "discard as dealer"
    """Throwing to your own crib."""
    DISCARD_PONE = "discard as pone"
    """Throwing to the opponent's crib."""

    @property
    def kinds(self) -> tuple[DrillKind, ...]:
        """The drill kinds in which this category comes up."""
        if self in (Category.PEG_GO, Category.PEG_COUNT):
            return ("play",)  # the count is asked of dense pegging drills too, never aimed at
        if self.name.startswith("PEG_"):
            return ("pegging", "play")
        if self.name.startswith("DISCARD_"):
            return ("discard",)
        if self is Category.CRIB_FLUSH:
            return ("crib",)
        return ("hand", "crib")


_PEG_CATEGORIES = {
    Kind.FIFTEEN: Category.PEG_FIFTEEN,
    Kind.PAIR: Category.PEG_PAIRS,
    Kind.PAIR_ROYAL: Category.PEG_PAIRS,
    Kind.DOUBLE_PAIR_ROYAL: Category.PEG_PAIRS,
    Kind.RUN: Category.PEG_RUNS,
    Kind.THIRTY_ONE: Category.PEG_THIRTY_ONE,
    Kind.GO: Category.PEG_GO,
    Kind.LAST_CARD: Category.PEG_GO,
}

PEGGING_COUNT_SHOWN: dict[Difficulty, CountShown] = {
    Difficulty.BEGINNER: "after",
    Difficulty.STANDARD: "before",
    Difficulty.DENSE: "none",
}
"""How much of the count a pegging drill shows, by level: keeping the count is the player's
job at the densest level (they say the count and the pegs)."""

LEVEL_WORDS: dict[str, dict[Difficulty, str]] = {
    "show": {
        Difficulty.BEGINNER: "few combinations: three items at most, one run at most",
        Difficulty.STANDARD: "whatever the deck deals",
        Difficulty.DENSE: "busy hands: seven items or more (double runs, many fifteens)",
    },
    "pegging": {
        Difficulty.BEGINNER: "the count is shown; the card makes nothing, fifteen, a pair or 31",
        Difficulty.STANDARD: "the count before the card is shown: add the card yourself",
        Difficulty.DENSE: "you keep the count: say it and what the card pegs (3 or more: runs,"
        " pairs royal, two scores at once)",
    },
    "play": {
        Difficulty.BEGINNER: "a quiet play: 4 points pegged at most",
        Difficulty.STANDARD: "whatever the deck deals",
        Difficulty.DENSE: "a lively play: 9 points pegged or more",
    },
    "discard": {
        Difficulty.BEGINNER: "one throw stands out: it beats the next best by a point or more",
        Difficulty.STANDARD: "any six cards",
        Difficulty.DENSE: "close calls: the best throw beats the next by under 0.3 points",
    },
}
"""What each level means, in players' words, by drill (hands and cribs share ``show``)."""


def level_words(kind: str) -> dict[str, str]:
    """Each level's meaning for drills of ``kind``, by the level's name.

    >>> level_words("play")["beginner"]
    'a quiet play: 4 points pegged at most'
    """
    words = LEVEL_WORDS.get(kind, LEVEL_WORDS["show"])
    return {level.value: text for level, text in words.items()}


@dataclasses.dataclass(frozen=True)
class Deal:
    """One drill's cards.

    * ``hand`` / ``crib``: ``cards`` are the four hand or crib cards, ``starter`` the turn-up.
    * ``pegging``: ``cards`` are the cards played since the count last restarted, oldest
      first, and ``played`` the card just played on top of them.
    * ``discard``: ``cards`` are the six cards dealt; ``dealer`` says whose crib it is.
    * ``play``: ``cards`` are the pone's four cards then the dealer's, ``order`` the cards in
      the order played (a legal play: :func:`trainer.pegging.play_out` finds its goes).
    """

    kind: DrillKind
    """Which drill this is."""
    cards: tuple[Card, ...]
    """The hand, crib, pile or six dealt cards."""
    starter: Card | None = None
    """The starter, for hand and crib drills."""
    played: Card | None = None
    """The card just played, for pegging drills."""
    dealer: bool | None = None
    """Whether the player is the dealer, for discard drills."""
    count_shown: CountShown = "after"
    """What a pegging drill shows of the count (:data:`PEGGING_COUNT_SHOWN`)."""
    order: tuple[Card, ...] = ()
    """The cards in the order played, for play drills."""

    def breakdown(self) -> Breakdown:
        """The engine's score of a hand or crib drill.

        Raises:
            ValueError: for pegging and discard drills.
        """
        if self.starter is None:
            raise ValueError(f"a {self.kind} drill has no show to score")
        return score_show(self.cards, self.starter, crib=self.kind == "crib")

    def peg_items(self) -> tuple[ScoreItem, ...]:
        """What the card just played pegs, from the engine.

        Raises:
            ValueError: for drills other than pegging.
        """
        if self.played is None:
            raise ValueError(f"a {self.kind} drill has no card played")
        return tuple(score_peg(self.cards, self.played))

    @property
    def count_asked(self) -> bool:
        """Whether the player must say the count (a pegging drill showing none, or a play)."""
        return self.kind == "play" or (self.kind == "pegging" and self.count_shown == "none")

    def pegs(self) -> list[Peg]:
        """Every card and go of a play drill, with what it pegged, from the engine.

        Raises:
            ValueError: for drills other than play.
        """
        if self.kind != "play":
            raise ValueError(f"a {self.kind} drill is not a whole play")
        half = len(self.cards) // 2
        return play_out(self.cards[:half], self.cards[half:], self.order)

    def to_json(self) -> dict[str, Any]:
        """The cards as notation, for storing and for the page (no answers in it)."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.kind == "pegging":
            data["played"] = [str(c) for c in self.cards]
            data["card"] = str(self.played)
            before = sum(c.value for c in self.cards)
            if self.count_shown == "after":
                data["count"] = before + (self.played.value if self.played else 0)
            elif self.count_shown == "before":
                data["count_before"] = before
            else:
                data["ask_count"] = True
        elif self.kind == "play":
            half = len(self.cards) // 2
            data["pone"] = [str(c) for c in self.cards[:half]]
            data["dealer"] = [str(c) for c in self.cards[half:]]
            data["steps"] = [
                {"card": str(p.card), "player": p.player} if p.card else {"card": GO}
                for p in self.pegs()
            ]
        elif self.kind == "discard":
            data["cards"] = [str(c) for c in self.cards]
            data["dealer"] = self.dealer
            data["role"] = "dealer" if self.dealer else "pone"
        else:
            data["hand"] = [str(c) for c in self.cards]
            data["starter"] = str(self.starter)
            data["crib"] = self.kind == "crib"
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deal:
        """Rebuild a deal from :meth:`to_json`.

        Raises:
            ValueError: for an unknown kind or bad cards.
        """
        kind = data.get("kind")
        if kind == "pegging":
            shown: CountShown = (
                "after" if "count" in data else "before" if "count_before" in data else "none"
            )
            played = as_card(data["card"])
            return cls("pegging", _cards(data["played"]), played=played, count_shown=shown)
        if kind == "play":
            hands = _cards([*data["pone"], *data["dealer"]])
            order = _cards(s["card"] for s in data["steps"] if s["card"] != GO)
            return cls("play", hands, order=order)
        if kind == "discard":
            return cls("discard", _cards(data["cards"]), dealer=bool(data["dealer"]))
        if kind in ("hand", "crib"):
            return cls(kind, _cards(data["hand"]), starter=as_card(data["starter"]))
        raise ValueError(f"unknown drill kind {kind!r} (use one of: {', '.join(KINDS)})")


def _cards(tokens: Iterable[str]) -> tuple[Card, ...]:
    return tuple(as_card(t) for t in tokens)


# --- classification ---------------------------------------------------------------------


def classify(deal: Deal) -> frozenset[Category]:
    """The categories a deal exercises, read from the engine's items.

    >>> trap = Deal("crib", _cards(["5H", "10H", "JH", "QH"]), Card.parse("5S"))
    >>> sorted(c.value for c in classify(trap))
    ['crib flush', 'fifteens', 'pairs', 'runs']
    """
    if deal.kind == "discard":
        return frozenset({Category.DISCARD_DEALER if deal.dealer else Category.DISCARD_PONE})
    if deal.kind in ("pegging", "play"):
        items = (
            deal.peg_items()
            if deal.kind == "pegging"
            else [i for p in deal.pegs() for i in p.items]
        )
        found = {_PEG_CATEGORIES[i.kind] for i in items if i.kind in _PEG_CATEGORIES}
        return frozenset(found | ({Category.PEG_COUNT} if deal.count_asked else set()))
    return _show_facts(deal)[0]


_ShowKey = tuple[str, tuple[int, ...], bool, bool, bool]
_SHOW_FACTS: dict[_ShowKey, tuple[frozenset[Category], int]] = {}
"""Categories and item counts of the show deals met so far, by :func:`_show_key`: dealing
tries several random deals for each drill, and itemizing each one is its slowest step."""


def _show_key(deal: Deal) -> _ShowKey:
    """All that a show's categories and item count depend on.

    The kind, the ranks, whether the hand is of one suit, whether the starter is too, and
    whether the hand holds the jack of the starter's suit.
    """
    hand, starter = deal.cards, deal.starter
    assert starter is not None
    one_suit = len({c.suit for c in hand}) == 1
    return (
        deal.kind,
        tuple(sorted(c.rank for c in (*hand, starter))),
        one_suit,
        one_suit and starter.suit is hand[0].suit,
        any(c.rank is Rank.JACK and c.suit is starter.suit for c in hand),
    )


def _show_facts(deal: Deal) -> tuple[frozenset[Category], int]:
    """A show deal's categories and its number of scoring items, from the engine's items.

    Itemized once for all deals with the same :func:`_show_key`.
    """
    key = _show_key(deal)
    facts = _SHOW_FACTS.get(key)
    if facts is None:
        breakdown = deal.breakdown()
        facts = _show_categories(breakdown, deal.kind == "crib"), len(breakdown.items)
        _SHOW_FACTS[key] = facts
    return facts


def _show_categories(breakdown: Breakdown, crib: bool) -> frozenset[Category]:
    found: set[Category] = set()
    runs = 0
    for item in breakdown.items:
        if item.kind is Kind.FIFTEEN:
            found.add(Category.FIFTEENS if len(item.cards) == 2 else Category.LONG_FIFTEENS)
        elif item.kind is Kind.RUN:
            runs += 1
        elif item.kind is Kind.FLUSH:
            found.add(Category.FLUSH)
        elif item.kind is Kind.NOBS:
            found.add(Category.NOBS)
        else:
            found.add(Category.PAIRS)
    if runs:
        found.add(Category.RUNS if runs == 1 else Category.MULTIPLE_RUNS)
    if crib and is_crib_flush_trap(breakdown.hand, breakdown.starter):
        found.add(Category.CRIB_FLUSH)
    if breakdown.total == 0:
        found.add(Category.NINETEEN)
    return frozenset(found)


def is_crib_flush_trap(crib: Sequence[Card], starter: Card) -> bool:
    """Four crib cards of one suit with a starter of another: no flush in the crib.

    >>> is_crib_flush_trap(_cards(["2H", "4H", "6H", "8H"]), Card.parse("KS"))
    True
    """
    return len({c.suit for c in crib}) == 1 and starter.suit is not crib[0].suit


def _density(deal: Deal) -> int:
    """How busy a deal is: items in the show, or points pegged."""
    if deal.kind == "pegging":
        return sum(i.points for i in deal.peg_items())
    if deal.kind == "play":
        return sum(p.points for p in deal.pegs())
    return _show_facts(deal)[1]


def _margin(deal: Deal) -> float:
    """How far a discard's best throw beats the next one unlike it, by the uniform crib.

    In expected points to two decimals, as the discard table rounds them.
    """
    nets = [round(o.net_ev, 2) for o in analyze_discards(deal.cards, dealer=bool(deal.dealer))]
    return nets[0] - next((net for net in nets if net != nets[0]), nets[0])


def measure(deal: Deal) -> float:
    """The engine's measure of a deal, the one its levels are dealt by.

    The items in a show, the points a pegging card or a play pegs, or how far a discard's
    best throw beats the next (in expected points: the smaller, the closer the call).

    >>> measure(Deal("hand", _cards(["5H", "5D", "5C", "JS"]), Card.parse("5S")))
    15
    """
    return _margin(deal) if deal.kind == "discard" else _density(deal)


def _fits(deal: Deal, difficulty: Difficulty) -> bool:
    if difficulty is Difficulty.STANDARD:
        return True
    if deal.kind == "discard":
        margin = _margin(deal)
        return margin >= _CLEAR_THROW if difficulty is Difficulty.BEGINNER else margin < _CLOSE_CALL
    density = _density(deal)
    if deal.kind == "pegging":
        return density <= 2 if difficulty is Difficulty.BEGINNER else density >= 3
    if deal.kind == "play":
        return (
            density <= _QUIET_PLAY if difficulty is Difficulty.BEGINNER else density >= _LIVELY_PLAY
        )
    if difficulty is Difficulty.BEGINNER:
        return density <= 3 and Category.MULTIPLE_RUNS not in classify(deal)
    return density >= 7


# --- dealing -----------------------------------------------------------------------------------

_MAX_TRIES = 3000
_QUIET_PLAY = 4
"""Points pegged at most in a beginner's play drill."""
_LIVELY_PLAY = 9
"""Points pegged at least in a dense play drill."""
_CLEAR_THROW = 1.0
"""Expected points at least by which a beginner's best throw beats the next."""
_CLOSE_CALL = 0.3
"""Expected points under which a dense discard's best throw beats the next."""


def deal(
    kind: DrillKind,
    rng: random.Random,
    difficulty: Difficulty = Difficulty.STANDARD,
    focus: Category | None = None,
) -> Deal:
    """Deal one drill of ``kind``, as busy as ``difficulty`` asks, exercising ``focus`` if given.

    The same ``rng`` state always gives the same deal. When no deal with the focus turns up in
    a few thousand tries, the focus is dropped, then the difficulty.

    Raises:
        CribbageError: for an unknown kind, or a focus that cannot come up in this kind.
    """
    if kind not in KINDS:
        raise CribbageError(f"unknown drill kind {kind!r} (use one of: {', '.join(KINDS)})")
    if focus is not None and kind not in focus.kinds:
        raise CribbageError(f"{focus.value!r} does not come up in {kind} drills")
    if focus is Category.NINETEEN:
        difficulty = Difficulty.STANDARD
    shown = PEGGING_COUNT_SHOWN[difficulty]
    for want, level in ((focus, difficulty), (None, difficulty), (None, Difficulty.STANDARD)):
        if kind == "pegging" and want is not None and not _aimed(level, want):
            continue  # no shape of the level scores it (a run at beginner's 2 points at most)
        for _ in range(_MAX_TRIES):
            candidate = _raw_deal(kind, rng, want, level)
            if kind == "pegging":
                candidate = dataclasses.replace(candidate, count_shown=shown)
            if _fits(candidate, level) and (want is None or want in classify(candidate)):
                return candidate
    return _raw_deal(kind, rng, None)  # pragma: no cover - every kind deals in a few tries


_PEGGING_SPREAD: dict[Difficulty, tuple[frozenset[Kind], ...]] = {
    Difficulty.BEGINNER: tuple(
        map(frozenset, ((), (Kind.FIFTEEN,), (Kind.PAIR,), (Kind.THIRTY_ONE,)))
    ),
    Difficulty.STANDARD: tuple(
        map(
            frozenset,
            (
                (),
                (Kind.FIFTEEN,),
                (Kind.PAIR,),
                (Kind.RUN,),
                (Kind.THIRTY_ONE,),
                (Kind.PAIR_ROYAL,),
                (Kind.THIRTY_ONE, Kind.PAIR),
            ),
        )
    ),
    Difficulty.DENSE: tuple(
        map(
            frozenset,
            (
                (Kind.RUN,),
                (Kind.PAIR_ROYAL,),
                (Kind.FIFTEEN, Kind.PAIR),
                (Kind.FIFTEEN, Kind.RUN),
                (Kind.THIRTY_ONE, Kind.PAIR),
                (Kind.THIRTY_ONE, Kind.RUN),
            ),
        )
    ),
}
"""What a pegging drill's card scores, by level: each drill is dealt one of its level's
shapes, drawn alike, so that no one score (31 most of all) comes up in most drills."""


def _raw_deal(
    kind: DrillKind,
    rng: random.Random,
    focus: Category | None,
    level: Difficulty = Difficulty.STANDARD,
) -> Deal:
    """A random deal; flushes are built directly, being too rare to wait for."""
    if focus in (Category.FLUSH, Category.CRIB_FLUSH):
        suit = rng.choice(list(Suit))
        suited = rng.sample([c for c in DECK if c.suit is suit], 5)
        starter = suited[4]
        if focus is Category.CRIB_FLUSH or rng.random() < 0.5:
            starter = rng.choice([c for c in DECK if c.suit is not suit])
        return Deal(kind, tuple(suited[:4]), starter=starter)
    cards = rng.sample(DECK, 6)
    if kind == "discard":
        return Deal(kind, tuple(cards), dealer=rng.random() < 0.5)
    if kind == "pegging":
        return _raw_pegging(rng, level, focus)
    if kind == "play":
        return _raw_play(rng)
    return Deal(kind, tuple(cards[:4]), starter=cards[4])


def _raw_pegging(rng: random.Random, level: Difficulty, focus: Category | None) -> Deal:
    """A pile of one to six cards played without passing 31, and a legal card on top.

    The card scores one of the level's :data:`_PEGGING_SPREAD` (one with the ``focus`` where
    the level has one): a pile is dealt, then a card of a rank that scores the shape on it,
    if any rank does (else another pile).
    """
    shape = rng.choice(_aimed(level, focus) or _PEGGING_SPREAD[level])
    while True:
        pile = _pegging_pile(rng)
        count = sum(c.value for c in pile)
        left = [c for c in DECK if c not in pile and count + c.value <= 31]
        ranks = {c.rank: c for c in left}  # the play scores ranks, not suits
        scoring = [r for r, c in ranks.items() if {i.kind for i in score_peg(pile, c)} == shape]
        if scoring:
            rank = rng.choice(sorted(scoring))
            card = rng.choice([c for c in left if c.rank is rank])
            return Deal("pegging", tuple(pile), played=card)


def _aimed(level: Difficulty, focus: Category | None) -> list[frozenset[Kind]]:
    """The shapes of the level's pegging spread that score ``focus``."""
    return [s for s in _PEGGING_SPREAD[level] if focus in {_PEG_CATEGORIES[k] for k in s}]


def _pegging_pile(rng: random.Random) -> list[Card]:
    """One to six cards played without passing 31 (the count since it last restarted)."""
    length = rng.randint(1, 6)
    pile: list[Card] = []
    count = 0
    for card in rng.sample(DECK, 52):
        if count + card.value <= 31:
            pile.append(card)
            count += card.value
        if len(pile) == length:
            break
    return pile


_SCORING_CHOICE = 0.5
"""How often a player in a dealt play picks a card that pegs, when one does."""


def _raw_play(rng: random.Random) -> Deal:
    """Four cards each, played out as players play: a card that pegs about half the time it can.

    The turn passes as :func:`trainer.pegging.play_out` passes it (a player who can play
    must; after a go or 31 the other leads).
    """
    dealt = rng.sample(DECK, 8)
    hands = [dealt[:4], dealt[4:]]
    pile: list[Card] = []
    order: list[Card] = []
    turn, last = 0, 1
    while hands[0] or hands[1]:
        total = sum(c.value for c in pile)
        fits = [c for c in hands[turn] if total + c.value <= 31]
        if not fits:
            if any(total + c.value <= 31 for c in hands[1 - turn]):
                turn = 1 - turn  # go: the other plays on
            else:
                pile, turn = [], 1 - last  # neither can: the go, and the count restarts
            continue
        pegging = [c for c in fits if score_peg(pile, c)]
        card = rng.choice(pegging if pegging and rng.random() < _SCORING_CHOICE else fits)
        hands[turn].remove(card)
        order.append(card)
        pile.append(card)
        if total + card.value == 31:
            pile = []
        last, turn = turn, 1 - turn
    return Deal("play", tuple(dealt), order=tuple(order))


DAILY_KINDS: tuple[DrillKind, ...] = ("hand", "hand", "crib", "pegging", "discard", "hand")
"""The drills of a daily challenge, in order."""
DAILY_LEVELS = (
    Difficulty.BEGINNER,
    Difficulty.STANDARD,
    Difficulty.STANDARD,
    Difficulty.STANDARD,
    Difficulty.STANDARD,
    Difficulty.DENSE,
)


def daily(date: str) -> list[Deal]:
    """The daily challenge for ``date`` (``"2026-11-22"``): the same deals for every player.

    It eases in with a beginner hand, sets the crib-flush trap on odd days, and ends on a
    dense hand.
    """
    rng = random.Random(f"daily:{date}")
    crib_focus = Category.CRIB_FLUSH if int(date[-1:] or 0) % 2 else None
    return [
        deal(kind, rng, level, crib_focus if kind == "crib" else None)
        for kind, level in zip(DAILY_KINDS, DAILY_LEVELS, strict=True)
    ]
