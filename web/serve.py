"""Run the trainer on gunicorn (``crib serve``): the schema is created once, before forking.

Each worker process runs a pool of threads (gunicorn's ``gthread`` worker, with a deadline for
a request's head: :mod:`web.worker`): an idle connection waits in the worker's poller, and a
slow client holds one thread (not a whole ``sync`` worker) while its request trickles in, for
10 seconds at most for the request line and headers, so it takes workers x threads slow clients
at once, again and again, to starve the server. The deployment to run in front of it (a
buffering reverse proxy, which holds any number of slow clients, and a supervisor) is in
``deploy/``.

:func:`spawn` runs it in a subprocess on a fresh SQLite file, for the end-to-end tests and the
load benchmark.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import gunicorn.http.wsgi
from flask import Flask
from gunicorn.app.base import BaseApplication
from werkzeug.utils import import_string

from trainer import score_show
from trainer.discard import analyze_discards

from . import create_app
from .cli import DEFAULT_THREADS


class _Gunicorn(BaseApplication):  # type: ignore[misc]
    """A gunicorn application serving an already built Flask app."""

    def __init__(self, app: Flask, options: dict[str, Any]) -> None:
        self.application = app
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.application


WORKER_TIMEOUT = 30
"""Seconds a worker may stay silent (a request stuck that long) before it is restarted."""
GRACEFUL_TIMEOUT = 20
"""Seconds a stopping worker has to finish the requests in hand."""
KEEPALIVE = 5
"""Seconds an idle kept-alive connection (or one whose request has not arrived) is kept."""
SERVER_NAME = "crib-trainer"
"""The ``Server`` header: no gunicorn version to look up vulnerabilities for."""


def serve(
    host: str, port: int, workers: int, threads: int = DEFAULT_THREADS, *, app: str | None = None
) -> None:
    """Serve the app on gunicorn at ``host:port``: ``workers`` processes of ``threads`` threads.

    The app (and its SQLite default in the instance folder) is built in the master, so the
    schema is created once; each worker then opens its own connections. ``app`` names another
    Flask app (``"module:name"``) to serve the same way (the load benchmark's baseline).
    """
    if app is None:
        application = create_app()
        _warm_up()
    else:
        application = import_string(app)
    options = {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "web.worker.DeadlineThreadWorker",
        "threads": threads,
        "timeout": WORKER_TIMEOUT,
        "graceful_timeout": GRACEFUL_TIMEOUT,
        "keepalive": KEEPALIVE,
        "accesslog": None,
        "preload_app": True,
    }
    gunicorn.http.wsgi.SERVER = SERVER_NAME  # read by every response gunicorn writes
    _Gunicorn(application, options).run()


def _warm_up() -> None:
    """Build the engine's lazily built score tables once, before the workers fork.

    The forked workers share them instead of each paying for them on its first request.
    """
    score_show(["5H", "5D", "5C", "JS"], "5S")
    analyze_discards(["5H", "5D", "5C", "JS", "7H", "8C"], dealer=True)


def free_port() -> int:
    """An unused TCP port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def spawn(
    port: int,
    workers: int,
    folder: Path,
    secret: str,
    timeout: float = 30.0,
    database_url: str | None = None,
    app: str | None = None,
    threads: int = DEFAULT_THREADS,
) -> subprocess.Popen[bytes]:
    """Run :func:`serve` on 127.0.0.1:``port`` in a subprocess; return once it answers.

    It runs ``workers`` processes of ``threads`` threads.

    Its database is ``database_url`` (by default ``folder/trainer.sqlite``) and its output goes
    to ``folder/server.log``; ``app`` serves another app instead (see :func:`serve`).

    Raises:
        RuntimeError: with the server's log, when it exits or does not answer within
            ``timeout`` seconds (it is killed).
    """
    env = {
        **os.environ,
        "CRIB_DATABASE_URL": database_url or f"sqlite:///{folder / 'trainer.sqlite'}",
        "CRIB_SECRET_KEY": secret,
    }
    arguments = f"'127.0.0.1', {port}, {workers}, {threads}, app={app!r}"
    code = f"from web.serve import serve; serve({arguments})"
    folder.mkdir(parents=True, exist_ok=True)
    log_path = folder / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=Path(__file__).resolve().parents[1],
            env=env,
            stdout=log,
            stderr=log,
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
