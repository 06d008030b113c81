"""``crib serve`` in a subprocess on this machine, for the tests and the load benchmark.

:func:`spawn` runs the trainer (or another app) on 127.0.0.1 with its own SQLite file and
returns once it answers; :func:`free_port` finds a port for it.
"""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from crib.serve import DEFAULT_THREADS

ROOT = Path(__file__).resolve().parents[1]


EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
"""Where Linux says which ports it gives to outgoing connections."""
LOWEST_PORT = 10_000
"""The lowest port :func:`free_port` picks."""


def free_port() -> int:
    """An unused TCP port, below the ports the kernel gives outgoing connections.

    A port of that ephemeral range, free when probed, can be taken by a client's connection
    (the tests make many at once) before the server binds it, which then stops with "Address
    already in use"; below it only servers bind. The probe binds every address, as nginx does.
    Where the range starts too low to leave room, any free port of 127.0.0.1 is taken.
    """
    try:
        ephemeral = int(EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        ephemeral = LOWEST_PORT
    for _ in range(100 if ephemeral > LOWEST_PORT + 1000 else 0):
        port = random.randrange(LOWEST_PORT, ephemeral)
        with socket.socket() as probe:
            try:
                probe.bind(("", port))
            except OSError:
                continue
        return port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def spawn(
    port: int,
    workers: int,
    folder: Path,
    secret: str,
    timeout: float = 60.0,
    database_url: str | None = None,
    app: str | None = None,
    threads: int = DEFAULT_THREADS,
    environment: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Serve on 127.0.0.1:``port`` in a subprocess; return once it answers.

    It serves as ``crib serve`` does (:func:`web.serve.prepare`), ``workers`` processes of
    ``threads`` threads. Its database is ``database_url`` (by default
    ``folder/trainer.sqlite``), its output goes to ``folder/server.log``, ``app`` serves another
    app instead, and ``environment`` adds variables (``CRIB_...`` settings).

    Raises:
        RuntimeError: with the server's log, when it exits or does not answer within
            ``timeout`` seconds (it is killed).
    """
    env = {
        **os.environ,
        "CRIB_DATABASE_URL": database_url or f"sqlite:///{folder / 'trainer.sqlite'}",
        "CRIB_SECRET_KEY": secret,
        **(environment or {}),
    }
    arguments = f"'127.0.0.1', {port}, {workers}, {threads}, app={app!r}"
    code = f"from web.serve import prepare; prepare({arguments}).run()"
    folder.mkdir(parents=True, exist_ok=True)
    log_path = folder / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", code], cwd=ROOT, env=env, stdout=log, stderr=log
        )
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).close()
            return process
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                process.wait()
                raise RuntimeError(f"the server did not start:\n{log_path.read_text()}") from None
            time.sleep(0.1)
