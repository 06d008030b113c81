"""Ports for the servers the tests and benchmarks start (``deploy.local_server.free_port``)."""

from __future__ import annotations

import socket

import pytest

from deploy.local_server import EPHEMERAL_RANGE, LOWEST_PORT, free_port


@pytest.mark.skipif(not EPHEMERAL_RANGE.exists(), reason="Linux says its ephemeral range there")
def test_free_ports_lie_below_the_ports_outgoing_connections_get() -> None:
    """A port that a client's connection can take between the probe and the server's bind
    made nginx stop with "Address already in use" in a full run: ports come from below the
    ephemeral range, and every address can bind them."""
    ephemeral = int(EPHEMERAL_RANGE.read_text().split()[0])
    ports = {free_port() for _ in range(20)}
    assert all(LOWEST_PORT <= port < ephemeral for port in ports), sorted(ports)
    for port in ports:
        with socket.socket() as server:
            server.bind(("", port))
