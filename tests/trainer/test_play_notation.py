"""The play typed without hands credits every card to the player who held it, and the five-card
play is one count ("each player's hand is then counted up" after the first go, seed 001).

The plays here are made by a small simulator written for the test (the rule books' play: the
player to play lays any card that fits, says go when none does, the other plays on, and the
count ends when neither can); it writes the notation a player types, and both
:func:`score_sequence` (no hands) and :func:`play_out` (both hands) must read it as played.
"""

from __future__ import annotations

import random
import re

import pytest

from trainer.cards import DECK, Card
from trainer.errors import IllegalPlayError
from trainer.pegging import Peg, play_out, score_play, score_sequence
from trainer.rules import FIVE_CARD, SIX_CARD, THREE_HAND, RuleSet


def simulate(rng: random.Random, rules: RuleSet) -> tuple[list[Card], list[Card], list[str]]:
    """Deal two hands and play them out: the hands, and the play as a player types it.

    A "go" is written when the player to play holds cards and none fits; now and then the
    second player's go is written too, and a card names its player (``2:KS``).
    """
    dealt = rng.sample(DECK, 2 * rules.hand_size)
    hands = [dealt[: rules.hand_size], dealt[rules.hand_size :]]
    held = [list(hands[0]), list(hands[1])]
    tokens: list[str] = []
    count, turn, last = 0, 0, 1
    said_go = False
    while held[0] or held[1]:
        fits = [c for c in held[turn] if count + c.value <= 31]
        if not fits:
            if held[turn] and not said_go:
                tokens.append("go")  # "he announces a go" (000)
                said_go = True
            elif said_go and rng.random() < 0.3:
                tokens.append("go")  # the second go, which the notation may leave out
            if any(count + c.value <= 31 for c in held[1 - turn]):
                turn = 1 - turn
                continue
            if rules.one_count:
                break  # the single count is over: the cards left are not played
            count, said_go = 0, False
            turn = 1 - last if held[1 - last] else last
            continue
        card = rng.choice(fits)
        held[turn].remove(card)
        named = rng.random() < 0.2
        tokens.append(f"{turn + 1}:{card}" if named else str(card))
        count += card.value
        last = turn
        if count == 31:
            if rules.one_count:
                break
            count, said_go = 0, False
            turn = 1 - turn if held[1 - turn] else turn
        elif not said_go:
            turn = 1 - turn
    return hands[0], hands[1], tokens


def summary(pegs: list[Peg]) -> list[tuple[str, int, int, int]]:
    return [(str(p.card) if p.card else "go", p.player, p.count, p.points) for p in pegs]


def cards_of(tokens: list[str]) -> list[str]:
    return [re.sub(r"^[12]:", "", t) for t in tokens if t != "go"]


@pytest.mark.slow
@pytest.mark.parametrize("rules", [SIX_CARD, FIVE_CARD], ids=lambda r: r.name)
def test_a_play_typed_without_hands_credits_every_card_to_its_player(rules: RuleSet) -> None:
    """3,000 random plays: the notation alone gives every card to the player who held it.

    Before hands' sizes were used, 768 plays in 100,000 gave a card to a player whose hand
    was played out (when the player whose opponent holds nothing leads a new count).
    """
    rng = random.Random(f"notation:{rules.name}")
    for _ in range(3000):
        pone, dealer, tokens = simulate(rng, rules)
        complete = not rules.one_count
        typed = score_sequence(tokens, end=True, rules=rules)
        checked = play_out(pone, dealer, tokens, rules)
        assert summary(typed) == summary(checked), tokens
        for peg in typed:
            if peg.card is not None:
                assert peg.card in (pone, dealer)[peg.player], tokens
        if complete:
            assert len(cards_of(tokens)) == 2 * rules.hand_size


def test_the_issue_play_gives_king_to_the_dealer() -> None:
    """``6H 9H JC go 6C 7D 8D 10D go KS``: the pone's four cards are down, so K♠ is the dealer's."""
    pegs = score_sequence(["6H", "9H", "JC", "go", "6C", "7D", "8D", "10D", "go", "KS"], end=True)
    king = pegs[-1]
    assert (str(king.card), king.player) == ("KS", 1)
    totals = [sum(p.points for p in pegs if p.player == who) for who in (0, 1)]
    pone, dealer = "8D JC 6C 6H", "10D KS 7D 9H"
    checked = score_play("6H 9H JC go 6C 7D 8D 10D go KS", pone=pone, dealer=dealer)
    assert totals == [sum(p.points for p in checked if p.player == who) for who in (0, 1)]


