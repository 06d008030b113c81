"""The board as a page keeps it: set-ups and moves read from JSON, the board said back."""

from __future__ import annotations

from typing import Any

import pytest

from trainer import board
from trainer.board import MAX_MOVES, apply, new_game, view
from trainer.errors import CribbageError, UnknownRulesError
from trainer.game import CRIB, Game, GameError, Phase


def moved(game: Game, *moves: dict[str, Any]) -> Game:
    for move in moves:
        game = apply(game, move)
    return game


def peg(seat: int, points: int, reason: str = "") -> dict[str, Any]:
    return {"move": "peg", "seat": seat, "points": points, "reason": reason}


def pegs(seat: int, points: int) -> list[dict[str, Any]]:
    """Pegs for ``seat`` of ``points`` in all, at most a hand's 29 each."""
    return [peg(seat, min(29, points - done)) for done in range(0, points, 29)]


def show(hand: int | str, cards: str, **more: Any) -> dict[str, Any]:
    return {"move": "show", "hand": hand, "cards": cards, **more}


# --- set-up ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "rules", "length"),
    [(["Ann", "Bob"], "six-card", 121), (["A", "B", "C"], "three-hand", 121)],
)
def test_the_rules_come_from_the_number_of_players(
    names: list[str], rules: str, length: int
) -> None:
    game = new_game({"names": names})
    assert (game.setup.rules.name, game.setup.length) == (rules, length)
    assert game.setup.muggins  # the rule books': "his opponent is entitled to take it" (002)


def test_a_set_up_names_everything() -> None:
    game = new_game(
        {"names": ["Ann", "Bob"], "rules": "five-card", "first_dealer": 1, "muggins": True}
    )
    assert (game.setup.length, game.dealer, game.setup.muggins, game.scores) == (
        61,
        1,
        True,
        (3, 0),
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "give the players' names as a list"),
        ({"names": "Ann Bob"}, "give the players' names as a list"),
        ({"names": ["Ann", 7]}, "give the players' names as a list"),
        ({"names": ["Ann", "B" * 25]}, "a name has at most 24 characters, not 25"),
        ({"names": ["Ann", "Bob"], "rules": 2}, "the rules are named"),
        ({"names": ["Ann", "Bob"], "rules": "three-hand"}, "three-hand cribbage has 3 players"),
        ({"names": ["Ann", "Bob"], "length": 100}, "a game is 61 or 121 points, not 100"),
        ({"names": ["Ann", "Bob"], "muggins": "yes"}, "muggins is on or off"),
        ({"names": ["Ann", "Bob"], "first_dealer": 2}, "seats are 0 to 1, not 2"),
        ({"names": ["Ann", "Bob"], "rules": "seven-card"}, "unknown rule set"),
    ],
)
def test_a_bad_set_up_says_what_is_wrong(data: dict[str, Any], message: str) -> None:
    with pytest.raises((GameError, UnknownRulesError), match=message):
        new_game(data)


# --- moves ----------------------------------------------------------------------------------


