"""A game kept on a cribbage board: the pegs, the show order, counting out and the lurch.

Pure and deterministic: a :class:`Game` is an immutable state together with the append-only
log of the moves that made it, and each move returns a new game. The cards are not tracked,
only what the players peg; :mod:`trainer.pegging` and :mod:`trainer.show` score the cards.

The rules, from the rule books in ``shared/seeds``:

* **The board** (Drueke's booklet, 002): "Two pegs for each player should be used. Each hole
  counts one point and when the second count is made instead of counting with the peg first
  used, the second peg should be used. After this the holes should be pegged by moving the rear
  peg ahead of the other." So the front peg is the score and the back peg the score before the
  last count (:class:`Pegs`).
* **Game and lurch** (002): "GAME consists of 61 or 121 points. If the winner reaches 61 before
  his opponent gets 31, or 121 before the opponent gets 91, this is called a "Lurch" and is
  considered as two games won." The first side to reach the end wins at once, in the play or
  the show; points beyond the end are not kept (the front peg stops in the game hole).
* **Three for last** (the five-card game, 001): "In the first hand of a new game, the
  non-dealer counts three at starting, as a sort of set-off against the possession of crib by
  the dealer." Pegged for the first non-dealer when a five-card game is set up; no seed gives
  it to the six-card, three- or four-hand games.
* **His heels** (000): "If starter is a jack (called His Heels) dealer scores 2 points
  immediately. These points must be scored before dealer plays a card, otherwise he cannot
  score them." (002 calls it "His Nobs".) Pegged by the dealer, 2 points, once a deal, until
  the dealer has played or pegged in the play; the starter of the deal's counts is then a jack.
* **The show** (001, 003): the non-dealer ("pone") counts first ("the elder one scoring
  four"), the dealer next, then "the crib is added up by the dealer". With three or four
  players (no seed says) the hands are counted in turn from the dealer's left, as the play
  goes, the dealer's last. A count from its cards is of the deal's cards: one starter, no card
  in two places, each hand holding the cards its seat played (:meth:`Game.show`).
* **The play**, pegged by the buttons, is not checked turn by turn: any seat may peg, for any
  reason (a go, a penalty, points an opponent overlooked: "his opponent is entitled to take
  it", 002). Or the cards are entered one by one (:meth:`Game.play`), in turn:
  :func:`trainer.pegging.score_peg` scores each on the count, a player is passed over only if
  he may hold only cards too high, a go ends the count (:meth:`Game.go`: one to the last card's
  player), and the last card of the play pegs one for last unless it made 31. The five-card
  play is one count (:attr:`RuleSet.one_count`): "each player's hand is then counted up" (001).
* **Muggins** (:attr:`Setup.muggins`, on in the rule books): points a player overlooked in his
  hand or crib are taken by an opponent, pegged for him in the show (:meth:`Game.muggins`).
* **Misdeals** (000): "a new deal by same dealer, but previous scores ... are not affected";
  a deal out of turn "must stand" once the pone has taken up his cards (:meth:`next_deal`).
* **The deal** passes to the left, the next seat; four players sit in two partnerships, seats
  0 and 2 against 1 and 3, each partnership pegging on one side of the board.

>>> game = Game.new("six-card", ["Ann", "Bob"], first_dealer=0)
>>> game = game.peg(0, 2, "his heels").peg(1, 2, "fifteen two").peg(1, 1, "go")
>>> game.board[1]
Pegs(front=3, back=2)
>>> game = game.show(1, 8).show(0, 12).show("crib", 4).next_deal()
>>> game.scores, game.dealer, game.next_to_show
((18, 11), 1, 0)
"""

from __future__ import annotations

import bisect
import dataclasses
import enum
import itertools
import operator
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from .cards import DECK, Card, as_card
from .errors import CribbageError
from .items import Kind, ScoreItem, number_words
from .pegging import GO, ONE_COUNT_RULE, score_peg
from .rules import FIVE_CARD, RuleSet, get_rules

CRIB: Literal["crib"] = "crib"
"""The crib, as :meth:`Game.show` is told it (the dealer counts it for his side)."""
ShowTarget = int | Literal["crib"]
"""What is shown: a seat's hand, or the crib."""

GAME_LENGTHS = (61, 121)
"""The games the rule book knows: "GAME consists of 61 or 121 points" (002)."""
LURCH_LINES: dict[int, int] = {61: 31, 121: 91}
"""The score a loser must reach not to be lurched: 31 in a game of 61, 91 in one of 121 (002);
the line is drawn after hole 30 or 90 (the "skunk line" of later players)."""
DOUBLE_SKUNK_LINES: dict[int, int] = {121: 61}
"""Later players' double skunk: a loser who has not reached 61 in a game of 121 (no seed)."""
MAX_SHOW = 29
"""No hand or crib counts more than 29."""
CHECKPOINT_EVERY = 32
"""Records of the log between the games kept for :meth:`Game.undo` to replay from
(:attr:`Game.checkpoints`): undoing the last move replays fewer than 32 records, at move 1,000
as at move 10. The game before each move would cost no replay at all, but each would hold its
own log (half a million references in a game of 1,000 moves, and a process keeps 256 games);
a checkpoint holds no log, so a game of 1,000 moves keeps 31 small states."""
HEELS = "his heels"
"""The reason for a jack turned as starter: 2 to the dealer."""
HEELS_REASONS = frozenset({HEELS, "two for his heels", "heels", "his nobs"})
"""Reasons read as his heels (002 calls the starter jack "His Nobs"), in any case."""
GO_REASONS = frozenset({GO, "one for the go"})
"""Reasons read as the go, in any case: with the play entered card by card, it ends the count."""
CARD_PEGS = frozenset({"31", "thirty-one", "last card", "one for last"})
"""Reasons the play entered card by card pegs by itself: never pegged again by hand."""
DOUBLE_SKUNK_GAMES = (2, 4)
"""What a double skunk may count: two games like any lurch (the rule books know no double
lurch), or four (later players' custom)."""
MISDEAL = "a misdeal"
"""How the log begins a deal dealt again by the same dealer."""
OUT_OF_TURN = "a deal out of turn"
"""How the log begins a deal that stands though dealt by another than the seat due."""
THREE_FOR_LAST = "three for last"
"""The reason for the five-card game's three to the first non-dealer."""
THREE_FOR_LAST_POINTS = 3
"""Three for last: "the non-dealer counts three at starting" (001)."""
PLAYED = tuple[tuple[int, Card], ...]
"""Cards played in the play, each with the seat that played it, oldest first."""
_SAID = {
    Kind.FIFTEEN: "fifteen two",
    Kind.THIRTY_ONE: "thirty-one for two",
    Kind.PAIR: "a pair for two",
    Kind.PAIR_ROYAL: "a pair royal for six",
    Kind.DOUBLE_PAIR_ROYAL: "a double pair royal for twelve",
    Kind.LAST_CARD: "one for last",
}
"""What a player says pegging each kind of item (a run: "a run of four")."""
_DEAL_OF = operator.attrgetter("deal")


