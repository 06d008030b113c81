"""``crib drill``: the web trainer's drills in a terminal, kept in the same database.

Deal, read the answer, grade it with the web's feedback (:mod:`crib.feedback`: itemised, in
players' words, coloured where the terminal has colour), next with Enter, quit with ``q`` or
Ctrl-C. Answers are stored as the web trainer stores them (:mod:`records.drills`), in its
database (``CRIB_DATABASE_URL``, else ``config.py``'s, else ``instance/trainer.sqlite``:
:func:`web.settings.database_url`), so progress, weak spots and the daily streak are one:

* ``--user NAME`` plays as that account, its password asked and checked as the web's log-in
  checks it; this computer's terminal guest, if it answered anything, joins the account as a
  browser's guest does on log-in.
* Otherwise the terminal plays as this computer's terminal guest, a guest player whose id and
  session key are kept, for each database, in ``terminal-guest.json`` in the instance folder
  (readable by its owner only); a guest since purged is made again.

The day an answer counts for is this computer's (its time zone), as a browser's is its own.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime
import getpass
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from crib.feedback import ROLES
from trainer.dealing import Category, Deal, Difficulty
from trainer.errors import CribbageError, InvalidAnswerError
from trainer.grading import MOST_COUNT, MOST_PEG, MOST_SHOW
from web import settings

KINDS = ("hand", "crib", "pegging", "discard", "play", "sprint", "daily")
"""What ``crib drill`` practises: a kind of drill, the timed sprint, or the daily challenge."""
GUEST_FILE = "terminal-guest.json"
"""The terminal guest's file in the instance folder."""

_STYLES = {"right": "\033[32m", "wrong": "\033[31m", "note": "\033[33m", "head": "\033[1m"}
_COLOURED = frozenset({"right", "wrong", "note"})
"""The styles that colour a line: a red suit in it goes back to the line's colour after."""
_RESET = "\033[0m"
_RED_CARD = re.compile(r"((?:10|[2-9AJQK])[♥♦])")


class Quit(Exception):
    """The player typed ``q`` (or standard input ended)."""


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``drill`` to the ``crib`` command."""
    drill = commands.add_parser(
        "drill",
        help="practise in the terminal, kept with the web trainer's progress",
        description="Practise counting in the terminal: the web trainer's drills, graded the"
        " same way and kept in its database (one streak, one history). Enter for the next"
        " drill; q or Ctrl-C to stop.",
    )
    drill.add_argument(
        "kind", nargs="?", default="hand", choices=KINDS, help="what to practise (default: hand)"
    )
    drill.add_argument(
        "--level",
        choices=[d.value for d in Difficulty],
        default=Difficulty.STANDARD.value,
        help="beginner: few combinations (pegging: the count shown); dense: busy deals"
        " (pegging: you keep the count) (default: %(default)s)",
    )
    drill.add_argument(
        "--focus", metavar="CATEGORY", help="deal only this category (a weak spot: 'crib flush')"
    )
    add_user_option(drill)
    drill.set_defaults(run=run)


def add_user_option(parser: argparse.ArgumentParser) -> None:
    """``--user NAME``: play as that account (:func:`sitting` asks its password)."""
    parser.add_argument(
        "--user", metavar="NAME", help="play as this account (its password is asked)"
    )


class Terminal:
    """Where the drill talks: lines out (coloured on a colour terminal), answers in."""

    def __init__(self, out: TextIO, source: TextIO) -> None:
        self.out = out
        self.source = source
        term = os.environ.get("TERM", "")
        self.colour = out.isatty() and "NO_COLOR" not in os.environ and term != "dumb"

    def say(self, text: str, style: str = "") -> None:
        """Print a line, in its style's colour and with red suits where there is colour."""
        if self.colour:
            back = _STYLES[style] if style in _COLOURED else "\033[39m"  # the line's colour
            text = _RED_CARD.sub(lambda m: f"\033[31m{m.group(1)}{back}", text)
            if style in _STYLES:
                text = f"{_STYLES[style]}{text}{_RESET}"
        print(text, file=self.out)

    def ask(self, prompt: str) -> str:
        """The player's answer to ``prompt``, stripped.

        Raises:
            Quit: for ``q`` or the end of the input.
        """
        self.out.write(prompt)
        self.out.flush()
        line = self.source.readline()
        if not line:
            self.out.write("\n")
            raise Quit
        answer = line.strip()
        if answer.lower() in ("q", "quit"):
            raise Quit
        return answer

    def pause(self, what: str = "next") -> None:
        """Wait for Enter before the next drill (or card)."""
        self.ask(f"Enter: {what} · q: quit ")


