"""``crib drill`` as a new player met it (issue players3, item 11), through a pseudo-terminal: a
count out of the kind's range was taken, sentences began in two cases, a go that scores nothing
was never said, and a play 7 cards of 8 right closed on "1 answered, 0 right"."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.crib.test_drill import BOOT, crib, latest_drill, right_answer, setup
from trainer.dealing import Deal
from trainer.grading import MOST_PEG, MOST_SHOW

__all__ = ["crib", "setup"]  # the fixtures, used by name

SEEDED = BOOT.replace(
    "from crib.cli import main",
    "import random, records.drills\n"
    "_seeded = random.Random\n"
    "records.drills.random = type('Seeded', (), {'Random': staticmethod(\n"
    "    lambda: _seeded(int(os.environ['CRIB_TEST_SEED'])))})\n"
    "from crib.cli import main",
)
"""``crib`` with every deal's random numbers seeded by ``CRIB_TEST_SEED`` (the same play)."""


@pytest.fixture
def seeded(crib: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``crib`` started as :func:`crib` starts it, its deals seeded."""
    monkeypatch.setattr("tests.crib.test_drill.BOOT", SEEDED)
    return crib


@pytest.mark.slow
def test_a_count_no_hand_can_score_is_refused(crib: Any, setup: dict[str, Any]) -> None:
    """99 (or 30) for a hand is asked again with the hand's range; 29 is taken."""
    term = crib("drill", "hand")
    term.expect("Count: ")
    term.type("99")
    term.expect(rf"A hand or crib scores 0 to {MOST_SHOW}: type a number from 0 to {MOST_SHOW}")
    term.expect("Count: ")
    term.type(str(MOST_SHOW + 1))
    term.expect(f"from 0 to {MOST_SHOW}")
    term.expect("Count: ")
    term.type(right_answer(latest_drill(setup["url"])))
    term.expect(r"✔ Right")
    term.type("q")
    assert term.wait() == 0


@pytest.mark.slow
def test_pegs_no_card_can_peg_are_refused_and_verdicts_begin_alike(
    crib: Any, setup: dict[str, Any]
) -> None:
    """A card's pegs above 14 are asked again; a wrong peg's verdict begins with a capital, as
    a wrong count's does ("✘ It pegs 2, not 3", not "✘ it pegs")."""
    term = crib("drill", "pegging", "--level", "dense")
    term.expect("You keep the count.")
    deal = Deal.from_json(latest_drill(setup["url"]).deal)
    count = sum(c.value for c in (*deal.cards, deal.played) if c)
    points = sum(i.points for i in deal.peg_items())
    term.expect("Count: ")
    term.type(str(count))
    term.expect("Pegs: ")
    term.type(str(MOST_PEG + 1))
    term.expect(rf"One card pegs 0 to {MOST_PEG} \(a double pair royal making 31\)")
    term.expect("Pegs: ")
    term.type(str(points + 1))
    term.expect(rf"✘ It pegs {points}, not {points + 1}")
    term.type("q")
    assert term.wait() == 0


@pytest.mark.slow
def test_a_go_that_scores_nothing_is_said_and_the_play_is_summed_up(
    seeded: Any, setup: dict[str, Any]
) -> None:
    """The pone cannot play on 29 and the dealer plays on: the terminal says so. A play with
    one card wrong is "0 right" as a whole, but the closing line gives its cards right."""
    term = seeded("drill", "play", CRIB_TEST_SEED="2")
    term.expect("The pone holds")
    pegs = Deal.from_json(latest_drill(setup["url"]).deal).pegs()
    on = [
        n
        for n in range(1, len(pegs))
        if pegs[n].card and pegs[n - 1].card and pegs[n - 1].count != 31
        if pegs[n].player == pegs[n - 1].player
    ]
    assert on, "seed 2 no longer deals a play with a go that scores nothing: pick another"
    for n, peg in enumerate(pegs):
        if n == on[0]:
            who = ("pone", "dealer")[peg.player]
            other = ("pone", "dealer")[1 - peg.player]
            term.expect(
                re.escape(f"The {other} cannot play without passing 31: go. The {who} plays on.")
            )
        term.expect(rf"Card {n + 1} of {len(pegs)}: ")
        term.expect("Count: ")
        term.type(str(peg.count))
        term.expect("Pegs: ")
        term.type(str(peg.points + (n == 0)))  # the first card's pegs said wrong
        term.expect("(✔|✘) ")
        term.expect("Enter: next")
        if n < len(pegs) - 1:
            term.type("")
    term.type("q")
    term.expect(
        rf"1 answered, 0 right \(in plays, {len(pegs) - 1} of {len(pegs)} cards and goes right\)"
    )
    assert term.wait() == 0
    shown = term.text.count("cannot play without passing 31: go.")
    assert shown == len([n for i, n in enumerate(on) if i == 0 or on[i - 1] != n - 1])
