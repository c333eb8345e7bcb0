"""The service layer with a controlled clock: deadlines, pause, restart, exactly-once processing."""

from __future__ import annotations

import contextvars
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pydantic_core import to_json
from sqlalchemy import Connection, Engine, func, select

from interboard.service.cache import NotKept
from interboard.service.errors import Conflict, Invalid, WouldWait
from interboard.service.games import GameService, NewGame
from interboard.service.games.core import AT_ONCE_BUSY_WAIT_MS
from interboard.service.games.statements import SET_READY
from interboard.service.models import PhaseRow
from interboard.service.store import SQLITE_BUSY_TIMEOUT_S, open_store

from .writer import another_thread_writing

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def _game(service: GameService, **kw: object) -> tuple[str, dict[str, str], str]:
    created = service.create(NewGame(seats={p: p.title() for p in POWERS}, **kw))  # type: ignore[arg-type]
    return created.game_id, created.seat_tokens, created.gm_token


def test_deadline_processes_with_default_orders(store: Engine) -> None:
    clock = Clock()
    service = GameService(store, clock)
    gid, tokens, _ = _game(service, deadlines={"movement": 600})
    service.submit(gid, tokens["FRANCE"], "S1901M", ["A Par - Bur"])
    assert service.process_due() == []  # not yet due, nobody ready
    clock.advance(599)
    assert not service.try_process(gid)
    clock.advance(2)
    assert service.process_due() == [gid]
    view = service.public_view(gid)
    assert view["phase"] == "F1901M"
    assert "A BUR" in view["position"]["units"]["FRANCE"]
    assert "A MUN" in view["position"]["units"]["GERMANY"]  # no orders: it held
    assert datetime.fromisoformat(view["deadline"]) == clock.now + timedelta(seconds=600)


def test_pause_keeps_the_time_left_and_restart_keeps_everything(db_url: str) -> None:
    clock = Clock()
    service = GameService(open_store(db_url), clock)
    gid, tokens, gm = _game(service, deadlines={"movement": 600})
    service.submit(gid, tokens["ENGLAND"], "S1901M", ["F Lon - Nth"])
    clock.advance(500)
    service.pause(gid, gm)
    clock.advance(10_000)
    assert service.process_due() == []
    # A new process on the same database: accepted orders and the paused deadline survive.
    service = GameService(open_store(db_url), clock)
    service.resume(gid, gm)
    assert datetime.fromisoformat(service.public_view(gid)["deadline"]) == clock.now + timedelta(seconds=100)
    assert service.seat_view(gid, tokens["ENGLAND"])["seat"]["orders"] == ["F Lon - Nth"]
    clock.advance(101)
    assert service.process_due() == [gid]
    assert "F NTH" in service.public_view(gid)["position"]["units"]["ENGLAND"]


def test_a_phase_is_processed_once_by_concurrent_processors(db_url: str) -> None:
    clock = Clock()
    service = GameService(open_store(db_url), clock)
    gid, _tokens, _ = _game(service, deadlines={"movement": 60})
    clock.advance(61)
    # Several processors (each with its own engine, as separate server processes would have)
    # race for the same due phase.
    processors = [GameService(open_store(db_url), clock) for _ in range(4)]
    wins: list[bool] = []
    barrier = threading.Barrier(len(processors))

    def run(p: GameService) -> None:
        barrier.wait()
        try:
            wins.append(p.try_process(gid))
        except Exception as exc:  # a lock timeout would be a failure of the design
            wins.append(False)
            raise AssertionError(exc) from exc

    threads = [threading.Thread(target=run, args=(p,)) for p in processors]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wins) == [False, False, False, True]
    with service.engine.connect() as conn:
        count = conn.execute(
            select(func.count()).select_from(PhaseRow).where(PhaseRow.game_id == gid)
        ).scalar()
    assert count == 1
    assert service.public_view(gid)["phase"] == "F1901M"


def test_orders_racing_the_deadline_are_refused_as_stale(store: Engine) -> None:
    clock = Clock()
    service = GameService(store, clock)
    gid, tokens, _ = _game(service, deadlines={"movement": 60})
    clock.advance(61)
    service.process_due()
    with pytest.raises(Conflict, match="for S1901M, but the game is in F1901M"):
        service.submit(gid, tokens["FRANCE"], "S1901M", ["A Par - Bur"])


