"""Drills: seeded deals, difficulty, weak-spot focus, the crib trap, grading by the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer import Kind, parse_cards, parse_deal, score_show
from trainer.dealing import (
    DAILY_KINDS,
    KINDS,
    Category,
    Deal,
    Difficulty,
    classify,
    daily,
    deal,
    is_crib_flush_trap,
)
from trainer.discard import analyze_discards
from trainer.errors import InvalidAnswerError
from trainer.grading import CRIB_FLUSH_NOTE, SHOW_KINDS, explain_shortfall, grade
from trainer.pegging import score_peg
from trainer.weak_spots import Tally, choose_focus, tally


@pytest.mark.parametrize("kind", KINDS)
def test_same_seed_same_deal(kind: str) -> None:
    """A seed fixes the deal; another seed gives another."""
    first = [deal(kind, random.Random("seed")) for _ in range(3)]  # type: ignore[arg-type]
    again = [deal(kind, random.Random("seed")) for _ in range(3)]  # type: ignore[arg-type]
    other = deal(kind, random.Random("other"))  # type: ignore[arg-type]
    assert first == again
    assert other != first[0]


@pytest.mark.parametrize("kind", KINDS)
def test_json_round_trip(kind: str) -> None:
    """A deal survives storage as JSON."""
    rng = random.Random(kind)
    for _ in range(20):
        dealt = deal(kind, rng)  # type: ignore[arg-type]
        assert Deal.from_json(dealt.to_json()) == dealt


def test_from_json_unknown_kind() -> None:
    """Unknown kinds are refused by name."""
    with pytest.raises(ValueError, match="unknown drill kind 'poker'"):
        Deal.from_json({"kind": "poker"})
    with pytest.raises(ValueError, match="unknown drill kind"):
        deal("poker", random.Random())  # type: ignore[arg-type]


def test_daily_is_fixed_by_the_date() -> None:
    """The daily set depends on the date alone: same date, same deals; next day, new deals."""
    assert daily("2026-11-22") == daily("2026-11-22")
    assert daily("2026-11-22") != daily("2026-11-23")
    assert [d.kind for d in daily("2026-11-22")] == list(DAILY_KINDS)


def test_daily_sets_the_crib_trap_on_odd_days() -> None:
    """Odd dates deal a crib with four of a suit and a starter of another."""
    crib = next(d for d in daily("2026-11-23") if d.kind == "crib")
    assert crib.starter is not None and is_crib_flush_trap(crib.cards, crib.starter)
    assert Category.CRIB_FLUSH in classify(crib)


@pytest.mark.parametrize("kind", ["hand", "crib"])
def test_difficulty_levels(kind: str) -> None:
    """Beginner shows have at most three items; dense ones seven or more."""
    rng = random.Random(7)
    for _ in range(15):
        easy = deal(kind, rng, Difficulty.BEGINNER).breakdown()  # type: ignore[arg-type]
        dense = deal(kind, rng, Difficulty.DENSE).breakdown()  # type: ignore[arg-type]
        assert len(easy.items) <= 3
        assert len(dense.items) >= 7
        assert sum(i.kind is Kind.RUN for i in easy.items) <= 1


def test_pegging_difficulty_and_legality() -> None:
    """Piles never pass 31; dense pegging plays score 3 or more."""
    rng = random.Random(3)
    for _ in range(30):
        play = deal("pegging", rng, Difficulty.DENSE)
        assert play.played is not None
        assert sum(c.value for c in (*play.cards, play.played)) <= 31
        assert sum(i.points for i in score_peg(play.cards, play.played)) >= 3


@pytest.mark.parametrize(
    "focus", [c for c in Category if c.kinds != ("discard",)], ids=lambda c: c.value
)
def test_focus_is_dealt(focus: Category) -> None:
    """A focus category comes up in the deal (checked by the engine's items)."""
    rng = random.Random(focus.value)
    for _ in range(5):
        dealt = deal(focus.kinds[-1], rng, Difficulty.STANDARD, focus)
        assert focus in classify(dealt)


def test_focus_must_fit_the_kind() -> None:
    """A pegging category cannot be asked of a hand."""
    with pytest.raises(ValueError, match="does not come up in hand drills"):
        deal("hand", random.Random(), focus=Category.PEG_RUNS)


def _engine_categories(drill: Deal) -> frozenset[Category]:
    """What the engine's items say about a show deal, itemized afresh (no memo)."""
    assert drill.starter is not None
    found = set()
    items = score_show(drill.cards, drill.starter, crib=drill.kind == "crib").items
    runs = sum(item.kind is Kind.RUN for item in items)
    for item in items:
        if item.kind is Kind.FIFTEEN:
            found.add(Category.FIFTEENS if len(item.cards) == 2 else Category.LONG_FIFTEENS)
        elif item.kind is Kind.FLUSH:
            found.add(Category.FLUSH)
        elif item.kind is Kind.NOBS:
            found.add(Category.NOBS)
        elif item.kind is not Kind.RUN:
            found.add(Category.PAIRS)
    if runs:
        found.add(Category.RUNS if runs == 1 else Category.MULTIPLE_RUNS)
    if drill.kind == "crib" and is_crib_flush_trap(drill.cards, drill.starter):
        found.add(Category.CRIB_FLUSH)
    if not items:
        found.add(Category.NINETEEN)
    return frozenset(found)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("JH 5D 5C 5S | 5H", "JS 5D 5C 5H | 5S"),  # his nobs, then none with the same ranks
        ("2H 4H 6H 8H | KH", "2H 4H 6H 8H | KS"),  # a five-card flush, then a four-card one
        ("2H 4H 6H 8H | KS", "2H 4H 6H 8S | KH"),  # a four-card flush, then none
    ],
)
@pytest.mark.parametrize("kind", ["hand", "crib"])
def test_deals_with_the_same_ranks_are_classified_apart(kind: str, first: str, second: str) -> None:
    """Classifying is remembered by ranks and suit facts: nobs and flushes still tell deals
    with the same ranks apart, whichever was classified first."""
    for text in (first, second, first):
        cards, starter = text.split("|")
        drill = Deal(kind, tuple(parse_cards(cards)), starter=parse_cards(starter)[0])  # type: ignore[arg-type]
        assert classify(drill) == _engine_categories(drill), text


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["hand", "crib"])
def test_remembered_classes_match_the_engine_on_random_deals(kind: str) -> None:
    """Thousands of random deals (flush and nobs deals among them), each classified as the
    engine's own items say."""
    rng = random.Random(kind)
    focuses = [None, Category.FLUSH, Category.NOBS, Category.PAIRS]
    if kind == "crib":
        focuses[1] = Category.CRIB_FLUSH
    for n in range(4000):
        drill = deal(kind, rng, focus=focuses[n % 4])  # type: ignore[arg-type]
        assert classify(drill) == _engine_categories(drill), drill


