"""Looking ahead in the play: the rest of a play solved exactly when both hands are known.

The play depends on ranks alone (suits score only in the show), so a position is the ranks each
player still holds and the ranks on the current count. :class:`PlaySolver` plays out every
line from a position with both players choosing their best, each card scored as
:func:`trainer.pegging.score_peg` scores it (:func:`peg_points`), and returns what the player
to move nets from there (his pegs less the other's). It follows the rules of the play: a
player who cannot play says go and the other plays on, the go or the last card pegs one (a 31
scores two instead), and the player after the last card's leads the next count; with
``one_count`` (the five-card game) the first go or 31 ends the play.

Near the end of a game a solver may be given an :class:`Ending`: it then also follows both
scores, a player reaching the game's end wins at once (worth :data:`WIN` points), and the show
that follows the play (the pone's hand, the dealer's, the crib) decides the rest.

>>> solver = PlaySolver(one_count=False)
>>> solver.value((5,), (10,), (), 0)  # 5 led, 10 for fifteen two and the last card: -3
-3
"""

from __future__ import annotations

import dataclasses

Ranks = tuple[int, ...]
"""Ranks (1 ace ... 13 king), a hand's sorted ascending, the count's in the order played."""

WIN = 30
"""What reaching the game's end this deal is worth, in points: near the end a player's chance
of the game moves about a thirtieth with each point."""

_VALUES = (0, *(min(r, 10) for r in range(1, 14)))
"""A rank's counting value, by rank."""

_NONE = 1 << 20
"""Below any value: the best of no move yet."""
_CACHE_LIMIT = 600_000
"""Positions a solver remembers before it forgets them all (bounds its memory)."""


def peg_points(pile: Ranks, rank: int, count: int | None = None) -> int:
    """What a card of ``rank`` pegs on a count of ``pile`` ranks: the engine's rules by rank.

    :func:`trainer.pegging.score_peg` scores cards; the search needs the same points for
    ranks, millions of times, so they are worked out here from the ranks (fifteen or 31,
    the cards of the rank at the end of the count, the longest run among the last cards), and
    the tests check them against the engine on thousands of random counts.

    Args:
        pile: the ranks on the count, oldest first, or only its :func:`tail`.
        rank: the rank played.
        count: the count after the card (needed when ``pile`` is a tail).

    >>> peg_points((7, 8), 9), peg_points((10,), 5), peg_points((4, 4), 4)
    (3, 2, 6)
    """
    if count is None:
        count = sum(_VALUES[r] for r in (*pile, rank))
    points = 2 if count in (15, 31) else 0
    size = len(pile)
    same = 0
    while same < size and pile[size - 1 - same] == rank:
        same += 1
    if same:
        return points + _PAIR_POINTS[same]
    low = high = rank
    seen = 1 << rank
    run = 0
    for at in range(size - 1, -1, -1):
        r = pile[at]
        if seen & (1 << r):
            break
        seen |= 1 << r
        if r < low:
            low = r
        elif r > high:
            high = r
        if high - low > 6:
            break
        if high - low == size - at and size - at >= 2:  # the last cards are consecutive
            run = size - at + 1
    return points + run


def tail(pile: Ranks) -> Ranks:
    """The end of a count that can still score: what a later card can pair or run with.

    A pair needs the cards of one rank at the very end; a run is among the last cards, of
    distinct ranks, no more than seven apart. So two counts with the same tail (and count)
    score alike from here on.

    >>> tail((13, 5, 5)), tail((13, 2, 3)), tail((6, 5, 5, 7))
    ((5, 5), (2, 3), (5, 7))
    """
    size = len(pile)
    if size >= 2 and pile[-2] == pile[-1]:
        same = 2
        while same < size and pile[-1 - same] == pile[-1]:
            same += 1
        return pile[size - same :]
    if not size:
        return pile
    low = high = pile[-1]
    seen = 1 << pile[-1]
    at = size - 1
    while at:
        r = pile[at - 1]
        if seen & (1 << r):
            break
        if r < low:
            if high - r > 6:
                break
            low = r
        elif r > high:
            if r - low > 6:
                break
            high = r
        seen |= 1 << r
        at -= 1
    return pile[at:]


_PAIR_POINTS = (0, 2, 6, 12)
"""What a card pegs after one, two or three of its rank on the end of the count."""


