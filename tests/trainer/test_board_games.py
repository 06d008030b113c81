"""Whole games through the board, every rule set, against a small model of the rule books.

Hypothesis deals random games to the end and keeps them on the board as a table would: the
play card by card (a model of the play written here: the turn passes left, a player who
cannot play says go, the count ends when nobody can, the five-card game's play is one
count), his heels when a jack is turned, each hand and the crib shown from its cards with a
random claim, muggins on or off, an undo now and then. The model keeps the score itself:
a claim pegs what was claimed, with muggins the player on the counter's left takes what was
overlooked, home ends the game, each loser short of the line is lurched. The board must take
every legal move, refuse a show of another deal's cards, and agree with the model.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.board import apply, new_game, view
from trainer.cards import DECK, Card, Rank
from trainer.errors import CribbageError
from trainer.game import CRIB, LURCH_LINES, Game, GameError, ShowTarget
from trainer.rules import RULESETS, RuleSet
from trainer.show import score_show

NAMES = ["Ann", "Bob", "Cy", "Di"]


class Table:
    """The game as the model sees it: the board under test, and the scores it should show."""

    def __init__(self, rules: RuleSet, rng: random.Random) -> None:
        self.rules, self.rng = rules, rng
        self.muggins = rng.random() < 0.5
        self.game = new_game(
            {
                "names": NAMES[: rules.players],
                "rules": rules.name,
                "first_dealer": rng.randrange(rules.players),
                "muggins": self.muggins,
            }
        )
        self.sides = 2 if rules.players == 4 else rules.players
        self.scores = list(self.game.scores)  # the five-card game's three for last

    def side(self, seat: int) -> int:
        return seat % self.sides

    def peg(self, seat: int, points: int) -> None:
        """The model's peg: to the seat's side, stopping at home."""
        side = self.side(seat)
        self.scores[side] = min(self.scores[side] + points, self.game.setup.length)

    @property
    def over(self) -> bool:
        return self.game.setup.length in self.scores

    def move(self, move: dict[str, Any]) -> None:
        """Apply a legal move; the board must take it, and now and then undo and redo it."""
        before = self.game
        self.game = apply(self.game, move)
        if self.rng.random() < 0.05:
            assert apply(self.game, {"move": "undo"}) == before
            self.game = apply(before, move)

    def check(self) -> None:
        assert list(self.game.scores) == self.scores


def deal(table: Table) -> None:
    """One deal: cards dealt, the play card by card, the show from the cards, the deal passed."""
    rules, rng, game = table.rules, table.rng, table.game
    players = rules.players
    deck = rng.sample(DECK, 52)
    hands = [deck[i * rules.dealt : (i + 1) * rules.dealt] for i in range(players)]
    rest = deck[players * rules.dealt :]
    crib = rest[: rules.crib_from_deck]
    for hand in hands:
        for _ in range(rules.discards):
            crib.append(hand.pop(rng.randrange(len(hand))))
    starter = rest[rules.crib_from_deck]
    dealer = game.dealer
    if starter.rank is Rank.JACK:
        table.move({"move": "peg", "seat": dealer, "points": 2, "reason": "his heels"})
        table.peg(dealer, 2)
        table.check()
    play(table, [list(h) for h in hands], dealer)
    if not table.over:
        show(table, hands, crib, starter)
    if not table.over:
        table.move({"move": "deal"})


def play(table: Table, held: list[list[Card]], dealer: int) -> None:
    """The play as the rule books have it, each card and go sent to the board."""
    players = table.rules.players
    count, last, out = 0, dealer, set()  # the pone (left of the dealer) leads
    while any(held) and not table.over:
        seat = (last + 1) % players
        for _ in range(players):
            fits = [c for c in held[seat] if count + c.value <= 31]
            if fits and seat not in out:
                break
            out.add(seat)  # says go (or holds nothing)
            seat = (seat + 1) % players
        else:  # nobody can play: the go, one to the last card's player
            table.move({"move": "go"})
            table.peg(last, 1)
            table.check()
            count, out = 0, set()
            if table.rules.one_count:
                return
            continue
        card = table.rng.choice(fits)
        held[seat].remove(card)
        table.move({"move": "card", "seat": seat, "card": str(card)})
        table.peg(seat, table.game.log[-1].points)  # what the card pegs: the engine's
        table.check()
        count, last = count + card.value, seat
        if count == 31:
            count, out = 0, set()
            if table.rules.one_count:
                return


def show(table: Table, hands: list[list[Card]], crib: list[Card], starter: Card) -> None:
    """Each hand and the crib from its cards, claimed at random; another deal's are refused."""
    game = table.game
    order: list[ShowTarget] = list(game.show_order)
    players = table.rules.players
    counted: list[Card] = []
    for target in order:
        cards = crib if target == CRIB else hands[int(target)]
        counter = game.dealer if target == CRIB else int(target)
        known = [c for seat, c in table.game.played if target == CRIB or seat != target]
        stranger = table.rng.choice([*known, *counted, starter])  # what the board has seen
        with pytest.raises(CribbageError):
            apply(table.game, shown(target, [*cards[1:], stranger], starter, None))
        if counted:  # the starter is fixed by the first count
            other = table.rng.choice([c for c in DECK if c not in (*cards, starter)])
            with pytest.raises(GameError, match="starter"):
                apply(table.game, shown(target, cards, other, None))
        counted += cards
        total = score_show(cards, starter, crib=target == CRIB, rules=table.rules).total
        claimed = total if table.rng.random() < 0.6 else table.rng.randint(0, total)
        table.move(shown(target, cards, starter, claimed))
        table.peg(counter, claimed)
        if table.muggins and claimed < total and not table.over:
            table.peg((counter + 1) % players, total - claimed)
        table.check()
        if table.over:
            return


def shown(
    target: ShowTarget, cards: list[Card], starter: Card, claimed: int | None
) -> dict[str, Any]:
    move = {"move": "show", "hand": target, "cards": " ".join(map(str, cards))}
    return move | {"starter": str(starter)} | ({} if claimed is None else {"claimed": claimed})


def check_result(table: Table) -> None:
    """The lurch as the booklet has it: each loser short of 91 (or 31) is lurched."""
    game: Game = table.game
    result = view(game)["result"]
    winner = table.scores.index(game.setup.length)
    line = LURCH_LINES[game.setup.length]
    lurched = [s for s, score in enumerate(table.scores) if s != winner and score < line]
    assert (result["winner"], result["lurched"], result["lurch"]) == (
        winner,
        lurched,
        bool(lurched),
    )
    assert result["games_won"] == (2 if lurched else 1)
    assert Game.from_json(game.to_json()) == game


@settings(max_examples=40, deadline=None)
@given(rules=st.sampled_from(sorted(RULESETS)), seed=st.integers(0, 2**32))
@pytest.mark.slow
def test_random_games_keep_the_rule_books(rules: str, seed: int) -> None:
    table = Table(RULESETS[rules], random.Random(seed))
    while not table.over:
        deal(table)
    check_result(table)
