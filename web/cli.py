"""The web trainer's subcommands of ``crib`` (assembled by :mod:`crib.cli`): serve.

Flask and gunicorn are imported when ``serve`` runs, not when ``crib`` starts.
"""

from __future__ import annotations

import argparse
from typing import TextIO

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 4


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve`` to the ``crib`` command."""
    serve = commands.add_parser(
        "serve",
        help="run the web trainer",
        description="Run the web trainer on gunicorn (see README: deployment).",
    )
    serve.add_argument(
        "--host", default=DEFAULT_HOST, help="address to listen on (default: %(default)s)"
    )
    serve.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help="port to listen on (default: %(default)s)"
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=DEFAULT_WORKERS,
        help="worker processes (default: %(default)s)",
    )
    serve.add_argument(
        "--threads",
        type=int,
        default=DEFAULT_THREADS,
        help="threads per worker process (default: %(default)s)",
    )
    serve.set_defaults(run=_serve)


def _serve(args: argparse.Namespace, out: TextIO) -> int:
    from .serve import serve

    print(f"The trainer is at http://{args.host}:{args.port}/ (Ctrl+C stops it)", file=out)
    out.flush()
    serve(args.host, args.port, args.workers, args.threads)
    return 0
