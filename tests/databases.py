"""Databases for the tests: a new, empty one per test, on SQLite and on PostgreSQL.

Every test that uses a database (the ``database`` fixture, through ``database_url``) runs
twice: on SQLite and on PostgreSQL. Its database is at the latest schema and holds nothing: a
copy of a SQLite file migrated once per session, or the session's one PostgreSQL database,
emptied before each test (its sessions ended, its settings reset, its tables truncated; a new
database would cost about 0.2 s a test, mostly the first connections filling their catalog
caches). A test that changes the schema, or needs a database that is new and empty, takes
``empty_database_url`` instead (``postgres_url``: a new PostgreSQL database, dropped
afterwards). The PostgreSQL server is started once per session by ``scripts/test-postgres
--serve`` (a throwaway cluster), or is the server at ``CRIB_TEST_DATABASE_URL`` when that is
set (its role must be allowed to create databases). When PostgreSQL cannot be started, its
tests fail under CI (``CI=true``) and skip elsewhere, saying why. Tests of what only SQLite
does carry ``@pytest.mark.sqlite_only(reason)``; tests whose outcome does not depend on the
database carry ``@pytest.mark.any_database`` and run once, on SQLite.

A pytest plugin (``tests/conftest.py`` loads it), so that ``tests/records`` and ``tests/web``
share it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import URL, Engine, inspect, make_url
from sqlalchemy.exc import OperationalError

from records import schema
from records.database import make_engine

ROOT = Path(__file__).resolve().parents[1]
TEST_POSTGRES = ROOT / "scripts" / "test-postgres"
DATABASES = ("sqlite", "postgresql")


def _unavailable(why: str) -> None:
    """PostgreSQL cannot be used: a failure under CI, a skip (saying why) elsewhere."""
    message = f"PostgreSQL is not available: {why}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[URL]:
    """The URL of a PostgreSQL server (its maintenance database), started once per session."""
    external = os.environ.get("CRIB_TEST_DATABASE_URL")
    if external:
        yield make_url(external)
        return
    try:
        server = subprocess.Popen(
            [str(TEST_POSTGRES), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    except OSError as error:
        _unavailable(str(error))
    with server:  # its pipes are closed and it is waited for, however the session ends
        assert server.stdout is not None and server.stdin is not None
        url = server.stdout.readline().strip()
        if not url:
            _unavailable(f"scripts/test-postgres --serve said: {server.communicate()[1].strip()}")
        try:
            yield make_url(url)
        finally:
            server.stdin.close()  # the script stops and removes the cluster
            server.wait(timeout=60)


@pytest.fixture(scope="session")
def postgres_admin(postgres_server: URL) -> Iterator[Engine]:
    """An autocommit engine on the server's maintenance database, to create databases."""
    engine = make_engine(postgres_server.render_as_string(hide_password=False))
    admin = engine.execution_options(isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except OperationalError as error:
        _unavailable(f"cannot connect: {error}")
    yield admin
    engine.dispose()


def _new_postgres_database(admin: Engine) -> str:
    """Create a new, empty database on ``admin``'s server; its name."""
    name = f"crib_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        fast = connection.dialect.server_version_info >= (15,)  # no WAL for a throwaway copy
        strategy = " STRATEGY = FILE_COPY" if fast else ""
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"{strategy}')
    return name


def _drop_postgres_database(admin: Engine, name: str) -> None:
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url(request: pytest.FixtureRequest, postgres_server: URL) -> Iterator[str]:
    """A new, empty PostgreSQL database for this test; dropped afterwards."""
    admin: Engine = request.getfixturevalue("postgres_admin")
    name = _new_postgres_database(admin)
    yield postgres_server.set(database=name).render_as_string(hide_password=False)
    _drop_postgres_database(admin, name)


class ReusedDatabase:
    """A PostgreSQL database at the latest schema, made once and emptied for each test."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._engine = make_engine(url)
        schema.upgrade(self._engine)
        with self._engine.connect() as connection:
            tables = inspect(connection).get_table_names()
        self._tables = ", ".join(f'"{table}"' for table in tables if table != "alembic_version")

    def empty(self) -> None:
        """Make the database as a new one at the latest schema: every other session on it
        ended, the settings a test gave it reset, every table emptied, ids from 1 again."""
        with self._engine.begin() as connection:
            connection.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            name = connection.exec_driver_sql("SELECT current_database()").scalar_one()
            connection.exec_driver_sql(f'ALTER DATABASE "{name}" RESET ALL')
            connection.exec_driver_sql(f"TRUNCATE {self._tables} RESTART IDENTITY CASCADE")

    def close(self) -> None:
        """Close the connections this object holds."""
        self._engine.dispose()


@pytest.fixture(scope="session")
def postgres_database(postgres_server: URL, postgres_admin: Engine) -> Iterator[ReusedDatabase]:
    """The session's PostgreSQL database at the latest schema (dropped at the end)."""
    name = _new_postgres_database(postgres_admin)
    url = postgres_server.set(database=name).render_as_string(hide_password=False)
    database = ReusedDatabase(url)
    yield database
    database.close()
    _drop_postgres_database(postgres_admin, name)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file at the latest schema, made once: each test's database is a copy."""
    path = tmp_path_factory.mktemp("template") / "trainer.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    schema.upgrade(engine)
    engine.dispose()  # the last connection's close moves the write-ahead log into the file
    assert not path.with_name(f"{path.name}-wal").exists(), "the template is not in one file"
    return path


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test that uses a database on every one of ``DATABASES``, or on SQLite alone
    when it is marked ``any_database``; the PostgreSQL runs are ``slow`` (not in the fast lane)."""
    if "database" in metafunc.fixturenames:
        once = metafunc.definition.get_closest_marker("any_database") is not None
        slow = pytest.mark.slow  # the fast lane runs the web tests on SQLite alone
        databases = [pytest.param(d, marks=slow) if d == "postgresql" else d for d in DATABASES]
        metafunc.parametrize("database", databases[:1] if once else databases)


def _skip_if_sqlite_only(request: pytest.FixtureRequest) -> None:
    marker = request.node.get_closest_marker("sqlite_only")
    if marker is not None:
        pytest.skip(f"SQLite only: {marker.args[0]}")


@pytest.fixture
def empty_database_url(request: pytest.FixtureRequest, database: str, tmp_path: Path) -> str:
    """The URL of a new, empty database: a SQLite file in ``tmp_path`` (not yet created), or
    a new PostgreSQL database."""
    if database == "sqlite":
        return f"sqlite:///{tmp_path / 'trainer.sqlite'}"
    _skip_if_sqlite_only(request)
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def database_url(request: pytest.FixtureRequest, database: str, tmp_path: Path) -> str:
    """The URL of this test's database, at the latest schema and empty: a copy of the
    session's SQLite file in ``tmp_path``, or the session's PostgreSQL database emptied."""
    if database == "sqlite":
        path = tmp_path / "trainer.sqlite"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite:///{path}"
    _skip_if_sqlite_only(request)
    reused: ReusedDatabase = request.getfixturevalue("postgres_database")
    reused.empty()
    return reused.url
