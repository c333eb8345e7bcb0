"""Game lifecycle and every change a request can make, each in one transaction.

The service knows seats, phases, deadlines, orders and press; the rules are the family's. A phase
is processed exactly once: the update that moves a game on checks the version it read (and on
PostgreSQL the row is locked while it is read), so a second processor, or a request racing the
deadline, finds the game already moved on and does nothing.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import secrets
import sqlite3
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta
from functools import cached_property, partial
from typing import Any, NamedTuple, Protocol, TypeVar

from pydantic_core import to_json
from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    and_,
    bindparam,
    cast,
    exists,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, defer
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from ..bots.seats import bot_names, default_bot, seat_actions
from ..games import family as get_family
from ..games import find_variant, variants
from ..games import scenario as scenarios
from ..games.protocol import FamilyError
from .cache import Lru, NotKept, without_rules
from .clock import utcnow
from .errors import (
    Conflict,
    Forbidden,
    Invalid,
    MovedOn,
    NotFound,
    StaleWrite,
    Unauthorized,
    Unavailable,
    WouldWait,
)
from .models import GameRow, MessageRow, OrdersRow, PhaseRow, SeatRow
from .notices import Change, Notices, unix_time
from .prepared import Prepared
from .security import hash_token, new_token, token_matches
from .store import LoopConnection

log = logging.getLogger(__name__)

PRESS_RULES = ("none", "broadcast", "full")
"""none: no press; broadcast: messages to everyone only; full: to any chosen seats or everyone."""
MISSED_ORDERS = ("default", "wait")
"""default: at the deadline, seats without orders get the rules' defaults (units hold, dislodged
units disband, builds are waived, removals by civil disorder); wait: the first time a deadline
passes with a player's orders missing, the deadline is extended once by the phase's time."""
MAX_ORDERS = 200
MAX_DEADLINE = 30 * 86400
"""The longest deadline, and the most a game master may extend one by: 30 days, in seconds."""
MAX_NAME = 100
"""The longest player name (the database column's size): refused beyond, never cut."""
BLANK = " \t\n\r"
"""What a blank name or message is made of: JSON's whitespace, as the schema's patterns say it
(regular expression engines disagree on what ``\\s`` is)."""
MAX_MESSAGE = 4000
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
an entry holds the orders themselves, up to :data:`MAX_ORDERS` of them)."""

T = TypeVar("T")
Reader = Session | Connection
"""What reads run on: a plain connection (the views) or a write's session."""


@dataclass(frozen=True)
class Head:
    """A game's row but its state."""

    id: str
    title: str
    family: str
    variant: str
    status: str
    phase: str
    phase_index: int
    version: int
    deadline: datetime | None
    settings: dict[str, Any]
    result: dict[str, Any] | None


class SeatLine(NamedTuple):
    """A seat as processing and the public view read it."""

    seat: str
    kind: str
    player: str
    ready: bool


_HEAD = select(*(getattr(GameRow, f.name) for f in fields(Head))).where(GameRow.id == bindparam("game_id"))
HEAD_OF_GAME = Prepared(_HEAD, Head, shared=True)
_SEAT_LINE = (SeatRow.seat, SeatRow.kind, SeatRow.player, SeatRow.ready)
SEATS_OF_GAME = Prepared(
    select(*_SEAT_LINE).where(SeatRow.game_id == bindparam("game_id")).order_by(SeatRow.id), SeatLine
)
_HEAD_AND_SEAT = (
    select(*_HEAD.selected_columns, SeatRow.seat, SeatRow.player, SeatRow.ready, SeatRow.draw_vote)
    .select_from(GameRow)
    .outerjoin(SeatRow, and_(SeatRow.game_id == GameRow.id, SeatRow.token_hash == bindparam("token_hash")))
    .where(GameRow.id == bindparam("game_id"))
)
HEAD_AND_SEAT = Prepared(_HEAD_AND_SEAT, shared=True)
"""The game's head and the token's seat (NULLs: the token holds none) in one statement."""
HEAD_AND_SEAT_FOR_UPDATE = Prepared(_HEAD_AND_SEAT.with_for_update(of=GameRow), shared=True)
HEAD_WIDTH = len(fields(Head))
STATE_OF_PHASE = Prepared(
    select(GameRow.state).where(
        GameRow.id == bindparam("game_id"), GameRow.phase_index == bindparam("phase_index")
    )
)
ORDERS_OF_PHASE = Prepared(
    select(OrdersRow.seat, OrdersRow.orders).where(
        OrdersRow.game_id == bindparam("game_id"), OrdersRow.phase_index == bindparam("phase_index")
    )
)
_LAST_MESSAGE = select(func.max(MessageRow.id)).where(MessageRow.game_id == bindparam("game_id"))


class SeatAtVersion(NamedTuple):
    """A seat as a version's snapshot reads it: its line, its orders for the phase (``None``: it
    has given none), and the game's last message id (the same on every seat's row)."""

    seat: str
    kind: str
    player: str
    ready: bool
    orders: list[Any] | None
    last_message: int | None


SEATS_AT_VERSION = Prepared(
    select(*_SEAT_LINE, OrdersRow.orders, _LAST_MESSAGE.scalar_subquery())
    .select_from(SeatRow)
    .outerjoin(
        OrdersRow,
        and_(
            OrdersRow.game_id == SeatRow.game_id,
            OrdersRow.phase_index == bindparam("phase_index"),
            OrdersRow.seat == SeatRow.seat,
        ),
    )
    .where(SeatRow.game_id == bindparam("game_id"))
    .order_by(SeatRow.id),
    SeatAtVersion,
)
"""What a snapshot reads, in one statement rather than three (the seats, the phase's orders, the
last message): a seat's view reads it at nearly every version."""


def _game_update(**values: Any) -> Prepared:
    """An update of the game's row where its version is still the one read (``seen``), which
    bumps it (``bumped``): what makes a lost race write nothing."""
    return Prepared(
        update(GameRow)
        .where(GameRow.id == bindparam("game_id"), GameRow.version == bindparam("seen"))
        .values(version=bindparam("bumped"), **values)
    )


BUMP_VERSION = _game_update()
SET_READY = Prepared(
    update(SeatRow)
    .where(SeatRow.game_id == bindparam("in_game"), SeatRow.seat == bindparam("seat_name"))
    .values(ready=bindparam("is_ready"))
)
REPLACE_ORDERS = Prepared(
    update(OrdersRow)
    .where(
        OrdersRow.game_id == bindparam("in_game"),
        OrdersRow.phase_index == bindparam("index"),
        OrdersRow.seat == bindparam("seat_name"),
    )
    .values(orders=bindparam("given", type_=OrdersRow.orders.type), submitted_at=bindparam("at"))
)
ADD_ORDERS = Prepared(
    insert(OrdersRow)
    .values(
        game_id=bindparam("in_game"),
        phase_index=bindparam("index"),
        seat=bindparam("seat_name"),
        orders=bindparam("given", type_=OrdersRow.orders.type),
        submitted_at=bindparam("at"),
    )
    .inline()  # the new row's id is never needed: not fetched
)
"""A seat's first orders of a phase (later ones are :data:`REPLACE_ORDERS`); the same parameters."""
ADVANCE_GAME = _game_update(
    state=bindparam("new_state", type_=GameRow.state.type),
    phase=bindparam("next_phase"),
    phase_index=bindparam("next_index"),
    status=bindparam("new_status"),
    deadline=bindparam("new_deadline", type_=GameRow.deadline.type),
    result=bindparam("new_result", type_=GameRow.result.type),
    warned_phase=bindparam("warned"),
)
EXTEND_ONCE = _game_update(
    settings=bindparam("new_settings", type_=GameRow.settings.type),
    deadline=bindparam("new_deadline", type_=GameRow.deadline.type),
)
ADD_PHASE = insert(PhaseRow)
UNREADY_PLAYERS = Prepared(
    update(SeatRow).where(SeatRow.game_id == bindparam("in_game"), SeatRow.kind != "bot").values(ready=False)
)
"""The statements of the seats' frequent reads and writes and of processing, built once (building
one costs more than running it) and run on the driver's cursor (``prepared.py``). (A statement that
sets a column cannot name a parameter after it.)"""


