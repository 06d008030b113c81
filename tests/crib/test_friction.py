"""Friction seen at the command line this round (issue players2, section 3): Ctrl-C is quiet
with status 130 in every command, ``crib read ''`` and a hand read without its starter say
what to do, ``crib serve`` says a busy port before it warms up."""

from __future__ import annotations

import errno
import io
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import crib.engine
import web.serve
from crib.cli import EXIT_INTERRUPTED, EXIT_USAGE, main
from vision.reader import DetectedCard, Reading
from vision.report import summarize

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PYTHONUNBUFFERED": "1",
        "CRIB_DATABASE_URL": f"sqlite:///{tmp_path / 'trainer.sqlite'}",
        "CRIB_SECRET_KEY": "friction-test",
    }


def _ctrl_c_heard() -> None:
    """In a child before it starts: SIGINT as a terminal's Ctrl-C, even where this test runs as a
    shell's background job (which ignores SIGINT, and its children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _asleep_in(process: subprocess.Popen[str], waiting_in: str) -> None:
    """Return once ``process`` sleeps in a kernel function named ``*waiting_in*``, as a player
    sees it wait: in a read of its pipe (``pipe_read``) or a sleep (``nanosleep``).

    A SIGINT that lands after the process checked for signals but before it entered the call
    is only noted, and the call then waits on regardless: a Ctrl-C sent the moment the pipe
    opens, or a line is answered, can fall there. Linux names the function a sleeping process
    waits in (``/proc/PID/wchan``); where it does not, a second's wait stands in.
    """
    proc = Path(f"/proc/{process.pid}")
    if not proc.is_dir():  # not Linux
        time.sleep(1)
        return
    deadline = time.monotonic() + 60
    while True:
        state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        sleeping_in = (proc / "wchan").read_text() if state == "S" else ""
        if waiting_in in sleeping_in:
            return
        if sleeping_in == "0":  # asleep, but the kernel does not say where
            time.sleep(1)
            return
        assert process.poll() is None and time.monotonic() < deadline, (state, sleeping_in)
        time.sleep(0.02)


def _interrupted(process: subprocess.Popen[str], waiting_in: str) -> tuple[int, str]:
    """Ctrl-C (SIGINT) to ``process`` once it waits (:func:`_asleep_in`): its exit status and
    what it said on standard error."""
    _asleep_in(process, waiting_in)
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:  # not heard: the process must not outlive the test
        process.kill()
        process.communicate()
        raise
    return process.returncode, err


@pytest.mark.slow
def test_ctrl_c_while_crib_score_reads_its_input(tmp_path: Path) -> None:
    """``crib score -`` waiting for the next line: Ctrl-C ends it with no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-m", "crib", "score", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(tmp_path),
        preexec_fn=_ctrl_c_heard,
    )
    assert process.stdin and process.stdout
    process.stdin.write("5H 5D 5C JS 5S\n")
    process.stdin.flush()
    assert process.stdout.readline().startswith("5♥ 5♦ 5♣ J♠ | 5♠")  # now it waits for more
    status, err = _interrupted(process, "pipe_read")
    assert (status, err) == (EXIT_INTERRUPTED, "")


@pytest.mark.slow  # loads the card reader
def test_ctrl_c_while_crib_read_reads_a_photo(tmp_path: Path) -> None:
    """``crib read`` waiting on a photo that is still arriving (a named pipe here)."""
    photo = tmp_path / "photo.jpg"
    os.mkfifo(photo)
    process = subprocess.Popen(
        [sys.executable, "-m", "crib", "read", str(photo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(tmp_path),
        preexec_fn=_ctrl_c_heard,
    )
    deadline = time.monotonic() + 60
    while True:  # opening the pipe's other end succeeds once crib reads it
        try:
            writer = os.open(photo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as error:
            assert error.errno == errno.ENXIO and time.monotonic() < deadline
            time.sleep(0.05)
    try:
        status, err = _interrupted(process, "pipe_read")
    finally:
        os.close(writer)
    assert (status, err) == (EXIT_INTERRUPTED, "")


def test_ctrl_c_while_crib_stats_counts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whatever a command was doing when Ctrl-C came, ``crib`` ends quietly with 130."""

    def interrupted(**_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(crib.engine, "score_distribution", interrupted)
    assert main(["stats"], io.StringIO()) == EXIT_INTERRUPTED
    assert capsys.readouterr().err == ""


@pytest.mark.slow  # builds the web app
def test_ctrl_c_while_crib_serve_starts(tmp_path: Path) -> None:
    """Ctrl-C during the warm-up (made long here) stops ``crib serve`` quietly."""
    code = (
        "import sys, time, web.serve\n"
        "def slow(): print('warming up', flush=True); time.sleep(60)\n"
        "web.serve._warm_up = slow\n"
        "from crib.cli import main\n"
        f"sys.exit(main(['serve', '--port', '{_free_port()}']))\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(tmp_path),
        preexec_fn=_ctrl_c_heard,
    )
    assert process.stdout
    assert process.stdout.readline() == "warming up\n"
    status, err = _interrupted(process, "nanosleep")
    assert (status, err) == (EXIT_INTERRUPTED, "")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_busy_port_is_said_before_the_warm_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The port is checked before the app is built and warmed up (10 s on a slow machine)."""

    def built() -> None:
        raise AssertionError("the app was built before the port was checked")

    monkeypatch.setattr(web.serve, "create_app", built)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(web.serve.ServeError, match=f"port {port} on 127.0.0.1 is taken"):
            web.serve.prepare("127.0.0.1", port, 1, 1)


def test_crib_read_of_an_empty_name(capsys: pytest.CaptureFixture[str]) -> None:
    """``crib read ''`` names the mistake, not the folder '.' that an empty path opens."""
    assert main(["read", ""], io.StringIO()) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err == "crib read: error: an empty name is not a photo: give each photo's file name\n"


def test_a_hand_read_without_its_starter_is_told_how_to_give_it() -> None:
    """Four cards read and none set apart: the note says to name the starter."""
    cards = [
        DetectedCard(code, 0.97, (10.0 * i, 5, 10.0 * i + 8, 20), False)
        for i, code in enumerate(["5H", "5D", "5C", "JS"])
    ]
    note = summarize(Reading(cards=cards, starter_index=None))["note"]
    assert (
        note == "read 4 cards; a hand and its starter are 5: name the starter with --starter CARD"
    )
    three = summarize(Reading(cards=cards[:3], starter_index=None))["note"]
    assert three == "read 3 cards; a hand and its starter are 5"
