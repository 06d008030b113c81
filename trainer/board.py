"""A game's score kept at the table, as a page keeps it: moves read from JSON, the board as JSON.

The rules are :mod:`trainer.game`'s; this module reads what a page sends (a peg, a card
played, a hand or the crib counted from its cards, undo) and says the board back. A hand or
crib counted from its cards is scored by :func:`trainer.show.score_typed` (typed, or read from
a photo of the table). A claim pegs what was claimed, never more than the cards count: "if
player overlooks a point his opponent is entitled to take it if he sees it" (002), so with
muggins on (the rule books', and the set-up's default) the difference goes to the player on
the counter's left.

>>> game = new_game({"names": ["Ann", "Bob"]})
>>> game = apply(game, {"move": "card", "seat": 1, "card": "5H"})
>>> game = apply(game, {"move": "card", "seat": 0, "card": "10H"})
>>> view(game)["log"][-1]["reason"]
'10♥ (count 15): fifteen two'
>>> game = apply(game, {"move": "show", "hand": 1, "cards": "5H 5D 5C JS | 5S"})
>>> view(game)["log"][-1]["reason"], view(game)["sides"][1]["front"]
('hand: 29 (typed: 5♥ 5♦ 5♣ J♠ | 5♠)', 29)
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from .cards import Rank
from .game import CRIB, Game, GameError, Result, Setup, ShowTarget
from .items import number_words
from .rules import FOUR_HAND, SIX_CARD, THREE_HAND
from .show import Breakdown, score_typed

MAX_NAME = 24
"""Characters a player's name may have."""
MAX_REASON = 60
"""Characters the reason given with a peg may have."""
MAX_MOVES = 1000
"""Moves a game's log may hold: a game to 121 entered card by card takes about 200."""
LOG_SHOWN = 80
"""The latest moves a board says (:func:`view`): a deal's, and more; the log holds them all."""
MOVES = ("peg", "card", "go", "show", "deal", "undo")
"""What a page may send: a peg, a card played, a go, a count of the show, the deal passing,
and undo (the last move, or the one at ``index``)."""
SOURCES = ("typed", "photo")
"""Where a count's cards come from, as the log says it."""
RULES_BY_PLAYERS = {rules.players: rules.name for rules in (SIX_CARD, THREE_HAND, FOUR_HAND)}
"""The rule set a game of so many players gets when none is named (six-card for two)."""


def new_game(data: Mapping[str, Any]) -> Game:
    """A game from a page's set-up, the rules by default from the number of names.

    ``data`` is ``{"names": [...], "rules", "first_dealer", "length", "muggins",
    "double_skunk_games"}``; muggins is on unless set off, as the rule books play it.

    Raises:
        GameError: For names that are not a list of short names a page can show, or a set-up
            the game refuses.
        UnknownRulesError: For an unknown rule set.
    """
    names = data.get("names")
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise GameError("give the players' names as a list, in seating order")
    for name in names:
        if len(name.strip()) > MAX_NAME:
            raise GameError(f"a name has at most {MAX_NAME} characters, not {len(name.strip())}")
        if not _showable(name):
            raise GameError(f"a name is letters a page can show, not {name!r}")
    rules = data.get("rules", RULES_BY_PLAYERS.get(len(names), "six-card"))
    if not isinstance(rules, str):
        raise GameError(f"the rules are named, like 'six-card', not {rules!r}")
    return Game.new(
        rules,
        names,
        first_dealer=data.get("first_dealer", 0),
        length=data.get("length"),
        muggins=data.get("muggins", True),
        double_skunk_games=data.get("double_skunk_games", 2),
    )


def _showable(name: str) -> bool:
    """Whether ``name`` is text a page can show: no control character, no lone surrogate."""
    return all(unicodedata.category(c) not in ("Cc", "Cs", "Cn") for c in name)


def apply(game: Game, move: Mapping[str, Any]) -> Game:
    """The game after the page's ``move``, or an error saying why the game refuses it.

    A move is ``{"move": "peg", "seat", "points", "reason"}``, ``{"move": "card", "seat",
    "card"}``, ``{"move": "go"}``, ``{"move": "show", "hand", "cards", "starter", "source",
    "claimed"}`` (or ``"points"`` without cards), ``{"move": "deal"}`` (``"misdeal": true`` to
    deal again, ``"dealer"`` for a deal out of turn that stands) or ``{"move": "undo",
    "index"}``.

    Raises:
        GameError: For a move the game refuses, named in the message.
        InvalidCardError, DuplicateCardError, HandSizeError: For cards that make no hand.
    """
    kind = move.get("move")
    if kind not in MOVES:
        raise GameError(f"unknown move {kind!r} (use one of: {', '.join(MOVES)})")
    if kind != "undo" and len(game.log) >= MAX_MOVES:
        raise GameError(f"this game has {MAX_MOVES} moves, as many as a board keeps")
    if kind == "peg":
        reason = move.get("reason", "")
        if isinstance(reason, str) and len(reason) > MAX_REASON:
            raise GameError(f"a reason has at most {MAX_REASON} characters")
        return game.peg(move.get("seat"), move.get("points"), reason)  # type: ignore[arg-type]
    if kind == "card":
        return game.play(move.get("seat"), move.get("card"))  # type: ignore[arg-type]
    if kind == "go":
        return game.go()
    if kind == "deal":
        return game.next_deal(move.get("dealer"), misdeal=move.get("misdeal") is True)
    if kind == "undo":
        return game.undo(move.get("index"))
    return _show(game, move)


