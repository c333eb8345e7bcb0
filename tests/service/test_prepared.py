"""The hot statements run on the driver's cursor give what SQLAlchemy's own execution gives: the
same rows, of the same types, and the same counts of rows written (SQLite and PostgreSQL)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, select

from interboard.service import games as g
from interboard.service.games import GameService, NewGame
from interboard.service.models import OrdersRow
from interboard.service.prepared import Prepared
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