class SeatFacts(NamedTuple):
    """A seat as the seats' requests read it."""

    seat: str
    player: str
    ready: bool
    draw_vote: bool


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


@dataclass(frozen=True)
class _Plan:
    """A due phase as read for processing (:meth:`GameService._plan`)."""

    head: Head
    phase: PhaseFacts
    acting: set[str]
    seats: dict[str, SeatLine]
    """The game's seats by name."""
    orders: dict[str, list[str]]
    """The acting seats' orders, the late bots' included."""
    late_bots: dict[str, list[str]]
    """Orders of named bots that had none yet for the phase (stored with the claim)."""
    all_ready: bool
    lag: float | None
    """Seconds past the deadline (``None``: not past one)."""


@dataclass(frozen=True)
class Outcome:
    """A phase worked out by its rules (:meth:`GameService.work_out`), not written yet."""

    game_id: str
    family: str
    index: int
    """The index of the phase worked out."""
    lag: float | None
    """Seconds past the deadline (``None``: not past one)."""
    advance: dict[str, Any]
    """The parameters of ``ADVANCE_GAME``: the game's next state, claimed at the version read."""
    played: dict[str, Any]
    """The row of the phase played (``ADD_PHASE``)."""
    bots_orders: list[dict[str, Any]]
    """Orders of named bots to store: late ones for this phase, and the next phase's."""
    change: Change


class LostRace(Exception):
    """A write found the game's version changed since it read it (rolled back, to run again)."""


class _NothingWritten(Exception):
    """A write found nothing to do: its transaction (its savepoint, in a batch) is rolled back."""


AT_ONCE_BUSY_WAIT_MS = 0
"""How long a write on the event loop lets SQLite wait for another process's write to end before it
gives way (:class:`WouldWait`): not at all. SQLite's busy handler sleeps, and the loop with it; a
batch of writes that gives way is tried again 0.5 to 2 ms later (``batching.py``) while the loop
answers other requests. With one commit a write, 2 ms had the better p99, since a write that gave
way waited a whole turn of the loop; with batches, not waiting answers more requests with less CPU
(``docs/server.md``)."""


@contextmanager
def _binding(account_id: int | None) -> Iterator[None]:
    """Seats bound to ``account_id`` are written inside: the account deleted meanwhile (its row gone
    before the seat's foreign key is checked) is a 401, as for its ended session, not a 500."""
    try:
        yield
    except IntegrityError:
        if account_id is None:
            raise
        raise Unauthorized("that session has ended (or never was): sign in again") from None


@dataclass
class NewGame:
    variant: str = "standard"
    family: str | None = None
    """The variant's family; optional (the variant id says it), checked when given."""
    title: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    """Seeds every chance in the game; ``None`` (the default) draws one that no one sees. A chosen
    seed is shown in the game's public view, so players know the dice could be foreseen."""
    press: str = "full"
    deadlines: dict[str, int] = field(default_factory=dict)
    """Seconds per phase kind (the family's kinds: movement, retreats, adjustments for Diplomacy;
    turn for Global War); a kind without one waits for all."""
    seats: dict[str, str] = field(default_factory=dict)
    """Seat -> 'open' (the default), 'bot' (orders nothing: its units hold), 'bot:NAME' (a named bot,
    such as 'bot:heuristic', which orders every phase), or a player's name (the seat is assigned)."""
    autostart: bool = True
    missed_orders: str = "default"
    scenario: dict[str, Any] | None = None
    """A scenario (``interboard-scenario/1``, ``docs/scenarios.md``): the game starts from its position,
    with its options and seed unless the request gives them."""
    on_leave: str = "bot"
    """What a seat becomes when its player leaves a started game: 'bot' (the family's default bot,
    'bot:heuristic' for Diplomacy; an open seat if the family has no bots), 'bot:NAME', or 'open'
    (anyone may join it; until then it gives no orders). A seat left before the start is open."""


def titles(variant: str, family: str | None = None) -> tuple[str, str]:
    """The names players know a game's family and variant by (``Axis & Allies``, ``Axis & Allies
    Europe (1999)``): the family's and the variant's ``title``. A variant no longer registered keeps
    its ids (``family`` given: that one for its family)."""
    try:
        fam, info = find_variant(variant)
    except FamilyError:
        return family or variant, variant
    return fam.title, info.title