@dataclasses.dataclass
class Session:
    """One sitting at the terminal: its database connection, its player, its answers."""

    db: Any
    player_id: int
    term: Terminal
    answered: int = 0
    right: int = 0
    steps: int = 0
    """Cards and goes pegged in the plays answered."""
    steps_right: int = 0

    def store(self, drill: Any, given: dict[str, Any], shown_at: float) -> Any:
        """Grade and store an answer by the web's rules; a malformed answer is said and ``None``.

        Raises:
            CribbageError: the records refuse the drill an answer (it expired: it was dealt
                over a day ago).
        """
        from records import drills
        from records.errors import DrillRefused

        given = given | {"seconds": max(time.monotonic() - shown_at, 0.0)}
        try:
            taken = drills.answer(
                self.db, drill.id, self.player_id, given, day=today(), now=time.time()
            )
        except InvalidAnswerError as error:
            self.term.say(str(error), "wrong")
            return None
        except DrillRefused as error:
            raise CribbageError(str(error)) from None
        marked = taken.marked
        if marked.final:
            self.answered += 1
            self.right += marked.grade.correct
            self.steps += len(marked.grade.steps)
            self.steps_right += sum(s.correct for s in marked.grade.steps)
        return marked


def today() -> str:
    """Today's date on this computer (its time zone): the day answers count for."""
    return datetime.date.today().isoformat()


@dataclasses.dataclass(frozen=True)
class Ask:
    """A number the drill asks: its prompt, the highest it can be, and the words refusing more."""

    prompt: str
    top: int
    refusal: str


_SHOW_COUNT = Ask("Count: ", MOST_SHOW, f"A hand or crib scores 0 to {MOST_SHOW}")
_PEGS = Ask("Pegs: ", MOST_PEG, f"One card pegs 0 to {MOST_PEG} (a double pair royal making 31)")
_COUNT = Ask("Count: ", MOST_COUNT, f"The count of the play runs from 0 to {MOST_COUNT}")


def ask_number(term: Terminal, ask: Ask) -> int:
    """A whole number from 0 to the ask's top, asked until one is given."""
    while True:
        answer = term.ask(ask.prompt)
        if answer.isdigit() and int(answer) <= ask.top:
            return int(answer)
        term.say(f"{ask.refusal}: type a number from 0 to {ask.top}, or q to quit.", "note")


def _lay(deal: Deal) -> str:
    """The cards as the drill shows them."""
    from crib.feedback import cards_text

    if deal.kind in ("hand", "crib"):
        assert deal.starter is not None
        what = "the crib (your crib)" if deal.kind == "crib" else "the hand"
        return f"Count {what}: {cards_text(deal.cards)}  starter {deal.starter.unicode()}"
    if deal.kind == "pegging":
        assert deal.played is not None
        pile = cards_text(deal.cards) or "nothing"
        before = sum(c.value for c in deal.cards)
        card = deal.played.unicode()
        if deal.count_shown == "after":
            shown = f"The count is {before}; {card} is played, making {before + deal.played.value}."
        elif deal.count_shown == "before":
            shown = f"The count is {before}; {card} is played."
        else:
            shown = f"{card} is played on them. You keep the count."
        return f"Played since the count restarted: {pile}\n{shown}"
    cards = "  ".join(f"{n}:{c.unicode()}" for n, c in enumerate(deal.cards, start=1))
    whose = "your crib" if deal.dealer else "the dealer's crib"
    return f"You are the {'dealer' if deal.dealer else 'pone'}: throw two to {whose}.\n{cards}"


