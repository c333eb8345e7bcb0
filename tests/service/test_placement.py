"""Placement: where the rules' work runs, and the CPU it took, told to the caller once measured."""

from __future__ import annotations

import asyncio
import threading

from interboard.service.placement import Placement


def test_the_caller_is_told_the_cpu_the_work_took_on_the_loop_and_in_a_thread() -> None:
    ticks = iter([1.0, 1.25, 2.0, 2.003, 5.0, 5.004])  # each run reads the clock twice
    placement = Placement(budget_s=0.005, clock=lambda: next(ticks))
    told: list[float] = []
    threads: list[bool] = []

    def work() -> str:
        threads.append(threading.current_thread() is threading.main_thread())
        return "done"

    async def three_runs() -> list[str]:
        return [await placement.run("tree", work, told.append) for _ in range(3)]

    assert asyncio.run(three_runs()) == ["done"] * 3
    # Not seen before: a worker thread (0.25 s); then slow: a thread again (0.003 s, half of
    # 0.25 still held against it); the third still in a thread (0.125 > the budget).
    assert threads == [False, False, False]
    assert [round(t, 6) for t in told] == [0.25, 0.003, 0.004]
    placement = Placement(budget_s=0.005, clock=lambda: 0.0)
    asyncio.run(placement.run("view", work))  # no one to tell: nothing asked
    assert asyncio.run(placement.run("view", work, told.append)) == "done"
    assert threads[-1] is True and told[-1] == 0.0  # quick: on the loop, and still told
