"""Counting drills: deal them by kind and difficulty, grade answers, aim at weak spots.

Everything is deterministic from a seed (the daily challenge is seeded by the date) and pure:
no Flask, no SQL. Points always come from the engine (:func:`trainer.show.score_show`,
:func:`trainer.pegging.score_peg`, :func:`trainer.discard.analyze_discards`).

>>> hand = deal("hand", random.Random("doc"))
>>> hand.kind, len(hand.cards), hand.starter is not None
('hand', 4, True)
>>> grade(hand, {"points": hand.breakdown().total}).correct
True
>>> [d.kind for d in daily("2026-11-22")] == list(DAILY_KINDS)
True
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Literal, TypeGuard

from .breakdown import Kind, ScoreItem
from .cards import DECK, Card, HandSizeError, Suit, as_card, check_distinct
from .discard import analyze_discards
from .pegging import score_peg
from .show import Breakdown, score_show

DrillKind = Literal["hand", "crib", "pegging", "discard"]
KINDS: tuple[DrillKind, ...] = ("hand", "crib", "pegging", "discard")
"""Every kind of drill."""


class Difficulty(enum.Enum):
    """How busy a deal is: measured by the number of scoring items (or points pegged)."""

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
    DISCARD_DEALER = "discard as dealer"
    """Throwing to your own crib."""
    DISCARD_PONE = "discard as pone"
    """Throwing to the opponent's crib."""

    @property
    def kinds(self) -> tuple[DrillKind, ...]:
        """The drill kinds in which this category comes up."""
        if self.name.startswith("PEG_"):
            return ("pegging",)
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
}

# The order in which a player is most likely to overlook an item, used to explain a short count.
_OVERLOOKED = (Kind.NOBS, Kind.FLUSH, Kind.RUN, Kind.FIFTEEN, Kind.PAIR, Kind.PAIR_ROYAL)


