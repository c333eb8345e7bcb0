"""Ground movement: movement points, terrain costs, zones of control, stacking, and the supply
restrictions on who may move where.

A unit pays each hex's cost to enter it (a river hexside adds its cost); it may not enter sea,
neutral ground, an enemy-held hex, or cross an all-sea hexside; entering a hex in an enemy zone of
control ends its move. At the end of its move the hex's stack must be within the limits. A unit in
attack supply may not end its move out of it; a unit out of attack supply may move only to a hex of
better supply or one closer to a source.
"""

from __future__ import annotations

import heapq

from . import supply
from .front import why_not_leave
from .layers import hooks
from .state import MAP, Unit, World


class MoveError(ValueError):
    """A move the rules refuse; the message says why."""


def allowance(world: World, unit: Unit) -> int:
    """Movement points for this turn: the printed figure, doubled for the side, map and turn the data
    name (the seed: German units on the West Front on operational turn 1)."""
    points = unit.factors()[2]
    doubled = world.data.doubled
    if (
        doubled
        and unit.hex is not None
        and world.side_of(unit) == doubled.get("side")
        and world.game_turn == int(doubled.get("operational_turn", 0))
    ):
        h = world.data.geography.hexes[unit.hex]
        if h.map in doubled.get("maps", ()) and h.get("nation") in doubled.get("nations", ()):
            points *= 2
    for hook in hooks(world).allowance:  # the layers' (the armoured front buster)
        points = hook(world, unit, points)
    return points


def stack_fits(world: World, side: str, cell: int, incoming: list[Unit]) -> str | None:
    """Why ``incoming`` may not stand in ``cell`` with the friendly units already there (None: it may).
    Only the stacks the incoming counters join are counted (air units stack apart from the ground);
    with nothing incoming, the ground stack as it is."""
    data = world.data
    groups = {data.stacking_group(u.kind) for u in incoming} or {"ground"}
    ids = {u.id for u in incoming}
    present = [
        u
        for u in world.at(cell)
        if world.side_of(u) == side and u.id not in ids and data.stacking_group(u.kind) in groups
    ]
    return data.stack_problem((u.spec.type for u in (*present, *incoming)), data.geography.hexes[cell].id)


def reachable(world: World, unit: Unit, held: dict[str, int] | None = None) -> dict[int, int]:
    """Every hex ``unit`` can reach this phase, with the cheapest cost (its own hex at 0)."""
    assert unit.hex is not None
    h = hooks(world)
    special = h.movers.get(unit.kind)
    if special is not None:
        return special.steps(world, unit)
    data = world.data
    geo = data.geography
    side = world.side_of(unit)
    held = held if held is not None else supply.ground_masks(world)
    enemy = held[data.enemy(side)]
    zone = supply.zones(world, enemy)
    points = allowance(world, unit)
    cost = data.move_cost
    river = int(data.river.get("move", 0))
    best = {unit.hex: 0}
    heap = [(0, unit.hex)]
    while heap:
        spent, cell = heapq.heappop(heap)
        if spent > best.get(cell, 1 << 30):
            continue
        if cell != unit.hex and (zone >> cell) & 1:
            continue  # entering an enemy zone of control ends the move
        for nxt in geo.neighbours[cell]:
            if nxt not in cost or (enemy >> nxt) & 1 or geo.all_sea(cell, nxt):
                continue
            step = cost[nxt] + (river if geo.river(cell, nxt) else 0)
            for hook in h.entry_cost:  # the layers' (a storm)
                step += hook(world, nxt)
            total = spent + step
            if total <= points and total < best.get(nxt, 1 << 30):
                best[nxt] = total
                heapq.heappush(heap, (total, nxt))
    return best


def destinations(world: World, unit: Unit, maps: dict[str, supply.SupplyMap] | None = None) -> list[int]:
    """The hexes ``unit`` may end a move in, by every rule (sorted by hex id)."""
    return sorted(
        (c for c in reachable(world, unit) if c != unit.hex and why_not(world, unit, c, maps) is None),
        key=lambda c: world.data.geography.hexes[c].id,
    )


def why_not(
    world: World, unit: Unit, target: int, maps: dict[str, supply.SupplyMap] | None = None
) -> str | None:
    """Why ``unit`` may not move to ``target`` (None: it may). Checks everything but reachability."""
    side = world.side_of(unit)
    reason = stack_fits(world, side, target, [unit])
    if reason:
        return reason
    assert unit.hex is not None
    if unit.kind in hooks(world).movers:
        return None  # its own rule (the buster: it moves while in attack supply, whatever is ahead)
    maps = maps if maps is not None else supply.supply_maps(world)
    own = maps[side]
    before = own.state(unit.hex)
    after = own.state(target)
    if before == supply.ATTACK and after != supply.ATTACK:
        return "a unit may not move out of attack supply of its own will"
    if before != supply.ATTACK and supply.RANK[after] <= supply.RANK[before]:
        dist = supply.distance_to_sources(world, side, own)
        if dist.get(target, 1 << 30) >= dist.get(unit.hex, 1 << 30):
            return (
                f"{unit.id} is out of attack supply: it may only move to better supply or closer to a source"
            )
    reason = why_not_leave(world, unit, target)
    if reason:
        return reason
    england = world.data.england
    if england and world.tunnel_open and unit.hex == world.data.hex(england["tunnel_hex"]).index:
        remaining = [
            u
            for u in world.at(unit.hex)
            if u.id != unit.id and u.kind == "infantry" and world.side_of(u) == side
        ]
        if side == world.data.side_of("GE") and unit.kind == "infantry" and not remaining:
            return "one German infantry unit must stay in Dover to keep the tunnel open (the Kaiser's orders)"
    return None


def move(world: World, unit: Unit, target: int) -> None:
    """Move ``unit`` to ``target``, or raise :class:`MoveError` saying why it may not."""
    geo = world.data.geography
    if unit.where != MAP or unit.hex is None:
        raise MoveError(f"{unit.id} is not on the map")
    if unit.id in world.moved:
        raise MoveError(f"{unit.id} has already moved this phase")
    if allowance(world, unit) <= 0:
        raise MoveError(f"{unit.id} cannot move (no movement points)")
    costs = reachable(world, unit)
    if target not in costs or target == unit.hex:
        raise MoveError(
            f"{unit.id} cannot reach {geo.hexes[target].id} from {geo.hexes[unit.hex].id} with "
            f"{allowance(world, unit)} movement points (terrain, rivers, enemy units and zones of control)"
        )
    reason = why_not(world, unit, target)
    if reason:
        raise MoveError(reason)
    special = hooks(world).movers.get(unit.kind)
    if special is not None:
        special.enter(world, unit, target)
    else:
        unit.hex = target
    world.moved.append(unit.id)
