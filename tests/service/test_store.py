"""The store: engines, migrations, and what the schema keeps, on SQLite and on PostgreSQL."""

from __future__ import annotations

import contextlib
import multiprocessing
import sqlite3
import threading
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import CursorResult, Engine, UniqueConstraint, delete, func, inspect, select, text, update
from sqlalchemy.exc import IntegrityError, StatementError
from sqlalchemy.orm import Session

from interboard.service import store as store_module
from interboard.service.models import (
    AccountRow,
    Base,
    GameRow,
    MessageRow,
    OrdersRow,
    OutboxRow,
    PhaseRow,
    SeatRow,
)
from interboard.service.store import StoreError, alembic_config, create_store_engine, default_url, open_store

T0 = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)
TABLES = {
    "games",
    "seats",
    "orders",
    "phases",
    "messages",
    "accounts",
    "sessions",
    "sign_in_failures",
    "mail_outbox",
    "variant_definitions",
}


def head() -> str:
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


def current(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def game(gid: str = "g1", **kw: Any) -> GameRow:
    fields: dict[str, Any] = {
        "id": gid,
        "family": "diplomacy",
        "variant": "standard",
        "settings": {},
        "status": "forming",
        "state": {},
        "gm_token_hash": "0" * 64,
        "created_at": T0,
    }
    fields.update(kw)
    return GameRow(**fields)


# -- schema ------------------------------------------------------------------------------------


def test_migrations_create_the_tables_of_the_models(store: Engine) -> None:
    insp = inspect(store)
    assert set(insp.get_table_names()) == TABLES | {"alembic_version"}
    for table in Base.metadata.sorted_tables:
        columns = {c["name"]: c for c in insp.get_columns(table.name)}
        assert set(columns) == {c.name for c in table.columns}, table.name
        for col in table.columns:
            assert columns[col.name]["nullable"] == col.nullable, (table.name, col.name)
        uniques = {tuple(u["column_names"]) for u in insp.get_unique_constraints(table.name)}
        expected = {
            tuple(c.name for c in u.columns) for u in table.constraints if isinstance(u, UniqueConstraint)
        }
        assert uniques == expected, table.name
        fks = insp.get_foreign_keys(table.name)
        assert sorted((fk["referred_table"], fk["options"].get("ondelete")) for fk in fks) == sorted(
            (fk.column.table.name, fk.ondelete) for fk in table.foreign_keys
        ), table.name
    assert {i["name"] for i in insp.get_indexes("games")} == {"ix_games_status", "ix_games_deadline"}
    # Autogenerate finds nothing to change: the migrations and the models agree, types included.
    with store.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
    assert diff == []
    assert current(store) == head()


def test_open_store_twice_is_idempotent(db_url: str) -> None:
    first = open_store(db_url)
    with Session(first) as s:
        s.add(game())
        s.commit()
    second = open_store(db_url)
    try:
        assert current(first) == current(second) == head()
        with second.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar_one() == 1
            assert conn.execute(select(func.count()).select_from(GameRow)).scalar_one() == 1
    finally:
        first.dispose()
        second.dispose()


def test_downgrade_to_base_and_up_again(store: Engine) -> None:
    config = alembic_config()
    with store.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "base")
    assert set(inspect(store).get_table_names()) <= {"alembic_version"}
    store_module.migrate(store)
    assert set(inspect(store).get_table_names()) == TABLES | {"alembic_version"}
    assert current(store) == head()