@dataclasses.dataclass(frozen=True)
class Deal:
    """One drill's cards.

    * ``hand`` / ``crib``: ``cards`` are the four hand or crib cards, ``starter`` the turn-up.
    * ``pegging``: ``cards`` are the cards played since the count last restarted, oldest
      first, and ``played`` the card just played on top of them.
    * ``discard``: ``cards`` are the six cards dealt; ``dealer`` says whose crib it is.
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

    def breakdown(self) -> Breakdown:
        """The engine's score of a hand or crib drill.

        :raises ValueError: for pegging and discard drills.
        """
        if self.starter is None:
            raise ValueError(f"a {self.kind} drill has no show to score")
        return score_show(self.cards, self.starter, crib=self.kind == "crib")

    def peg_items(self) -> tuple[ScoreItem, ...]:
        """What the card just played pegs, from the engine.

        :raises ValueError: for drills other than pegging.
        """
        if self.played is None:
            raise ValueError(f"a {self.kind} drill has no card played")
        return tuple(score_peg(self.cards, self.played))

    def to_json(self) -> dict[str, Any]:
        """The cards as notation, for storing and for the page (no answers in it)."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.kind == "pegging":
            data["played"] = [str(c) for c in self.cards]
            data["card"] = str(self.played)
            data["count"] = sum(c.value for c in (*self.cards, self.played) if c)
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

        :raises ValueError: for an unknown kind or bad cards.
        """
        kind = data.get("kind")
        if kind == "pegging":
            return cls("pegging", _cards(data["played"]), played=as_card(data["card"]))
        if kind == "discard":
            return cls("discard", _cards(data["cards"]), dealer=bool(data["dealer"]))
        if kind in ("hand", "crib"):
            return cls(kind, _cards(data["hand"]), starter=as_card(data["starter"]))
        raise ValueError(f"unknown drill kind {kind!r} (use one of: {', '.join(KINDS)})")


def _cards(tokens: Iterable[str]) -> tuple[Card, ...]:
    return tuple(as_card(t) for t in tokens)


# --- classification --------------------------------------------------------------------------


def classify(deal: Deal) -> frozenset[Category]:
    """The categories a deal exercises, read from the engine's items.

    >>> trap = Deal("crib", _cards(["5H", "10H", "JH", "QH"]), Card.parse("5S"))
    >>> sorted(c.value for c in classify(trap))
    ['crib flush', 'fifteens', 'pairs', 'runs']
    """
    if deal.kind == "discard":
        return frozenset({Category.DISCARD_DEALER if deal.dealer else Category.DISCARD_PONE})
    if deal.kind == "pegging":
        return frozenset(
            _PEG_CATEGORIES[i.kind] for i in deal.peg_items() if i.kind in _PEG_CATEGORIES
        )
    return _show_categories(deal.breakdown(), deal.kind == "crib")


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
    return len(deal.breakdown().items)


def _fits(deal: Deal, difficulty: Difficulty) -> bool:
    if difficulty is Difficulty.STANDARD or deal.kind == "discard":
        return True
    density = _density(deal)
    if deal.kind == "pegging":
        return density <= 2 if difficulty is Difficulty.BEGINNER else density >= 3
    if difficulty is Difficulty.BEGINNER:
        return density <= 3 and Category.MULTIPLE_RUNS not in classify(deal)
    return density >= 7


# --- dealing -----------------------------------------------------------------------------------

_MAX_TRIES = 3000


def deal(
    kind: DrillKind,
    rng: random.Random,
    difficulty: Difficulty = Difficulty.STANDARD,
    focus: Category | None = None,
) -> Deal:
    """Deal one drill of ``kind``, as busy as ``difficulty`` asks, exercising ``focus`` if given.

    The same ``rng`` state always gives the same deal. When no deal with the focus turns up in
    a few thousand tries, the focus is dropped, then the difficulty.

    :raises ValueError: for an unknown kind, or a focus that cannot come up in this kind.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown drill kind {kind!r} (use one of: {', '.join(KINDS)})")
    if focus is not None and kind not in focus.kinds:
        raise ValueError(f"{focus.value!r} does not come up in {kind} drills")
    if focus is Category.NINETEEN:
        difficulty = Difficulty.STANDARD
    for want, level in ((focus, difficulty), (None, difficulty), (None, Difficulty.STANDARD)):
        for _ in range(_MAX_TRIES):
            candidate = _raw_deal(kind, rng, want)
            if _fits(candidate, level) and (want is None or want in classify(candidate)):
                return candidate
    return _raw_deal(kind, rng, None)  # pragma: no cover - every kind deals in a few tries


def _raw_deal(kind: DrillKind, rng: random.Random, focus: Category | None) -> Deal:
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
        return _raw_pegging(rng)
    return Deal(kind, tuple(cards[:4]), starter=cards[4])


def _raw_pegging(rng: random.Random) -> Deal:
    """A pile of one to six cards played without passing 31, and a legal card on top."""
    length = rng.randint(1, 6)
    pile: list[Card] = []
    count = 0
    deck = rng.sample(DECK, 52)
    for card in deck:
        if count + card.value <= 31:
            pile.append(card)
            count += card.value
        if len(pile) == length + 1:
            break
    if len(pile) < 2:  # pragma: no cover - a shuffled deck always offers a second card
        return _raw_pegging(rng)
    return Deal("pegging", tuple(pile[:-1]), played=pile[-1])


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


# --- weak spots ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Tally:
    """How a player has done on one category: answers seen, missed, seconds spent."""

    seen: int = 0
    missed: int = 0
    seconds: float = 0.0

    @property
    def miss_rate(self) -> float:
        """Misses over answers, smoothed so that a new category starts at one in three."""
        return (self.missed + 1) / (self.seen + 3)


_CRIB_TRAP_SHARE = 0.2


