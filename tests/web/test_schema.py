"""Schema migrations (``web.schema``, ``web/migrations``, ``crib db upgrade``)."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
import warnings
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from flask import Flask
from sqlalchemy import Connection, Engine, make_url, select, text
from werkzeug.security import generate_password_hash

from crib.cli import main
from records import schema
from records.database import WriteLock, make_engine
from records.models import Base
from trainer import dealing
from trainer.dealing import Difficulty
from web import create_app

from . import legacy_schema
from .conftest import ROOT, AuthActions

NEW_PASSWORD = "cribbage29"


def schema_differences(connection: Connection) -> list[Any]:
    """How the database's schema differs from the models' (Alembic's comparison).

    SQLAlchemy cannot read an index on an expression back from SQLite (the unique
    ``lower(username)``), so Alembic skips it there, with warnings: on SQLite it is looked
    for by its definition instead."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*expression-based index uq_players_username_lower")
        warnings.filterwarnings("ignore", ".*expression-based index 'uq_players_username_lower'")
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    if connection.dialect.name == "sqlite":
        index = "SELECT sql FROM sqlite_master WHERE name = 'uq_players_username_lower'"
        made = connection.scalar(text(index)) or ""
        if "UNIQUE INDEX" not in made or "lower(username)" not in made:
            differences.append(("index on lower(username)", made))
    return list(differences)


@pytest.fixture
def database_url(empty_database_url: str) -> str:
    """The schema tests start from a new, empty database (the app fixture's too)."""
    return empty_database_url


@pytest.fixture
def engine(database_url: str) -> Any:
    """An engine on the test's empty database."""
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


def _lock(database_url: str) -> Any:
    url = make_url(database_url)
    return WriteLock(str(url.database)).held if url.get_backend_name() == "sqlite" else None