def test_the_accounts_migration_keeps_the_seats_and_what_refers_to_them(db_url: str) -> None:
    """0003 rebuilds the seats table on SQLite (for its new foreign key): a game's seats and orders
    made before it are there after it, unbound, and a seat can then be bound to an account."""
    engine = create_store_engine(db_url)
    try:
        store_module.migrate(engine, "0002")
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO games (id, family, variant, title, settings, status, state, phase,"
                    " phase_index, version, gm_token_hash, created_at) VALUES ('old', 'diplomacy',"
                    " 'standard', 'Old', '{}', 'active', '{}', 'S1901M', 0, 3, :h, :t)"
                ),
                {"h": "0" * 64, "t": T0},
            )
            conn.execute(
                text(
                    "INSERT INTO seats (game_id, seat, kind, player, token_hash, ready, draw_vote)"
                    " VALUES ('old', 'FRANCE', 'player', 'ann', :h, true, false)"
                ),
                {"h": "1" * 64},
            )
            conn.execute(
                text(
                    "INSERT INTO orders (game_id, phase_index, seat, orders, submitted_at)"
                    " VALUES ('old', 0, 'FRANCE', '[\"A PAR H\"]', :t)"
                ),
                {"t": T0},
            )
        store_module.migrate(engine)
        assert current(engine) == head()
        with Session(engine) as s:
            seat = s.scalars(select(SeatRow)).one()
            assert (seat.player, seat.token_hash, seat.ready, seat.account_id) == (
                "ann",
                "1" * 64,
                True,
                None,
            )
            assert s.scalars(select(OrdersRow.orders)).all() == [["A PAR H"]]
            game_row = s.get(GameRow, "old")
            assert game_row is not None and game_row.warned_phase is None
            account = AccountRow(name="Ann", name_key="ann", password_hash="x", notices=True, created_at=T0)
            s.add(account)
            s.flush()
            seat.account_id = account.id
            s.commit()
            # An account that goes leaves its seats to their players, unbound.
            s.delete(account)
            s.commit()
            assert s.scalars(select(SeatRow.account_id)).all() == [None]
    finally:
        engine.dispose()


def test_the_email_migration_keeps_the_accounts_unconfirmed_and_queues_a_confirmation_each(
    db_url: str,
) -> None:
    """0006: an address given before is kept, unconfirmed (no notices until its link is followed),
    and one confirmation message is queued for it; an account without one gets none."""
    engine = create_store_engine(db_url)
    try:
        store_module.migrate(engine, "0005")
        with engine.begin() as conn:
            for name, email in (("Ann", "ann@example.org"), ("Bob", None)):
                conn.execute(
                    text(
                        "INSERT INTO accounts (name, name_key, email, password_hash, notices, created_at)"
                        " VALUES (:n, :k, :e, 'x', true, :t)"
                    ),
                    {"n": name, "k": name.lower(), "e": email, "t": T0},
                )
            conn.execute(
                text(
                    "INSERT INTO sessions (account_id, token_hash, created_at, expires_at)"
                    " SELECT id, :h, :t, :t FROM accounts WHERE name_key = 'ann'"
                ),
                {"h": "2" * 64, "t": T0},
            )
        store_module.migrate(engine)
        assert current(engine) == head()
        with Session(engine) as s:
            accounts = {a.name: a for a in s.scalars(select(AccountRow))}
            assert {n: (a.email, a.email_verified, a.email_token_hash) for n, a in accounts.items()} == {
                "Ann": ("ann@example.org", False, None),
                "Bob": (None, False, None),
            }
            queued = s.scalars(select(OutboxRow)).all()
            assert [(q.kind, q.ref, q.to_address) for q in queued] == [
                ("verify", accounts["Ann"].id, "ann@example.org")
            ]
            assert queued[0].queued_at.tzinfo is not None
            # The sessions survive the rebuild of the accounts table (SQLite copies it).
            assert s.scalar(select(func.count()).select_from(text("sessions"))) == 1
    finally:
        engine.dispose()


def test_data_survives_reopen(db_url: str) -> None:
    engine = open_store(db_url)
    with Session(engine) as s:
        s.add(game(title="Reopened", state={"turn": 3}))
        s.add(SeatRow(game_id="g1", seat="FRANCE", kind="player", player="ann"))
        s.commit()
    engine.dispose()
    engine = open_store(db_url)
    try:
        with Session(engine) as s:
            g = s.get(GameRow, "g1")
            assert g is not None and (g.title, g.state) == ("Reopened", {"turn": 3})
            assert s.scalars(select(SeatRow.player)).all() == ["ann"]
    finally:
        engine.dispose()
    if db_url.startswith("sqlite"):  # the data is in the file itself, not left in the WAL
        with sqlite3.connect(db_url.removeprefix("sqlite:///")) as raw:
            assert raw.execute("SELECT title FROM games").fetchall() == [("Reopened",)]


