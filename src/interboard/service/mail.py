"""E-mail to accounts, sent through an SMTP server by a thread of its own, from a queue kept in the
database (``mail_outbox``), so that nothing queued is lost when a server stops before sending it.

Nothing here runs in a request or in the scheduler: they only queue a job (a row saying what
happened: a phase processed, a message, a deadline near, an address to confirm), in the transaction
of the change it tells of, and wake the mail thread once it is committed. The mail thread turns
each job into its messages (reading who is to be told then) and sends them; it also looks at the
queue every :data:`POLL_S` seconds and when it starts, so that what another process queued, or a
process that stopped left, is sent too.

Each message is sent **at most once**: a job is claimed by deleting its row in the transaction that
queues its messages, and a message by deleting its row in a transaction committed before the SMTP
server is spoken to. Two processes never send one message twice; a process that stops (or fails)
between that commit and the SMTP server's answer loses that one message, rather than sending it
again after a restart (a second "phase processed" would be worse than none, and a failed send is
not retried either: it is logged, as before). A failed job or send is logged (never the message's
text, nor an address: only its domain) and the thread goes on.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from typing import Any

from sqlalchemy import Connection, Engine, Table, delete, func, insert, select
from sqlalchemy.orm import Session

from .models import OutboxRow

log = logging.getLogger(__name__)

SEND_TIMEOUT_S = 30.0
"""How long one SMTP conversation may take before it is given up (and logged)."""
SUBJECT_MAX = 200
POLL_S = 5.0
"""How often the mail thread looks at the queue without being woken (other processes' jobs)."""
BATCH = 100
"""Rows read from the queue at once."""
MESSAGE = "mail"
"""The ``kind`` of a row that is a message ready to send (any other kind is a job)."""
OUTBOX: Table = OutboxRow.__table__  # type: ignore[assignment]


@dataclass(frozen=True)
class MailConfig:
    """Where and how notices are sent; ``None`` in ``create_app``: no notices."""

    host: str
    port: int = 25
    sender: str = "interboard@localhost"
    """The From address."""
    starttls: bool = False
    user: str | None = None
    password: str | None = field(default=None, repr=False)  # never shown in a log or traceback
    warn_before_s: float = 3600.0
    """How long before a deadline its warning goes out (0: no warnings)."""
    public_url: str = ""
    """The server's address as players reach it (``https://example.org``), for links in the notices."""


@dataclass(frozen=True)
class Notice:
    """One e-mail to one address."""

    to: str
    subject: str
    body: str


@dataclass(frozen=True)
class Job:
    """A queued job, as read back: what happened, for the expander to turn into messages."""

    id: int
    kind: str
    game_id: str | None
    ref: int | None
    to_address: str | None


Expand = Callable[[Session, Job], list[Notice]]
"""A job's messages, read (and, for a confirmation, written) in the transaction that claims it."""


def one_line(text: str, limit: int = SUBJECT_MAX) -> str:
    """Text fit for a header: no line breaks (a title may hold them), bounded."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _now() -> datetime:
    return datetime.now(UTC)


class Mailer:
    """The queue (in the database) and the thread that sends it. ``expand``: how a job becomes
    messages (``accounts.AccountNotices`` sets it); a job is never claimed while there is none."""

    def __init__(self, config: MailConfig, engine: Engine) -> None:
        self.config = config
        self.engine = engine
        self.expand: Expand | None = None
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        """One pass over the queue at a time in this process (the thread's, or a test's)."""
        self.sent = 0
        """Messages the SMTP server took (for the tests and the logs)."""

    # ------------------------------------------------------------------ queueing (any thread)
    @staticmethod
    def queue(
        conn: Session | Connection,
        kind: str,
        game_id: str | None = None,
        ref: int | None = None,
        to: str | None = None,
    ) -> None:
        """Queue a job in the caller's transaction (it is sent only if that commits); call
        :meth:`wake` after the commit."""
        conn.execute(
            insert(OUTBOX).values(kind=kind, game_id=game_id, ref=ref, to_address=to, queued_at=_now())
        )

    @staticmethod
    def queue_notice(conn: Session | Connection, notice: Notice) -> None:
        """Queue a message ready to send, in the caller's transaction."""
        conn.execute(
            insert(OUTBOX).values(
                kind=MESSAGE,
                to_address=notice.to,
                subject=notice.subject,
                body=notice.body,
                queued_at=_now(),
            )
        )

    def wake(self) -> None:
        """Tell the mail thread that something was queued (and committed); never blocks."""
        self._wake.set()

    def waiting(self) -> int:
        """Rows in the queue: jobs and messages not yet claimed (by any process)."""
        with Session(self.engine) as s:
            return int(s.scalar(select(func.count()).select_from(OutboxRow)) or 0)

    # ------------------------------------------------------------------ the mail thread
    def start(self) -> None:
        if self._thread is None:
            self._stopping = False
            self._wake.set()  # at once: what was queued before the start
            self._thread = threading.Thread(target=self._run, name="interboard-mail", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Send what is queued (for up to ``timeout`` seconds), then stop; what is left stays in
        the queue for the next start (or another process)."""
        if self._thread is not None:
            self._stopping = True
            self._wake.set()
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        while True:
            self._wake.wait(POLL_S)
            self._wake.clear()
            stopping = self._stopping  # read first: a last pass over what was queued before the stop
            try:
                self.send_queued()
            except Exception:  # the database failed: the next pass tries again
                log.exception("mail: reading the queue failed")
            if stopping:
                return

    def send_queued(self) -> int:
        """One pass: every job turned into its messages, every message sent (those queued by any
        process); how many messages the SMTP server took."""
        with self._lock:
            self._expand_jobs()
            return self._send_messages()

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    def _expand_jobs(self) -> None:
        expand = self.expand
        if expand is None:
            return
        while True:
            with Session(self.engine) as s:
                jobs = [
                    Job(*row)
                    for row in s.execute(
                        select(
                            OutboxRow.id,
                            OutboxRow.kind,
                            OutboxRow.game_id,
                            OutboxRow.ref,
                            OutboxRow.to_address,
                        )
                        .where(OutboxRow.kind != MESSAGE)
                        .order_by(OutboxRow.id)
                        .limit(BATCH)
                    )
                ]
            for job in jobs:
                try:
                    with self._tx() as s:
                        # The claim first: on SQLite it takes the write lock, on PostgreSQL the
                        # row's, so that another process's claim of the same job finds it gone.
                        if not self._claimed(s, job.id):
                            continue
                        for notice in expand(s, job):
                            self.queue_notice(s, notice)
                except Exception:
                    log.exception("mail: finding who to tell of a %s failed; the job is dropped", job.kind)
                    with self._tx() as s:
                        self._claimed(s, job.id)
            if len(jobs) < BATCH:
                return

    def _send_messages(self) -> int:
        sent = 0
        while True:
            with Session(self.engine) as s:
                rows = s.execute(
                    select(OutboxRow.id, OutboxRow.to_address, OutboxRow.subject, OutboxRow.body)
                    .where(OutboxRow.kind == MESSAGE)
                    .order_by(OutboxRow.id)
                    .limit(BATCH)
                ).all()
            for row_id, to, subject, body in rows:
                with self._tx() as s:
                    if not self._claimed(s, row_id):
                        continue  # another process took it
                # Claimed and committed: from here on it is this process's to send, once.
                notice = Notice(str(to or ""), str(subject or ""), str(body or ""))
                try:
                    self._send(notice)
                    self.sent += 1
                    sent += 1
                except (OSError, smtplib.SMTPException) as exc:
                    # The address is a player's: logged by its domain only.
                    domain = notice.to.rpartition("@")[2]
                    log.warning("mail: sending to an address at %s failed (%s)", domain, exc)
            if len(rows) < BATCH:
                return sent

    @staticmethod
    def _claimed(s: Session, row_id: int) -> bool:
        """Delete the row; whether this transaction did (and so holds it)."""
        result: Any = s.execute(
            delete(OutboxRow).where(OutboxRow.id == row_id).execution_options(synchronize_session=False)
        )
        return int(result.rowcount) == 1

    def _send(self, notice: Notice) -> None:
        config = self.config
        message = EmailMessage()
        message["From"] = config.sender
        message["To"] = notice.to
        message["Subject"] = one_line(notice.subject)
        message.set_content(notice.body)
        with smtplib.SMTP(config.host, config.port, timeout=SEND_TIMEOUT_S) as smtp:
            if config.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if config.user:
                smtp.login(config.user, config.password or "")
            smtp.send_message(message)