def _upgrade_cli(database_url: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> str:
    """``crib db upgrade`` on ``database_url``: its output."""
    monkeypatch.setenv("CRIB_DATABASE_URL", database_url)
    assert main(["db", "upgrade"]) == 0
    out: str = capsys.readouterr().out
    return out


def test_new_database_gets_the_models_schema(app: Flask) -> None:
    """A new database is upgraded at start-up to exactly the models' tables, columns, indexes
    and keys (the migrations and web/models.py agree)."""
    with app.extensions["crib_database"].engine.connect() as connection:
        assert schema.revision_of(connection) == schema.head()
        assert schema_differences(connection) == []


def _fill_legacy(engine: Engine) -> dict[str, list[Any]]:
    """A database as the trainer made it before migrations, with players and progress in it;
    returns every row of every table."""
    legacy_schema.metadata.create_all(engine)
    deal = dealing.deal("hand", random.Random(7), Difficulty.STANDARD, None)
    categories = ",".join(sorted(c.value for c in dealing.classify(deal)))
    drill = {"kind": "hand", "mode": "practice", "difficulty": "standard", "deal": deal.to_json()}
    drill |= {"categories": categories, "daily_date": None, "position": None, "repeat": 0}
    with engine.begin() as connection:  # ids from the database's own sequences, as served

        def add(table: Any, **row: Any) -> int:
            return int(connection.execute(table.insert().returning(table.c.id), row).scalar_one())

        hashed = generate_password_hash(NEW_PASSWORD)
        alice = add(legacy_schema.players, username="alice", password_hash=hashed, created_at=1.7e9)
        guest = add(legacy_schema.players, username=None, password_hash=None, created_at=1.8e9)
        answered = add(legacy_schema.drills, player_id=alice, dealt_at=1.7e9 + 60, **drill)
        left_open = time.time() - 3600  # an hour before the upgrade: not yet expired
        add(legacy_schema.drills, player_id=alice, dealt_at=left_open, **drill)
        add(legacy_schema.drills, player_id=guest, dealt_at=1.8e9, **drill)
        answer = {"kind": "hand", "correct": False, "claimed": 3.0, "total": 8.0}
        answer |= {"seconds": 7.5, "day": "2023-11-14", "given": {"points": 3}}
        answer |= {"missed": categories, "review_at": 1.7e9 + 300, "answered_at": 1.7e9 + 67}
        add(legacy_schema.answers, drill_id=answered, player_id=alice, **answer)
        connection.execute(
            legacy_schema.skills.insert(),
            [
                {"player_id": alice, "category": c, "seen": 1, "missed": 1, "seconds": 7.5}
                for c in categories.split(",")
            ],
        )
    return _rows(engine)


def _rows(engine: Engine) -> dict[str, list[Any]]:
    """Every row of the legacy tables, in the legacy columns."""
    with engine.connect() as connection:
        return {
            table.name: [
                tuple(row) for row in connection.execute(select(table).order_by(*table.primary_key))
            ]
            for table in legacy_schema.metadata.sorted_tables
        }


@pytest.mark.slow
@pytest.mark.usefixtures("instance")  # no instance/config.py of the checkout
def test_database_from_before_migrations_is_upgraded_losing_nothing(
    engine: Engine,
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A database made by ``create_all`` before migrations, with data: the trainer refuses to
    start on it; ``crib db upgrade`` brings it to the latest schema with every row kept, and
    its player can log in and answer the drill left open."""
    before = _fill_legacy(engine)
    config = {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": database_url}
    with pytest.raises(schema.SchemaError, match=r"made before migrations.*crib db upgrade"):
        create_app(config)

    out = _upgrade_cli(database_url, monkeypatch, capsys)
    assert f"from made before migrations to schema version {schema.head()}" in out

    assert _rows(engine) == before
    with engine.connect() as connection:
        assert schema_differences(connection) == []
        versions = connection.execute(text("SELECT session_version FROM players")).scalars()
        assert list(versions) == [0, 0]
        keys = list(connection.execute(text("SELECT session_key FROM players")).scalars())
        assert len(set(keys)) == 2 and all(len(key) == 32 for key in keys)  # each its own
    app = create_app(config)
    client = app.test_client()
    assert AuthActions(client).login("alice", NEW_PASSWORD).status_code == 302
    open_drill = before["drills"][1][0]
    answered = client.post(f"/api/drills/{open_drill}/answer", json={"points": 0})
    assert answered.status_code == 200, answered.json
    assert client.get("/progress").status_code == 200
    app.extensions["crib_database"].dispose()


@pytest.mark.usefixtures("instance")
def test_database_one_version_behind_refuses_to_start_until_upgraded(
    engine: Engine,
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A database at an older revision: no start (rather than a 500 on every deal later);
    ``crib db upgrade`` upgrades it and says from where; a second run has nothing to do."""
    with engine.begin() as connection:
        config = schema._config(connection)
        command.upgrade(config, "0001")
    config = {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": database_url}
    with pytest.raises(schema.SchemaError, match=r"at schema version 0001.*crib db upgrade"):
        create_app(config)
    out = _upgrade_cli(database_url, monkeypatch, capsys)
    shown = make_url(database_url).render_as_string(hide_password=True)
    assert out == f"Upgraded the database at {shown} from 0001 to schema version {schema.head()}.\n"
    password = make_url(database_url).password
    assert not password or str(password) not in out
    again = _upgrade_cli(database_url, monkeypatch, capsys)
    assert again == f"The database at {shown} is up to date (schema version {schema.head()}).\n"
    create_app(config).extensions["crib_database"].dispose()


@pytest.mark.usefixtures("instance")
def test_a_database_at_0004_upgrades_keeping_its_guests_and_their_cookies(
    engine: Engine,
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A database as the trainer made it before session keys (revision 0004), a guest with an
    answered drill in it: ``crib db upgrade`` keeps every row and gives the guest a key, and
    the guest's cookie from before (its id and version, no key) still plays as the guest."""
    with engine.begin() as connection:
        command.upgrade(schema._config(connection), "0004")
    _fill_legacy(engine)
    with engine.begin() as connection:  # the guest came yesterday
        connection.execute(text("UPDATE players SET created_at = :t"), {"t": time.time() - 86400})
    before = _rows(engine)
    _upgrade_cli(database_url, monkeypatch, capsys)
    assert _rows(engine) == before
    guest_id = before["players"][1][0]
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": database_url})
    try:
        browser = app.test_client()
        with browser.session_transaction() as session:  # as the old trainer signed it
            session.update({"player_id": guest_id, "version": 0})
        page = browser.get("/progress").get_data(as_text=True)
        assert "<strong>Guest</strong>" in page
        with browser.session_transaction() as session:
            assert session["player_id"] == guest_id and len(session["key"]) == 32
    finally:
        app.extensions["crib_database"].dispose()


@pytest.mark.slow
@pytest.mark.usefixtures("instance")
def test_twin_names_are_kept_and_the_younger_renamed_at_0007(
    engine: Engine,
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Names that differ only in case (registered before revision 0007): the oldest account
    keeps its name, each younger one becomes ``name-2`` (``-3`` where that is taken), every
    account and its password kept; then one name in any case is one account."""
    with engine.begin() as connection:
        command.upgrade(schema._config(connection), "0006")
        hashed = generate_password_hash(NEW_PASSWORD)
        for name in ("Vic", "alice", "vic", "vic-2", "VIC", "y" * 40, "Y" * 40):
            connection.execute(
                text(
                    "INSERT INTO players (username, password_hash, created_at, session_version,"
                    " session_key) VALUES (:name, :hashed, 1.7e9, 0, '')"
                ),
                {"name": name, "hashed": hashed},
            )
    _upgrade_cli(database_url, monkeypatch, capsys)
    with engine.connect() as connection:
        names = connection.execute(text("SELECT username FROM players ORDER BY id")).scalars()
        assert list(names) == ["Vic", "alice", "vic-3", "vic-2", "VIC-4", "y" * 40, "Y" * 38 + "-2"]
        assert schema_differences(connection) == []
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": database_url})
    try:
        assert AuthActions(app.test_client()).login("vic-3", NEW_PASSWORD).status_code == 302
        assert AuthActions(app.test_client()).login("vIC", NEW_PASSWORD).status_code == 302
        taken = AuthActions(app.test_client()).register("ALICE", NEW_PASSWORD)
        assert taken.status_code == 200 and "is taken" in taken.get_data(as_text=True)
    finally:
        app.extensions["crib_database"].dispose()


def test_database_from_a_newer_trainer_refuses_to_start(engine: Engine, database_url: str) -> None:
    """A revision this trainer does not know: no start, and no attempt to change it."""
    with engine.begin() as connection:
        command.upgrade(schema._config(connection), "head")
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    config = {"TESTING": True, "SECRET_KEY": "test", "DATABASE_URL": database_url}
    with pytest.raises(schema.SchemaError, match=r"version 9999, which this trainer does not know"):
        create_app(config)


def run_crib(arguments: list[str], database_url: str) -> subprocess.CompletedProcess[str]:
    """Run ``crib ARGUMENTS`` in a fresh process on the database at ``database_url``."""
    return subprocess.run(
        [sys.executable, "-m", "crib", *arguments],
        cwd=ROOT,
        env={"CRIB_DATABASE_URL": database_url, "CRIB_SECRET_KEY": "x", "PATH": "/usr/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.slow
def test_serve_refuses_a_database_behind_in_one_line(engine: Engine, database_url: str) -> None:
    """``crib serve`` on a database behind: exit status 2 and one line on stderr."""
    legacy_schema.metadata.create_all(engine)
    result = run_crib(["serve", "--port", "1"], database_url)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("crib serve: error: the database at ")
    assert "made before migrations" in result.stderr


@pytest.mark.parametrize("trial", range(3))
def test_parallel_upgrades_of_a_new_database_all_succeed(database_url: str, trial: int) -> None:
    """Three servers starting together on one new database: every upgrade succeeds (they take
    turns) and the schema is made once."""
    engines = [make_engine(database_url) for _ in range(3)]
    start = threading.Barrier(len(engines))
    errors: list[BaseException] = []

    def upgrade(engine: Engine) -> None:
        start.wait()
        try:
            schema.upgrade(engine, _lock(database_url))
        except Exception as error:  # collected, asserted below
            errors.append(error)

    threads = [threading.Thread(target=upgrade, args=(e,), daemon=True) for e in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    try:
        assert not any(thread.is_alive() for thread in threads), "the upgrades are stuck"
        assert errors == []
        with engines[0].connect() as connection:
            assert schema.revision_of(connection) == schema.head()
            assert schema_differences(connection) == []
    finally:
        for engine in engines:
            engine.dispose()


@pytest.mark.parametrize(
    ("command", "name"), [(["serve", "--port", "1"], "serve"), (["db", "upgrade"], "db upgrade")]
)
@pytest.mark.slow
def test_an_unreachable_database_is_one_line(command: list[str], name: str) -> None:
    """``crib serve`` and ``crib db upgrade`` with nothing listening at the database's address:
    exit status 2 and one line naming the problem, no traceback (and no password)."""
    url = "postgresql+psycopg://trainer:s3cret@127.0.0.1:1/crib"  # port 1: nothing listens
    result = run_crib(command, url)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"crib {name}: error: cannot reach the database (")
    assert "Connection refused" in result.stderr
    assert "s3cret" not in result.stderr
