"""What every part of the game service shares: its one object's state (the database, the clock,
the locks, the caches), its transactions and batches of writes, and the reads every request makes
(the game's head, its seat, its phase as the rules describe it).

The service knows seats, phases, deadlines, orders and press; the rules are the family's. A phase
is processed exactly once: the update that moves a game on checks the version it read (and on
PostgreSQL the row is locked while it is read), so a second processor, or a request racing the
deadline, finds the game already moved on and does nothing.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property, partial
from typing import Any, Protocol, TypeVar

from pydantic_core import to_json
from sqlalchemy import Connection, Engine, select, text
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, defer
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from ...bots.seats import seat_actions
from ...games import family as get_family
from ..cache import Lru, without_rules
from ..clock import utcnow
from ..errors import Conflict, Forbidden, MovedOn, NotFound, StaleWrite, Unauthorized, Unavailable, WouldWait
from ..models import GameRow, SeatRow
from ..notices import Change, Notices, unix_time
from ..security import hash_token, token_matches
from ..store import LoopConnection
from .statements import (
    HEAD_AND_SEAT,
    HEAD_AND_SEAT_FOR_UPDATE,
    HEAD_OF_GAME,
    HEAD_WIDTH,
    STATE_OF_PHASE,
    Head,
    SeatFacts,
)

log = logging.getLogger(__package__)
"""The service's one logger, ``interboard.service.games`` (``docs/server.md``), whichever part logs."""

SEAT_WRITE_ATTEMPTS = 8
"""A seat's small write that raced another write to its game is run again up to this many times."""
READ_ATTEMPTS = 3
"""A read that found the game moved on between its statements is made again up to this many times."""

PHASES_KEPT = 256
"""Phases whose state and rules' view a process keeps (a Diplomacy phase: some 30 KB)."""
VERSIONS_KEPT = 1024
"""Versions of games whose public view, messages and legal-action trees a process keeps."""
VERDICTS_KEPT = 64
"""Seats' orders whose verdicts a process keeps, for a write tried again moments later (a few:
an entry holds the orders themselves, up to :data:`.requests.MAX_ORDERS` of them)."""

T = TypeVar("T")
Reader = Session | Connection
"""What reads run on: a plain connection (the views) or a write's session."""


@dataclass(frozen=True)
class PhaseFacts:
    """A phase's state and what the rules say of it. Shared by requests: never changed."""

    state: dict[str, Any]
    position: dict[str, Any]
    pending: dict[str, Any]
    acting: tuple[str, ...]


@dataclass(frozen=True)
class Snapshot:
    """A game at one version: its public view and the phase's orders by seat. Never changed."""

    public: dict[str, Any]
    orders: dict[str, list[str]]
    last_message: int
    """The id of the game's latest message (0: none): what each seat may read is kept under it."""

    @cached_property
    def public_json(self) -> bytes:
        """The public view as JSON, encoded once: every seat's view at this version begins with it."""
        return to_json(self.public)


class _Savepoint:
    """A write inside the event loop's batch (:meth:`GameService.write_batch`): a savepoint of the
    batch's transaction, rolled back alone if the write fails. A class rather than a generator's
    context manager: every write of a batch makes one."""

    __slots__ = ("batch", "raw")

    def __init__(self, batch: Connection) -> None:
        self.batch = batch
        self.raw: Any = batch.connection.dbapi_connection

    def __enter__(self) -> Connection:
        self.raw.execute("SAVEPOINT one_write")
        return self.batch

    def __exit__(self, failed: type[BaseException] | None, *exc: object) -> None:
        if failed is not None:
            self.raw.execute("ROLLBACK TO one_write")
        self.raw.execute("RELEASE one_write")


class LostRace(Exception):
    """A write found the game's version changed since it read it (rolled back, to run again)."""


class NothingWritten(Exception):
    """A write found nothing to do: its transaction (its savepoint, in a batch) is rolled back."""


