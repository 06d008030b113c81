"""``crib drill`` driven through a pseudo-terminal as a player drives it: deal, answer, the web's
feedback in colour, Enter for the next, q or Ctrl-C to stop; the answers land in the web
trainer's database, so a daily challenge done in the terminal is the web's streak (issue
players2, section 4)."""

from __future__ import annotations

import contextlib
import errno
import os
import pty
import re
import select
import signal
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select as query

from records.database import Database
from records.models import Answer, Drill, Player, PlayerRating
from trainer.answers import FASTEST_ANSWER
from trainer.dealing import Deal
from trainer.discard import analyze_discards
from trainer.grading import grade

ROOT = Path(__file__).resolve().parents[2]
BOOT = """
import os, sys
from flask import Flask
Flask.auto_find_instance_path = lambda self: os.environ["CRIB_TEST_INSTANCE"]
if os.environ.get("CRIB_TEST_SPRINT"):
    import trainer.progress
    trainer.progress.SPRINT_SECONDS = int(os.environ["CRIB_TEST_SPRINT"])
from crib.cli import main
sys.exit(main(sys.argv[1:]))
"""
"""Runs ``crib`` with the web trainer's instance folder in the test's (as tests/web do)."""
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Terminal:
    """``crib ARGS`` on a pseudo-terminal (its controlling terminal: Ctrl-C is SIGINT)."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become crib
            os.chdir(ROOT)
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # heard even from a background job
            os.execve(sys.executable, [sys.executable, "-c", BOOT, *args], env)
        self.seen = ""
        self.status: int | None = None

    def read(self, timeout: float) -> None:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return
        try:
            chunk = os.read(self.fd, 4096)
        except OSError as error:  # the child is gone: EIO on Linux
            if error.errno != errno.EIO:
                raise
            chunk = b""
        if not chunk:
            raise EOFError(self.seen)
        self.seen += chunk.decode("utf-8", "replace")

    @property
    def text(self) -> str:
        """What the terminal shows, colours taken out."""
        return ANSI.sub("", self.seen)

    def expect(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        """Wait until ``pattern`` shows after what was expected before; return its match."""
        deadline = time.monotonic() + timeout
        while True:
            found = re.compile(pattern).search(self.text, self.mark)
            if found:
                self.mark = found.end()
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} not shown; the terminal shows:\n{self.text}")
            self.read(0.2)

    mark = 0

    def type(self, line: str) -> None:
        """Type ``line`` and Enter, after a player's glance (the trainer refuses faster)."""
        time.sleep(FASTEST_ANSWER + 0.1)
        os.write(self.fd, line.encode() + b"\r")

    def wait(self, timeout: float = 30.0) -> int:
        """The exit status, once the command has ended (reading what is left)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with_status = os.waitpid(self.pid, os.WNOHANG)
            if with_status[0]:
                self.status = os.waitstatus_to_exitcode(with_status[1])
                return self.status
            with contextlib.suppress(EOFError):
                self.read(0.1)
        raise AssertionError(f"crib did not end; the terminal shows:\n{self.text}")

    def close(self) -> None:
        if self.status is None:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


@pytest.fixture
def setup(tmp_path: Path) -> dict[str, Any]:
    """An instance folder and a SQLite database of the test's, and the environment to use them."""
    instance = tmp_path / "instance"
    instance.mkdir()
    url = f"sqlite:///{tmp_path / 'trainer.sqlite'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CRIB_")}
    env |= {
        "CRIB_DATABASE_URL": url,
        "CRIB_TEST_INSTANCE": str(instance),
        "PYTHONPATH": str(ROOT),
        "TERM": "xterm",
        "TZ": "UTC",
    }
    env.pop("NO_COLOR", None)
    return {"instance": instance, "url": url, "env": env}


@pytest.fixture
def crib(setup: dict[str, Any]) -> Iterator[Any]:
    """Start ``crib`` with arguments on a pseudo-terminal; every one is ended at the end."""
    started: list[Terminal] = []

    def start(*args: str, **env: str) -> Terminal:
        terminal = Terminal(list(args), setup["env"] | env)
        started.append(terminal)
        return terminal

    yield start
    for terminal in started:
        terminal.close()


def latest_drill(url: str, mode: str | None = None) -> Any:
    """The drill dealt last (the one on the terminal)."""
    database = Database(url)
    with database.connect() as db:
        statement = query(Drill).order_by(Drill.id.desc()).limit(1)
        if mode is not None:
            statement = statement.where(Drill.mode == mode)
        drill = db.execute(statement).one()
    database.dispose()
    return drill


