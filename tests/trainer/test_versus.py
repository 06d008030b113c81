"""A game against the computer, checked against an independent count written here."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest

from trainer.cards import Card
from trainer.dealing import Difficulty
from trainer.discard import analyze_discards
from trainer.errors import CribbageError
from trainer.versus import COMPUTER, PLAYER, Setup, VersusGame


def value(card: Card) -> int:
    return min(int(card.rank), 10)


def show_points(hand: Sequence[Card], starter: Card, *, crib: bool) -> int:
    """Fifteens, pairs, runs, flush and nobs, counted by brute force over the five cards."""
    cards = [*hand, starter]
    points = 0
    for size in range(2, 6):
        for combo in itertools.combinations(cards, size):
            if sum(value(c) for c in combo) == 15:
                points += 2
    points += 2 * sum(a.rank == b.rank for a, b in itertools.combinations(cards, 2))
    for size in (5, 4, 3):
        runs = 0
        for combo in itertools.combinations(cards, size):
            ranks = sorted(int(c.rank) for c in combo)
            runs += ranks == list(range(ranks[0], ranks[0] + size))
        if runs:
            points += runs * size
            break
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    points += any(int(c.rank) == 11 and c.suit == starter.suit for c in hand)
    return points


def peg_points(pile: Sequence[Card], card: Card) -> int:
    """What a card pegs on the pile: 15 or 31, the pairs it ends, the longest run it ends."""
    cards = [*pile, card]
    total = sum(value(c) for c in cards)
    points = 2 if total in (15, 31) else 0
    same = len(list(itertools.takewhile(lambda c: c.rank == card.rank, reversed(cards))))
    points += {2: 2, 3: 6, 4: 12}.get(same, 0)
    for size in range(len(cards), 2, -1):
        ranks = sorted(int(c.rank) for c in cards[-size:])
        if ranks == list(range(ranks[0], ranks[0] + size)):
            points += size
            break
    return points


def play_whole_game(game: VersusGame, rng: random.Random) -> list[tuple[str, int, int]]:
    """Play as a careless player: some claims right, some short, some over.

    Returns:
        Every claim made: what, the claim, the independent count.
    """
    claims = []
    while game.waiting != "over":
        match = game.match
        if game.waiting == "discard":
            game.throw(rng.sample(game.hand, game.rules.discards))
            continue
        if game.waiting == "play":
            card = rng.choice([c for c in game.hand if match.count + value(c) <= 31])
            due = peg_points(match.pile, card)
        else:
            what, cards = game.counting or ("", ())
            assert match.starter is not None
            due = show_points(cards, match.starter, crib=what == "crib")
        claim = rng.choice([due, due, max(0, due - rng.randint(1, 4)), due + 1])
        scores = list(match.scores)
        claims.append(("play" if game.waiting == "play" else "show", claim, due))
        if game.waiting == "play":
            game.play(card, min(claim, 14))
        else:
            game.count(min(claim, 29))
        if claim > due:
            assert match.scores == scores, "a claim over the count pegs nothing"
            if game.waiting == "play":
                game.play(card, due)
            else:
                game.count(due)
    return claims


@pytest.mark.parametrize("seed", range(6))
def test_every_undercount_goes_to_the_computer_and_every_overclaim_is_refused(seed: int) -> None:
    rules = "five-card" if seed % 3 == 2 else "six-card"
    game = VersusGame(Setup(seed=seed, rules=rules))
    claims = play_whole_game(game, random.Random(seed))
    short = sum(due - claim for _, claim, due in claims if claim < due)
    over = sum(claim > due for _, claim, due in claims)
    review = game.review()
    assert review.overlooked_points == short
    assert len(review.refused) == over
    winner = game.match.winner
    assert winner is not None and game.match.scores[winner] >= game.rules.game
    taken = sum(line.points for line in game.log if line.text.startswith("Muggins"))
    assert taken <= short and (taken == short or winner == COMPUTER or short == 0)
    pegged = [sum(line.points for line in game.log if line.seat == seat) for seat in (0, 1)]
    assert [min(points, game.rules.game) for points in pegged] == game.match.scores
    assert game.match.scores[winner] == game.rules.game  # pegged out in the game hole


@pytest.mark.parametrize("seed", range(4))
def test_the_computers_counts_are_the_independent_count(seed: int) -> None:
    game = VersusGame(Setup(seed=seed))
    play_whole_game(game, random.Random(seed))
    for deal in game.match.deals[:-1]:
        assert deal.starter is not None
        computer = [p for p in deal.pegged if p.seat == COMPUTER and p.what in ("hand", "crib")]
        hand = show_points(deal.kept[COMPUTER], deal.starter, crib=False)
        assert [p.points for p in computer if p.what == "hand"] == ([hand] if hand else [])


def test_a_game_replayed_from_its_moves_never_asks_the_computer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = VersusGame(Setup(seed=11))
    play_whole_game(game, random.Random(1))
    stored = game.to_json()

    def asked(*args: object) -> None:
        raise AssertionError("the computer was asked during a replay")

    monkeypatch.setattr("trainer.versus.StrongPolicy.play", asked)
    monkeypatch.setattr("trainer.versus.StrongPolicy.discard", asked)
    again = VersusGame.from_json(stored)
    assert again.log == game.log
    assert again.match.scores == game.match.scores
    assert again.review() == game.review()


def test_without_muggins_the_computer_takes_nothing() -> None:
    game = VersusGame(Setup(seed=5, muggins=False))
    while game.waiting != "over":
        if game.waiting == "discard":
            game.throw(game.hand[:2])
        elif game.waiting == "play":
            game.play(next(c for c in game.hand if game.match.count + value(c) <= 31), 0)
        else:
            game.count(0)
    assert not [line for line in game.log if line.text.startswith("Muggins")]
    assert game.match.winner == COMPUTER
    assert game.match.scores[PLAYER] == sum(line.points for line in game.log if line.seat == PLAYER)


def test_the_review_sets_each_discard_against_the_best() -> None:
    game = VersusGame(Setup(seed=3, game=61))
    rng = random.Random(3)
    best_every_time = VersusGame(Setup(seed=3, game=61))
    for played in (game, best_every_time):
        while played.waiting != "over":
            match = played.match
            if played.waiting == "discard":
                if played is game:
                    played.throw(rng.sample(played.hand, 2))
                else:
                    dealer = match.dealer == PLAYER
                    options = analyze_discards(played.hand, dealer=dealer, crib_model="weighted")
                    played.throw(options[0].discard)
            elif played.waiting == "play":
                card = next(c for c in played.hand if match.count + value(c) <= 31)
                played.play(card, peg_points(match.pile, card))
            else:
                what, cards = played.counting or ("", ())
                assert match.starter is not None
                played.count(show_points(cards, match.starter, crib=what == "crib"))
    careless, careful = game.review(), best_every_time.review()
    assert careful.discard_points == 0 and not careful.overlooked
    assert careful.summary().startswith("you gave away nothing")
    assert careless.discard_points > 0
    for reviewed in careless.discards:
        options = analyze_discards(reviewed.dealt, dealer=reviewed.dealer, crib_model="weighted")
        chosen = next(o for o in options if set(o.discard) == set(reviewed.thrown))
        assert reviewed.lost == pytest.approx(options[0].net_ev - chosen.net_ev)
    assert "in discards, 0 overlooked" in careless.summary()


def test_only_the_beginner_is_told_the_count() -> None:
    lines = {}
    for level in (Difficulty.BEGINNER, Difficulty.STANDARD):
        game = VersusGame(Setup(seed=8, level=level))
        game.throw(game.hand[:2])
        lines[level] = [line.text for line in game.log if " play" in line.text]
        if game.waiting == "play":
            card = next(c for c in game.hand if game.match.count + value(c) <= 31)
            lines[level] += [line.text for line in game.play(card, 0)]
    assert any(" for " in text for text in lines[Difficulty.BEGINNER])
    assert lines[Difficulty.STANDARD]
    assert not any(" for " in text and "claim" not in text for text in lines[Difficulty.STANDARD])


def test_the_five_card_play_is_one_count_and_the_first_pone_has_three_for_last() -> None:
    game = VersusGame(Setup(seed=2, rules="five-card"))
    pone = 1 - game.match.dealer
    assert game.match.scores[pone] == 3
    play_whole_game(game, random.Random(2))
    for deal in game.match.deals[:-1]:
        ends = [p for p in deal.pegged if p.what in ("go", "thirty-one", "last card")]
        assert len(ends) <= 1
        if ends:
            assert not [
                p
                for p in deal.pegged[deal.pegged.index(ends[0]) + 1 :]
                if p.what not in ("hand", "crib", "muggins")
            ]


@pytest.mark.parametrize(
    "move",
    [
        lambda g: g.throw(g.hand[:1]),
        lambda g: g.throw(["AS", "AS"]),
        lambda g: g.throw("ZZ QQ"),
        lambda g: g.play(g.hand[0], 0),
        lambda g: g.count(3),
    ],
)
def test_a_move_out_of_place_is_refused_and_changes_nothing(move: object) -> None:
    game = VersusGame(Setup(seed=1))
    before = game.to_json()
    with pytest.raises(CribbageError):
        move(game)  # type: ignore[operator]
    assert game.to_json() == before


@pytest.mark.parametrize("claim", [-1, 15, 2.5, True, "2", None])
def test_a_claim_is_a_whole_number_in_range(claim: object) -> None:
    game = VersusGame(Setup(seed=1))
    game.throw(game.hand[:2])
    before = game.to_json()
    with pytest.raises(CribbageError, match="whole number of points"):
        game.play(game.hand[0], claim)  # type: ignore[arg-type]
    assert game.to_json() == before


@pytest.mark.parametrize(
    ("rules", "length"), [("three-hand", None), ("six-card", 100), ("bogus", None)]
)
def test_a_setup_outside_the_two_hand_games_is_refused(rules: str, length: int | None) -> None:
    with pytest.raises(CribbageError):
        Setup(seed=1, rules=rules, game=length)


def test_each_first_claim_is_kept_as_the_drill_it_is() -> None:
    game = VersusGame(Setup(seed=6))
    claims = play_whole_game(game, random.Random(6))
    assert [c.claimed for c in game.claims] == [
        min(claim, 14 if what == "play" else 29) for what, claim, _ in claims
    ]
    for claim in game.claims:
        if claim.drill.kind == "pegging":
            assert claim.drill.played is not None
            assert sum(i.points for i in claim.drill.peg_items()) == peg_points(
                claim.drill.cards, claim.drill.played
            )
        else:
            assert claim.drill.starter is not None
            assert claim.drill.breakdown().total == show_points(
                claim.drill.cards, claim.drill.starter, crib=claim.drill.kind == "crib"
            )
