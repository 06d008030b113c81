"""``crib play`` on a pseudo-terminal: a whole game against the computer, muggins, the review."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select

from records.models import Answer, ComputerGameRecord
from tests.crib.test_drill import crib, setup
from tests.trainer.test_versus import peg_points, show_points, value
from trainer.cards import Card, as_card

__all__ = ["crib", "setup"]  # the fixtures this module uses, imported from the drill's tests

PROMPT = re.compile(r"(Throw two \(numbers or cards\)|Play \(number or card\)|It pegs|It counts): ")


def cards_in(text: str) -> list[Card]:
    return [as_card(token) for token in re.findall(r"(?:10|[2-9AJQK])[♠♥♦♣]", text)]


def last_line(screen: str, start: str) -> str:
    return [line for line in screen.splitlines() if line.startswith(start)][-1]


@pytest.mark.slow
def test_a_whole_game_to_121_counted_in_the_terminal(crib: Any, setup: dict[str, Any]) -> None:
    terminal = crib("play")
    shorted = over = 0
    moves = 0
    card: Card | None = None
    while True:
        found = terminal.expect(rf"{PROMPT.pattern}|The review", timeout=60)
        if found.group(0) == "The review":
            break
        screen = terminal.text[: found.start()]
        prompt, moves = found.group(1), moves + 1
        if prompt.startswith("Throw"):
            terminal.type("1 2")
            continue
        if prompt.startswith("Play"):
            pile = cards_in(last_line(screen, "On the table:"))
            held = cards_in(last_line(screen, "Your cards:"))
            count = sum(value(c) for c in pile)
            number, card = next((n, c) for n, c in enumerate(held, 1) if count + value(c) <= 31)
            terminal.type(str(number))
            continue
        if prompt == "It pegs":
            assert card is not None
            due = peg_points(cards_in(last_line(screen, "On the table:")), card)
        else:
            counted = last_line(screen, "Count your ")
            hand, starter = cards_in(counted)[:-1], cards_in(counted)[-1]
            due = show_points(hand, starter, crib="your crib" in counted)
        if due >= 2 and shorted < 3:
            shorted += 1
            terminal.type(str(due - 2))  # short by two: the computer takes them
            terminal.expect("Muggins: ")
        elif over < 1 and prompt == "It counts":
            over += 1
            terminal.type(str(due + 1))
            terminal.expect("is over the count: refused")
            terminal.expect("It counts: ")
            terminal.type(str(due))
        else:
            terminal.type(str(due))
    assert re.search(r"Game: (you win|the computer wins) \d+–\d+", terminal.text)
    summary = terminal.expect(r"You gave away [^\n]*")
    assert f"{2 * shorted} overlooked" in summary.group(0)
    assert terminal.wait() == 0
    assert moves > 40
    engine = create_engine(setup["url"])
    with engine.connect() as db:
        stored = db.execute(select(ComputerGameRecord)).one()
        assert stored.finished_at is not None and max(stored.scores) >= 121
        answers = db.execute(select(func.count(Answer.id))).scalar_one()
        assert answers > 20
    engine.dispose()


@pytest.mark.slow
def test_a_game_left_is_taken_up_again(crib: Any) -> None:
    first = crib("play", "--level", "beginner")
    first.expect("Throw two")
    dealt = cards_in(last_line(first.text, "Your cards:"))
    first.type("q")
    assert first.wait() == 0
    again = crib("play")
    again.expect("Your game resumed")
    found = again.expect("Throw two")
    assert cards_in(last_line(again.text[: found.start()], "Your cards:")) == dealt
    again.type("1 2")
    again.expect("You throw")
    again.type("q")
    assert again.wait() == 0