# -- what the columns keep ---------------------------------------------------------------------

NESTED: dict[str, Any] = {
    "position": {"units": {"FRANCE": ["A PAR", "F BRE"], "TURKEY": []}, "owners": {"par": "FRANCE"}},
    "options": {"deep": [[1, 2, [3, {"four": 4.5}]], {"t": True, "f": False, "n": None}]},
    "text": 'Åland — ünïcödé ✓ "quoted" \\ back\nline',
    "big": 2**53,
    "negative": -17,
    "float": 0.1,
    "empty": {"d": {}, "l": []},
}


def test_json_columns_round_trip_nested_data(store: Engine) -> None:
    orders: list[Any] = [{"unit": "A PAR", "order": "- BUR"}, ["raw", None, 1.5], "plain"]
    with Session(store) as s:
        s.add(game(settings={"press": "full", "deadlines": {"movement": 86400}}, state=NESTED, result=NESTED))
        s.add(OrdersRow(game_id="g1", phase_index=0, seat="FRANCE", orders=orders, submitted_at=T0))
        s.add(
            PhaseRow(game_id="g1", phase_index=0, phase="S1901M", record={"results": NESTED}, processed_at=T0)
        )
        s.add(
            MessageRow(
                game_id="g1", phase="S1901M", sender="FR", recipients=["ENGLAND"], body="hi", sent_at=T0
            )
        )
        s.commit()
    with Session(store) as s:
        g = s.get_one(GameRow, "g1")
        assert g.state == NESTED and g.result == NESTED
        assert g.settings == {"press": "full", "deadlines": {"movement": 86400}}
        assert s.scalars(select(OrdersRow.orders)).one() == orders
        assert s.scalars(select(PhaseRow.record)).one() == {"results": NESTED}
        assert s.scalars(select(MessageRow.recipients)).one() == ["ENGLAND"]
        # A changed JSON value is saved when the attribute is assigned a new object.
        g.state = {**g.state, "turn": 2}
        s.commit()
    with Session(store) as s:
        assert s.get_one(GameRow, "g1").state == {**NESTED, "turn": 2}


def test_a_wargames_long_phase_names_are_stored_whole(store: Engine) -> None:
    """Decision points of a wargame are named by turn, side, phase and step: up to 64 characters."""
    name = "B2.Germany.airmobile_embarkation.812".ljust(64, "x")
    with Session(store) as s:
        s.add(game(phase=name))
        s.add(PhaseRow(game_id="g1", phase_index=0, phase=name, record={}, processed_at=T0))
        s.add(MessageRow(game_id="g1", phase=name, sender="Allies", recipients=None, body="hi", sent_at=T0))
        s.commit()
    with Session(store) as s:
        assert s.get_one(GameRow, "g1").phase == name
        assert s.scalars(select(PhaseRow.phase)).one() == name
        assert s.scalars(select(MessageRow.phase)).one() == name


def test_none_in_nullable_json_columns_is_sql_null(store: Engine) -> None:
    with Session(store) as s:
        s.add(game(result=None))
        s.add(MessageRow(game_id="g1", phase="S1901M", sender="GM", recipients=None, body="all", sent_at=T0))
        s.commit()
        s.execute(update(GameRow).values(result=None))
        s.commit()
        assert s.scalar(select(func.count()).where(GameRow.result.is_(None))) == 1
        assert s.scalar(select(func.count()).where(MessageRow.recipients.is_(None))) == 1
        assert s.scalars(select(MessageRow.recipients)).one() is None