def test_bot_seats_are_always_ready(store: Engine) -> None:
    service = GameService(store)
    seats = {p: "bot" for p in POWERS}
    seats["FRANCE"] = "Alice"
    created = service.create(NewGame(seats=seats))
    gid = created.game_id
    assert not service.try_process(gid)  # France is not ready
    service.set_ready(gid, created.seat_tokens["FRANCE"], "S1901M", True)
    assert service.try_process(gid)
    assert service.public_view(gid)["phase"] == "F1901M"


def test_twin_earths_three_winter_with_links(store: Engine) -> None:
    service = GameService(store)
    info = next(v for v in service.variants() if v["id"] == "twin_earths_3")
    created = service.create(
        NewGame(variant="twin_earths_3", options={"link_limit": 5}, seats={p: p for p in info["seats"]})
    )
    gid, tokens = created.game_id, created.seat_tokens
    assert service.public_view(gid)["phase"] == "W1900A"
    service.submit(gid, tokens["GERMANY-Y"], "W1900A", ["Build A Munich-Y", "LINK Kie-Y Hel-Z"])
    with pytest.raises(Invalid) as info_:
        service.submit(gid, tokens["FRANCE-Z"], "W1900A", ["LINK Par-Z Mun-Y"])
    assert "Munich Y is in the homeland of GERMANY-Y" in info_.value.details[0]["error"]
    for _seat, token in tokens.items():
        service.set_ready(gid, token, "W1900A", True)
    assert service.try_process(gid)
    view = service.public_view(gid)
    assert view["phase"] == "S1901M"
    assert view["position"]["links"] == [["HEL-Z", "KIE-Y"]] or view["position"]["links"] == [
        ["KIE-Y", "HEL-Z"]
    ]
    assert "A MUN-Y" in view["position"]["units"]["GERMANY-Y"]


def test_missed_orders_wait_extends_the_deadline_once(store: Engine) -> None:
    clock = Clock()
    service = GameService(store, clock)
    gid, tokens, _ = _game(service, deadlines={"movement": 600}, missed_orders="wait")
    for p in POWERS:
        if p != "TURKEY":
            service.submit(gid, tokens[p], "S1901M", [])
    clock.advance(601)
    assert service.process_due() == []  # Turkey has not ordered: one more period
    assert datetime.fromisoformat(service.public_view(gid)["deadline"]) == clock.now + timedelta(seconds=600)
    clock.advance(601)
    assert service.process_due() == [gid]  # waited once; now the defaults apply
    assert service.public_view(gid)["phase"] == "F1901M"


def test_unknown_missed_orders_policy_is_refused(store: Engine) -> None:
    with pytest.raises(Invalid, match="missed_orders must be one of default, wait"):
        GameService(store).create(NewGame(missed_orders="panic"))


def test_orders_checked_while_the_phase_is_processed_are_never_lost(db_url: str) -> None:
    """Regression: on SQLite an order could be stored for a phase another process had just ended.

    Now an order is either refused (SQLite: the stale write fails its version check) or used by
    the processing it raced (PostgreSQL: the processor waits for the row lock); never accepted and
    then dropped."""
    from interboard.games.diplomacy.family import DiplomacyFamily

    service = GameService(open_store(db_url))
    other = GameService(open_store(db_url))
    created = service.create(NewGame(seats={p: p for p in POWERS}, deadlines={"movement": 3600}))
    check = DiplomacyFamily.check
    workers: list[threading.Thread] = []

    def slow_check(self: DiplomacyFamily, *args: object) -> list[str | None]:
        DiplomacyFamily.check = check  # type: ignore[method-assign]
        worker = threading.Thread(target=other.try_process, args=(created.game_id, True))
        workers.append(worker)
        worker.start()
        worker.join(2)  # on PostgreSQL it waits for our row lock instead
        return check(self, *args)  # type: ignore[arg-type]

    DiplomacyFamily.check = slow_check  # type: ignore[method-assign]
    try:
        service.submit(created.game_id, created.seat_tokens["FRANCE"], "S1901M", ["A Par - Bur"])
        accepted = True
    except Conflict:
        accepted = False
    finally:
        DiplomacyFamily.check = check  # type: ignore[method-assign]
        for w in workers:
            w.join(30)
    assert service.public_view(created.game_id)["phase"] == "F1901M"
    used = service.history(created.game_id)[0]["orders"]
    assert used == ({"FRANCE": ["A Par - Bur"]} if accepted else {})
    assert service.seat_view(created.game_id, created.seat_tokens["FRANCE"])["seat"]["orders"] == []