def choose_focus(
    kind: DrillKind, tallies: Mapping[Category, Tally], rng: random.Random
) -> Category | None:
    """Pick the category to aim the next drill of ``kind`` at, or ``None`` for a free deal.

    Categories are drawn in proportion to the square of their smoothed miss rate, so a
    player's own mistakes come back often until they stop being mistakes, and up to twice
    as often again where the player is slower than their own average; a free deal keeps a
    third of the drills honest. Crib drills set the crib-flush trap at least one
    time in five.

    >>> rng = random.Random(1)
    >>> bad = {Category.NOBS: Tally(seen=20, missed=15)}
    >>> picks = [choose_focus("hand", bad, rng) for _ in range(200)]
    >>> picks.count(Category.NOBS) > 40  # a free choice would give about 19
    True
    """
    if kind == "crib" and rng.random() < _CRIB_TRAP_SHARE:
        return Category.CRIB_FLUSH
    if rng.random() < 1 / 3:
        return None
    options = [c for c in Category if kind in c.kinds and c is not Category.NINETEEN]
    seen = [t for t in tallies.values() if t.seen]
    pace = sum(t.seconds for t in seen) / max(1, sum(t.seen for t in seen))
    weights = [_weight(tallies.get(c, Tally()), pace) for c in options]
    return rng.choices(options, weights)[0]


def _weight(tally: Tally, pace: float) -> float:
    """A category's pull: its smoothed miss rate squared, doubled at most for slowness."""
    slowness = tally.seconds / tally.seen / pace if tally.seen and pace else 1.0
    return tally.miss_rate**2 * min(2.0, max(1.0, slowness))


# --- grading ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Grade:
    """The verdict on one answer, with everything the feedback page shows."""

    correct: bool
    """Whether the answer was right (a discard: no expected points lost)."""
    total: float
    """The right count, or for a discard the best expected net points."""
    claimed: float
    """What the player said, or the expected net points of their discard."""
    items: tuple[ScoreItem, ...] = ()
    """Every scoring combination (empty for discards)."""
    missed: tuple[ScoreItem, ...] = ()
    """Items that explain a short count (the fewest, most easily overlooked ones)."""
    missed_categories: frozenset[Category] = frozenset()
    """The categories this answer counts as missed, for weak spots."""
    options: tuple[Any, ...] = ()
    """For discards, the engine's options, best first."""
    by_kind: tuple[tuple[Kind, int, int], ...] = ()
    """For a count given by kind: ``(kind, claimed, right)`` for each of :data:`SHOW_KINDS`."""
    note: str = ""
    """A word on a classic mistake the answer looks like (the crib-flush trap)."""

    @property
    def over(self) -> float:
        """Points claimed beyond the right count."""
        return max(0.0, self.claimed - self.total)

    @property
    def under(self) -> float:
        """Points left unclaimed (in muggins, the opponent takes them)."""
        return max(0.0, self.total - self.claimed)

    def to_json(self) -> dict[str, Any]:
        """The verdict for the API (rounded expected values for discards)."""
        data: dict[str, Any] = {
            "correct": self.correct,
            "total": _number(self.total),
            "claimed": _number(self.claimed),
            "items": [i.to_json() for i in self.items],
            "missed": [i.to_json() for i in self.missed],
            "over": _number(self.over),
            "under": _number(self.under),
            "missed_categories": sorted(c.value for c in self.missed_categories),
        }
        if self.options:
            data["options"] = [o.to_json() for o in self.options]
            data["lost"] = _number(self.under)
        if self.note:
            data["note"] = self.note
        if self.by_kind:
            data["by_kind"] = [
                {"kind": kind.value, "claimed": claimed, "right": right}
                for kind, claimed, right in self.by_kind
            ]
        return data


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(x, 3)


SHOW_KINDS = (Kind.FIFTEEN, Kind.PAIR, Kind.RUN, Kind.FLUSH, Kind.NOBS)
"""The kinds a player can count a show by (pairs royal count as pairs)."""