class GameError(CribbageError):
    """A move the game cannot take: out of turn, out of order, or after the game is over."""


class Phase(enum.Enum):
    """When a move was made, and what kind it is."""

    START = "start"
    """Set-up: the five-card game's three for last (cannot be undone)."""
    PLAY = "play"
    """A peg during the play (his heels included): :meth:`Game.peg`."""
    SHOW = "show"
    """A hand or the crib counted: :meth:`Game.show`."""
    DEAL = "deal"
    """The deal passed to the left: :meth:`Game.next_deal`."""
    MUGGINS = "muggins"
    """Points overlooked in a count, taken by an opponent in the show: :meth:`Game.muggins`."""


@dataclasses.dataclass(frozen=True)
class Pegs:
    """A side's two pegs: ``front`` is the score, ``back`` the score before the last count.

    >>> Pegs().moved(5, home=121).moved(3, home=121)
    Pegs(front=8, back=5)
    >>> Pegs(118, 110).moved(6, home=121)
    Pegs(front=121, back=118)
    """

    front: int = 0
    back: int = 0

    def moved(self, points: int, *, home: int) -> Pegs:
        """The pegs after ``points``: the back peg leapfrogs the front one, stopping at home."""
        return Pegs(min(self.front + points, home), self.front)


@dataclasses.dataclass(frozen=True)
class Record:
    """One move in the log: who scored, how much, why, in which deal and phase."""

    phase: Phase
    """When: the start, the play, the show, or the deal passing."""
    deal: int
    """The deal it belongs to, from 1 (a deal's passing belongs to the new deal)."""
    seat: int
    """Who pegged: the seat (the crib: the dealer; a deal's passing: the new dealer)."""
    side: int
    """The side the points went to (the seat's partnership in four-hand)."""
    points: int = 0
    """Points claimed (0 for a hand that counts nothing, and for a deal's passing)."""
    reason: str = ""
    """What for: "fifteen two", "go", "31", "his heels", a hand's count, or free text."""
    crib: bool = False
    """Whether a show is the crib's."""
    pegged: int = 0
    """Holes the front peg moved: fewer than ``points`` when it reached the game hole."""
    card: str = ""
    """In the play entered card by card: the card played (``"5H"``), or ``"go"``."""
    cards: str = ""
    """In a show counted from its cards: the cards and the starter, ``"5H 5D 5C JS | 5S"``."""

    def to_json(self) -> dict[str, Any]:
        """The record as JSON, with ``phase`` by name."""
        data = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        data["phase"] = self.phase.value
        return data


@dataclasses.dataclass(frozen=True)
class Setup:
    """What a game is played with: the rules, the players, the first dealer, the length."""

    rules: RuleSet
    names: tuple[str, ...]
    """Each seat's player, in seating order (the next seat is on the left)."""
    first_dealer: int = 0
    length: int = 121
    """Points to win: 61 or 121."""
    muggins: bool = False
    """Whether points overlooked in a count may be taken by an opponent (:meth:`Game.muggins`)."""
    double_skunk_games: int = 2
    """Games a double skunk counts (:data:`DOUBLE_SKUNK_GAMES`): 2 like a lurch, or 4."""

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.names)

    @property
    def play_size(self) -> int:
        """Cards played in a deal's play: every player's hand."""
        return self.players * self.rules.hand_size

    @property
    def partnerships(self) -> bool:
        """Whether four play in two partnerships (seats 0 and 2 against 1 and 3)."""
        return self.players == 4

    @property
    def sides(self) -> int:
        """Sides on the board: each player, or two partnerships."""
        return 2 if self.partnerships else self.players

    @property
    def three_for_last(self) -> bool:
        """Whether the first non-dealer pegs three at the start (the five-card game, 001)."""
        return self.rules.name == FIVE_CARD.name

    @property
    def lurch_line(self) -> int:
        """The score a loser must reach not to be lurched (91 in 121, 31 in 61)."""
        return LURCH_LINES[self.length]

    @property
    def double_skunk_line(self) -> int | None:
        """The score a loser must reach not to be double-skunked (61 in 121; none in 61)."""
        return DOUBLE_SKUNK_LINES.get(self.length)

    def side_of(self, seat: int) -> int:
        """The side a seat pegs on."""
        return seat % 2 if self.partnerships else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that peg on a side."""
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    def side_name(self, side: int) -> str:
        """The side in words: ``"Ann"``, or ``"Ann and Cy"`` for a partnership."""
        return " and ".join(self.names[s] for s in self.seats_of(side))

    def to_json(self) -> dict[str, Any]:
        """The set-up as :meth:`Game.to_json` stores it beside the moves."""
        return {
            "rules": self.rules.name,
            "names": list(self.names),
            "first_dealer": self.first_dealer,
            "length": self.length,
            "muggins": self.muggins,
            "double_skunk_games": self.double_skunk_games,
        }


@dataclasses.dataclass(frozen=True)
class Result:
    """How a game ended: the winner, the scores, and who was lurched.

    >>> Result(0, (121, 90), 121).games_won, Result(0, (121, 91), 121).games_won
    (2, 1)
    >>> Result(0, (121, 95, 50), 121).lurched  # three-hand: the player on 50 is lurched
    (2,)
    """

    winner: int
    """The side that reached the game hole."""
    scores: tuple[int, ...]
    """Each side's score at the end."""
    length: int
    """The game's length (61 or 121)."""
    double_skunk_games: int = 2
    """Games a double skunk counts: 2, like a lurch (the rule books' one line), or 4."""

    @property
    def losers(self) -> tuple[int, ...]:
        """The other sides."""
        return tuple(s for s in range(len(self.scores)) if s != self.winner)

    @property
    def lurched(self) -> tuple[int, ...]:
        """Losers below the lurch line: "121 before the opponent gets 91" (002).

        With three players each loser is lurched or not on his own score.
        """
        line = LURCH_LINES[self.length]
        return tuple(s for s in self.losers if self.scores[s] < line)

    @property
    def lurch(self) -> bool:
        """Whether the winner got home before some opponent reached the lurch line."""
        return bool(self.lurched)

    @property
    def double_skunked(self) -> tuple[int, ...]:
        """Losers below the double skunk line (a later custom: 61 in 121)."""
        line = DOUBLE_SKUNK_LINES.get(self.length)
        return () if line is None else tuple(s for s in self.losers if self.scores[s] < line)

    @property
    def double_skunk(self) -> bool:
        """Whether some loser is below the double skunk line."""
        return bool(self.double_skunked)

    def games_lost(self, side: int) -> int:
        """Games a loser loses: a lurch is "two games won" (002), a double skunk as set up."""
        if side in self.double_skunked:
            return self.double_skunk_games
        return 2 if side in self.lurched else 1

    @property
    def games_won(self) -> int:
        """Games the win counts for: as much as the loser it lurched deepest lost."""
        return max(self.games_lost(side) for side in self.losers)


