"""``crib play``: a game against the computer in the terminal, kept with the web trainer's games.

The player discards, plays and says what each card pegs and what each hand and crib counts; the
computer plays well, counts its own exactly and, with muggins on, takes what the player missed
(:mod:`trainer.versus`). The game is stored as the web's ``/play`` stores it
(:mod:`records.versus`) after every move, so it is resumed where it was left, here or in the
browser (``--user NAME`` plays as that account); its counts feed the streak and the weak spots.
At the end the review sets every discard against the best one. ``q`` or Ctrl-C stops; the game
waits for the next ``crib play``.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, TextIO

from trainer.cards import Card, as_card, split_tokens
from trainer.dealing import Difficulty
from trainer.errors import CribbageError
from trainer.grading import MOST_PEG, MOST_SHOW
from trainer.versus import COMPUTER, PLAYER, RULES, Said, Setup, VersusGame

if TYPE_CHECKING:
    from records.versus import StoredGame

from .drill import Ask, Quit, Session, Terminal, add_user_option, ask_number, sitting, today

_PEGS = Ask("It pegs: ", MOST_PEG, f"One card pegs 0 to {MOST_PEG}")
_SHOW = Ask("It counts: ", MOST_SHOW, f"A hand or crib counts 0 to {MOST_SHOW}")


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``play`` to the ``crib`` command."""
    play = commands.add_parser(
        "play",
        help="play a whole game against the computer, counting your own cards",
        description="A game against the computer: you discard, play and count your own cards;"
        " the computer plays well and, with muggins, takes what you miss. Kept with the web"
        " trainer's games: a game left is resumed. q or Ctrl-C to stop.",
    )
    play.add_argument("--rules", choices=list(RULES), default="six-card")
    play.add_argument(
        "--to", type=int, choices=(61, 121), help="points to win (default: the rules' own)"
    )
    play.add_argument(
        "--level",
        choices=[d.value for d in Difficulty],
        default=Difficulty.STANDARD.value,
        help="beginner: the count of the play is told; standard: it is not; dense: you keep it"
        " (only the last card is shown) (default: %(default)s)",
    )
    play.add_argument(
        "--no-muggins", action="store_true", help="the computer does not take what you miss"
    )
    play.add_argument("--new", action="store_true", help="start a new game, the last one left")
    add_user_option(play)
    play.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """``crib play``: resume the player's game, or start one, and play until it ends or q."""
    from records import versus

    with sitting(args, out) as session:
        stored = None if args.new else versus.in_progress(session.db, session.player_id)
        if stored is None:
            setup = Setup(
                seed=time.time_ns() % 2**63,
                rules=args.rules,
                game=args.to,
                level=Difficulty(args.level),
                muggins=not args.no_muggins,
            )
            game = VersusGame(setup)
            stored = versus.start(session.db, session.player_id, game, now=time.time())
            _say_lines(session.term, game.log)
        else:
            game = stored.game()
            session.term.say("Your game resumed, as far as it went:", "head")
            _say_lines(session.term, [s for s in game.log if s.deal == game.deal_number])
        try:
            _play(session, stored, game)
        except Quit:
            session.term.say("The game waits: crib play takes it up again.", "note")
    return 0


def _play(session: Session, stored: StoredGame, game: VersusGame) -> None:
    """Ask for each of the player's moves, store it, say what it brought, until the end."""
    from records import versus

    term = session.term
    while game.waiting != "over":
        _lay(term, game)
        before = len(game.claims)
        lines = _move(term, game)
        _say_lines(term, lines)
        saved = versus.save(
            session.db, stored, game, game.claims[before:], day=today(), now=time.time()
        )
        if saved is None:
            term.say("The game moved on elsewhere (the browser?): taken up from there.", "note")
            stored = versus.get(session.db, session.player_id, stored.id)
            game = stored.game()
        else:
            stored = saved
    _review(term, game)


