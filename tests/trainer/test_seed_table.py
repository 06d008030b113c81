"""The 48-hand scoring table printed in the Drueke booklet (shared/seeds), every total checked.

Rows are five ranks and a total: ``1`` is an ace, ``N`` the jack of the starter's suit (nobs)
and ``5s`` marks the starter in the one row that names it. Suits are not printed, so each row
gets the first suits (in ``Suit`` order) that give no flush, keep duplicates apart, give ``N``
the starter's suit and every other jack another suit. The starter is the marked card, else the
last card that is not a jack (a jack turned up would leave no jack of its suit for ``N``).
"""

from __future__ import annotations

import itertools
import re
from typing import NamedTuple

import pytest

from tests.shared import shared_path
from trainer.cards import Card, Rank, Suit
from trainer.items import Kind
from trainer.show import score_show

BOOKLET = shared_path("seeds/002_2354890900935a51.txt")
"""Drueke's booklet; without ../shared this module fails to collect, naming the path."""


ENTRY = re.compile(r"(\w+(?: \.\. \w+){4}) — (\d+)")
"""One printed hand: five ranks joined by ``..``, a dash and the total."""


class Row(NamedTuple):
    """One printed hand: its tokens as printed and its total."""

    tokens: tuple[str, ...]
    total: int


def read_table(text: str) -> list[Row]:
    """The rows under "CRIBBAGE SCORING TABLE": the left column, then the right."""
    table = text.split("CRIBBAGE SCORING TABLE", 1)[1]
    columns: list[list[Row]] = [[], []]
    for line in table.splitlines():
        entries = ENTRY.findall(line)
        if entries:
            for column, (ranks, total) in zip(columns, entries, strict=True):
                column.append(Row(tuple(ranks.split(" .. ")), int(total)))
    return columns[0] + columns[1]


ROWS = read_table(BOOKLET.read_text(encoding="utf-8"))

RANKS = {"1": Rank.ACE, "J": Rank.JACK, "N": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING}


def rank_of(token: str) -> Rank:
    token = token.removesuffix("s")
    return RANKS[token] if token in RANKS else Rank(int(token))


def suited(row: Row) -> tuple[list[Card], Card]:
    """The row as a hand and starter, suited as the module docstring says."""
    marked = [i for i, t in enumerate(row.tokens) if t.endswith("s")]
    ranks = [rank_of(t) for t in row.tokens]
    starter = marked[0] if marked else max(i for i, r in enumerate(ranks) if r is not Rank.JACK)
    for suits in itertools.product(Suit, repeat=5):
        cards = [Card(r, s) for r, s in zip(ranks, suits, strict=True)]
        hand = cards[:starter] + cards[starter + 1 :]
        turned = cards[starter]
        nobs_right = all(
            (c.suit is turned.suit) == (token == "N")
            for c, token in zip(cards, row.tokens, strict=True)
            if c.rank is Rank.JACK and c is not turned
        )
        if len(set(cards)) == 5 and nobs_right and len({c.suit for c in hand}) > 1:
            return hand, turned
    raise AssertionError(f"no suits fit {row}")


def test_table_read_whole() -> None:
    """48 rows of five cards, as printed: two columns of 24."""
    assert len(ROWS) == 48
    assert all(len(row.tokens) == 5 for row in ROWS)
    assert ROWS[0] == Row(("5", "5", "N", "J", "J"), 21)
    assert ROWS[-1] == Row(("7", "8", "8", "9", "9"), 20)
    assert Row(("5", "N", "5", "5", "5s"), 29) in ROWS


@pytest.mark.parametrize("row", ROWS, ids=lambda row: "-".join(row.tokens) + f"={row.total}")
def test_printed_total(row: Row) -> None:
    """The engine scores each printed hand as the booklet does."""
    hand, starter = suited(row)
    breakdown = score_show(hand, starter)
    assert breakdown.total == row.total
    assert breakdown.points_by_kind().get(Kind.NOBS, 0) == row.tokens.count("N")
    assert Kind.FLUSH not in breakdown.points_by_kind()
