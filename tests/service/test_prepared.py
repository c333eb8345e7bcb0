"""The hot statements run on the driver's cursor give what SQLAlchemy's own execution gives: the
same rows, of the same types, and the same counts of rows written (SQLite and PostgreSQL)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, select, update

from interboard.service.games import GameService, NewGame
from interboard.service.games import statements as g
from interboard.service.models import GameRow, OrdersRow
from interboard.service.prepared import SHARED_KEPT, Prepared, _converted_once
from interboard.service.security import hash_token

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def _values(row: Any) -> tuple[Any, ...]:
    return dataclasses.astuple(row) if dataclasses.is_dataclass(row) else tuple(row)


def _typed(rows: list[Any]) -> list[list[tuple[type, Any]]]:
    return [[(type(value), value) for value in row] for row in rows]


def test_prepared_reads_give_sqlalchemys_rows_and_types(store: Engine) -> None:
    service = GameService(store)
    created = service.create(
        NewGame(seats={p: p.title() for p in POWERS}, deadlines={"movement": 600}, press="full")
    )
    gid, france = created.game_id, created.seat_tokens["FRANCE"]
    service.submit(gid, france, "S1901M", ["A Par - Bur", "F Bre - Mao"])
    service.set_ready(gid, france, "S1901M", True)
    service.send_message(gid, france, None, "hello")
    reads: list[tuple[Prepared, dict[str, Any]]] = [
        (g.HEAD_OF_GAME, {"game_id": gid}),
        (g.HEAD_AND_SEAT, {"game_id": gid, "token_hash": hash_token(france)}),
        (g.HEAD_AND_SEAT, {"game_id": gid, "token_hash": hash_token("not a seat's")}),
        (g.SEATS_OF_GAME, {"game_id": gid}),
        (g.STATE_OF_PHASE, {"game_id": gid, "phase_index": 0}),
        (g.ORDERS_OF_PHASE, {"game_id": gid, "phase_index": 0}),
        (g.SEATS_AT_VERSION, {"game_id": gid, "phase_index": 0}),
        (g.HEAD_OF_GAME, {"game_id": "no such game"}),
    ]
    with store.connect() as conn:
        for prepared, params in reads:
            expected = [tuple(r) for r in conn.execute(prepared.statement, params)]  # type: ignore[call-overload]
            assert bool(expected) == (params["game_id"] == gid)
            assert _typed([_values(r) for r in prepared.all(conn, params)]) == _typed(expected)
        head = g.HEAD_OF_GAME.first(conn, {"game_id": gid})
        seat = g.SEATS_OF_GAME.all(conn, {"game_id": gid})[2]
        at_version = g.SEATS_AT_VERSION.all(conn, {"game_id": gid, "phase_index": 0})
    assert isinstance(head, g.Head) and head.deadline is not None and head.deadline.tzinfo is not None
    assert seat == g.SeatLine("FRANCE", "player", "France", True) and seat.ready is True
    # Every seat once, its orders if it gave any, the game's last message on each row.
    assert [(r.seat, r.orders) for r in at_version] == [
        (p, ["A Par - Bur", "F Bre - Mao"] if p == "FRANCE" else None) for p in POWERS
    ]
    assert {r.last_message for r in at_version} == {service.messages(gid, france)[-1]["id"]}


def test_prepared_writes_count_the_rows_they_matched(store: Engine) -> None:
    service = GameService(store)
    created = service.create(NewGame(seats={p: p.title() for p in POWERS}))
    gid = created.game_id
    version = service.version(gid)
    with store.begin() as conn:
        assert g.BUMP_VERSION.run(conn, {"game_id": gid, "seen": version + 5, "bumped": version + 6}) == 0
        assert g.BUMP_VERSION.run(conn, {"game_id": gid, "seen": version, "bumped": version + 1}) == 1
        assert g.UNREADY_PLAYERS.run(conn, {"in_game": gid}) == len(POWERS)
    assert service.version(gid) == version + 1


def test_prepared_inserts_write_the_rows_sqlalchemy_reads_back(store: Engine) -> None:
    service = GameService(store)
    gid = service.create(NewGame(seats={p: p.title() for p in POWERS})).game_id
    at = datetime(1901, 3, 1, 12, 30, tzinfo=UTC)
    one = {"in_game": gid, "index": 0, "seat_name": "FRANCE", "given": ["A Par H"], "at": at}
    many = [{**one, "seat_name": seat, "given": [f"{seat} order"]} for seat in ("ENGLAND", "ITALY")]
    with store.begin() as conn:
        assert g.ADD_ORDERS.run(conn, one) == 1
        g.ADD_ORDERS.run_many(conn, many)
        assert g.REPLACE_ORDERS.run(conn, {**one, "given": ["A Par - Bur"]}) == 1
    with store.connect() as conn:
        rows = conn.execute(
            select(OrdersRow.seat, OrdersRow.orders, OrdersRow.submitted_at)
            .where(OrdersRow.game_id == gid)
            .order_by(OrdersRow.seat)
        ).all()
    assert [tuple(r) for r in rows] == [
        ("ENGLAND", ["ENGLAND order"], at),
        ("FRANCE", ["A Par - Bur"], at),
        ("ITALY", ["ITALY order"], at),
    ]


def test_a_heads_decoded_values_are_shared_between_reads_and_follow_each_change(store: Engine) -> None:
    service = GameService(store)
    gid = service.create(NewGame(seats={p: p.title() for p in POWERS}, deadlines={"movement": 600})).game_id
    params = {"game_id": gid}
    with store.connect() as conn:
        first = g.HEAD_OF_GAME.first(conn, params)
        again = g.HEAD_OF_GAME.first(conn, params)
        assert again == first
        if store.dialect.name == "sqlite":  # the driver gives the JSON as text: decoded once
            assert again.settings is first.settings and again.deadline is first.deadline
    changed = {**first.settings, "press": "gunboat"}
    later = datetime(2031, 1, 1, tzinfo=UTC)
    with store.begin() as conn:
        conn.execute(update(GameRow).where(GameRow.id == gid).values(settings=changed, deadline=later))
    with store.connect() as conn:
        head = g.HEAD_OF_GAME.first(conn, params)
        expected = conn.execute(g.HEAD_OF_GAME.statement, params).one()  # type: ignore[call-overload]
    assert head.settings == changed and head.deadline == later
    assert dataclasses.astuple(head) == tuple(expected)
    assert first.settings["press"] != "gunboat"  # the value read before is not the new one


def test_a_shared_conversion_is_bounded_and_passes_unhashable_values_through() -> None:
    calls: list[Any] = []

    def decode(raw: Any) -> Any:
        calls.append(raw)
        return {"decoded": raw} if isinstance(raw, str) else raw

    once = _converted_once(decode)
    assert once("a") is once("a") and calls == ["a"]
    for i in range(SHARED_KEPT):
        once(str(i))
    assert len(calls) == SHARED_KEPT + 1
    once("a")  # forgotten when the kept values were many: decoded again
    assert calls[-1] == "a" and len(calls) == SHARED_KEPT + 2
    given = {"already": "decoded"}  # as PostgreSQL's driver gives JSON
    assert once(given) is given and once(given) is given and calls[-2:] == [given, given]


def test_a_seats_read_goes_by_its_game_and_token_to_one_row(store: Engine) -> None:
    if store.dialect.name != "sqlite":  # PostgreSQL's planner picks by the table's size
        return
    service = GameService(store)
    created = service.create(NewGame(seats={p: p.title() for p in POWERS}))
    params = {"game_id": created.game_id, "token_hash": hash_token(created.seat_tokens["FRANCE"])}
    with store.connect() as conn:
        compiled = g.HEAD_AND_SEAT._compiled_on(conn)[1]
        raw = conn.connection.dbapi_connection
        assert raw is not None
        explained = raw.execute(f"EXPLAIN QUERY PLAN {compiled.sql}", compiled.parameters(params))
        plan = [row[3] for row in explained]
    assert any("ix_seats_game_id_token_hash (game_id=? AND token_hash=?)" in step for step in plan), plan
