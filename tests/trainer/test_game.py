"""A game kept on a board: pegs, the show order, counting out, the lurch, undo and storage."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.errors import CribbageError, UnknownRulesError
from trainer.game import (
    CHECKPOINT_EVERY,
    CRIB,
    MAX_SHOW,
    Game,
    GameError,
    Pegs,
    Phase,
    Record,
)
from trainer.rules import FIVE_CARD, FOUR_HAND, SIX_CARD, THREE_HAND, RuleSet

NAMES = ["Ann", "Bob", "Cy", "Di"]


def new(rules: RuleSet = SIX_CARD, first_dealer: int = 0) -> Game:
    return Game.new(rules, NAMES[: rules.players], first_dealer=first_dealer)


def show_all(game: Game, points: int = 0) -> Game:
    """Count every hand and the crib of the deal for ``points`` each."""
    while (hand := game.next_to_show) is not None:
        game = game.show(hand, points)
    return game


def to(game: Game, seat: int, score: int) -> Game:
    """Peg ``seat``'s side up to ``score`` in the play, at most a hand's 29 a peg."""
    side = game.setup.side_of(seat)
    while game.scores[side] < score:
        game = game.peg(seat, min(score - game.scores[side], MAX_SHOW), "test")
    return game


# --- the board ------------------------------------------------------------------------------


def test_the_back_peg_leapfrogs_the_front_one() -> None:
    game = new()
    assert game.board == (Pegs(0, 0), Pegs(0, 0))
    game = game.peg(1, 5, "fifteen two")
    assert game.board[1] == Pegs(front=5, back=0)
    game = game.peg(1, 3, "run")
    assert game.board[1] == Pegs(front=8, back=5)
    game = game.peg(0, 2, "pair").peg(1, 4, "go")
    assert game.board == (Pegs(2, 0), Pegs(12, 8))
    game = game.show(1, 0, "nineteen")  # a hand of nothing moves no peg
    assert game.board[1] == Pegs(12, 8)
    game = game.show(0, 6)
    assert game.board[0] == Pegs(8, 2) and game.scores == (8, 12)


def test_a_peg_past_home_stops_in_the_game_hole() -> None:
    game = to(new(), 0, 118).peg(0, 6, "fifteen two and a run")
    assert game.board[0] == Pegs(front=121, back=118)
    last = game.log[-1]
    assert (last.points, last.pegged, last.reason) == (6, 3, "fifteen two and a run")
    assert game.over and game.winner == 0


@pytest.mark.parametrize("points", [0, -2, True, 1.5, "2", 30, 2**53])
def test_a_peg_of_no_points_more_than_a_hand_or_not_a_whole_number_is_refused(
    points: object,
) -> None:
    game = new()
    with pytest.raises(GameError, match="a peg moves 1 to 29 holes"):
        game.peg(0, points, "go")  # type: ignore[arg-type]


@pytest.mark.parametrize("points", [-1, 30, False])
def test_a_show_outside_0_to_29_is_refused(points: object) -> None:
    with pytest.raises(GameError, match="counts 0 to 29"):
        new().show(1, points)  # type: ignore[arg-type]


def test_a_seat_not_at_the_table_is_refused() -> None:
    with pytest.raises(GameError, match="seats are 0 to 1, not 2"):
        new().peg(2, 2, "pair")
    with pytest.raises(GameError, match="seats are 0 to 2"):
        new(THREE_HAND).show("the crib", 4)  # type: ignore[arg-type]


# --- counting out ---------------------------------------------------------------------------


def test_pone_counts_out_in_the_show_before_the_dealer_shows() -> None:
    game = to(to(new(first_dealer=0), 0, 110), 1, 115)
    game = game.show(1, 8)  # pone first: 115 + 8 goes out
    assert game.over and game.winner == 1 and game.scores == (110, 121)
    with pytest.raises(GameError, match="the game is over: Bob won"):
        game.show(0, 24)  # the dealer's bigger hand never counts
    with pytest.raises(GameError, match="the game is over: Bob won"):
        game.show(CRIB, 12)
    with pytest.raises(GameError, match="the game is over"):
        game.next_deal()
    with pytest.raises(GameError, match="the game is over"):
        game.peg(0, 2, "pair")
    assert game.scores == (110, 121)
    result = game.result
    assert result is not None and result.winner == 1 and not result.lurch


def test_counting_out_in_the_middle_of_the_play() -> None:
    game = to(to(new(), 1, 60), 0, 119).peg(0, 2, "fifteen two")
    assert game.over and game.scores == (121, 60)
    with pytest.raises(GameError, match="the game is over: Ann won by a lurch"):
        game.peg(1, 1, "go")
    assert game.undo().peg(1, 1, "go").scores == (119, 61)  # undo is still allowed


def test_a_game_not_yet_over_has_no_result() -> None:
    game = to(new(), 0, 120)
    assert not game.over and game.result is None and game.winner is None


# --- the lurch ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "loser", "lurch", "double"),
    [
        (SIX_CARD, 90, True, False),
        (SIX_CARD, 91, False, False),
        (SIX_CARD, 60, True, True),
        (SIX_CARD, 61, True, False),
        (FIVE_CARD, 30, True, False),
        (FIVE_CARD, 31, False, False),
    ],
)
def test_the_lurch_line(rules: RuleSet, loser: int, lurch: bool, double: bool) -> None:
    game = to(new(rules, first_dealer=0), 1, loser)
    game = to(game, 0, game.setup.length)
    result = game.result
    assert result is not None and result.winner == 0 and result.scores == (game.setup.length, loser)
    assert result.lurch is lurch and result.double_skunk is double
    assert result.games_won == (2 if lurch else 1)
    assert result.lurched == ((1,) if lurch else ())


def test_the_lines_a_board_marks() -> None:
    assert (new().setup.lurch_line, new().setup.double_skunk_line) == (91, 61)
    assert (new(FIVE_CARD).setup.lurch_line, new(FIVE_CARD).setup.double_skunk_line) == (31, None)
    long_five = Game.new(FIVE_CARD, ["Ann", "Bob"], length=121)
    assert long_five.setup.length == 121 and long_five.setup.lurch_line == 91


def test_three_hand_lurches_each_loser_short_of_the_line() -> None:
    """121-95-50: the player on 50 is lurched (he loses two games), the one on 95 is not."""
    game = to(to(new(THREE_HAND), 1, 95), 2, 50)
    result = to(game, 0, 121).result
    assert result is not None and result.lurched == (2,) and result.lurch
    assert (result.games_lost(1), result.games_lost(2), result.games_won) == (1, 2, 2)
    result = to(to(to(new(THREE_HAND), 1, 90), 2, 40), 0, 121).result
    assert result is not None and result.lurched == (1, 2) and result.games_won == 2


@pytest.mark.parametrize(("games", "won"), [(2, 2), (4, 4)])
def test_the_double_skunk_counts_as_the_game_was_set_up(games: int, won: int) -> None:
    """No rule book knows a double lurch: two games like a lurch, or four as later players."""
    game = Game.new(SIX_CARD, ["Ann", "Bob"], double_skunk_games=games)
    result = to(to(game, 1, 60), 0, 121).result
    assert result is not None and result.double_skunk and result.games_won == won
    result = to(to(game, 1, 61), 0, 121).result
    assert result is not None and not result.double_skunk and result.games_won == 2
    with pytest.raises(GameError, match="a double skunk counts 2 or 4 games, not 3"):
        Game.new(SIX_CARD, ["Ann", "Bob"], double_skunk_games=3)


# --- deals and sides ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "first", "dealers"),
    [
        (SIX_CARD, 1, [1, 0, 1, 0]),
        (THREE_HAND, 2, [2, 0, 1, 2]),
        (FOUR_HAND, 1, [1, 2, 3, 0, 1]),
    ],
)
def test_the_deal_passes_to_the_left(rules: RuleSet, first: int, dealers: list[int]) -> None:
    game = new(rules, first_dealer=first)
    seen = []
    for number, dealer in enumerate(dealers, start=1):
        seen.append((game.deal, game.dealer))
        assert (game.deal, game.dealer) == (number, dealer)
        assert game.pone == (dealer + 1) % rules.players
        assert game.show_order[0] == game.pone and game.show_order[-2:] == (dealer, CRIB)
        game = show_all(game, 1).next_deal()
    assert game.log[-1].phase is Phase.DEAL and game.log[-1].seat == game.dealer
    assert len(seen) == len(dealers)


def test_the_three_hand_show_goes_round_from_the_dealers_left() -> None:
    game = new(THREE_HAND, first_dealer=1)
    assert game.show_order == (2, 0, 1, CRIB)
    game = show_all(game, 2)
    assert [(r.seat, r.crib) for r in game.log] == [(2, False), (0, False), (1, False), (1, True)]
    assert game.scores == (2, 4, 2)  # the dealer's hand and crib


def test_partners_peg_on_one_side() -> None:
    game = new(FOUR_HAND, first_dealer=3)
    assert game.setup.sides == 2 and len(game.board) == 2
    assert game.setup.side_name(0) == "Ann and Cy" and game.setup.side_name(1) == "Bob and Di"
    game = game.peg(0, 2, "fifteen two").peg(2, 2, "pair").peg(1, 1, "go")
    assert game.board == (Pegs(4, 2), Pegs(1, 0))
    assert [(r.seat, r.side) for r in game.log] == [(0, 0), (2, 0), (1, 1)]
    assert game.show_order == (0, 1, 2, 3, CRIB)
    game = game.show(0, 4).show(1, 6).show(2, 8).show(3, 10).show(CRIB, 5)
    assert game.scores == (16, 22)
    assert game.log[-1].seat == 3 and game.log[-1].side == 1 and game.log[-1].crib
    with pytest.raises(GameError, match="the game is over: Bob and Di won"):
        to(game.next_deal(), 3, 121).peg(0, 2, "pair")


def test_each_move_is_logged_with_its_deal_and_phase() -> None:
    game = new().peg(0, 2, "his heels").peg(1, 2, "pair")
    game = show_all(game, 3).next_deal().peg(0, 1, "last card")
    assert game.history == game.log
    deals = game.deals()
    assert sorted(deals) == [1, 2]
    assert [(r.phase, r.seat, r.reason) for r in deals[1]] == [
        (Phase.PLAY, 0, "his heels"),
        (Phase.PLAY, 1, "pair"),
        (Phase.SHOW, 1, ""),
        (Phase.SHOW, 0, ""),
        (Phase.SHOW, 0, ""),
    ]
    assert [r.crib for r in deals[1]] == [False, False, False, False, True]
    assert [(r.phase, r.deal, r.seat) for r in deals[2]] == [
        (Phase.DEAL, 2, 1),
        (Phase.PLAY, 2, 0),
    ]
    assert game.log[1].to_json() == {
        "phase": "play",
        "deal": 1,
        "seat": 1,
        "side": 1,
        "points": 2,
        "reason": "pair",
        "crib": False,
        "pegged": 2,
        "card": "",
        "cards": "",
    }


# --- three for last -------------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1])
def test_the_five_card_non_dealer_pegs_three_for_last_at_the_start(first: int) -> None:
    game = new(FIVE_CARD, first_dealer=first)
    pone = 1 - first
    assert game.setup.length == 61 and game.scores[pone] == 3 and game.scores[first] == 0
    assert game.board[pone] == Pegs(3, 0)
    assert game.log == (Record(Phase.START, 1, pone, pone, 3, "three for last", pegged=3),)
    with pytest.raises(GameError, match="nothing to undo: the game is at its start"):
        game.undo()
    game = show_all(game, 1).next_deal()  # only in the first hand of the game
    assert game.scores[pone] == 4 and len([r for r in game.log if r.phase is Phase.START]) == 1


@pytest.mark.parametrize("rules", [SIX_CARD, THREE_HAND, FOUR_HAND])
def test_no_three_for_last_in_the_other_games(rules: RuleSet) -> None:
    game = new(rules)
    assert game.log == () and set(game.scores) == {0}


# --- the show order -------------------------------------------------------------------------


def test_showing_out_of_order_names_what_is_due() -> None:
    game = new(first_dealer=0)
    assert game.next_to_show == 1
    with pytest.raises(GameError, match="Ann's hand is not yet counted in deal 1: Bob's hand is"):
        game.show(0, 12)  # the dealer before pone
    with pytest.raises(GameError, match=r"the crib \(Ann's\) is not yet counted.*Bob's hand"):
        game.show(CRIB, 4)
    game = game.show(1, 4)
    with pytest.raises(GameError, match=r"the crib \(Ann's\) is not yet .*Ann's hand is counted"):
        game.show(CRIB, 4)
    with pytest.raises(GameError, match="deal 1 is not finished: Ann's hand is counted next"):
        game.next_deal()
    with pytest.raises(GameError, match="deal 1 is over: the show has begun; Ann's hand is"):
        game.peg(0, 1, "go")


def test_a_hand_or_the_crib_counted_twice_is_refused() -> None:
    game = new(THREE_HAND, first_dealer=0).show(1, 4)
    with pytest.raises(GameError, match="Bob's hand has been counted in deal 1: Cy's hand is"):
        game.show(1, 4)
    game = show_all(game, 2)
    assert game.next_to_show is None
    with pytest.raises(GameError, match=r"crib \(Ann's\) has been counted.*the deal passes next"):
        game.show(CRIB, 2)
    with pytest.raises(GameError, match="has been counted"):
        game.show(0, 2)
    with pytest.raises(GameError, match="the play of deal 1 is over: the show is over; the crib"):
        game.peg(0, 1, "go")
    assert game.next_deal().show(2, 0).scores == game.scores


# --- his heels ------------------------------------------------------------------------------


def test_his_heels_goes_to_the_dealer_before_any_other_peg() -> None:
    game = new(first_dealer=1)
    assert game.peg(1, 2, "His Heels").scores == (0, 2)
    assert game.peg(1, 2, "his nobs").scores == (0, 2)  # the booklet's (002) name for it
    with pytest.raises(GameError, match="his heels is the dealer's: Bob deals deal 1, not Ann"):
        game.peg(0, 2, "his heels")
    with pytest.raises(GameError, match="his heels is 2 points, not 1"):
        game.peg(1, 1, "his heels")
    # "before dealer plays a card" (000): the pone may peg before, the dealer may not
    assert game.peg(0, 2, "pair").peg(1, 2, "his heels").scores == (2, 2)
    with pytest.raises(GameError, match="must be scored before dealer plays a card"):
        game.peg(1, 2, "pair").peg(1, 2, "his heels")
    with pytest.raises(GameError, match="his heels is pegged once a deal"):
        game.peg(1, 2, "his heels").peg(1, 2, "his heels")  # one starter a deal
    game = show_all(game).next_deal()  # the next deal: the next dealer's heels
    assert game.peg(0, 2, "two for his heels").scores == (2, 0)


def test_his_heels_after_three_for_last_in_the_five_card_game() -> None:
    game = new(FIVE_CARD, first_dealer=0).peg(0, 2, "his heels")
    assert game.scores == (2, 3)


def test_his_heels_in_a_partnership_is_the_dealers_not_his_partners() -> None:
    game = new(FOUR_HAND, first_dealer=2)
    assert game.peg(2, 2, "his heels").scores == (2, 0)
    with pytest.raises(GameError, match="his heels is the dealer's: Cy deals"):
        game.peg(0, 2, "his heels")


# --- undo -----------------------------------------------------------------------------------


def test_every_kind_of_move_can_be_undone_back_to_the_start() -> None:
    start = new(first_dealer=0)
    states = [start]
    moves: list[Callable[[Game], Game]] = [
        lambda g: g.peg(0, 2, "his heels"),
        lambda g: g.peg(1, 3, "fifteen two and a go"),
        lambda g: g.show(1, 8),
        lambda g: g.show(0, 6),
        lambda g: g.show(CRIB, 4),
        lambda g: g.next_deal(),
        lambda g: g.peg(1, 2, "pair"),
        *[lambda g: g.peg(0, 29, "test")] * 4,
    ]
    for move in moves:
        states.append(move(states[-1]))
    assert states[-1].over
    game = states[-1]
    for expected in reversed(states[:-1]):
        game = game.undo()
        assert game == expected
    assert game == start
    with pytest.raises(GameError, match="nothing to undo: the game is at its start"):
        game.undo()


def test_undo_of_a_deal_brings_back_the_finished_show() -> None:
    game = show_all(new(first_dealer=0), 2)
    back = game.next_deal().undo()
    assert back == game and back.dealer == 0 and back.next_to_show is None


def grow(game: Game, moves: int) -> Game:
    """``game`` after deals shown for 0 and passed, until its log holds about ``moves``."""
    while len(game.log) + 4 <= moves:
        game = show_all(game).next_deal()
    return game


def records_made(monkeypatch: pytest.MonkeyPatch, call: Callable[[], object]) -> int:
    """How many records of a log ``call`` makes (each move replayed makes its own again)."""
    made = 0
    init = Record.__init__

    def counted(record: Record, *args: Any, **kwargs: Any) -> None:
        nonlocal made
        made += 1
        init(record, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(Record, "__init__", counted)
        call()
    return made


@pytest.mark.parametrize("moves", [10, 900])
def test_undoing_the_last_move_replays_fewer_than_32_records_at_any_size(
    monkeypatch: pytest.MonkeyPatch, moves: int
) -> None:
    game = grow(new(), moves)
    pegged = game.peg(0, 1, "pair")
    assert len(pegged.log) > moves - 4
    assert records_made(monkeypatch, pegged.undo) < CHECKPOINT_EVERY
    assert pegged.undo() == game and pegged.undo().to_json() == game.to_json()


def test_an_undo_in_the_middle_replays_from_the_checkpoint_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pegged = grow(new(), 500).peg(1, 2, "pair")
    game = grow(pegged, 900)
    index = len(pegged.log) - 1
    made = records_made(monkeypatch, lambda: game.undo(index))
    assert made < len(game.log) - index + CHECKPOINT_EVERY
    stored = game.to_json()
    del stored["moves"][index]
    undone, replayed = game.undo(index), Game.from_json(stored)
    assert undone == replayed and undone.scores == (0, 0)
    assert undone.checkpoints == replayed.checkpoints != ()


# --- set-up ---------------------------------------------------------------------------------


def test_a_game_is_set_up_by_rules_or_their_name() -> None:
    assert Game.new("five-card", ["Ann", "Bob"]).setup.rules is FIVE_CARD
    with pytest.raises(UnknownRulesError):
        Game.new("seven-card", ["Ann", "Bob"])
    with pytest.raises(GameError, match="three-hand cribbage has 3 players, but 2 names"):
        Game.new(THREE_HAND, ["Ann", "Bob"])
    with pytest.raises(GameError, match="every player needs a name"):
        Game.new(SIX_CARD, ["Ann", " "])
    with pytest.raises(GameError, match="a game is 61 or 121 points, not 100"):
        Game.new(SIX_CARD, ["Ann", "Bob"], length=100)
    with pytest.raises(GameError, match="seats are 0 to 3, not 4"):
        Game.new(FOUR_HAND, NAMES, first_dealer=4)


# --- storage --------------------------------------------------------------------------------


def test_a_game_survives_json() -> None:
    game = new(FIVE_CARD, first_dealer=1).peg(1, 2, "his heels").peg(0, 2, "fifteen two")
    game = game.show(0, 4).show(1, 0).show(CRIB, 6).next_deal().peg(1, 1, "go")
    data = json.loads(json.dumps(game.to_json()))
    assert data["moves"][2:4] == [
        {"phase": "show", "seat": 0, "points": 4, "reason": ""},
        {"phase": "show", "seat": 1, "points": 0, "reason": ""},
    ]
    assert data["moves"][4]["seat"] == "crib" and data["moves"][5] == {"phase": "deal"}
    assert Game.from_json(data) == game


def test_a_move_stores_its_own_move_and_an_undo_keeps_the_moves_before_it() -> None:
    """What a save writes (``records.games``): the moves after those the game read shares."""
    read = new(FIVE_CARD).peg(0, 2, "pair").peg(1, 1, "go")  # the three for last: no move
    after = read.peg(0, 3, "run")
    assert (read.move_count, after.move_count, after.moves_shared(read)) == (2, 3, 2)
    assert after.moves_json(2) == [{"phase": "play", "seat": 0, "points": 3, "reason": "run"}]
    assert after.moves_json() == after.to_json()["moves"]
    taken_back = after.undo(2)  # the go, in the middle: the run is made again
    assert (taken_back.moves_shared(after), after.moves_shared(taken_back)) == (1, 1)
    assert taken_back.moves_json(1) == after.moves_json(2)
    assert read.undo().undo().moves_shared(read) == 0


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("names"),
        lambda d: d.update(moves=[{"phase": "play", "seat": 0}]),
        lambda d: d.update(moves=[{"phase": "nap"}]),
        lambda d: d.update(moves=[{"phase": "start", "seat": 1, "points": 3, "reason": ""}]),
        lambda d: d.update(moves=[{"phase": "show", "seat": 0, "points": 4, "reason": ""}]),
        lambda d: d.update(moves=[{"phase": "play", "seat": 0, "points": 2, "reason": 7}]),
        lambda d: d.update(moves="peg"),
        lambda d: d.update(first_dealer="0"),
    ],
)
def test_a_bad_stored_game_is_refused(change: Callable[[dict[str, Any]], object]) -> None:
    data = new().to_json()
    change(data)
    with pytest.raises(GameError):
        Game.from_json(data)


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game after a random walk of moves, mostly the ones due, undo among them; a move the
    game refuses is left out."""
    rules = draw(st.sampled_from([SIX_CARD, FIVE_CARD, THREE_HAND, FOUR_HAND]))
    game = new(rules, first_dealer=draw(st.integers(0, rules.players - 1)))
    for _ in range(draw(st.integers(0, 60))):
        kind = draw(
            st.sampled_from(["peg", "peg", "card", "card", "go", "show", "show", "deal", "undo"])
        )
        seat = draw(st.sampled_from([game.dealer, *range(rules.players)]))
        try:
            if kind == "card":
                game = game.play(seat, draw(st.sampled_from(["5H", "10D", "5C", "4S", "6H", "KC"])))
            elif kind == "go":
                game = game.go()
            elif kind == "peg":
                points = draw(st.sampled_from([1, 2, 2, 3, 6, 12, 30]))
                reason = draw(st.sampled_from(["fifteen two", "go", "31", "pair", "his heels", ""]))
                game = game.peg(seat, 2 if reason == "his heels" else points, reason)
            elif kind == "show":
                due = game.next_to_show
                hand = draw(st.sampled_from([due, due, due, seat, CRIB]))
                game = game.show(CRIB if hand is None else hand, draw(st.integers(0, 29)))
            elif kind == "deal":
                game = game.next_deal()
            elif draw(st.booleans()) and game.log:
                game = game.undo(draw(st.integers(0, len(game.log) - 1)))
            else:
                game = game.undo()
        except GameError:
            continue
        check_board(game)
    return game