def test_classify_reads_the_engine() -> None:
    """Runs with duplicates are more than one RUN item; the crib trap needs the crib."""
    double = Deal("hand", tuple(parse_cards("3H 4D 5C 5S")), starter=parse_cards("KD")[0])
    assert {Category.MULTIPLE_RUNS, Category.PAIRS, Category.FIFTEENS} <= classify(double)
    assert Category.RUNS not in classify(double)
    hearts = tuple(parse_cards("2H 4H 6H 8H"))
    starter = parse_cards("KS")[0]
    assert Category.FLUSH in classify(Deal("hand", hearts, starter=starter))
    crib = classify(Deal("crib", hearts, starter=starter))
    assert Category.CRIB_FLUSH in crib and Category.FLUSH not in crib
    assert classify(Deal("discard", tuple(parse_cards("AH 2H 3H 4H 5H 6H")), dealer=False)) == {
        Category.DISCARD_PONE
    }


def test_crib_trap_share() -> None:
    """At least one crib drill in five is the crib-flush trap."""
    rng = random.Random(11)
    picks = [choose_focus("crib", {}, rng) for _ in range(500)]
    assert picks.count(Category.CRIB_FLUSH) >= 100


def test_choose_focus_follows_misses() -> None:
    """The most missed category is chosen most; categories of other kinds never."""
    rng = random.Random(5)
    tallies = {Category.PEG_RUNS: Tally(seen=10, missed=9), Category.PEG_PAIRS: Tally(seen=10)}
    picks = [choose_focus("pegging", tallies, rng) for _ in range(300)]
    assert picks.count(Category.PEG_RUNS) > 3 * picks.count(Category.PEG_PAIRS)
    assert all(p is None or "pegging" in p.kinds for p in picks)


def test_tally() -> None:
    """Answers add up per category."""
    both = [Category.NOBS, Category.FIFTEENS]
    totals = tally([(both, both, 3.0), ([Category.NOBS], [], 1.0), (both, [Category.NOBS], 1.0)])
    assert totals[Category.NOBS] == Tally(3, 2, 5.0)
    assert totals[Category.FIFTEENS] == Tally(2, 1, 4.0)


