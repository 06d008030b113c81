"""Real servers (``web.serve.spawn``: gunicorn as ``crib serve`` runs it) sharing a database."""

from __future__ import annotations

import threading
from pathlib import Path

from web.db import make_engine
from web.serve import free_port, spawn

from .live import LivePlayer, stored_answers, tally_mismatches


def test_two_servers_on_one_postgresql_answer_one_players_drills(
    postgres_url: str, tmp_path: Path
) -> None:
    """Two servers on one PostgreSQL (the documented way to outgrow a machine): one player's
    drills dealt by one and answered on the other, from four tabs at once; every answer is
    stored once and the skill tallies add up."""
    ports = [free_port(), free_port()]
    servers = [
        spawn(port, 2, tmp_path / f"server{n}", "shared", database_url=postgres_url)
        for n, port in enumerate(ports)
    ]
    engine = make_engine(postgres_url)
    try:
        first = LivePlayer(ports)
        first.play(1)  # makes the guest, whose cookie the other tabs share
        tabs = [LivePlayer(ports[::-1] if n % 2 else ports, cookie=first.cookie) for n in range(4)]
        threads = [threading.Thread(target=tab.play, args=(15,)) for tab in tabs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        acknowledged = first.acknowledged + [d for tab in tabs for d in tab.acknowledged]
        assert [tab.failures for tab in tabs] == [0, 0, 0, 0]
        assert len(acknowledged) == 61
        assert stored_answers(engine) == set(acknowledged)
        assert tally_mismatches(engine) == {}
    finally:
        engine.dispose()
        for server in servers:
            server.terminate()
            server.wait(timeout=20)
