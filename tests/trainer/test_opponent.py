"""The computer player: legal choices, the exact discard, the lookahead, whole games, the end."""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.cards import DECK, Card, parse_cards
from trainer.discard import analyze_discards
from trainer.errors import IllegalPlayError
from trainer.items import Kind
from trainer.lookahead import WIN, Ending, PlaySolver, peg_points, tail
from trainer.match import CRIB, HAND, Deal
from trainer.opponent import (
    DiscardView,
    GreedyPolicy,
    PlayView,
    Policy,
    RandomPolicy,
    StrongPolicy,
    reach_chance,
)
from trainer.pegging import play_out, score_peg
from trainer.rules import FIVE_CARD, SIX_CARD, RuleSet
from trainer.selfplay import play_game
from trainer.show import heels, score_show
from trainer.throws import throw_model

POLICIES: list[Policy] = [RandomPolicy(), GreedyPolicy(), StrongPolicy()]


@pytest.fixture(autouse=True, scope="module")
def throw_models() -> None:
    """Build the weighted crib models once, so no timed example pays for the build."""
    throw_model(SIX_CARD)
    throw_model(FIVE_CARD)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def random_play_view(rng: random.Random, rules: RuleSet, scores: tuple[int, int]) -> PlayView:
    """A position of a random play: both hands dealt, some cards played at random."""
    pack = rng.sample(DECK, 2 * rules.dealt + 1)
    size = rules.hand_size
    kept = [pack[0:size], pack[size : 2 * size]]
    thrown = pack[2 * size : 2 * size + rules.discards]
    held = [list(kept[0]), list(kept[1])]
    played: list[Card] = []
    pile: list[Card] = []
    turn = rng.randrange(2)
    for _ in range(rng.randrange(2 * size - 1)):
        fits = [c for c in held[turn] if sum(p.value for p in pile) + c.value <= 31]
        if not fits:
            pile = []
            continue
        card = rng.choice(fits)
        held[turn].remove(card)
        played.append(card)
        pile.append(card)
        turn = 1 - turn
    if not any(sum(p.value for p in pile) + c.value <= 31 for c in held[turn]):
        pile = []
    if not held[turn]:
        turn, pile = 1 - turn, []
    return PlayView(
        held=tuple(held[turn]),
        kept=tuple(kept[turn]),
        thrown=tuple(thrown),
        starter=pack[-1],
        played=tuple(played),
        pile=tuple(pile),
        opponent_held=len(held[1 - turn]),
        dealer=bool(turn),
        scores=scores,
        rules=rules,
    )


# --- legal choices --------------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from([SIX_CARD, FIVE_CARD]),
    st.sampled_from([(0, 0), (110, 117), (55, 58)]),
)
def test_every_policy_throws_cards_it_was_dealt(
    rng: random.Random, rules: RuleSet, scores: tuple[int, int]
) -> None:
    dealt = tuple(rng.sample(DECK, rules.dealt))
    for policy in POLICIES:
        view = DiscardView(dealt, rng.random() < 0.5, scores, rules)
        thrown = policy.discard(view, rng)
        assert len(set(thrown)) == rules.discards
        assert set(thrown) <= set(dealt)


@settings(max_examples=40, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from([SIX_CARD, FIVE_CARD]),
    st.sampled_from([(0, 0), (110, 117), (55, 58)]),
)
def test_every_policy_plays_a_card_that_fits(
    rng: random.Random, rules: RuleSet, scores: tuple[int, int]
) -> None:
    view = random_play_view(rng, rules, scores)
    for policy in POLICIES:
        assert policy.play(view, rng) in view.playable


def test_a_policy_that_plays_past_31_is_refused() -> None:
    class Cheat(RandomPolicy):
        def play(self, view: PlayView, rng: random.Random) -> Card:
            return max(view.held, key=lambda c: c.value)

    with pytest.raises(IllegalPlayError, match="cannot be played"):
        for seed in range(20):
            play_game((Cheat(), RandomPolicy()), random.Random(seed))


# --- the discard ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [SIX_CARD, FIVE_CARD], ids=lambda r: r.name)
@pytest.mark.parametrize("dealer", [True, False])
def test_the_strong_discard_is_the_analysers_best(rules: RuleSet, dealer: bool) -> None:
    rng = random.Random(11)
    for _ in range(10):
        dealt = tuple(rng.sample(DECK, rules.dealt))
        best = analyze_discards(dealt, dealer=dealer, rules=rules, crib_model="weighted")[0]
        view = DiscardView(dealt, dealer, (30, 40), rules)
        assert set(StrongPolicy().discard(view, rng)) == set(best.discard)


def test_the_greedy_discard_keeps_the_best_hand_alone() -> None:
    """5H 5D JS QC 7H 8C: 5 5 J Q is the best hand; the pone keeps the 7 8 from the crib."""
    dealt = cards("5H 5D JS QC 7H 8C")
    view = DiscardView(dealt, dealer=False, scores=(0, 0))
    assert set(GreedyPolicy().discard(view, random.Random(1))) == set(cards("7H 8C"))
    assert set(StrongPolicy().discard(view, random.Random(1))) == set(cards("QC 8C"))