def test_datetimes_come_back_aware_in_utc(store: Engine) -> None:
    plus2 = timezone(timedelta(hours=2))
    with Session(store) as s:
        s.add(game("early", deadline=datetime(2030, 5, 1, 13, 0, tzinfo=plus2)))  # 11:00 UTC
        s.add(game("late", deadline=datetime(2030, 5, 1, 11, 30, tzinfo=UTC)))
        s.add(game("none", deadline=None))
        s.commit()
    with Session(store) as s:
        early = s.get_one(GameRow, "early")
        assert early.deadline == datetime(2030, 5, 1, 11, 0, tzinfo=UTC)
        assert early.deadline is not None and early.deadline.utcoffset() == timedelta(0)
        assert early.created_at == T0 and early.created_at.tzinfo is not None
        due = select(GameRow.id).where(GameRow.deadline <= datetime(2030, 5, 1, 13, 15, tzinfo=plus2))
        assert s.scalars(due).all() == ["early"]  # 11:15 UTC: only the first
        order = s.scalars(select(GameRow.id).where(GameRow.deadline.is_not(None)).order_by(GameRow.deadline))
        assert order.all() == ["early", "late"]
    with Session(store) as s, pytest.raises(StatementError, match="naive datetime"):
        s.add(game("naive", created_at=datetime(2030, 1, 1)))
        s.commit()


def test_foreign_keys_are_enforced_and_cascade(store: Engine) -> None:
    with Session(store) as s:
        s.add(game())
        s.flush()
        s.add_all([SeatRow(game_id="g1", seat=p, kind="open") for p in ("FRANCE", "ENGLAND")])
        s.add(MessageRow(game_id="g1", phase="S1901M", sender="FRANCE", body="x", sent_at=T0))
        s.commit()
    with Session(store) as s, pytest.raises(IntegrityError):
        s.add(SeatRow(game_id="nope", seat="FRANCE", kind="open"))
        s.commit()
    with Session(store) as s, pytest.raises(IntegrityError):
        s.add(SeatRow(game_id="g1", seat="FRANCE", kind="open"))  # (game, seat) is unique
        s.commit()
    with Session(store) as s:
        s.execute(delete(GameRow).where(GameRow.id == "g1"))
        s.commit()
        assert s.scalar(select(func.count()).select_from(SeatRow)) == 0
        assert s.scalar(select(func.count()).select_from(MessageRow)) == 0


def test_transactions_roll_back_after_migrating(store: Engine) -> None:
    # The migration's connection (autocommit, foreign keys off on SQLite) goes back to the pool as
    # an ordinary one.
    with Session(store) as s:
        s.add(game())
        s.flush()
        s.rollback()
    with Session(store) as s:
        assert s.get(GameRow, "g1") is None


# -- settings ----------------------------------------------------------------------------------


def test_sqlite_connection_settings(sqlite_url: str) -> None:
    engine = open_store(sqlite_url)
    try:
        with engine.connect() as conn:
            pragmas = {
                n: conn.exec_driver_sql(f"PRAGMA {n}").scalar()
                for n in ("journal_mode", "busy_timeout", "foreign_keys")
            }
            assert pragmas == {"journal_mode": "wal", "busy_timeout": 30000, "foreign_keys": 1}
    finally:
        engine.dispose()


def test_sqlite_syncs_each_commit_unless_the_url_says_normal(sqlite_url: str) -> None:
    """``synchronous``: FULL (2) by default, every commit synced; NORMAL (1) when the URL asks."""
    for url, expected in (
        (sqlite_url, 2),
        (f"{sqlite_url}?synchronous=normal", 1),
        (f"{sqlite_url}?synchronous=FULL", 2),
    ):
        engine = open_store(url)
        try:
            with engine.connect() as conn:
                assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == expected, url
        finally:
            engine.dispose()
    with pytest.raises(StoreError, match="synchronous= is full or normal, not 'off'"):
        open_store(f"{sqlite_url}?synchronous=off")


def test_in_memory_sqlite_is_one_database() -> None:
    engine = open_store("sqlite://")
    try:
        with Session(engine) as s:
            s.add(game())
            s.commit()
        with engine.connect() as conn:
            assert conn.execute(select(GameRow.id)).scalars().all() == ["g1"]
    finally:
        engine.dispose()


def test_default_url_and_drivers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("INTERBOARD_DB", raising=False)
    assert default_url() == "sqlite:///interboard.sqlite"
    monkeypatch.setenv("INTERBOARD_DB", "postgresql+psycopg://u:p@db/interboard")
    assert default_url() == "postgresql+psycopg://u:p@db/interboard"
    engine = create_store_engine("postgresql://u:p@db/interboard")  # does not connect
    assert engine.dialect.driver == "psycopg"
    engine.dispose()


# -- concurrency -------------------------------------------------------------------------------

