"""Real servers (gunicorn as ``crib serve`` runs it, from ``deploy.local_server``) on one DB."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from deploy.local_server import free_port, spawn
from records.database import make_engine

from .live import LivePlayer, stored_answers, tally_mismatches

pytestmark = pytest.mark.slow  # real servers, killed and started again


TABS = ("kind=hand", "kind=crib", "kind=pegging", "kind=hand&mode=sprint")
"""What each of a player's tabs practises (all answered by points)."""


def test_two_servers_on_one_postgresql_answer_one_players_drills(
    postgres_url: str, tmp_path: Path
) -> None:
    """Two servers on one PostgreSQL (the documented way to outgrow a machine): one player's
    drills dealt by one and answered on the other, from four tabs at once (each on drills of
    its own, 57 deals: within the 60 a minute a player is dealt); every answer is stored once
    and the skill tallies add up."""
    ports = [free_port(), free_port()]
    servers = [
        spawn(port, 2, tmp_path / f"server{n}", "shared", database_url=postgres_url)
        for n, port in enumerate(ports)
    ]
    engine = make_engine(postgres_url)
    try:
        first = LivePlayer(ports)
        first.play(1)  # makes the guest, whose cookie the other tabs share
        tabs = [
            LivePlayer(ports[::-1] if n % 2 else ports, cookie=first.cookie, drills=drills)
            for n, drills in enumerate(TABS)
        ]
        threads = [threading.Thread(target=tab.play, args=(14,)) for tab in tabs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        acknowledged = first.acknowledged + [d for tab in tabs for d in tab.acknowledged]
        assert [tab.failures for tab in tabs] == [0, 0, 0, 0]
        assert len(acknowledged) == 57
        assert stored_answers(engine) == set(acknowledged)
        assert tally_mismatches(engine) == {}
    finally:
        engine.dispose()
        for server in servers:
            server.terminate()
            server.wait(timeout=20)


def _children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (gunicorn's workers, for its master)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


def _alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "zombie" not in status.read_text()


def _wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_every_acknowledged_answer_survives_kill_9_of_a_worker_then_the_master(
    tmp_path: Path,
) -> None:
    """Four players answering on gunicorn (SQLite file): ``kill -9`` of a worker mid-traffic,
    then of the master, then of its orphaned workers; after a restart on the same database
    every acknowledged answer is stored and every player's skill tallies match a recount of
    their answers."""
    port = free_port()
    server = spawn(port, 2, tmp_path, "crash")
    players = [LivePlayer([port]) for _ in range(4)]
    stop = threading.Event()
    threads = [threading.Thread(target=p.play, args=(10_000, stop)) for p in players]

    def acknowledged() -> int:
        return sum(len(p.acknowledged) for p in players)

    try:
        for thread in threads:
            thread.start()
        _wait_for(lambda: acknowledged() >= 40, 60, "answers before the worker kill")
        workers = _children(server.pid)
        assert len(workers) == 2
        os.kill(workers[0], signal.SIGKILL)
        killed_at = acknowledged()
        _wait_for(lambda: acknowledged() >= killed_at + 40, 60, "answers after the worker kill")
        assert len(_children(server.pid)) == 2  # the master replaced it
        orphans = _children(server.pid)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        # The orphaned workers serve on while requests keep coming; a supervisor restarting
        # the service kills them (systemd: the unit's whole control group), here mid-request.
        answered_by_master = acknowledged()
        _wait_for(
            lambda: acknowledged() >= answered_by_master + 10 or not any(map(_alive, orphans)),
            60,
            "the orphans to answer or exit",
        )
        for orphan in orphans:
            if _alive(orphan):
                os.kill(orphan, signal.SIGKILL)
        _wait_for(lambda: not any(_alive(w) for w in orphans), 30, "the workers to exit")
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        if server.poll() is None:
            server.kill()
            server.wait()
    restarted = spawn(free_port(), 2, tmp_path, "crash")
    engine = make_engine(f"sqlite:///{tmp_path / 'trainer.sqlite'}")
    try:
        answered = [d for p in players for d in p.acknowledged]
        assert len(answered) >= 80
        assert set(answered) <= stored_answers(engine)
        assert tally_mismatches(engine) == {}
    finally:
        engine.dispose()
        restarted.terminate()
        restarted.wait(timeout=20)
