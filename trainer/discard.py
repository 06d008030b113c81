"""Exact expected values of every discard, with the crib valued two ways.

The kept hand is averaged over every possible starter. The crib is averaged over every set of
cards the other players could throw (drawn from the unseen cards) and every starter: exactly,
by counting rank multisets and suits, not by sampling. The others' throw is either any cards
alike (``crib_model="uniform"``) or, in two-player games, weighted by how likely the opponent is
to throw those ranks (``crib_model="weighted"``, see :mod:`trainer.throws`): the dealer throws
good crib cards to his own crib, the pone poor ones.

>>> best = analyze_discards("5H 5D JS QC 7H 8C", dealer=True)[0]
>>> [str(c) for c in best.discard], round(best.net_ev, 3)
(['7H', '8C'], 19.614)
>>> round(best.crib_ev_uniform, 3), round(best.crib_ev_weighted or 0, 3)
(6.918, 6.436)
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Sequence
from math import comb
from typing import Literal

import numpy as np
import numpy.typing as npt

from .cards import Card, CardLike, Rank, parse_cards
from .errors import HandSizeError, UnknownCribModelError
from .rules import SIX_CARD, RuleSet
from .score_tables import combinations, rank_index, rank_points_array
from .throws import throw_model

_JACK = Rank.JACK

CribModel = Literal["uniform", "weighted"]
CRIB_MODELS: tuple[CribModel, ...] = ("uniform", "weighted")
"""How the others' crib cards are drawn: any alike, or weighted by how players throw."""


@dataclasses.dataclass(frozen=True)
class DiscardOption:
    """One way to split a deal: the cards kept, the cards thrown, and their expected points."""

    keep: tuple[Card, ...]
    """Cards kept for the play and the show."""
    discard: tuple[Card, ...]
    """Cards thrown to the crib."""
    hand_ev: float
    """Expected show points of the kept cards, over every starter."""
    crib_ev_uniform: float
    """Expected crib points, the others throwing any of the unseen cards alike."""
    crib_ev_weighted: float | None
    """Expected crib points, the opponent's throw weighted by how players throw (two-player
    games; ``None`` in three- and four-hand)."""
    crib_model: CribModel
    """The model behind :attr:`crib_ev` and :attr:`net_ev` (and the ranking)."""
    dealer: bool
    """Whether the crib is this player's."""

    @property
    def crib_ev(self) -> float:
        """Expected crib points by the chosen crib model."""
        if self.crib_model == "weighted" and self.crib_ev_weighted is not None:
            return self.crib_ev_weighted
        return self.crib_ev_uniform

    @property
    def net_ev(self) -> float:
        """``hand_ev + crib_ev`` for the dealer, ``hand_ev - crib_ev`` for the pone."""
        return self.hand_ev + self.crib_ev if self.dealer else self.hand_ev - self.crib_ev

    def to_json(self) -> dict[str, object]:
        """The option with full-precision values.

        Returns:
            ``{"keep": [...], "discard": ["7H", "8C"], "hand_ev": 12.69…, "crib_ev": …,
            "net_ev": …, "crib_ev_uniform": …, "crib_ev_weighted": … (or null),
            "crib_model": "uniform"}``.
        """
        return {
            "keep": [str(c) for c in self.keep],
            "discard": [str(c) for c in self.discard],
            "hand_ev": self.hand_ev,
            "crib_ev": self.crib_ev,
            "net_ev": self.net_ev,
            "crib_ev_uniform": self.crib_ev_uniform,
            "crib_ev_weighted": self.crib_ev_weighted,
            "crib_model": self.crib_model,
        }


@dataclasses.dataclass(frozen=True)
class _Unseen:
    """What is left for the starter and the others' throws: counts by rank and by suit."""

    by_rank: npt.NDArray[np.int64]
    by_suit: tuple[int, ...]
    count: int
    jack_suits: tuple[int, ...]
    """Suits whose jack is unseen."""
    cards: tuple[int, ...]
    """The unseen cards' indices."""

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
            cards=tuple(unseen),
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