# --- the lookahead --------------------------------------------------------------------------


def brute_force(
    pone: Sequence[Card], dealer: Sequence[Card], order: Sequence[Card], mine: set[Card]
) -> int:
    """The dealer's best net from ``order`` on, both playing their best, by the engine alone.

    Every order of the cards left is scored by :func:`trainer.pegging.play_out` (which refuses
    an illegal one); the orders are walked as a tree, the owner of the next card choosing.
    """
    rest = [c for c in (*pone, *dealer) if c not in order]
    scored = []
    for perm in itertools.permutations(rest):
        try:
            pegs = play_out(pone, dealer, [*order, *perm])
        except IllegalPlayError:
            continue
        scored.append((perm, sum(p.points if p.player == 1 else -p.points for p in pegs)))

    def best(group: list[tuple[tuple[Card, ...], int]], depth: int) -> int:
        if depth == len(rest):
            return group[0][1]
        by_card: dict[Card, list[tuple[tuple[Card, ...], int]]] = {}
        for perm, net in group:
            by_card.setdefault(perm[depth], []).append((perm, net))
        values = [best(g, depth + 1) for g in by_card.values()]
        return max(values) if next(iter(by_card)) in mine else min(values)

    return best(scored, 0)


def dealer_choice_values(
    pone_played: Sequence[Card], dealer: Sequence[Card], thrown: Sequence[Card], starter: Card
) -> tuple[PlayView, dict[Card, float]]:
    """The dealer to play after P D P D P, the pone holding one card: each card's average."""
    order = [pone_played[0], dealer[0], pone_played[1], dealer[1], pone_played[2]]
    held = dealer[2:]
    unseen = [c for c in DECK if c not in {*dealer, *thrown, starter, *pone_played}]
    values = {
        card: statistics.mean(
            brute_force([*pone_played, last], dealer, [*order, card], set(dealer))
            for last in unseen
        )
        for card in held
    }
    view = PlayView(
        tuple(held),
        tuple(dealer),
        tuple(thrown),
        starter,
        tuple(order),
        tuple(order),
        1,
        True,
        (0, 0),
    )
    return view, values


def test_the_lookahead_gives_up_five_now_for_more_later() -> None:
    """Q 5 4 led, A 3 answered (count 23): 2♠ pegs a run of five, 6♦ a run of four and then
    the 2 makes 31 whatever the pone's last card: the brute force and the policy agree."""
    view, values = dealer_choice_values(
        cards("QS 5S 4S"), cards("AS 3S 6D 2S"), cards("2D 2H"), Card.parse("10S")
    )
    two, six = Card.parse("2S"), Card.parse("6D")
    assert peg_points((12, 1, 5, 3, 4), 2) == 5 > peg_points((12, 1, 5, 3, 4), 6) == 4
    assert values[six] > values[two] + 1
    assert StrongPolicy().play(view, random.Random(0)) == six
    assert GreedyPolicy().play(view, random.Random(0)) == two


def test_the_lookahead_agrees_with_the_brute_force_in_random_positions() -> None:
    rng = random.Random(8)
    checked = 0
    while checked < 4:
        pack = rng.sample(DECK, 10)
        pone, dealer, thrown, starter = pack[:3], pack[3:7], pack[7:9], pack[9]
        order = [pone[0], dealer[0], pone[1], dealer[1], pone[2]]
        count = sum(c.value for c in order)
        held = dealer[2:]
        if count > 31 or held[0].rank == held[1].rank or count + max(c.value for c in held) > 31:
            continue
        view, values = dealer_choice_values(pone, dealer, thrown, starter)
        (low, _), (high, high_card) = sorted((v, c) for c, v in values.items())
        if high - low < 0.01:
            continue
        assert StrongPolicy().play(view, random.Random(0)) == high_card
        checked += 1


def test_the_solver_scores_ranks_as_the_engine_scores_cards() -> None:
    rng = random.Random(3)
    low = [c for c in DECK if c.rank <= 8]
    for _ in range(3000):
        pile: list[Card] = []
        for card in rng.sample(low if rng.random() < 0.7 else list(DECK), 9):
            if sum(c.value for c in pile) + card.value > 31:
                break
            pile.append(card)
        *before, card = pile
        ranks = tuple(int(c.rank) for c in before)
        engine = sum(i.points for i in score_peg(before, card))
        count = sum(c.value for c in pile)
        assert peg_points(ranks, card.rank) == engine
        assert peg_points(tail(ranks), card.rank, count) == engine


def test_the_solver_takes_the_31_it_can_see() -> None:
    """Count 25, holding 6 and 2 against a 4: the 6 makes 31 (+2); the 2 lets the 4 make 31."""
    solver = PlaySolver(one_count=False)
    pile = (10, 10, 5)
    assert solver.after((2, 6), (4,), pile, 25, 6) > solver.after((2, 6), (4,), pile, 25, 2)


# --- the end of the game --------------------------------------------------------------------


