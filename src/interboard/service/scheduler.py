"""The deadline scheduler: phases are processed when they fall due, and the scheduler sleeps between.

It wakes at the earliest deadline of an active game, when a change notice says a phase became
processable (every seat acting in it is a bot) or brings an earlier deadline, and every ``sweep``
seconds for what a crash may have left due (a phase whose last Ready was stored but not processed).
Idle games cost nothing between: no query runs until one of these comes. Any number of processes
may run a scheduler on one database: processing is exactly-once (``games.py``), so the first to
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
        notices.watch(self._on_change)

    def _on_change(self, change: Change) -> None:
        if change.due:
            self._due.add(change.game_id)
        if change.due or change.resync or (change.deadline is not None and change.deadline < self._wake_at):
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
            except Exception:  # the database is away: try again in a while, never stop
                log.exception("the scheduler could not process due phases")
                self._wake_at = time.time() + min(self.sweep, 5.0)
            else:
                if sweeping:
                    next_sweep = time.time() + self.sweep
                self._wake_at = min(next_sweep, upcoming.timestamp() if upcoming else math.inf)
            # asyncio.timeout, not wait_for: Python 3.11's wait_for can swallow a cancellation
            # that comes as it times out, and the server would never stop.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, self._wake_at - time.time())):
                    await self._wake.wait()
