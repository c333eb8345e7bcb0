"""What the service reads again and again, kept in the process: keyed so that an entry never goes stale.

- A phase's state never changes (processing a phase makes the next, under a new phase index), so
  what the rules say of it (the view of the position, the decision pending, the legal-action trees)
  is kept under (game id, phase index).
- Every change to a game bumps its version, so what the seats and the orders of the phase were is
  kept under (game id, version).

A request still reads the game's head (version, phase index, status) and the token's seat from the
database, so every process answers from the database's present; only what follows from those keys
is taken from here. Entries past the size are dropped, least recently used first.

A read may be asked not to run the game's rules (:func:`without_rules`): a missing entry that the
rules make (``Lru(size, rules=True)``) then raises :class:`NotKept` instead of being made, so the
caller can make it elsewhere. The server answers such reads on its event loop when the database is
a local file, and places the rules' work (``placement.py``: on the loop while it is quick, else in a
worker thread): only the missing entry's making where that needs nothing of the read
(:attr:`NotKept.make`; then it reads again), else the whole read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from typing import Generic, TypeVar

V = TypeVar("V")

_without_rules: ContextVar[bool] = ContextVar("without_rules", default=False)


class NotKept(Exception):
    """A read under :func:`without_rules` needs what only the rules make, and it is not kept."""

    def __init__(self, key: Hashable, make: Callable[[], None] | None = None) -> None:
        super().__init__(key)
        self.make = make
        """Makes and keeps the missing entry, in any thread; ``None``: its making needs the read
        itself (its database connection), so the whole read must run elsewhere."""


class without_rules:
    """Within: a missing entry that the rules make raises :class:`NotKept` rather than being made.

    A class rather than a ``contextlib.contextmanager`` (named as the function it replaced):
    every seat's view and write enters it, and a generator's context manager costs several times
    the two calls here."""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token = _without_rules.set(True)

    def __exit__(self, *exc: object) -> None:
        _without_rules.reset(self._token)


class Lru(Generic[V]):
    """A bounded map from keys to values made on demand, safe to share between threads (two threads
    missing the same key may both make it; the values are equal, one is kept)."""

    def __init__(self, size: int, rules: bool = False) -> None:
        self.size = size
        self.rules = rules
        """Whether making a value runs the game's rules (not only reads the database)."""
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable, make: Callable[[], V], standalone: bool = False) -> V:
        """The value kept under ``key``, else ``make()`` kept. ``standalone``: ``make`` needs
        nothing of the caller's read (no database connection), so :class:`NotKept` offers it."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key]
            self.misses += 1
        if self.rules and _without_rules.get():
            raise NotKept(key, (lambda: self._keep(key, make())) if standalone else None)
        value = make()  # outside the lock: making may read the database
        self._keep(key, value)
        return value

    def _keep(self, key: Hashable, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)
