"""The event loop's writes in batches (``service/batching.py``), with a stand-in for the database's
batch: which writes share a batch, when each is answered, what a held lock and a failed commit do."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from interboard.service.batching import WriteBatches
from interboard.service.errors import Conflict, WouldWait


class FakeDatabase:
    """Records each batch's writes and whether it committed; a lock held for ``busy`` tries, and a
    commit that fails while ``failing``."""

    def __init__(self, busy: int = 0, failing: bool = False) -> None:
        self.busy, self.failing = busy, failing
        self.open: list[str] | None = None
        self.committed: list[list[str]] = []
        self.tries = 0

    @contextmanager
    def batch(self) -> Iterator[None]:
        self.tries += 1
        if self.busy:
            self.busy -= 1
            raise WouldWait()
        self.open = []
        try:
            yield
            if self.failing:
                raise OSError("disk I/O error")
            self.committed.append(self.open)
        finally:
            self.open = None

    def write(self, name: str) -> str:
        assert self.open is not None, "a write outside a batch"
        self.open.append(name)
        return name.upper()


def run(coroutine: object) -> object:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


def test_writes_asked_for_together_share_one_batch_and_are_answered_after_its_commit() -> None:
    db, sizes = FakeDatabase(), []
    batches = WriteBatches(db.batch, patience_s=1.0, committed=sizes.append)

    async def main() -> list[str | None]:
        return await asyncio.gather(*(batches.write(db.write, name) for name in ("a", "b", "c")))

    assert run(main()) == ["A", "B", "C"]
    assert db.committed == [["a", "b", "c"]]
    assert sizes == [3]


def test_a_write_asked_for_after_a_batch_goes_into_the_next() -> None:
    db = FakeDatabase()
    batches = WriteBatches(db.batch, patience_s=1.0)

    async def main() -> list[str | None]:
        first = await batches.write(db.write, "a")
        assert db.committed == [["a"]]  # answered only once committed
        return [first, await batches.write(db.write, "b")]

    assert run(main()) == ["A", "B"]
    assert db.committed == [["a"], ["b"]]


def test_a_refused_write_gets_its_own_error_and_leaves_the_others() -> None:
    db, sizes = FakeDatabase(), []
    batches = WriteBatches(db.batch, patience_s=1.0, committed=sizes.append)

    def refused(name: str) -> str:
        raise Conflict(f"{name}: the phase moved on")

    async def main() -> list[object]:
        return await asyncio.gather(
            batches.write(db.write, "a"), batches.write(refused, "b"), batches.write(db.write, "c"),
            return_exceptions=True,
        )  # fmt: skip

    first, second, third = run(main())  # type: ignore[misc]
    assert (first, third) == ("A", "C")
    assert isinstance(second, Conflict) and "b: the phase moved on" in str(second)
    assert db.committed == [["a", "c"]] and sizes == [2]  # the refused write is not counted


def test_a_failed_commit_fails_every_write_of_its_batch() -> None:
    db = FakeDatabase(failing=True)
    batches = WriteBatches(db.batch, patience_s=1.0)

    async def main() -> list[object]:
        return await asyncio.gather(
            batches.write(db.write, "a"), batches.write(db.write, "b"), return_exceptions=True
        )

    answers = run(main())
    assert [type(a) for a in answers] == [OSError, OSError]  # type: ignore[attr-defined]
    assert db.committed == []


def test_a_held_lock_is_waited_for_then_the_batch_is_written() -> None:
    db = FakeDatabase(busy=3)
    batches = WriteBatches(db.batch, patience_s=1.0)

    async def main() -> list[str | None]:
        return await asyncio.gather(batches.write(db.write, "a"), batches.write(db.write, "b"))

    assert run(main()) == ["A", "B"]
    assert db.tries == 4 and db.committed == [["a", "b"]]


def test_a_lock_held_past_the_patience_answers_none_and_writes_nothing() -> None:
    db = FakeDatabase(busy=1000)
    batches = WriteBatches(db.batch, patience_s=0.01)

    async def main() -> str | None:
        return await batches.write(db.write, "a")

    assert run(main()) is None  # the caller writes in a worker thread
    assert db.committed == [] and 2 < db.tries < 100


def test_each_write_runs_in_its_own_requests_context() -> None:
    request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="none")
    db = FakeDatabase()
    batches = WriteBatches(db.batch, patience_s=1.0)

    def write(name: str) -> str:
        return db.write(f"{name} in {request_id.get()}")

    async def request(name: str) -> str | None:
        request_id.set(f"request {name}")
        return await batches.write(write, name)

    async def main() -> list[str | None]:
        return await asyncio.gather(request("a"), request("b"))

    assert run(main()) == ["A IN REQUEST A", "B IN REQUEST B"]
    assert db.committed == [["a in request a", "b in request b"]]


def test_a_cancelled_request_does_not_stop_the_others_answers() -> None:
    db = FakeDatabase(busy=1)
    batches = WriteBatches(db.batch, patience_s=1.0)

    async def main() -> str | None:
        gone = asyncio.ensure_future(batches.write(db.write, "a"))
        kept = asyncio.ensure_future(batches.write(db.write, "b"))
        await asyncio.sleep(0)
        gone.cancel()
        with pytest.raises(asyncio.CancelledError):
            await gone
        return await kept

    assert run(main()) == "B"
    assert db.committed == [["a", "b"]]  # a write asked for is written, its request gone or not
