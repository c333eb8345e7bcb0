"""The database: an engine for a URL, with the schema brought up to date by the Alembic migrations.

SQLite (the default, one file) is set up so that several processes can share the file: WAL journal,
a 30 s busy timeout, foreign keys on. PostgreSQL is used through psycopg 3
(``postgresql+psycopg://user:password@host/db``; a bare ``postgresql://`` URL is taken to mean that).

On SQLite, Python's driver begins a transaction at the first write, so reads before it see the latest
committed data rather than a snapshot: read-modify-write code must check what it read in its
``UPDATE ... WHERE`` (as ``GameRow.version`` allows), which is also right on PostgreSQL.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

DEFAULT_URL = "sqlite:///interboard.sqlite"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_TIMEOUT_S = 30.0
BUSY_WAIT_SHORTENED = "busy_wait_shortened"
"""Set in a connection's ``info`` while its busy timeout is a write's on the event loop (none,
``games.AT_ONCE_BUSY_WAIT_MS``): the timeout is set back when the connection returns
to the pool, or when the event loop's kept connection for reads is done with it (the one kept for
those writes keeps it: :class:`LoopConnection`)."""
SQLITE_SYNCHRONOUS = {"full": "FULL", "normal": "NORMAL"}
"""A SQLite URL's ``?synchronous=`` (SQLite's pragma, on the write-ahead log): ``full``, the default,
syncs the log to the disk at every commit, so an answered write survives a power cut; ``normal``
syncs it only when it is copied into the database (every thousand pages), so an answered write
survives the server's crash, but those since the last copy may be lost in the machine's. On this
two-core machine the benchmark's game load served about a fifth more requests a second with
``normal`` (docs/server.md)."""
PG_POOL_SIZE = 15
"""The PostgreSQL connections a process keeps open, and uses at most. Every request on PostgreSQL
runs in a worker thread with a connection of its own; connections past a smaller pool's size were
closed when given back and opened anew for the next request, a backend started each time
(with a pool of 5 and 10 more under load: the seat views' p99 under wrk 0.2-1.0 s, against
0.06-0.17 s with 15 kept; bench/bench_server.py --only postgresql)."""
PG_CONNECT_TIMEOUT_S = 5
"""How long a new PostgreSQL connection may take to open (libpq's ``connect_timeout``; a URL's
``?connect_timeout=`` overrides it), rather than psycopg's 130 s: a server that stopped answering
holds a request, or ``/readyz``'s check, that long at most, and the check sees it answer again that
soon."""
SQLITE_POOL_SIZE = 40
"""SQLite connections kept open: the server's worker threads (AnyIO's default 40) each keep one."""
PG_MIGRATION_LOCK = 0x1B7E_0A2D
"""Key of the PostgreSQL advisory lock held while migrating, so that processes starting together
do not race to create the tables."""

_alembic_lock = threading.Lock()
"""Alembic keeps the running migration context in a module global: one migration at a time."""


class StoreError(ValueError):
    """A database that cannot be opened as given; the message says why."""


def default_url() -> str:
    """The database URL: ``$INTERBOARD_DB`` if set, else the SQLite file ``interboard.sqlite``."""
    return os.environ.get("INTERBOARD_DB") or DEFAULT_URL


def open_store(url: str) -> Engine:
    """An engine for ``url``, with the schema migrated to the latest revision."""
    engine = create_store_engine(url)
    try:
        migrate(engine)
    except BaseException:
        engine.dispose()
        raise
    return engine


def create_store_engine(url: str | URL) -> Engine:
    """An engine for ``url`` with the settings this service needs; the schema is left as it is."""
    try:
        u = make_url(url)
    except ArgumentError:
        raise StoreError(
            f"{str(url)!r} is not a database URL (for example sqlite:///interboard.sqlite or "
            "postgresql://user@host/interboard)"
        ) from None
    if u.drivername == "postgresql":
        u = u.set(drivername="postgresql+psycopg")
    backend = u.get_backend_name()
    if backend == "sqlite":
        return _sqlite_engine(u)
    if backend == "postgresql":
        given = "connect_timeout" in u.query
        return create_engine(
            u,
            pool_size=PG_POOL_SIZE,
            max_overflow=0,
            pool_timeout=30,
            pool_pre_ping=True,
            pool_recycle=1800,
            connect_args={} if given else {"connect_timeout": PG_CONNECT_TIMEOUT_S},
        )
    return create_engine(u, pool_pre_ping=True)


def _sqlite_engine(u: URL) -> Engine:
    memory = u.database in (None, "", ":memory:")
    given = u.query.get("synchronous", "full")
    synchronous = SQLITE_SYNCHRONOUS.get(given.lower()) if isinstance(given, str) else None
    if synchronous is None:
        raise StoreError(
            f"a SQLite database's synchronous= is {' or '.join(SQLITE_SYNCHRONOUS)}, not {given!r}"
        )
    u = u.difference_update_query(["synchronous"])
    kwargs: dict[str, Any] = {}
    if memory:
        kwargs["poolclass"] = StaticPool  # one connection, or each would see its own empty database
    else:
        # Connections are kept, as many as threads may read at once: a new SQLite connection costs
        # more than the queries it would run (opening the WAL index, parsing the schema).
        kwargs.update(pool_size=SQLITE_POOL_SIZE, max_overflow=SQLITE_POOL_SIZE)
    engine = create_engine(
        u,
        connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_S},
        **kwargs,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT_S * 1000)}")
            if not memory:
                _write_ahead_log(cursor)
            cursor.execute(f"PRAGMA synchronous = {synchronous}")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    @event.listens_for(engine, "checkin")
    def _on_checkin(dbapi_connection: Any, record: Any) -> None:
        _restore_busy_wait(dbapi_connection, record.info)

    return engine


def _restore_busy_wait(dbapi_connection: Any, info: dict[Any, Any]) -> None:
    if info.pop(BUSY_WAIT_SHORTENED, False):
        dbapi_connection.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT_S * 1000)}")


def _shorten_busy_wait(conn: Connection, busy_wait_ms: int) -> None:
    """SQLite waits at most ``busy_wait_ms`` for another's lock on this connection, until the
    timeout is set back (:data:`BUSY_WAIT_SHORTENED`)."""
    # On the driver's connection: a pragma needs none of SQLAlchemy's execution (a result, the
    # autobegin), which costs more than the pragma.
    conn.connection.dbapi_connection.execute(f"PRAGMA busy_timeout = {int(busy_wait_ms)}")  # type: ignore[union-attr]
    conn.connection.info[BUSY_WAIT_SHORTENED] = True


class LoopConnection:
    """SQLite connections kept open for the requests an event loop serves itself: one for its
    reads and writes, one for its writes that give way rather than wait (:meth:`connect`).

    A connection from the pool for each request cost more than a seat's view reads with it: the
    pool's checkout and checkin, SQLAlchemy's ``Connection`` around it, the reset when it goes back
    (``bench/bench_routes.py``: a seat view took 220-330 µs of CPU in the app with them, about 170
    without). The loop's thread calls
    :meth:`keep` when it starts serving; from then on :meth:`connect` on that thread gives the kept
    connection, with no transaction left open and SQLite's busy timeout set back after each use,
    as the pool would leave it. Other threads, and a use inside another (a request on the loop
    never nests them, but a caller may), get the pool's as before. A connection that failed
    (invalidated) is replaced. :meth:`release`, on the loop's thread when it stops, closes them."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._thread: int | None = None
        self._kept: dict[int | None, _Kept] = {}
        """By busy wait: ``None`` for the pool's timeout, else the milliseconds given to :meth:`connect`."""
        self._in_use: set[int | None] = set()

    def keep(self) -> None:
        """Keep connections for the calling thread (an event loop's) from now on."""
        self._thread = threading.get_ident()

    def release(self) -> None:
        """Close the kept connections; the calling thread uses the pool from now on."""
        kept, self._kept, self._thread = self._kept, {}, None
        for conn, _, _ in kept.values():
            conn.close()  # back to the pool, its busy timeout set back (the pool's checkin)

    def connect(self, busy_wait_ms: int | None = None) -> AbstractContextManager[Connection]:
        """A connection: a kept one on the loop's thread, else (or while it is in use) the pool's.
        ``busy_wait_ms``: SQLite waits at most that long for another's lock on it, rather than
        :data:`SQLITE_BUSY_TIMEOUT_S` (the loop's writes that give way rather than wait). On the
        loop's thread that is a second kept connection, its timeout set once when it is opened,
        rather than set and set back at every write; a pool's connection has it set back when it
        returns to the pool. Whether the kept one is in use is asked here, so enter the result at
        once (``with connect() as conn``), as every caller does."""
        if busy_wait_ms in self._in_use or self._thread != threading.get_ident():
            return self._pooled(busy_wait_ms)
        return _KeptUse(self, busy_wait_ms)

    @contextmanager
    def _pooled(self, busy_wait_ms: int | None) -> Iterator[Connection]:
        with self.engine.connect() as pooled:
            if busy_wait_ms is not None:
                _shorten_busy_wait(pooled, busy_wait_ms)
            yield pooled