def _move(term: Terminal, game: VersusGame) -> list[Said]:
    """The player's next move, asked until the game takes it."""
    while True:
        try:
            if game.waiting == "discard":
                return game.throw(_cards(term, game.hand, "Throw two (numbers or cards): "))
            if game.waiting == "play":
                card = _cards(term, game.hand, "Play (number or card): ")
                if len(card) != 1:
                    term.say("One card: its number, like 2.", "note")
                    continue
                return game.play(card[0], ask_number(term, _PEGS))
            return game.count(ask_number(term, _SHOW))
        except CribbageError as error:
            term.say(str(error)[0].upper() + str(error)[1:] + ".", "note")


def _cards(term: Terminal, held: tuple[Card, ...], prompt: str) -> list[Card]:
    """Cards of ``held`` by their numbers (``1 4``) or as cards (``5H JS``)."""
    while True:
        tokens = split_tokens(term.ask(prompt))
        try:
            return [
                held[int(t) - 1] if t.isdigit() and 1 <= int(t) <= len(held) else as_card(t)
                for t in tokens
            ]
        except CribbageError as error:
            term.say(f"{error}: type the cards' numbers, like 1 4.", "note")


def _lay(term: Terminal, game: VersusGame) -> None:
    """What the player sees before his move: the scores, the table, his cards."""
    match = game.match
    term.say(
        f"You {match.scores[PLAYER]} · the computer {match.scores[COMPUTER]} "
        f"(to {game.rules.game})",
        "head",
    )
    if game.waiting == "count":
        what, cards = game.counting or ("hand", ())
        assert match.starter is not None
        whose = "your crib" if what == "crib" else "your hand"
        term.say(f"Count {whose}: {_text(cards)}  starter {match.starter.unicode()}")
        return
    if game.waiting == "play":
        level = game.setup.level
        if level is Difficulty.DENSE:
            table = match.pile[-1].unicode() if match.pile else "nothing"
            term.say(f"Last card played: {table} (you keep the count)")
        else:
            term.say(f"On the table: {_text(match.pile) or 'nothing'}")
        if level is Difficulty.BEGINNER:
            term.say(f"The count is {match.count}.")
        term.say(f"The computer holds {len(match.held[COMPUTER])} cards.")
    numbered = "  ".join(f"{n}:{c.unicode()}" for n, c in enumerate(game.hand, start=1))
    term.say(f"Your cards: {numbered}")


def _say_lines(term: Terminal, lines: list[Said]) -> None:
    for line in lines:
        style = "wrong" if line.text.startswith(("Muggins", "You missed")) else ""
        style = style or ("right" if line.text.endswith("✔") else "")
        style = style or ("note" if "refused" in line.text else "")
        term.say(line.text, style or ("head" if line.text.startswith(("Deal", "Game")) else ""))


def _review(term: Terminal, game: VersusGame) -> None:
    """The game's review: each discard against the best, what was overlooked, the summary."""
    review = game.review()
    term.say("The review", "head")
    for discard in review.discards:
        if discard.lost:
            term.say(
                f"Deal {discard.deal}: you threw {_text(discard.thrown)}; "
                f"{_text(discard.best)} was best, by {discard.lost:.2f} points",
                "wrong",
            )
        else:
            term.say(f"Deal {discard.deal}: you threw {_text(discard.thrown)}, the best ✔", "right")
    for missed in review.overlooked:
        what = f"your {missed.what}" if missed.what in ("hand", "crib") else f"{missed.what} played"
        term.say(
            f"Deal {missed.deal}, {what}: you claimed {missed.claimed} of "
            f"{missed.due}: {missed.words()}",
            "wrong",
        )
    for refused in review.refused:
        term.say(
            f"Deal {refused.deal}: {refused.claimed} for {refused.what} was over the count", "note"
        )
    term.say(review.summary()[0].upper() + review.summary()[1:] + ".", "head")


def _text(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.unicode() for c in cards)
