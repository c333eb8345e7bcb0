"""Adjustment phase: builds, removals, waives and civil disorder."""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable

from ...board import Board, SpaceKind, UnitKind
from .orders import Build, Disband, Order, Remove, Waive
from .results import OrderResult, Reason
from .rules import Edition, Rulebook
from .state import Position, Unit
from .tables import tables


def adjustment_counts(board: Board, position: Position) -> dict[str, int]:
    """Builds (positive) or removals (negative) due for each power that must adjust."""
    units = Counter(u.power for u in position.units.values())
    centres = Counter(position.centres.values())
    counts: dict[str, int] = {}
    for power in board.powers:
        diff = centres[power.id] - units[power.id]
        if diff > 0:
            diff = min(diff, len(build_sites(board, position, power.id)))
        if diff:
            counts[power.id] = diff
    return counts


def build_sites(board: Board, position: Position, power: str) -> list[int]:
    """Home centres of ``power`` that it owns and that are empty (space indices)."""
    homes = board.power_by_id[power].home_centres
    return [s for s in homes if position.centres.get(s) == power and s not in position.units]


def adjudicate_adjustments(
    board: Board, position: Position, orders: Iterable[tuple[str, Order]], rulebook: Rulebook
) -> tuple[list[OrderResult], dict[int, Unit]]:
    """Resolve builds and removals; apply civil disorder for missing removals."""
    t = tables(board)
    counts = adjustment_counts(board, position)
    units = dict(position.units)
    results: list[OrderResult] = []
    used = dict.fromkeys(counts, 0)
    for power, order in orders:
        if isinstance(order, Disband):
            order = Remove(order.loc, order.unit)
        due = counts.get(power, 0)

        def refuse(message: str, power: str = power, order: Order = order) -> None:
            results.append(OrderResult(power, order, False, Reason.ILLEGAL, message=message))

        if isinstance(order, (Build, Waive)):
            if due <= 0:
                refuse(f"{power} has no builds to make")
            elif used[power] >= due:
                refuse(f"{power} has only {due} build(s)")
            elif isinstance(order, Waive):
                used[power] += 1
                results.append(OrderResult(power, order, True))
            else:
                problem = _build_problem(board, position, units, power, order)
                if problem:
                    refuse(problem)
                else:
                    units[t.loc_space[order.loc]] = Unit(power, order.unit, order.loc)
                    used[power] += 1
                    results.append(OrderResult(power, order, True))
        elif isinstance(order, Remove):
            space = t.loc_space[order.loc]
            unit = units.get(space)
            if due >= 0:
                refuse(f"{power} has no units to remove")
            elif used[power] >= -due:
                refuse(f"{power} has only {-due} removal(s)")
            elif unit is None or unit.power != power or space not in position.units:
                refuse(f"{power} has no unit in {board.place_name(space)}")
            elif order.unit is not None and order.unit is not unit.kind:
                refuse(f"the unit in {board.place_name(space)} is not {order.unit.with_article}")
            else:
                del units[space]
                used[power] += 1
                results.append(OrderResult(power, order, True))
        else:
            refuse("not an order for an adjustment phase")
    for power, due in counts.items():
        missing = abs(due) - used[power]
        if missing <= 0:
            continue
        if due > 0:
            for _ in range(missing):
                results.append(OrderResult(power, Waive(), True, Reason.NOT_ORDERED))
        else:
            for unit in civil_disorder_removals(board, position, units, power, missing, rulebook):
                del units[t.loc_space[unit.loc]]
                results.append(OrderResult(power, Remove(unit.loc, unit.kind), True, Reason.NOT_ORDERED))
    return results, units


def _build_problem(board: Board, position: Position, units: dict[int, Unit], power: str, order: Build) -> str:
    t = tables(board)
    space_i = t.loc_space[order.loc]
    space = board.spaces[space_i]
    name = board.place_name(space_i)
    if space_i not in board.power_by_id[power].home_centres:
        return f"{name} is not a home centre of {power}"
    if position.centres.get(space_i) != power:
        return f"{power} does not own {name}"
    if space_i in units:
        return f"{name} is occupied"
    if order.unit is UnitKind.FLEET:
        if space.kind is not SpaceKind.COAST:
            return f"a fleet cannot be built inland in {name}"
        if space.coasts and board.locations[order.loc].coast is None:
            return f"say which coast of {name} the fleet is built on"
    elif board.locations[order.loc].coast is not None:
        return "an army is built on the province, not on a coast"
    return ""


def civil_disorder_removals(
    board: Board, position: Position, units: dict[int, Unit], power: str, count: int, rulebook: Rulebook
) -> list[Unit]:
    """The units removed when ``power`` orders too few removals.

    2023: farthest from the nearest centre the power owns, both kinds counting over land and sea;
    ties go to fleets first, then by the province's English name (and board, on joined boards).
    2000 (MILA's reading of DATC v2.4): farthest from a home centre, armies over land and sea,
    fleets only by fleet moves; ties go to fleets first, then by location id.
    """
    t = tables(board)
    mine = [u for u in units.values() if u.power == power]
    if rulebook.edition is Edition.E2023:
        goals = set(position.centres_of(power))
        ranked = sorted(
            mine,
            key=lambda u: (
                -_distance(board, u, goals, any_terrain=True),
                u.kind is not UnitKind.FLEET,
                # The English name, with its board on joined boards (Munich I before Munich II).
                board.place_name(t.loc_space[u.loc]).lower(),
            ),
        )
    else:
        goals = set(board.power_by_id[power].home_centres)
        ranked = sorted(
            mine,
            key=lambda u: (
                -_distance(board, u, goals, any_terrain=u.kind is UnitKind.ARMY),
                u.kind is not UnitKind.FLEET,
                board.locations[u.loc].id,
            ),
        )
    return ranked[:count]


def _distance(board: Board, unit: Unit, goals: set[int], any_terrain: bool) -> int:
    """Moves from the unit to the nearest goal space; 99 when none can be reached."""
    t = tables(board)
    if any_terrain:
        start = t.loc_space[unit.loc]
        seen = {start}
        queue: deque[tuple[int, int]] = deque([(start, 0)])
        while queue:
            s, dist = queue.popleft()
            if s in goals:
                return dist
            for loc in t.space_locs[s]:
                for nxt in (*t.army_spaces[loc], *t.fleet_spaces[loc]):
                    if nxt not in seen:
                        seen.add(nxt)
                        queue.append((nxt, dist + 1))
        return 99
    seen_l = {unit.loc}
    queue_l: deque[tuple[int, int]] = deque([(unit.loc, 0)])
    while queue_l:
        loc, dist = queue_l.popleft()
        if t.loc_space[loc] in goals:
            return dist
        for nxt in board.fleet_adj[loc]:
            if nxt not in seen_l:
                seen_l.add(nxt)
                queue_l.append((nxt, dist + 1))
    return 99
