"""Grouping the cards read on a table by position: hands, crib, starter, and the questions asked
when the layout does not settle them."""

from __future__ import annotations

import dataclasses

import pytest

from trainer.errors import TableError
from trainer.rules import FIVE_CARD, FOUR_HAND, SIX_CARD, THREE_HAND, RuleSet
from trainer.table import Role
from vision.answer import group_reading
from vision.grouping import (
    NO_STARTER,
    Layout,
    group_cards,
    mark_crib,
    table_rules,
    whole_table_instead,
)
from vision.reader import DetectedCard, Reading

CODES = [f"{r}{s}" for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]


def card(code: str, x: float, y: float, uncertain: bool = False) -> DetectedCard:
    """A card whose corner index (20 x 30 px) is centred at (x, y)."""
    return DetectedCard(
        code, 0.4 if uncertain else 0.97, (x - 10, y - 15, x + 10, y + 15), uncertain
    )


def fan(x: float, y: float, n: int, step: float = 25) -> list[tuple[float, float]]:
    """Index positions of a hand of ``n`` fanned (or overlapped) cards from (x, y)."""
    return [(x + step * k, y + 4 * k) for k in range(n)]


def table(spots: list[list[tuple[float, float]]]) -> tuple[list[DetectedCard], list[list[str]]]:
    """Cards at ``spots`` (one list per group), named in order; and each group's codes."""
    codes = iter(CODES)
    groups = [[next(codes) for _ in spot] for spot in spots]
    cards = [
        card(c, x, y)
        for g, spot in zip(groups, spots, strict=True)
        for c, (x, y) in zip(g, spot, strict=True)
    ]
    return cards, groups


def found(layout: Layout, cards: list[DetectedCard]) -> list[tuple[str, list[str]]]:
    """Each group's role and codes, sorted for comparison."""
    return sorted(
        (g.role.value if g.role else "?", sorted(cards[i].card for i in g.cards))
        for g in layout.groups
    )


def expected(roles: list[str], groups: list[list[str]]) -> list[tuple[str, list[str]]]:
    return sorted((r, sorted(g)) for r, g in zip(roles, groups, strict=True))


@pytest.mark.parametrize(
    "rules, spots, roles",
    [
        (
            SIX_CARD,
            [fan(100, 100, 4), fan(100, 700, 4), fan(450, 420, 4), [(400, 400)]],
            ["hand", "hand", "crib", "starter"],
        ),
        (
            FIVE_CARD,
            [fan(100, 100, 3), fan(100, 700, 3), fan(600, 600, 4), [(400, 400)]],
            ["hand", "hand", "crib", "starter"],
        ),
        (
            THREE_HAND,
            [fan(100, 100, 4), fan(100, 700, 4), fan(700, 100, 4), fan(450, 420, 4), [(400, 400)]],
            ["hand", "hand", "hand", "crib", "starter"],
        ),
        (
            FOUR_HAND,
            [
                fan(100, 100, 4),
                fan(100, 700, 4),
                fan(700, 100, 4),
                fan(700, 700, 4),
                fan(450, 420, 4),
                [(400, 400)],
            ],
            ["hand", "hand", "hand", "hand", "crib", "starter"],
        ),
    ],
    ids=lambda v: v.name if isinstance(v, RuleSet) else "",
)
def test_a_whole_table_is_grouped(
    rules: RuleSet, spots: list[list[tuple[float, float]]], roles: list[str]
) -> None:
    """Hands apart, the crib beside the starter: every group and role is found, no question."""
    cards, groups = table(spots)
    assert table_rules(len(cards)) is rules
    layout = group_cards(cards, rules)
    assert layout.question is None
    assert found(layout, cards) == expected(roles, groups)
    assert [g.role for g in layout.groups][-1] is Role.STARTER


def test_a_group_a_card_away_from_the_starter_is_not_taken_for_the_crib() -> None:
    """Players lay the crib beside the dealer and the deck beside anyone: the group nearest the
    starter, a card's width from it, may be a hand, so the crib is asked (every group's role
    open) rather than guessed; against the starter, it is the crib."""
    spots = [fan(100, 100, 4), fan(100, 700, 4), fan(500, 420, 4), [(400, 400)]]
    cards, _ = table(spots)
    layout = group_cards(cards, SIX_CARD)
    assert layout.question is not None and layout.question.kind == "crib"
    assert [g.role for g in layout.groups] == [None, None, None, Role.STARTER]
    against, groups = table([*spots[:2], fan(450, 420, 4), spots[3]])
    found_crib = group_cards(against, SIX_CARD)
    assert found_crib.question is None
    assert found(found_crib, against) == expected(["hand", "hand", "crib", "starter"], groups)