def test_near_the_end_the_discard_keeps_what_it_needs() -> None:
    """The pone at 117 needs 4: K K 6 6 (two pairs, 4 whatever the starter) over the best
    expected 6 6 K 8, which counts 4 only 59 % of the time."""
    dealt = cards("KC 6S 10D 6H KH 8C")
    best = analyze_discards(dealt, dealer=False, crib_model="weighted")[0]
    assert set(best.keep) == set(cards("6S 6H KH 8C"))
    view = DiscardView(dealt, dealer=False, scores=(117, 100))
    thrown = StrongPolicy().discard(view, random.Random(0))
    assert set(thrown) == set(cards("10D 8C"))
    kept = [o for o in analyze_discards(dealt, dealer=False) if set(o.discard) == set(thrown)]
    assert reach_chance(kept[0], view) == 1.0 > reach_chance(best, view)
    early = DiscardView(dealt, dealer=False, scores=(17, 0))
    assert set(StrongPolicy().discard(early, random.Random(0))) == set(best.discard)


def test_near_the_end_the_play_pegs_out() -> None:
    """Q led, the dealer at 119 holds 7 K 4 5: the 5 makes fifteen and the game; at 0 the
    dealer keeps the 5 for later and plays the 7."""
    dealer = cards("7H KD 4D 5S")
    led = cards("QH")

    def view(scores: tuple[int, int]) -> PlayView:
        return PlayView(dealer, dealer, cards("8H KC"), Card.parse("3H"), led, led, 3, True, scores)

    assert StrongPolicy().play(view((119, 100)), random.Random(1)) == Card.parse("5S")
    assert StrongPolicy().play(view((0, 0)), random.Random(1)) == Card.parse("7H")


def test_an_ending_counts_the_show_in_its_order() -> None:
    """The pone at 115 counts 6 first and wins, though the dealer would count 20."""
    ending = Ending(121, (115, 118), (6, 20), root_is_pone=True)
    assert ending.show_net(115, 118) == WIN
    assert ending.show_net(114, 118) == -WIN
    assert Ending(121, (0, 0), (6, 20), root_is_pone=True).show_net(90, 80) == 6 - 20


# --- whole games ----------------------------------------------------------------------------


def tally(deal: Deal, rules: RuleSet) -> list[tuple[int, int, str]]:
    """The deal's scores worked out again from its cards: heels, the play, the show."""
    pone, dealer = 1 - deal.dealer, deal.dealer
    seat_of = {0: pone, 1: dealer}
    scores = [(dealer, heels(deal.starter), Kind.HEELS.value)]
    order = [card for _, card in deal.plays]
    for peg in play_out(deal.kept[pone], deal.kept[dealer], order):
        scores += [(seat_of[peg.player], i.points, i.kind.value) for i in peg.items]
    for seat in (pone, dealer):
        scores.append((seat, score_show(deal.kept[seat], deal.starter, rules=rules).total, HAND))
    crib = [
        c for hand, kept in zip(deal.dealt, deal.kept, strict=True) for c in hand if c not in kept
    ]
    scores.append((dealer, score_show(crib, deal.starter, crib=True, rules=rules).total, CRIB))
    return [s for s in scores if s[1]]


@pytest.mark.parametrize("seed", range(3))
def test_a_games_scores_are_the_engines_items(seed: int) -> None:
    rng = random.Random(seed)
    game = play_game((StrongPolicy(), POLICIES[seed % 2]), rng, first_dealer=seed % 2)
    totals = [0, 0]
    for number, deal in enumerate(game.deals):
        pegged = [(p.seat, p.points, p.what) for p in deal.pegged]
        expected = tally(deal, SIX_CARD)
        if number < len(game.deals) - 1:
            assert pegged == expected
        else:  # the game ends at the score that reaches 121
            assert pegged == expected[: len(pegged)]
        for seat, points, _ in pegged:
            totals[seat] += points
        assert deal.dealer == (seed % 2 + number) % 2
    assert tuple(min(total, 121) for total in totals) == game.scores  # pegged out in the hole
    assert game.scores[game.winner] == 121 > game.scores[1 - game.winner]
    assert totals[game.winner] - 121 < game.deals[-1].pegged[-1].points


def test_the_five_card_play_is_one_count() -> None:
    """To 61 with three for last; every play stops at its first go or 31."""
    game = play_game((RandomPolicy(), RandomPolicy()), random.Random(4), rules=FIVE_CARD)
    assert game.deals[0].pegged[0].what == "three for last"
    assert max(game.scores) >= 61
    ended = 0
    for deal in game.deals[:-1]:
        ends = [p for p in deal.pegged if p.what in (Kind.GO.value, Kind.THIRTY_ONE.value)]
        last = [p for p in deal.pegged if p.what == Kind.LAST_CARD.value]
        assert len(ends) + len(last) == 1
        total = sum(c.value for _, c in deal.plays)
        assert total <= 31
        ended += bool(ends) and len(deal.plays) < 6
    assert ended


def test_a_seeded_game_is_replayed_exactly() -> None:
    one = play_game((StrongPolicy(), GreedyPolicy()), random.Random(5))
    two = play_game((StrongPolicy(), GreedyPolicy()), random.Random(5))
    assert one == two