def _show(game: Game, move: Mapping[str, Any]) -> Game:
    """A hand or the crib counted: from its cards (typed or read), or for the points given."""
    hand: ShowTarget = move.get("hand")  # type: ignore[assignment]
    game.show(hand, 0)  # refuses a count out of order, twice, or once the game is over
    what = "crib" if hand == CRIB else "hand"
    cards = move.get("cards")
    if cards is None:
        points = move.get("points")
        return game.show(hand, points, f"{what}: {points} (as counted)")  # type: ignore[arg-type]
    source = move.get("source", "typed")
    if source not in SOURCES:
        raise GameError(f"unknown source {source!r} (use one of: {', '.join(SOURCES)})")
    scored = _scored(game, hand == CRIB, cards, move.get("starter"))
    total = scored.total
    shown = " ".join(card.unicode() for card in scored.hand) + f" | {scored.starter.unicode()}"
    if game.starter is None and scored.starter.rank is Rank.JACK and not game.heels_pegged:
        dealer = game.setup.names[game.dealer]
        shown += f"; a jack turned is his heels, 2 to {dealer} before he plays a card"
    counted = (scored.hand, scored.starter)
    claimed = move.get("claimed")
    if claimed is None or claimed == total:
        return game.show(hand, total, f"{what}: {total} ({source}: {shown})", *counted)
    if not isinstance(claimed, int) or isinstance(claimed, bool) or not 0 <= claimed <= 29:
        raise GameError(f"a claimed count is 0 to 29, not {claimed!r}")
    counter = game.dealer if hand == CRIB else int(hand)
    whose = game.setup.names[counter]
    if claimed > total:
        raise GameError(
            f"{whose}'s {what} counts {total} ({shown}), not {claimed}: a count over the cards"
            " is refused"
        )
    reason = f"{what}: {claimed} claimed, the cards count {total} ({source}: {shown})"
    claim = game.show(hand, claimed, reason, *counted)
    if claim.over or not game.setup.muggins:
        return claim
    taker = (counter + 1) % game.setup.players
    overlooked = total - claimed
    return claim.muggins(taker, overlooked, f"muggins: {overlooked} overlooked in {whose}'s {what}")


def _scored(game: Game, crib: bool, cards: object, starter: object) -> Breakdown:
    """The cards' count, refusing ranks without suits (they do not settle it)."""
    if isinstance(cards, list) and all(isinstance(card, str) for card in cards):
        cards = " ".join(cards)
    if not isinstance(cards, str) or not isinstance(starter, str | None):
        raise GameError("give the cards as typed (5H 5D 5C JS | 5S) and the starter as a card")
    scored = score_typed(
        cards, starter, crib=crib, rules=game.setup.rules, starter_place="as the starter"
    )
    if not isinstance(scored, Breakdown):
        raise GameError(f"give every card's suit: from the ranks alone the count is {scored}")
    return scored


def view(game: Game) -> dict[str, Any]:
    """The board as a page draws it: each side's pegs, the deal, the play, the log, the result.

    ``phase`` is ``"play"`` until the first count of the show, ``"show"`` until the crib is
    counted, then ``"deal"`` (the deal passes next), or ``"over"``. ``log`` is the latest
    :data:`LOG_SHOWN` moves, each with its ``index`` in the whole log (``moves`` long), so that a
    board said after each move costs the same at move 1,000 as at move 10.
    """
    setup = game.setup
    names = setup.names
    if game.over:
        phase = "over"
    elif not game.shown:
        phase = "play"
    else:
        phase = "show" if game.next_to_show is not None else "deal"
    last_seat = game.played[-1][0] if game.played else game.dealer
    return {
        "rules": setup.rules.name,
        "title": setup.rules.title,
        "names": list(names),
        "hand_size": setup.rules.hand_size,
        "crib_size": setup.rules.crib_size,
        "length": setup.length,
        "muggins": setup.muggins,
        "double_skunk_games": setup.double_skunk_games,
        "one_count": setup.rules.one_count,
        "lurch_line": setup.lurch_line,
        "double_skunk_line": setup.double_skunk_line,
        "sides": [
            {"name": setup.side_name(side), "seats": list(setup.seats_of(side)), **vars(pegs)}
            for side, pegs in enumerate(game.board)
        ],
        "deal": game.deal,
        "dealer": game.dealer,
        "pone": game.pone,
        "phase": phase,
        "show_order": list(game.show_order),
        "next_to_show": game.next_to_show,
        "play": {
            "count": game.count,
            "pile": [str(card) for _, card in game.pile],
            "played": [{"seat": seat, "card": str(card)} for seat, card in game.played],
            "cards_left": 0 if game.play_over else setup.play_size - len(game.played),
            "next_seat": (last_seat + 1) % setup.players,
        },
        "moves": len(game.log),
        "log": [
            {"index": index, **game.log[index].to_json(), "who": names[game.log[index].seat]}
            for index in range(max(0, len(game.log) - LOG_SHOWN), len(game.log))
        ],
        "result": _result(game),
    }


