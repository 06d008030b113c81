"""Run the trainer on gunicorn (``crib serve``): the schema is created once, before forking.

Each worker process runs a pool of threads (gunicorn's ``gthread`` worker). The trainer is made
to sit behind the reverse proxy in ``deploy/`` (nginx): it buffers whole requests, so slow
clients and silent connections wait there, not in the trainer's threads, and it refuses floods
before they reach Python. So ``crib serve`` listens on a loopback address only, unless
``CRIB_TRUSTED_PROXIES`` says a proxy is in front (:func:`check_host`): one setting tells the
app whose ``X-Forwarded-*`` headers to believe and lets the trainer listen beyond loopback.
gunicorn itself believes none of these headers.
"""

from __future__ import annotations

import ctypes
import errno
import ipaddress
import signal
import socket
import sys
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication
from werkzeug.utils import import_string

from trainer import score_show
from trainer.discard import analyze_discards

from . import create_app, settings


class ServeError(Exception):
    """``crib serve`` cannot start as asked (a host it must not listen on, a port taken)."""


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
_PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when its parent dies."""


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_host(host: str, trusted_proxies: int) -> None:
    """Refuse to listen beyond loopback unless a reverse proxy is declared in front.

    Raises:
        ServeError: ``host`` is not a loopback address and ``trusted_proxies`` is 0.
    """
    if not is_loopback(host) and trusted_proxies < 1:
        raise ServeError(
            f"--host {host} would expose the trainer directly; it must sit behind the reverse "
            "proxy in deploy/ (see docs/deployment.md). Behind one, set CRIB_TRUSTED_PROXIES=1"
        )


def check_port_free(host: str, port: int) -> None:
    """Make sure ``host:port`` can be listened on, before anything starts.

    Raises:
        ServeError: the port is taken (or the address is not this machine's).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise ServeError(
                    f"port {port} on {host} is taken (another trainer?): choose another with --port"
                ) from None
            raise ServeError(f"cannot listen on {host}:{port}: {error.strerror}") from None


def address(host: str, port: int) -> str:
    """``host:port`` as gunicorn binds it and a URL names it (an IPv6 host in brackets).

    >>> address("127.0.0.1", 8000), address("::1", 8000)
    ('127.0.0.1:8000', '[::1]:8000')
    """
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _die_with_the_master(_arbiter: Any, _worker: Any) -> None:
    """Make the worker die the moment its master dies (gunicorn's ``post_fork`` hook).

    A master killed with ``kill -9`` left its workers serving the connections in hand for the
    graceful timeout before they closed the listening socket, and a restart in that window
    failed with "Address already in use". An answer is stored before it is acknowledged, so
    the requests cut short lose nothing a client was told was kept.
    """
    if sys.platform != "linux":  # prctl is Linux's
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def gunicorn_options(host: str, port: int, workers: int, threads: int) -> dict[str, Any]:
    """The settings ``crib serve`` runs gunicorn with."""
    return {
        "bind": address(host, port),
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "timeout": WORKER_TIMEOUT,
        "graceful_timeout": GRACEFUL_TIMEOUT,
        "keepalive": KEEPALIVE,
        "accesslog": None,
        "preload_app": True,
        # the scheme a client reports is believed by the app alone, as CRIB_TRUSTED_PROXIES says
        "secure_scheme_headers": {},
        "post_fork": _die_with_the_master,
    }


def prepare(host: str, port: int, workers: int, threads: int, *, app: str | None = None) -> Any:
    """Build what serves the app on gunicorn at ``host:port``; its ``run()`` serves.

    ``workers`` processes of ``threads`` threads. The app (and its SQLite default in the
    instance folder) is built here, in the master, so the schema is created once; each worker
    then opens its own connections. ``app`` names another Flask app (``"module:name"``) to
    serve the same way (the load benchmark's baseline).

    Raises:
        ServeError: ``host`` is not loopback with no proxy declared, or the port is taken.
    """
    if app is None:  # both said before the app is built and warmed up (seconds on a slow machine)
        check_host(host, settings.in_force(settings.instance_folder(), "TRUSTED_PROXIES"))
    check_port_free(host, port)
    if app is None:
        application = create_app()
        _warm_up()
    else:
        application = import_string(app)
    return _Gunicorn(application, gunicorn_options(host, port, workers, threads))


def _warm_up() -> None:
    """Build the engine's lazily built score tables once, before the workers fork.

    The forked workers share them instead of each paying for them on its first request.
    """
    score_show(["5H", "5D", "5C", "JS"], "5S")
    analyze_discards(["5H", "5D", "5C", "JS", "7H", "8C"], dealer=True)