def _all_at_once(work: Callable[[str], None]) -> list[Exception]:
    """Run ``work(power)`` for every power in its own thread, released together; the errors."""
    start = threading.Barrier(len(POWERS))
    errors: list[Exception] = []

    def run(power: str) -> None:
        start.wait()
        try:
            work(power)
        except Exception as exc:  # collected: an exception in a thread would otherwise be lost
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(p,)) for p in POWERS]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_seats_writing_at_the_same_moment_are_all_kept(db_url: str) -> None:
    """Seven seats order, press ready, write press and vote a draw at the same moment: none is refused.

    Without a row lock (SQLite) such writes race on the game's version; the losers are run again."""
    service = GameService(open_store(db_url))
    gid, tokens, _ = _game(service)

    def ready_and_write(power: str) -> None:
        service.submit(gid, tokens[power], "S1901M", [])
        service.set_ready(gid, tokens[power], "S1901M", True)
        service.send_message(gid, tokens[power], None, f"{power} is ready")

    assert _all_at_once(ready_and_write) == []
    assert all(service.seat_view(gid, tokens[p])["seat"]["ready"] for p in POWERS)
    assert sorted(m["body"] for m in service.messages(gid, tokens["FRANCE"])) == sorted(
        f"{p} is ready" for p in POWERS
    )
    assert _all_at_once(lambda power: service.vote_draw(gid, tokens[power], "S1901M", True)) == []
    assert service.public_view(gid)["status"] == "finished"  # every vote landed


def test_a_battle_decision_asked_out_of_turn_defaults_at_its_deadline(store: Engine) -> None:
    """Axis & Allies: Germany attacks; the USSR, not moving, is asked for its casualties and gives no
    answer: at the deadline of the decision the cheapest casualties are taken for it."""
    clock = Clock()
    service = GameService(store, clock)
    seats = {p: p.title() for p in ("GERMANY", "USSR", "UK", "USA")}
    created = service.create(
        NewGame(variant="aa_europe_1999", seed=3, seats=seats, deadlines={"decision": 60})
    )
    gid, tokens = created.game_id, created.seat_tokens

    def step(orders: list[str]) -> None:
        phase = service.public_view(gid)["phase"]
        service.submit(gid, tokens["GERMANY"], phase, orders)
        service.set_ready(gid, tokens["GERMANY"], phase, True)
        service.try_process(gid)

    step([])  # the purchase
    step(["move 3 infantry, 1 artillery, 1 armour from Hungary to Bessarabia"])
    view = service.public_view(gid)
    assert view["acting"] == ["GERMANY", "USSR"] and ".combat." in view["phase"]
    asked = view["phase"]
    service.set_ready(gid, tokens["GERMANY"], asked, True)
    assert not service.try_process(gid)  # the USSR has not answered and its time is not up
    clock.advance(61)
    assert service.process_due() == [gid]
    history = service.history(gid)
    record = next(h for h in history if h["phase"] == asked)
    defaults = [r for r in record["results"] if r["power"] == "USSR"]
    assert defaults and all(r.get("default") for r in defaults) and defaults[0]["order"].startswith("lose ")