def laid(x: float, y: float, n: int, gap: float) -> list[tuple[float, float, float, float]]:
    """Centres (x, y) of ``n`` separate cards in a row from (x, y), ``gap`` px between their
    edges, each card 100 x 150 px read at both corners; with the width and height."""
    return [(x + (100 + gap) * k, y, 100.0, 150.0) for k in range(n)]


def whole(code: str, x: float, y: float, width: float, height: float) -> DetectedCard:
    """A card lying whole at (x, y), read at its top-left and bottom-right indices (20 x 30)."""
    dx, dy = 0.4 * width, 0.35 * height  # from the centre to an index's middle
    corners = (
        (x - dx - 10, y - dy - 15, x - dx + 10, y - dy + 15),
        (x + dx - 10, y + dy - 15, x + dx + 10, y + dy + 15),
    )
    return DetectedCard(code, 0.97, corners[0], corners=corners)


def whole_table(
    rows: list[list[tuple[float, float, float, float]]],
) -> tuple[list[DetectedCard], list[list[str]]]:
    """Cards lying whole at ``rows`` (one list of (x, y, width, height) per group, as
    :func:`laid` gives), named in order; and each group's codes."""
    codes = iter(CODES)
    groups = [[next(codes) for _ in row] for row in rows]
    cards = [
        whole(code, *at)
        for codes_of, row in zip(groups, rows, strict=True)
        for code, at in zip(codes_of, row, strict=True)
    ]
    return cards, groups


def test_hands_of_separate_cards_in_a_row_are_split_by_their_gaps() -> None:
    """The layout players use: each hand as separate cards in a row with gaps up to half a
    card, the hands a card's width or more apart, the crib in the next row and the starter a
    card beyond it. The gaps between the cards' edges split them: two hands, the crib (asked,
    then named) and the starter, where all 13 made one group ("do not make hands of 4")."""
    rows = [
        laid(100, 200, 4, 45),  # a hand, gaps under half a card
        laid(735, 200, 4, 30),  # the other, a card's width beyond
        laid(100, 430, 4, 30),  # the crib, in the next row
        [(690, 430, 100.0, 150.0)],  # the starter, a card's width beyond it
    ]
    cards, groups = whole_table(rows)
    layout = group_cards(cards, table_rules(len(cards)))
    assert layout.question is not None and layout.question.kind == "crib"
    assert found(layout, cards) == expected(["?", "?", "?", "starter"], groups)
    named = mark_crib(layout, cards, groups[2][0])
    assert named.question is None
    assert found(named, cards) == expected(["hand", "hand", "crib", "starter"], groups)


def test_hands_in_rows_one_above_another_are_split_though_the_rows_are_close() -> None:
    """Players lay a hand's cards side by side, so a card above or below is another hand's:
    two hands in rows 40 px apart, closer than their own cards' 45 px gaps, are still two
    groups (the gap between cards end to end counts more), where they made one ("do not make
    hands of 4")."""
    rows = [
        laid(100, 200, 4, 45),  # a hand
        laid(100, 390, 4, 45),  # the other, in the row below, 40 px under it
        laid(735, 200, 4, 30),  # the crib, a card's width beyond the first
        [(735, 450, 100.0, 150.0)],  # the starter, well below the crib
    ]
    cards, groups = whole_table(rows)
    layout = mark_crib(group_cards(cards, SIX_CARD), cards, groups[2][0])
    assert layout.question is None
    assert found(layout, cards) == expected(["hand", "hand", "crib", "starter"], groups)