def stored(url: str) -> list[Any]:
    database = Database(url)
    with database.connect() as db:
        rows = list(db.execute(query(Answer.correct, Answer.player_id, Answer.kind)))
    database.dispose()
    return rows


def right_answer(drill: Any) -> str:
    """What to type for a drill to be right."""
    deal = Deal.from_json(drill.deal)
    if deal.kind == "discard":
        best = analyze_discards(deal.cards, dealer=bool(deal.dealer))[0]
        return " ".join(str(deal.cards.index(c) + 1) for c in best.discard)
    return str(int(grade(deal, {"points": 0, "count": 0}).total))


@pytest.mark.slow
def test_a_hand_drill_in_the_terminal(crib: Any, setup: dict[str, Any]) -> None:
    """Count a hand right, then one wrong (itemised feedback in colour, the rules), Enter for
    the next, q to stop: both answers are stored for this computer's terminal guest."""
    term = crib("drill", "hand")
    term.expect(r"Count the hand: .* starter ")
    term.expect("Count: ")
    term.type(right_answer(latest_drill(setup["url"])))
    term.expect(r"✔ Right: \d+")
    assert "\x1b[32m✔ Right" in term.seen  # green on a colour terminal
    term.expect("Enter: next")
    term.type("")
    term.expect("Count the hand: ")
    term.expect("Count: ")
    drill = latest_drill(setup["url"])
    total = grade(Deal.from_json(drill.deal), {"points": 0}).total
    term.type(str(int(total) + 2))
    term.expect(rf"✘ It is {int(total)}, not {int(total) + 2}: you over-counted by 2")
    term.expect("“")  # the count as players say it
    term.expect("Enter: next")
    term.type("q")
    term.expect(r"2 answered, 1 right · daily streak 0 \(best 0\)")
    assert term.wait() == 0
    answers = stored(setup["url"])
    assert sorted(a.correct for a in answers) == [False, True]
    guest = setup["instance"] / "terminal-guest.json"
    assert stat.S_IMODE(guest.stat().st_mode) == 0o600
    assert len({a.player_id for a in answers}) == 1


@pytest.mark.slow
def test_answers_in_the_terminal_move_the_counting_rating(crib: Any, setup: dict[str, Any]) -> None:
    """A crib counted right in the terminal moves the player's rating in cribs and overall,
    as the web's answers do (issue players3, item 15); the summary says where it stands."""
    term = crib("drill", "crib")
    term.expect("Count: ")
    term.type(right_answer(latest_drill(setup["url"])))
    term.expect(r"✔ Right")
    term.expect("Enter: next")
    term.type("q")
    shown = term.expect(
        r"1 answered, 1 right · daily streak 0 \(best 0\) · counting rating (\d+)\?"
    )
    assert term.wait() == 0
    database = Database(setup["url"])
    with database.connect() as db:
        rated = dict(db.execute(query(PlayerRating.kind, PlayerRating.rating)).all())
    database.dispose()
    assert set(rated) == {"crib", "overall"} and rated["crib"] > 1500
    assert shown.group(1) == f"{rated['overall']:.0f}"


@pytest.mark.slow
def test_the_hardest_pegging_level_in_the_terminal_asks_the_count(
    crib: Any, setup: dict[str, Any]
) -> None:
    """Dense pegging shows no count: the player says it, then the pegs; the rules shown are
    the play's (no combination of cards adding to 15)."""
    term = crib("drill", "pegging", "--level", "dense")
    term.expect("You keep the count.")
    deal = Deal.from_json(latest_drill(setup["url"]).deal)
    count = sum(c.value for c in (*deal.cards, deal.played) if c)
    wrong = count + 1 if count < 31 else count - 1  # a count the prompt takes (0 to 31)
    term.expect("Count: ")
    term.type(str(wrong))
    term.expect("Pegs: ")
    term.type(str(sum(i.points for i in deal.peg_items())))
    term.expect(rf"✘ The count is {count}, not {wrong}; it pegs \d+, as you said")
    term.expect("Enter: next")
    assert "Each combination" not in term.text and "distinct run" not in term.text
    term.type("q")
    assert term.wait() == 0