def _ask(session: Session, drill: Any, deal: Deal) -> Any:
    """Show ``deal`` and take the player's answer until one is graded; the marked answer."""
    from trainer.cards import as_card

    term = session.term
    term.say(_lay(deal))
    while True:
        shown_at = time.monotonic()
        if deal.kind == "discard":
            given: dict[str, Any] = {"discard": _throw(term, deal)}
        elif deal.kind == "pegging" and deal.count_asked:
            given = {"count": ask_number(term, _COUNT), "points": ask_number(term, _PEGS)}
        else:
            given = {"points": ask_number(term, _PEGS if deal.kind == "pegging" else _SHOW_COUNT)}
        marked = session.store(drill, given, shown_at)
        if marked is not None:
            thrown = [as_card(c) for c in given.get("discard", ())]
            return marked, thrown


def _throw(term: Terminal, deal: Deal) -> list[str]:
    """Two cards of the six, by their numbers (``1 4``) or as cards (``5H JS``)."""
    from trainer.cards import as_card, split_tokens

    while True:
        tokens = split_tokens(term.ask("Throw two (numbers or cards): "))
        try:
            cards = [
                deal.cards[int(t) - 1] if t.isdigit() and 1 <= int(t) <= 6 else as_card(t)
                for t in tokens
            ]
        except CribbageError as error:
            term.say(str(error), "note")
            continue
        if len(cards) == 2 and len(set(cards)) == 2 and all(c in deal.cards for c in cards):
            return [str(c) for c in cards]
        term.say("Two different cards of the six: their numbers, like 1 4.", "note")


def _feedback(session: Session, deal: Deal, marked: Any, thrown: list[Any]) -> None:
    from crib.feedback import verdict_lines

    for style, text in verdict_lines(deal, marked.grade, thrown):
        session.term.say(text, style)


def _play(session: Session, drill: Any, deal: Deal) -> None:
    """A play pegged card by card: each card (and go) graded as it comes, then the play."""
    from crib.feedback import step_lines

    term = session.term
    half = len(deal.cards) // 2
    term.say(f"The pone holds {_cards(deal.cards[:half])}; the dealer {_cards(deal.cards[half:])}.")
    claims: list[dict[str, int]] = []
    pegs = deal.pegs()
    pile: list[str] = []
    went = False  # the other player has said go in this count
    for n, peg in enumerate(pegs, start=1):
        if peg.card is None:
            term.say(f"Card {n} of {len(pegs)}: neither can play without passing 31: go.")
        else:
            on = bool(pile) and pegs[n - 2].player == peg.player
            if on and not went:
                who, other = ROLES[peg.player], ROLES[1 - peg.player]
                term.say(f"The {other} cannot play without passing 31: go. The {who} plays on.")
            went = on
            lead = "plays" if pile else "leads"
            term.say(
                f"Card {n} of {len(pegs)}: the {ROLES[peg.player]} {lead} "
                f"{peg.card.unicode()}   (on the table: {' '.join(pile) or 'nothing'})"
            )
        shown_at = time.monotonic()
        claim = {"count": ask_number(term, _COUNT), "points": ask_number(term, _PEGS)}
        marked = session.store(drill, {"steps": [*claims, claim]}, shown_at)
        if marked is None:
            return
        claims.append(claim)
        for style, text in step_lines(marked.grade):
            term.say(text, style)
        if peg.card is None or peg.count == 31:
            pile = []
        else:
            pile.append(peg.card.unicode())
        term.pause("next card" if n < len(pegs) else "next play")


def _cards(cards: Any) -> str:
    from crib.feedback import cards_text

    return cards_text(cards)


def _practise(session: Session, kind: str, level: Difficulty, focus: Category | None) -> None:
    from records import drills

    while True:
        drill = drills.deal_next(
            session.db,
            session.player_id,
            kind,  # type: ignore[arg-type]
            level,
            now=time.time(),
            per_minute=0,
            focus=focus,
        )
        deal = Deal.from_json(drill.deal)
        if drill.mode == "review":
            session.term.say("Again (you missed this one before):", "head")
        if deal.kind == "play":
            _play(session, drill, deal)
            continue
        marked, thrown = _ask(session, drill, deal)
        _feedback(session, deal, marked, thrown)
        session.term.pause()