def test_a_hand_missing_a_card_is_named_in_the_question() -> None:
    """Twelve cards of a 2-player table laid in their groups, one hand's fourth card not read:
    the question names that hand as a card short (its group index among the choices), rather
    than only asking to sort the cards; a card fewer still is only asked to be sorted."""
    rows = [laid(100, 200, 3, 30), laid(735, 200, 4, 30), laid(100, 430, 4, 30)]
    rows.append([(690, 430, 100.0, 150.0)])
    cards, groups = whole_table(rows)
    layout = group_cards(cards, SIX_CARD)
    question = layout.question
    assert question is not None and question.kind == "groups"
    assert found(layout, cards) == expected(["?"] * 4, groups)
    (short,) = question.choices
    assert sorted(cards[i].card for i in layout.groups[short].cards) == sorted(groups[0])
    assert f"missing from the group of 3 ({' '.join(groups[0])})" in question.text
    fewer = group_cards(cards[1:], SIX_CARD).question
    assert fewer is not None and fewer.kind == "groups" and fewer.choices == ()


def test_a_card_read_at_one_corner_lies_where_its_body_does() -> None:
    """In hands of separate cards, a card read at one corner lies somewhere around that
    corner, too far from its neighbours to join their hand; alone on its stretch of face
    (:mod:`vision.bodies`), its outline is that face's rectangle, and it takes its place."""
    rows = [laid(100, 200, 4, 45), laid(735, 200, 4, 30), laid(100, 430, 4, 30)]
    rows.append([(690, 430, 100.0, 150.0)])
    cards, groups = whole_table(rows)
    x, y, width, height = rows[1][2]  # the other hand's third card, read at its top left only
    dx, dy = 0.4 * width, 0.35 * height  # from the centre to an index's middle, as whole()
    index = (x - dx - 10, y - dy - 15, x - dx + 10, y - dy + 15)
    at_one_corner = DetectedCard(groups[1][2], 0.97, index, corners=(index,))
    cards[[c.card for c in cards].index(groups[1][2])] = at_one_corner
    three_groups = expected(["?", "?", "?", "starter"], groups)
    assert group_cards(cards, SIX_CARD).question.kind == "groups"  # type: ignore[union-attr]
    k = cards.index(at_one_corner)
    cards[k] = dataclasses.replace(at_one_corner, outline=((x, y), (width, height), 0.0))
    layout = group_cards(cards, SIX_CARD)
    assert layout.question is not None and layout.question.kind == "crib"
    assert found(layout, cards) == three_groups


def test_crib_equally_near_the_starter_is_asked() -> None:
    """Two groups as near the starter: the question names them, their roles stay open."""
    cards, _ = table([fan(100, 100, 4), fan(100, 700, 4), fan(900, 400, 4), [(230, 400)]])
    layout = group_cards(cards, SIX_CARD)
    assert layout.question is not None and layout.question.kind == "crib"
    assert layout.question.text == "Which group is the crib?"
    assert [layout.groups[i].role for i in layout.question.choices] == [None] * 3
    assert layout.groups[-1].role is Role.STARTER


def test_a_hand_laid_flat_alone_asks_for_the_starter() -> None:
    """Four cards side by side, nothing set apart: the hand alone, and the starter is asked."""
    cards, groups = table([[(100 + 90 * k, 100) for k in range(4)]])
    layout = group_cards(cards)
    assert found(layout, cards) == expected(["hand"], groups)
    assert layout.question is not None and layout.question.kind == "starter"
    assert "set apart" not in layout.question.text


def test_five_in_a_row_asks_which_is_the_starter() -> None:
    """Five cards evenly in a row: which is the starter? (every card a choice)."""
    cards, _ = table([[(100 + 90 * k, 100) for k in range(5)]])
    layout = group_cards(cards)
    assert layout.question is not None and layout.question.kind == "starter"
    assert layout.question.choices == (0, 1, 2, 3, 4)
    guessed = group_cards(cards, set_apart=4)  # the reader's own guess settles it
    assert guessed.question is None and guessed.groups[-1].cards == (4,)


def test_hand_and_starter_set_apart() -> None:
    """The single-hand photo: four fanned and one apart."""
    cards, groups = table([fan(100, 100, 4), [(400, 300)]])
    layout = group_cards(cards)
    assert layout.question is None and found(layout, cards) == expected(["hand", "starter"], groups)
    as_crib = group_cards(cards, crib=True)
    assert found(as_crib, cards) == expected(["crib", "starter"], groups)


