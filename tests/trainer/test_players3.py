"""What a new player tripped on in the drills (issue players3, items 7, 8, 11 and 12): a count by
kind that named a guessed fifteen as fact and a right total as wrong, discard ties reported as
wins "by 0.00 points", and a likely cause offered where it is not the likeliest."""

from __future__ import annotations

import itertools

import pytest

from crib.feedback import verdict_lines
from trainer import parse_cards
from trainer.cards import Card
from trainer.dealing import Deal, Difficulty
from trainer.discard import analyze_discards
from trainer.grading import grade
from trainer.items import Kind


def show(cards: str, starter: str, kind: str = "hand") -> Deal:
    """A hand or crib drill of these cards."""
    return Deal(kind, tuple(parse_cards(cards)), starter=Card.parse(starter))  # type: ignore[arg-type]


# --- 7: counting by kind ------------------------------------------------------------------------

DENSE = show("5C 5H 10S JC", "QC")
"""The issue's hand: six fifteens (12), a pair (2), a run (3), nobs (1): 18."""
OFFSETTING = {"fifteen": 10, "pair": 4, "run": 3, "nobs": 1}
"""The issue's count: 18, the right total, with a fifteen short and a pair too many."""


def test_a_right_total_by_kind_is_right() -> None:
    """Fifteens short by one and pairs over by one: the total is right, so the verdict is, and
    the kinds counted wrong are still the weak spots tallied."""
    assert sum(OFFSETTING.values()) == DENSE.breakdown().total
    verdict = grade(DENSE, {"by_kind": OFFSETTING})
    assert verdict.correct
    assert {"fifteens", "pairs"} <= {c.value for c in verdict.missed_categories}
    first = verdict_lines(DENSE, verdict)[0]
    assert first[0] == "right" and first[1].startswith("✔") and "not 18" not in first[1]
    assert "kind by kind" in first[1]


def test_a_fifteen_missed_among_several_is_not_named() -> None:
    """One fifteen of six left out, counted by kind: which one cannot be told, so no fifteen's
    cards are named as missed; the kind and how many of them are."""
    verdict = grade(DENSE, {"by_kind": OFFSETTING})
    fifteens = [i for i in DENSE.breakdown().items if i.kind is Kind.FIFTEEN]
    assert len(fifteens) == 6
    assert not [i for i in verdict.missed if i.kind is Kind.FIFTEEN]
    (row,) = verdict.to_json()["missed_kinds"]
    assert row["kind"] == "fifteen" and row["points"] == 2
    assert row["text"] == "one of the 6 fifteens, for 2"
    text = "\n".join(line for _, line in verdict_lines(DENSE, verdict))
    assert "one of the 6 fifteens, for 2" in text
    assert "5♣ 10♠ " not in text.split("You missed")[1].split("\n")[1]


@pytest.mark.parametrize("missed", [Kind.NOBS, Kind.RUN])
def test_a_kind_missed_whole_is_named(missed: Kind) -> None:
    """A kind whose shortfall only one set of its items explains (the nobs, the one run) is
    named item by item, as certain."""
    points = DENSE.breakdown().points_by_kind()
    claims = {k.value: (0 if k is missed else v) for k, v in points.items()}
    verdict = grade(DENSE, {"by_kind": claims})
    assert [i.kind for i in verdict.missed] == [missed]
    assert "missed_kinds" not in verdict.to_json()


def test_which_fifteens_are_certain_is_checked_against_every_subset() -> None:
    """For each shortfall of the fifteens, the missed fifteens are named exactly when one set
    of them adds up to it (counted over every subset, independently of the grading)."""
    fifteens = [i for i in DENSE.breakdown().items if i.kind is Kind.FIFTEEN]
    others = {"pair": 2, "run": 3, "nobs": 1}
    for said in range(0, 13):
        short = 12 - said
        subsets = sum(
            1
            for n in range(len(fifteens) + 1)
            for chosen in itertools.combinations(fifteens, n)
            if sum(i.points for i in chosen) == short
        )
        verdict = grade(DENSE, {"by_kind": {"fifteen": said, **others}})
        named = [i for i in verdict.missed if i.kind is Kind.FIFTEEN]
        if short == 0:
            assert not named and not verdict.to_json().get("missed_kinds")
        elif subsets == 1:
            assert len(named) * 2 == short
        else:
            assert not named and verdict.to_json()["missed_kinds"][0]["points"] == short


# --- 8: discard ties ----------------------------------------------------------------------------


TIED = Deal("discard", tuple(parse_cards("10C 3S 2C 4S 8D 5S")), dealer=False)
"""A pone's six whose two best throws differ by 0.0018 points: alike at two decimals."""


