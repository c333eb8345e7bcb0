"""E-mail notices to accounts, sent through an SMTP server by a thread of their own.

Nothing here runs in a request or in the scheduler: they only :meth:`Mailer.submit` a job (a
function that reads who is to be told and returns the messages), and the mail thread runs it and
sends what it returns. The queue is bounded: past it a job is dropped and logged, so a mail server
that hangs never holds the game master up. A failed job or send is logged (never the message's
text or an address's password) and the thread goes on.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import smtplib
import ssl
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from email.message import EmailMessage

log = logging.getLogger(__name__)

QUEUE_SIZE = 1000
"""Jobs waiting to be sent at most."""
SEND_TIMEOUT_S = 30.0
"""How long one SMTP conversation may take before it is given up (and logged)."""
SUBJECT_MAX = 200


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


Job = Callable[[], Iterable[Notice]]


def one_line(text: str, limit: int = SUBJECT_MAX) -> str:
    """Text fit for a header: no line breaks (a title may hold them), bounded."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class Mailer:
    def __init__(self, config: MailConfig) -> None:
        self.config = config
        self._jobs: queue.Queue[Job | None] = queue.Queue(QUEUE_SIZE)
        self._thread: threading.Thread | None = None
        self.sent = 0
        """Messages the SMTP server took (for the tests and the logs)."""

    def submit(self, job: Job) -> None:
        """Queue a job; never blocks."""
        try:
            self._jobs.put_nowait(job)
        except queue.Full:
            log.warning("mail notices: the queue is full; a notice was dropped")

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="interboard-mail", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Send what is queued (for up to ``timeout`` seconds), then stop."""
        if self._thread is not None:
            with contextlib.suppress(queue.Full):
                self._jobs.put(None, timeout=timeout)
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            try:
                notices = list(job())
            except Exception:
                log.exception("mail notices: finding who to tell failed")
                continue
            for notice in notices:
                try:
                    self._send(notice)
                    self.sent += 1
                except (OSError, smtplib.SMTPException) as exc:
                    # The address is a player's: logged by its domain only.
                    domain = notice.to.rpartition("@")[2]
                    log.warning("mail notices: sending to an address at %s failed (%s)", domain, exc)

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
