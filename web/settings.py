"""Every setting of the trainer, declared once: its name, variable, default, help and parser.

A setting is read from the environment (``CRIB_<NAME>``), else from the instance's
``config.py`` (``NAME = value``), else it takes its default; :func:`read` reads them all and
refuses a bad value with one line naming it. ``crib settings`` lists them with the values in
force; ``docs/deployment.md`` documents each (a test keeps the two alike).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

PREFIX = "CRIB_"
"""What each setting's environment variable starts with."""
REPO_ROOT = Path(__file__).resolve().parents[1]


class SettingError(ValueError):
    """A setting has a value the trainer cannot use (the message names it and says why)."""


def _text(value: str) -> str:
    return value


def _count(value: str) -> int:
    if not re.fullmatch(r"\s*\d+\s*", value):
        raise ValueError("a whole number, 0 or more")
    return int(value)


def _switch(value: str) -> bool:
    words = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
    try:
        return words[value.strip().lower()]
    except KeyError:
        raise ValueError("true or false") from None


def _secure_cookie(value: str) -> str | bool:
    if value.strip().lower() == "auto":
        return "auto"
    try:
        return _switch(value)
    except ValueError:
        raise ValueError("auto, true or false") from None


def _rate_storage(value: str) -> str:
    if value.startswith("async+"):
        raise ValueError("a storage the trainer can use: not an asyncio one")
    if value.startswith("database://") and value != "database://":
        raise ValueError("database:// alone (the trainer's own database), or another storage")
    if "://" not in value:
        raise ValueError("a storage URI: database://, memory://, redis://host:6379, ...")
    return value


def _database_url(value: str) -> str:
    if not value.startswith(("sqlite://", "postgresql://", "postgresql+")):
        raise ValueError("a SQLite (sqlite:///path) or PostgreSQL (postgresql+psycopg://...) URL")
    return value


def _limit(value: str) -> str:
    from limits import parse_many  # the limits package reads Flask-Limiter's notation

    try:
        parse_many(value)
    except ValueError:
        raise ValueError("a limit like '5 per 15 seconds;300 per hour'") from None
    return value


def _hash_method(value: str) -> str:
    if not re.fullmatch(r"(scrypt(:\d+:\d+:\d+)?|pbkdf2(:sha(256|512))?(:\d+)?)", value):
        raise ValueError("one of werkzeug's methods: scrypt[:N:r:p] or pbkdf2[:sha256[:rounds]]")
    return value


def _folder(value: str) -> Path:
    return Path(value).expanduser()


@dataclasses.dataclass(frozen=True)
class Setting:
    """One setting: ``CRIB_<name>`` in the environment, ``name`` in ``config.py``."""

    name: str
    default: Any
    """The value when nothing sets it (``None``: see :attr:`help`)."""
    help: str
    parse: Callable[[str], Any]
    """The value from its text; a ``ValueError`` says what it must be."""
    bad: str
    """A value it refuses (the tests try it)."""

    @property
    def variable(self) -> str:
        """Its environment variable."""
        return PREFIX + self.name

    def value(self, raw: object) -> Any:
        """``raw`` (text, or a value from ``config.py``) as this setting's value.

        Raises:
            SettingError: naming the variable, the value and what it must be.
        """
        text = str(raw)
        if not text.strip():
            raise SettingError(f"{self.variable} is empty: leave it unset for its default")
        try:
            return self.parse(text)
        except ValueError as error:
            raise SettingError(f"{self.variable}: {str(raw)!r} is not {error}") from None