@pytest.mark.slow
def test_throws_equal_at_the_tables_rounding_tie() -> None:
    """Two throws whose nets the table shows alike: neither beats the other "by 0.00 points";
    the one a shade lower is right too, and the words say they tie."""
    best, rival, third = analyze_discards(TIED.cards, dealer=False)[:3]
    assert best.net_ev > rival.net_ev and f"{best.net_ev:.2f}" == f"{rival.net_ev:.2f}"
    assert f"{third.net_ev:.2f}" != f"{best.net_ev:.2f}"
    for chosen in (best, rival):
        verdict = grade(TIED, {"discard": [str(c) for c in chosen.discard]})
        assert verdict.correct, chosen
        assert "by 0.00" not in verdict.reason
        assert verdict_lines(TIED, verdict, chosen.discard)[0][1].startswith("✔ Best throw")
    chose_best = grade(TIED, {"discard": [str(c) for c in best.discard]})
    assert " ".join(c.unicode() for c in third.discard) in chose_best.reason  # the next unlike
    chose_rival = grade(TIED, {"discard": [str(c) for c in rival.discard]})
    assert "ties" in chose_rival.reason and "the same to two decimals" in chose_rival.reason


# --- 12: an over-count's cause, only the likeliest ----------------------------------------------


@pytest.mark.parametrize(
    ("cards", "starter", "over", "note"),
    [
        # the pair of a double run counted again, beside the double run's 8
        ("3H 4D 4C 5S", "KH", 2, "the pair 4♣ 4♦ counted twice, alone and in the double run?"),
        # a run of four counted with the run of three inside it
        ("3H 4D 5C 6S", "KH", 3, "a run of three counted inside the run of four?"),
        # a lone pair, 2 over: a fifteen seen where there is none is as likely
        ("2H 2D 7C 9S", "KH", 2, ""),
    ],
)
def test_an_over_count_gets_only_its_likeliest_cause(
    cards: str, starter: str, over: int, note: str
) -> None:
    deal = show(cards, starter)
    verdict = grade(deal, {"points": deal.breakdown().total + over})
    assert verdict.note.startswith(note) if note else verdict.note == ""


# --- 9: a spread of what the play scores, each level its own ------------------------------------

PAIRS = {Kind.PAIR, Kind.PAIR_ROYAL, Kind.DOUBLE_PAIR_ROYAL}


def scored(deal: Deal) -> str:
    """What a pegging drill's card scores, as one of the play's families."""
    kinds = {i.kind for i in deal.peg_items()}
    names = [
        n
        for k, n in ((Kind.FIFTEEN, "15"), (Kind.RUN, "run"), (Kind.THIRTY_ONE, "31"))
        if k in kinds
    ]
    if kinds & PAIRS:
        names.append("pair royal" if kinds & {Kind.PAIR_ROYAL, Kind.DOUBLE_PAIR_ROYAL} else "pair")
    return " + ".join(sorted(names)) or "nothing"


@pytest.mark.slow
@pytest.mark.parametrize("level", list(Difficulty))
def test_pegging_drills_spread_over_what_the_play_scores(level: Difficulty) -> None:
    """120 pegging drills of a level: no one score is more than a third of them, 31 is not
    most of them (17 of 25 dense deals made 31, 11 an ace making 31), and every family the
    level teaches comes up; each level deals its own: beginner's 2 points at most, dense's 3 or
    more, standard's a bit of everything."""
    import collections
    import random

    from trainer.dealing import deal

    rng = random.Random(f"spread {level.value}")
    deals = [deal("pegging", rng, level) for _ in range(120)]
    shapes = collections.Counter(scored(d) for d in deals)
    points = [sum(i.points for i in d.peg_items()) for d in deals]
    thirty_one = sum(n for shape, n in shapes.items() if "31" in shape)
    aces = sum(1 for d in deals if d.played and d.played.rank == 1 and "31" in scored(d))
    assert max(shapes.values()) <= 40, shapes
    assert thirty_one <= 45 and aces <= 15, shapes
    if level is Difficulty.BEGINNER:
        assert max(points) <= 2 and {"nothing", "15", "pair", "31"} <= set(shapes), shapes
    elif level is Difficulty.DENSE:
        assert min(points) >= 3 and {"run", "pair royal", "15 + pair", "31 + run"} <= set(shapes)
    else:
        assert {"nothing", "15", "pair", "run", "31"} <= set(shapes), shapes


# --- 10: the discard drill's levels -------------------------------------------------------------


def margin(deal: Deal) -> float:
    """How far the best throw beats the next one unlike it, as the table shows them."""
    nets = [round(o.net_ev, 2) for o in analyze_discards(deal.cards, dealer=bool(deal.dealer))]
    return nets[0] - next((n for n in nets if n != nets[0]), nets[0])


@pytest.mark.slow
def test_the_discard_levels_deal_clear_and_close_throws() -> None:
    """Beginner deals sixes whose best throw stands out (a point or more over the next),
    dense close calls (under 0.3), standard any six; each level says so."""
    import random

    from trainer.dealing import deal, level_words

    rng = random.Random("discard levels")
    margins = {
        level: [margin(deal("discard", rng, level)) for _ in range(30)] for level in Difficulty
    }
    assert min(margins[Difficulty.BEGINNER]) >= 1.0
    assert max(margins[Difficulty.DENSE]) < 0.3
    standard = margins[Difficulty.STANDARD]
    assert min(standard) < 1.0 and max(standard) >= 0.3  # any six: both kinds come up
    words = level_words("discard")
    assert len(set(words.values())) == 3
    assert "a point or more" in words["beginner"] and "under 0.3" in words["dense"]