def name_key(name: str) -> str:
    """What tells two player names apart: Unicode's compatibility caseless match (its standard,
    3.13, D146: the name decomposed, case-folded and decomposed again, twice over), the spaces
    around and between its words counted as one. So "Émile" is "ÉMILE" and "E\u0301mile" (a
    combining accent) and "Ｅｍｉｌｅ" (full-width letters), "Straße" is "STRASSE"; "Emile" is
    another name."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", name).casefold())
    return " ".join(unicodedata.normalize("NFKD", folded.casefold()).split())


def _same_name(name: str, seat: str) -> str:
    return (
        f"the name {name!r} is seat {seat}'s in this game already (names that differ only in case, "
        "in how their letters are encoded or in spaces are one name)"
    )


def has_nul(value: object) -> bool:
    """Whether JSON-like ``value`` holds a NUL character anywhere (PostgreSQL cannot store one)."""
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(has_nul(v) for v in value)
    return False


@dataclass
class Created:
    game_id: str
    gm_token: str
    seat_tokens: dict[str, str]
    open_seats: list[str] = field(default_factory=list)
    """The seats left open, for anyone to join."""


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


class GameService:
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

    def _processable(self, s: Session, game: GameRow) -> bool:
        """Whether the game's phase may be processed now with no one's request: active, and every
        acting seat ready or a bot."""
        if game.status != "active":
            return False
        acting = set(get_family(game.family).pending(game.state).seats)
        seats = [r for r in self._seats(s, game.id) if r.seat in acting]
        return bool(seats) and all(r.ready or r.kind == "bot" for r in seats)

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

    # ------------------------------------------------------------------ lifecycle
    def variants(self, family: str | None = None) -> list[dict[str, Any]]:
        """Every variant (or a family's), with its family and the family's name for players
        (``family_title``), options, the bots its seats may be given (``bot:NAME``), the bot that
        takes a leaving player's seat (``default_bot``: the family's own, or null) and the phase
        kinds its deadlines are set for."""
        try:
            infos = variants(family)
        except FamilyError as exc:
            raise Invalid(str(exc)) from None
        out = []
        for info in infos:
            fam = get_family(info.family)
            out.append(
                info.to_json()
                | {
                    "family_title": fam.title,
                    "bots": bot_names(fam.name),
                    "default_bot": default_bot(fam.name),
                    "phase_kinds": list(fam.phase_kinds),
                }
            )
        return out

    def create(self, req: NewGame, account_id: int | None = None) -> Created:
        """A new game; the seats given to players are bound to ``account_id`` (its creator's), if any."""
        try:
            family, info = find_variant(req.variant)
        except FamilyError as exc:
            raise Invalid(str(exc)) from None
        if req.family is not None and req.family != family.name:
            raise Invalid(f"{info.id} is a {family.name} variant, not {req.family}")
        if req.press not in PRESS_RULES:
            raise Invalid(f"press must be one of {', '.join(PRESS_RULES)}")
        if req.missed_orders not in MISSED_ORDERS:
            raise Invalid(f"missed_orders must be one of {', '.join(MISSED_ORDERS)}")
        kinds = ", ".join(family.phase_kinds)
        for kind, seconds in req.deadlines.items():
            if kind not in family.phase_kinds or not 1 <= seconds <= MAX_DEADLINE:
                raise Invalid(f"deadline {kind!r}: a phase kind of {info.id} ({kinds}) and 1 s to 30 days")
        if req.seed is not None and not 0 <= req.seed < 2**63:
            raise Invalid("seed: a whole number from 0 to 2**63 - 1")
        chosen: scenarios.Scenario | None = None
        try:
            if req.scenario is not None:
                if has_nul(req.scenario):
                    raise Invalid("scenario: text may not contain NUL characters")
                chosen = scenarios.read(req.scenario, "scenario")
                if chosen.variant != info.id:
                    raise Invalid(f"scenario: it is of {chosen.variant}, not {info.id}")
                if req.options and req.scenario.get("options"):
                    raise Invalid("options: give them in the scenario or in the request, not in both")
            given_seed = req.seed if req.seed is not None else chosen.seed if chosen else None
            seed = given_seed if given_seed is not None else secrets.randbelow(2**63)
            options = info.check_options(req.options or (chosen.options if chosen else {}))
            if chosen is None:
                state = family.new_state(info.id, options, seed)
            else:
                state = scenarios.start_state(chosen, seed, options)
        except FamilyError as exc:
            where = "scenario: " if chosen is not None and not str(exc).startswith("scenario") else ""
            raise Invalid(f"{where}{exc}") from None
        seats = family.seats(state)
        unknown = set(req.seats) - set(seats)
        if unknown:
            raise Invalid(f"unknown seats {sorted(unknown)}; this variant has {', '.join(seats)}")
        named: dict[str, str] = {}
        """The players' names given so far (:func:`name_key`), each with its seat."""
        for seat, how in req.seats.items():
            if how.startswith("bot:"):
                self._bot_name(family.name, how, f"seat {seat}")
            elif how not in ("open", "bot"):
                self._check_name(how, f"seat {seat}")
                other = named.setdefault(name_key(how), seat)
                if other != seat:
                    raise Invalid(f"seat {seat}: {_same_name(how, other)}")
        on_leave = self._on_leave(family.name, req.on_leave)
        game_id = secrets.token_hex(8)
        gm_token = new_token()
        now = self.clock()
        seat_tokens: dict[str, str] = {}
        phase = family.pending(state).phase
        with _binding(account_id), self._tx(write=True) as s:
            s.add(
                GameRow(
                    id=game_id,
                    family=family.name,
                    variant=info.id,
                    title=req.title[:200] or default_title(info.title),
                    settings={
                        "options": options,
                        "seed_chosen": given_seed is not None,
                        **({"scenario": chosen.position} if chosen else {}),
                        "press": req.press,
                        "deadlines": req.deadlines,
                        "autostart": req.autostart,
                        "missed_orders": req.missed_orders,
                        "on_leave": on_leave,
                    },
                    status="forming",
                    state=state,
                    phase=phase,
                    phase_index=0,
                    version=0,
                    gm_token_hash=hash_token(gm_token),
                    created_at=now,
                )
            )
            for seat in seats:
                how = req.seats.get(seat, "open")
                if how in ("open", "bot"):
                    s.add(SeatRow(game_id=game_id, seat=seat, kind=how, ready=how == "bot"))
                elif how.startswith("bot:"):
                    s.add(SeatRow(game_id=game_id, seat=seat, kind="bot", player=how[4:], ready=True))
                else:
                    token = new_token()
                    seat_tokens[seat] = token
                    s.add(
                        SeatRow(
                            game_id=game_id,
                            seat=seat,
                            kind="player",
                            player=how,
                            token_hash=hash_token(token),
                            account_id=account_id,
                        )
                    )
            s.flush()
            self._maybe_autostart(s, self._game(s, game_id))
        open_seats = [seat for seat in seats if req.seats.get(seat, "open") == "open"]
        return Created(game_id, gm_token, seat_tokens, open_seats)

    @staticmethod
    def _check_name(name: str, where: str) -> None:
        if not name.strip(BLANK) or len(name) > MAX_NAME:
            raise Invalid(f"{where}: a player's name has 1 to {MAX_NAME} characters")

    def join(self, game_id: str, seat: str, player: str, account_id: int | None = None) -> str:
        """Take an open seat: its token. ``account_id``: the account the seat is bound to, if any."""
        if player:
            self._check_name(player, "player")
        with _binding(account_id), self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            if game.status == "finished":
                raise Conflict("the game is over")
            seats = self._seats(s, game_id)
            row = next((r for r in seats if r.seat == seat), None)
            if row is None:
                raise NotFound(f"no seat {seat!r} in this game")
            if row.kind != "open":
                raise Conflict(f"seat {seat} is taken")
            key = name_key(player or seat)
            for other in seats:
                if other.kind == "player" and name_key(other.player) == key:
                    raise Conflict(_same_name(player or seat, other.seat))
            token = new_token()
            row.kind, row.player, row.token_hash = "player", player or seat, hash_token(token)
            row.account_id = account_id
            self._changed(s, game)
            s.flush()
            self._maybe_autostart(s, game)
            return token

    def _maybe_autostart(self, s: Session, game: GameRow) -> None:
        full = all(r.kind != "open" for r in self._seats(s, game.id))
        if game.status == "forming" and game.settings.get("autostart", True) and full:
            self._start(s, game)

    # ------------------------------------------------------------------ bots in seats
    def _bot_name(self, family: str, how: str, where: str) -> str:
        """The bot named by 'bot:NAME' ('bot' alone: the family's default bot), checked."""
        name = how[4:] if how.startswith("bot:") else default_bot(family) or ""
        known = bot_names(family)
        if name not in known:
            offered = ", ".join(f"bot:{b}" for b in known) or "none"
            raise Invalid(f"{where}: no bot {how!r} in the {family} family (bots: {offered})")
        return name

    def _on_leave(self, family: str, how: str) -> str:
        if how == "open" or (how == "bot" and default_bot(family) is None):
            return "open"
        if how == "bot" or how.startswith("bot:"):
            return f"bot:{self._bot_name(family, how, 'on_leave')}"
        raise Invalid("on_leave must be 'open', 'bot' or 'bot:NAME'")

    def _bots_order(
        self, s: Session, game_id: str, family_name: str, state: dict[str, Any], index: int
    ) -> None:
        """Named bots in the acting seats order now, through the checks a player's orders pass;
        a seat that already has orders for the phase keeps them."""
        family = get_family(family_name)
        acting = set(family.pending(state).seats)
        bots = [r for r in self._seats(s, game_id) if r.kind == "bot" and r.player and r.seat in acting]
        if not bots:
            return
        have = set(
            s.scalars(
                select(OrdersRow.seat).where(OrdersRow.game_id == game_id, OrdersRow.phase_index == index)
            )
        )
        for row in bots:
            if row.seat in have:
                continue
            orders = self._bot_orders(game_id, family_name, state, row.seat, row.player)
            s.add(
                OrdersRow(
                    game_id=game_id,
                    phase_index=index,
                    seat=row.seat,
                    orders=orders,
                    submitted_at=self.clock(),
                )
            )
        s.flush()

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

    def leave(self, game_id: str, token: str | None) -> str:
        """The seat's player leaves: the seat passes to a bot or opens (the game's ``on_leave``;
        always open before the start). The token no longer holds the seat. Returns the seat's new
        kind ('open' or 'bot:NAME')."""
        with self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            seat = self._seat_by_token(s, game_id, token)
            if game.status == "finished":
                raise Conflict("the game is over")
            return self._leave(s, game, seat)

    def _leave(self, s: Session, game: GameRow, seat: SeatRow) -> str:
        now = "open" if game.status == "forming" else game.settings.get("on_leave", "open")
        seat.token_hash, seat.draw_vote, seat.account_id = None, False, None
        if now == "open":
            seat.kind, seat.player, seat.ready = "open", "", False
        else:
            seat.kind, seat.player, seat.ready = "bot", now[4:], True
        s.flush()
        if now != "open" and game.status == "active":
            self._bots_order(s, game.id, game.family, game.state, game.phase_index)
        self._changed(s, game, due=self._processable(s, game))
        return str(now)

    def vacate(self, game_id: str, seat: str, token_hash: str) -> str | None:
        """The seat's player is gone for good (their account was deleted): the seat is left as
        :meth:`leave` leaves it, found by the hash of its token rather than the token. ``None``: the
        seat is no longer that player's (left, or got a fresh token, meanwhile), or the game is over
        or gone; nothing is changed then."""
        for attempt in range(SEAT_WRITE_ATTEMPTS):
            try:
                with self._tx(write=True) as s:
                    try:
                        game = self._game(s, game_id, lock=True)
                    except NotFound:
                        return None
                    row = s.scalars(
                        select(SeatRow).where(
                            SeatRow.game_id == game_id,
                            SeatRow.seat == seat,
                            SeatRow.token_hash == token_hash,
                            SeatRow.kind == "player",
                        )
                    ).first()
                    if row is None or game.status == "finished":
                        return None
                    return self._leave(s, game, row)
            except StaleWrite:  # the game changed meanwhile: look again
                if attempt == SEAT_WRITE_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _start(self, s: Session, game: GameRow) -> None:
        game.status = "active"
        game.deadline = self._deadline_for(game)
        game.warned_phase = self._unwarned(game.phase_index, game.deadline)
        s.flush()
        self._bots_order(s, game.id, game.family, game.state, game.phase_index)
        self._changed(s, game, due=self._processable(s, game))

    def _unwarned(self, index: int, deadline: datetime | None) -> int | None:
        """What a phase starting now with ``deadline`` has for ``warned_phase``: its own index (no
        warning) when it is no longer than the warning's lead, which would come with the phase's
        start, just after the notice that the last one was processed."""
        lead = self.mail.warn_before if self.mail is not None else None
        if lead is None or deadline is None:
            return None
        return index if (deadline - self.clock()).total_seconds() <= lead else None

    def _deadline_for(self, game: GameRow) -> datetime | None:
        kind = get_family(game.family).pending(game.state).kind
        seconds = game.settings.get("deadlines", {}).get(kind)
        return self.clock() + timedelta(seconds=seconds) if seconds else None

    def start(self, game_id: str, gm_token: str | None) -> None:
        with self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            self._require_gm(game, gm_token)
            if game.status != "forming":
                raise Conflict(f"the game is {game.status}, not forming")
            self._start(s, game)

    def pause(self, game_id: str, gm_token: str | None) -> None:
        with self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            self._require_gm(game, gm_token)
            if game.status != "active":
                raise Conflict(f"the game is {game.status}, not active")
            deadline = game.deadline
            game.paused_left = (deadline - self.clock()).total_seconds() if deadline else None
            game.status, game.deadline = "paused", None
            self._changed(s, game)

    def resume(self, game_id: str, gm_token: str | None) -> None:
        with self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            self._require_gm(game, gm_token)
            if game.status != "paused":
                raise Conflict(f"the game is {game.status}, not paused")
            left = game.paused_left
            game.deadline = self.clock() + timedelta(seconds=max(left, 0)) if left is not None else None
            game.status, game.paused_left = "active", None
            self._changed(s, game, due=self._processable(s, game))

    def extend(self, game_id: str, gm_token: str | None, seconds: int) -> None:
        if not 1 <= seconds <= MAX_DEADLINE:
            raise Invalid("extend by 1 s to 30 days")
        with self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            self._require_gm(game, gm_token)
            if game.status != "active":
                raise Conflict(f"the game is {game.status}, not active")
            if game.deadline is None:
                # A deadline made here would process the phase when it passed, although no one
                # pressed Ready in a phase the game's settings say waits for everyone.
                raise Conflict("this phase has no deadline to extend: it waits until every seat is ready")
            game.deadline = game.deadline + timedelta(seconds=seconds)
            self._changed(s, game)

    # ------------------------------------------------------------------ seats' actions
    def submit(self, game_id: str, token: str | None, phase: str, orders: list[str]) -> list[dict[str, Any]]:
        """Replace a seat's orders for the current phase. All or nothing: if any order is refused,
        none is stored and :class:`Invalid` lists what is wrong with each."""
        return self._submit(game_id, token, phase, orders)

    def _submit(
        self, game_id: str, token: str | None, phase: str, orders: list[str], at_once: bool = False
    ) -> list[dict[str, Any]]:
        if len(orders) > MAX_ORDERS:
            raise Invalid(f"at most {MAX_ORDERS} orders")
        # Checked before the write, without its lock: the verdicts depend only on the phase, and
        # the write stores them only if the game is still in the phase they were given in.
        checked_in = self._read(lambda conn: self._check_orders(conn, game_id, token, phase, orders))

        def write(conn: Connection, game: Head, seat: Any) -> list[dict[str, Any]]:
            if game.status != "active":
                raise Conflict(f"the game is {game.status}: no orders now")
            if phase != game.phase or game.phase_index != checked_in:
                raise Conflict(f"these orders are for {phase}, but the game is in {game.phase}")
            report = [{"order": o, "ok": True, "error": None} for o in orders]
            now = self.clock()
            given = {
                "in_game": game_id,
                "index": game.phase_index,
                "seat_name": seat.seat,
                "given": orders,
                "at": now,
            }
            if REPLACE_ORDERS.run(conn, given) == 0:
                ADD_ORDERS.run(conn, given)
            return report

        return self._quick_seat_write(game_id, token, write, at_once)

    def _check_orders(
        self, conn: Reader, game_id: str, token: str | None, phase: str, orders: list[str]
    ) -> int:
        """Check a seat's orders for the game's phase (:class:`Invalid` if any is refused, with each
        order's verdict); the index of the phase they were checked in."""
        game, seat = self._head_and_seat(conn, game_id, token)
        if game.status != "active":
            raise Conflict(f"the game is {game.status}: no orders now")
        if phase != game.phase:
            raise Conflict(f"these orders are for {phase}, but the game is in {game.phase}")
        phase_facts = self._phase(conn, game)
        if seat.seat not in phase_facts.acting:
            raise Conflict(f"{seat.seat} has nothing to order in {game.phase}")
        family = get_family(game.family)
        checks = self._verdicts.get(
            (game_id, game.phase_index, seat.seat, tuple(orders)),
            lambda: family.check(phase_facts.state, seat.seat, orders),
        )
        if any(err is not None for err in checks):
            report = [
                {"order": o, "ok": err is None, "error": err} for o, err in zip(orders, checks, strict=True)
            ]
            raise Invalid("some orders were refused; none was stored", report)
        return game.phase_index

    def submit_at_once(
        self, game_id: str, token: str | None, phase: str, orders: list[str]
    ) -> list[dict[str, Any]] | None:
        """:meth:`submit` if it can be done at once (as :meth:`set_ready_at_once`). The rules check
        the orders here: one seat's orders for one phase, bounded by :data:`MAX_ORDERS` (their
        verdicts are kept, for the write tried again)."""
        try:
            with without_rules():
                return self._submit(game_id, token, phase, orders, at_once=True)
        except NotKept:
            return None

    def set_ready(self, game_id: str, token: str | None, phase: str, ready: bool) -> None:
        """Mark the seat ready (or not) for ``phase``, which must be the current one: a ready meant
        for a phase already processed (a retry, a double click) must not count for the next."""
        self._set_ready(game_id, token, phase, ready)

    def ready(self, game_id: str, token: str | None, phase: str, ready: bool) -> bool:
        """:meth:`set_ready`, then process the phase if that made it due (the last seat to get
        ready); returns whether this call processed it. What a Ready request does."""
        return self._set_ready(game_id, token, phase, ready) and self._try_process(game_id, False)

    def _set_ready(
        self, game_id: str, token: str | None, phase: str, ready: bool, at_once: bool = False
    ) -> bool:
        """:meth:`set_ready`; returns whether the phase may be due now (:meth:`_may_be_due`, read in
        the write's transaction, which sees every commit before it and none after)."""

        def write(conn: Connection, game: Head, seat: Any) -> bool:
            if game.status != "active":
                raise Conflict(f"the game is {game.status}")
            if phase != game.phase:
                raise Conflict(f"this is for {phase}, but the game is in {game.phase}")
            SET_READY.run(conn, {"in_game": game_id, "seat_name": seat.seat, "is_ready": ready})
            return self._may_be_due(conn, game)

        return self._quick_seat_write(game_id, token, write, at_once)

    def set_ready_at_once(self, game_id: str, token: str | None, phase: str, ready: bool) -> bool | None:
        """:meth:`set_ready` if it can be done at once, on SQLite, for the event loop: returns
        whether the phase may be due now (then work it out and :meth:`claim` it); ``None`` if the
        rules have to describe the phase first (then call :meth:`ready` in a worker thread);
        :class:`WouldWait` if a lock is held (the process's writer lock, the file's): nothing was
        written, try again in a moment."""
        try:
            with without_rules():
                return self._set_ready(game_id, token, phase, ready, at_once=True)
        except NotKept:
            return None

    def _quick_seat_write(
        self,
        game_id: str,
        token: str | None,
        write: Callable[[Connection, Head, Any], T],
        at_once: bool = False,
    ) -> T:
        """The seats' frequent writes (orders, ready) on a plain connection, as :meth:`_seat_write`
        does them with an ORM session (which costs more than the statements): on the game's head
        (locked on PostgreSQL), then the version bumped where it is still the one read; a write that
        lost that race runs again, unless the phase moved on meanwhile. ``at_once`` (SQLite): raise
        :class:`WouldWait` rather than wait for a lock."""
        if not token:
            raise Unauthorized("this needs a seat's token (Authorization: Bearer <token>)")
        phases_seen: set[int] = set()

        def attempt() -> tuple[T, Change]:
            with self._write_tx(at_once) as conn:
                game, seat = self._head_and_seat(conn, game_id, token, lock=True)
                phases_seen.add(game.phase_index)
                if len(phases_seen) > 1:
                    raise Conflict(f"the phase was processed meanwhile; it is now {game.phase}")
                out = write(conn, game, seat)
                bumped = BUMP_VERSION.run(
                    conn, {"game_id": game_id, "seen": game.version, "bumped": game.version + 1}
                )
                if bumped != 1:  # another process wrote first: nothing of this is kept
                    raise LostRace()
                change = Change(game_id, game.version + 1, game.phase, game.status, unix_time(game.deadline))
                self.notices.in_transaction(conn, [change])
                return out, change

        for _ in range(SEAT_WRITE_ATTEMPTS):
            try:
                out, change = attempt()
            except LostRace:
                continue
            self._after_commit(partial(self.notices.committed, [change]))
            return out
        raise StaleWrite("the game changed meanwhile (a phase may have been processed): reload and retry")

    def vote_draw(self, game_id: str, token: str | None, phase: str, vote: bool) -> None:
        """A seat's vote for a draw, given in ``phase`` (refused once the phase has moved on)."""

        def write(s: Session, game: GameRow) -> None:
            seat = self._seat_by_token(s, game_id, token)
            if game.status not in ("active", "paused"):
                raise Conflict(f"the game is {game.status}")
            if phase != game.phase:
                raise Conflict(f"this is for {phase}, but the game is in {game.phase}")
            seat.draw_vote = vote
            self._changed(s, game)
            alive = self._alive(game)
            voters = [r for r in self._seats(s, game_id) if r.seat in alive and r.kind == "player"]
            if voters and all(r.draw_vote for r in voters):
                game.status, game.deadline = "finished", None
                game.result = {"draw": sorted(alive)}

        self._seat_write(game_id, write)

    def _alive(self, game: GameRow) -> set[str]:
        return set(get_family(game.family).alive(game.state))

    def send_message(self, game_id: str, token: str | None, to: list[str] | None, body: str) -> int:
        if not body.strip(BLANK) or len(body) > MAX_MESSAGE:
            raise Invalid(f"a message has 1 to {MAX_MESSAGE} characters")

        def write(s: Session, game: GameRow) -> int:
            seat = self._seat_by_token(s, game_id, token)
            if game.status == "finished":
                raise Conflict("the game is over: no more press")
            press = game.settings.get("press", "full")
            if press == "none":
                raise Forbidden("this game has no press")
            if to is not None:
                if press == "broadcast":
                    raise Forbidden("this game allows only messages to everyone")
                seats = set(get_family(game.family).seats(game.state))
                if not to:
                    raise Invalid("name at least one recipient")
                bad = [x for x in to if x not in seats]
                if bad:  # as for an unknown seat at join: the game has no such seat
                    raise NotFound(f"no seats {bad} in this game")
            row = MessageRow(
                game_id=game_id,
                phase=game.phase,
                sender=seat.seat,
                recipients=sorted(set(to)) if to is not None else None,
                body=body,
                sent_at=self.clock(),
            )
            s.add(row)
            self._changed(s, game)
            s.flush()
            if self.mail is not None:  # queued with the message: sent if (and only if) it commits
                self.mail.press(s, game_id, row.id)
            return row.id

        sent = self._seat_write(game_id, write)
        if self.mail is not None:
            self.mail.wake()
        return sent

    # ------------------------------------------------------------------ views
    def list_games(self) -> list[dict[str, Any]]:
        with self._tx() as s:
            rows = s.scalars(select(GameRow).order_by(GameRow.created_at.desc()).limit(200))
            return [self._summary(s, g) for g in rows]

    def _summary(
        self, s: Reader, g: GameRow | Head, seats: Sequence[SeatLine] | None = None
    ) -> dict[str, Any]:
        """The game's public summary; ``seats``: its seats' lines, if read already."""
        if seats is None:
            seats = SEATS_OF_GAME.all(s, {"game_id": g.id})
        deadline = g.deadline
        family_title, variant_title = titles(g.variant, g.family)
        return {
            "id": g.id,
            "title": g.title,
            "family": g.family,
            "family_title": family_title,
            "variant": g.variant,
            "variant_title": variant_title,
            "status": g.status,
            "phase": g.phase,
            "phase_index": g.phase_index,
            "version": g.version,
            "deadline": deadline.isoformat() if deadline else None,
            "press": g.settings.get("press"),
            "options": g.settings.get("options", {}),
            "seats": [
                {
                    "seat": r.seat,
                    "kind": r.kind,
                    "player": r.player,
                    "ready": r.ready if g.status == "active" else False,
                }
                for r in seats
            ],
            "result": g.result,
        }

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

    def public_view(self, game_id: str) -> dict[str, Any]:
        return self._read(lambda s: dict(self._snapshot(s, self._head(s, game_id)).public))

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

    def _snapshot(self, s: Reader, head: Head) -> Snapshot:
        """The public view and the phase's orders at the head's version, read once a version."""

        def read() -> Snapshot:
            phase = self._phase(s, head)
            rows = SEATS_AT_VERSION.all(s, {"game_id": head.id, "phase_index": head.phase_index})
            out = self._summary(s, head, [SeatLine(*row[: len(_SEAT_LINE)]) for row in rows])
            out["position"] = phase.position
            out["acting"] = list(phase.acting) if head.status == "active" else []
            out["pending"] = phase.pending
            out["seed_chosen"] = bool(head.settings.get("seed_chosen", False))
            orders = {row.seat: list(row.orders) for row in rows if row.orders is not None}
            out["submitted"] = sorted(orders)  # who has ordered, never what
            return Snapshot(out, orders, (rows[0].last_message if rows else None) or 0)

        return self._versions.get((head.id, head.version), read)

    def seat_view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The public view with the seat's own orders and messages, all keyed by the game's version
        read first, so a view never pairs one phase with another's orders."""
        return self._read(lambda s: self._seat_view(s, game_id, token))

    def _seat_view(self, s: Reader, game_id: str, token: str | None) -> dict[str, Any]:
        snapshot, own, messages = self._seat_parts(s, game_id, token)
        return {**snapshot.public, "seat": own, "messages": messages}

    def seat_view_json(self, game_id: str, token: str | None) -> bytes:
        """:meth:`seat_view` as JSON: the same bytes as the view encoded whole, but the public part,
        the most of it, is encoded once a version rather than once a request."""
        return self._read(lambda s: self._seat_view_json(s, game_id, token))

    def _seat_view_json(self, s: Reader, game_id: str, token: str | None) -> bytes:
        snapshot, own, messages = self._seat_parts(s, game_id, token)
        public = snapshot.public_json  # an object, so it ends in "}": the seat's part goes before it
        return b"".join((public[:-1], b',"seat":', to_json(own), b',"messages":', to_json(messages), b"}"))

    def _seat_parts(
        self, s: Reader, game_id: str, token: str | None
    ) -> tuple[Snapshot, dict[str, Any], list[dict[str, Any]]]:
        """A seat's view in its parts: the game's snapshot, the seat's own part, its messages."""
        head, seat = self._head_and_seat(s, game_id, token)
        snapshot = self._snapshot(s, head)
        own = {
            "seat": seat.seat,
            "player": seat.player,
            "ready": seat.ready,
            "draw_vote": seat.draw_vote,
            "orders": snapshot.orders.get(seat.seat, []),
        }
        messages = (
            []  # the game has none (a game without press never has)
            if snapshot.last_message == 0
            else self._letters.get(
                (game_id, snapshot.last_message, seat.seat), lambda: self._messages(s, game_id, seat.seat)
            )
        )
        return snapshot, own, messages

    def options(self, game_id: str, token: str | None) -> dict[str, Any]:
        return self._read(lambda s: self._options(s, game_id, token))

    def _options(self, s: Reader, game_id: str, token: str | None) -> dict[str, Any]:
        head, seat = self._head_and_seat(s, game_id, token)
        if head.status != "active":
            return {}
        saved = tuple(self._snapshot(s, head).orders.get(seat.seat, ()))
        state = self._phase(s, head).state
        family = get_family(head.family)

        def tree() -> dict[str, Any]:
            try:
                return family.options(state, seat.seat, list(saved))
            except (ValueError, KeyError):  # saved orders that no longer apply: the plain tree
                return family.options(state, seat.seat)

        return self._trees.get((game_id, head.phase_index, seat.seat, saved), tree, standalone=True)

    def messages(self, game_id: str, token: str | None) -> list[dict[str, Any]]:
        with self._tx() as s:
            self._game(s, game_id)
            seat = self._seat_by_token(s, game_id, token)
            return self._messages(s, game_id, seat.seat)

    def _messages(self, s: Reader, game_id: str, seat: str) -> list[dict[str, Any]]:
        """The messages the seat may read, chosen by the database (a game's press can be long)."""
        visible = or_(MessageRow.recipients.is_(None), MessageRow.sender == seat, self._addressed_to(seat))
        columns = (MessageRow.id, MessageRow.phase, MessageRow.sender, MessageRow.recipients)
        rows = s.execute(
            select(*columns, MessageRow.body, MessageRow.sent_at)
            .where(MessageRow.game_id == game_id, visible)
            .order_by(MessageRow.id)
        )
        return [
            {
                "id": m.id,
                "phase": m.phase,
                "from": m.sender,
                "to": m.recipients,
                "body": m.body,
                "sent_at": m.sent_at.isoformat(),
            }
            for m in rows
        ]

    def _addressed_to(self, seat: str) -> ColumnElement[bool]:
        """Whether a message's recipients (a JSON list) name ``seat``, in the database's own terms."""
        if self.engine.dialect.name == "postgresql":
            return cast(MessageRow.recipients, JSONB).contains([seat])
        each = func.json_each(MessageRow.recipients).table_valued("value").alias("recipient")
        return exists(select(each.c.value).where(each.c.value == seat))

    def history(self, game_id: str, offset: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The played phases from index ``offset`` on (0: the first), at most ``limit`` (``None``:
        every one), in order."""
        with self._tx() as s:
            self._game(s, game_id)
            query = (
                select(PhaseRow)
                .where(PhaseRow.game_id == game_id, PhaseRow.phase_index >= offset)
                .order_by(PhaseRow.phase_index)
                .limit(limit)
            )
            return [{"index": r.phase_index, "phase": r.phase, **r.record} for r in s.scalars(query)]

    def played_phase(self, game_id: str, index: int) -> dict[str, Any]:
        """Phase ``index`` of the history (0 = the first), as :meth:`history` gives it."""
        with self._tx() as s:
            game = self._game(s, game_id)
            row = s.scalars(
                select(PhaseRow).where(PhaseRow.game_id == game_id, PhaseRow.phase_index == index)
            ).first()
            if row is None:
                played = game.phase_index  # phases processed so far
                raise NotFound(f"phase {index} has not been played (the history has {played} phases)")
            return {"index": row.phase_index, "phase": row.phase, **row.record}

    def version(self, game_id: str) -> int:
        return int(self.headline(game_id)["version"])

    def headline(self, game_id: str) -> dict[str, Any]:
        """The game's version, phase and status, read without its state (an event stream's look)."""
        with self._tx() as s:
            row = s.execute(
                select(GameRow.version, GameRow.phase, GameRow.status).where(GameRow.id == game_id)
            ).first()
            if row is None:
                raise NotFound(f"no game {game_id!r}")
            return {"version": row.version, "phase": row.phase, "status": row.status}

    # ------------------------------------------------------------------ processing
    def due_games(self, everything: bool = False) -> list[str]:
        """Active games whose deadline has passed; with ``everything``, also those without a
        deadline (they move on when every seat is ready: a ready request processes at once, and a
        phase of bots alone is announced as due; a sweep catches what a crash left between)."""
        with self._tx() as s:
            passed = GameRow.deadline <= self.clock()
            stmt = select(GameRow.id, GameRow.version).where(
                GameRow.status == "active", or_(GameRow.deadline.is_(None), passed) if everything else passed
            )
            return [game_id for game_id, version in s.execute(stmt) if self._waiting.get(game_id) != version]

    def next_deadline(self) -> datetime | None:
        """The earliest deadline of an active game (``None``: none has one)."""
        with self._tx() as s:
            return s.scalar(select(func.min(GameRow.deadline)).where(GameRow.status == "active"))

    def next_warning(self) -> datetime | None:
        """When the next deadline warning is due (``None``: none is, or there are no notices)."""
        lead = self.mail.warn_before if self.mail is not None else None
        if lead is None:
            return None
        with self._tx() as s:
            earliest = s.scalar(select(func.min(GameRow.deadline)).where(*self._unwarned_games()))
            return None if earliest is None else earliest - timedelta(seconds=lead)

    def _unwarned_games(self) -> list[ColumnElement[bool]]:
        """Active games whose phase's deadline is still to come and has not been warned of."""
        return [
            GameRow.status == "active",
            GameRow.deadline > self.clock(),
            or_(GameRow.warned_phase.is_(None), GameRow.warned_phase != GameRow.phase_index),
        ]

    def warn_deadlines(self) -> list[str]:
        """Warn the seats of each game whose deadline is nearer than the lead, once a phase: the
        update that marks the phase warned claims the warning, so one process (of any) sends it."""
        lead = self.mail.warn_before if self.mail is not None else None
        if lead is None or self.mail is None:
            return []
        warned = []
        with self._tx() as s:
            near = GameRow.deadline <= self.clock() + timedelta(seconds=lead)
            rows = s.execute(
                select(GameRow.id, GameRow.phase_index).where(*self._unwarned_games(), near)
            ).all()
        for game_id, index in rows:
            with self._tx(write=True) as s:
                claimed = s.execute(
                    update(GameRow)
                    .where(
                        GameRow.id == game_id,
                        GameRow.phase_index == index,
                        or_(GameRow.warned_phase.is_(None), GameRow.warned_phase != index),
                    )
                    .values(warned_phase=index)
                    .execution_options(synchronize_session=False)
                )
                if claimed.rowcount == 1:  # type: ignore[attr-defined]
                    self.mail.deadline(s, game_id, index)
            if claimed.rowcount == 1:  # type: ignore[attr-defined]
                warned.append(game_id)
        if warned:
            self.mail.wake()
        return warned

    def process_due(self, everything: bool = True, also: Iterable[str] = ()) -> list[str]:
        """Process every game whose phase is due (see :meth:`due_games`), and try the games in
        ``also``; a game that fails is logged and skipped."""
        done = []
        for game_id in dict.fromkeys([*self.due_games(everything), *also]):
            try:
                if self.try_process(game_id):
                    done.append(game_id)
            except Exception:
                log.exception("processing game %s failed", game_id)
        return done

    def try_process(self, game_id: str, force: bool = False) -> bool:
        """Process the game's current phase if it is due (deadline passed, or every acting seat
        ready). Returns whether this call processed it; safe to call from any number of processes."""
        if not force and not self._read(lambda conn: self._may_be_due_now(conn, game_id)):
            return False
        return self._try_process(game_id, force)

    def _may_be_due_now(self, conn: Reader, game_id: str) -> bool:
        head = self._head(conn, game_id)
        due = self._may_be_due(conn, head)
        if not due and head.deadline is None:
            self._waiting[game_id] = head.version  # as :meth:`_process` notes it, for the sweeps
        return due

    def _try_process(self, game_id: str, force: bool) -> bool:
        """Work the due phase out, then claim the game with it; again if a seat's write came
        between (the claim found the version changed), unless the game moved on meanwhile."""
        index: int | None = None
        for _ in range(SEAT_WRITE_ATTEMPTS):
            outcome = self.work_out(game_id, force)
            if outcome is None or (index is not None and outcome.index != index):
                return False  # not due, or another processor moved the game on
            index = outcome.index
            if self.claim(outcome):
                return True
        return False

    def _may_be_due(self, conn: Reader, head: Head) -> bool:
        """Whether the game's phase may be due, read without working anything out, so that a Ready
        that leaves others to wait for costs one read. It says no only where :meth:`work_out` would:
        the seat whose Ready completes the phase reads after its own write, in its transaction or
        after it."""
        if head.status != "active":
            return False
        if head.deadline is not None and head.deadline <= self.clock():
            return True
        acting = set(self._phase(conn, head).acting)
        seats = [r for r in SEATS_OF_GAME.all(conn, {"game_id": head.id}) if r.seat in acting]
        if any(r.kind == "bot" and r.player for r in seats):
            return True  # a named bot given the seat mid-phase orders when the phase is worked out
        return all(r.ready or r.kind == "bot" for r in seats)

    def work_out(self, game_id: str, force: bool = False) -> Outcome | None:
        """The game's due phase worked out by its rules from what is stored now, with nothing
        written: :meth:`claim` writes it. ``None`` if the phase is not due (or the 'wait' policy
        extended its deadline instead). Holds no lock and no transaction while the rules work.
        ``force``: due or not (tests, a game master's tools)."""
        for _ in range(SEAT_WRITE_ATTEMPTS):
            plan = self._read(lambda conn: self._plan(conn, game_id, force))
            if plan is None:
                return None
            if not (force or plan.all_ready) and plan.head.settings.get("missed_orders") == "wait":
                waited = self._wait_once(plan)
                if waited is None:
                    continue  # the game changed since it was read
                if waited:
                    return None
            return self._outcome(self._with_late_bots(plan))
        return None

    def _plan(self, conn: Reader, game_id: str, force: bool) -> _Plan | None:
        """What processing the game now would use, read (the phase's state is kept); ``None`` if
        its phase is not due."""
        head = self._head(conn, game_id)
        if head.status != "active":
            return None
        phase = self._phase(conn, head)
        acting = set(phase.acting)
        seats = {r.seat: r for r in SEATS_OF_GAME.all(conn, {"game_id": game_id})}
        all_ready = all(seats[p].ready or seats[p].kind == "bot" for p in acting if p in seats)
        now = self.clock()
        passed = head.deadline is not None and head.deadline <= now
        if not (force or all_ready or passed):
            if head.deadline is None:
                self._waiting[game_id] = head.version
            return None
        rows = ORDERS_OF_PHASE.all(conn, {"game_id": game_id, "phase_index": head.phase_index})
        orders = {seat: list(given) for seat, given in rows if seat in acting}
        lag = (now - head.deadline).total_seconds() if passed and head.deadline is not None else None
        return _Plan(head, phase, acting, seats, orders, {}, all_ready, lag)

    def _with_late_bots(self, plan: _Plan) -> _Plan:
        """The plan with the orders of named bots that have none yet for the phase (a seat given
        to a bot mid-phase), worked out now (after the read: a bot may think a while)."""
        seats, head = plan.seats, plan.head
        late = {
            p: self._bot_orders(head.id, head.family, plan.phase.state, p, seats[p].player)
            for p in sorted(plan.acting)
            if p in seats and seats[p].kind == "bot" and seats[p].player and p not in plan.orders
        }
        return replace(plan, orders={**plan.orders, **late}, late_bots=late) if late else plan

    def _outcome(self, plan: _Plan) -> Outcome:
        """Process the planned phase by its rules: what the claim will write."""
        head = plan.head
        family = get_family(head.family)
        done = family.process(plan.phase.state, plan.orders)
        upcoming = family.pending(done.state)
        finished = bool(done.winners) or upcoming.over
        seconds = head.settings.get("deadlines", {}).get(upcoming.kind)
        now = self.clock()
        deadline = now + timedelta(seconds=seconds) if seconds and not finished else None
        index = head.phase_index
        next_bots = (
            {}
            if finished
            else {
                p: self._bot_orders(head.id, head.family, done.state, p, plan.seats[p].player)
                for p in upcoming.seats
                if p in plan.seats and plan.seats[p].kind == "bot" and plan.seats[p].player
            }
        )
        # A phase that only bots act in is processable at once: the scheduler is told to.
        only_bots = bool(upcoming.seats) and all(
            p in plan.seats and plan.seats[p].kind == "bot" for p in upcoming.seats
        )
        status = "finished" if finished else "active"
        return Outcome(
            game_id=head.id,
            family=head.family,
            index=index,
            lag=plan.lag,
            advance={
                "game_id": head.id,
                "seen": head.version,
                "bumped": head.version + 1,
                "new_state": done.state,
                "next_phase": upcoming.phase,
                "next_index": index + 1,
                "new_status": status,
                "new_deadline": deadline,
                "new_result": {"winners": done.winners} if finished else None,
                "warned": self._unwarned(index + 1, deadline),
            },
            played={
                "game_id": head.id,
                "phase_index": index,
                "phase": done.phase,
                "record": {"position": done.position, "orders": plan.orders, "results": done.results},
                "processed_at": now,
            },
            bots_orders=[
                {"in_game": head.id, "index": i, "seat_name": p, "given": o, "at": now}
                for i, by_seat in ((index, plan.late_bots), (index + 1, next_bots))
                for p, o in by_seat.items()
            ],
            change=Change(
                head.id,
                head.version + 1,
                upcoming.phase,
                status,
                unix_time(deadline),
                only_bots and not finished,
            ),
        )

    def claim(self, outcome: Outcome, at_once: bool = False) -> bool:
        """Write a worked-out phase where the game's version is still the one it was worked out
        from; whether it was (else nothing is written: a seat wrote meanwhile, or another processor
        moved the game on). ``at_once`` (SQLite, the event loop): :class:`WouldWait` rather than
        wait for a lock."""
        try:
            with self._write_tx(at_once) as conn:
                if ADVANCE_GAME.run(conn, outcome.advance) != 1:
                    raise _NothingWritten()
                conn.execute(ADD_PHASE, outcome.played)
                UNREADY_PLAYERS.run(conn, {"in_game": outcome.game_id})
                if outcome.bots_orders:
                    ADD_ORDERS.run_many(conn, outcome.bots_orders)
                if self.mail is not None:  # queued with the phase: sent if (and only if) it commits
                    self.mail.processed(conn, outcome.game_id, outcome.index)
                self.notices.in_transaction(conn, [outcome.change])
        except _NothingWritten:
            return False
        self._after_commit(partial(self._claimed, outcome))
        return True

    def _claimed(self, outcome: Outcome) -> None:
        """What follows the commit of a claimed phase."""
        self.notices.committed([outcome.change])
        game_id = outcome.game_id
        self._waiting.pop(game_id, None)  # it moved on: what a sweep knew of it is old
        if self.mail is not None:
            self.mail.wake()
        lag = outcome.lag
        log.info(
            "processed a phase of game %s (%s)",
            game_id,
            outcome.family,
            extra={"game_id": game_id, "lag_s": None if lag is None else round(lag, 3)},
        )
        self.on_processed(outcome.family, lag)

    def _wait_once(self, plan: _Plan) -> bool | None:
        """The 'wait' policy: extend a passed deadline once per phase while a player has no orders.
        Whether it did (then the phase is not processed now); ``None``: the game changed since it
        was read."""
        head = plan.head
        if head.settings.get("waited") == head.phase_index:
            return False
        seats = plan.seats
        missing = [
            p for p in plan.acting if p not in plan.orders and p in seats and seats[p].kind == "player"
        ]
        if not missing:
            return False
        seconds = head.settings.get("deadlines", {}).get(plan.phase.pending["kind"], 0)
        deadline = self.clock() + timedelta(seconds=seconds)
        change = Change(head.id, head.version + 1, head.phase, head.status, unix_time(deadline))
        with self._write_tx() as conn:
            extended = EXTEND_ONCE.run(
                conn,
                {
                    "game_id": head.id,
                    "seen": head.version,
                    "bumped": head.version + 1,
                    "new_settings": {**head.settings, "waited": head.phase_index},
                    "new_deadline": deadline,
                },
            )
            if extended != 1:
                conn.rollback()
                return None
            self.notices.in_transaction(conn, [change])
        self.notices.committed([change])
        return True


def _changes(session: Session) -> list[Change]:
    """The changes a transaction made, as announced (:meth:`GameService._changed`)."""
    return [
        Change(game.id, game.version, game.phase, game.status, unix_time(game.deadline), due)
        for game, due in session.info.pop("changed", {}).values()
    ]


def default_title(variant_title: str) -> str:
    """A game's title when its creator gives none: the variant's, said as a game ("Standard
    Diplomacy game"; "the linked world game" is not made a "game game")."""
    return variant_title if variant_title.lower().endswith("game") else f"{variant_title} game"
