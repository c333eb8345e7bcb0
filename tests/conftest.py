"""Database fixtures: tests that take ``db_url`` or ``store`` run once on SQLite and once on PostgreSQL.

PostgreSQL comes from ``$INTERBOARD_TEST_PG`` (a URL whose user may create databases), else from a
throwaway cluster started once per session with the Debian binaries (``apt-get install postgresql``),
else the PostgreSQL runs are skipped — unless ``$CI`` is set, where they fail instead. Each test gets
a fresh database, dropped afterwards.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from interboard.service.pgcluster import Cluster, PgServer, find_pg_bin
from interboard.service.store import open_store

PG_ENV = "INTERBOARD_TEST_PG"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgresql: the test runs on PostgreSQL")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> NoReturn:
    """Skip the PostgreSQL runs, or fail them on CI, where PostgreSQL must be present."""
    if in_ci():
        pytest.fail(f"PostgreSQL is required when CI is set: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL not available: {reason}")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    if importlib.util.find_spec("psycopg") is None:
        unavailable('the psycopg driver is not installed (pip install "psycopg[binary]")')
    if env_url := os.environ.get(PG_ENV):
        url = make_url(env_url)
        if url.drivername == "postgresql":
            url = url.set(drivername="postgresql+psycopg")
        server = PgServer(url)
        yield server
        server.admin.dispose()
        return
    bin_dir = find_pg_bin()
    if bin_dir is None:
        unavailable(
            f"set {PG_ENV}=postgresql+psycopg://user:password@host/db (a user that may create databases)"
            " or install PostgreSQL (apt-get install postgresql: /usr/lib/postgresql/*/bin/initdb)"
        )
    cluster = Cluster(bin_dir)
    try:
        server = PgServer(cluster.start())
        yield server
        server.admin.dispose()
    finally:
        cluster.stop()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite file."""
    return f"sqlite:///{tmp_path / 'interboard.sqlite'}"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database: a fresh SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'interboard.sqlite'}"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    name = server.create_database()
    try:
        yield server.url_for(name)
    finally:
        server.drop_database(name)


@pytest.fixture
def store(db_url: str) -> Iterator[Engine]:
    """An engine on the ``db_url`` database, migrated to the latest schema."""
    engine = open_store(db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def isolated_variants() -> Iterator[None]:
    """Variants added from files during the test are forgotten after it: a process's variants are
    otherwise for good, and another test in the same worker would list them as the family's."""
    import interboard.games as registry
    from interboard.games.diplomacy import variants as diplomacy_variants

    added = dict(registry._FROM_FILES)
    registered = dict(diplomacy_variants.VARIANTS)
    definitions = dict(diplomacy_variants.DEFINITIONS)
    try:
        yield
    finally:
        registry._FROM_FILES.clear()
        registry._FROM_FILES.update(added)
        diplomacy_variants.VARIANTS.clear()
        diplomacy_variants.VARIANTS.update(registered)
        diplomacy_variants.DEFINITIONS.clear()
        diplomacy_variants.DEFINITIONS.update(definitions)
        registry._variant_index.cache_clear()