def test_typed_starter() -> None:
    """A starter named by the player: taken from the cards read, else typed."""
    cards, _ = table([fan(100, 100, 4)])
    layout = group_cards(cards, starter="5h")
    assert layout.question is None
    assert layout.groups[-1].role is Role.STARTER and layout.groups[-1].typed == "5H"
    row, codes = table([[(100 + 90 * k, 100) for k in range(5)]])
    in_photo = group_cards(row, starter=codes[0][1])
    assert in_photo.groups[-1].cards == (1,) and [g.role for g in in_photo.groups] == [
        Role.HAND,
        Role.STARTER,
    ]


def test_an_uncertain_spurious_card_is_left_out() -> None:
    """A 14th reading, uncertain (brand print, say): the table is grouped without it."""
    cards, groups = table([fan(100, 100, 4), fan(100, 700, 4), fan(450, 420, 4), [(400, 400)]])
    cards.append(card("AC", 900, 900, uncertain=True))
    layout = group_cards(cards, table_rules(len(cards) - 1))
    assert layout.left_out == (13,)
    assert found(layout, cards) == expected(["hand", "hand", "crib", "starter"], groups)


def test_cards_that_make_no_table_ask_to_sort_them() -> None:
    """Seven cards in two clumps: the clumps, no roles, and a question in players' words."""
    cards, _ = table([fan(100, 100, 4), fan(700, 700, 3)])
    layout = group_cards(cards)
    assert layout.question is not None and layout.question.kind == "groups"
    assert "Read 7 cards" in layout.question.text and "'" not in layout.question.text
    assert sorted(len(g.cards) for g in layout.groups) == [3, 4]


def test_table_rules() -> None:
    """Rules by name, by players or by count; players that make no table are refused."""
    assert table_rules(5, players=3) is THREE_HAND and table_rules(11, players=2) is FIVE_CARD
    assert table_rules(13, rules=FIVE_CARD) is FIVE_CARD
    with pytest.raises(TableError, match="2, 3 or 4 players, not 5"):
        table_rules(13, players=5)
    with pytest.raises(TableError, match="is for 2 players, not 3"):
        table_rules(13, players=3, rules=SIX_CARD)


def test_unsure_readings_complete_the_table_the_count_falls_short_of() -> None:
    """Cards read unsure are mostly cards: 15 sure and 3 unsure make a three-hand table, 19
    and 2 a four-hand one; a count that is a whole table already is kept (13 sure and 4 unsure
    strays stay six-card), and the most the unsure readings could complete is taken."""
    assert table_rules(15, unsure=3) is THREE_HAND and table_rules(15) is SIX_CARD
    assert table_rules(19, unsure=2) is FOUR_HAND
    assert table_rules(13, unsure=4) is SIX_CARD
    assert table_rules(8, unsure=5) is SIX_CARD  # 13 cards, not the five-card table's 11
    assert table_rules(15, unsure=3, players=2) is SIX_CARD  # the players named decide


def test_cards_read_unsure_take_their_places_and_a_stray_is_left_out() -> None:
    """Two cards of a table read unsure and an unsure stray beside the table, likelier than
    either: the table is grouped with the two (which stay unsure, to be checked) and the stray
    is left out, where before the cards were not sorted at all."""
    cards, groups = table([fan(100, 100, 4), fan(100, 700, 4), fan(450, 420, 4), [(400, 400)]])
    for i in (1, 9):  # one in a hand, one in the crib
        cards[i] = dataclasses.replace(cards[i], uncertain=True)
    stray = DetectedCard("AC", 0.6, (1090, 85, 1110, 115), uncertain=True)
    layout = group_cards([*cards, stray], SIX_CARD)
    assert layout.question is None and layout.left_out == (13,)
    assert found(layout, cards) == expected(["hand", "hand", "crib", "starter"], groups)


def test_a_doubtful_stray_reading_is_left_out_but_not_a_sure_one() -> None:
    """A 14th reading taken as certain but doubtful (0.6) is left out to make the table; a
    sure one (0.97) is not dropped on a guess."""
    cards, groups = table([fan(100, 100, 4), fan(100, 700, 4), fan(450, 420, 4), [(400, 400)]])
    stray = DetectedCard("AC", 0.6, (890, 885, 910, 915))
    layout = group_cards([*cards, stray], SIX_CARD)
    assert layout.left_out == (13,) and layout.question is None
    assert found(layout, cards) == expected(["hand", "hand", "crib", "starter"], groups)
    sure = group_cards([*cards, card("AC", 900, 900)], SIX_CARD)
    assert sure.question is not None and sure.question.kind == "groups"