THREADS_PER_ENGINE = 4
WRITES_PER_THREAD = 25


def bump(engine: Engine, gid: str, n: int, who: str) -> None:
    """``n`` transactions that each add a message and move the game's version on by a checked
    read-modify-write (the pattern the service uses), retrying when another writer got there first."""
    for i in range(n):
        while True:
            with Session(engine) as s:
                version = s.scalar(select(GameRow.version).where(GameRow.id == gid))
                s.add(MessageRow(game_id=gid, phase="S1901M", sender=who, body=str(i), sent_at=T0))
                moved: CursorResult[Any] = s.execute(  # type: ignore[assignment]
                    update(GameRow)
                    .where(GameRow.id == gid, GameRow.version == version)
                    .values(version=GameRow.version + 1)
                )
                if moved.rowcount == 1:
                    s.commit()
                    break
                s.rollback()


def test_two_engines_write_concurrently(db_url: str) -> None:
    engines = [open_store(db_url), open_store(db_url)]
    try:
        with Session(engines[0]) as s:
            s.add(game())
            s.commit()
        errors: list[BaseException] = []

        def work(engine: Engine, who: str) -> None:
            try:
                bump(engine, "g1", WRITES_PER_THREAD, who)
            except BaseException as e:  # reported below
                errors.append(e)

        threads = [
            threading.Thread(target=work, args=(e, f"t{k}-{i}"))
            for k, e in enumerate(engines)
            for i in range(THREADS_PER_ENGINE)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not any(t.is_alive() for t in threads)
        assert errors == []
        total = len(threads) * WRITES_PER_THREAD
        with Session(engines[1]) as s:
            assert s.get_one(GameRow, "g1").version == total
            assert s.scalar(select(func.count()).select_from(MessageRow)) == total
    finally:
        for e in engines:
            e.dispose()


PROCESSES = 4
WRITES_PER_PROCESS = 20


def process_worker(url: str, index: int, barrier: Any) -> None:
    barrier.wait(timeout=240)  # all open the (empty) database at once: the migrations must not race
    engine = open_store(url)
    try:
        with Session(engine) as s:
            s.add(game(f"p{index}"))
            s.commit()
        barrier.wait(timeout=240)  # every game exists
        bump(engine, f"p{index}", WRITES_PER_PROCESS, f"p{index}")
        bump(engine, "p0" if index else "p1", WRITES_PER_PROCESS // 2, f"p{index}")  # contend on one row
    finally:
        engine.dispose()


def test_processes_migrate_and_write_concurrently(db_url: str) -> None:
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(PROCESSES)
    procs = [ctx.Process(target=process_worker, args=(db_url, i, barrier)) for i in range(PROCESSES)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=480)
    assert [p.exitcode for p in procs] == [0] * PROCESSES
    engine = open_store(db_url)
    try:
        with Session(engine) as s:
            versions = {gid: v for gid, v in s.execute(select(GameRow.id, GameRow.version))}
            extra = WRITES_PER_PROCESS // 2
            assert versions["p0"] == WRITES_PER_PROCESS + extra * (PROCESSES - 1)
            assert versions["p1"] == WRITES_PER_PROCESS + extra
            assert sum(versions.values()) == PROCESSES * (WRITES_PER_PROCESS + extra)
            assert s.scalar(select(func.count()).select_from(MessageRow)) == sum(versions.values())
        assert current(engine) == head()
    finally:
        engine.dispose()


def busy_timeout(conn: Any) -> int:
    return int(conn.connection.driver_connection.execute("PRAGMA busy_timeout").fetchone()[0])


def test_the_event_loops_kept_connection_is_its_own_and_left_as_the_pool_would(tmp_path: Any) -> None:
    """``LoopConnection``: after ``keep()``, the keeping thread gets one connection again and again,
    with no transaction left open and SQLite's busy timeout set back after a write shortened it;
    another thread, or a use inside a use, gets the pool's; a broken one is replaced; ``release()``
    closes it and the thread uses the pool again."""
    engine = open_store(f"sqlite:///{tmp_path}/kept.sqlite")
    loop = store_module.LoopConnection(engine)
    with loop.connect() as a, loop.connect() as b:
        assert a is not b  # not kept before keep()
    loop.keep()
    with loop.connect() as first:
        first.execute(select(func.count()).select_from(GameRow))  # SQLAlchemy's autobegin
        first.connection.driver_connection.execute("PRAGMA busy_timeout = 2")
        first.connection.info[store_module.BUSY_WAIT_SHORTENED] = True
        with loop.connect() as inner:
            assert inner is not first  # in use: the pool's
    with loop.connect() as again:
        assert again is first and not again.in_transaction()
        assert busy_timeout(again) == int(store_module.SQLITE_BUSY_TIMEOUT_S * 1000)
        with again.begin():
            again.execute(insert_game("kept-1"))
    seen: list[Any] = []

    def elsewhere() -> None:
        with loop.connect() as conn:
            seen.append((conn, conn.execute(select(GameRow.id)).scalars().all()))

    worker = threading.Thread(target=elsewhere)
    worker.start()
    worker.join()
    assert len(seen) == 1 and seen[0][0] is not first
    assert seen[0][1] == ["kept-1"]  # committed: another connection reads it
    first.invalidate()
    with loop.connect() as replaced:
        assert replaced is not first and replaced.execute(text("SELECT 1")).scalar() == 1
    with loop.connect() as broken:
        assert broken is replaced
        broken.connection.driver_connection.close()  # type: ignore[union-attr]  # it fails in use
    with loop.connect() as replaced:
        assert replaced is not broken and broken.closed
        assert replaced.execute(text("SELECT 1")).scalar() == 1
    loop.release()
    assert replaced.closed
    with loop.connect() as pooled:
        assert pooled is not replaced
    engine.dispose()


def test_the_event_loops_writes_that_give_way_have_a_kept_connection_of_their_own(tmp_path: Any) -> None:
    """``LoopConnection.connect(busy_wait_ms)``: on the keeping thread, a second kept connection,
    its busy timeout that short for as long as it is kept, not set and set back at each use; the
    reads' kept connection keeps the pool's. Elsewhere (another thread, a use inside a use) a pool
    connection, its timeout short while in use and set back when it returns. ``release()`` gives
    the kept writer back to the pool with the pool's timeout."""
    engine = open_store(f"sqlite:///{tmp_path}/writer.sqlite")
    pool_ms = int(store_module.SQLITE_BUSY_TIMEOUT_S * 1000)
    loop = store_module.LoopConnection(engine)
    loop.keep()
    with loop.connect() as reader:
        pass
    with loop.connect(2) as writer:
        assert writer is not reader and busy_timeout(writer) == 2
        with writer.begin():
            writer.execute(insert_game("written-1"))
        with loop.connect(2) as inner:
            assert inner is not writer and busy_timeout(inner) == 2  # in use: the pool's, shortened
    with loop.connect(2) as again, loop.connect() as read_again:
        assert again is writer and busy_timeout(again) == 2
        assert read_again is reader and busy_timeout(read_again) == pool_ms
        assert read_again.execute(select(GameRow.id)).scalars().all() == ["written-1"]
    timeouts: list[int] = []

    def elsewhere() -> None:
        with loop.connect(2) as conn:
            timeouts.append(busy_timeout(conn))
        with engine.connect() as conn:  # what went back to the pool has the pool's timeout
            timeouts.append(busy_timeout(conn))

    worker = threading.Thread(target=elsewhere)
    worker.start()
    worker.join()
    assert timeouts == [2, pool_ms]
    loop.release()
    assert writer.closed and reader.closed
    idle = engine.pool.checkedin()  # type: ignore[attr-defined]
    assert idle >= 2
    with contextlib.ExitStack() as stack:  # every idle connection of the pool, the writer's included
        held = [stack.enter_context(engine.connect()) for _ in range(idle)]
        assert [busy_timeout(conn) for conn in held] == [pool_ms] * idle
    engine.dispose()


def insert_game(gid: str) -> Any:
    row = game(gid)
    columns = GameRow.__table__.columns
    return GameRow.__table__.insert().values(
        **{c.key: getattr(row, c.key) for c in columns if getattr(row, c.key) is not None}
    )
