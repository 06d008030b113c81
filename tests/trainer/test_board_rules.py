"""The board by the rule books (``../shared/seeds``): what a table would notice first.

Each test is a case the rules audit found the board getting wrong: the five-card play, a
deal's shows, claims and muggins, his heels, the go, undo, turns, the lurch, misdeals.
"""

from __future__ import annotations

from typing import Any

import pytest

from trainer.board import apply, new_game, view
from trainer.game import CRIB, Game, GameError, Phase
from trainer.items import PLAY_RULE_TEXT, RULE_TEXT, Kind


def moved(game: Game, *moves: dict[str, Any]) -> Game:
    for move in moves:
        game = apply(game, move)
    return game


def card(seat: int, name: str) -> dict[str, Any]:
    return {"move": "card", "seat": seat, "card": name}


def show(hand: int | str, cards: str, **more: Any) -> dict[str, Any]:
    return {"move": "show", "hand": hand, "cards": cards, **more}


def two(**more: Any) -> Game:
    """Ann (seat 0) and Bob; Bob deals, so Ann leads the play and shows first."""
    return new_game({"names": ["Ann", "Bob"], "first_dealer": 1, **more})


# --- the five-card play is one count -----------------------------------------------------


def test_the_five_card_board_play_ends_at_the_first_go() -> None:
    """001: after Q, Q, J and "Go", "each player's hand is then counted up"."""
    game = new_game({"names": ["Ann", "Bob"], "rules": "five-card", "first_dealer": 0})
    game = moved(game, card(1, "QH"), card(0, "QC"), card(1, "JD"), {"move": "go"})
    seen = view(game)
    assert seen["play"]["cards_left"] == 0 and seen["one_count"]
    assert game.scores == (2, 3 + 1)  # Bob's three for last and the go; Ann's pair
    with pytest.raises(GameError, match="the five-card play is one count"):
        apply(game, card(0, "7S"))
    assert moved(game, show(1, "QH JD 7H | 2C")).shown == 1  # the show is next


def test_the_five_card_play_ends_at_31_and_its_six_cards_peg_one_last() -> None:
    game = new_game({"names": ["Ann", "Bob"], "rules": "five-card", "first_dealer": 0})
    game = moved(game, card(1, "KH"), card(0, "QC"), card(1, "AS"), card(0, "KS"))
    assert game.log[-1].reason == "K♠ (count 31): thirty-one for two" and game.play_over
    game = new_game({"names": ["Ann", "Bob"], "rules": "five-card", "first_dealer": 0})
    cards = ["AH", "2H", "3H", "4H", "5H", "6H"]
    game = moved(game, *(card(s, c) for s, c in zip([1, 0] * 3, cards, strict=True)))
    assert game.log[-1].reason.endswith("a run of six, one for last")


# --- a deal's shows are one deal's cards -----------------------------------------------------


def played_eight() -> Game:
    """Ann: 2C 4D 6S 8H; Bob: 3C 5D 7S 9H, played alternately (count 44 never: a go at 27)."""
    game = two()
    for seat, name in [(0, "2C"), (1, "3C"), (0, "4D"), (1, "5D"), (0, "6S"), (1, "7S")]:
        game = apply(game, card(seat, name))
    game = apply(game, {"move": "go"})  # 27: the 8 and the 9 would pass 31
    return moved(game, card(0, "8H"), card(1, "9H"))


def test_a_hand_must_hold_the_cards_its_seat_played() -> None:
    game = played_eight()
    with pytest.raises(GameError, match="Ann played 2♣ in deal 1: it is in Ann's hand"):
        apply(game, show(0, "2H 3H 4H 5H | 6H"))
    with pytest.raises(GameError, match="3♣ was played by Bob in deal 1"):
        apply(game, show(0, "2C 4D 6S 3C | KH"))
    game = apply(game, show(0, "2C 4D 6S 8H | KH"))
    with pytest.raises(GameError, match="deal 1's starter is K♥, not J♠"):
        apply(game, show(1, "3C 5D 7S 9H | JS"))
    game = apply(game, show(1, "3C 5D 7S 9H | KH"))
    with pytest.raises(GameError, match="2♣ is Ann's hand in deal 1"):
        apply(game, show(CRIB, "2C AH AS QD | KH"))
    with pytest.raises(GameError, match="3♣ is Bob's hand in deal 1"):
        apply(game, show(CRIB, "3C AH AS QD | KH"))
    assert apply(game, show(CRIB, "AH AS QD JD | KH")).next_to_show is None