def test_a_hand_left_out_unread_asks_to_sort_the_cards() -> None:
    """Too few cards read sure to make the table, and too many unsure ones to try each way they
    could complete it: a hand and its starter laid out of the sure cards, with a hand's worth of
    readings left out, would score a table that is not there. The cards are to be sorted."""
    cards, _ = table([fan(100, 100, 4), [(700, 100)]])
    doubtful = DetectedCard("KC", 0.6, (390, 385, 410, 415))  # read sure, but not 0.8 sure
    spots = fan(100, 500, 6)
    unsure = [card(c, x, y, uncertain=True) for c, (x, y) in zip(CODES[20:26], spots, strict=True)]
    layout = group_cards([*cards, doubtful, *unsure], SIX_CARD)
    assert layout.question is not None and layout.question.kind == "groups"
    assert layout.left_out == ()


def test_starter_beside_the_crib_is_found_or_asked_among_five() -> None:
    """The starter so close to the crib that no gap cuts them apart: the crib and starter make
    one group of five; the card set apart in it is the starter, else the question names
    those five cards only. Set apart 2.4 index sizes from the crib, the starter is found and
    the crib asked (a hand may lie as near the deck: AGAINST_STARTER)."""
    row = [(430 + 40 * k, 420) for k in range(4)]
    cards, groups = table([fan(100, 100, 4), fan(100, 700, 4), row, [(590, 445)]])
    layout = group_cards(cards, SIX_CARD)
    assert layout.question is not None and layout.question.kind == "starter"
    assert sorted(layout.question.choices) == [8, 9, 10, 11, 12]
    assert [g.role for g in layout.groups] == [Role.HAND, Role.HAND, Role.CRIB]
    apart, groups = table([fan(100, 100, 4), fan(100, 700, 4), row, [(560, 490)]])
    layout = group_cards(apart, SIX_CARD)
    assert layout.question is not None and layout.question.kind == "crib"
    assert [apart[i].card for i in layout.groups[-1].cards] == groups[3]  # the starter
    named = mark_crib(layout, apart, groups[2][0])
    assert named.question is None
    assert found(named, apart) == expected(["hand", "hand", "crib", "starter"], groups)


def test_starter_in_line_with_the_crib_is_asked_not_guessed() -> None:
    """A card at the end of the crib's row, a little farther than the row's spacing: it may be
    the starter or the crib's last card, so the question names the five cards."""
    row = [(430 + 60 * k, 420) for k in range(4)]
    cards, _ = table([fan(100, 100, 4), fan(100, 700, 4), row, [(430 + 60 * 3 + 85, 420)]])
    layout = group_cards(cards, SIX_CARD)
    assert layout.question is not None and layout.question.kind == "starter"
    assert sorted(layout.question.choices) == [8, 9, 10, 11, 12]


def test_a_card_lies_between_its_two_corners() -> None:
    """The reader keeps every corner it merged into one card; the card's position is their
    middle (its centre), so a card read at its far corner still sits with its group."""
    from vision.reader import _merge_corners

    top_left, bottom_right = (100.0, 100.0, 120.0, 130.0), (200.0, 250.0, 220.0, 280.0)
    merged = _merge_corners(
        [("5H", 0.9, 0.9, top_left), ("5H", 0.99, 0.9, bottom_right), ("6H", 0.9, 0.9, top_left)]
    )
    assert [(card, corners) for card, _, _, corners in merged] == [
        ("5H", [bottom_right, top_left]),
        ("6H", [top_left]),
    ]
    card = DetectedCard("5H", 0.99, bottom_right, corners=(bottom_right, top_left))
    assert card.position == (160.0, 190.0) and card.center == (210.0, 265.0)
    assert DetectedCard("6H", 0.9, top_left).position == (110.0, 115.0)