def test_pegs_cards_and_goes() -> None:
    game = moved(
        new_game({"names": ["Ann", "Bob"]}),
        peg(0, 2, "his heels"),
        {"move": "card", "seat": 1, "card": "KH"},
        {"move": "card", "seat": 0, "card": "5S"},
        {"move": "card", "seat": 1, "card": "QD"},
        {"move": "go"},
    )
    with pytest.raises(GameError, match="there is no move '1': the log's moves are 0 to 4"):
        apply(game, {"move": "undo", "index": "1"})
    log = view(game)["log"]
    assert [(m["who"], m["points"], m["reason"]) for m in log] == [
        ("Ann", 2, "his heels"),
        ("Bob", 0, "K♥ (count 10)"),
        ("Ann", 2, "5♠ (count 15): fifteen two"),
        ("Bob", 0, "Q♦ (count 25)"),
        ("Bob", 1, "one for the go (count 25)"),
    ]
    assert game.scores == (4, 1)


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ({"move": "nap"}, "unknown move 'nap' \\(use one of: peg, card, go, show, deal, undo\\)"),
        ({}, "unknown move None"),
        (peg(0, 2, "x" * 61), "a reason has at most 60 characters"),
        (peg(0, 0), "a peg moves 1 to 29 holes, not 0"),
        (peg(0, 2**53), "a peg moves 1 to 29 holes, not 9007199254740992"),
        (peg("0", 2), "seats are 0 to 1, not '0'"),  # type: ignore[arg-type]
        ({"move": "card", "seat": 0, "card": 5}, "a card is written like 5H or 10D, not 5"),
        ({"move": "card", "seat": 0, "card": "ZZ"}, "unknown rank"),
        ({"move": "undo"}, "nothing to undo: the game is at its start"),
        ({"move": "deal"}, "deal 1 is not finished: Bob's hand is counted next"),
        (show(0, "5H 5D 5C JS | 5S"), "Ann's hand is not yet counted in deal 1: Bob's hand"),
        (show(1, "5H 5D 5C | 5S"), "a hand is 4 cards and a starter: got 3 cards"),
        (show(1, "5H 5D 5C 4S 4H 3C | 5S"), "a hand is 4 cards and a starter: got 6 cards"),
        (show(1, "5H 5D 5C JS", starter="5H"), "card given twice"),
        (show(1, "5 5 5 J", starter="5"), "give every card's suit: from the ranks alone the"),
        (show(1, 55), "give the cards as typed"),
        (show(1, "5H 5D 5C JS | 5S", source="camera"), "unknown source 'camera'"),
        (show(1, "5H 5D 5C JS | 5S", claimed=30), "a claimed count is 0 to 29, not 30"),
        (show("dealer", "5H 5D 5C JS | 5S"), "seats are 0 to 1, not 'dealer'"),
    ],
)
def test_a_bad_move_says_what_is_wrong(move: dict[str, Any], message: str) -> None:
    with pytest.raises(CribbageError, match=message):
        apply(new_game({"names": ["Ann", "Bob"]}), move)


def test_a_hand_counted_twice_and_the_show_after_the_game_are_refused() -> None:
    game = moved(new_game({"names": ["Ann", "Bob"]}), show(1, "2H 4S 6C 8D | KC"))
    with pytest.raises(GameError, match="Bob's hand has been counted in deal 1"):
        apply(game, show(1, "2H 4S 6C 8D | KC"))
    over = moved(new_game({"names": ["Ann", "Bob"]}), *pegs(1, 117), show(1, "2H 4S 6C 8D | 5S"))
    assert over.over and over.scores == (0, 121)
    with pytest.raises(GameError, match="the game is over: Bob won by a lurch \\(undo to take"):
        apply(over, show(CRIB, "5H 5D 5C JS | 5S"))
    with pytest.raises(GameError, match="the game is over: Bob won"):
        apply(over, peg(0, 2))


def test_the_show_scores_the_cards_and_names_where_they_came_from() -> None:
    game = moved(
        new_game({"names": ["Ann", "Bob"]}),
        show(1, ["2H", "3H", "4H", "5H"], starter="5S", source="photo"),
        show(0, "AC 2C 3D 9S", starter="5S"),
        show(CRIB, "KD QD JD 10D | 5S"),
    )
    reasons = [m["reason"] for m in view(game)["log"]]
    assert reasons == [
        "hand: 16 (photo: 2♥ 3♥ 4♥ 5♥ | 5♠)",
        "hand: 7 (typed: A♣ 2♣ 3♦ 9♠ | 5♠)",
        "crib: 12 (typed: K♦ Q♦ J♦ 10♦ | 5♠)",
    ]
    assert game.scores == (19, 16) and view(game)["phase"] == "deal"


def test_a_count_given_without_cards() -> None:
    game = apply(new_game({"names": ["Ann", "Bob"]}), {"move": "show", "hand": 1, "points": 7})
    assert game.log[-1].reason == "hand: 7 (as counted)" and game.scores == (0, 7)


def test_a_claim_pegs_what_was_claimed_and_never_over_the_cards() -> None:
    """Without muggins a short claim pegs the claim, the count beside it; over is refused."""
    game = new_game({"names": ["Ann", "Bob"], "muggins": False})
    under = apply(game, show(1, "5H 5D 5C JS | 5S", claimed=20))
    reason = "hand: 20 claimed, the cards count 29 (typed: 5♥ 5♦ 5♣ J♠ | 5♠)"
    assert under.log[-1].reason == reason
    assert under.scores == (0, 20)  # what he overlooked is nobody's without muggins
    with pytest.raises(GameError, match=r"Bob's hand counts 7 .*, not 9: a count over the cards"):
        apply(game, show(1, "2H 4S 6C 8D | 5S", claimed=9))


