"""Show mode while a question is open: every group's score shown before the crib is named (its
score as the crib beside it where a crib flush differs), and naming the crib of cards the reader
could not sort asks for the groups, in the photo answer and in ``crib read --show``."""

from __future__ import annotations

import dataclasses
import io
import json

import pytest

from crib.cli import main
from tests.vision.fakes import fake_reader
from trainer.rules import THREE_HAND
from trainer.show import score_show
from trainer.table import Role
from vision.answer import answer_photo
from vision.reader import DetectedCard, Reading

FLUSH = "2H 4H 6H 8H"
"""A four-card flush: 4 more as a hand than as the crib, with a starter of another suit."""
HANDS_APART = [("5H 5D 5C JS", 100, 100), (FLUSH, 100, 700), ("AC 2C 3C 4D", 900, 400)]
"""Three groups of four as near as each other to the starter (137, 400): the crib is asked."""
UNSORTED = [("5H 5D 5C JS 2H 4H", 100, 100), ("6H 8H", 300, 300), ("AC 2C 3C 4D", 700, 700)]
"""Twelve cards that do not fall into a two-player table's groups."""


def reading(groups: list[tuple[str, float, float]]) -> Reading:
    """A reading of fanned groups: (cards, x, y) each, their indices 25 px apart."""
    cards = [
        DetectedCard(code, 0.97, (x + 25 * k - 10, y - 15, x + 25 * k + 10, y + 15))
        for codes, x, y in groups
        for k, code in enumerate(codes.split())
    ]
    return Reading(cards=cards, starter_index=None)


def read_show(monkeypatch: pytest.MonkeyPatch, read: Reading, *args: str) -> str:
    """What ``crib read --show ARGS`` prints for a photo read as ``read``."""
    fake_reader(monkeypatch, read)
    out = io.StringIO()
    assert main(["read", "--show", *args, __file__], out) == 0
    return out.getvalue()


def test_every_group_is_scored_before_the_crib_is_named() -> None:
    """The crib asked: each group of four scored as a hand at once, and the flush's score as
    the crib beside it (the others score the same either way)."""
    answer = answer_photo(reading([*HANDS_APART, ("5S", 137, 400)]))
    assert answer.question is not None and answer.question.kind == "crib"
    hand = score_show(FLUSH.split(), "5S")
    as_crib = score_show(FLUSH.split(), "5S", crib=True)
    assert hand.total == as_crib.total + 4
    flush = answer.groups[1]
    assert flush.score is not None and flush.score.to_json() == hand.to_json()
    assert flush.crib_score is not None and flush.crib_score.to_json() == as_crib.to_json()
    assert [g.score is not None for g in answer.groups] == [True, True, True, False]
    assert answer.groups[0].crib_score is None and answer.groups[2].crib_score is None
    assert f"group 2 scores {hand.total} ({as_crib.total} if it is the crib)" in answer.note


def test_crib_read_show_prints_every_score_before_the_crib_is_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``crib read --show`` with the crib asked: each group's total on its line, the flush's
    total as the crib beside it, then the question."""
    text = read_show(monkeypatch, reading([*HANDS_APART, ("5S", 137, 400)]))
    hand = score_show(FLUSH.split(), "5S").total
    as_crib = score_show(FLUSH.split(), "5S", crib=True).total
    assert f"group 1: 5H 5D 5C JS  {score_show(['5H', '5D', '5C', 'JS'], '5S').total}\n" in text
    assert f"group 2: {FLUSH}  {hand} ({as_crib} if it is the crib)\n" in text
    assert "question: Which group is the crib?" in text


def test_naming_the_crib_of_unsorted_cards_asks_for_the_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cards the reader could not sort, and the crib named: the answer asks the player to sort
    the groups (saying where the crib goes), the command line says how, never a dead end."""
    read = reading([*UNSORTED, ("5S", 500, 450)])
    answer = answer_photo(read, crib_card="AC")
    assert answer.question is not None and answer.question.kind == "groups"
    assert answer.question.text.startswith("Read 13 cards: they do not make hands of 4")
    assert answer.question.text.endswith("The crib is the group with AC.")
    assert "not sorted" not in answer.note and answer.note.startswith(answer.question.text)
    assert answer.to_json()["question"]["kind"] == "groups"
    text = read_show(monkeypatch, read, "--crib-card", "ac")
    assert "question: Read 13 cards" in text and "The crib is the group with AC." in text
    assert 'answer with --groups "CARDS / CARDS / ...": the hands, then the crib' in text
    as_json = json.loads(read_show(monkeypatch, read, "--crib-card", "AC", "--json"))
    assert as_json["question"]["kind"] == "groups"


def test_a_table_with_cards_read_unsure_is_counted_by_its_whole_size() -> None:
    """A three-hand table (17 cards) of which two are read unsure: 15 sure cards make no table,
    so the rules are the three-hand table the unsure ones complete, every group is found,
    and the groups holding an unsure card (and the starter) keep no score until it is checked."""
    read = reading(
        [
            ("5H 5D 5C JS", 100, 100),
            ("2H 4H 6H 8H", 100, 700),
            ("AC 2C 3C 4D", 700, 100),
            ("7S 8S 9S 10S", 450, 420),
            ("KD", 400, 400),
        ]
    )
    unsure = {1, 13}  # 5D in a hand, 8S in the crib
    cards = [dataclasses.replace(c, uncertain=i in unsure) for i, c in enumerate(read.cards)]
    answer = answer_photo(dataclasses.replace(read, cards=cards))
    assert answer.rules is THREE_HAND and answer.question is None
    roles = [(g.role, sorted(str(answer.cards[i].card) for i in g.cards)) for g in answer.groups]
    assert (Role.CRIB, ["10S", "7S", "8S", "9S"]) in roles
    assert [g.score is None for g in answer.groups] == [True, False, False, True, True]
    assert "check 5D 8S: read with low confidence" in answer.note
