"""The web trainer: daily challenge, drills, progress, the score calculators, the photo page.

``create_app()`` is the factory (``flask --app web run`` for development; ``crib serve`` runs
it on gunicorn, see :mod:`web.serve`). Settings: ``CRIB_SECRET_KEY`` and ``CRIB_DATABASE_URL``
in the environment, or ``SECRET_KEY`` and ``DATABASE_URL`` in ``instance/config.py``.

Blueprints: ``pages`` (home, ``/score``, ``/score/pegging``, ``/progress``), ``practice``
(``/daily``, ``/practice/<kind>``, ``/sprint``), ``api`` (JSON under ``/api``), ``auth``
(``/auth/register``, ``/auth/login``, ``/auth/logout``) and ``photo`` (``/photo``,
``POST /api/read``).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Flask loads with the app, not with the ``crib`` command (:mod:`web.cli`)
    from flask import Flask


def create_app(
    test_config: Mapping[str, Any] | None = None, *, prepare_schema: bool = True
) -> Flask:
    """Build the app: config, instance folder, database, blueprints.

    Config comes from ``test_config`` when given, otherwise from ``instance/config.py`` and the
    environment (``CRIB_SECRET_KEY``, ``CRIB_DATABASE_URL``). A new, empty database gets the
    schema; ``prepare_schema=False`` leaves the database as it is (for ``crib db upgrade``).

    Raises:
        web.schema.SchemaError: the database's schema is behind (or unknown).
    """
    from flask import Flask

    app = Flask(__name__, instance_relative_config=True)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL="sqlite:///" + os.path.join(app.instance_path, "trainer.sqlite"),
        MAX_CONTENT_LENGTH=10 * 1024 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_REFRESH_EACH_REQUEST=False,
        PERMANENT_SESSION_LIFETIME=400 * 24 * 3600,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("CRIB")
    else:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _persisted_secret(Path(app.instance_path) / "secret_key")

    from . import api, auth, db, errors, pages, photo, practice

    db.init_app(app, prepare_schema=prepare_schema)
    errors.init_app(app)
    for blueprint in (pages.bp, practice.bp, api.bp, auth.bp, photo.bp):
        app.register_blueprint(blueprint)
    return app


def _persisted_secret(path: Path) -> str:
    """The instance's own secret key, generated on first start and kept (mode 600)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w") as out:
        out.write(key)
    return key