def test_muggins_gives_what_was_overlooked_to_the_player_on_the_left() -> None:
    game = new_game({"names": ["Ann", "Bob", "Cy"], "muggins": True, "first_dealer": 0})
    game = apply(game, show(1, "5H 5D 5C JS | 5S", claimed=20))
    said = [(r.phase, r.seat, r.points, r.reason) for r in game.log]
    assert said == [
        (Phase.SHOW, 1, 20, "hand: 20 claimed, the cards count 29 (typed: 5♥ 5♦ 5♣ J♠ | 5♠)"),
        (Phase.MUGGINS, 2, 9, "muggins: 9 overlooked in Bob's hand"),
    ]
    game = apply(game, show(2, "2H 4S 6C 8D | 5S", claimed=2))  # 7: 5 to Ann, on Cy's left
    game = apply(game, show(0, "AC 2C 3C 4C | 5S", claimed=10))  # the dealer's 11: 1 to Bob
    game = apply(game, show(CRIB, "KD QC 9S 7H | 5S", claimed=0))  # the crib's 4, to Bob
    assert game.log[-1].reason == "muggins: 4 overlooked in Ann's crib" and game.log[-1].seat == 1
    assert game.scores == (5 + 10, 20 + 1 + 4, 9 + 2)


def test_a_claim_that_goes_out_ends_the_game_before_muggins() -> None:
    game = new_game({"names": ["Ann", "Bob"], "muggins": True, "length": 61})
    game = moved(game, *pegs(1, 50))
    game = apply(game, show(1, "5H 5D 5C JS | 5S", claimed=11))
    assert game.over and game.scores == (0, 61) and game.log[-1].phase is Phase.SHOW


def test_a_game_holds_at_most_so_many_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(board, "MAX_MOVES", 3)
    game = moved(new_game({"names": ["Ann", "Bob"]}), peg(0, 1), peg(1, 1), peg(0, 1))
    with pytest.raises(GameError, match="this game has 3 moves, as many as a board keeps"):
        apply(game, peg(1, 1))
    assert apply(game, {"move": "undo"}).scores == (1, 1)  # undo is always allowed
    assert MAX_MOVES == 1000


# --- the board said back --------------------------------------------------------------------


def test_the_board_follows_the_deal() -> None:
    game = new_game({"names": ["Ann", "Bob"], "first_dealer": 1})
    seen = view(game)
    assert (seen["phase"], seen["dealer"], seen["pone"], seen["next_to_show"]) == ("play", 1, 0, 0)
    assert seen["play"] == {"count": 0, "pile": [], "played": [], "cards_left": 8, "next_seat": 0}
    assert (seen["lurch_line"], seen["double_skunk_line"], seen["result"]) == (91, 61, None)
    game = moved(game, {"move": "card", "seat": 0, "card": "9H"})
    assert view(game)["play"]["next_seat"] == 1 and view(game)["play"]["pile"] == ["9H"]
    game = moved(game, show(0, "AC 2C 3D 9H | 5S"))  # the pone's hand holds the 9♥ he played
    assert view(game)["phase"] == "show" and view(game)["next_to_show"] == 1
    game = moved(game, show(1, "AH 2H 3H 9C | 5S"), show(CRIB, "AS 2D 3S 9D | 5S"))
    assert view(game)["phase"] == "deal"
    assert view(moved(game, {"move": "deal"}))["dealer"] == 0


@pytest.mark.parametrize(
    ("loser", "text", "lurch"),
    [
        (95, "Ann won, 121 to 95", False),
        (90, "Ann won, 121 to 90: a lurch, two games", True),
        (40, "Ann won, 121 to 40: a lurch, two games (a double skunk)", True),
    ],
)
def test_the_result_says_the_winner_and_the_lurch(loser: int, text: str, lurch: bool) -> None:
    game = moved(new_game({"names": ["Ann", "Bob"]}), *pegs(1, loser), *pegs(0, 119), peg(0, 6))
    result = view(game)["result"]
    assert view(game)["phase"] == "over"
    assert (result["text"], result["lurch"], result["games_won"]) == (text, lurch, 1 + lurch)
    assert view(game)["sides"][0] == {"name": "Ann", "seats": [0], "front": 121, "back": 119}


def test_partners_share_a_side() -> None:
    game = new_game({"names": ["Ann", "Bob", "Cy", "Di"]})
    game = moved(game, peg(2, 2, "pair"), peg(1, 2, "fifteen two"), *pegs(3, 117), peg(3, 6))
    seen = view(game)
    assert [s["name"] for s in seen["sides"]] == ["Ann and Cy", "Bob and Di"]
    assert seen["result"]["text"] == "Bob and Di won, 121 to 2: a lurch, two games (a double skunk)"
