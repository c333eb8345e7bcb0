"""The rows the seats' frequent requests and processing read, and the statements they run, built
once (building one costs more than running it) and run on the driver's cursor (``prepared.py``)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, func, insert, select, update

from ..models import GameRow, MessageRow, OrdersRow, PhaseRow, SeatRow
from ..prepared import Prepared


@dataclass(frozen=True)
class Head:
    """A game's row but its state."""

    id: str
    title: str
    family: str
    variant: str
    status: str
    phase: str
    phase_index: int
    version: int
    deadline: datetime | None
    settings: dict[str, Any]
    result: dict[str, Any] | None


class SeatLine(NamedTuple):
    """A seat as processing and the public view read it."""

    seat: str
    kind: str
    player: str
    ready: bool


_HEAD = select(*(getattr(GameRow, f.name) for f in fields(Head))).where(GameRow.id == bindparam("game_id"))
HEAD_OF_GAME = Prepared(_HEAD, Head, shared=True)
_SEAT_LINE = (SeatRow.seat, SeatRow.kind, SeatRow.player, SeatRow.ready)
SEATS_OF_GAME = Prepared(
    select(*_SEAT_LINE).where(SeatRow.game_id == bindparam("game_id")).order_by(SeatRow.id), SeatLine
)
_HEAD_AND_SEAT = (
    select(*_HEAD.selected_columns, SeatRow.seat, SeatRow.player, SeatRow.ready, SeatRow.draw_vote)
    .select_from(GameRow)
    .outerjoin(SeatRow, and_(SeatRow.game_id == GameRow.id, SeatRow.token_hash == bindparam("token_hash")))
    .where(GameRow.id == bindparam("game_id"))
)
HEAD_AND_SEAT = Prepared(_HEAD_AND_SEAT, shared=True)
"""The game's head and the token's seat (NULLs: the token holds none) in one statement."""
HEAD_AND_SEAT_FOR_UPDATE = Prepared(_HEAD_AND_SEAT.with_for_update(of=GameRow), shared=True)
HEAD_WIDTH = len(fields(Head))
SEAT_LINE_WIDTH = len(_SEAT_LINE)
"""Where a row's head ends and the token's seat begins; where a seat's line ends."""
STATE_OF_PHASE = Prepared(
    select(GameRow.state).where(
        GameRow.id == bindparam("game_id"), GameRow.phase_index == bindparam("phase_index")
    )
)
ORDERS_OF_PHASE = Prepared(
    select(OrdersRow.seat, OrdersRow.orders).where(
        OrdersRow.game_id == bindparam("game_id"), OrdersRow.phase_index == bindparam("phase_index")
    )
)
_LAST_MESSAGE = select(func.max(MessageRow.id)).where(MessageRow.game_id == bindparam("game_id"))


class SeatAtVersion(NamedTuple):
    """A seat as a version's snapshot reads it: its line, its orders for the phase (``None``: it
    has given none), and the game's last message id (the same on every seat's row)."""

    seat: str
    kind: str
    player: str
    ready: bool
    orders: list[Any] | None
    last_message: int | None


SEATS_AT_VERSION = Prepared(
    select(*_SEAT_LINE, OrdersRow.orders, _LAST_MESSAGE.scalar_subquery())
    .select_from(SeatRow)
    .outerjoin(
        OrdersRow,
        and_(
            OrdersRow.game_id == SeatRow.game_id,
            OrdersRow.phase_index == bindparam("phase_index"),
            OrdersRow.seat == SeatRow.seat,
        ),
    )
    .where(SeatRow.game_id == bindparam("game_id"))
    .order_by(SeatRow.id),
    SeatAtVersion,
)
"""What a snapshot reads, in one statement rather than three (the seats, the phase's orders, the
last message): a seat's view reads it at nearly every version."""


def _game_update(**values: Any) -> Prepared:
    """An update of the game's row where its version is still the one read (``seen``), which
    bumps it (``bumped``): what makes a lost race write nothing."""
    return Prepared(
        update(GameRow)
        .where(GameRow.id == bindparam("game_id"), GameRow.version == bindparam("seen"))
        .values(version=bindparam("bumped"), **values)
    )


BUMP_VERSION = _game_update()
SET_READY = Prepared(
    update(SeatRow)
    .where(SeatRow.game_id == bindparam("in_game"), SeatRow.seat == bindparam("seat_name"))
    .values(ready=bindparam("is_ready"))
)
REPLACE_ORDERS = Prepared(
    update(OrdersRow)
    .where(
        OrdersRow.game_id == bindparam("in_game"),
        OrdersRow.phase_index == bindparam("index"),
        OrdersRow.seat == bindparam("seat_name"),
    )
    .values(orders=bindparam("given", type_=OrdersRow.orders.type), submitted_at=bindparam("at"))
)
ADD_ORDERS = Prepared(
    insert(OrdersRow)
    .values(
        game_id=bindparam("in_game"),
        phase_index=bindparam("index"),
        seat=bindparam("seat_name"),
        orders=bindparam("given", type_=OrdersRow.orders.type),
        submitted_at=bindparam("at"),
    )
    .inline()  # the new row's id is never needed: not fetched
)
"""A seat's first orders of a phase (later ones are :data:`REPLACE_ORDERS`); the same parameters."""
ADVANCE_GAME = _game_update(
    state=bindparam("new_state", type_=GameRow.state.type),
    phase=bindparam("next_phase"),
    phase_index=bindparam("next_index"),
    status=bindparam("new_status"),
    deadline=bindparam("new_deadline", type_=GameRow.deadline.type),
    result=bindparam("new_result", type_=GameRow.result.type),
    warned_phase=bindparam("warned"),
)
EXTEND_ONCE = _game_update(
    settings=bindparam("new_settings", type_=GameRow.settings.type),
    deadline=bindparam("new_deadline", type_=GameRow.deadline.type),
)
ADD_PHASE = insert(PhaseRow)
UNREADY_PLAYERS = Prepared(
    update(SeatRow).where(SeatRow.game_id == bindparam("in_game"), SeatRow.kind != "bot").values(ready=False)
)
"""The statements of the seats' frequent reads and writes and of processing, built once (building
one costs more than running it) and run on the driver's cursor (``prepared.py``). (A statement that
sets a column cannot name a parameter after it.)"""


class SeatFacts(NamedTuple):
    """A seat as the seats' requests read it."""

    seat: str
    player: str
    ready: bool
    draw_vote: bool