def _sprint(session: Session) -> None:
    """As many hands as possible in the sprint's minutes; a miss costs seconds."""
    from records import drills, progress
    from trainer.progress import SPRINT_PENALTY, SPRINT_SECONDS, best_sprint

    term = session.term
    best = best_sprint(progress.sprint_runs(session.db, session.player_id, SPRINT_SECONDS))
    term.say(
        f"Sprint: count as many hands as you can in {SPRINT_SECONDS // 60} minutes; a wrong"
        f" count costs {SPRINT_PENALTY} seconds."
        + (f" Your best: {best.right} right ({best.day})." if best else ""),
        "head",
    )
    term.pause("start")
    deadline, asked, right, first = time.monotonic() + SPRINT_SECONDS, 0, 0, True
    while time.monotonic() < deadline:
        drill = drills.deal_next(
            session.db,
            session.player_id,
            "hand",
            Difficulty.STANDARD,
            "sprint",
            now=time.time(),
            per_minute=0,
            first=first,
        )
        first = False
        deal = Deal.from_json(drill.deal)
        left = int(deadline - time.monotonic())
        term.say(f"[{left // 60}:{left % 60:02d} left] {_lay(deal)}")
        shown_at = time.monotonic()
        points = ask_number(term, _SHOW_COUNT)
        if time.monotonic() >= deadline:
            term.say("Time's up: that count came after the clock stopped.", "note")
            break
        marked = session.store(drill, {"points": points}, shown_at)
        if marked is None:
            continue
        asked += 1
        right += marked.grade.correct
        if not marked.grade.correct:
            deadline -= SPRINT_PENALTY
        _feedback(session, deal, marked, [])
        if time.monotonic() < deadline:
            term.pause()
    term.say(f"Sprint over: {right} right of {asked}.", "head")
    if right and (best is None or right > best.right):
        was = f" (your best was {best.right} right)" if best else ""
        term.say(f"New best!{was}", "right")
    elif best:
        term.say(f"Your best: {best.right} right ({best.day}).")


def _daily(session: Session) -> None:
    """Today's challenge (this computer's date): the deals not yet answered, then the summary."""
    from records import drills, progress

    date = today()
    dealt = drills.daily_set(session.db, session.player_id, date, time.time())
    done = drills.answered(session.db, [d.id for d in dealt])
    for n, drill in enumerate(dealt, start=1):
        if drill.id in done:
            continue
        session.term.say(f"Daily challenge {date}: {n} / {len(dealt)}", "head")
        deal = Deal.from_json(drill.deal)
        marked, thrown = _ask(session, drill, deal)
        _feedback(session, deal, marked, thrown)
        if n < len(dealt):
            session.term.pause()
    done = drills.answered(session.db, [d.id for d in dealt])
    summary = progress.daily_summary(session.db, session.player_id, date, dealt, done)
    session.term.say(f"Today: {summary['score']} / {summary['of']}", "head")
    session.term.say(summary["share"])


def _summary(session: Session) -> None:
    """The sitting's answers, the player's daily streak and counting rating (the web's)."""
    from records import progress, ratings
    from trainer.counting_rating import shown

    standing = progress.standing(session.db, session.player_id, today())
    rating = ratings.standing(session.db, session.player_id, today())
    rated = (
        f" · counting rating {shown(rating.overall)} ({rating.trend:+.0f} this week)"
        if rating.rated
        else ""
    )
    plays = (
        f" (in plays, {session.steps_right} of {session.steps} cards and goes right)"
        if session.steps
        else ""
    )
    session.term.say(
        f"{session.answered} answered, {session.right} right{plays} · daily streak"
        f" {standing['streak']} (best {standing['best_streak']}){rated}",
        "head",
    )


def guest_file(instance: Path) -> Path:
    """The terminal guest's file in ``instance``."""
    return instance / GUEST_FILE


