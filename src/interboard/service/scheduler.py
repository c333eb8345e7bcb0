"""The deadline scheduler: phases are processed when they fall due, and the scheduler sleeps between.

It wakes at the earliest deadline of an active game, when a change notice says a phase became
processable (every seat acting in it is a bot) or brings an earlier deadline, and every ``sweep``
seconds for what a crash may have left due (a phase whose last Ready was stored but not processed).
With e-mail notices on, it also wakes at the earliest time a deadline's warning is due (the deadline
less the warning's lead) and sends the warnings then due (``GameService.warn_deadlines``).
Idle games cost nothing between: no query runs until one of these comes. Any number of processes
may run a scheduler on one database: processing is exactly-once (``games/processing.py``), so the first to
get there moves the game on and the others find nothing to do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time

from fastapi.concurrency import run_in_threadpool

from .games import GameService
from .notices import Change, Notices

log = logging.getLogger(__name__)


class Scheduler:
    def __init__(self, service: GameService, notices: Notices, sweep: float) -> None:
        self.service = service
        self.sweep = sweep
        self.wakes = 0
        """How many times it woke (for the tests: an idle server must not wake)."""
        self._due: set[str] = set()
        self._wake = asyncio.Event()
        self._wake_at = math.inf
        mail = service.mail
        self._lead = mail.warn_before if mail is not None and mail.warn_before else 0.0
        """Seconds before a deadline that its warning is due (0: no warnings)."""
        notices.watch(self._on_change)

    def _on_change(self, change: Change) -> None:
        if change.due:
            self._due.add(change.game_id)
        # A new deadline may bring its warning, or itself, before the time the scheduler would wake.
        # A warning time already past is not woken for (every write to a game near its deadline would
        # wake it): it was sent, or not wanted, or the next wake finds it.
        sooner = False
        if change.deadline is not None:
            at = change.deadline - self._lead
            sooner = (at if at > time.time() else change.deadline) < self._wake_at
        if change.due or change.resync or sooner:
            self._wake.set()

    async def run(self) -> None:
        next_sweep = time.time()  # the first pass sweeps: the last run may have stopped mid-way
        while True:
            self._wake.clear()  # cleared before looking, so a change that comes meanwhile is not lost
            self.wakes += 1
            sweeping = time.time() >= next_sweep
            due, self._due = self._due, set()
            try:
                await run_in_threadpool(self.service.process_due, sweeping, due)
                upcoming = await run_in_threadpool(self.service.next_deadline)
                warning = None
                if self._lead:
                    await run_in_threadpool(self.service.warn_deadlines)
                    warning = await run_in_threadpool(self.service.next_warning)
            except Exception:  # the database is away: try again in a while, never stop
                log.exception("the scheduler could not process due phases")
                self._wake_at = time.time() + min(self.sweep, 5.0)
            else:
                if sweeping:
                    next_sweep = time.time() + self.sweep
                self._wake_at = min(
                    next_sweep,
                    upcoming.timestamp() if upcoming else math.inf,
                    warning.timestamp() if warning else math.inf,
                )
            # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a cancellation
            # that comes as it times out, and the server would never stop.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, self._wake_at - time.time())):
                    await self._wake.wait()