AT_ONCE_BUSY_WAIT_MS = 0
"""How long a write on the event loop lets SQLite wait for another process's write to end before it
gives way (:class:`WouldWait`): not at all. SQLite's busy handler sleeps, and the loop with it; a
batch of writes that gives way is tried again 0.5 to 2 ms later (``batching.py``) while the loop
answers other requests. With one commit a write, 2 ms had the better p99, since a write that gave
way waited a whole turn of the loop; with batches, not waiting answers more requests with less CPU
(``docs/server.md``)."""


@contextmanager
def binding(account_id: int | None) -> Iterator[None]:
    """Seats bound to ``account_id`` are written inside: the account deleted meanwhile (its row gone
    before the seat's foreign key is checked) is a 401, as for its ended session, not a 500."""
    try:
        yield
    except IntegrityError:
        if account_id is None:
            raise
        raise Unauthorized("that session has ended (or never was): sign in again") from None


class GameMail(Protocol):
    """Where e-mail notices of the games are queued, in the transaction of the change they tell of
    (``accounts.AccountNotices``), and the mail thread woken after its commit."""

    @property
    def warn_before(self) -> float | None:
        """Seconds before a deadline its warning goes out (``None``: no warnings)."""
        ...

    def processed(self, conn: Session | Connection, game_id: str, phase_index: int) -> None: ...

    def press(self, conn: Session | Connection, game_id: str, message_id: int) -> None: ...

    def deadline(self, conn: Session | Connection, game_id: str, phase_index: int) -> None: ...

    def wake(self) -> None: ...


