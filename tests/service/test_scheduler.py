"""The scheduler and the change notices in one process: idle games cost no query, a deadline is met
by waking at it, a phase of bots alone is played at once, and a change reaches a waiting mailbox.

Runs on each database of the ``db_url`` fixture (SQLite, and PostgreSQL through LISTEN/NOTIFY).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from interboard.service.api import RateLimits, create_app

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
PLAYERS = {p: p.title() for p in POWERS}
SWEEP = 60.0
"""Longer than any test: what happens, happens without a sweep."""


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, sweep=SWEEP, limits=RateLimits.off())) as c:
        yield c


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_for(what: str, condition: Callable[[], Any], timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)
    return value


def count_queries(client: TestClient) -> list[str]:
    """Every SQL statement the app's engine runs from now on."""
    seen: list[str] = []
    engine = client.app.state.service.engine  # type: ignore[attr-defined]

    def record(*args: Any) -> None:
        seen.append(str(args[2])[:80])

    event.listen(engine, "before_cursor_execute", record)
    return seen


def test_idle_games_cost_no_query_and_the_scheduler_sleeps(client: TestClient) -> None:
    for _ in range(10):
        create(client, seats=PLAYERS)  # no deadline: they wait for every seat's Ready
    scheduler = client.app.state.scheduler  # type: ignore[attr-defined]
    wait_for("the first sweep", lambda: scheduler.wakes >= 1)
    time.sleep(0.2)
    wakes, queries = scheduler.wakes, count_queries(client)
    time.sleep(1.5)
    assert queries == [] and scheduler.wakes == wakes


def test_a_deadline_wakes_the_scheduler_at_it(client: TestClient) -> None:
    game = create(client, seats=PLAYERS, deadlines={"movement": 1})
    scheduler = client.app.state.scheduler  # type: ignore[attr-defined]
    wakes = scheduler.wakes
    started = time.monotonic()
    public = f"/api/games/{game['game_id']}"
    wait_for("the deadline", lambda: client.get(public).json()["phase"] != "S1901M", timeout=10)
    assert time.monotonic() - started >= 0.9
    # Woken for the deadline (and perhaps by the notice of the game's creation), not every tick.
    assert scheduler.wakes - wakes <= 3


def test_a_phase_of_bots_alone_is_played_at_once(client: TestClient) -> None:
    """No one's request and no sweep: each phase processed announces that the next is due."""
    game = create(client, seats={p: "bot:hold" for p in POWERS})
    public = f"/api/games/{game['game_id']}"
    wait_for("three phases played by bots", lambda: client.get(public).json()["phase_index"] >= 3)


def test_a_leaving_player_whose_seat_becomes_the_last_bot_lets_the_phase_go_on(
    client: TestClient,
) -> None:
    seats: dict[str, str] = {p: "bot:hold" for p in POWERS}
    seats["FRANCE"] = "France"
    game = create(client, seats=seats, on_leave="bot:hold")
    public = f"/api/games/{game['game_id']}"
    time.sleep(0.3)
    assert client.get(public).json()["phase_index"] == 0  # France has not said Ready
    token = game["seat_tokens"]["FRANCE"]
    r = client.post(f"{public}/leave", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    wait_for("the bots to play on", lambda: client.get(public).json()["phase_index"] >= 2)


@pytest.mark.anyio
async def test_a_change_reaches_a_mailbox_of_its_game_only(db_url: str) -> None:
    import asyncio

    app = create_app(db_url, sweep=None, limits=RateLimits.off())
    notices, service = app.state.notices, app.state.service
    notices.start(asyncio.get_running_loop())
    try:
        from interboard.service.games import NewGame

        one = await asyncio.to_thread(service.create, NewGame(seats=PLAYERS))
        other = await asyncio.to_thread(service.create, NewGame(seats=PLAYERS))
        other_version = await asyncio.to_thread(service.version, other.game_id)
        with notices.subscribe(one.game_id) as mine, notices.subscribe(other.game_id) as theirs:
            token = one.seat_tokens["FRANCE"]
            await asyncio.to_thread(service.set_ready, one.game_id, token, "S1901M", True)
            ready_version = await asyncio.to_thread(service.version, one.game_id)
            change = await mine.wait(10)
            while change is not None and change.version < ready_version:  # its creation's, late
                change = await mine.wait(10)
            assert change is not None and change.game_id == one.game_id
            assert change.version == ready_version and change.phase == "S1901M"
            # The other game's own creation may still be on its way (PostgreSQL's notices come
            # through the listening connection), but nothing newer.
            theirs_now = await theirs.wait(0.3)
            assert theirs_now is None or theirs_now.version <= other_version
    finally:
        notices.stop()
        service.engine.dispose()


@pytest.mark.anyio
async def test_a_change_made_on_the_loops_own_thread_reaches_a_mailbox_without_a_wake_up(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Most of the seats' writes are made on the event loop itself: their notices are queued on it
    (``call_soon``), not sent through its wake-up file as another thread's must be."""
    import asyncio

    from interboard.service.games import NewGame

    app = create_app(db_url, sweep=None, limits=RateLimits.off())
    notices, service = app.state.notices, app.state.service
    loop = asyncio.get_running_loop()
    notices.start(loop)
    woken: list[object] = []
    threadsafe = loop.call_soon_threadsafe

    def counted(callback: Any, *args: Any, **kwargs: Any) -> Any:
        woken.append(callback)
        return threadsafe(callback, *args, **kwargs)

    try:
        game = await asyncio.to_thread(service.create, NewGame(seats=PLAYERS))
        with notices.subscribe(game.game_id) as mine:
            while await mine.wait(0.3) is not None:  # the creation's notice, if it is on its way
                pass
            monkeypatch.setattr(loop, "call_soon_threadsafe", counted)
            service.set_ready(game.game_id, game.seat_tokens["FRANCE"], "S1901M", True)  # on the loop
            version = service.version(game.game_id)
            change = await mine.wait(10)
            assert change is not None and change.version == version
        if not notices.remote:  # PostgreSQL's notices come through its listener's thread
            assert woken == []
    finally:
        notices.stop()
        service.engine.dispose()
