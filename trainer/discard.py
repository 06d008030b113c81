"""Exact expected values of every discard.

The kept hand is averaged over every possible starter. The crib is averaged over every set of
cards the other players could throw (drawn from the unseen cards) and every starter: exactly,
by counting rank multisets and suits, not by sampling.

>>> best = analyze_discards("5H 5D JS QC 7H 8C", dealer=True)[0]
>>> [str(c) for c in best.discard], round(best.net_ev, 3)
(['7H', '8C'], 19.614)
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Sequence
from math import comb

import numpy as np
import numpy.typing as npt

from .cards import Card, CardLike, Rank, parse_cards
from .errors import HandSizeError
from .rules import SIX_CARD, RuleSet
from .tables import rank_index, rank_points_array

_JACK = Rank.JACK


@dataclasses.dataclass(frozen=True)
class DiscardOption:
    """One way to split a deal: the cards kept, the cards thrown, and their expected points."""

    keep: tuple[Card, ...]
    """Cards kept for the play and the show."""
    discard: tuple[Card, ...]
    """Cards thrown to the crib."""
    hand_ev: float
    """Expected show points of the kept cards, over every starter."""
    crib_ev: float
    """Expected points of the crib, over every throw of the others and every starter."""
    net_ev: float
    """``hand_ev + crib_ev`` for the dealer, ``hand_ev - crib_ev`` for the pone."""

    def to_json(self) -> dict[str, object]:
        """``{"keep": [...], "discard": ["7H", "8C"], "hand_ev": 12.696, …}``."""
        return {
            "keep": [str(c) for c in self.keep],
            "discard": [str(c) for c in self.discard],
            "hand_ev": round(self.hand_ev, 3),
            "crib_ev": round(self.crib_ev, 3),
            "net_ev": round(self.net_ev, 3),
        }


@dataclasses.dataclass(frozen=True)
class _Unseen:
    """What is left for the starter and the others' throws: counts by rank and by suit."""

    by_rank: npt.NDArray[np.int64]
    by_suit: tuple[int, ...]
    count: int
    jack_suits: tuple[int, ...]
    """Suits whose jack is unseen."""

    @classmethod
    def outside(cls, cards: Sequence[Card]) -> _Unseen:
        seen = {c.index for c in cards}
        unseen = [i for i in range(52) if i not in seen]
        jack = (_JACK - 1) * 4
        return cls(
            by_rank=np.bincount([i // 4 for i in unseen], minlength=13),
            by_suit=tuple(int(n) for n in np.bincount([i % 4 for i in unseen], minlength=4)),
            count=len(unseen),
            jack_suits=tuple(i - jack for i in unseen if jack <= i < jack + 4),
        )


@functools.cache
def _rank_multisets(size: int) -> npt.NDArray[np.int64]:
    """Every multiset of ``size`` 0-based ranks, one per row, ascending."""
    rows = list(itertools.combinations_with_replacement(range(13), size))
    return np.array(rows, dtype=np.int64).reshape(len(rows), size)


@dataclasses.dataclass(frozen=True)
class _CribDraws:
    """Every way the rest of the crib and the starter can come from the unseen cards, by rank.

    The same for every discard of one deal, so it is worked out once per deal.
    """

    others: int
    """Crib cards still to come from the other players (or the pack)."""
    index: npt.NDArray[np.int64]
    """(13, K): the rank-table index of each (starter rank, others' rank multiset), before
    the thrown cards' ranks are added."""
    ways: npt.NDArray[np.float64]
    """(13, K): how many card draws give each of them."""
    total: int
    """All draws: ``C(unseen, others) * (unseen - others)``."""

    @classmethod
    def from_unseen(cls, unseen: _Unseen, thrown: int, others: int) -> _CribDraws:
        multisets = _rank_multisets(others)
        ways = np.ones(len(multisets), dtype=np.float64)
        for r in range(13):
            taken = (multisets == r).sum(axis=1)
            ways *= np.array([comb(int(unseen.by_rank[r]), k) for k in range(5)])[taken]
        starters = np.arange(13)[:, None]
        left = unseen.by_rank[:, None] - (multisets[None, :, :] == starters[:, :, None]).sum(axis=2)
        # Rank-table index of [thrown..., others..., starter]: digits in base 13.
        index = (rank_index(multisets) * 13**thrown)[None, :] + starters * 13 ** (thrown + others)
        total = comb(unseen.count, others) * (unseen.count - others)
        return cls(others, index, ways[None, :] * left, total)


def analyze_discards(
    deal: Sequence[CardLike] | str, *, dealer: bool, rules: RuleSet = SIX_CARD
) -> list[DiscardOption]:
    """Every discard of a deal with its exact expected points, best first.

    Raises:
        HandSizeError: when the deal is not ``rules.dealt`` cards.
        InvalidCardError: for a token that is not a card.
        DuplicateCardError: for a card given twice.
    """
    cards = parse_cards(deal)
    if len(cards) != rules.dealt:
        raise HandSizeError(f"a {rules.name} deal has {rules.dealt} cards, got {len(cards)}")
    unseen = _Unseen.outside(cards)
    draws = _CribDraws.from_unseen(unseen, rules.discards, rules.crib_size - rules.discards)
    options = []
    for discard in itertools.combinations(cards, rules.discards):
        keep = tuple(c for c in cards if c not in discard)
        hand_ev = _hand_ev(keep, unseen)
        crib_ev = _crib_ev(discard, draws, unseen)
        net = hand_ev + crib_ev if dealer else hand_ev - crib_ev
        options.append(
            DiscardOption(keep, tuple(discard), float(hand_ev), float(crib_ev), float(net))
        )
    options.sort(key=lambda o: -o.net_ev)
    return options


def _hand_ev(keep: tuple[Card, ...], unseen: _Unseen) -> float:
    """Expected show points of ``keep`` over a starter drawn from the unseen cards."""
    ranks = np.array([[c.rank - 1 for c in keep] + [s] for s in range(13)])
    by_ranks = rank_points_array(len(keep) + 1)[rank_index(ranks)]
    ev = float(by_ranks @ unseen.by_rank) / unseen.count
    suit = keep[0].suit
    if all(c.suit is suit for c in keep):
        ev += len(keep) + unseen.by_suit[suit] / unseen.count
    ev += sum(unseen.by_suit[c.suit] for c in keep if c.rank is _JACK) / unseen.count
    return ev


def _crib_ev(discard: tuple[Card, ...], draws: _CribDraws, unseen: _Unseen) -> float:
    """Expected crib points: the rest of the crib and the starter drawn from the unseen cards."""
    others = draws.others
    # Fifteens, pairs and runs: every rank multiset of the other crib cards, then the starter.
    thrown = rank_index(np.array([[c.rank - 1 for c in discard]]))[0]
    points = rank_points_array(len(discard) + others + 1)[draws.index + thrown]
    ev = float((draws.ways * points).sum()) / draws.total
    # A crib flush needs every crib card and the starter in one suit.
    suit = discard[0].suit
    if all(c.suit is suit for c in discard):
        same = int(unseen.by_suit[suit])
        crib_and_starter = len(discard) + others + 1
        ev += crib_and_starter * comb(same, others) * max(same - others, 0) / draws.total
    # Nobs: a thrown jack, or an unseen jack among the others' cards, of the starter's suit.
    ev += sum(unseen.by_suit[c.suit] for c in discard if c.rank is _JACK) / unseen.count
    for suit_index in unseen.jack_suits:
        in_crib = others / unseen.count
        ev += in_crib * (unseen.by_suit[suit_index] - 1) / (unseen.count - 1)
    return ev
