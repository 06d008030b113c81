"""The web trainer: daily challenge, drills, progress, the score calculators, the photo page.

``create_app()`` is the factory (``flask --app web run`` for development; ``crib serve`` runs
it on gunicorn, see :mod:`web.serve`). Its settings are :mod:`web.settings`'s table
(``crib settings`` lists them): ``CRIB_<NAME>`` in the environment, or ``NAME`` in
``instance/config.py``.

Blueprints: ``pages`` (home, ``/score``, ``/score/pegging``, ``/progress``, ``/history``),
``practice`` (``/daily``, ``/practice/<kind>``, ``/sprint``), ``api`` (JSON under ``/api``,
``POST /api/read`` included), ``auth`` (``/auth/register``, ``/auth/login``, ``/auth/logout``,
``/auth/password``), ``photo`` (``/photo``), ``board`` (``/board``, a game's score kept at
the table, its JSON under ``/api/games``) and ``play`` (``/play``, a game against the computer,
its JSON under ``/api/play``).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Flask loads with the app, not with the ``crib`` command (:mod:`crib.serve`)
    from flask import Flask


def create_app(
    test_config: Mapping[str, Any] | None = None, *, prepare_schema: bool = True
) -> Flask:
    """Build the app: config, instance folder, database, blueprints.

    The settings (:mod:`web.settings`) come from the environment and ``instance/config.py``,
    or from ``test_config`` when given (its values as the settings would give them; ``CLOCK``:
    the app's clock, ``time.time`` by default). A new, empty database gets the schema;
    ``prepare_schema=False`` leaves the database as it is (for ``crib db upgrade``).

    Raises:
        web.settings.SettingError: a setting's value is bad (its message names it).
        records.schema.SchemaError: the database's schema is behind (or unknown).
    """
    from flask import Flask

    from . import sessions, settings

    app = Flask(__name__, instance_relative_config=True)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(sessions.DEFAULTS)
    app.config.from_mapping({s.name: s.default for s in settings.SETTINGS})
    app.config["DATABASE_URL"] = settings.default_database_url(app.instance_path)
    if test_config is None:
        app.config.from_mapping(settings.from_instance(app.instance_path))
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _persisted_secret(Path(app.instance_path) / "secret_key")

    from . import api, auth, csrf, db, errors, headers, limits, pages, photo, players, practice
    from .board import bp as board
    from .play import bp as play

    app.extensions["crib_clock"] = app.config.get("CLOCK", time.time)
    sessions.init_app(app)
    db.init_app(app, prepare_schema=prepare_schema)
    players.init_app(app)
    errors.init_app(app)
    headers.init_app(app)
    csrf.init_app(app)
    for blueprint in (pages.bp, practice.bp, api.bp, auth.bp, photo.bp, board, play):
        app.register_blueprint(blueprint)
    limits.init_app(app)  # after the views: it guards their routes
    # Outermost, so that everything within sees the client's address, not the proxy's.
    trust_proxies(app, app.config["TRUSTED_PROXIES"])
    return app


def trust_proxies(app: Flask, count: int) -> None:
    """Believe the ``X-Forwarded-*`` headers of ``count`` reverse proxies in front.

    Behind ``count`` proxies (``CRIB_TRUSTED_PROXIES``) the client's address, scheme and host
    come from the headers they add; with none (the default) these headers are ignored, as
    anybody could send them.
    """
    if count > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=count, x_proto=count, x_host=count
        )


def _persisted_secret(path: Path) -> str:
    """The instance's own secret key, generated on first start and kept (mode 600).

    The key is written whole to a private temporary file beside ``path`` and then linked to
    ``path``, which fails if another process got there first: servers starting together never
    read a half-written key, and all use the first one written (a rename would let a later
    writer replace a key an earlier process already uses). A key file left empty by an older
    version is replaced.
    """
    key = _read_key(path)
    if key:
        return key
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret_key.")  # mode 600
    try:
        with os.fdopen(handle, "w") as out:
            out.write(secrets.token_hex(32))
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            if not _read_key(path):
                os.replace(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    return _read_key(path)


def _read_key(path: Path) -> str:
    """The key in ``path``; empty when there is none."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        return ""
