"""An answer to a drill: its verdict, how long it took, what of it is kept, when the deal returns.

Whatever stores the answer (the web trainer's records, a terminal drill) calls :func:`mark`
once: the rules of an answer live here and nowhere else.

>>> import random
>>> from trainer.dealing import deal
>>> hand = deal("hand", random.Random("doc"))
>>> wrong = {"points": hand.breakdown().total + 1, "seconds": 7}
>>> marked = mark(hand, wrong, dealt_at=100.0, now=110.0, repeat=0)
>>> marked.grade.correct, marked.seconds, marked.review_at
(False, 7.0, 230.0)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .dealing import Deal
from .errors import InvalidAnswerError
from .grading import Grade, grade

REVIEW_AFTER = (120.0, 1800.0, 86400.0, 4 * 86400.0)
"""Seconds until a missed deal comes back, by how often it was dealt before."""
MAX_SECONDS = 600.0
"""The longest an answer is counted as taking (a player who left the page came back)."""
FASTEST_ANSWER = 0.25
"""Seconds below which a page's answer time is refused: about the fastest simple reaction to
something seen (0.2-0.25 s), before a single card is even read; faster is a script or a bug,
and would skew the player's speed figures."""


@dataclasses.dataclass(frozen=True)
class MarkedAnswer:
    """One answer as it is kept."""

    grade: Grade
    seconds: float
    """How long the answer took, as far as it can be believed."""
    fields: dict[str, Any]
    """The fields of the answer that were checked: what is stored of it."""
    review_at: float | None
    """When the deal comes back (a miss), or ``None``."""
    final: bool = True
    """Whether the answer is whole and is kept: a play drill is checked card by card, and only
    its last check (every card and go answered) is its answer."""


def mark(
    deal: Deal,
    given: Mapping[str, Any],
    *,
    dealt_at: float,
    now: float,
    repeat: int,
    daily: bool = False,
) -> MarkedAnswer:
    """Grade ``given``, answered at ``now`` to ``deal`` dealt at ``dealt_at``.

    A missed deal comes back after :data:`REVIEW_AFTER` (``repeat``: how often it was dealt
    before), unless it is one of a ``daily`` challenge's. A play drill answered for some of its
    cards only is checked, not kept (:attr:`MarkedAnswer.final` false).

    Raises:
        InvalidAnswerError: for a malformed answer, or one faster than :data:`FASTEST_ANSWER`.
    """
    verdict = grade(deal, given)
    seconds = min(now - dealt_at, MAX_SECONDS, shown_for(given))
    review_at = None
    if not verdict.correct and not daily and verdict.complete:
        review_at = now + REVIEW_AFTER[min(repeat, len(REVIEW_AFTER) - 1)]
    fields = checked_fields(deal.kind, given)
    if not deal.count_asked:
        fields.pop("count", None)
    return MarkedAnswer(verdict, seconds, fields, review_at, final=verdict.complete)


def shown_for(given: Mapping[str, Any]) -> float:
    """Seconds the page says the drill was on screen (``"seconds"``), or no limit.

    The server's clock runs from the deal; a daily challenge is dealt all at once, so the
    page's own timer is what separates its six answers. It can only shorten the server's.

    Raises:
        InvalidAnswerError: when ``"seconds"`` is given but is not a number, or is under
            :data:`FASTEST_ANSWER`.
    """
    shown = given.get("seconds")
    if shown is None:
        return MAX_SECONDS
    if isinstance(shown, bool) or not isinstance(shown, int | float):
        raise InvalidAnswerError(f"'seconds' must be a number, got {shown!r}")
    if shown < FASTEST_ANSWER:
        raise InvalidAnswerError(
            f"That was too fast: under {FASTEST_ANSWER:g} seconds after the deal, before anyone "
            "could count the cards. Count them, then answer."
        )
    return float(shown)


def checked_fields(kind: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of ``given`` that the grading and the API checked: what is stored.

    They are the answer its kind is graded on (a discard with its crib model, a pegging count
    with the count said, a play's steps), ``seconds`` and ``muggins``; anything else a client
    sent is not stored.

    >>> checked_fields("hand", {"points": 4, "seconds": 3, "note": "x"})
    {'points': 4, 'seconds': 3}
    """
    if kind == "discard":
        answer: tuple[str, ...] = ("discard", "crib_model")
    elif kind in ("hand", "crib") and given.get("by_kind") is not None:
        answer = ("by_kind",)
    elif kind == "pegging":
        answer = ("points", "count")
    elif kind == "play":
        answer = ("steps",)
    else:
        answer = ("points",)
    return {name: given[name] for name in (*answer, "seconds", "muggins") if name in given}
