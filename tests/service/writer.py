"""A test's stand-in for another thread of the server that is writing."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from interboard.service.games import GameService


@contextmanager
def another_thread_writing(service: GameService) -> Iterator[threading.Event]:
    """Within, another thread holds the service's writer lock, until the event yielded is set or
    the block ends."""
    held, release = threading.Event(), threading.Event()

    def write() -> None:
        with service._writer():
            held.set()
            release.wait(10)

    writer = threading.Thread(target=write)
    writer.start()
    held.wait(10)
    try:
        yield release
    finally:
        release.set()
        writer.join(10)
