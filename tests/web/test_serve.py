"""``crib serve`` on gunicorn, spawned for real: slow clients cannot starve it."""

from __future__ import annotations

import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from web.db import get_session, write_lock
from web.serve import free_port, spawn
from web.worker import HEAD_TIMEOUT

WORKERS = 2
"""As many worker processes as ``crib serve`` starts by default."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``web.serve.serve`` with two workers on 127.0.0.1, its own SQLite file."""
    port = free_port()
    process: subprocess.Popen[bytes] = spawn(
        port, WORKERS, tmp_path_factory.mktemp("serve"), "serve-test"
    )
    yield f"127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=30)


def half_open(address: str) -> socket.socket:
    """A connection that starts a request and never finishes its headers (a slow client)."""
    host, port = address.split(":")
    sock = socket.create_connection((host, int(port)))
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    return sock


def test_half_open_connections_do_not_starve_the_server(server: str) -> None:
    """With one slow client per worker, a normal request is still answered (not after the
    30 s worker timeout: sync workers would each sit on a half-open request)."""
    slow = [half_open(server) for _ in range(WORKERS)]
    try:
        time.sleep(0.5)  # let the workers pick the slow connections up first
        started = time.monotonic()
        with urllib.request.urlopen(f"http://{server}/", timeout=10) as response:
            assert response.status == 200
        assert time.monotonic() - started < 5
    finally:
        for sock in slow:
            sock.close()


def test_a_head_that_trickles_in_is_cut_off_at_its_deadline(tmp_path: Path) -> None:
    """A client sending a header every half second (a slow-loris attack) holds the thread that
    reads it for ``HEAD_TIMEOUT`` seconds at most: then it is disconnected, and a one-thread
    server answers the request that waited behind it."""
    port = free_port()
    process = spawn(port, 1, tmp_path, "serve-test", threads=1)
    stop = threading.Event()
    cut_after: list[float] = []

    def trickle() -> None:
        sock = socket.create_connection(("127.0.0.1", port))
        started = time.monotonic()
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            while not stop.wait(0.5):
                sock.sendall(b"X-Wait: 1\r\n")
        except OSError:  # the server shut the connection
            cut_after.append(time.monotonic() - started)
        finally:
            sock.close()

    slow = threading.Thread(target=trickle)
    try:
        slow.start()
        time.sleep(1.0)  # the one thread is reading the slow head
        started = time.monotonic()
        url = f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(url, timeout=HEAD_TIMEOUT + 10) as reply:
            assert reply.status == 200
        assert time.monotonic() - started < HEAD_TIMEOUT + 2
        slow.join(timeout=5)
        assert cut_after and HEAD_TIMEOUT - 1 < cut_after[0] < HEAD_TIMEOUT + 3, cut_after
    finally:
        stop.set()
        slow.join(timeout=5)
        process.terminate()
        process.wait(timeout=30)


def test_the_server_does_not_advertise_itself(server: str) -> None:
    """No ``Server: gunicorn/27.0`` header telling an attacker what to try."""
    with urllib.request.urlopen(f"http://{server}/", timeout=10) as response:
        assert "gunicorn" not in response.headers.get("Server", "").lower()


@pytest.mark.sqlite_only("the write lock is SQLite's")
def test_the_sqlite_write_lock_serializes_threads_of_one_worker(app: Flask) -> None:
    """``flock`` locks belong to an open file, shared by a process's threads: the write lock
    must also keep a gthread worker's own threads one at a time."""
    inside = 0
    most = 0
    count = threading.Lock()

    def write() -> None:
        nonlocal inside, most
        with app.app_context(), write_lock(get_session()):
            with count:
                inside += 1
                most = max(most, inside)
            time.sleep(0.02)
            with count:
                inside -= 1

    threads = [threading.Thread(target=write, daemon=True) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert not any(thread.is_alive() for thread in threads), "a writer never got the lock"
    assert most == 1