SETTINGS = (
    Setting(
        "DATABASE_URL",
        None,
        "SQLite or PostgreSQL, the only two supported (default: instance/trainer.sqlite)",
        _database_url,
        "mysql://db/crib",
    ),
    Setting(
        "SECRET_KEY",
        None,
        "signs the session cookies: the same on every server (default: made once, kept in"
        " instance/secret_key)",
        _text,
        "",
    ),
    Setting(
        "TRUSTED_PROXIES",
        0,
        "how many reverse proxies in front, whose X-Forwarded-* headers are believed; 1 or more"
        " also lets crib serve listen beyond loopback (say so only with a proxy in front)",
        _count,
        "-1",
    ),
    Setting(
        "SESSION_COOKIE_SECURE",
        "auto",
        "mark the session cookie Secure: auto (over HTTPS), true or false",
        _secure_cookie,
        "sometimes",
    ),
    Setting(
        "RATELIMIT_STORAGE_URI",
        "database://",
        "where the rate limits count: database:// (the trainer's own), memory://, redis://...,"
        " memcached://...",
        _rate_storage,
        "database://elsewhere",
    ),
    Setting("RATELIMIT_ENABLED", True, "false turns the rate limits off", _switch, "perhaps"),
    Setting(
        "RATELIMIT_DEFAULT",
        None,
        "a limit on every request per client, beside the trainer's own (none by default)",
        _limit,
        "lots",
    ),
    Setting(
        "DEALS_PER_MINUTE",
        60,
        "new drills a player may be dealt a minute; 0: no limit",
        _count,
        "x",
    ),
    Setting(
        "PASSWORD_CHECKS_SITE_WIDE",
        "5 per 15 seconds;300 per hour",
        "registrations and failed log-ins from browsers new to the name, on the whole site",
        _limit,
        "5 an hour",
    ),
    Setting(
        "PASSWORD_HASH_METHOD",
        "scrypt",
        "how new passwords are hashed (scrypt:65536:8:1 is stronger and slower)",
        _hash_method,
        "md5",
    ),
    Setting(
        "MAX_CONTENT_LENGTH",
        10 * 1024 * 1024,
        "the largest request body in bytes (a photo upload; the JSON API takes 8 KB)",
        _count,
        "ten megabytes",
    ),
    Setting(
        "VISION_MODELS",
        REPO_ROOT / "models",
        "the folder of the card reader's models",
        _folder,
        "",
    ),
    Setting(
        "VISION_CACHE",
        REPO_ROOT / ".cache" / "vision",
        "the folder of the card generator's rendered decks (made again when missing)",
        _folder,
        "",
    ),
)
"""Every setting, in the order ``crib settings`` lists them."""
BY_NAME = {setting.name: setting for setting in SETTINGS}


def read(
    config_file: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Every setting that is set, by name: the environment's over ``config_file``'s.

    Settings left unset are left out (their default applies).

    Raises:
        SettingError: for the first bad value, naming its variable.
    """
    environ = os.environ if environ is None else environ
    config_file = config_file or {}
    values: dict[str, Any] = {}
    for setting in SETTINGS:
        if setting.variable in environ:
            raw: object = environ[setting.variable]
        elif setting.name in config_file:
            raw = config_file[setting.name]
        else:
            continue
        values[setting.name] = setting.value(raw)
    return values


def value(name: str, environ: Mapping[str, str] | None = None) -> Any:
    """One setting's value from the environment, or its default (``crib read``, the reader).

    Raises:
        SettingError: its value is bad.
    """
    environ = os.environ if environ is None else environ
    setting = BY_NAME[name]
    raw = environ.get(setting.variable)
    return setting.default if raw is None else setting.value(raw)


def instance_folder() -> Path:
    """The web trainer's instance folder (its SQLite default, ``config.py``, secret key).

    Found as Flask finds it for the ``web`` package (``instance/`` beside a checkout), so that
    ``crib drill`` in a terminal keeps its answers where the web trainer does.
    """
    from flask import Flask  # how Flask places an app's instance folder; no app is built

    return Path(Flask("web", instance_relative_config=True).instance_path)


def default_database_url(instance: str | Path) -> str:
    """The database when ``DATABASE_URL`` is not set: a SQLite file in the instance folder."""
    return "sqlite:///" + os.path.join(instance, "trainer.sqlite")


def from_instance(instance: str | Path) -> dict[str, Any]:
    """The settings in force for the instance folder: the environment's over its ``config.py``.

    Raises:
        SettingError: for the first bad value, naming its variable.
    """
    from flask import Config  # reads config.py as the web trainer reads it

    config_file = Config(str(instance))
    config_file.from_pyfile("config.py", silent=True)
    return read(config_file)


def in_force(instance: str | Path, name: str) -> Any:
    """One setting's value for the instance folder: as set (:func:`from_instance`) or its default.

    Raises:
        SettingError: a setting is bad.
    """
    return from_instance(instance).get(name, BY_NAME[name].default)


def database_url(instance: str | Path) -> str:
    """The web trainer's database: ``DATABASE_URL`` as set, else :func:`default_database_url`.

    Raises:
        SettingError: a setting is bad.
    """
    return str(in_force(instance, "DATABASE_URL") or default_database_url(instance))