_Kept = tuple[Connection, Any, dict[Any, Any]]
"""A kept connection, its driver's connection and the pool's notes on it (``info``), read once
(SQLAlchemy's proxies answer each read of them through several attribute lookups)."""


class _KeptUse:
    """One use of a :class:`LoopConnection`'s kept connection: left as the pool would leave it. A
    class rather than a ``contextlib.contextmanager``: every request on the loop makes one, and a
    generator's context manager costs several times these two calls."""

    __slots__ = ("busy_wait_ms", "entry", "kept")
    entry: _Kept

    def __init__(self, kept: LoopConnection, busy_wait_ms: int | None) -> None:
        self.kept = kept
        self.busy_wait_ms = busy_wait_ms

    def __enter__(self) -> Connection:
        kept, busy_wait_ms = self.kept, self.busy_wait_ms
        entry = kept._kept.get(busy_wait_ms)
        if entry is None or entry[0].closed or entry[0].invalidated:
            conn = kept.engine.connect()
            if busy_wait_ms is not None:
                _shorten_busy_wait(conn, busy_wait_ms)
            entry = kept._kept[busy_wait_ms] = (conn, conn.connection.dbapi_connection, conn.connection.info)
        kept._in_use.add(busy_wait_ms)
        self.entry = entry
        return entry[0]

    def __exit__(self, *exc: object) -> None:
        kept, busy_wait_ms, (conn, raw, info) = self.kept, self.busy_wait_ms, self.entry
        kept._in_use.discard(busy_wait_ms)
        try:
            if conn.in_transaction():  # a read that went through SQLAlchemy's execution
                conn.rollback()
            else:  # as the pool's reset on return does (nothing to undo, unless a caller began)
                raw.rollback()
            if busy_wait_ms is None:  # a caller's shortened timeout (the other's stays short)
                _restore_busy_wait(raw, info)
        except (SQLAlchemyError, sqlite3.Error):  # a broken connection: the next use opens another
            kept._kept.pop(busy_wait_ms, None)
            with contextlib.suppress(SQLAlchemyError):
                conn.invalidate()
            conn.close()


