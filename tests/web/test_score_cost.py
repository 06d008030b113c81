"""``/score`` with ranks alone scores a handful of suit patterns, not every assignment of suits.

Attack round 4, finding 3: ``/score?cards=A+2+3+4&starter=5`` scored all 1,024 suit assignments
(62 ms of CPU a request, a GET nothing limited): four connections from one address kept the
drills at 35 %. Suits change a show's score only through the flush and his nobs, so one
assignment of each pattern of them is enough; the answers are those of every assignment.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from flask.testing import FlaskClient

import trainer.show
from trainer.cards import Card, Suit, parse_rank
from trainer.rules import RULESETS, RuleSet

SHOWS = [
    ("A 2 3 4", "5", False, "six-card"),
    ("5 5 5 J", "5", False, "six-card"),
    ("J J 4 4", "5", True, "six-card"),
    ("9 10 J", "Q", False, "five-card"),
    ("J 5 5 K", "5H", True, "four-hand"),
]


def every_assignment(typed: list[str], rules: RuleSet, crib: bool) -> list[int]:
    """The totals the suits allow, found the slow way: every assignment of suits scored (a
    typed suit kept), the least first."""
    choices = [
        [Card.parse(token)]
        if token[-1].isalpha() and token[-1] in "HDCS"
        else [Card(parse_rank(token), suit) for suit in Suit]
        for token in typed
    ]
    totals: set[int] = set()
    for cards in itertools.product(*choices):
        if len(set(cards)) == len(cards):
            totals.add(trainer.show.score_show(cards[:-1], cards[-1], crib=crib, rules=rules).total)
    return sorted(totals)


@pytest.mark.parametrize(("cards", "starter", "crib", "rules"), SHOWS)
def test_ranks_alone_cost_a_few_scorings_and_give_every_assignments_answer(
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    cards: str,
    starter: str,
    crib: bool,
    rules: str,
) -> None:
    """The page scores at most one assignment a pattern of flush and nobs (8), where it scored
    up to 1,024; its totals are those that every assignment gives."""
    scorings: list[object] = []
    real = trainer.show.score_show

    def counted(*args: Any, **kwargs: Any) -> trainer.show.Breakdown:
        scorings.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(trainer.show, "score_show", counted)
    query = {"cards": cards, "starter": starter, "rules": rules} | ({"crib": "1"} if crib else {})
    assert client.get("/score", query_string=query).status_code == 200
    assert len(scorings) <= 8
    answer = trainer.show.score_typed(cards, starter, crib=crib, rules=RULESETS[rules])
    assert isinstance(answer, trainer.show.RankOnlyScore)
    totals = sorted({answer.certain, *(total for total, _ in answer.outcomes)})
    assert totals == every_assignment([*cards.split(), starter], RULESETS[rules], crib)
