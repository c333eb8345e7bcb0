"""Retreat phase: each dislodged unit retreats to one of its open locations or is disbanded."""

from __future__ import annotations

from collections.abc import Iterable

from ...board import Board, UnitKind
from .orders import Disband, Order, Retreat
from .results import OrderResult, Reason
from .state import Dislodged, Unit
from .tables import tables


def retreat_options(
    board: Board,
    unit: Unit,
    attacker_from: int,
    by_convoy: bool,
    occupied: Iterable[int],
    contested: frozenset[int],
) -> tuple[int, ...]:
    """Locations a dislodged unit may retreat to (DATC 6.H): adjacent for its kind, empty after the
    movement, not a standoff, and not where the attacker came from unless it came by convoy."""
    t = tables(board)
    adj = board.army_adj[unit.loc] if unit.kind is UnitKind.ARMY else board.fleet_adj[unit.loc]
    taken = set(occupied)
    out = []
    for loc in sorted(adj):
        s = t.loc_space[loc]
        if s in taken or s in contested or (s == attacker_from and not by_convoy):
            continue
        out.append(loc)
    return tuple(out)


def adjudicate_retreats(
    board: Board, dislodged: tuple[Dislodged, ...], orders: Iterable[tuple[str, Order]]
) -> tuple[list[OrderResult], dict[int, Unit]]:
    """Resolve the retreat orders. Returns the results and the units that retreat, by space."""
    t = tables(board)
    by_space = {t.loc_space[d.unit.loc]: d for d in dislodged}
    chosen: dict[int, tuple[str, Order]] = {}
    results: list[OrderResult] = []
    for power, order in orders:
        if not isinstance(order, (Retreat, Disband)):
            results.append(
                OrderResult(power, order, False, Reason.ILLEGAL, message="not an order for a retreat phase")
            )
            continue
        space = t.loc_space[order.loc]
        d = by_space.get(space)
        if d is None:
            place = board.place_name(space)
            results.append(
                OrderResult(power, order, False, Reason.ILLEGAL, message=f"no dislodged unit in {place}")
            )
        elif d.unit.power != power:
            results.append(
                OrderResult(
                    power, order, False, Reason.ILLEGAL, message=f"the unit belongs to {d.unit.power}"
                )
            )
        elif space in chosen:
            results.append(
                OrderResult(power, order, False, Reason.ILLEGAL, message="the unit already has an order")
            )
        else:
            chosen[space] = (power, order)
    targets: dict[int, list[int]] = {}
    dest_loc: dict[int, int] = {}
    for space, d in by_space.items():
        entry = chosen.get(space)
        if entry is None:
            continue
        power, order = entry
        if isinstance(order, Retreat):
            loc = _retreat_destination(board, d, order)
            if loc is None:
                continue
            dest_loc[space] = loc
            targets.setdefault(t.loc_space[loc], []).append(space)
    moved: dict[int, Unit] = {}
    for space, d in by_space.items():
        entry = chosen.get(space)
        if entry is None:
            results.append(
                OrderResult(d.unit.power, Disband(d.unit.loc, d.unit.kind), True, Reason.NOT_ORDERED)
            )
            continue
        power, order = entry
        if isinstance(order, Disband):
            results.append(OrderResult(power, order, True))
        elif space not in dest_loc:
            assert isinstance(order, Retreat)
            results.append(
                OrderResult(
                    power,
                    order,
                    False,
                    Reason.ILLEGAL,
                    message=f"{board.locations[order.dest].id} is not open to this unit",
                )
            )
        else:
            rivals = targets[t.loc_space[dest_loc[space]]]
            if len(rivals) > 1:
                others = tuple(s for s in rivals if s != space)
                results.append(OrderResult(power, order, False, Reason.BOUNCED, others))
            else:
                moved[t.loc_space[dest_loc[space]]] = Unit(d.unit.power, d.unit.kind, dest_loc[space])
                results.append(OrderResult(power, order, True))
    return results, moved


def _retreat_destination(board: Board, d: Dislodged, order: Retreat) -> int | None:
    if order.unit is not None and order.unit is not d.unit.kind:
        return None
    if order.dest in d.retreats:
        return order.dest
    space = board.locations[order.dest]
    if d.unit.kind is UnitKind.ARMY:
        # An army stands on the province; a coast named for it says nothing more (as for moves).
        main = board.location_by_id[board.spaces[space.space].id]
        return main if main in d.retreats else None
    if space.coast is None:
        coasts = [loc for loc in d.retreats if board.locations[loc].space == space.space]
        if len(coasts) == 1:
            return coasts[0]
    return None
