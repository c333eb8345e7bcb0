"""Where a request's work of the game's rules runs: on the event loop, or in a worker thread.

A worker thread does not keep the event loop free while it works. The two take turns holding the
interpreter, a switch interval (5 ms) at a time: every request the loop answers meanwhile may wait
for the worker's turn, and the worker's work waits for the loop's, so a legal-order tree that takes
half a millisecond of CPU took tens of milliseconds in a thread under load. The hop itself also
costs more than short work. So work that has lately taken less than a switch interval of CPU runs
on the loop, where it delays the loop no longer than a thread's turn would; longer work (a family's
slow adjudication, a bot that thinks) goes to a worker thread. What the work took is kept per kind
of work and game: work not seen before goes to a thread, and one slow run sends the next ones there
too, until runs measured since show it quick again.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

from fastapi.concurrency import run_in_threadpool

T = TypeVar("T")

KINDS_KEPT = 4096
"""How many kinds of work (kind, game) are remembered; the least recently seen are forgotten."""
FORGET = 0.5
"""How much of a slow run's cost is still held against its kind after each later, quicker run."""


class Placement:
    """Runs work on the event loop when its kind has lately been quick, else in a worker thread.

    ``budget_s``: the most CPU time a kind's recent runs may have taken to run on the loop (``None``:
    the interpreter's switch interval). ``clock``: the CPU time of the calling thread."""

    def __init__(self, budget_s: float | None = None, clock: Callable[[], float] = time.thread_time) -> None:
        self.budget_s = sys.getswitchinterval() if budget_s is None else budget_s
        self.clock = clock
        self._cost: OrderedDict[Hashable, float] = OrderedDict()
        self._lock = threading.Lock()

    def quick(self, kind: Hashable) -> bool:
        """Whether work of this kind runs on the loop now."""
        with self._lock:
            cost = self._cost.get(kind)
        return cost is not None and cost <= self.budget_s

    async def run(
        self, kind: Hashable, work: Callable[[], T], spent: Callable[[float], None] | None = None
    ) -> T:
        """``work()``, on the loop or in a worker thread (:meth:`quick`), its CPU time noted.
        ``spent``: told that CPU time too (the caller's own count of it: the clock is read once,
        where a second timing of the same work would read it twice more, a system call each)."""
        if self.quick(kind):
            return self._timed(kind, work, spent)
        return await run_in_threadpool(self._timed, kind, work, spent)

    def _timed(self, kind: Hashable, work: Callable[[], T], spent: Callable[[float], None] | None) -> T:
        started = self.clock()
        try:
            return work()
        finally:
            cost = self.clock() - started
            self._note(kind, cost)
            if spent is not None:
                spent(cost)

    def _note(self, kind: Hashable, cost: float) -> None:
        with self._lock:
            before = self._cost.get(kind)
            self._cost[kind] = cost if before is None else max(cost, before * FORGET)
            self._cost.move_to_end(kind)
            while len(self._cost) > KINDS_KEPT:
                self._cost.popitem(last=False)
