"""The shipped firewall rules (``deploy/nftables.conf``), loaded for real with nft.

They limit new connections to the web ports per client address; each test loads them for a
port of its own (``deploy.local_firewall``) in front of a small echo server, and removes them.
Loading rules needs root and nftables in the kernel: elsewhere the tests skip, saying why.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from deploy.local_firewall import applied, render
from deploy.local_server import free_port

BURST = 20
"""New connections an address may open at once (``burst 20 packets``)."""
RATE = 10
"""New connections an address may open a second after those (``10/second``)."""
REFUSED_WAIT = 0.2
"""Seconds a test waits for a connection the firewall may drop (its client would retry)."""


@pytest.fixture
def port() -> Iterator[int]:
    """A port with an echo server behind the shipped rules, loaded for it alone."""
    listener = socket.create_server(("127.0.0.1", free_port()), backlog=256)
    number = listener.getsockname()[1]

    def echo(connection: socket.socket) -> None:
        with connection:
            while data := connection.recv(64):
                connection.sendall(data)

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:  # closed: the test is over
                return
            threading.Thread(target=echo, args=(connection,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    try:
        with applied([number]):
            yield number
    except OSError as error:  # nft missing (FileNotFoundError) or refused
        pytest.skip(f"the firewall rules cannot be loaded on this machine: {error}")
    finally:
        listener.close()


def connect(port: int, source: str) -> socket.socket | None:
    """A connection from ``source`` to ``port``, or ``None`` when its first try is dropped."""
    client = socket.socket()
    client.settimeout(REFUSED_WAIT)
    client.bind((source, 0))
    try:
        client.connect(("127.0.0.1", port))
    except OSError:
        client.close()
        return None
    client.settimeout(5)
    return client


@pytest.mark.slow
def test_an_address_opening_connections_in_a_loop_is_held_to_the_rate(port: int) -> None:
    """An address opening connections as fast as it can gets its burst and then the rate, no
    more; another address connects at once, and a connection made before the flood keeps
    being answered."""
    before = connect(port, "127.0.0.2")
    assert before is not None
    flood: list[socket.socket] = []
    started = time.monotonic()
    tries = 0
    while time.monotonic() - started < 2.0:
        tries += 1
        connection = connect(port, "127.0.0.2")
        if connection is not None:
            flood.append(connection)
    seconds = time.monotonic() - started
    try:
        assert BURST - 1 <= len(flood) <= BURST + RATE * seconds + 2, (len(flood), tries)
        assert tries > len(flood) + 3  # the rest were dropped
        other = connect(port, "127.0.0.3")
        assert other is not None
        for client in (before, other):
            client.sendall(b"still here")
            assert client.recv(64) == b"still here"
        other.close()
    finally:
        before.close()
        for connection in flood:
            connection.close()


def test_the_rules_name_the_web_ports_and_one_table() -> None:
    """What an install loads: ports 80 and 443, the table ``crib_trainer``, each address's
    burst and rate as the tests above count them (for IPv4, and IPv6 by its /64)."""
    rules = render([80, 443], "crib_trainer")
    assert "define crib_web_ports = { 80, 443 }" in rules
    limit = f"limit rate over {RATE}/second burst {BURST} packets"
    assert f"ip saddr {limit}" in rules
    assert f"ip6 saddr & ffff:ffff:ffff:ffff:: {limit}" in rules


def test_loading_the_rules_again_replaces_their_table(port: int) -> None:
    """The trainer's unit loads the rules before every start (attack round 4, finding 9): loaded
    again over themselves, they leave one table with one rule a family, not two."""
    import subprocess

    from deploy.local_firewall import TABLE
    from deploy.local_nginx import find_program

    nft = find_program("nft")
    assert nft is not None  # the fixture loaded the rules with it
    table = f"{TABLE}_test_{os.getpid()}"
    again = subprocess.run(
        [nft, "-f", "-"], input=render([port], table), capture_output=True, text=True, check=False
    )
    assert again.returncode == 0, again.stderr
    listed = subprocess.run(
        [nft, "list", "table", "inet", table], capture_output=True, text=True, check=True
    ).stdout
    assert listed.count("limit rate over") == 2, listed
