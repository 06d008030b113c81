"""Pegging taught as it is played: the count is the player's job at the densest level, and a
whole play is pegged card by card (issue players2, section 1)."""

from __future__ import annotations

import random

import pytest

from trainer import parse_cards
from trainer.answers import mark
from trainer.cards import Card
from trainer.dealing import Category, Deal, Difficulty, classify, deal, level_words
from trainer.errors import InvalidAnswerError
from trainer.grading import grade
from trainer.pegging import play_out


def test_the_densest_pegging_level_asks_for_the_count() -> None:
    """Dense pegging shows no count: the page gets the cards and is asked the count."""
    rng = random.Random(11)
    for _ in range(10):
        dealt = deal("pegging", rng, Difficulty.DENSE)
        shown = dealt.to_json()
        assert "count" not in shown and "count_before" not in shown and shown["ask_count"]
        assert dealt.count_asked and Category.PEG_COUNT in classify(dealt)
        assert Deal.from_json(shown) == dealt


def test_lighter_levels_show_the_count_after_or_before() -> None:
    beginner = deal("pegging", random.Random(1), Difficulty.BEGINNER).to_json()
    standard = deal("pegging", random.Random(1), Difficulty.STANDARD).to_json()
    assert "count" in beginner and "count_before" not in beginner
    assert "count_before" in standard and "count" not in standard


def pegging(pile: str, card: str) -> Deal:
    """A dense pegging drill: ``card`` played on ``pile``."""
    return Deal("pegging", tuple(parse_cards(pile)), played=Card.parse(card), count_shown="none")


def test_a_count_asked_is_graded_with_the_pegs() -> None:
    """7♥ 2♦ then 6♣ makes 15 for 2: both must be said; a wrong count is a miss of its own."""
    drill = pegging("7H 2D", "6C")
    assert grade(drill, {"points": 2, "count": 15}).correct
    wrong = grade(drill, {"points": 2, "count": 14})
    assert not wrong.correct and wrong.count == (14, 15)
    assert wrong.missed_categories == {Category.PEG_COUNT}
    both = grade(drill, {"points": 0, "count": 15})
    assert not both.correct and both.missed_categories == {Category.PEG_FIFTEEN}
    with pytest.raises(InvalidAnswerError, match="'count' must be a whole number"):
        grade(drill, {"points": 2})


def test_a_count_shown_is_not_asked() -> None:
    drill = Deal("pegging", tuple(parse_cards("7H 2D")), played=Card.parse("6C"))
    verdict = grade(drill, {"points": 2, "count": 3})
    assert verdict.correct and verdict.count is None
    assert "count" not in mark(drill, {"points": 2, "count": 3}, dealt_at=0, now=5, repeat=0).fields


def play(seed: int = 5, level: Difficulty = Difficulty.STANDARD) -> Deal:
    return deal("play", random.Random(seed), level)


def test_a_dealt_play_is_legal_and_whole() -> None:
    """Every card of both hands is played, in turn, as the engine checks a play."""
    rng = random.Random(2)
    for _ in range(200):
        dealt = deal("play", rng)
        assert sorted(dealt.order) == sorted(dealt.cards) and len(dealt.order) == 8
        play_out(dealt.cards[:4], dealt.cards[4:], dealt.order)  # raises for a wrong turn
        assert Category.PEG_COUNT in classify(dealt)
        assert Deal.from_json(dealt.to_json()) == dealt


def test_play_levels_are_quiet_or_lively() -> None:
    rng = random.Random(4)
    quiet = [
        sum(p.points for p in deal("play", rng, Difficulty.BEGINNER).pegs()) for _ in range(20)
    ]
    lively = [sum(p.points for p in deal("play", rng, Difficulty.DENSE).pegs()) for _ in range(20)]
    assert max(quiet) <= 4 < 9 <= min(lively)


def answers(drill: Deal) -> list[dict[str, int]]:
    """The right count and pegs of each card and go."""
    return [{"count": p.count, "points": p.points} for p in drill.pegs()]


def test_a_play_is_graded_card_by_card() -> None:
    """Part of the play is checked and not kept; the whole play is the answer."""
    drill = Deal(
        "play",
        tuple(parse_cards("10H 9C 5D 2S JD 6C 4H AS")),
        order=tuple(parse_cards("10H JD 9C AS 5D 4H 2S 6C")),
    )
    right = answers(drill)
    kinds = [[i.kind.value for i in p.items] for p in drill.pegs()]
    assert ["go"] in kinds and kinds[-1] == ["last card"]  # a go and the last card are steps
    first = grade(drill, {"steps": right[:1]})
    assert first.correct and not first.complete and len(first.steps) == 1
    partial = mark(drill, {"steps": right[:3]}, dealt_at=0, now=9, repeat=0)
    assert not partial.final and partial.review_at is None
    whole = mark(drill, {"steps": right}, dealt_at=0, now=9, repeat=0)
    assert whole.final and whole.grade.correct and whole.grade.total == 5


def test_a_play_counted_wrong_after_a_go_misses_the_count() -> None:
    """After a go the count starts again: carrying it on is a miss of the count."""
    drill = Deal(
        "play",
        tuple(parse_cards("10H 9C 5D 2S JD 6C 4H AS")),
        order=tuple(parse_cards("10H JD 9C AS 5D 4H 2S 6C")),
    )
    said = answers(drill)
    go = next(n for n, p in enumerate(drill.pegs()) if p.card is None)
    said[go + 1] = {"count": said[go]["count"] + said[go + 1]["count"], "points": 0}
    verdict = grade(drill, {"steps": said})
    assert not verdict.correct and verdict.complete
    assert [s.correct for s in verdict.steps].count(False) == 1
    assert Category.PEG_COUNT in verdict.missed_categories


@pytest.mark.parametrize(
    "steps",
    [None, [], "10", [{"count": 10}], [{"count": 10, "points": 0}] * 20, [3]],
    ids=["none", "empty", "text", "no-points", "too-many", "not-a-step"],
)
def test_bad_play_answers_are_refused(steps: object) -> None:
    with pytest.raises(InvalidAnswerError):
        grade(play(), {"steps": steps})


def test_every_level_is_explained_in_players_words() -> None:
    for kind in ("hand", "crib", "pegging", "discard", "play"):
        words = level_words(kind)
        assert list(words) == [d.value for d in Difficulty] and all(words.values())
    assert "keep the count" in level_words("pegging")["dense"]


def test_the_count_and_the_go_are_practised_in_plays() -> None:
    """A weak count or go takes the player to play drills, which always ask the count."""
    assert Category.PEG_COUNT.kinds == ("play",) and Category.PEG_GO.kinds == ("play",)
    dealt = deal("play", random.Random(8), focus=Category.PEG_GO)
    assert Category.PEG_GO in classify(dealt)
