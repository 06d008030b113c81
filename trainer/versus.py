"""A game against the computer: the player counts his own cards, the computer takes what he misses.

The player (seat 0) discards, plays and says what each card pegs and what each of his hands and
cribs counts; the computer (seat 1, :class:`trainer.opponent.StrongPolicy`) does the same for its
own, always exactly. A claim over the count is refused (and kept for the review); one under it
pegs what was claimed, and with muggins on (the rule books' default) the computer takes the rest,
said as the items missed. Heels, the go and the last card peg by themselves. The first to the
game's end wins at once; the review (:meth:`VersusGame.review`) then sets every discard against
the best one and lists what was overlooked.

A game is its :class:`Setup` and its moves, both seats' (:meth:`VersusGame.to_json`): replaying
them (:meth:`VersusGame.from_json`) deals the same cards and never asks the computer again.

>>> game = VersusGame(Setup(seed=4))
>>> game.waiting, len(game.hand)
('discard', 6)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .cards import DECK, Card, as_card, parse_cards
from .dealing import CountShown, Deal, Difficulty
from .discard import analyze_discards
from .errors import IllegalPlayError, InvalidAnswerError
from .game import LURCH_LINES
from .grading import MOST_PEG, MOST_SHOW, explain_shortfall, ways_to_make
from .items import ScoreItem
from .match import CRIB, MUGGINS, Match, Played, Shown
from .opponent import StrongPolicy
from .rules import FIVE_CARD, SIX_CARD, RuleSet
from .show import heels, spoken_count

PLAYER, COMPUTER = 0, 1
"""The seats: the player's and the computer's."""
NAMES = ("you", "the computer")
"""How the log names each seat."""
RULES: dict[str, RuleSet] = {r.name: r for r in (SIX_CARD, FIVE_CARD)}
"""The rule sets a game against the computer is played by."""
Waiting = Literal["discard", "play", "count", "over"]
"""What the game waits for from the player."""
_STRONG = StrongPolicy()


@dataclasses.dataclass(frozen=True)
class Setup:
    """How a game is set up.

    Raises:
        InvalidAnswerError: for an unknown rule set or level, or a game not of 61 or 121.
    """

    seed: int
    """Deals the cut and every deal (a game replayed from its moves deals the same)."""
    rules: str = SIX_CARD.name
    """``"six-card"`` or ``"five-card"``."""
    game: int | None = None
    """Points to win, 61 or 121 (the rule set's own when ``None``: 121 six-card, 61 five-card)."""
    level: Difficulty = Difficulty.STANDARD
    """At beginner the count of the play is told as it goes; at standard and dense it is not,
    and at dense the cards of the count are not shown either: the player keeps it."""
    muggins: bool = True
    """Whether the computer takes what the player overlooks (the rule books' default)."""

    def __post_init__(self) -> None:
        if self.rules not in RULES:
            raise InvalidAnswerError(
                f"a game against the computer is six-card or five-card, not {self.rules!r}"
            )
        if self.game not in (None, *LURCH_LINES):
            raise InvalidAnswerError(f"a game is 61 or 121 points, not {self.game!r}")

    @property
    def rule_set(self) -> RuleSet:
        """The rule set, with the game's end."""
        rules = RULES[self.rules]
        return rules if self.game is None else dataclasses.replace(rules, game=self.game)

    def to_json(self) -> dict[str, Any]:
        """The set-up as plain JSON."""
        return {
            "seed": self.seed,
            "rules": self.rules,
            "game": self.rule_set.game,
            "level": self.level.value,
            "muggins": self.muggins,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        """The set-up :meth:`to_json` wrote."""
        return cls(
            int(data["seed"]),
            str(data["rules"]),
            int(data["game"]),
            Difficulty(data["level"]),
            bool(data["muggins"]),
        )


@dataclasses.dataclass(frozen=True)
class Said:
    """A line of the game's log."""

    deal: int
    """The deal it belongs to (0 for the cut)."""
    seat: int | None
    """Who it is about (``None`` for the table)."""
    text: str
    """What happened, in words."""
    points: int = 0
    """What the seat pegged with it."""
    played: Card | None = None
    """The card the line says was played, for a card played."""


@dataclasses.dataclass(frozen=True)
class Overlooked:
    """Points the player did not claim."""

    deal: int
    """The deal."""
    what: str
    """``"hand"``, ``"crib"`` or the card played (``"7♣"``)."""
    claimed: int
    """What he claimed."""
    due: int
    """What it counted."""
    items: tuple[ScoreItem, ...]
    """The likeliest items missed (:func:`trainer.grading.explain_shortfall`)."""
    certain: bool
    """Whether those are the only items that add up to what was missed."""
    taken: bool
    """Whether the computer took them (muggins)."""

    @property
    def missed(self) -> int:
        """Points overlooked."""
        return self.due - self.claimed

    def words(self) -> str:
        """The items missed, as a player says them: certain, or the likeliest.

        Just the points when no items add up to them (one point of a pair's two):

        >>> Overlooked(1, "hand", 1, 2, (), False, True).words()
        '1 point'
        """
        items = ", ".join(str(item) for item in self.items)
        points = f"{self.missed} point{'s' if self.missed != 1 else ''}"
        if not self.items:
            return points
        return items if self.certain else f"{points}, likely {items}"


@dataclasses.dataclass(frozen=True)
class Claim:
    """A count the player said: his first word on a card or a show (a refused claim counts)."""

    drill: Deal
    """What he counted, as the drill of it (for the weak spots, like a drill answer)."""
    claimed: int
    """What he said."""


@dataclasses.dataclass(frozen=True)
class Refused:
    """A claim over the count, refused."""

    deal: int
    """The deal."""
    what: str
    """``"hand"``, ``"crib"`` or the card played."""
    claimed: int
    """What was claimed."""


@dataclasses.dataclass(frozen=True)
class DiscardReview:
    """The player's discard of one deal set against the best one."""

    deal: int
    """The deal."""
    dealt: tuple[Card, ...]
    """The cards dealt to him."""
    dealer: bool
    """Whether the crib was his."""
    thrown: tuple[Card, ...]
    """What he threw."""
    best: tuple[Card, ...]
    """The throw with the best expected points (the computer's crib model)."""
    lost: float
    """Expected points given away by his throw (0 when it was the best)."""


@dataclasses.dataclass(frozen=True)
class Review:
    """What the player gave away over the game."""

    discards: tuple[DiscardReview, ...]
    """Every discard, in order."""
    overlooked: tuple[Overlooked, ...]
    """Every undercount, in the play and the show."""
    refused: tuple[Refused, ...]
    """Every claim over the count."""

    @property
    def discard_points(self) -> float:
        """Expected points given away in the discards."""
        return sum(d.lost for d in self.discards)

    @property
    def overlooked_points(self) -> int:
        """Points not claimed."""
        return sum(o.missed for o in self.overlooked)

    def summary(self) -> str:
        """The review in one line.

        >>> Review((), (), ()).summary()
        'you gave away nothing: every discard was the best and every count right'
        """
        discards, overlooked = _points(self.discard_points), self.overlooked_points
        if discards == "0" and not overlooked:
            return "you gave away nothing: every discard was the best and every count right"
        total = _points(self.discard_points + overlooked)
        return f"you gave away {total} points: {discards} in discards, {overlooked} overlooked"


class VersusGame:
    """A game against the computer, from its set-up and its moves so far.

    Args:
        setup: the rules, the level, muggins and the seed.
        moves: moves :meth:`to_json` kept, both seats', replayed without asking the computer.

    Raises:
        IllegalPlayError: for moves that do not replay.
    """

    def __init__(self, setup: Setup, moves: Sequence[Mapping[str, Any]] = ()) -> None:
        self.setup = setup
        self.rules = setup.rule_set
        rng = random.Random(setup.seed)
        self.cut = _cut(rng)
        self.match = Match(self.rules, rng, first_dealer=int(self.cut[1].rank < self.cut[0].rank))
        self.moves: list[dict[str, Any]] = []
        self.log: list[Said] = []
        self.overlooked: list[Overlooked] = []
        self.refused: list[Refused] = []
        self.thrown: list[tuple[Card, ...]] = []
        self.claims: list[Claim] = []
        self._reclaim = False
        self._said_deal = 0
        self._number = 1
        mine, theirs = self.cut
        self._say(
            None,
            f"the cut: you {mine.unicode()}, the computer {theirs.unicode()}; "
            f"the lower card deals: {_does(self.match.dealer, 'deal')} first",
        )
        if self.match.scores[self.match.pone]:
            pone = self.match.pone
            self._say(pone, f"three for last: 3 to {NAMES[pone]}", self.match.scores[pone])
        self._said_new_deal()
        for move in moves:
            self._apply(int(move["seat"]), move)
        self._computer()

    # What the player sees.

    @property
    def deal_number(self) -> int:
        """The deal in progress, or the last one once the game is over (1 for the first)."""
        return len(self.match.deals) + (self.match.winner is None)

    @property
    def waiting(self) -> Waiting:
        """What the game waits for from the player."""
        phase = self.match.phase
        return "count" if phase == "show" else phase

    @property
    def hand(self) -> tuple[Card, ...]:
        """The player's cards: dealt, held in the play, or kept for the show."""
        match = self.match
        if match.phase == "discard":
            return match.dealt[PLAYER]
        return tuple(match.held[PLAYER]) if match.phase == "play" else match.kept[PLAYER]

    @property
    def counting(self) -> tuple[str, tuple[Card, ...]] | None:
        """What the player counts now: ``"hand"`` or ``"crib"``, and its cards."""
        if self.waiting != "count":
            return None
        _, what, cards = self.match.next_show
        return what, cards

    @property
    def lurched(self) -> bool:
        """Whether the loser of a finished game stopped short of the lurch line (two games)."""
        winner = self.match.winner
        if winner is None:
            return False
        return self.match.scores[1 - winner] < LURCH_LINES[self.rules.game]

    # The player's moves: each returns the lines of the log it brought.

    def throw(self, cards: Sequence[Card | str] | str) -> list[Said]:
        """The player throws ``cards`` to the crib."""
        return self._move({"do": "throw", "cards": [str(c) for c in _cards(cards)]})

    def play(self, card: Card | str, claim: int) -> list[Said]:
        """The player plays ``card``, claiming ``claim`` points for it (0 for none)."""
        return self._move(
            {"do": "play", "card": str(as_card(card)), "claim": _claim(claim, MOST_PEG)}
        )

    def count(self, claim: int) -> list[Said]:
        """The player claims ``claim`` for the hand or crib he counts now."""
        return self._move({"do": "count", "claim": _claim(claim, MOST_SHOW)})

    # The review.

    def review(self) -> Review:
        """Every discard against the best, every count missed, every claim refused."""
        discards = []
        deals = [*self.match.deals, self.match.record()][: len(self.thrown)]
        for number, (deal, thrown) in enumerate(zip(deals, self.thrown, strict=True), start=1):
            dealer, dealt = deal.dealer == PLAYER, deal.dealt[PLAYER]
            options = analyze_discards(
                dealt, dealer=dealer, rules=self.rules, crib_model="weighted"
            )
            chosen = next(o for o in options if set(o.discard) == set(thrown))
            lost = max(0.0, options[0].net_ev - chosen.net_ev)
            discards.append(DiscardReview(number, dealt, dealer, thrown, options[0].discard, lost))
        return Review(tuple(discards), tuple(self.overlooked), tuple(self.refused))

    def to_json(self) -> dict[str, Any]:
        """The set-up and every move, both seats', as plain JSON."""
        return {"setup": self.setup.to_json(), "moves": list(self.moves)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VersusGame:
        """The game :meth:`to_json` wrote, replayed."""
        return cls(Setup.from_json(data["setup"]), data["moves"])

    # Inside.

    def _move(self, move: dict[str, Any]) -> list[Said]:
        start = len(self.log)
        self._apply(PLAYER, move)
        self._computer()
        return self.log[start:]

    def _computer(self) -> None:
        """The computer's moves until the player's turn, or the game's end."""
        match = self.match
        while match.winner is None:
            rng = random.Random(f"{self.setup.seed}:{len(self.moves)}")
            if match.phase == "discard" and not match.thrown[COMPUTER]:
                cards = _STRONG.discard(match.discard_view(COMPUTER), rng)
                self._apply(COMPUTER, {"do": "throw", "cards": [str(c) for c in cards]})
            elif match.phase == "play" and match.turn == COMPUTER:
                card = _STRONG.play(match.play_view(COMPUTER), rng)
                self._apply(COMPUTER, {"do": "play", "card": str(card)})
            elif match.phase == "show" and match.next_show[0] == COMPUTER:
                self._apply(COMPUTER, {"do": "count"})
            else:
                return

    def _apply(self, seat: int, move: Mapping[str, Any]) -> None:
        """Apply and log one move of ``seat``'s; a claim over the count is kept, not applied.

        Raises:
            IllegalPlayError: for a move the rules forbid (nothing changes then).
        """
        match = self.match
        if match.winner is not None:
            raise IllegalPlayError("the game is over")
        self._number = self.deal_number
        do, claim = move.get("do"), move.get("claim")
        if do == "throw":
            self._throw(seat, _cards(move["cards"]))
        elif do == "play":
            card = as_card(move["card"])
            due = sum(i.points for i in match.card_scores(seat, card))
            if seat == COMPUTER:
                self._log_card(match.play(seat, card))
            else:
                said = _claim(claim, MOST_PEG)
                pile = tuple(match.pile)
                if self._claimed(
                    Deal("pegging", pile, played=card, count_shown=self._shown), said, due
                ):
                    self._log_card(match.play(seat, card, said))
                else:
                    self._refuse(card.unicode(), said)
        elif do == "count":
            breakdown = match.show_due()
            _, what, cards = match.next_show
            assert match.starter is not None
            if seat == COMPUTER:
                self._log_show(match.show())
            else:
                said = _claim(claim, MOST_SHOW)
                drill = Deal("crib" if what == CRIB else "hand", cards, match.starter)
                if self._claimed(drill, said, breakdown.total):
                    self._log_show(match.show(said))
                else:
                    self._refuse(f"your {what}", said)
        else:
            raise IllegalPlayError(f"unknown move {do!r}: throw, play or count")
        self.moves.append({"seat": seat, **move})
        if match.winner is not None:
            self._say_end()
        else:
            self._said_new_deal()

    def _throw(self, seat: int, cards: tuple[Card, ...]) -> None:
        match = self.match
        match.discard(seat, cards)
        whose = "your crib" if match.dealer == PLAYER else "the computer's crib"
        if seat == PLAYER:
            self.thrown.append(cards)
            self._say(PLAYER, f"you throw {_words(cards)} to {whose}")
        else:
            self._say(COMPUTER, f"the computer throws two cards to {whose}")
        starter = match.starter
        if starter is not None:
            if heels(starter):
                self._say(
                    match.dealer,
                    f"the starter is {starter.unicode()}: his heels, 2 to {NAMES[match.dealer]}",
                    heels(starter),
                )
            else:
                self._say(None, f"the starter is {starter.unicode()}")

    @property
    def _shown(self) -> CountShown:
        """What the pegging drill of a card of this game shows of the count."""
        return "after" if self.setup.level is Difficulty.BEGINNER else "before"

    def _claimed(self, drill: Deal, claim: int, due: int) -> bool:
        """Keep the player's first claim on a card or a show; whether it stands (not over)."""
        if not self._reclaim:
            self.claims.append(Claim(drill, claim))
        self._reclaim = claim > due
        return not self._reclaim

    def _refuse(self, what: str, claim: int) -> None:
        self.refused.append(Refused(self._number, what, claim))
        self._say(PLAYER, f"{claim} for {what} is over the count: refused; count again")

    def _log_card(self, played: Played) -> None:
        seat, due = played.seat, sum(i.points for i in played.items)
        text = f"{_does(seat, 'play')} {played.card.unicode()}"
        if self.setup.level is Difficulty.BEGINNER:
            text += f" for {played.count}"
        if seat == PLAYER:
            text += f", and claim {played.pegged}" + (" ✔" if played.pegged == due else "")
        elif due:
            text += ": " + ", ".join(str(item) for item in played.items)
        self._say(seat, text, played.pegged, played.card)
        if played.pegged < due:
            self._overlooked(played.card.unicode(), played.pegged, played.items)
        if played.stuck is not None:
            self._say(played.stuck, f"{_does(played.stuck, 'say')} go")
        for went in played.went:
            self._say(went.seat, f"{went.what}: 1 to {NAMES[went.seat]}", went.points)

    def _log_show(self, shown: Shown) -> None:
        seat, total = shown.seat, shown.breakdown.total
        whose = "your" if seat == PLAYER else "the computer's"
        text = f"{whose} {shown.what}, {_words(shown.cards)}: "
        if seat == PLAYER:
            text += f"you claim {shown.pegged}" + (" ✔" if shown.pegged == total else "")
        else:
            text += spoken_count(shown.breakdown.items)
        self._say(seat, text, shown.pegged)
        if shown.pegged < total:
            self._overlooked(shown.what, shown.pegged, shown.breakdown.items)

    def _overlooked(self, what: str, claimed: int, items: tuple[ScoreItem, ...]) -> None:
        due = sum(i.points for i in items)
        missed = explain_shortfall(items, due - claimed)
        certain = ways_to_make(items, due - claimed) == 1
        taken = self.setup.muggins and self.match.winner is None
        found = Overlooked(self._number, what, claimed, due, missed, certain, taken)
        self.overlooked.append(found)
        if taken:
            self.match.peg(COMPUTER, found.missed, MUGGINS)
            self._say(COMPUTER, f"muggins: {found.words()}, to the computer", found.missed)
        else:
            self._say(PLAYER, f"you missed {found.words()}")

    def _said_new_deal(self) -> None:
        if self.deal_number != self._said_deal:
            self._said_deal = self._number = self.deal_number
            self._say(
                self.match.dealer, f"deal {self.deal_number}: {_does(self.match.dealer, 'deal')}"
            )

    def _say_end(self) -> None:
        winner = self.match.winner
        if winner is None or any(line.text.startswith("Game:") for line in self.log):
            return
        scores = self.match.scores
        text = f"game: {_does(winner, 'win')} {scores[winner]}–{scores[1 - winner]}"
        self._say(winner, text + (", a lurch: two games" if self.lurched else ""))

    def _say(
        self, seat: int | None, text: str, points: int = 0, played: Card | None = None
    ) -> None:
        self.log.append(Said(self._number, seat, text[0].upper() + text[1:], points, played))


def _does(seat: int, verb: str) -> str:
    """``you deal`` or ``the computer deals``."""
    return f"you {verb}" if seat == PLAYER else f"the computer {verb}s"


def _cut(rng: random.Random) -> tuple[Card, Card]:
    """Each seat cuts a card, the player first, again while the ranks tie; the lower deals."""
    while True:
        mine, theirs = rng.sample(DECK, 2)
        if mine.rank != theirs.rank:
            return mine, theirs


def _words(cards: Sequence[Card]) -> str:
    return " ".join(c.unicode() for c in cards)


def _points(points: float) -> str:
    """Points to one decimal, a whole number without it: ``'6'``, ``'5.7'``."""
    text = f"{points:.1f}"
    return text.removesuffix(".0")


def _cards(cards: Sequence[Card | str] | str) -> tuple[Card, ...]:
    return tuple(parse_cards(cards)) if isinstance(cards, str) else tuple(map(as_card, cards))


def _claim(claim: object, top: int) -> int:
    """A claim: a whole number of points from 0 to ``top``.

    Raises:
        InvalidAnswerError: for anything else.
    """
    if isinstance(claim, bool) or not isinstance(claim, int) or not 0 <= claim <= top:
        raise InvalidAnswerError(f"a claim is a whole number of points from 0 to {top}")
    return claim