def check_board(game: Game) -> None:
    """The pegs follow from the log: the front the sum of the holes pegged, the back the front
    before the side's last move, nothing past home."""
    for side, pegs in enumerate(game.board):
        moved = [r.pegged for r in game.log if r.side == side and r.pegged]
        assert pegs.front == sum(moved) <= game.setup.length
        assert pegs.back == sum(moved[:-1])
    assert game.over == (game.setup.length in game.scores)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(games())
def test_any_valid_moves_replay_to_the_same_state(game: Game) -> None:
    data = json.loads(json.dumps(game.to_json()))
    again = Game.from_json(data)
    assert again == game
    assert again.to_json() == game.to_json()


# --- the play card by card ------------------------------------------------------------------


def play(game: Game, *cards: str) -> Game:
    """Play ``cards`` in turn from the pone round the table (``seat:card`` names the seat)."""
    seat = game.pone
    for token in cards:
        if ":" in token:
            seat_text, token = token.split(":")
            seat = int(seat_text)
        game = game.play(seat, token)
        seat = (seat + 1) % game.setup.players
    return game


def test_cards_played_are_scored_by_the_pegging_engine() -> None:
    game = play(new(first_dealer=0), "4H", "5D", "6S", "6C", "10H")
    said = [(r.seat, r.points, r.reason, r.card) for r in game.log]
    assert said == [
        (1, 0, "4♥ (count 4)", "4H"),
        (0, 0, "5♦ (count 9)", "5D"),
        (1, 5, "6♠ (count 15): fifteen two, a run of three", "6S"),
        (0, 2, "6♣ (count 21): a pair for two", "6C"),
        (1, 2, "10♥ (count 31): thirty-one for two", "10H"),
    ]
    assert game.count == 0 and game.pile == () and len(game.played) == 5  # 31: a new count
    game = play(game, "0:3D", "2C", "AD")
    assert game.log[-1].reason == "A♦ (count 6): a run of three, one for last"
    assert game.scores == (6, 7) and game.pile == ()
    with pytest.raises(GameError, match=r"every card of deal 1's play is down \(8\): Bob's hand"):
        game.play(1, "KS")
    with pytest.raises(GameError, match="a go needs a card played since the count started"):
        game.go()
    assert game.show(1, 4).show(0, 4).show(CRIB, 0).next_deal().pile == ()