def test_the_issues_shows_are_refused_naming_the_card() -> None:
    """The audit's three shows: not the cards played, the same 2♥ twice, three starters."""
    game = played_eight()
    with pytest.raises(GameError, match="2♣"):
        apply(game, show(0, "2H 3H 4H 5H | 6H"))
    game = two()
    game = apply(game, show(0, "2H 3H 4H 5H | 6H"))
    with pytest.raises(GameError, match="not J♠"):
        apply(game, show(1, "2H 7C 8C 9C | JS"))
    with pytest.raises(GameError, match="2♥ is Ann's hand"):
        apply(game, show(1, "2H 7C 8C 9C | 6H"))
    game = apply(game, show(1, "AH 7C 8C 9C | 6H"))
    with pytest.raises(GameError, match="not 5♦"):
        apply(game, show(CRIB, "3S 4S 5S KS | 5D"))


def test_his_heels_makes_the_starter_a_jack() -> None:
    game = apply(two(), {"move": "peg", "seat": 1, "points": 2, "reason": "his heels"})
    with pytest.raises(GameError, match="the starter is a jack, not 5♠"):
        apply(game, show(0, "2H 3H 4H 5H | 5S"))
    assert apply(game, show(0, "2H 3H 4H 5H | JS")).shown == 1


def test_a_stored_deal_keeps_its_cards_and_replays_them() -> None:
    game = apply(played_eight(), show(0, "2C 4D 6S 8H | KH"))
    again = Game.from_json(game.to_json())
    assert again == game
    with pytest.raises(GameError, match="not J♠"):
        apply(again, show(1, "3C 5D 7S 9H | JS"))


# --- claims and muggins -----------------------------------------------------------------------


def test_without_muggins_a_short_claim_pegs_what_was_claimed() -> None:
    game = apply(two(muggins=False), show(0, "5H 5D 5C JS | 5S", claimed=20))
    assert game.scores == (20, 0) and "the cards count 29" in game.log[-1].reason


def test_with_muggins_the_opponent_takes_what_was_overlooked() -> None:
    game = apply(two(), show(0, "5H 5D 5C JS | 5S", claimed=20))
    assert game.scores == (20, 9)
    assert [r.phase for r in game.log] == [Phase.SHOW, Phase.MUGGINS]


def test_undo_takes_back_a_show_with_its_muggins() -> None:
    game = apply(two(), show(0, "5H 5D 5C JS | 5S", claimed=20))
    back = apply(game, {"move": "undo"})
    assert back.log == () and back.scores == (0, 0)
    assert apply(game, {"move": "undo", "index": 1}).log == ()  # the muggins names its show


def test_the_new_game_defaults_to_muggins_as_the_rule_books() -> None:
    assert two().setup.muggins and not two(muggins=False).setup.muggins


# --- the go, 31 and the last card, entered either way -------------------------------------------


def test_the_go_button_ends_the_count_once() -> None:
    """After 10♥ 10♦ 9♣ the go is one point: 2-1, and the next lead is taken."""
    game = moved(two(), card(0, "10H"), card(1, "10D"), card(0, "9C"))
    game = apply(game, {"move": "peg", "seat": 0, "points": 1, "reason": "go"})
    assert game.scores == (1, 2) and game.count == 0
    with pytest.raises(GameError, match="a go needs a card played since the count started"):
        apply(game, {"move": "go"})
    assert apply(game, card(1, "5S")).count == 5
    with pytest.raises(GameError, match="the go is one point, to Ann"):
        moved(
            two(),
            card(0, "10H"),
            card(1, "KD"),
            card(0, "9C"),
            {"move": "peg", "seat": 1, "points": 1, "reason": "go"},
        )


def test_the_last_card_is_not_pegged_twice() -> None:
    game = played_eight()
    assert game.log[-1].reason.endswith("one for last")
    with pytest.raises(GameError, match="last card is pegged with the card that makes it"):
        apply(game, {"move": "peg", "seat": 1, "points": 1, "reason": "last card"})


# --- his heels ------------------------------------------------------------------------------


def test_his_heels_may_follow_the_pones_first_card() -> None:
    """000: "These points must be scored before dealer plays a card"."""
    game = apply(two(), card(0, "5H"))
    assert apply(game, {"move": "peg", "seat": 1, "points": 2, "reason": "his heels"}).scores == (
        0,
        2,
    )
    with pytest.raises(GameError, match="before dealer plays a card"):
        moved(game, card(1, "5D"), {"move": "peg", "seat": 1, "points": 2, "reason": "his heels"})


# --- turns ---------------------------------------------------------------------------------