@dataclasses.dataclass(frozen=True)
class Ending:
    """Near the game's end: the scores before the play, and what the show will add.

    Scores are (the player to move at the root, the other), as are the show's points.
    """

    target: int
    """The game's end (121 or 61)."""
    scores: tuple[int, int]
    """Both scores before the rest of the play."""
    show: tuple[int, int]
    """What each will count in the show: the pone his hand, the dealer his hand and crib."""
    root_is_pone: bool
    """Whether the player to move at the root is the pone (who counts first)."""

    def show_net(self, root: int, other: int) -> int:
        """What the show nets the root player from the scores after the play.

        The pone counts first: :data:`WIN` when the root player reaches the end before the
        other, ``-WIN`` when the other does, else the difference of the two counts.

        Args:
            root: the root player's score after the play.
            other: the other's.
        """
        pone, dealer = (root, other) if self.root_is_pone else (other, root)
        pone_show, dealer_show = self.show if self.root_is_pone else self.show[::-1]
        if pone + pone_show >= self.target:
            return WIN if self.root_is_pone else -WIN
        if dealer + dealer_show >= self.target:
            return -WIN if self.root_is_pone else WIN
        return self.show[0] - self.show[1]


class PlaySolver:
    """The rest of a play solved with both hands known, by ranks; positions are remembered.

    Without an ending the value of a position is the points netted in the rest of the play,
    the same in every game, so one solver serves a whole run. With an ending it is the root
    player's net over the deal (play and show), :data:`WIN` for reaching the end first.
    """

    def __init__(self, *, one_count: bool, ending: Ending | None = None) -> None:
        self.one_count = one_count
        self.ending = ending
        self._cache: dict[tuple[object, ...], int] = {}

    def value(self, mover: Ranks, other: Ranks, pile: Ranks, count: int) -> int:
        """What the player to move nets from here, both playing their best.

        Args:
            mover: the ranks the player to move holds (sorted; one at least fits the count).
            other: the ranks the other holds (sorted).
            pile: the ranks on the current count, oldest first.
            count: the count.
        """
        scores = self.ending.scores if self.ending else (0, 0)
        return self._value(mover, other, tail(pile), count, scores, True)

    def after(self, mover: Ranks, other: Ranks, pile: Ranks, count: int, rank: int) -> int:
        """What the player to move nets from here by playing ``rank`` (which must fit).

        Args:
            mover: the ranks the player to move holds (sorted).
            other: the ranks the other holds (sorted).
            pile: the ranks on the current count, oldest first.
            count: the count.
            rank: the rank he plays.
        """
        scores = self.ending.scores if self.ending else (0, 0)
        return self._after(mover, other, tail(pile), count, rank, scores, True)

    def _value(
        self,
        mover: Ranks,
        other: Ranks,
        pile: Ranks,
        count: int,
        scores: tuple[int, int],
        root: bool,
    ) -> int:
        key = (
            (mover, other, pile, count)
            if self.ending is None
            else (mover, other, pile, count, scores, root)
        )
        known = self._cache.get(key)
        if known is not None:
            return known
        best = -_NONE
        last = 0
        for rank in mover:
            if rank == last or count + _VALUES[rank] > 31:
                continue
            last = rank
            best = max(best, self._after(mover, other, pile, count, rank, scores, root))
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[key] = best
        return best

    def _after(
        self,
        mover: Ranks,
        other: Ranks,
        pile: Ranks,
        count: int,
        rank: int,
        scores: tuple[int, int],
        root: bool,
    ) -> int:
        at = mover.index(rank)
        held = mover[:at] + mover[at + 1 :]
        count += _VALUES[rank]
        points = peg_points(pile, rank, count)
        pile = tail((*pile, rank))
        other_fits = count < 31 and bool(other) and count + _VALUES[other[0]] <= 31
        mover_fits = count < 31 and bool(held) and count + _VALUES[held[0]] <= 31
        if count < 31 and not (other_fits or mover_fits):
            points += 1  # the go, or the last card
        if self.ending is not None:
            mine = scores[0] + points
            if mine >= self.ending.target:
                return points + WIN
            scores = (mine, scores[1])
        if other_fits:
            return points - self._value(other, held, pile, count, scores[::-1], not root)
        if mover_fits:
            return points + self._value(held, other, pile, count, scores, root)
        if self.one_count or not (held or other):
            return points + self._show(scores, root)
        if other:
            return points - self._value(other, held, (), 0, scores[::-1], not root)
        return points + self._value(held, other, (), 0, scores, root)

    def _show(self, scores: tuple[int, int], root: bool) -> int:
        """The play is over: what the show nets the player to move (nothing without an end)."""
        if self.ending is None:
            return 0
        net = self.ending.show_net(*(scores if root else scores[::-1]))
        return net if root else -net