class GameCore:
    """The game service's state and what its parts share; :class:`~.GameService` is the whole."""

    def __init__(
        self,
        engine: Engine,
        clock: Callable[[], datetime] = utcnow,
        on_processed: Callable[[str, float | None], None] | None = None,
        notices: Notices | None = None,
        mail: GameMail | None = None,
    ) -> None:
        self.engine = engine
        self.mail = mail
        """Where e-mail notices to the seats' accounts are queued (``None``: no notices)."""
        self.notices = notices or Notices(engine)
        """Where each transaction's changes are announced (the event streams and the scheduler
        wait on them)."""
        self.clock = clock
        self.on_processed = on_processed or (lambda family, lag: None)
        """Told, after the commit, of each phase processed: the game's family and how many seconds
        past its deadline (``None``: not past one, every seat was ready). The metrics listen."""
        self.locking = engine.dialect.name == "postgresql"
        self.local_file = engine.dialect.name == "sqlite"
        """Whether the database is a file the process opens itself (SQLite): a read of a row by its
        key takes microseconds, less than handing the request to a worker thread costs (not so over
        a network), and one writer at a time writes."""
        self.connections = LoopConnection(engine)
        """Where the requests' plain connections come from: on SQLite, one kept for the event loop
        once it calls ``keep()`` (``api.py``'s lifespan), else the pool's."""
        self._write_lock: contextlib.AbstractContextManager[Any] = (
            contextlib.nullcontext() if self.locking else threading.RLock()
        )
        self._batch: Connection | None = None
        """The event loop's batch of writes, while it is open (:meth:`write_batch`), and its thread."""
        self._batch_thread: int | None = None
        self._batch_after: list[Callable[[], None]] = []
        self._phases: Lru[PhaseFacts] = Lru(PHASES_KEPT, rules=True)
        self._versions: Lru[Snapshot] = Lru(VERSIONS_KEPT)
        self._letters: Lru[list[dict[str, Any]]] = Lru(VERSIONS_KEPT)
        self._trees: Lru[dict[str, Any]] = Lru(VERSIONS_KEPT, rules=True)
        self._verdicts: Lru[list[str | None]] = Lru(VERDICTS_KEPT)
        """What requests read again and again (``cache.py``): never stale, by their keys."""
        self._waiting: dict[str, int] = {}
        """Games without a deadline found not processable, with the version then: a sweep passes
        them by until they change (so idle games cost a sweep one row each)."""

    @contextmanager
    def _tx(self, write: bool = False) -> Iterator[Session]:
        """A transaction; the games it changed (:meth:`_changed`) are announced with it. On SQLite a
        ``write`` one holds the process's write lock: SQLite has one writer at a time anyway, and
        waiting on a lock is quicker than its busy handler's sleeps and the retries of a lost race."""
        with self._write_lock if write else contextlib.nullcontext(), self._transaction() as session:
            yield session

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        try:
            with Session(self.engine, expire_on_commit=False) as session:
                with session.begin():
                    yield session
                    changes = _changes(session)
                    if changes:
                        self.notices.in_transaction(session, changes)
                if changes:
                    self.notices.committed(changes)
        except StaleDataError:
            raise StaleWrite(
                "the game changed meanwhile (a phase may have been processed): reload and retry"
            ) from None

    @contextmanager
    def _writer(self, at_once: bool = False) -> Iterator[None]:
        """The process's writer lock (SQLite; none on PostgreSQL, whose rows are locked);
        ``at_once``: :class:`WouldWait` if another thread holds it."""
        if not at_once:
            with self._write_lock:
                yield
            return
        lock = self._write_lock
        if isinstance(lock, contextlib.nullcontext):
            yield
            return
        if not lock.acquire(blocking=False):  # type: ignore[attr-defined]
            raise WouldWait()
        try:
            yield
        finally:
            lock.release()  # type: ignore[attr-defined]

    def _write_tx(self, at_once: bool = False) -> AbstractContextManager[Connection]:
        """A write transaction on a plain connection, holding the process's writer lock (SQLite).
        ``at_once``: :class:`WouldWait` rather than wait, for the writer lock or the file's. Inside
        the event loop's batch (:meth:`write_batch`): a savepoint of its transaction."""
        batch = self._batch_of_this_thread()
        if at_once and batch is not None:
            return _Savepoint(batch)
        return self._own_write_tx(at_once)

    @contextmanager
    def _own_write_tx(self, at_once: bool) -> Iterator[Connection]:
        try:
            busy_wait_ms = AT_ONCE_BUSY_WAIT_MS if at_once else None
            with self._writer(at_once), self.connections.connect(busy_wait_ms) as conn, conn.begin():
                yield conn
        except OperationalError as exc:
            if at_once and "locked" in str(exc.orig):  # another process is writing
                raise WouldWait() from None
            raise

    @contextmanager
    def write_batch(self) -> Iterator[None]:
        """One transaction, and one commit, for the event loop's writes made inside it (the
        ``*_at_once`` methods and :meth:`claim` with ``at_once``), each in a savepoint of its own:
        SQLite waits for the disk once a commit, on the loop. What follows each write's commit
        (announcing the change) is done once the batch has committed. :class:`WouldWait` if a lock
        is held; an error of the commit is raised here (then none of the writes was kept)."""
        with self._writer(at_once=True), self.connections.connect(AT_ONCE_BUSY_WAIT_MS) as conn:
            raw = conn.connection.dbapi_connection
            try:
                raw.execute("BEGIN IMMEDIATE")  # type: ignore[union-attr]
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc):
                    raise WouldWait() from None
                raise
            self._batch, self._batch_thread, self._batch_after = conn, threading.get_ident(), []
            try:
                yield
                raw.commit()  # type: ignore[union-attr]
            except BaseException:
                raw.rollback()  # type: ignore[union-attr]
                raise
            finally:
                self._batch = self._batch_thread = None
                after, self._batch_after = self._batch_after, []
        for then in after:
            then()

    def _batch_of_this_thread(self) -> Connection | None:
        """The open batch's connection, if this thread opened it (:meth:`write_batch`)."""
        return self._batch if self._batch_thread == threading.get_ident() else None

    def _after_commit(self, then: Callable[[], None]) -> None:
        """``then()`` once the write just made is committed: now, or after the batch it is in (in
        the write's context: a line it logs carries its request's fields)."""
        if self._batch_of_this_thread() is not None:
            self._batch_after.append(partial(contextvars.copy_context().run, then))
        else:
            then()

    def _seat_write(self, game_id: str, write: Callable[[Session, GameRow], T]) -> T:
        """Run a seat's small write (ready, draw vote, press) in a transaction on the locked game.

        Two seats writing at the same moment both bump the game's version; without a row lock
        (SQLite) the later one finds the version changed. Its transaction kept nothing, so it is run
        again, unless the phase moved on meanwhile: then the request no longer means what its sender
        meant, and it is refused."""
        phase_seen: int | None = None
        for attempt in range(SEAT_WRITE_ATTEMPTS):
            try:
                with self._tx(write=True) as s:
                    game = self._game(s, game_id, lock=True)
                    if phase_seen is not None and game.phase_index != phase_seen:
                        raise Conflict(f"the phase was processed meanwhile; it is now {game.phase}")
                    phase_seen = game.phase_index
                    return write(s, game)
            except StaleWrite:
                if attempt == SEAT_WRITE_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _changed(self, s: Session, game: GameRow, due: bool = False) -> None:
        """The game changed: bump its version (the ORM's update checks the one read) and announce it
        when the transaction commits; ``due``: its phase may be processable now."""
        game.version += 1
        pending: dict[str, Any] = s.info.setdefault("changed", {})
        _, was_due = pending.get(game.id, (None, False))
        pending[game.id] = (game, due or was_due)

    def _game(self, session: Session, game_id: str, lock: bool = False) -> GameRow:
        """The game's row; its state is the phase's, read once a phase (:meth:`_phase`)."""
        stmt = select(GameRow).where(GameRow.id == game_id).options(defer(GameRow.state))
        if lock and self.locking:
            stmt = stmt.with_for_update()
        row = session.scalars(stmt).first()
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        if "state" not in row.__dict__:  # as if read with the row: not a change to write back
            set_committed_value(row, "state", self._phase(session, row).state)
        return row

    def _seats(self, session: Session, game_id: str) -> list[SeatRow]:
        return list(session.scalars(select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.id)))

    def _seat_by_token(self, session: Session, game_id: str, token: str | None) -> SeatRow:
        if not token:
            raise Unauthorized("this needs a seat's token (Authorization: Bearer <token>)")
        row = session.scalars(
            select(SeatRow).where(SeatRow.game_id == game_id, SeatRow.token_hash == hash_token(token))
        ).first()
        if row is None:
            raise Forbidden("that token holds no seat in this game")
        return row

    def _head_and_seat(
        self, s: Reader, game_id: str, token: str | None, lock: bool = False
    ) -> tuple[Head, SeatFacts]:
        """The game's head and the token's seat, read together (every seat's request needs both);
        ``lock``: the game's row is locked (PostgreSQL) until the transaction ends."""
        if not token:
            # A game that does not exist is said first (404), then the missing token (401).
            if HEAD_OF_GAME.first(s, {"game_id": game_id}) is None:
                raise NotFound(f"no game {game_id!r}")
            raise Unauthorized("this needs a seat's token (Authorization: Bearer <token>)")
        statement = HEAD_AND_SEAT_FOR_UPDATE if lock and self.locking else HEAD_AND_SEAT
        row = statement.first(s, {"game_id": game_id, "token_hash": hash_token(token)})
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        if row[HEAD_WIDTH] is None:
            raise Forbidden("that token holds no seat in this game")
        return Head(*row[:HEAD_WIDTH]), SeatFacts(*row[HEAD_WIDTH:])

    def _require_gm(self, game: GameRow, token: str | None) -> None:
        if not token:
            raise Unauthorized("this needs the game master's token (Authorization: Bearer <token>)")
        if not token_matches(token, game.gm_token_hash):
            raise Forbidden("only the game master may do this")

    def ping(self) -> None:
        """Ask the database a trivial question; :class:`Unavailable` if it does not answer."""
        try:
            with self.engine.connect() as conn:
                conn.execute(text("SELECT 1"))
        except (SQLAlchemyError, OSError) as exc:
            log.warning("the database does not answer: %s", type(exc).__name__)
            raise Unavailable("the database does not answer") from None

    def _read(self, read: Callable[[Reader], T]) -> T:
        """A request that reads the game in several statements, on a plain connection (reads need no
        ORM session: it costs more than the statements). Read again from the head if the game moved
        on between them (outside a transaction's snapshot, each statement sees the latest)."""
        for _ in range(READ_ATTEMPTS - 1):
            try:
                with self.connections.connect() as conn:
                    return read(conn)
            except MovedOn:
                continue
        with self.connections.connect() as conn:
            return read(conn)

    def without_rules(self, read: Callable[..., T], *args: Any) -> T:
        """``read(*args)`` (:meth:`seat_view`, :meth:`options`, :meth:`public_view`) if it needs
        no work of the game's rules (what they say of the phase is kept) but reads of the database;
        :class:`NotKept` if it does (then run its ``make`` and read again, or, without one, call
        ``read`` itself, where the rules' work is placed: ``placement.py``). For the event loop,
        where the database is a local file (:attr:`local_file`)."""
        with without_rules():
            return read(*args)

    def _head(self, s: Reader, game_id: str) -> Head:
        """The game's row but its state (which :meth:`_phase` reads once a phase)."""
        head: Head | None = HEAD_OF_GAME.first(s, {"game_id": game_id})
        if head is None:
            raise NotFound(f"no game {game_id!r}")
        return head

    def _phase(self, s: Reader, head: Head | GameRow) -> PhaseFacts:
        """The state of the game's phase and what its rules say of it, read once a phase."""

        def read() -> PhaseFacts:
            state = STATE_OF_PHASE.scalar(s, {"game_id": head.id, "phase_index": head.phase_index})
            if state is None:  # processed since the head was read
                raise MovedOn()
            family = get_family(head.family)
            pending = family.pending(state)
            described = {
                "phase": pending.phase,
                "kind": pending.kind,
                "round": pending.round,
                "turn": pending.turn,
                "prompts": dict(pending.prompts),
            }
            return PhaseFacts(state, family.view(state), described, tuple(pending.seats))

        return self._phases.get((head.id, head.phase_index), read)

    def _unwarned(self, index: int, deadline: datetime | None) -> int | None:
        """What a phase starting now with ``deadline`` has for ``warned_phase``: its own index (no
        warning) when it is no longer than the warning's lead, which would come with the phase's
        start, just after the notice that the last one was processed."""
        lead = self.mail.warn_before if self.mail is not None else None
        if lead is None or deadline is None:
            return None
        return index if (deadline - self.clock()).total_seconds() <= lead else None

    @staticmethod
    def _bot_orders(game_id: str, family_name: str, state: dict[str, Any], seat: str, bot: str) -> list[str]:
        """The orders the named ``bot`` gives for ``seat``, through the checks a player's pass."""
        try:
            orders = seat_actions(family_name, state, seat, bot, f"{game_id}/{seat}")
        except Exception:  # a bot's fault must never stop the phase: its seat gives no orders
            log.exception("game %s: bot %s for %s failed", game_id, bot, seat)
            return []
        checks = get_family(family_name).check(state, seat, orders)
        refused = [o for o, err in zip(orders, checks, strict=True) if err]
        if refused:  # never expected: a bot orders from the legal lists; the units then hold
            log.error("game %s: bot %s for %s gave refused orders %s", game_id, bot, seat, refused)
            orders = [o for o in orders if o not in refused]
        return orders


def _changes(session: Session) -> list[Change]:
    """The changes a transaction made, as announced (:meth:`GameService._changed`)."""
    return [
        Change(game.id, game.version, game.phase, game.status, unix_time(game.deadline), due)
        for game, due in session.info.pop("changed", {}).values()
    ]