def test_a_view_made_without_the_rules_is_the_view_made_afresh(store: Engine) -> None:
    """:meth:`GameService.without_rules` (the server's answer on the event loop) reads the database
    but runs no rules: it answers once what the rules say of the phase is kept, and then exactly
    what a fresh service makes."""
    service = GameService(store)
    gid, tokens, _ = _game(service)
    france = tokens["FRANCE"]
    cold = GameService(store)  # another process: the phase is not described there yet
    for read in (cold.seat_view, cold.options):
        with pytest.raises(NotKept) as missing:
            cold.without_rules(read, gid, france)
        assert missing.value.make is None  # the phase's state is read with its description
    made = cold.seat_view(gid, france)
    assert cold.without_rules(cold.seat_view, gid, france) == made == service.seat_view(gid, france)
    assert service.without_rules(service.seat_view, gid, france) == made
    service.submit(gid, france, "S1901M", ["A Par - Bur"])
    service.set_ready(gid, france, "S1901M", True)
    # A new version of the same phase: read again from the database, with no rules work.
    fresh = GameService(store)
    view = service.without_rules(service.seat_view, gid, france)
    assert view == fresh.seat_view(gid, france)
    assert view is not None and view["seat"]["orders"] == ["A Par - Bur"] and view["seat"]["ready"]
    assert view["submitted"] == ["FRANCE"] and view != made
    assert service.without_rules(service.public_view, gid) == fresh.public_view(gid)
    # The tree for the orders now saved is the rules' work: made once, then kept.
    with pytest.raises(NotKept) as missing:
        service.without_rules(service.options, gid, france)
    assert missing.value.make is not None
    maker = threading.Thread(target=missing.value.make)  # made anywhere, without the read
    maker.start()
    maker.join(10)
    assert service.without_rules(service.options, gid, france) == fresh.options(gid, france)
    for power in POWERS:
        service.set_ready(gid, tokens[power], "S1901M", True)
    assert service.try_process(gid)
    with pytest.raises(NotKept):  # a new phase to describe
        service.without_rules(service.seat_view, gid, france)


def test_a_ready_that_leaves_others_to_wait_for_processes_nothing_and_the_last_one_processes(
    store: Engine,
) -> None:
    service = GameService(store)
    gid, tokens, _ = _game(service)
    for power in POWERS[:-1]:
        service.set_ready(gid, tokens[power], "S1901M", True)
        assert not service.try_process(gid)
    assert service.public_view(gid)["phase"] == "S1901M"
    service.set_ready(gid, tokens[POWERS[-1]], "S1901M", True)
    assert service.try_process(gid)
    assert service.public_view(gid)["phase"] == "F1901M"


