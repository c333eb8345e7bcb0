"""The event loop's writes, made in batches: one transaction, and one commit, for the writes that
come due together.

On SQLite with ``synchronous=full`` a commit waits for the disk (an fsync), and the event loop
waits with it: under the game load of ``bench/bench_server.py`` a worker's loop thread spent 8 % of
the time in ``fdatasync``, answering nothing meanwhile (``docs/server.md``). A write asked of
:class:`WriteBatches` is queued, and the queue is written at the loop's next turn: the writes whose
requests arrived together share one transaction and one commit, each in a savepoint of its own, so
that one refused write leaves the others (``GameService.write_batch``). Each is answered once the
batch is committed, never before.

When another process holds the database's lock, the batch gives way at once (:class:`WouldWait`)
and is tried again 0.5, 1, then every 2 ms: another process holds the lock for its own batch, a
millisecond or two, and a longer step made the writes' p99 (``docs/server.md``). After
``patience_s`` its writes are answered ``None``, and their callers write in a worker thread, which
waits for the lock.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from .errors import WouldWait

T = TypeVar("T")

FIRST_DELAY_S = 0.0005
LONGEST_DELAY_S = 0.002


class WriteBatches:
    """Batches of writes on the running event loop. ``batch()`` opens a batch's transaction (and
    commits it when left without error; :class:`WouldWait` if a lock is held); ``committed(n)`` is
    told of each commit and how many writes it kept."""

    def __init__(
        self,
        batch: Callable[[], AbstractContextManager[None]],
        patience_s: float,
        committed: Callable[[int], None] = lambda writes: None,
    ) -> None:
        self._batch = batch
        self._patience_s = patience_s
        self._committed = committed
        self._due: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = []

    async def write(self, write: Callable[..., T], *args: Any) -> T | None:
        """``write(*args)``, in the next batch, in the caller's context (its log fields); its value
        once the batch is committed. ``None`` if the lock stayed held for ``patience_s``."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[T | None] = loop.create_future()
        context = contextvars.copy_context()
        self._due.append((lambda: context.run(write, *args), answer))
        if len(self._due) == 1:
            loop.call_soon(self._write_due, FIRST_DELAY_S, 0.0)
        return await answer

    def _write_due(self, delay: float, waited: float) -> None:
        due = list(self._due)
        outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        try:
            with self._batch():
                for write, answer in due:
                    try:
                        outcomes.append((answer, write(), None))
                    except Exception as exc:  # this write's own error: its savepoint rolled back
                        outcomes.append((answer, None, exc))
        except WouldWait:
            if waited < self._patience_s:
                loop = asyncio.get_running_loop()
                loop.call_later(delay, self._write_due, min(2 * delay, LONGEST_DELAY_S), waited + delay)
                return
            outcomes = [(answer, None, None) for _, answer in due]  # a worker thread will wait
        except Exception as exc:  # the batch failed (its commit, say): none of its writes was kept
            outcomes = [(answer, None, exc) for _, answer in due]
        else:  # the writes kept: not those refused, nor those that need a worker thread (None)
            self._committed(sum(error is None and value is not None for _, value, error in outcomes))
        del self._due[: len(due)]  # the writes asked for meanwhile stay, for the next batch
        for answer, value, error in outcomes:
            _answer(answer, value, error)
        if self._due:
            asyncio.get_running_loop().call_soon(self._write_due, FIRST_DELAY_S, 0.0)


def _answer(answer: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if answer.done():  # its request was cancelled
        return
    if error is None:
        answer.set_result(value)
    else:
        answer.set_exception(error)