@dataclasses.dataclass(frozen=True)
class Game:
    """A game in progress: the set-up, the log, and the board and deal the log leads to.

    Make one with :meth:`new`; each move (:meth:`peg`, :meth:`show`, :meth:`next_deal`,
    :meth:`undo`) returns a new game.
    """

    setup: Setup
    log: tuple[Record, ...]
    """Every move, oldest first."""
    board: tuple[Pegs, ...]
    """Each side's pegs."""
    deal: int
    """The deal under way, from 1."""
    dealer: int
    """The seat dealing it."""
    shown: int
    """Hands and crib counted in this deal (0 while the play lasts)."""
    winner: int | None
    """The side that reached the game hole, once one has."""
    played: PLAYED = ()
    """The cards entered one by one in this deal's play (:meth:`play`)."""
    pile: PLAYED = ()
    """The cards of the count under way (since the play began, a go or a 31)."""
    checkpoints: tuple[Game, ...] = dataclasses.field(default=(), repr=False, compare=False)
    """The game after each :data:`CHECKPOINT_EVERY` records of the log (the ``k``-th after
    ``k + 1`` times as many), its log left out: what :meth:`undo` replays from."""

    @classmethod
    def new(
        cls,
        rules: RuleSet | str,
        names: Sequence[str],
        *,
        first_dealer: int = 0,
        length: int | None = None,
        muggins: bool = False,
        double_skunk_games: int = 2,
    ) -> Game:
        """A game at its start: the rule set (or its name), each seat's name, the first dealer.

        ``length`` is the rule set's (61 for five-card, else 121) unless given. In the
        five-card game the first non-dealer pegs three for last. ``muggins`` lets opponents
        take points overlooked in a count; ``double_skunk_games`` is what a double skunk
        counts (2 or 4).

        Raises:
            GameError: For the wrong number of names, a blank one, a seat that is not at the
                table, a length other than 61 or 121, or a double skunk of other games.
            UnknownRulesError: For an unknown rule set name.
        """
        ruleset = get_rules(rules) if isinstance(rules, str) else rules
        seats = tuple(names)
        if len(seats) != ruleset.players:
            raise GameError(
                f"{ruleset.title.lower()} has {ruleset.players} players, "
                f"but {len(seats)} names were given"
            )
        if not all(isinstance(n, str) and n.strip() for n in seats):
            raise GameError("every player needs a name")
        length = ruleset.game if length is None else length
        if not _whole(length) or length not in GAME_LENGTHS:
            raise GameError(f"a game is 61 or 121 points, not {length!r}")
        if not isinstance(muggins, bool):
            raise GameError(f"muggins is on or off, not {muggins!r}")
        if not _whole(double_skunk_games) or double_skunk_games not in DOUBLE_SKUNK_GAMES:
            raise GameError(f"a double skunk counts 2 or 4 games, not {double_skunk_games!r}")
        names_kept = tuple(n.strip() for n in seats)
        setup = Setup(ruleset, names_kept, first_dealer, length, muggins, double_skunk_games)
        _check_seat(setup, first_dealer)
        game = cls(setup, (), (Pegs(),) * setup.sides, 1, first_dealer, 0, None)
        if setup.three_for_last:
            pone = (first_dealer + 1) % setup.players
            game = game._scored(Phase.START, pone, THREE_FOR_LAST_POINTS, THREE_FOR_LAST)
        return game

    # --- where the game stands ----------------------------------------------------------

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's score (its front peg)."""
        return tuple(p.front for p in self.board)

    @property
    def over(self) -> bool:
        """Whether a side has reached the game hole."""
        return self.winner is not None

    @property
    def result(self) -> Result | None:
        """The winner and the lurch, once the game is over."""
        if self.winner is None:
            return None
        return Result(self.winner, self.scores, self.setup.length, self.setup.double_skunk_games)

    @property
    def pone(self) -> int:
        """The seat on the dealer's left: it leads the play and shows first."""
        return (self.dealer + 1) % self.setup.players

    @property
    def show_order(self) -> tuple[ShowTarget, ...]:
        """The show: each hand from the dealer's left round to the dealer, then the crib."""
        players = self.setup.players
        hands = tuple((self.dealer + i) % players for i in range(1, players + 1))
        return (*hands, CRIB)

    @property
    def next_to_show(self) -> ShowTarget | None:
        """The hand (a seat) or the crib counted next; ``None`` once the crib is counted."""
        order = self.show_order
        return order[self.shown] if self.shown < len(order) else None

    @property
    def history(self) -> tuple[Record, ...]:
        """Every move, oldest first (the log)."""
        return self.log

    @property
    def count(self) -> int:
        """The count of the play under way (0 when a count starts)."""
        return sum(card.value for _, card in self.pile)

    @property
    def play_over(self) -> bool:
        """Whether no card is played any more this deal.

        Every card is down, or, in the five-card game, its single count has ended
        (:attr:`RuleSet.one_count`).
        """
        if len(self.played) == self.setup.play_size:
            return True
        return self.setup.rules.one_count and bool(self.played) and not self.pile

    def held(self, seat: int) -> int:
        """Cards ``seat`` still holds in the play entered card by card."""
        return self.setup.rules.hand_size - sum(s == seat for s, _ in self.played)

    @property
    def heels_pegged(self) -> bool:
        """Whether his heels has been pegged in this deal."""
        return any(r.reason.lower() in HEELS_REASONS for r in self._this_deal(Phase.PLAY))

    @property
    def starter(self) -> Card | None:
        """This deal's starter, once a count from the cards has given it."""
        for record in self._this_deal(Phase.SHOW):
            if record.cards:
                return as_card(record.cards.split("|")[1])
        return None

    def deals(self) -> dict[int, tuple[Record, ...]]:
        """The log by deal: ``{1: (...), 2: (...)}``; a deal's passing opens the new deal."""
        grouped: dict[int, list[Record]] = {}
        for record in self.log:
            grouped.setdefault(record.deal, []).append(record)
        return {deal: tuple(records) for deal, records in grouped.items()}

    # --- moves ----------------------------------------------------------------------------

    def peg(self, seat: int, points: int, reason: str = "") -> Game:
        """Peg ``points`` for ``seat`` (to its side) during the play.

        His heels (``reason`` "his heels") is 2 points to the dealer, once a deal: "these
        points must be scored before dealer plays a card" (000). With the play entered card by
        card, a go pegged here is the go (:meth:`go`: it ends the count), and 31 and the last
        card, which the cards peg by themselves, are refused.

        Raises:
            GameError: When the game is over, the show has begun, the seat is not at the
                table, the points are not a whole number from 1 to 29, his heels is wrong, or
                the cards entered already peg it.
        """
        self._check_open()
        _check_seat(self.setup, seat)
        if not _whole(points) or not 1 <= points <= MAX_SHOW:
            raise GameError(f"a peg moves 1 to {MAX_SHOW} holes, not {points!r}")
        _check_reason(reason)
        if self.shown:
            begun = "is over" if self.next_to_show is None else "has begun"
            raise GameError(
                f"the play of deal {self.deal} is over: the show {begun}; {self._expected()}"
            )
        said = reason.strip().lower()
        if said in HEELS_REASONS:
            self._check_heels(seat, points)
        elif self.played and said in GO_REASONS:
            return self._button_go(seat, points)
        elif self.played and said in CARD_PEGS:
            raise GameError(
                f"the play of deal {self.deal} is entered card by card: {reason.strip()} is"
                " pegged with the card that makes it"
            )
        return self._scored(Phase.PLAY, seat, points, reason)

    def _button_go(self, seat: int, points: int) -> Game:
        """The go pegged by its button while the cards are entered: the count's go."""
        if points != 1 or (self.pile and self.pile[-1][0] != seat):
            last = self.setup.names[self.pile[-1][0]] if self.pile else "the last card's player"
            raise GameError(f"the go is one point, to {last}, who played the last card")
        return self.go()

    def play(self, seat: int, card: Card | str) -> Game:
        """``seat`` plays ``card`` on the count and pegs what it makes.

        The card pegs what :func:`~trainer.pegging.score_peg` finds (fifteen, 31, pairs, runs),
        and one for last when it is the play's last card short of 31. The reason says the card,
        the count and what it pegged ("5♥ (count 15): fifteen two"); a card that pegs nothing
        is logged for 0.

        Raises:
            GameError: When the game is over or the show has begun, the seat is not at the
                table or has played its whole hand, the card was played in this deal, every
                card of the play is down, or the card would take the count past 31 (a go ends
                the count first).
            InvalidCardError: For a token that is not a card.
        """
        self._check_play(seat)
        played = as_card(card) if isinstance(card, str) else card
        if not isinstance(played, Card):
            raise GameError(f"a card is written like 5H or 10D, not {card!r}")
        name = self.setup.names[seat]
        if any(c == played for _, c in self.played):
            raise GameError(f"{played} has been played in deal {self.deal}")
        hand = self.setup.rules.hand_size
        if not self.held(seat):
            raise GameError(f"{name} has played all {hand} cards of the hand in deal {self.deal}")
        self._check_turn(seat)
        count = self.count + played.value
        if count > 31:
            last = self.setup.names[self.pile[-1][0]]
            raise GameError(
                f"{played} would take the count from {self.count} past 31: a go ends the count"
                f" first ({last} pegs one for it)"
            )
        items = score_peg([c for _, c in self.pile], played)
        last_card = len(self.played) + 1 == self.setup.play_size
        if last_card and count != 31:
            items = (*items, ScoreItem(Kind.LAST_CARD, (played,), 1))
        said = ", ".join(_said(item) for item in items)
        reason = f"{played.unicode()} (count {count})" + (f": {said}" if said else "")
        points = sum(item.points for item in items)
        game = self._scored(Phase.PLAY, seat, points, reason, card=str(played))
        pile = () if count == 31 or last_card else (*self.pile, (seat, played))
        return dataclasses.replace(game, played=(*self.played, (seat, played)), pile=pile)

    def go(self) -> Game:
        """End the count short of 31: nobody can play, and the last card's player pegs one.

        The next count starts at 0, led by the player on his left.

        Raises:
            GameError: When the game is over, the show has begun, no card has been played
                since the count started, or a player still holds a card that must fit.
        """
        self._check_open()
        if not self.pile:
            raise GameError(
                f"a go needs a card played since the count started (deal {self.deal}'s count"
                " is at 0)"
            )
        seat = self.pile[-1][0]
        self._check_play(seat)
        holding = [s for s in range(self.setup.players) if self.held(s)]
        if not self._may_all_be_stuck(holding):
            raise GameError(f"no go on a count of {self.count}: {self._cards_that_fit(holding)}")
        reason = f"one for the go (count {self.count})"
        game = self._scored(Phase.PLAY, seat, 1, reason, card=GO)
        return dataclasses.replace(game, pile=())

    def muggins(self, seat: int, points: int, reason: str = "") -> Game:
        """Peg for ``seat`` the points an opponent overlooked in the count just shown.

        Raises:
            GameError: When the game is over or not played with muggins, nothing has been
                counted in this deal's show, the seat is on the side of the count, or the
                points are not a whole number from 1 to 29.
        """
        self._check_open()
        _check_seat(self.setup, seat)
        if not self.setup.muggins:
            raise GameError("this game is played without muggins")
        if not _whole(points) or not 1 <= points <= MAX_SHOW:
            raise GameError(f"muggins takes 1 to {MAX_SHOW} points, not {points!r}")
        _check_reason(reason)
        shown = self._this_deal(Phase.SHOW)
        if not shown:
            raise GameError(
                f"muggins is taken in the show, on a count just made: nothing has been counted"
                f" in deal {self.deal}"
            )
        if self.setup.side_of(seat) == shown[-1].side:
            raise GameError(
                f"{self.setup.names[seat]} cannot take muggins on a count of his own side"
            )
        return self._scored(Phase.MUGGINS, seat, points, reason)

    def show(
        self,
        hand: ShowTarget,
        points: int,
        reason: str = "",
        cards: Sequence[Card] = (),
        starter: Card | None = None,
    ) -> Game:
        """Count a hand (its seat) or the crib (``"crib"``: the dealer's) for ``points``.

        The show goes round from the dealer's left (pone first), the dealer last, then the
        crib; each once a deal. A hand that counts nothing is shown for 0 (nineteen). A count
        from its ``cards`` and ``starter`` must be this deal's: one starter a deal (a jack
        when his heels was pegged), no card in two places, and, with the play entered card by
        card, a hand holding the cards its seat played and the crib none of them.

        Raises:
            GameError: When the game is over, the hand or crib is not the one due (named in
                the message), the points are not a whole number from 0 to 29, or the cards
                are not this deal's.
        """
        self._check_open()
        if hand != CRIB:
            _check_seat(self.setup, hand)
        if not _whole(points) or not 0 <= points <= MAX_SHOW:
            raise GameError(f"a hand or crib counts 0 to {MAX_SHOW}, not {points!r}")
        _check_reason(reason)
        expected = self.next_to_show
        if hand != expected:
            order = self.show_order
            done = hand in order[: self.shown]
            what = f"{self._name(hand)} {'has been' if done else 'is not yet'} counted"
            raise GameError(f"{what} in deal {self.deal}: {self._expected()}")
        shown = ""
        if cards:
            if starter is None:
                raise GameError("a count from its cards needs the starter")
            self._check_deal_cards(hand, cards, starter)
            shown = " ".join(map(str, cards)) + f" | {starter}"
        seat = self.dealer if hand == CRIB else hand
        return self._scored(Phase.SHOW, seat, points, reason, cards=shown)

    def _check_deal_cards(self, hand: ShowTarget, cards: Sequence[Card], starter: Card) -> None:
        """Refuse cards that are not this deal's, naming the card."""
        names = self.setup.names
        turned = self.starter
        if turned is not None and starter != turned:
            raise GameError(
                f"deal {self.deal}'s starter is {turned.unicode()}, not {starter.unicode()}:"
                " one starter is counted with every hand and the crib"
            )
        if self.heels_pegged and starter.rank.name != "JACK":
            raise GameError(
                f"{names[self.dealer]} pegged his heels in deal {self.deal}: the starter is a"
                f" jack, not {starter.unicode()}"
            )
        placed: dict[Card, str] = {}
        for record in self._this_deal(Phase.SHOW):
            if record.cards:
                counted, _ = record.cards.split("|")
                where = "the crib" if record.crib else f"{names[record.seat]}'s hand"
                placed |= {as_card(c): where for c in counted.split()}
        placed[turned or starter] = "the starter"
        played_by = dict((card, seat) for seat, card in self.played)
        if starter in played_by:
            raise GameError(
                f"{starter.unicode()} was played by {names[played_by[starter]]} in deal"
                f" {self.deal}: it is not the starter"
            )
        for card in cards:
            if card in placed:
                raise GameError(f"{card.unicode()} is {placed[card]} in deal {self.deal}")
        for card in cards:
            seat = played_by.get(card)
            if seat is not None and (hand == CRIB or seat != hand):
                raise GameError(
                    f"{card.unicode()} was played by {names[seat]} in deal {self.deal}:"
                    f" it is not in {self._name(hand)}"
                )
        if hand != CRIB:
            missing = [c for c, s in played_by.items() if s == hand and c not in cards]
            if missing:
                raise GameError(
                    f"{names[hand]} played {missing[0].unicode()} in deal {self.deal}: it is"
                    f" in {names[hand]}'s hand"
                )

    def next_deal(self, dealer: int | None = None, *, misdeal: bool = False) -> Game:
        """Pass the deal to the left once the crib is counted; or deal again.

        A misdeal (``misdeal=True``, any time in the deal) is dealt again by the same dealer,
        the points pegged standing: "there must be a new deal by same dealer, but previous
        scores made with incorrect pack are not affected" (000). A deal out of turn "must
        stand" once the pone has taken up his cards (000): ``dealer`` names who dealt it, when
        the crib is counted or before anything is pegged in the deal.

        Raises:
            GameError: When the game is over, this deal's show is not finished (and no
                misdeal), or ``dealer`` is no seat or comes with a deal under way.
        """
        self._check_open()
        names = self.setup.names
        counted = (Phase.PLAY, Phase.SHOW, Phase.MUGGINS)
        fresh = not any(r.phase in counted for r in self._deal_records())
        if misdeal:
            dealer, why = self.dealer, f"{MISDEAL}: {names[self.dealer]} deals again"
        elif dealer is not None:
            _check_seat(self.setup, dealer)
            if self.next_to_show is not None and not fresh:
                raise GameError(f"deal {self.deal} is under way: {self._expected()}")
            why = f"{OUT_OF_TURN} stands: {names[dealer]} deals"
        elif self.next_to_show is not None:
            raise GameError(f"deal {self.deal} is not finished: {self._expected()}")
        else:
            dealer = (self.dealer + 1) % self.setup.players
            why = f"the deal passes to {names[dealer]}"
        record = Record(Phase.DEAL, self.deal + 1, dealer, self.setup.side_of(dealer), reason=why)
        return self._logged(record, deal=self.deal + 1, dealer=dealer, shown=0, played=(), pile=())

    def undo(self, index: int | None = None) -> Game:
        """The game without its last move, or without the move at ``index`` in the log.

        The moves after ``index`` are replayed (a card played again is scored again on the
        count it now meets) onto the game before it, replayed from the last checkpoint before
        it (:attr:`checkpoints`): undoing the last move replays fewer than
        :data:`CHECKPOINT_EVERY` records. The set-up's three for last stays.

        Raises:
            GameError: When there is no move to undo, ``index`` is not a move of the log or is
                the set-up's, or a later move would be refused without it (undo it first).
        """
        last = len(self.log) - 1
        if self._set_up_records > last:
            raise GameError("nothing to undo: the game is at its start")
        if index is None:
            index = last
        if not _whole(index) or not 0 <= index <= last:
            raise GameError(f"there is no move {index!r}: the log's moves are 0 to {last}")
        if index < self._set_up_records:
            raise GameError("the three for last is part of the set-up: it cannot be undone")
        taken = self.log[index]
        removed = self._move_of(index)
        try:
            return _replay_onto(self._replayed_to(removed.start), self.log[removed.stop :])
        except CribbageError as error:
            what = self._move_said(taken)
            later = [self._move_said(r) for r in reversed(self.log[index + 1 :])]
            later = [m for m in dict.fromkeys(later) if m != what]  # a show's muggins is its own
            raise GameError(
                f"{what[:1].upper()}{what[1:]} cannot be taken back alone ({error}): undo"
                f" {', then '.join(later)} first, then {what}"
            ) from None

    def _move_said(self, record: Record) -> str:
        """A move as players name it: "Ann's hand", "Bob's 5♥", "the crib", "the deal to Cy"."""
        name = self.setup.names[record.seat]
        if record.phase is Phase.SHOW:
            return "the crib" if record.crib else f"{name}'s hand"
        if record.phase is Phase.MUGGINS:
            return f"{name}'s muggins"
        if record.phase is Phase.DEAL:
            return f"the deal to {name}"
        if record.card == GO:
            return "the go"
        if record.card:
            return f"{name}'s {as_card(record.card).unicode()}"
        return f"{name}'s peg of {record.points}"

    def _move_of(self, index: int) -> range:
        """The records one move wrote: a show with the muggins taken on it, else one record."""
        start = index
        while self.log[start].phase is Phase.MUGGINS and start > 0:
            start -= 1
        end = start + 1
        while end < len(self.log) and self.log[end].phase is Phase.MUGGINS:
            end += 1
        return range(start, end) if self.log[start].phase is Phase.SHOW else range(index, index + 1)

    # --- storage ----------------------------------------------------------------------------

    def to_json(self, *, log: bool = True) -> dict[str, Any]:
        """The set-up and the moves, to store and replay with :meth:`from_json`.

        ``moves`` are ``{"phase", "seat", "points", "reason"}``, with ``"seat": "crib"`` for
        the crib's show, only ``phase`` for a deal's passing, and ``{"phase", "seat", "card"}``
        for a card played (``{"phase", "card": "go"}`` for a go); ``log`` is every record as
        :meth:`Record.to_json` gives it, for readers (:meth:`from_json` ignores it; ``log=False``
        leaves it out).
        """
        stored = self.setup.to_json() | {"moves": self.moves_json()}
        return stored | ({"log": [r.to_json() for r in self.log]} if log else {})

    @property
    def move_count(self) -> int:
        """The moves stored (:meth:`to_json`): the log's records but the set-up's."""
        return len(self.log) - self._set_up_records

    def moves_json(self, start: int = 0) -> list[dict[str, Any]]:
        """The stored moves from the ``start``-th on (the first is 0), as :meth:`to_json` has them.

        A move more costs its own encoding, not every move's again.
        """
        return [_move_json(r) for r in self.log[self._set_up_records + start :]]

    def moves_shared(self, other: Game) -> int:
        """How many stored moves this game and ``other`` (of the same set-up) begin with alike.

        A game and the game after a move share the log's records, so this is one comparison
        of references; after an undo the records are made again, and compared field by field.
        """
        mine, theirs = self.log, other.log
        shared = min(len(mine), len(theirs))
        if mine[:shared] != theirs[:shared]:
            shared = next(i for i in range(shared) if mine[i] != theirs[i])
        return max(0, shared - self._set_up_records)

    @property
    def _set_up_records(self) -> int:
        """The log's first records that the set-up made (the three for last): no stored moves."""
        return next(
            (i for i, r in enumerate(self.log) if r.phase is not Phase.START), len(self.log)
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """Replay a game stored by :meth:`to_json`, checking every move again.

        Raises:
            GameError: For a malformed game or a move the rules refuse.
            UnknownRulesError: For an unknown rule set.
        """
        try:
            game = cls.new(
                data["rules"],
                data["names"],
                first_dealer=data["first_dealer"],
                length=data["length"],
                muggins=data.get("muggins", False),
                double_skunk_games=data.get("double_skunk_games", 2),
            )
            return _replay(game.setup, _moves(data["moves"]))
        except CribbageError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise GameError(f"not a stored game: {error!r}") from None

    def after(self, moves: Iterable[Mapping[str, Any]]) -> Game:
        """This game after more stored moves (as :meth:`to_json` gives them), each checked again.

        Raises:
            GameError: For a move the rules refuse.
        """
        try:
            return _replay_onto(self, _moves(moves))
        except CribbageError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise GameError(f"not a stored move: {error!r}") from None

    # --- helpers ------------------------------------------------------------------------------

    def _scored(
        self, phase: Phase, seat: int, points: int, reason: str, card: str = "", cards: str = ""
    ) -> Game:
        """The game after ``points`` to ``seat``'s side, counting out at the game hole."""
        side = self.setup.side_of(seat)
        pegs = self.board[side]
        if points:
            pegs = pegs.moved(points, home=self.setup.length)
        record = Record(
            phase,
            self.deal,
            seat,
            side,
            points,
            reason.strip(),
            crib=phase is Phase.SHOW and self.next_to_show == CRIB,
            pegged=pegs.front - self.board[side].front,
            card=card,
            cards=cards,
        )
        board = (*self.board[:side], pegs, *self.board[side + 1 :])
        return self._logged(
            record,
            board=board,
            shown=self.shown + (phase is Phase.SHOW),
            winner=side if pegs.front >= self.setup.length else None,
        )

    def _logged(self, record: Record, **changes: Any) -> Game:
        """The game after ``record``, with ``changes``, and this game as a checkpoint if due.

        One is due when the log is :data:`CHECKPOINT_EVERY` records past the last one.
        """
        checkpoints = self.checkpoints
        if len(self.log) == CHECKPOINT_EVERY * (len(checkpoints) + 1):
            checkpoints = (*checkpoints, dataclasses.replace(self, log=(), checkpoints=()))
        log = (*self.log, record)
        return dataclasses.replace(self, log=log, checkpoints=checkpoints, **changes)

    def _replayed_to(self, length: int) -> Game:
        """The game after the log's first ``length`` records, from the last checkpoint before.

        Replayed from the start when no checkpoint comes before them.
        """
        kept = min(length // CHECKPOINT_EVERY, len(self.checkpoints))
        if not kept:
            return _replay(self.setup, self.log[self._set_up_records : length])
        start = kept * CHECKPOINT_EVERY
        checkpoint = dataclasses.replace(
            self.checkpoints[kept - 1], log=self.log[:start], checkpoints=self.checkpoints[:kept]
        )
        return _replay_onto(checkpoint, self.log[start:length])

    def _check_play(self, seat: int) -> None:
        """Check that ``seat`` may play a card now: the game open, the play on."""
        self._check_open()
        _check_seat(self.setup, seat)
        if self.shown:
            raise GameError(f"the play of deal {self.deal} is over: the show has begun")
        if len(self.played) == self.setup.play_size:
            raise GameError(
                f"every card of deal {self.deal}'s play is down ({self.setup.play_size}):"
                f" {self._expected()}"
            )
        if self.play_over:
            raise GameError(f"{ONE_COUNT_RULE}: {self._expected()}")

    def _check_turn(self, seat: int) -> None:
        """Refuse a card out of turn: the wrong lead, or a player passed over who must play.

        The turn goes to the left; after a go or 31 the player on the left of the last card's
        leads. A player is passed over only if he holds no card, or may hold only cards that
        would pass 31 (there are enough unseen cards too high for all he holds); once passed
        over, he has said go and plays no more in this count.
        """
        players = self.setup.players
        expected = (self.played[-1][0] + 1) % players if self.played else self.pone
        passed: list[int] = []
        while expected != seat:
            if self.held(expected):
                passed.append(expected)
            expected = (expected + 1) % players
        names = self.setup.names
        said_go = self._said_go()
        if seat in said_go:
            raise GameError(
                f"{names[seat]} could not play on this count (passed over at count"
                f" {said_go[seat]}): the count must end first (a go)"
            )
        if passed and (not self.pile or not self._may_all_be_stuck(passed)):
            who = names[passed[0]]
            if not self.played:
                raise GameError(f"the pone leads the play: {who} plays first in deal {self.deal}")
            if not self.pile:
                raise GameError(f"{who} leads the next count: any card plays on a count of 0")
            why = self._cards_that_fit(passed)
            raise GameError(f"it is {who}'s turn on a count of {self.count}: {why}")

    def _said_go(self) -> dict[int, int]:
        """The players passed over in the count under way, with the count they were passed at."""
        players = self.setup.players
        out: dict[int, int] = {}
        count = 0
        for (before, card), (after, _) in itertools.pairwise(self.pile):
            count += card.value
            seat = (before + 1) % players
            while seat != after:
                out.setdefault(seat, count)
                seat = (seat + 1) % players
        return out

    def _may_all_be_stuck(self, seats: Sequence[int]) -> bool:
        """Whether ``seats`` may hold only cards that would pass 31 on the count.

        They may when the cards not yet seen this deal hold enough too high for all the cards
        they hold together.
        """
        return self._too_high() >= sum(self.held(s) for s in seats)

    def _too_high(self) -> int:
        """How many cards not yet seen this deal would pass 31 on the count."""
        seen = {card for _, card in self.played}
        return sum(1 for c in DECK if c not in seen and self.count + c.value > 31)

    def _cards_that_fit(self, seats: Sequence[int]) -> str:
        """Why a player among ``seats`` must be able to play, in words."""
        held = sum(self.held(s) for s in seats)
        who = " and ".join(self.setup.names[s] for s in seats)
        holding = f"{who} {'holds' if len(seats) == 1 else 'hold'} {held} card{'s' * (held != 1)}"
        too_high = self._too_high()
        if not too_high:
            return f"every card plays under 31, and {holding}"
        return f"{holding}, and only {too_high} unseen card{'s' * (too_high != 1)} would pass 31"

    def _check_open(self) -> None:
        if self.winner is not None:
            lurch = " by a lurch" if self.result and self.result.lurch else ""
            name = self.setup.side_name(self.winner)
            raise GameError(f"the game is over: {name} won{lurch} (undo to take a move back)")

    def _check_heels(self, seat: int, points: int) -> None:
        dealer = self.setup.names[self.dealer]
        if seat != self.dealer:
            raise GameError(
                f"his heels is the dealer's: {dealer} deals deal {self.deal}, "
                f"not {self.setup.names[seat]}"
            )
        if points != 2:
            raise GameError(f"his heels is 2 points, not {points}")
        pegged = self._this_deal(Phase.PLAY)
        if self.heels_pegged:
            raise GameError(f"his heels is pegged once a deal: {dealer} has it in deal {self.deal}")
        if any(r.seat == self.dealer for r in pegged):
            raise GameError(
                f'his heels "must be scored before dealer plays a card" (the rule book), and'
                f" {dealer} has played in deal {self.deal}"
            )

    def _this_deal(self, phase: Phase) -> list[Record]:
        """This deal's records of ``phase``, oldest first."""
        return [r for r in self._deal_records() if r.phase is phase]

    def _deal_records(self) -> tuple[Record, ...]:
        """This deal's records, oldest first: the log's last, found by halving.

        The log's deals only grow, so a move costs the same at move 1,000 as at move 10.
        """
        return self.log[bisect.bisect_left(self.log, self.deal, key=_DEAL_OF) :]

    def _name(self, hand: ShowTarget) -> str:
        if hand == CRIB:
            return f"the crib ({self.setup.names[self.dealer]}'s)"
        return f"{self.setup.names[hand]}'s hand"

    def _expected(self) -> str:
        """What is due next, in words."""
        expected = self.next_to_show
        if expected is None:
            return "the crib has been counted, so the deal passes next (next_deal)"
        return f"{self._name(expected)} is counted next"


def _said(item: ScoreItem) -> str:
    """An item of the play as a player says it: "fifteen two", "a run of four"."""
    if item.kind is Kind.RUN:
        return f"a run of {number_words(item.points)}"
    return _SAID[item.kind]


def _whole(points: object) -> bool:
    return isinstance(points, int) and not isinstance(points, bool)


def _check_seat(setup: Setup, seat: object) -> None:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < setup.players:
        raise GameError(f"seats are 0 to {setup.players - 1}, not {seat!r}")


def _check_reason(reason: object) -> None:
    if not isinstance(reason, str):
        raise GameError(f"a reason is text, not {reason!r}")


def _move_json(record: Record) -> dict[str, Any]:
    """A record of the log as :meth:`Game.to_json` stores the move (the set-up's are none)."""
    phase = record.phase.value
    if record.phase is Phase.DEAL:
        return {"phase": phase} | _dealt(record)
    if record.card == GO:
        return {"phase": phase, "card": GO}
    if record.card:
        return {"phase": phase, "seat": record.seat, "card": record.card}
    seat: ShowTarget = CRIB if record.crib else record.seat
    move = {"phase": phase, "seat": seat, "points": record.points, "reason": record.reason}
    return move | ({"cards": record.cards} if record.cards else {})


def _dealt(record: Record) -> dict[str, Any]:
    """How a deal's passing is stored: nothing more to the left, else a misdeal or who dealt."""
    if record.reason.startswith(MISDEAL):
        return {"misdeal": True}
    return {"dealer": record.seat} if record.reason.startswith(OUT_OF_TURN) else {}


def _shown(cards: str) -> tuple[tuple[Card, ...], Card | None]:
    """A show's stored cards (``"5H 5D 5C JS | 5S"``) as the cards and the starter."""
    if not cards:
        return (), None
    counted, starter = cards.split("|")
    return tuple(as_card(c) for c in counted.split()), as_card(starter.strip())


def _moves(moves: Iterable[Mapping[str, Any]]) -> list[Record]:
    """Stored moves as records to replay (only phase, seat, points and reason are read)."""
    records = []
    for move in moves:
        phase = Phase(move["phase"])
        if phase is Phase.DEAL:
            dealer = move.get("dealer", 0)
            why = MISDEAL if move.get("misdeal") else OUT_OF_TURN if "dealer" in move else ""
            records.append(Record(phase, 0, dealer, 0, reason=why))
            continue
        if phase is Phase.START:
            raise GameError("the start's moves come from the set-up, not the stored moves")
        if phase is Phase.PLAY and "card" in move:
            card = str(move["card"])
            records.append(Record(phase, 0, 0 if card == GO else move["seat"], 0, card=card))
            continue
        crib = phase is Phase.SHOW and move["seat"] == CRIB
        seat = 0 if crib else move["seat"]
        cards = str(move.get("cards", ""))
        records.append(Record(phase, 0, seat, 0, move["points"], move["reason"], crib, cards=cards))
    return records


def _replay(setup: Setup, moves: Iterable[Record]) -> Game:
    """A new game with ``setup``, after ``moves`` (start records are the set-up's)."""
    game = Game.new(
        setup.rules,
        setup.names,
        first_dealer=setup.first_dealer,
        length=setup.length,
        muggins=setup.muggins,
        double_skunk_games=setup.double_skunk_games,
    )
    return _replay_onto(game, moves)


def _replay_onto(game: Game, moves: Iterable[Record]) -> Game:
    """``game`` after ``moves``, each checked again."""
    for move in moves:
        if move.card == GO:
            game = game.go()
        elif move.card:
            game = game.play(move.seat, move.card)
        elif move.phase is Phase.PLAY:
            game = game.peg(move.seat, move.points, move.reason)
        elif move.phase is Phase.MUGGINS:
            game = game.muggins(move.seat, move.points, move.reason)
        elif move.phase is Phase.SHOW:
            target: ShowTarget = CRIB if move.crib else move.seat
            shown, starter = _shown(move.cards)
            game = game.show(target, move.points, move.reason, shown, starter)
        elif move.phase is Phase.DEAL:
            out_of_turn = move.reason.startswith(OUT_OF_TURN)
            misdeal = move.reason.startswith(MISDEAL)
            game = game.next_deal(move.seat if out_of_turn else None, misdeal=misdeal)
    return game
