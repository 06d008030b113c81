"""The web trainer's subcommands of ``crib``: ``serve`` and ``db upgrade``.

:mod:`crib.cli` assembles them. Flask, gunicorn and Alembic are imported when a command runs,
not when ``crib`` starts.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TextIO

from web.settings import SETTINGS, SettingError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 4


EXIT_CANNOT_START = 2
"""Exit status when the trainer cannot start: its database is behind or cannot be reached, or
it cannot listen where asked."""


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``serve`` and ``db upgrade`` to the ``crib`` command."""
    serve = commands.add_parser(
        "serve",
        help="run the web trainer",
        description="Run the web trainer on gunicorn (see docs/deployment.md).",
        epilog="settings, from the environment (crib settings shows their values):\n"
        + "\n".join(
            textwrap.fill(
                s.help, 100, initial_indent=f"  {s.variable:32} ", subsequent_indent=" " * 35
            )
            for s in SETTINGS
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="address to listen on: loopback unless CRIB_TRUSTED_PROXIES says a reverse proxy "
        "is in front (default: %(default)s)",
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
    database = commands.add_parser(
        "db",
        help="manage the web trainer's database",
        description="The web trainer's database (CRIB_DATABASE_URL, see docs/deployment.md).",
    )
    actions = database.add_subparsers(dest="action", required=True, metavar="ACTION")
    upgrade = actions.add_parser(
        "upgrade",
        help="bring the database's schema up to date (back it up first)",
        description="Apply the schema migrations the database lacks; a no-op when up to date.",
    )
    upgrade.set_defaults(run=_upgrade)


def _database_problem(command: str, error: Exception) -> int:
    """Say in one line why the database cannot be used (behind, or unreachable); exit 2."""
    from sqlalchemy.exc import OperationalError

    if isinstance(error, OperationalError):  # down, refused, wrong password: the driver says
        reason = " ".join(str(error.orig).split())
        message = (
            f"cannot reach the database ({reason}); is it running, and is CRIB_DATABASE_URL right?"
        )
    else:
        message = str(error)
    print(f"crib {command}: error: {message}", file=sys.stderr)
    return EXIT_CANNOT_START


PROXY_NOTICE = (
    "It listens beyond loopback because CRIB_TRUSTED_PROXIES says a reverse proxy is in front;"
    " nothing checks that one is. It believes the X-Forwarded-For and X-Forwarded-Proto of"
    " whoever connects (their address and scheme: the rate limits, the cookie's Secure mark),"
    " so let only the proxy reach this port (docs/deployment.md)."
)
"""What ``crib serve`` says when it listens beyond loopback (attack round 3)."""


def _serve(args: argparse.Namespace, out: TextIO) -> int:
    from sqlalchemy.exc import OperationalError

    from records.schema import SchemaError
    from web.serve import ServeError, address, is_loopback, prepare

    try:
        server = prepare(args.host, args.port, args.workers, args.threads)
    except (SchemaError, OperationalError) as error:
        return _database_problem("serve", error)
    except (SettingError, ServeError) as error:
        print(f"crib serve: error: {error}", file=sys.stderr)
        return EXIT_CANNOT_START
    print(f"The trainer is at http://{address(args.host, args.port)}/ (Ctrl+C stops it)", file=out)
    if not is_loopback(args.host):
        print(PROXY_NOTICE, file=out)
    out.flush()
    server.run()
    return 0


def _upgrade(_args: argparse.Namespace, out: TextIO) -> int:
    from sqlalchemy.exc import OperationalError

    from records import schema
    from web import create_app

    try:
        database = create_app(prepare_schema=False).extensions["crib_database"]
        was = database.upgrade_schema()
    except (OperationalError, SettingError) as error:
        return _database_problem("db upgrade", error)
    url = database.engine.url.render_as_string(hide_password=True)  # never the password
    if was == schema.head():
        print(f"The database at {url} is up to date (schema version {was}).", file=out)
    else:
        print(
            f"Upgraded the database at {url} from {was} to schema version {schema.head()}.",
            file=out,
        )
    database.dispose()
    return 0
