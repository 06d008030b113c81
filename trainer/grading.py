"""Grading: an answer to a drill checked against the engine, with what was missed and why.

>>> import random
>>> from trainer.dealing import deal
>>> hand = deal("hand", random.Random("doc"))
>>> grade(hand, {"points": hand.breakdown().total}).correct
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from .cards import Card, Rank, as_card, check_distinct
from .dealing import Category, Deal, classify
from .discard import CRIB_MODELS, DiscardOption, analyze_discards
from .errors import HandSizeError, InvalidAnswerError
from .items import Kind, ScoreItem, number_words
from .pegging import GO, Peg
from .show import _RUN_MULTIPLES

# The order in which a player is most likely to overlook an item, used to explain a short count.
_OVERLOOKED = (Kind.NOBS, Kind.FLUSH, Kind.RUN, Kind.FIFTEEN, Kind.PAIR, Kind.PAIR_ROYAL)


@dataclasses.dataclass(frozen=True)
class Step:
    """One card (or go) of a play drill: what the player said of it, and what is right."""

    card: Card | None
    """The card played, or ``None`` for a go."""
    player: int
    """Who pegs it: 0 the pone, 1 the dealer."""
    count: int
    """The count after it (for a go, the count it was called on)."""
    items: tuple[ScoreItem, ...]
    """What it pegged."""
    claimed_count: int
    claimed_points: int

    @property
    def points(self) -> int:
        """Points it pegged."""
        return sum(i.points for i in self.items)

    @property
    def correct(self) -> bool:
        """Whether the player said the right count and the right pegs."""
        return self.claimed_count == self.count and self.claimed_points == self.points

    def to_json(self) -> dict[str, Any]:
        """``{"card": "5S", "player": 1, "count": 15, "points": 2, "items": [...], ...}``."""
        return {
            "card": str(self.card) if self.card else GO,
            "player": self.player,
            "count": self.count,
            "points": self.points,
            "items": [i.to_json() for i in self.items],
            "claimed": {"count": self.claimed_count, "points": self.claimed_points},
            "correct": self.correct,
        }


@dataclasses.dataclass(frozen=True)
class Grade:
    """The verdict on one answer, with everything the feedback page shows."""

    correct: bool
    """Whether the answer was right: a count by kind when its total is (the kinds off are still
    missed categories); a discard when no expected points are lost at the table's two
    decimals (throws shown alike tie)."""
    total: float
    """The right count, or for a discard the best expected net points."""
    claimed: float
    """What the player said, or the expected net points of their discard."""
    items: tuple[ScoreItem, ...] = ()
    """Every scoring combination (empty for discards)."""
    missed: tuple[ScoreItem, ...] = ()
    """Items that explain a short count (the fewest, most easily overlooked ones); counted by
    kind, only those the kinds' numbers show for certain."""
    missed_kinds: tuple[tuple[Kind, int], ...] = ()
    """Counted by kind: ``(kind, points short)`` for each kind counted short whose missed items
    cannot be told apart (one fifteen of six: any of them may be the one)."""
    missed_categories: frozenset[Category] = frozenset()
    """The categories this answer counts as missed, for weak spots."""
    options: tuple[Any, ...] = ()
    """For discards, the engine's options, best first."""
    by_kind: tuple[tuple[Kind, int, int], ...] = ()
    """For a count given by kind: ``(kind, claimed, right)`` for each of :data:`SHOW_KINDS`."""
    note: str = ""
    """A word on a classic mistake the answer looks like: the crib-flush trap, or the item an
    over-count likely counted twice."""
    reason: str = ""
    """For discards, why the best throw is best, in one sentence from the expected points."""
    heels: str = ""
    """:data:`HEELS_NOTE` when the starter is a jack (hand and crib drills)."""
    count: tuple[int, int] | None = None
    """For a pegging drill that asks the count: ``(claimed, right)``."""
    steps: tuple[Step, ...] = ()
    """For a play drill: each card and go the player has pegged so far."""
    complete: bool = True
    """For a play drill: whether every card and go was answered (else nothing is kept: the
    player is checked card by card)."""

    @property
    def over(self) -> float:
        """Points claimed beyond the right count."""
        return max(0.0, self.claimed - self.total)

    @property
    def under(self) -> float:
        """Points left unclaimed (in muggins, the opponent takes them)."""
        return max(0.0, self.total - self.claimed)

    def to_json(self) -> dict[str, Any]:
        """The verdict for the API (expected values of discards at full precision)."""
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
            data["crib_model"] = self.options[0].crib_model
            data["lost"] = _number(self.under)
        for words in ("note", "reason", "heels"):
            if getattr(self, words):
                data[words] = getattr(self, words)
        if self.count is not None:
            data["count"] = {"claimed": self.count[0], "right": self.count[1]}
        if self.steps:
            data["steps"] = [s.to_json() for s in self.steps]
            data["complete"] = self.complete
        if self.by_kind:
            data["by_kind"] = [
                {"kind": kind.value, "claimed": claimed, "right": right}
                for kind, claimed, right in self.by_kind
            ]
        if self.missed_kinds:
            data["missed_kinds"] = [
                {"kind": kind.value, "points": points, "text": self.missed_kind_text(kind, points)}
                for kind, points in self.missed_kinds
            ]
        return data

    @property
    def kinds_off(self) -> bool:
        """Whether a count by kind has a kind wrong (even when the total is right)."""
        return any(claimed != right for _, claimed, right in self.by_kind)

    def missed_kind_text(self, kind: Kind, points: int) -> str:
        """A kind counted ``points`` short, when which of its items were missed is unknown.

        >>> from trainer.show import score_show
        >>> Grade(True, 0, 0, score_show(["5H", "10D", "JC", "5S"], "9C").items
        ...       ).missed_kind_text(Kind.FIFTEEN, 4)
        'two of the 4 fifteens, for 4'
        """
        of_kind = [i for i in self.items if i.kind is kind]
        each = of_kind[0].points
        if points % each:
            return f"{points} in {kind.value}s, though each is worth {each}: a miscount?"
        return f"{number_words(points // each)} of the {len(of_kind)} {kind.value}s, for {points}"


