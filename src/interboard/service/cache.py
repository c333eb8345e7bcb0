"""What the service reads again and again, kept in the process: keyed so that an entry never goes stale.

- A phase's state never changes (processing a phase makes the next, under a new phase index), so
  what the rules say of it (the view of the position, the decision pending, the legal-action trees)
  is kept under (game id, phase index).
- Every change to a game bumps its version, so what the seats and the orders of the phase were is
  kept under (game id, version).

A request still reads the game's head (version, phase index, status) and the token's seat from the
database, so every process answers from the database's present; only what follows from those keys
is taken from here. Entries past the size are dropped, least recently used first.

A read may be asked to use only what is kept (:func:`only_kept`): a missing entry then raises
:class:`NotKept` instead of being made, so the caller can make it elsewhere (the server makes it in
a worker thread, and answers what is kept on the event loop).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Generic, TypeVar

V = TypeVar("V")

_only_kept: ContextVar[bool] = ContextVar("only_kept", default=False)


class NotKept(Exception):
    """What a read under :func:`only_kept` needs is not kept."""


@contextmanager
def only_kept() -> Iterator[None]:
    """Within: a missing entry raises :class:`NotKept` rather than being made."""
    token = _only_kept.set(True)
    try:
        yield
    finally:
        _only_kept.reset(token)


class Lru(Generic[V]):
    """A bounded map from keys to values made on demand, safe to share between threads (two threads
    missing the same key may both make it; the values are equal, one is kept)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key]
            self.misses += 1
        if _only_kept.get():
            raise NotKept(key)
        value = make()  # outside the lock: making may read the database
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._items)
