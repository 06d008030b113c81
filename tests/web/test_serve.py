"""``crib serve`` on gunicorn, spawned for real, and what it refuses before it starts."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from deploy.local_server import free_port, spawn
from records.database import writing
from web.db import get_db
from web.serve import WORKER_TIMEOUT, check_host, is_loopback

WORKERS = 2
"""As many worker processes as ``crib serve`` starts by default."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``web.serve`` with two workers on 127.0.0.1, its own SQLite file."""
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


@pytest.mark.slow  # a real server
def test_half_open_connections_do_not_starve_the_server(server: str) -> None:
    """With one slow client per worker, a normal request is still answered (not after the
    30 s worker timeout: sync workers would each sit on a half-open request)."""
    slow = [half_open(server) for _ in range(WORKERS)]
    try:
        time.sleep(0.5)  # let the workers pick the slow connections up first
        started = time.monotonic()
        with urllib.request.urlopen(f"http://{server}/", timeout=WORKER_TIMEOUT) as response:
            assert response.status == 200
        assert time.monotonic() - started < WORKER_TIMEOUT / 2  # generous: a busy machine
    finally:
        for sock in slow:
            sock.close()


@pytest.mark.slow  # a real server
def test_gunicorn_believes_no_forwarded_scheme(server: str) -> None:
    """With ``CRIB_TRUSTED_PROXIES`` unset, a client on this machine claiming HTTPS in
    ``X-Forwarded-Proto`` is not believed: its session cookie is not marked ``Secure``
    (gunicorn trusted such headers from 127.0.0.1 whatever the app's setting)."""
    request = urllib.request.Request(
        f"http://{server}/api/drills/next", headers={"X-Forwarded-Proto": "https"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        cookie = response.headers["Set-Cookie"]
    assert cookie and "session=" in cookie
    assert "secure" not in cookie.lower()


def _crib_serve(*arguments: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "CRIB_DATABASE_URL": f"sqlite:///{tmp_path / 'trainer.sqlite'}",
        "CRIB_SECRET_KEY": "serve-test",
    }
    environment.pop("CRIB_TRUSTED_PROXIES", None)
    return subprocess.run(
        [sys.executable, "-m", "crib", "serve", *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "trainer.example"])
@pytest.mark.slow
def test_serve_refuses_to_face_the_network_without_a_proxy(host: str, tmp_path: Path) -> None:
    """Exposed directly, slow clients and floods reach the trainer's threads: ``crib serve``
    listens beyond loopback only when ``CRIB_TRUSTED_PROXIES`` says a proxy is in front."""
    result = _crib_serve("--host", host, "--port", str(free_port()), tmp_path=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert f"--host {host} would expose the trainer directly" in line
    assert "CRIB_TRUSTED_PROXIES=1" in line


def test_serve_beyond_loopback_says_what_the_proxy_setting_means(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``CRIB_TRUSTED_PROXIES=1`` lets ``crib serve`` listen beyond loopback without checking
    that a proxy is in front (attack round 3): it says so as it starts, and what to do."""
    import io

    from crib import serve as web_cli
    from web import serve

    class Server:
        def run(self) -> None:
            pass

    monkeypatch.setattr(serve, "prepare", lambda *args, **kwargs: Server())
    out = io.StringIO()
    args = web_cli.argparse.Namespace(host="0.0.0.0", port=8000, workers=2, threads=4)
    assert web_cli._serve(args, out) == 0
    assert out.getvalue().splitlines()[1] == web_cli.PROXY_NOTICE
    assert "nothing checks" in web_cli.PROXY_NOTICE and "only the proxy" in web_cli.PROXY_NOTICE
    loopback = io.StringIO()
    on_loopback = web_cli.argparse.Namespace(**{**vars(args), "host": "::1"})
    assert web_cli._serve(on_loopback, loopback) == 0
    assert len(loopback.getvalue().splitlines()) == 1


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("::", False),
        ("10.0.0.2", False),
        ("example.org", False),
    ],
)
def test_which_hosts_are_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
    if loopback:
        check_host(host, trusted_proxies=0)
    check_host(host, trusted_proxies=1)  # behind a proxy, anything goes


@pytest.mark.slow
def test_a_taken_port_is_said_in_one_line(tmp_path: Path) -> None:
    """A second ``crib serve`` on a busy port says so and how to choose another, at once,
    instead of announcing itself and then logging gunicorn's retries for five seconds."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = _crib_serve("--port", str(port), tmp_path=tmp_path)
    assert result.returncode == 2
    assert "trainer is at" not in result.stdout
    [line] = result.stderr.splitlines()
    assert line == (
        f"crib serve: error: port {port} on 127.0.0.1 is taken (another trainer?): "
        "choose another with --port"
    )


@pytest.mark.slow  # a real server
def test_serve_on_ipv6_loopback(tmp_path: Path) -> None:
    """``crib serve --host ::1`` listens on IPv6's loopback and says where in a URL that works
    (gunicorn took ``::1:8000`` for a host without a port)."""
    port = free_port()
    environment = {
        **os.environ,
        "CRIB_DATABASE_URL": f"sqlite:///{tmp_path / 'trainer.sqlite'}",
        "CRIB_SECRET_KEY": "serve-test",
    }
    command = [sys.executable, "-m", "crib", "serve", "--host", "::1", "--port", str(port)]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=environment
    ) as process:
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line.startswith(f"The trainer is at http://[::1]:{port}/ ")
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(f"http://[::1]:{port}/score", timeout=5) as reply:
                        assert reply.status == 200
                        break
                except OSError:
                    assert process.poll() is None, "crib serve stopped"
                    assert time.monotonic() < deadline, "no answer on [::1]"
                    time.sleep(0.2)
        finally:
            process.terminate()


@pytest.mark.slow  # a real server
def test_workers_leave_the_port_when_their_master_is_killed(tmp_path: Path) -> None:
    """After ``kill -9`` of the master its workers go at once, so a restart can listen again;
    they used to serve the connections in hand (here a slow client's) for the 20 s graceful
    timeout while holding the port, and a restart failed meanwhile."""
    port = free_port()
    process = spawn(port, WORKERS, tmp_path, "serve-test")
    slow = [half_open(f"127.0.0.1:{port}") for _ in range(WORKERS)]
    try:
        time.sleep(0.5)  # the workers have taken the slow connections
        process.kill()
        process.wait(timeout=10)
        killed = time.monotonic()
        while True:
            with socket.socket() as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn does
                try:
                    probe.bind(("127.0.0.1", port))
                    break
                except OSError:
                    assert time.monotonic() - killed < 20, "the workers still hold the port"
                    time.sleep(0.1)
    finally:
        for sock in slow:
            sock.close()


@pytest.mark.sqlite_only("the write lock is SQLite's")
def test_the_sqlite_write_lock_serializes_threads_of_one_worker(app: Flask) -> None:
    """``flock`` locks belong to an open file, shared by a process's threads: the write lock
    must also keep a gthread worker's own threads one at a time."""
    inside = 0
    most = 0
    count = threading.Lock()

    def write() -> None:
        nonlocal inside, most
        with app.app_context(), writing(get_db()):
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