def _kept_guests(path: Path) -> dict[str, Any]:
    """The terminal guests kept in ``path``, by database (none when it is missing or unreadable)."""
    with contextlib.suppress(OSError, ValueError):
        kept = json.loads(path.read_text())
        if isinstance(kept, dict):
            return kept
    return {}


def _database_key(db: Any) -> str:
    """A database as the guest file names it: its URL without the password."""
    return str(db.engine.url.render_as_string(hide_password=True))


def _kept_guest(db: Any, path: Path) -> Any:
    """The terminal guest the file keeps for this database, if it is still there, else None."""
    from records import players

    kept: Any = _kept_guests(path).get(_database_key(db), {})
    with contextlib.suppress(KeyError, TypeError, ValueError):
        row = players.get(db, int(kept["player_id"]))
        if row is not None and row.username is None and row.session_key == kept["session_key"]:
            return row
    return None


def terminal_guest(db: Any, instance: Path) -> int:
    """This computer's terminal guest on this database: the one its file keeps, or a new one.

    The file is written readable by its owner only.
    """
    from records import players

    path = guest_file(instance)
    row = _kept_guest(db, path)
    if row is not None:
        return int(row.id)
    row = players.new_guest(db, time.time())
    kept = _kept_guests(path) | {
        _database_key(db): {"player_id": row.id, "session_key": row.session_key}
    }
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(handle, "w") as out:
        json.dump(kept, out)
    return int(row.id)


def account(db: Any, instance: Path, name: str, ask: Callable[[str], str]) -> int:
    """The account ``name``, its password asked and checked as the web's log-in checks it.

    This computer's terminal guest joins it (its answers are the account's; its file goes).

    Raises:
        CribbageError: for an unknown name or a wrong password (the same words for both).
    """
    from werkzeug.security import check_password_hash

    from records import players

    row = players.by_name(db, name)
    password = ask(f"Password for {name}: ")
    if row is None or not check_password_hash(row.password_hash or "", password):
        raise CribbageError("unknown username or wrong password")
    guest = _kept_guest(db, guest_file(instance))
    if guest is not None:  # merged and deleted: the next guest on this database is a new one
        players.merge_guest(db, guest.id, row.id)
    return int(row.id)


@contextlib.contextmanager
def sitting(args: argparse.Namespace, out: TextIO) -> Iterator[Session]:
    """The web trainer's database opened, its schema prepared, and the player chosen.

    ``--user NAME`` plays as that account (its password asked), else the terminal guest.

    Raises:
        CribbageError: the database cannot be used.
    """
    from sqlalchemy.exc import OperationalError

    from records.database import Database
    from records.schema import SchemaError

    instance = settings.instance_folder()
    instance.mkdir(parents=True, exist_ok=True)
    database = Database(settings.database_url(instance))
    try:
        database.prepare_schema()
        db = database.connect()
    except (SchemaError, OperationalError) as error:
        reason = " ".join(str(getattr(error, "orig", error)).split())
        raise CribbageError(f"cannot use the trainer's database: {reason}") from None
    try:
        if args.user:
            player_id = account(db, instance, args.user, getpass.getpass)
        else:
            player_id = terminal_guest(db, instance)
        yield Session(db, player_id, Terminal(out, sys.stdin))
    finally:
        db.close()
        database.dispose()


def run(args: argparse.Namespace, out: TextIO) -> int:
    """``crib drill``: open the web trainer's database, pick the player, drill until q."""
    focus = None
    if args.focus is not None:
        names = ", ".join(c.value for c in Category)
        if args.focus not in {c.value for c in Category}:
            raise CribbageError(f"no category {args.focus!r} (use one of: {names})")
        focus = Category(args.focus)
    with sitting(args, out) as session:
        try:
            if args.kind == "sprint":
                _sprint(session)
            elif args.kind == "daily":
                _daily(session)
            else:
                _practise(session, args.kind, Difficulty(args.level), focus)
        except Quit:
            pass
        except KeyboardInterrupt:
            session.term.say("")
            _summary(session)
            raise
        _summary(session)
    return 0
