"""Change notices: what wakes the event streams and the deadline scheduler, instead of polling.

Every transaction that changes a game announces a :class:`Change` (its new version, phase, status
and deadline, and whether its phase may be processable now). How a change reaches the processes:

- PostgreSQL: ``pg_notify`` inside the transaction, so the notice is sent by the database at the
  commit and only if it commits; every server process (on any machine) LISTENs on one connection of
  its own and hands what arrives to what waits in it, its own changes included.
- SQLite: the change is handed over in-process after the commit. Other processes on the same file
  (``--workers``, or two servers) learn of changes by a watcher on a connection of its own that
  asks SQLite a few times a second whether anyone committed (``PRAGMA data_version``, which costs no
  read of the file) and, only then, which games moved on.

A listener connection that drops is opened again; what changed meanwhile is caught up by telling
every waiter to look again (:attr:`Change.resync`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, text
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

CHANNEL = "interboard"
"""The PostgreSQL notification channel."""
SQLITE_WATCH_EVERY_S = 0.2
"""How often a SQLite watcher asks whether another connection committed."""
RECONNECT_AFTER_S = 1.0
"""How long a PostgreSQL listener waits before opening its connection again after a failure."""


@dataclass(frozen=True)
class Change:
    """A game changed: its state after the change."""

    game_id: str
    version: int
    phase: str
    status: str
    deadline: float | None = None
    """The phase's deadline as a Unix time, if it has one."""
    due: bool = False
    """The phase may be processable now without anyone's request (every seat acting is a bot):
    the scheduler should try it."""
    resync: bool = False
    """Not a change but "look again": notices may have been missed (a listener reconnected)."""

    def payload(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_payload(cls, payload: str) -> Change | None:
        try:
            fields = json.loads(payload)
            return cls(**fields)
        except (ValueError, TypeError):
            log.warning("a change notice that is not one was ignored")
            return None


RESYNC = Change("", -1, "", "", resync=True)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running on this thread, if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def unix_time(moment: datetime | None) -> float | None:
    return None if moment is None else moment.timestamp()


class Mailbox:
    """The latest change of one game for one waiter (an event stream): older ones are worth nothing
    once a newer one has come."""

    def __init__(self) -> None:
        self.latest: Change | None = None
        self._event = asyncio.Event()

    def put(self, change: Change) -> None:
        if change.resync or self.latest is None or change.version > self.latest.version:
            self.latest = change
        self._event.set()

    async def wait(self, timeout: float) -> Change | None:
        """The change that came (``None`` after ``timeout`` seconds without one)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):  # not wait_for: see scheduler.py
                await self._event.wait()
        self._event.clear()
        change, self.latest = self.latest, None
        return change


class Notices:
    """A process's notices: announced by the service's transactions, delivered to the mailboxes of
    the event streams and to the watchers (the scheduler) on the event loop they were started on.

    Without :meth:`start` (the service used on its own, as in tests) changes are announced and
    nothing waits for them."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.remote = engine.dialect.name == "postgresql"
        self._loop: asyncio.AbstractEventLoop | None = None
        self._boxes: dict[str, set[Mailbox]] = {}
        self._watchers: list[Callable[[Change], None]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ announcing (any thread)
    def in_transaction(self, session: Session | Connection, changes: list[Change]) -> None:
        """Called inside the changing transaction, before its commit."""
        if self.remote:
            for change in changes:
                session.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": CHANNEL, "payload": change.payload()},
                )

    def committed(self, changes: list[Change]) -> None:
        """Called after the changing transaction committed."""
        if not self.remote:
            for change in changes:
                self.deliver(change)

    def deliver(self, change: Change) -> None:
        """Hand a change to what waits in this process (thread-safe). On the loop's own thread (most
        of the seats' writes are made there) without waking it: a wake-up from another thread is
        written to the loop's wake-up file and read back, two system calls."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if _running_loop() is loop:
            loop.call_soon(self._fan_out, change)
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: no one waits
            loop.call_soon_threadsafe(self._fan_out, change)

    # ------------------------------------------------------------------ waiting (the event loop)
    def _fan_out(self, change: Change) -> None:
        boxes = (
            [box for group in self._boxes.values() for box in group]
            if change.resync
            else self._boxes.get(change.game_id, ())
        )
        for box in boxes:
            box.put(change)
        for watcher in self._watchers:
            watcher(change)

    @contextlib.contextmanager
    def subscribe(self, game_id: str) -> Iterator[Mailbox]:
        """A mailbox that gets the game's changes while the ``with`` block runs."""
        box = Mailbox()
        self._boxes.setdefault(game_id, set()).add(box)
        try:
            yield box
        finally:
            group = self._boxes.get(game_id)
            if group is not None:
                group.discard(box)
                if not group:
                    del self._boxes[game_id]

    def watch(self, watcher: Callable[[Change], None]) -> None:
        """Call ``watcher`` on the event loop with every change."""
        self._watchers.append(watcher)

    # ------------------------------------------------------------------ lifecycle
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Deliver to ``loop`` from now on, and start listening for other processes' changes."""
        self._loop = loop
        listen = self._listen_postgresql if self.remote else self._watch_sqlite
        if self.remote or self._sqlite_file() is not None:
            self._thread = threading.Thread(target=listen, name="interboard-notices", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            if self.remote:
                self._wake_listener()
            self._thread.join(timeout=5)
        self._loop = None

    def _wake_listener(self) -> None:
        """An empty notice, which every listener ignores, ends this one's wait for notices at once
        rather than at its next timeout (a second of every PostgreSQL app's shutdown)."""
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql(f"NOTIFY {CHANNEL}")
                conn.commit()
        except Exception as exc:  # the listener still stops, at its timeout
            log.debug("change notices: the listener was not woken (%s)", type(exc).__name__)

    def _listen_postgresql(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if not first:  # notices sent while no one listened are lost: look again
                        self.deliver(RESYNC)
                    first = False
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=1.0):
                            if self._stop.is_set():
                                break
                            if not notice.payload:  # an empty notice wakes a listener to stop
                                continue
                            change = Change.from_payload(notice.payload)
                            if change is not None:
                                self.deliver(change)
            except psycopg.Error as exc:
                log.warning("change notices: the listening connection failed (%s); reconnecting", exc)
                self._stop.wait(RECONNECT_AFTER_S)

    def _sqlite_file(self) -> str | None:
        database = self.engine.url.database
        return None if database in (None, "", ":memory:") else database

    def _watch_sqlite(self) -> None:
        path = self._sqlite_file()
        assert path is not None
        conn = sqlite3.connect(path, timeout=30, check_same_thread=False)
        try:
            seen: dict[str, int] = {}
            last = -1
            while not self._stop.wait(SQLITE_WATCH_EVERY_S):
                try:
                    committed = conn.execute("PRAGMA data_version").fetchone()[0]
                    if committed == last:
                        continue
                    rows = conn.execute("SELECT id, version, phase, status, deadline FROM games").fetchall()
                except sqlite3.Error as exc:  # busy past the timeout, a missing table: next time
                    log.debug("change notices: the SQLite watcher could not read (%s)", exc)
                    continue
                quiet = last == -1  # the first look only learns what is there
                last = committed
                for game_id, version, phase, status, deadline in rows:
                    if seen.get(game_id, -1) < version:
                        seen[game_id] = version
                        if not quiet:
                            self.deliver(Change(game_id, version, phase, status, _sqlite_time(deadline)))
        finally:
            conn.close()


def _sqlite_time(stored: Any) -> float | None:
    """A deadline as SQLAlchemy stores it in SQLite (ISO text, UTC), as a Unix time."""
    if not stored:
        return None
    try:
        moment = datetime.fromisoformat(str(stored))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()