def test_a_write_at_once_waits_at_most_briefly_and_leaves_the_seat_as_it_was_when_it_would(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The event loop's writes (:meth:`GameService.set_ready_at_once`, :meth:`submit_at_once`) are
    done only when nothing is to wait for, or another process's write at most for
    :data:`AT_ONCE_BUSY_WAIT_MS` (SQLite's busy timeout in that transaction); else they say so
    (:class:`WouldWait`, or ``None`` where the rules must describe the phase first) and write
    nothing, and the worker thread's write waits as before (the connection's busy timeout is set
    back)."""
    url = f"sqlite:///{tmp_path / 'g.sqlite'}"
    service = GameService(open_store(url))
    gid, tokens, _ = _game(service)
    france = tokens["FRANCE"]
    cold = GameService(service.engine)  # another process: the phase is not described there
    assert cold.set_ready_at_once(gid, france, "S1901M", True) is None
    service.seat_view(gid, france)
    # Another thread of this process is writing.
    with another_thread_writing(service):
        with pytest.raises(WouldWait):
            service.set_ready_at_once(gid, france, "S1901M", True)
        with pytest.raises(WouldWait):
            service.submit_at_once(gid, france, "S1901M", ["A Par - Bur"])
    # Another process is writing (it holds the file's write lock).
    other = sqlite3.connect(tmp_path / "g.sqlite", check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(WouldWait):
        service.set_ready_at_once(gid, france, "S1901M", True)
    with pytest.raises(WouldWait):
        service.submit_at_once(gid, france, "S1901M", ["A Par - Bur"])
    assert time.monotonic() - started < 1.0
    view = service.seat_view(gid, france)
    assert not view["seat"]["ready"] and view["seat"]["orders"] == []
    # The write in a thread waits for the other process, as before.
    threading.Timer(0.3, other.rollback).start()
    service.set_ready(gid, france, "S1901M", True)
    other.close()
    # Nothing to wait for: done at once.
    assert service.submit_at_once(gid, france, "S1901M", ["A Par - Bur"]) == [
        {"order": "A Par - Bur", "ok": True, "error": None}
    ]
    assert service.set_ready_at_once(gid, france, "S1901M", False) is False  # not due: others wait
    view = service.seat_view(gid, france)
    assert view["seat"]["orders"] == ["A Par - Bur"] and not view["seat"]["ready"]
    # The busy timeout each write ran with: brief at once, the pool's in a thread.
    timeouts: list[int] = []
    run = SET_READY.run

    def noting_the_timeout(conn: Connection, parameters: dict[str, object]) -> int:
        timeouts.append(conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one())
        return run(conn, parameters)

    monkeypatch.setattr(SET_READY, "run", noting_the_timeout)
    service.set_ready_at_once(gid, france, "S1901M", True)
    service.set_ready(gid, france, "S1901M", False)
    assert timeouts == [AT_ONCE_BUSY_WAIT_MS, int(SQLITE_BUSY_TIMEOUT_S * 1000)]


def test_the_event_loops_writes_in_a_batch_share_one_commit_and_a_refused_one_leaves_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:meth:`GameService.write_batch`: the at-once writes made inside it are one transaction, unseen
    by other connections until the batch commits; a write refused inside it is rolled back alone
    (its savepoint); the changes are announced only once committed."""
    path = tmp_path / "g.sqlite"
    service = GameService(open_store(f"sqlite:///{path}"))
    gid, tokens, _ = _game(service)
    service.seat_view(gid, tokens["FRANCE"])  # the phase described: the writes can be done at once
    other = sqlite3.connect(path)

    def stored() -> list[tuple[str, str]]:
        return sorted(other.execute("SELECT seat, orders FROM orders").fetchall())

    # Each announcement, with what the database holds then and the request it was made for (the
    # context the write ran in: a line logged after the commit carries that request's fields).
    request: contextvars.ContextVar[str] = contextvars.ContextVar("request", default="none")
    announced: list[tuple[str, int, list[tuple[str, str]], str]] = []
    committed = service.notices.committed
    monkeypatch.setattr(
        service.notices,
        "committed",
        lambda changes: (
            announced.extend((c.game_id, c.version, stored(), request.get()) for c in changes),
            committed(changes),
        ),
    )
    version = service.public_view(gid)["version"]
    with service.write_batch():
        request.set("france's orders")
        france = service.submit_at_once(gid, tokens["FRANCE"], "S1901M", ["A Par - Bur"])
        request.set("italy's")
        with pytest.raises(Conflict, match="for F1901M"):
            service.submit_at_once(gid, tokens["GERMANY"], "F1901M", ["A Ber - Kie"])
        italy = service.submit_at_once(gid, tokens["ITALY"], "S1901M", ["A Rom - Apu"])
        # A write that fails after its statement ran: that statement is undone, the others stay.
        may_be_due = service._may_be_due
        monkeypatch.setattr(service, "_may_be_due", lambda *a: (_ for _ in ()).throw(RuntimeError("x")))
        with pytest.raises(RuntimeError):
            service.set_ready_at_once(gid, tokens["GERMANY"], "S1901M", True)
        monkeypatch.setattr(service, "_may_be_due", may_be_due)
        ready = service.set_ready_at_once(gid, tokens["ITALY"], "S1901M", True)
        assert stored() == [] and announced == []  # not committed yet
    assert france == [{"order": "A Par - Bur", "ok": True, "error": None}]
    assert italy == [{"order": "A Rom - Apu", "ok": True, "error": None}] and ready is False
    orders = [("FRANCE", '["A Par - Bur"]'), ("ITALY", '["A Rom - Apu"]')]
    assert stored() == orders
    # Three changes, each announced once the batch was committed, with all of it in the database.
    whose = ["france's orders", "italy's", "italy's"]
    assert announced == [(gid, version + n, orders, whose[n - 1]) for n in (1, 2, 3)]
    view = service.seat_view(gid, tokens["ITALY"])
    assert view["seat"]["ready"] and view["seat"]["orders"] == ["A Rom - Apu"]
    germany = service.seat_view(gid, tokens["GERMANY"])["seat"]
    assert germany["orders"] == [] and not germany["ready"]
    other.close()


def test_a_batch_that_fails_keeps_none_of_its_writes_and_one_gives_way_to_another_process(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.sqlite"
    service = GameService(open_store(f"sqlite:///{path}"))
    gid, tokens, _ = _game(service)
    france = tokens["FRANCE"]
    service.seat_view(gid, france)
    with pytest.raises(RuntimeError, match="the batch broke"), service.write_batch():
        service.submit_at_once(gid, france, "S1901M", ["A Par - Bur"])
        raise RuntimeError("the batch broke")
    assert service.seat_view(gid, france)["seat"]["orders"] == []
    # Another process holds the file's write lock: the batch gives way at once, writing nothing.
    other = sqlite3.connect(path, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(WouldWait), service.write_batch():
        raise AssertionError("a batch opened while another process writes")
    assert time.monotonic() - started < 1.0
    other.rollback()
    other.close()
    # A worker thread's write, meanwhile, is not made in the loop's batch: it waits for it.
    written: list[object] = []
    with service.write_batch():
        thread = threading.Thread(
            target=lambda: written.append(service.submit(gid, france, "S1901M", ["A Par - Pic"]))
        )
        thread.start()
        thread.join(0.3)
        assert thread.is_alive() and written == []  # waiting for the batch's lock
        service.submit_at_once(gid, france, "S1901M", ["A Par - Bur"])
    thread.join(10)
    assert written == [[{"order": "A Par - Pic", "ok": True, "error": None}]]
    assert service.seat_view(gid, france)["seat"]["orders"] == ["A Par - Pic"]  # it came after


def test_orders_given_while_the_rules_work_out_a_phase_wait_for_nothing_and_are_used(
    store: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Processing holds no lock while the rules work: it claims the game afterwards, where the
    version is still the one it read. A seat that writes meanwhile is answered at once, and the
    phase is worked out again with what it wrote."""
    from interboard.games.diplomacy.family import DiplomacyFamily

    service = GameService(store)
    gid, tokens, _ = _game(service)
    for power in POWERS:
        service.set_ready(gid, tokens[power], "S1901M", True)
    process = DiplomacyFamily.process
    given: list[dict[str, list[str]]] = []
    answers: list[object] = []

    def process_while_france_orders(self: DiplomacyFamily, state: object, orders: object) -> object:
        given.append(dict(orders))  # type: ignore[call-overload]
        if len(given) == 1:
            order = service.submit_at_once if service.local_file else service.submit
            france = threading.Thread(
                target=lambda: answers.append(order(gid, tokens["FRANCE"], "S1901M", ["A Par - Bur"]))
            )
            france.start()
            france.join(10)
        return process(self, state, orders)  # type: ignore[arg-type]

    monkeypatch.setattr(DiplomacyFamily, "process", process_while_france_orders)
    assert service.try_process(gid)
    assert answers == [[{"order": "A Par - Bur", "ok": True, "error": None}]]
    assert given == [{}, {"FRANCE": ["A Par - Bur"]}]
    assert [h["orders"] for h in service.history(gid)] == [{"FRANCE": ["A Par - Bur"]}]
    assert "A BUR" in service.public_view(gid)["position"]["units"]["FRANCE"]


def test_a_seat_view_as_json_is_the_view_encoded_whole(store: Engine) -> None:
    """The seat view the API sends is its public part, encoded once a version, joined to the seat's
    own part and messages: byte for byte what encoding the whole view gives, for each seat, with
    orders and messages of its own and others', at each new version."""
    service = GameService(store)
    gid, tokens, _ = _game(service, press="full")

    def same_bytes() -> None:
        for power in POWERS:
            encoded = service.seat_view_json(gid, tokens[power])
            assert encoded == to_json(service.seat_view(gid, tokens[power])), power

    same_bytes()
    service.submit(gid, tokens["FRANCE"], "S1901M", ["A Par - Bur", "F Bre - Mao"])
    service.send_message(gid, tokens["FRANCE"], ["ENGLAND"], 'a "quoted" \\ word, and ünïcode')
    service.send_message(gid, tokens["RUSSIA"], None, "to all")
    same_bytes()
    france = json.loads(service.seat_view_json(gid, tokens["FRANCE"]))
    assert france["seat"]["orders"] == ["A Par - Bur", "F Bre - Mao"] and len(france["messages"]) == 2
    assert len(json.loads(service.seat_view_json(gid, tokens["GERMANY"]))["messages"]) == 1