def _number(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


MOST_SHOW = 29
"""The most a hand or crib scores: three fives and a jack, the jack's suit's five turned."""
MOST_PEG = 14
"""The most one card pegs in the two-hand play: a double pair royal making 31 (a 7, then the
four sixes)."""
MOST_COUNT = 31
"""The highest count of the play."""

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
    ``{"discard": ["7H", "8C"]}``, graded by the uniform crib or, with
    ``"crib_model": "weighted"``, by the crib weighted by how players throw.

    Raises:
        InvalidAnswerError: for a missing, malformed or impossible answer, naming the problem.
    """
    if deal.kind == "discard":
        return _grade_discard(deal, answer)
    if deal.kind == "pegging":
        return _grade_peg(deal, answer)
    if deal.kind == "play":
        return _grade_play(deal, answer)
    items = deal.breakdown().items
    present = classify(deal)
    if answer.get("by_kind") is None:
        verdict = _grade_count(items, _points(answer), present)
    else:
        verdict = _grade_by_kind(items, _claims(answer["by_kind"]), present)
    heels = HEELS_NOTE if deal.starter and deal.starter.rank is Rank.JACK else ""
    flush = {k: c for k, c, _ in verdict.by_kind}.get(Kind.FLUSH, 0)
    if Category.CRIB_FLUSH in present and (verdict.over == len(deal.cards) or flush):
        return dataclasses.replace(verdict, note=CRIB_FLUSH_NOTE, heels=heels)
    return dataclasses.replace(verdict, note=_over_count_cause(deal, verdict), heels=heels)


CRIB_FLUSH_NOTE = (
    "A crib scores a flush only when the starter is of the same suit too: "
    "four crib cards of one suit score nothing."
)
"""What the trainer says when a count looks like the crib-flush mistake."""

HEELS_NOTE = (
    "The starter is a jack: the dealer pegs 2 for his heels when it is turned "
    "(not part of this count)."
)
"""Said after the show when the starter is a jack."""


def _over_count_cause(deal: Deal, verdict: Grade) -> str:
    """The likely cause of an over-count, offered only where it is the likeliest story.

    Counted by kind, each kind over-counted is explained within that kind. A total alone is
    explained by a classic mistake that fits it exactly (a double run's pair counted again
    on its own, a shorter run counted inside a longer one, a jack of another suit than the
    starter's taken for nobs), else by the items worth exactly the excess when they are of one
    kind, other than a pair: a pair counted twice is no likelier than a fifteen seen where there
    is none.
    """
    if verdict.by_kind:
        causes = [
            _counted_twice([i for i in verdict.items if i.kind is kind], claimed - right)
            for kind, claimed, right in verdict.by_kind
            if claimed > right
        ]
        return " ".join(cause for cause in causes if cause)
    over = int(verdict.over)
    if not over:
        return ""
    cause = _in_runs(verdict.items, over) or _counted_twice(verdict.items, over, Kind.PAIR)
    if over == 1 and not cause and deal.starter is not None:
        jacks = [c for c in deal.cards if c.rank is Rank.JACK and c.suit is not deal.starter.suit]
        if jacks and not any(i.kind is Kind.NOBS for i in verdict.items):
            return "a jack of another suit counted for nobs? Only the starter's suit scores."
    return cause


def _in_runs(items: Sequence[ScoreItem], over: int) -> str:
    """An over-count the runs explain: a double run's pair counted again, or a run inside a run.

    The pair a double run is made of counted again on its own, or a shorter run counted
    inside the one long run.

    >>> from trainer.show import score_show
    >>> print(_in_runs(score_show(["3H", "4D", "5C", "6S"], "KH").items, 3))
    a run of three counted inside the run of four? Only the longest run counts.
    """
    runs = [i for i in items if i.kind is Kind.RUN]
    if len(runs) == 1 and 3 <= over < runs[0].points:
        return (
            f"a run of {number_words(over)} counted inside the run of "
            f"{number_words(runs[0].points)}? Only the longest run counts."
        )
    in_runs = {c for run in runs for c in run.cards}
    pairs = [i for i in items if i.kind is Kind.PAIR and set(i.cards) <= in_runs]
    if len(runs) < 2 or sum(i.points for i in pairs) != over:
        return ""
    name = _RUN_MULTIPLES[len(runs)].removeprefix("a ")
    what = f"the pair {_cards(pairs[0].cards)}" if len(pairs) == 1 else f"the {name}'s pairs"
    return f"{what} counted twice, alone and in the {name}?"


def _counted_twice(items: Sequence[ScoreItem], over: int, unlikely: Kind | None = None) -> str:
    """Asks whether an item worth ``over`` was counted twice, when they are one or of one kind.

    Not when that kind is ``unlikely``.

    >>> from trainer.show import score_show
    >>> _counted_twice(score_show(["3H", "4D", "5C", "KS"], "9C").items, 3)
    'the run 3♥ 4♦ 5♣ counted twice?'
    """
    worth = [i for i in items if i.points == over]
    kinds = {i.kind for i in worth}
    if len(kinds) != 1 or unlikely in kinds:
        return ""
    if len(worth) == 1:
        return f"the {worth[0].kind.value} {_cards(worth[0].cards)} counted twice?"
    return f"a {worth[0].kind.value} counted twice?"


def _points(answer: Mapping[str, Any], name: str = "points") -> int:
    points = answer.get(name)
    if not _is_points(points, 99):
        raise InvalidAnswerError(f"'{name}' must be a whole number from 0 to 99, got {points!r}")
    return points


def _grade_peg(deal: Deal, answer: Mapping[str, Any]) -> Grade:
    """A pegging drill: the points, and the count when the drill asks it.

    A wrong count is missed as :attr:`Category.PEG_COUNT`; wrong points as the categories of
    what the card pegged.
    """
    present = classify(deal)
    verdict = _grade_count(deal.peg_items(), _points(answer), present - {Category.PEG_COUNT})
    if not deal.count_asked:
        return verdict
    right = sum(c.value for c in deal.cards) + (deal.played.value if deal.played else 0)
    claimed = _points(answer, "count")
    if claimed == right:
        return dataclasses.replace(verdict, count=(claimed, right))
    return dataclasses.replace(
        verdict,
        correct=False,
        count=(claimed, right),
        missed_categories=verdict.missed_categories | {Category.PEG_COUNT},
    )


def _grade_play(deal: Deal, answer: Mapping[str, Any]) -> Grade:
    """A play drill: ``{"steps": [{"count": 10, "points": 0}, ...]}``, one per card and go.

    The player is checked card by card: fewer steps than the play has grade those given
    (``complete`` false). The count of a go is the count it was called on.
    """
    pegs = deal.pegs()
    given = answer.get("steps")
    if not isinstance(given, list) or not 1 <= len(given) <= len(pegs):
        raise InvalidAnswerError(
            f"'steps' must list what each card and go pegs, 1 to {len(pegs)} of them, got {given!r}"
        )
    steps = tuple(_step(peg, claim) for peg, claim in zip(pegs, given, strict=False))
    wrong = [s for s in steps if not s.correct]
    missed: set[Category] = set()
    for step in wrong:
        if step.claimed_points != step.points:
            missed |= {_PLAY_CATEGORIES[i.kind] for i in step.items if i.kind in _PLAY_CATEGORIES}
        if step.claimed_count != step.count:
            missed.add(Category.PEG_COUNT)
    items = tuple(i for s in steps for i in s.items)
    short = tuple(i for s in steps if s.claimed_points < s.points for i in s.items)
    return Grade(
        correct=not wrong,
        total=sum(s.points for s in steps),
        claimed=sum(s.claimed_points for s in steps),
        items=items,
        missed=short,
        missed_categories=frozenset(missed),
        steps=steps,
        complete=len(steps) == len(pegs),
    )


_PLAY_CATEGORIES = {
    Kind.FIFTEEN: Category.PEG_FIFTEEN,
    Kind.PAIR: Category.PEG_PAIRS,
    Kind.PAIR_ROYAL: Category.PEG_PAIRS,
    Kind.DOUBLE_PAIR_ROYAL: Category.PEG_PAIRS,
    Kind.RUN: Category.PEG_RUNS,
    Kind.THIRTY_ONE: Category.PEG_THIRTY_ONE,
    Kind.GO: Category.PEG_GO,
    Kind.LAST_CARD: Category.PEG_GO,
}


def _step(peg: Peg, claim: Any) -> Step:
    if not isinstance(claim, dict):
        raise InvalidAnswerError(
            f"each step must be {{'count': ..., 'points': ...}}, got {claim!r}"
        )
    count, points = _points(claim, "count"), _points(claim, "points")
    return Step(peg.card, peg.player, peg.count, peg.items, count, points)


def _is_points(value: object, top: int) -> TypeGuard[int]:
    """Whether ``value`` is a whole number from 0 to ``top`` (JSON ``true`` is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= top


def _claims(by_kind: Any) -> dict[Kind, int]:
    """``{"fifteen": 6, ...}`` as kinds; kinds left out are claimed as 0."""
    names = ", ".join(k.value for k in SHOW_KINDS)
    if not isinstance(by_kind, dict):
        raise InvalidAnswerError(f"'by_kind' must map kinds ({names}) to points, got {by_kind!r}")
    claims = dict.fromkeys(SHOW_KINDS, 0)
    for name, points in by_kind.items():
        kind = next((k for k in SHOW_KINDS if k.value == name), None)
        if kind is None:
            raise InvalidAnswerError(f"unknown kind {name!r} in 'by_kind' (use: {names})")
        if not _is_points(points, 29):
            raise InvalidAnswerError(f"points for {name!r} must be a whole number from 0 to 29")
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
    """Grade a count by kind: each kind's shortfall is explained within that kind.

    Only the kinds counted wrong count as missed categories.
    """
    rows: list[tuple[Kind, int, int]] = []
    missed: list[ScoreItem] = []
    unnamed: list[tuple[Kind, int]] = []
    wrong: set[Category] = set()
    for kind in SHOW_KINDS:
        of_kind = [i for i in items if i.kind is kind]
        right = sum(i.points for i in of_kind)
        rows.append((kind, claims[kind], right))
        if claims[kind] != right:
            wrong |= _KIND_CATEGORIES[kind] & present
        short = right - claims[kind]
        if short > 0 and ways_to_make(of_kind, short) == 1:
            missed += explain_shortfall(of_kind, short)
        elif short > 0:
            unnamed.append((kind, short))
    total = sum(i.points for i in items)
    return Grade(
        correct=sum(claims.values()) == total,
        total=total,
        claimed=sum(claims.values()),
        items=items,
        missed=tuple(i for i in items if i in missed),
        missed_kinds=tuple(unnamed),
        missed_categories=frozenset(wrong),
        by_kind=tuple(rows),
    )


def ways_to_make(items: Sequence[ScoreItem], points: int) -> int:
    """How many sets of ``items`` add up to ``points`` (one: the set is certain).

    >>> from trainer.show import score_show
    >>> ways_to_make(score_show(["5H", "10D", "JC", "5S"], "9C").items, 2)  # four fifteens, a pair
    5
    """
    ways = [1] + [0] * points
    for item in items:
        for reach in range(points, item.points - 1, -1):
            ways[reach] += ways[reach - item.points]
    return ways[points]


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
    crib_model = answer.get("crib_model", "uniform")
    if crib_model not in CRIB_MODELS:
        known = ", ".join(repr(m) for m in CRIB_MODELS)
        raise InvalidAnswerError(f"'crib_model' must be {known}, got {crib_model!r}")
    tokens = answer.get("discard")
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise InvalidAnswerError(f"'discard' must be a list of two cards, got {tokens!r}")
    thrown = [as_card(t) for t in tokens]
    check_distinct(thrown)
    if len(thrown) != 2:
        raise HandSizeError(f"throw exactly 2 cards to the crib, got {len(thrown)}")
    strays = [str(c) for c in thrown if c not in deal.cards]
    if strays:
        raise InvalidAnswerError(f"not among the six cards dealt: {', '.join(strays)}")
    options = tuple(analyze_discards(deal.cards, dealer=bool(deal.dealer), crib_model=crib_model))
    chosen = next(o for o in options if set(map(as_card, o.discard)) == set(thrown))
    best = options[0]
    tied = _shown(chosen.net_ev) == _shown(best.net_ev)
    if not tied:
        reason = why_best(best, chosen)
    elif chosen is not best:
        reason = _tie(chosen, best)
    else:
        rival = next((o for o in options if _shown(o.net_ev) != _shown(best.net_ev)), None)
        reason = "" if rival is None else why_best(best, rival)
    return Grade(
        correct=tied,
        total=best.net_ev,
        claimed=chosen.net_ev,
        missed_categories=frozenset() if tied else classify(deal),
        options=options,
        reason=reason,
    )


def _tie(chosen: DiscardOption, best: DiscardOption) -> str:
    """Why a throw a shade below the best is right too: the table shows them alike.

    >>> best, next_best = analyze_discards("10C 3S 2C 4S 8D 5S", dealer=False)[:2]
    >>> round(best.net_ev - next_best.net_ev, 4)
    0.0018
    >>> print(_tie(next_best, best))  # doctest: +NORMALIZE_WHITESPACE
    Throwing 10♣ 2♣ ties 10♣ 8♦ for the best throw: 4.21 points on average, the same to two
    decimals.
    """
    return (
        f"Throwing {_cards(chosen.discard)} ties {_cards(best.discard)} for the best throw: "
        f"{_shown(chosen.net_ev):.2f} points on average, the same to two decimals."
    )


def why_best(best: DiscardOption, rival: DiscardOption) -> str:
    """One sentence on why ``best`` beats ``rival``: by how much, in hand and in the crib.

    >>> options = analyze_discards("5H 5D JS QC 7H 8C", dealer=True)
    >>> print(why_best(options[0], options[1]))  # doctest: +NORMALIZE_WHITESPACE
    Throwing 7♥ 8♣ beats 5♥ J♠ by 6.09 points on average: it keeps 6.31 more in hand and
    gives your crib 0.21 less.
    """
    hand = _shown(best.hand_ev) - _shown(rival.hand_ev)
    crib = _shown(best.crib_ev) - _shown(rival.crib_ev)
    net = _shown(best.net_ev) - _shown(rival.net_ev)
    whose = "your crib" if best.dealer else "the dealer's crib"

    def change(points: float) -> str:
        return f"{abs(points):.2f} {'more' if points > 0 else 'less'}"

    return (
        f"Throwing {_cards(best.discard)} beats {_cards(rival.discard)} by "
        f"{net:.2f} points on average: it keeps {change(hand)} in hand "
        f"and gives {whose} {change(crib)}."
    )


def _shown(points: float) -> float:
    """Expected points as the discard table shows them (two decimals).

    The words say the differences of the numbers the player sees.

    >>> round(_shown(14.004) - _shown(13.546), 2)
    0.45
    """
    return round(points, 2)


def _cards(cards: Sequence[Any]) -> str:
    return " ".join(as_card(c).unicode() for c in cards)