@pytest.mark.parametrize(
    "tokens, message",
    [
        ("6H 9H JC 6C 2:7D", "7D cannot be player 2's"),
        ("6H 9H JC go 6C 7D 8D 10D go KS QS", "all 8 are played"),
        ("AH AD AC AS 2H 2D 2C 2S 3H", "all 8 are played"),
    ],
)
def test_a_card_the_notation_rules_out_is_refused(tokens: str, message: str) -> None:
    """A player named who cannot have played the card, or a card beyond both hands."""
    with pytest.raises(IllegalPlayError, match=re.escape(message)):
        score_sequence(tokens.split())


def test_naming_the_player_says_the_other_could_not_play() -> None:
    """``2:9C`` after P2's card: P1 could not play (a go), P2 plays on and pegs the go."""
    pegs = score_sequence(["KH", "QD", "2:9C"])
    assert summary(pegs) == [("KH", 0, 10, 0), ("QD", 1, 20, 0), ("9C", 1, 29, 0), ("go", 1, 29, 1)]
    with pytest.raises(IllegalPlayError, match="9C is in the pone's hand, not player 2's"):
        play_out("KH 9C AS 2C", "QD 2S 3S 4S", "KH QD 2:9C")


# --- the five-card play: one count --------------------------------------------------------


def test_the_five_card_play_ends_at_the_go() -> None:
    """The seed's example: Q, Q, J and the dealer's go; the pone pegs one and the play is over."""
    pone, dealer = "QH JD 7S", "QC 5D 8S"
    pegs = score_play("QH QC JD", pone=pone, dealer=dealer, rules=FIVE_CARD)
    assert summary(pegs) == [
        ("QH", 0, 10, 0),
        ("QC", 1, 20, 2),
        ("JD", 0, 30, 0),
        ("go", 0, 30, 1),
    ]
    assert summary(score_sequence(["QH", "QC", "JD", "go"], rules=FIVE_CARD)) == summary(pegs)
    for play in ("QH QC JD go 7S", "QH QC JD 7S"):
        with pytest.raises(IllegalPlayError, match="the five-card play is one count"):
            score_play(play, pone=pone, dealer=dealer, rules=FIVE_CARD)
    with pytest.raises(IllegalPlayError, match="the five-card play is one count"):
        score_sequence(["QH", "QC", "JD", "go", "7S"], rules=FIVE_CARD)


def test_the_five_card_play_ends_at_31_and_its_last_card_pegs_one() -> None:
    """31 ends the single count (two, no last card besides); six cards under 31 peg one last."""
    pone, dealer = "KH AS 2C", "QC KS 3H"
    pegs = score_play("KH QC AS KS", pone=pone, dealer=dealer, rules=FIVE_CARD)
    assert summary(pegs)[-1] == ("KS", 1, 31, 2)
    with pytest.raises(IllegalPlayError, match="the five-card play is one count"):
        score_play("KH QC AS KS 2C", pone=pone, dealer=dealer, rules=FIVE_CARD)
    with pytest.raises(IllegalPlayError, match="the five-card play is one count"):
        score_sequence(["KH", "QC", "AS", "KS", "2C"], rules=FIVE_CARD)
    assert str(play_out(pone, dealer, "KH QC AS KS 2C")[-1].card) == "2C"
    whole = score_play("AH 2H 3H 4H 5H 6H", pone="AH 3H 5H", dealer="2H 4H 6H", rules=FIVE_CARD)
    assert [(i.kind.value, i.points) for i in whole[-1].items] == [("run", 6), ("last card", 1)]
    typed = score_sequence(["AH", "2H", "3H", "4H", "5H", "6H"], rules=FIVE_CARD)
    assert summary(typed) == summary(whole)


def test_more_players_are_kept_on_the_board() -> None:
    """The typed play is two-hand: three- and four-hand plays are refused, not misread."""
    with pytest.raises(IllegalPlayError, match="three-hand cribbage has 3"):
        score_sequence(["5H", "5D"], rules=THREE_HAND)