@dataclasses.dataclass(frozen=True)
class _WeightedThrows:
    """The opponent's two crib cards weighted by how likely he is to throw their ranks.

    Worked out once per deal from the unseen cards: the rank draws reweighted, and the suit
    terms (flush, nobs) summed over every pair of unseen cards and every starter left.
    """

    ways: npt.NDArray[np.float64]
    """(13, K): :attr:`_CribDraws.ways`, each multiset times its ranks' throw propensity."""
    flush: tuple[float, ...]
    """Per suit: expected crib-flush points when both cards thrown here are of that suit."""
    starter_suit: tuple[float, ...]
    """Per suit: the chance the starter is of that suit (a thrown jack's nobs)."""
    others_nobs: float
    """Expected nobs from a jack among the opponent's cards."""

    @classmethod
    def build(
        cls, unseen: _Unseen, draws: _CribDraws, propensity: npt.NDArray[np.float64]
    ) -> _WeightedThrows:
        multisets = _rank_multisets(draws.others)
        ways = draws.ways * propensity[multisets[:, 0], multisets[:, 1]][None, :]
        cards = np.array(unseen.cards)[combinations(unseen.count, 2)]  # (P, 2)
        weight = propensity[cards[:, 0] // 4, cards[:, 1] // 4]
        suits = cards % 4
        in_pair = (suits[:, :, None] == np.arange(4)).sum(axis=1)  # (P, 4)
        starters = np.array(unseen.by_suit)[None, :] - in_pair  # of each suit, per pair
        total = float(weight.sum()) * (unseen.count - 2)
        crib_and_starter = 2 + draws.others + 1
        flush = ((in_pair == 2) * starters * weight[:, None]).sum(axis=0) * crib_and_starter
        jacks = cards // 4 == _JACK - 1
        jack_starters = np.take_along_axis(starters, suits, axis=1)  # starters of each card's suit
        others_nobs = float((weight[:, None] * jacks * jack_starters).sum())
        return cls(
            ways=ways,
            flush=tuple(float(f) / total for f in flush),
            starter_suit=tuple(float(n) / total for n in (starters * weight[:, None]).sum(axis=0)),
            others_nobs=others_nobs / total,
        )

    def suit_ev(self, discard: tuple[Card, ...]) -> float:
        """Expected crib flush and nobs of ``discard``, the opponent throwing as modelled."""
        ev = self.others_nobs
        suit = discard[0].suit
        if all(c.suit is suit for c in discard):
            ev += self.flush[suit]
        return ev + sum(self.starter_suit[c.suit] for c in discard if c.rank is _JACK)


def analyze_discards(
    deal: Sequence[CardLike] | str,
    *,
    dealer: bool,
    rules: RuleSet = SIX_CARD,
    crib_model: CribModel = "uniform",
) -> list[DiscardOption]:
    """Every discard of a deal with its exact expected points, best first.

    Args:
        deal: the cards dealt to this player.
        dealer: whether the crib is this player's (it adds) or the opponent's (it subtracts).
        rules: the rule set.
        crib_model: ``"uniform"`` (the others throw any unseen cards alike) or ``"weighted"``
            (the opponent throws as players do, two-player games only); ranks the options.

    Returns:
        One option per way to throw, by net expected points, best first; each carries the crib
        by both models (the weighted one ``None`` where there is none).

    Raises:
        HandSizeError: when the deal is not ``rules.dealt`` cards.
        InvalidCardError: for a token that is not a card.
        DuplicateCardError: for a card given twice.
        UnknownCribModelError: for an unknown crib model, or ``"weighted"`` beyond two players.
    """
    if crib_model not in CRIB_MODELS:
        known = ", ".join(CRIB_MODELS)
        raise UnknownCribModelError(f"unknown crib model {crib_model!r} (use one of: {known})")
    if crib_model == "weighted" and rules.players != 2:
        raise UnknownCribModelError(
            f"the weighted crib model is for two-player games, not {rules.name}: use uniform"
        )
    cards = parse_cards(deal)
    if len(cards) != rules.dealt:
        raise HandSizeError(f"a {rules.name} deal has {rules.dealt} cards, got {len(cards)}")
    unseen = _Unseen.outside(cards)
    draws = _CribDraws.from_unseen(unseen, rules.discards, rules.crib_size - rules.discards)
    weighted = None
    if rules.players == 2:
        propensity = throw_model(rules).propensity(dealer=not dealer)
        weighted = _WeightedThrows.build(unseen, draws, propensity)
    discards = list(itertools.combinations(cards, rules.discards))
    points = _rank_crib_points(discards, draws)
    uniform_ranks = _mean_points(points, draws.ways)
    weighted_ranks = None if weighted is None else _mean_points(points, weighted.ways)
    options = []
    for i, discard in enumerate(discards):
        keep = tuple(c for c in cards if c not in discard)
        options.append(
            DiscardOption(
                keep,
                discard,
                hand_ev=_hand_ev(keep, unseen),
                crib_ev_uniform=float(uniform_ranks[i]) + _crib_suit_ev(discard, draws, unseen),
                crib_ev_weighted=(
                    None
                    if weighted is None or weighted_ranks is None
                    else float(weighted_ranks[i]) + weighted.suit_ev(discard)
                ),
                crib_model=crib_model,
                dealer=dealer,
            )
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


def _rank_crib_points(
    discards: Sequence[tuple[Card, ...]], draws: _CribDraws
) -> npt.NDArray[np.int8]:
    """Fifteens, pairs and runs of each discard's crib: (discards, starter rank, multiset)."""
    thrown = rank_index(np.array([[c.rank - 1 for c in d] for d in discards]))
    size = len(discards[0]) + draws.others + 1
    points: npt.NDArray[np.int8] = rank_points_array(size)[
        draws.index[None, :, :] + thrown[:, None, None]
    ]
    return points


def _mean_points(
    points: npt.NDArray[np.int8], ways: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Each discard's expected rank points, every draw of the rest counted ``ways`` ways."""
    mean: npt.NDArray[np.float64] = (points * ways[None]).sum(axis=(1, 2)) / ways.sum()
    return mean


def _crib_suit_ev(discard: tuple[Card, ...], draws: _CribDraws, unseen: _Unseen) -> float:
    """Expected crib flush and nobs, the rest of the crib and the starter drawn uniformly."""
    others = draws.others
    ev = 0.0
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