def _result(game: Game) -> dict[str, Any] | None:
    """The winner, the scores and the lurch, with a sentence saying them."""
    result = game.result
    if result is None:
        return None
    setup = game.setup
    name = setup.side_name(result.winner)
    others = " and ".join(str(result.scores[side]) for side in result.losers)
    text = f"{name} won, {result.scores[result.winner]} to {others}"
    games = number_words(result.games_won)
    if result.lurch and len(result.losers) > 1:
        lurched = " and ".join(setup.side_name(side) for side in result.lurched)
        text += f": {lurched} lurched, {games} games"
    elif result.lurch:
        text += f": a lurch, {games} games"
    if result.double_skunk:
        text += " (a double skunk)"
    return {
        "winner": result.winner,
        "name": name,
        "scores": list(result.scores),
        "lurch": result.lurch,
        "lurched": list(result.lurched),
        "double_skunk": result.double_skunk,
        "games_won": result.games_won,
        "games_lost": [result.games_lost(side) for side in result.losers],
        "text": text,
    }


Finished = tuple[Setup, Result]
"""A game over: who played it, and how it ended."""


def _sides(setup: Setup) -> tuple[frozenset[str], ...]:
    """Each side's players, by name in any case."""
    return tuple(
        frozenset(setup.names[seat].casefold() for seat in setup.seats_of(side))
        for side in range(setup.sides)
    )


@dataclasses.dataclass(frozen=True)
class Match:
    """A tally of the games between the same players, as a scoreboard keeps it.

    >>> ann_bob = Setup(SIX_CARD, ("Ann", "Bob"))
    >>> games = [(ann_bob, Result(0, (121, 80), 121)), (Setup(SIX_CARD, ("bob", "ann")),
    ...          Result(0, (121, 100), 121)), (ann_bob, Result(0, (121, 95), 121))]
    >>> Match.of(ann_bob, games).text
    'Ann 3 – Bob 1 (one lurch)'
    """

    names: tuple[str, ...]
    """Each side's name (:meth:`trainer.game.Setup.side_name`)."""
    games: tuple[int, ...]
    """Games each side won, a lurch counting two (a double skunk as its game set it)."""
    wins: tuple[int, ...]
    """Games each side won, each counting one."""
    lurches: tuple[int, ...]
    """Games each side won by a lurch."""

    @classmethod
    def of(cls, setup: Setup, finished: Iterable[Finished]) -> Match:
        """The tally of the ``finished`` games between ``setup``'s players, in its sides' order.

        Games of other players are left out: the same players are the same names (in any
        case), each on the same side as his partner, wherever they sat.
        """
        sides = _sides(setup)
        games, wins, lurches = [0] * setup.sides, [0] * setup.sides, [0] * setup.sides
        for played, result in finished:
            theirs = _sides(played)
            if set(theirs) != set(sides):
                continue
            side = sides.index(theirs[result.winner])
            games[side] += result.games_won
            wins[side] += 1
            lurches[side] += result.lurch
        names = tuple(setup.side_name(side) for side in range(setup.sides))
        return cls(names, tuple(games), tuple(wins), tuple(lurches))

    @property
    def played(self) -> int:
        """Games finished between these players."""
        return sum(self.wins)

    @property
    def text(self) -> str:
        """The tally as a scoreboard says it: ``"Ann 3 – Bob 1 (one lurch)"``."""
        tally = zip(self.names, self.games, strict=True)
        text = " – ".join(f"{name} {games}" for name, games in tally)
        lurches = sum(self.lurches)
        if lurches:
            said = number_words(lurches) if lurches <= 20 else str(lurches)
            text += f" ({said} {'lurch' if lurches == 1 else 'lurches'})"
        return text

    def ahead_first(self) -> Match:
        """The tally with the side of the most games first, as a scoreboard says a score."""
        order = sorted(range(len(self.names)), key=lambda side: -self.games[side])
        return Match(
            tuple(self.names[side] for side in order),
            tuple(self.games[side] for side in order),
            tuple(self.wins[side] for side in order),
            tuple(self.lurches[side] for side in order),
        )

    def to_json(self) -> dict[str, Any]:
        """The tally as a page draws it, with its sentence."""
        return {**dataclasses.asdict(self), "played": self.played, "text": self.text}


def matches(finished: Iterable[Finished]) -> list[Match]:
    """The tally of each table of players among the ``finished`` games, the side ahead first.

    In the order of the first game of each, with its names as written there.
    """
    games = list(finished)
    first: dict[frozenset[frozenset[str]], Setup] = {}
    for setup, _ in games:
        first.setdefault(frozenset(_sides(setup)), setup)
    return [Match.of(setup, games).ahead_first() for setup in first.values()]