def test_a_go_ends_the_count_for_the_last_cards_player() -> None:
    game = play(new(first_dealer=0), "KH", "QD", "1:9C")
    assert game.count == 29
    with pytest.raises(GameError, match=r"5S would take the count from 29 past 31: a go ends the"):
        game.play(0, "5S")
    game = game.go()
    last = game.log[-1]
    assert (last.seat, last.points, last.reason, last.card) == (
        1,
        1,
        "one for the go (count 29)",
        "go",
    )
    assert game.count == 0 and game.scores == (0, 1)
    game = game.play(0, "5S")
    assert game.count == 5 and game.log[-1].reason == "5♠ (count 5)"


@pytest.mark.parametrize(
    ("cards", "seat", "card", "message"),
    [
        (["5H"], 0, "5H", "5H has been played in deal 1"),
        (["1:AH", "2H", "1:3H", "4H", "1:5D", "6H", "1:7C"], 1, "8C", "Bob has played all 4"),
        ([], 0, "1H", "unknown rank '1'"),
        ([], 2, "5H", "seats are 0 to 1, not 2"),
    ],
)
def test_a_card_that_cannot_be_played_is_refused(
    cards: list[str], seat: int, card: str, message: str
) -> None:
    game = play(new(first_dealer=0), *cards)
    with pytest.raises(CribbageError, match=message):
        game.play(seat, card)