def _write_ahead_log(cursor: Any) -> None:
    """Switch a file database to WAL. SQLite answers "database is locked" at once, without its busy
    handler, when another connection is switching the same new file at that moment (processes
    opening a fresh database together): try again until the busy timeout."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration for the package's migrations, without an ``alembic.ini``.

    For development, e.g. a new revision::

        from alembic import command
        command.revision(alembic_config("sqlite:///dev.sqlite"), "add x", autogenerate=True)
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("path_separator", "os")
    if url is not None:
        config.set_main_option("sqlalchemy.url", str(url).replace("%", "%%"))
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to ``revision``, holding a lock so that concurrent callers wait in turn."""
    with _alembic_lock, engine.connect() as conn:
        backend = conn.dialect.name
        if backend == "sqlite":
            _migrate_sqlite(conn, revision)
        elif backend == "postgresql":
            with conn.begin():
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_MIGRATION_LOCK})
                _upgrade(conn, revision)
        else:
            with conn.begin():
                _upgrade(conn, revision)


def _migrate_sqlite(conn: Connection, revision: str) -> None:
    # Foreign keys off while migrating: a batch migration copies a table, drops it and renames the
    # copy, and with foreign keys on the drop would delete (ON DELETE CASCADE) every referring row.
    # The pragma is a no-op inside a transaction, so the transaction is handled here, by hand:
    # BEGIN IMMEDIATE takes the write lock first, so concurrent migrations wait for each other.
    conn.execution_options(isolation_level="AUTOCOMMIT")
    conn.exec_driver_sql("PRAGMA foreign_keys = OFF")
    try:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        try:
            _upgrade(conn, revision)
            broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
            if broken:
                raise RuntimeError(f"migration left rows with broken foreign keys: {broken[:10]}")
        except BaseException:
            conn.exec_driver_sql("ROLLBACK")
            raise
        conn.exec_driver_sql("COMMIT")
    finally:
        conn.exec_driver_sql("PRAGMA foreign_keys = ON")


def _upgrade(conn: Connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = conn
    command.upgrade(config, revision)