_KIND_CATEGORIES = {
    Kind.FIFTEEN: frozenset({Category.FIFTEENS, Category.LONG_FIFTEENS}),
    Kind.PAIR: frozenset({Category.PAIRS}),
    Kind.RUN: frozenset({Category.RUNS, Category.MULTIPLE_RUNS}),
    Kind.FLUSH: frozenset({Category.FLUSH, Category.CRIB_FLUSH}),
    Kind.NOBS: frozenset({Category.NOBS}),
}


def grade(deal: Deal, answer: Mapping[str, Any]) -> Grade:
    """Grade an answer against the engine.

    ``answer`` is ``{"points": 12}``; for a hand or crib it may instead say the count by kind,
    ``{"by_kind": {"fifteen": 6, "pair": 2, "run": 3, "flush": 0, "nobs": 1}}``, which lets
    the verdict name exactly the kinds missed or over-counted; for a discard it is
    ``{"discard": ["7H", "8C"]}``.

    :raises ValueError: for a missing, malformed or impossible answer, naming the problem.
    """
    if deal.kind == "discard":
        return _grade_discard(deal, answer)
    if deal.kind == "pegging":
        return _grade_count(deal.peg_items(), _points(answer), classify(deal))
    items = deal.breakdown().items
    present = classify(deal)
    if answer.get("by_kind") is None:
        verdict = _grade_count(items, _points(answer), present)
    else:
        verdict = _grade_by_kind(items, _claims(answer["by_kind"]), present)
    flush = {k: c for k, c, _ in verdict.by_kind}.get(Kind.FLUSH, 0)
    if Category.CRIB_FLUSH in present and (verdict.over == len(deal.cards) or flush):
        return dataclasses.replace(verdict, note=CRIB_FLUSH_NOTE)
    return verdict


CRIB_FLUSH_NOTE = (
    "A crib scores a flush only when the starter is of the same suit too: "
    "four crib cards of one suit score nothing."
)
"""What the trainer says when a count looks like the crib-flush mistake."""


def _points(answer: Mapping[str, Any]) -> int:
    points = answer.get("points")
    if not _is_points(points, 99):
        raise ValueError(f"'points' must be a whole number from 0 to 99, got {points!r}")
    return points