def test_no_card_after_the_show_has_begun_and_his_heels_before_the_dealers_first() -> None:
    game = play(new(first_dealer=0), "5H")
    assert game.peg(0, 2, "his heels").scores == (2, 0)  # after the pone's card: in time
    with pytest.raises(GameError, match="must be scored before dealer plays a card"):
        play(game, "0:5C").peg(0, 2, "his heels")
    with pytest.raises(GameError, match="the play of deal 1 is over: the show has begun"):
        game.show(1, 2).play(0, "5C")


def test_the_three_hand_play_goes_round_the_table() -> None:
    game = play(new(THREE_HAND, first_dealer=2), "7H", "8H", "7C", "7D")
    assert [(r.seat, r.points) for r in game.log] == [(0, 0), (1, 2), (2, 0), (0, 2)]
    assert game.count == 29 and game.scores == (2, 2, 0)


# --- undo any move --------------------------------------------------------------------------


def test_undoing_a_card_in_the_middle_scores_the_later_cards_again() -> None:
    game = play(new(first_dealer=0), "10H", "KD", "2C", "3S", "4D")
    assert game.scores == (0, 3)
    without = game.undo(3)  # the 3♠: Bob plays on at 22 (Ann may hold only high cards)
    assert [r.card for r in without.log] == ["10H", "KD", "2C", "4D"]
    assert without.scores == (0, 0)  # 2♣ 4♦ make no run
    assert without.log[-1].reason == "4♦ (count 26)"
    with pytest.raises(GameError, match="Ann's K♦ cannot be taken back alone"):
        game.undo(1)  # Bob would play twice at 10: Ann must hold a card that fits


