"""Run the trainer on gunicorn (``crib serve``): the schema is created once, before forking."""

from __future__ import annotations

from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from trainer import score_show
from trainer.discard import analyze_discards

from . import create_app


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


def serve(host: str, port: int, workers: int) -> None:
    """Serve the app factory's app on gunicorn at ``host:port`` with ``workers`` processes.

    The app (and its SQLite default in the instance folder) is built in the master, so the
    schema is created once; each worker then opens its own connections.
    """
    app = create_app()
    _warm_up()
    options = {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "sync",
        "accesslog": None,
        "keepalive": 5,
        "preload_app": True,
    }
    _Gunicorn(app, options).run()


def _warm_up() -> None:
    """Build the engine's lazily built score tables once, so the forked workers share them
    instead of each paying for them on its first request."""
    score_show(["5H", "5D", "5C", "JS"], "5S")
    analyze_discards(["5H", "5D", "5C", "JS", "7H", "8C"], dealer=True)