# --- grading ------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(), crib=st.booleans(), error=st.integers(-3, 3))
def test_count_grading_matches_engine(seed: int, crib: bool, error: int) -> None:
    """Right means the engine's total; a short count is explained by items adding up to it."""
    dealt = deal("crib" if crib else "hand", random.Random(seed))
    breakdown = score_show(dealt.cards, dealt.starter, crib=crib)  # type: ignore[arg-type]
    claimed = max(0, breakdown.total + error)
    verdict = grade(dealt, {"points": claimed})
    assert verdict.correct == (claimed == breakdown.total)
    assert verdict.items == breakdown.items
    assert verdict.under == max(0, breakdown.total - claimed)
    assert verdict.over == max(0, claimed - breakdown.total)
    assert set(verdict.missed) <= set(breakdown.items)
    if verdict.correct:
        assert not verdict.missed and not verdict.missed_categories
    else:
        assert verdict.missed_categories == classify(dealt)


def test_explain_shortfall_prefers_few_overlooked_items() -> None:
    """Two short in a hand with nobs and fifteens: one fifteen, not nobs plus something."""
    items = score_show(parse_cards("5H 5D JH QC"), parse_cards("KH")[0]).items
    assert [i.kind for i in explain_shortfall(items, 1)] == [Kind.NOBS]
    two = explain_shortfall(items, 2)
    assert len(two) == 1 and two[0].points == 2
    assert explain_shortfall(items, 0) == ()
    assert sum(i.points for i in explain_shortfall(items, 99)) == sum(i.points for i in items)


def test_pegging_grading() -> None:
    """A pegging answer is graded by score_peg."""
    play = Deal("pegging", tuple(parse_cards("5H 5D")), played=parse_cards("5C")[0])
    points = sum(i.points for i in score_peg(play.cards, play.played))  # type: ignore[arg-type]
    assert grade(play, {"points": points}).correct
    assert not grade(play, {"points": points - 1}).correct


def test_discard_grading() -> None:
    """Expected points lost against the engine's best throw."""
    six = tuple(parse_cards("5H 5D JH QC 7S 8S"))
    options = analyze_discards(six, dealer=True)
    dealt = Deal("discard", six, dealer=True)
    best = grade(dealt, {"discard": [str(c) for c in options[0].discard]})
    worst = grade(dealt, {"discard": [str(c) for c in options[-1].discard]})
    assert best.correct and best.under == 0
    assert not worst.correct
    assert worst.under == pytest.approx(options[0].net_ev - options[-1].net_ev)
    assert worst.to_json()["options"][0] == options[0].to_json()


@pytest.mark.parametrize(
    "crib_model, right, wrong", [("uniform", "7H 8C", "QC 8C"), ("weighted", "QC 8C", "7H 8C")]
)
def test_discard_graded_by_the_chosen_crib(crib_model: str, right: str, wrong: str) -> None:
    """As pone with 5H 5D JS QC 7H 8C, 7-8 is best by the uniform crib; by the weighted one
    (the dealer throws for his crib) Q-8 is: each answer is graded by the model it names."""
    dealt = Deal("discard", tuple(parse_cards("5H 5D JS QC 7H 8C")), dealer=False)
    good = grade(dealt, {"discard": right.split(), "crib_model": crib_model})
    bad = grade(dealt, {"discard": wrong.split(), "crib_model": crib_model})
    assert good.correct and not bad.correct
    verdict = bad.to_json()
    assert verdict["crib_model"] == crib_model
    assert verdict["lost"] == good.claimed - bad.claimed  # full precision, not rounded
    assert verdict["options"][0]["discard"] == right.split()


def test_discard_defaults_to_uniform_and_rejects_unknown_models() -> None:
    """No crib model named grades by the uniform crib; an unknown one is a clear error."""
    dealt = Deal("discard", tuple(parse_cards("5H 5D JS QC 7H 8C")), dealer=False)
    assert grade(dealt, {"discard": ["7H", "8C"]}).correct
    with pytest.raises(InvalidAnswerError, match="'crib_model' must be 'uniform', 'weighted'"):
        grade(dealt, {"discard": ["7H", "8C"], "crib_model": "random"})


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        ({}, "'points' must be a whole number"),
        ({"points": "7"}, "'points' must be a whole number"),
        ({"points": -1}, "'points' must be a whole number"),
    ],
)
def test_bad_count_answers(answer: dict[str, object], message: str) -> None:
    """Malformed counts raise ValueError naming the field."""
    with pytest.raises(ValueError, match=message):
        grade(deal("hand", random.Random(1)), answer)