def _is_points(value: object, top: int) -> TypeGuard[int]:
    """Whether ``value`` is a whole number from 0 to ``top`` (JSON ``true`` is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= top


def _claims(by_kind: Any) -> dict[Kind, int]:
    """``{"fifteen": 6, ...}`` as kinds; kinds left out are claimed as 0."""
    names = ", ".join(k.value for k in SHOW_KINDS)
    if not isinstance(by_kind, dict):
        raise ValueError(f"'by_kind' must map kinds ({names}) to points, got {by_kind!r}")
    claims = dict.fromkeys(SHOW_KINDS, 0)
    for name, points in by_kind.items():
        kind = next((k for k in SHOW_KINDS if k.value == name), None)
        if kind is None:
            raise ValueError(f"unknown kind {name!r} in 'by_kind' (use: {names})")
        if not _is_points(points, 29):
            raise ValueError(f"points for {name!r} must be a whole number from 0 to 29")
        claims[kind] = points
    return claims


def _grade_count(items: tuple[ScoreItem, ...], points: int, present: frozenset[Category]) -> Grade:
    total = sum(i.points for i in items)
    missed = explain_shortfall(items, total - points) if points < total else ()
    return Grade(
        correct=points == total,
        total=total,
        claimed=points,
        items=items,
        missed=missed,
        missed_categories=frozenset() if points == total else present,
    )


def _grade_by_kind(
    items: tuple[ScoreItem, ...], claims: dict[Kind, int], present: frozenset[Category]
) -> Grade:
    """Kind by kind: what was missed is explained within its kind; only wrong kinds count as
    missed categories."""
    rows: list[tuple[Kind, int, int]] = []
    missed: list[ScoreItem] = []
    wrong: set[Category] = set()
    for kind in SHOW_KINDS:
        of_kind = [i for i in items if i.kind is kind]
        right = sum(i.points for i in of_kind)
        rows.append((kind, claims[kind], right))
        if claims[kind] != right:
            wrong |= _KIND_CATEGORIES[kind] & present
            missed += explain_shortfall(of_kind, right - claims[kind])
    return Grade(
        correct=all(claimed == right for _, claimed, right in rows),
        total=sum(i.points for i in items),
        claimed=sum(claims.values()),
        items=items,
        missed=tuple(i for i in items if i in missed),
        missed_categories=frozenset(wrong),
        by_kind=tuple(rows),
    )


def explain_shortfall(items: Sequence[ScoreItem], short: int) -> tuple[ScoreItem, ...]:
    """The fewest items adding up to ``short`` points, preferring the easily overlooked.

    A player who types only a total never says which items they saw; this is the likeliest
    story. When no set of items adds up to exactly ``short`` (the player also counted
    something that is not there), the set coming closest is given.

    >>> from trainer.show import score_show
    >>> items = score_show(["5H", "5D", "5C", "JS"], "5S").items
    >>> [repr(i) for i in explain_shortfall(items, 1)]
    ["ScoreItem(Kind.NOBS, 'JS', 1)"]
    """
    if short <= 0:
        return ()
    order = sorted(range(len(items)), key=lambda i: _overlooked_rank(items[i]))
    best: dict[int, tuple[int, ...]] = {0: ()}
    for index in order:
        for total, chosen in list(best.items()):
            reach = total + items[index].points
            if reach not in best or len(best[reach]) > len(chosen) + 1:
                best[reach] = (*chosen, index)
    closest = min(best, key=lambda total: (abs(total - short), -total))
    return tuple(items[i] for i in sorted(best[closest]))


def _overlooked_rank(item: ScoreItem) -> tuple[int, int]:
    rank = _OVERLOOKED.index(item.kind) if item.kind in _OVERLOOKED else len(_OVERLOOKED)
    return rank, -len(item.cards)


def _grade_discard(deal: Deal, answer: Mapping[str, Any]) -> Grade:
    tokens = answer.get("discard")
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise ValueError(f"'discard' must be a list of two cards, got {tokens!r}")
    thrown = [as_card(t) for t in tokens]
    check_distinct(thrown)
    if len(thrown) != 2:
        raise HandSizeError(f"throw exactly 2 cards to the crib, got {len(thrown)}")
    strays = [str(c) for c in thrown if c not in deal.cards]
    if strays:
        raise ValueError(f"not among the six cards dealt: {', '.join(strays)}")
    options = tuple(analyze_discards(deal.cards, bool(deal.dealer)))
    chosen = next(o for o in options if set(map(as_card, o.discard)) == set(thrown))
    best = options[0].net_ev
    lost = best - chosen.net_ev
    return Grade(
        correct=lost < 1e-9,
        total=best,
        claimed=chosen.net_ev,
        missed_categories=frozenset() if lost < 1e-9 else classify(deal),
        options=options,
    )


def tally(
    answers: Iterable[tuple[Iterable[Category], Collection[Category], float]],
) -> dict[Category, Tally]:
    """Add up answers given as ``(categories present, categories missed, seconds)``.

    >>> nobs = Category.NOBS
    >>> tally([([nobs], [nobs], 4.0), ([nobs], [], 2.0)])[nobs]
    Tally(seen=2, missed=1, seconds=6.0)
    """
    totals: dict[Category, Tally] = {}
    for categories, missed, seconds in answers:
        for category in categories:
            old = totals.get(category, Tally())
            wrong = category in missed
            totals[category] = Tally(old.seen + 1, old.missed + wrong, old.seconds + seconds)
    return totals