def test_a_move_that_later_moves_need_cannot_be_undone_alone() -> None:
    game = new(first_dealer=0).peg(0, 2, "his heels").show(1, 8).show(0, 4)
    said = "Bob's hand cannot be taken back alone (.*): undo Ann's hand first, then Bob's hand"
    with pytest.raises(GameError, match=said):
        game.undo(1)
    assert game.undo(0).scores == (4, 8)  # the heels alone
    with pytest.raises(GameError, match="there is no move 3: the log's moves are 0 to 2"):
        game.undo(3)
    five = new(FIVE_CARD).peg(0, 2, "his heels")
    with pytest.raises(GameError, match="three for last is part of the set-up"):
        five.undo(0)
    assert five.undo(1) == new(FIVE_CARD)


# --- muggins --------------------------------------------------------------------------------


def test_muggins_is_taken_by_an_opponent_on_the_count_just_made() -> None:
    game = Game.new(SIX_CARD, ["Ann", "Bob"], muggins=True).show(1, 4)
    with pytest.raises(GameError, match="Bob cannot take muggins on a count of his own side"):
        game.muggins(1, 2)
    game = game.muggins(0, 2, "muggins: 2 overlooked in Bob's hand")
    assert game.scores == (2, 4) and game.log[-1].phase is Phase.MUGGINS
    assert game.next_to_show == 0  # muggins is no count of the show
    assert Game.from_json(json.loads(json.dumps(game.to_json()))) == game
    with pytest.raises(GameError, match="muggins is taken in the show"):
        Game.new(SIX_CARD, ["Ann", "Bob"], muggins=True).muggins(0, 2)
    with pytest.raises(GameError, match="this game is played without muggins"):
        new().show(1, 4).muggins(0, 2)


def test_cards_and_goes_survive_json() -> None:
    game = play(new(first_dealer=1), "KH", "QD", "0:9C").go().play(1, "5S")
    data = json.loads(json.dumps(game.to_json()))
    assert data["moves"][:4] == [
        {"phase": "play", "seat": 0, "card": "KH"},
        {"phase": "play", "seat": 1, "card": "QD"},
        {"phase": "play", "seat": 0, "card": "9C"},
        {"phase": "play", "card": "go"},
    ]
    assert Game.from_json(data) == game