def test_the_faces_set_apart_a_starter_the_indices_do_not() -> None:
    """The same starter in line with the crib, but the crib's cards overlap (one body on the
    photo) and the starter lies on a face of its own: it is the starter, without a question.
    Touching the crib, it is asked again."""
    row = [(430 + 40 * k, 420) for k in range(4)]
    cards, groups = table([fan(100, 100, 4), fan(100, 700, 4), row, [(430 + 40 * 3 + 60, 420)]])
    assert group_cards(cards, SIX_CARD).question is not None  # the indices alone: asked
    bodies = [0] * 4 + [1] * 4 + [2] * 4 + [3]
    faced = [dataclasses.replace(c, body=b) for c, b in zip(cards, bodies, strict=True)]
    layout = group_cards(faced, SIX_CARD)
    assert layout.question is None
    assert found(layout, faced) == expected(["hand", "hand", "crib", "starter"], groups)
    touching = [dataclasses.replace(c, body=2) if c.body == 3 else c for c in faced]
    asked = group_cards(touching, SIX_CARD).question
    assert asked is not None and asked.kind == "starter"


def test_the_player_marks_the_crib() -> None:
    """``mark_crib`` settles "which group is the crib?" by a card of it, and overrides a crib
    found; a group of the wrong size or the starter is refused."""
    cards, groups = table([fan(100, 100, 4), fan(100, 700, 4), fan(900, 400, 4), [(230, 400)]])
    asked = group_cards(cards, SIX_CARD)
    answered = mark_crib(asked, cards, groups[2][1].lower())
    assert answered.question is None
    assert found(answered, cards) == expected(["hand", "hand", "crib", "starter"], groups)
    again = mark_crib(answered, cards, groups[0][0])
    assert found(again, cards) == expected(["crib", "hand", "hand", "starter"], groups)
    assert [g.role for g in again.groups] == [Role.HAND, Role.HAND, Role.CRIB, Role.STARTER]
    with pytest.raises(TableError, match="was not read in a hand or the crib"):
        mark_crib(asked, cards, groups[3][0])
    five, fives = table([fan(100, 100, 3), fan(100, 700, 3), fan(900, 400, 4), [(830, 300)]])
    size = "AS has 3 cards; a crib has 4 in two-hand five-card cribbage"
    with pytest.raises(TableError, match=f"{size}$"):
        mark_crib(group_cards(five, FIVE_CARD), five, fives[0][0])


def test_naming_the_crib_of_a_table_without_its_starter_asks_for_the_starter() -> None:
    """The starter was not read: once the crib is named, the starter is asked for (the hands
    cannot be counted without it), not left out of the answer without a word."""
    cards, groups = table([fan(100, 100, 4), fan(100, 700, 4), fan(900, 400, 4)])
    asked = group_cards(cards, SIX_CARD)
    assert asked.question is not None and asked.question.kind == "crib"
    answered = mark_crib(asked, cards, groups[2][0])
    assert found(answered, cards) == expected(["hand", "hand", "crib"], groups)
    assert answered.question == NO_STARTER


def test_naming_the_crib_of_unsorted_cards_asks_for_the_groups() -> None:
    """Cards the reader could not sort: naming the crib keeps the question that asks the
    player to sort them (saying where the crib goes), never an error."""
    cards, groups = table([fan(100, 100, 4), fan(100, 700, 4), fan(900, 400, 4), [(230, 400)]])
    stray = [*cards, card("KC", 2000, 2000)]
    unsorted = group_cards(stray, SIX_CARD)
    marked = mark_crib(unsorted, stray, groups[2][0].lower())
    assert marked.question is not None and marked.question.kind == "groups"
    assert marked.question.text.startswith("Read 14 cards: they do not make hands of 4")
    assert marked.question.text.endswith(f"The crib is the group with {groups[2][0]}.")
    assert marked.groups == unsorted.groups


def test_a_rows_last_card_read_at_both_corners_is_not_taken_for_the_starter() -> None:
    """The crib's last card shows both corners, so its position (its centre) lies half a card
    beyond the row, farther than the starter in line at the row's other end: it is not set
    apart as the starter (it was, unasked); the question names the five cards."""
    row = [(430 + 60 * k, 420) for k in range(4)]
    cards, _ = table([fan(100, 100, 4), fan(100, 700, 4), row, [(430 + 60 * 3 + 60, 420)]])
    last = cards[8]
    far = (last.box[0] - 110, last.box[1] + 60, last.box[2] - 110, last.box[3] + 60)
    cards[8] = dataclasses.replace(last, box=far, corners=(far, last.box))
    layout = group_cards(cards, SIX_CARD)
    assert layout.question is not None and layout.question.kind == "starter"
    assert sorted(layout.question.choices) == [8, 9, 10, 11, 12]