def test_shows_cannot_peg_and_plays_cannot_show() -> None:
    """Asking a deal for the wrong kind of score is an error."""
    with pytest.raises(ValueError, match="no show"):
        deal("pegging", random.Random(1)).breakdown()
    with pytest.raises(ValueError, match="no card played"):
        deal("hand", random.Random(1)).peg_items()


def test_choose_focus_follows_slowness() -> None:
    """With equal misses, the category the player is slow at is chosen more."""
    rng = random.Random(8)
    tallies = {
        Category.PEG_RUNS: Tally(seen=10, missed=5, seconds=100.0),
        Category.PEG_PAIRS: Tally(seen=10, missed=5, seconds=20.0),
        Category.PEG_FIFTEEN: Tally(seen=10, missed=5, seconds=20.0),
    }
    picks = [choose_focus("pegging", tallies, rng) for _ in range(600)]
    assert picks.count(Category.PEG_RUNS) > 1.5 * picks.count(Category.PEG_PAIRS)


# --- counting by kind ---------------------------------------------------------------------------


def show_deal(text: str, crib: bool = False) -> Deal:
    """A hand or crib deal from ``"5H 5D 5C JS | 5S"``."""
    hand, starter = parse_deal(text)
    return Deal("crib" if crib else "hand", tuple(hand), starter=starter)


def claims_of(dealt: Deal) -> dict[str, int]:
    """The engine's points per kind, as a player would claim them."""
    points = dealt.breakdown().points_by_kind()
    return {kind.value: points.get(kind, 0) for kind in SHOW_KINDS}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(), crib=st.booleans())
def test_by_kind_right_is_correct(seed: int, crib: bool) -> None:
    """Claiming exactly the engine's points per kind is right, with nothing missed."""
    dealt = deal("crib" if crib else "hand", random.Random(seed))
    verdict = grade(dealt, {"by_kind": claims_of(dealt)})
    assert verdict.correct and not verdict.missed and not verdict.missed_categories
    assert verdict.claimed == verdict.total == dealt.breakdown().total


def test_by_kind_names_the_missed_kind() -> None:
    """Nobs left out: the nobs item is missed, and only the nobs category counts as missed."""
    dealt = show_deal("5H 5D 5C JS | 5S")
    claims = claims_of(dealt) | {"nobs": 0}
    verdict = grade(dealt, {"by_kind": claims})
    assert not verdict.correct
    assert [i.kind for i in verdict.missed] == [Kind.NOBS]
    assert verdict.missed_categories == {Category.NOBS}
    assert ("nobs", 0, 1) in [(k.value, c, r) for k, c, r in verdict.by_kind]


def test_by_kind_crib_flush_trap() -> None:
    """Counting four for a crib flush with an odd starter is the crib-flush mistake."""
    dealt = show_deal("2H 4H 6H 8H | KS", crib=True)
    verdict = grade(dealt, {"by_kind": claims_of(dealt) | {"flush": 4}})
    assert not verdict.correct and verdict.over == 4
    assert verdict.missed_categories == {Category.CRIB_FLUSH}
    assert verdict.to_json()["by_kind"][3] == {"kind": "flush", "claimed": 4, "right": 0}


@pytest.mark.parametrize(
    ("by_kind", "message"),
    [
        ({"fifteens": 2}, "unknown kind 'fifteens'"),
        ({"fifteen": -2}, "whole number from 0 to 29"),
        ({"nobs": "1"}, "whole number from 0 to 29"),
        ([2, 2], "'by_kind' must map kinds"),
    ],
)
def test_by_kind_bad(by_kind: object, message: str) -> None:
    """Malformed claims by kind are refused by name."""
    with pytest.raises(ValueError, match=message):
        grade(show_deal("5H 5D 5C JS | 5S"), {"by_kind": by_kind})


def test_crib_flush_note() -> None:
    """Counting the four-card crib flush, by total or by kind, gets the rule explained."""
    trap = show_deal("2H 4H 6H 8H | KS", crib=True)
    total = trap.breakdown().total
    assert grade(trap, {"points": total + 4}).note == CRIB_FLUSH_NOTE
    assert grade(trap, {"by_kind": claims_of(trap) | {"flush": 4}}).note == CRIB_FLUSH_NOTE
    assert grade(trap, {"points": total}).note == ""
    hand = show_deal("2H 4H 6H 8H | KS")
    over = grade(hand, {"points": hand.breakdown().total + 4}).note  # no trap: a likelier cause
    assert over == "the flush 2♥ 4♥ 6♥ 8♥ counted twice?"