def test_a_card_or_go_the_count_rules_out_is_refused() -> None:
    with pytest.raises(GameError, match="the pone leads the play: Ann plays first"):
        apply(two(), card(1, "5H"))
    with pytest.raises(GameError, match="it is Bob's turn"):
        moved(two(), card(0, "5H"), card(0, "6H"))  # count 5: Bob must hold a card that fits
    with pytest.raises(GameError, match="no go on a count of 5"):
        moved(two(), card(0, "5H"), {"move": "go"})
    # at 25 Bob may hold only cards over six: Ann plays on
    game = moved(two(), card(0, "KH"), card(1, "QH"), card(0, "5H"), card(0, "AH"))
    assert game.count == 26
    with pytest.raises(GameError, match="Bob could not play on this count"):
        apply(game, card(1, "2C"))


def test_a_player_with_his_cards_down_is_passed_over() -> None:
    game = moved(two(), card(0, "AH"), card(1, "AD"), card(0, "AC"), card(1, "AS"))
    game = moved(game, card(0, "2H"), card(1, "2D"), card(0, "2C"), card(1, "2S"))
    assert view(game)["play"]["cards_left"] == 0


# --- the lurch, three-hand ---------------------------------------------------------------------


def test_a_three_hand_result_names_the_player_lurched() -> None:
    game = new_game({"names": ["Ann", "Bob", "Cy"]})
    for seat, score in ((1, 95), (2, 50), (0, 121)):
        while game.scores[seat] < score:
            points = min(29, score - game.scores[seat])
            game = apply(game, {"move": "peg", "seat": seat, "points": points})
    result = view(game)["result"]
    assert result["text"] == "Ann won, 121 to 95 and 50: Cy lurched, two games (a double skunk)"
    assert (result["lurch"], result["lurched"], result["games_lost"]) == (True, [2], [1, 2])


def test_the_double_skunk_is_counted_as_the_game_was_set_up() -> None:
    game = new_game({"names": ["Ann", "Bob"], "double_skunk_games": 4})
    for _ in range(5):
        game = apply(game, {"move": "peg", "seat": 0, "points": 25})
    result = view(game)["result"]
    assert result["games_won"] == 4 and result["text"].endswith("four games (a double skunk)")


# --- misdeals --------------------------------------------------------------------------------


def test_a_misdeal_is_dealt_again_by_the_same_dealer_and_the_pegs_stand() -> None:
    """000: "a new deal by same dealer, but previous scores ... are not affected"."""
    game = moved(two(), card(0, "5H"), card(1, "10D"))
    again = apply(game, {"move": "deal", "misdeal": True})
    assert (again.deal, again.dealer, again.scores, again.played) == (2, 1, (0, 2), ())
    assert Game.from_json(again.to_json()) == again


def test_a_deal_out_of_turn_stands() -> None:
    """000: "After pone has taken up his cards, deal out of turn must stand"."""
    game = apply(two(), {"move": "deal", "dealer": 0})
    assert (game.deal, game.dealer, game.pone) == (2, 0, 1)
    assert Game.from_json(game.to_json()) == game
    with pytest.raises(GameError, match="deal 1 is under way"):
        moved(two(), card(0, "5H"), {"move": "deal", "dealer": 0})


# --- what the page may send --------------------------------------------------------------------


@pytest.mark.parametrize("name", ["\ud800", "Ann\x00", "Bob\x1b[2J"])
def test_a_name_a_page_cannot_show_is_refused(name: str) -> None:
    with pytest.raises(GameError, match="a name is letters a page can show"):
        new_game({"names": [name, "Bob"]})


# --- rule texts ----------------------------------------------------------------------------------


def test_the_rule_texts_say_what_the_rule_books_say() -> None:
    assert "same count" in PLAY_RULE_TEXT[Kind.PAIR] and "breaks" in PLAY_RULE_TEXT[Kind.PAIR]
    assert "neither" not in PLAY_RULE_TEXT[Kind.GO] and "no player" in PLAY_RULE_TEXT[Kind.GO]
    assert "longest run" in RULE_TEXT[Kind.RUN]


def test_a_jack_turned_and_not_pegged_is_named_at_the_show() -> None:
    """The drills and ``crib score`` remind of his heels; so does the board's first count."""
    game = apply(two(), show(0, "2H 3H 4H 5H | JS"))
    assert game.log[-1].reason.endswith(
        "a jack turned is his heels, 2 to Bob before he plays a card)"
    )
    game = apply(two(), {"move": "peg", "seat": 1, "points": 2, "reason": "his heels"})
    assert "his heels" not in apply(game, show(0, "2H 3H 4H 5H | JS")).log[-1].reason