def test_a_doubtful_reading_beside_the_starter_asks_which_is_the_starter() -> None:
    """A reading left out (doubtful) within a card's reach of the starter may be a corner of a
    crib card or of the starter itself: the starter is asked among the crib and it; far from
    it, the starter stands."""
    cards, groups = table([fan(100, 100, 4), fan(100, 700, 4), fan(400, 440, 4), [(350, 440)]])
    beside = group_cards([*cards, card("KC", 330, 520, uncertain=True)], SIX_CARD)
    assert beside.left_out == (13,)
    assert beside.question is not None and beside.question.kind == "starter"
    assert sorted(beside.question.choices) == [8, 9, 10, 11, 12]
    far = group_cards([*cards, card("KC", 900, 900, uncertain=True)], SIX_CARD)
    assert far.question is None and far.left_out == (13,)
    assert found(far, cards) == expected(["hand", "hand", "crib", "starter"], groups)


def test_a_whole_table_of_other_rules_than_the_count_guessed_is_taken_as_that_table() -> None:
    """A three-hand table, a doubtful stray taken for a card and three unsure strays: 18 sure
    cards make no table and the unsure could complete a four-hand one, whose 17 cards would
    lie as four hands and a starter with no crib, unasked. The 17 are a whole three-hand table:
    grouped as one, crib and all; with four-hand named, they stay four hands (asked nothing)."""
    cards, groups = table(
        [fan(100, 100, 4), fan(100, 700, 4), fan(700, 100, 4), fan(450, 420, 4), [(400, 400)]]
    )
    strays = [
        DetectedCard("AC", 0.6, (1490, 85, 1510, 115)),
        *(
            card(code, x, y, uncertain=True)
            for code, x, y in (("2C", 1500, 900), ("3C", 900, 1300), ("4C", 1500, 1500))
        ),
    ]
    reading = Reading([*cards, *strays])
    assert table_rules(18, unsure=3) is FOUR_HAND
    layout = group_reading(reading)
    assert layout.rules is THREE_HAND and layout.question is None
    roles = ["hand", "hand", "hand", "crib", "starter"]
    assert found(layout, reading.cards) == expected(roles, groups)
    named = group_reading(reading, rules=FOUR_HAND)
    assert [g.role for g in named.groups].count(Role.HAND) == 4


def test_a_six_card_table_two_cards_read_unsure_is_not_taken_for_a_five_card_one() -> None:
    """11 sure cards are a whole five-card table, but with 2 unsure readings they are likelier
    a six-card table's 13: hands of four, each holding its unsure card, not five-card hands of
    three laid out of the sure cards, the two left out, unasked (show-mode series 9)."""
    assert table_rules(11) is FIVE_CARD and table_rules(11, unsure=2) is SIX_CARD
    cards, groups = table([fan(100, 100, 4), fan(100, 700, 4), fan(450, 420, 4), [(400, 400)]])
    for i in (3, 7):  # the last card of each hand
        cards[i] = dataclasses.replace(cards[i], uncertain=True)
    layout = group_reading(Reading(cards))
    assert layout.rules is SIX_CARD and not layout.left_out
    assert layout.question is not None or found(layout, cards) == expected(
        ["hand", "hand", "crib", "starter"], groups
    )
    assert all(len(g.cards) == 4 for g in layout.groups if g.role is Role.HAND)


def test_five_card_hands_of_three_with_a_reading_left_over_become_a_six_card_question() -> None:
    """A six-card table with a card missed and one read unsure: 10 sure readings and 2 unsure
    count as a five-card table (11), whose hands of three lay out with the unsure reading of one
    hand left over, unasked (show-mode series 18). Six-card rules instead, which ask."""
    cards, _ = table([fan(100, 100, 4), fan(100, 700, 3), fan(450, 420, 4), [(400, 400)]])
    cards[3] = dataclasses.replace(cards[3], uncertain=True)
    cards.append(card("KC", 1500, 1500, uncertain=True))  # a stray beside the table
    assert table_rules(10, unsure=2) is FIVE_CARD
    five = group_cards(cards, FIVE_CARD)
    assert five.left_out and five.question is None  # the wrong layout, unasked
    assert whole_table_instead(five, len(cards)) is SIX_CARD
    layout = group_reading(Reading(cards))
    assert layout.rules is SIX_CARD and layout.question is not None
