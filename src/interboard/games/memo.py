"""What a family works out from a state object, kept while that object is in use.

The game master keeps each phase's state object and hands that same object to every call of the
phase (the seats' order checks, their legal-order trees, the view), and a state is never changed
once made. A family may therefore decode a state once, and keep what follows from it, rather than
decode the record again for each seat's request. Entries are found by the object's identity, not its
value: comparing two records costs about as much as decoding one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

V = TypeVar("V")

DEFAULT_SIZE = 256
"""States kept: as many phases as the game master keeps (its ``PHASES_KEPT``). What is kept per seat
needs a multiple of it."""


class ByState(Generic[V]):
    """A bounded map from (a state object, a key) to a value made on demand, least recently used
    dropped first; safe to share between threads. Each entry holds its state object, so that the
    object's id cannot be reused by another while the entry is kept.

    What is kept is shared by every caller: a value must not be changed by whoever gets it."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, Hashable], tuple[Any, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, state: Any, key: Hashable, make: Callable[[], V]) -> V:
        ident = (id(state), key)
        with self._lock:
            kept = self._items.get(ident)
            if kept is not None and kept[0] is state:
                self._items.move_to_end(ident)
                return kept[1]
        value = make()  # outside the lock: two threads may both make it; the values are equal
        with self._lock:
            self._items[ident] = (state, value)
            self._items.move_to_end(ident)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._items)