@pytest.mark.slow
def test_a_play_pegged_card_by_card_in_the_terminal(crib: Any, setup: dict[str, Any]) -> None:
    term = crib("drill", "play")
    term.expect("The pone holds")
    deal = Deal.from_json(latest_drill(setup["url"]).deal)
    pegs = deal.pegs()
    for n, peg in enumerate(pegs, start=1):
        term.expect(rf"Card {n} of {len(pegs)}: ")
        term.expect("Count: ")
        term.type(str(peg.count))
        term.expect("Pegs: ")
        term.type(str(peg.points))
        term.expect(r"✔ Right: the count is")
        if n < len(pegs):
            term.expect("Enter: next card")
            term.type("")
    term.expect(rf"The play is over: {len(pegs)} of {len(pegs)} right.")
    term.expect("Enter: next play")
    term.type("q")
    assert term.wait() == 0
    assert [(a.correct, a.kind) for a in stored(setup["url"])] == [(True, "play")]


@pytest.mark.slow
def test_ctrl_c_stops_the_drill_quietly(crib: Any, setup: dict[str, Any]) -> None:
    """Ctrl-C: the sitting's summary, no traceback, exit status 130."""
    term = crib("drill", "discard")
    term.expect("Throw two")
    term.type(right_answer(latest_drill(setup["url"])))
    term.expect("✔ Best throw")
    term.expect("Enter: next")
    os.write(term.fd, b"\x03")
    assert term.wait() == 130
    assert "1 answered, 1 right" in term.text and "Traceback" not in term.text


@pytest.mark.slow
def test_a_sprint_in_the_terminal_says_its_best(crib: Any, setup: dict[str, Any]) -> None:
    """A sprint (its clock cut to a few seconds here) ends on the count, a new best."""
    term = crib("drill", "sprint", CRIB_TEST_SPRINT="6")
    term.expect("Enter: start")
    term.type("")
    term.expect("Count: ")
    term.type(right_answer(latest_drill(setup["url"], "sprint")))
    term.expect("✔ Right")
    term.expect("Enter: next")
    term.type("")
    term.expect("Count: ")
    time.sleep(6)
    term.type("0")
    term.expect("Time's up")
    term.expect(r"Sprint over: 1 right of 1\.")
    term.expect("New best!")
    assert term.wait() == 0


@pytest.mark.slow
def test_a_daily_done_in_the_terminal_is_the_webs_streak(crib: Any, setup: dict[str, Any]) -> None:
    """Register on the web, do today's challenge in the terminal as that account (its password
    asked, hidden): the web's home page counts it in the streak. A wrong password is refused in
    one line."""
    from web import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "DATABASE_URL": setup["url"],
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        }
    )
    client = app.test_client()
    client.get("/auth/register")
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/auth/register").text)
    assert token is not None
    form = {"username": "alice", "password": "cribbage29", "csrf_token": token.group(1)}
    assert client.post("/auth/register", data=form).status_code == 302

    wrong = crib("drill", "daily", "--user", "alice")
    wrong.expect("Password for alice: ")
    wrong.type("nope")
    assert wrong.wait() == 2
    assert "unknown username or wrong password" in wrong.text and "nope" not in wrong.text

    term = crib("drill", "daily", "--user", "alice")
    term.expect("Password for alice: ")
    term.type("cribbage29")
    for n in range(1, 7):
        term.expect(rf"Daily challenge \d{{4}}-\d\d-\d\d: {n} / 6")
        term.expect("Throw two" if n == 5 else "(Count|Pegs): ")
        drill = latest_daily(setup["url"], n - 1)
        if Deal.from_json(drill.deal).count_asked:  # a pegging drill asking the count
            deal = Deal.from_json(drill.deal)
            term.type(str(sum(c.value for c in (*deal.cards, deal.played) if c)))
            term.expect("Pegs: ")
        term.type(right_answer(drill))
        if n < 6:
            term.expect("Enter: next")
            term.type("")
    term.expect(r"Today: 6 / 6")
    term.expect(r"Streak 1")
    term.expect(r"6 answered, 6 right · daily streak 1 \(best 1\)")
    assert term.wait() == 0
    home = client.get("/").text
    assert re.search(r'streak <strong id="streak">1</strong>', home)
    assert "Today’s challenge: <strong>done, 6/6" in home
    app.extensions["crib_database"].dispose()


def latest_daily(url: str, position: int) -> Any:
    database = Database(url)
    with database.connect() as db:
        drill = db.execute(
            query(Drill).where(Drill.position == position, Drill.mode == "daily")
        ).one()
        assert db.execute(query(Player.username).where(Player.id == drill.player_id)).scalar()
    database.dispose()
    return drill
