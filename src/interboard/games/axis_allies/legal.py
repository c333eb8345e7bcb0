"""The legal next actions of the mover, one unit at a time: what the generic random player and a
click interface offer. Every action listed is played on a copy first, so that the list holds only
what :func:`.engine.apply` accepts."""

from __future__ import annotations

from collections.abc import Iterator

from .actions import Action, Buy, Convert, Move, Place, action_text
from .engine import apply, can_land_after
from .layers import hooks
from .moves import (
    MoveError,
    can_carry,
    is_neutral,
    landing_spots,
    may_unload_from,
    neighbours,
    reachable,
    transports_at,
)
from .state import IllegalAction, Phase, Unit, World


def legal_actions(world: World) -> list[str]:
    """Texts of every action the mover may play next in its step, none left out (a page offers
    each of them: a front's first moves must be clickable however many there are). Moves come from
    the same route search the engine uses; the rest (boarding, landing, placing, converting) are
    played on a copy to be sure."""
    out: list[str] = []
    for action, sure in _candidates(world):
        if not sure:
            trial = world.clone()
            try:
                apply(trial, action)
            except (IllegalAction, MoveError, ValueError):
                continue
        out.append(action_text(world.data, action))
    return out


def _candidates(world: World) -> Iterator[tuple[Action, bool]]:
    """(action, whether it is known legal without trying it)."""
    if world.phase is Phase.SETUP:
        yield from _setup(world)
    elif world.phase is Phase.PURCHASE:
        yield from _purchases(world)
    elif world.phase in (Phase.COMBAT_MOVE, Phase.NONCOMBAT_MOVE):
        yield from _moves(world)
    elif world.phase is Phase.PLACE:
        yield from ((a, False) for a in _placements(world))


def _purchases(world: World) -> Iterator[tuple[Action, bool]]:
    power = world.data.power(world.power)
    many = len(power.economies) > 1
    for economy in power.economies:
        for unit in power.buys:
            cost = world.data.units[unit].cost or 0
            if cost <= world.ipcs.get(economy.id, 0):
                yield Buy(((unit, 1),), economy.id if many else None), True
    for transfers in hooks(world).transfers:
        yield from ((t, True) for t in transfers(world))
    if world.power == "USSR":
        for space, t in world.data.territories.items():
            if t.conversion and world.owner.get(space) == "USSR":
                for unit in sorted({u.type for u in world.at(space) if u.owner in ("UK", "USA")}):
                    yield Convert(((unit, 1),), space), False


def _setup(world: World) -> Iterator[tuple[Action, bool]]:
    placement = hooks(world).initial_placement
    if placement is None:
        return
    budget = placement.budget(world)
    for unit in world.data.power(world.power).buys:
        ut = world.data.units[unit]
        if ut.has("factory") or (ut.cost or 0) > budget:
            continue
        for space in placement.spaces(world, unit):
            yield Place(((unit, 1),), space), True


def _movers(world: World) -> list[Unit]:
    """One unit of each kind and place that may move, the one with most movement left."""
    combat_move = world.phase is Phase.COMBAT_MOVE
    best: dict[tuple[str, str, bool], Unit] = {}
    for u in world.units.values():
        ut = world.unit_type(u)
        if u.owner != world.power or ut.movement <= 0 or u.submerged:
            continue
        if not combat_move and u.fought and not ut.is_air:
            continue
        key = (u.type, u.at, u.aboard is not None)
        if key not in best or u.moved < best[key].moved:
            best[key] = u
    return sorted(best.values(), key=lambda u: u.id)


def _moves(world: World) -> Iterator[tuple[Action, bool]]:
    combat_move = world.phase is Phase.COMBAT_MOVE
    spots: dict[bool, set[str]] = {}
    h = hooks(world)
    for u in _movers(world):
        ut = world.unit_type(u)
        one = ((u.type, 1),)
        if ut.is_land:
            if u.aboard is not None:
                if may_unload_from(world, u.at, u.owner):
                    for land in neighbours(world, u.at):
                        if not world.is_sea(land) and not is_neutral(world, land):
                            yield Move(one, u.at, land), False
                continue
            if not u.moved:
                for sea in neighbours(world, u.at):
                    if world.is_sea(sea) and any(
                        can_carry(world, t, u) for t in transports_at(world, sea, u.owner)
                    ):
                        yield Move(one, u.at, sea), False
        try:
            destinations = reachable(world, u, combat=combat_move)
        except MoveError:
            continue
        if ut.is_air:
            fighter = bool(ut.carrier_cost)
            if fighter not in spots:
                spots[fighter] = landing_spots(world, world.power, fighter)
            if not combat_move:
                patrol = any(may(world, u) for may in h.may_patrol)
                destinations = {
                    d: c
                    for d, c in destinations.items()
                    if d in spots[fighter]
                    or (patrol and any(space_ok(world, d, world.power) for space_ok in h.patrol_space))
                }
        for to, cost in sorted(destinations.items()):
            if ut.is_land and world.is_sea(to):
                continue
            if (
                ut.is_air
                and combat_move
                and not can_land_after(world, u, cost, to, spots[bool(ut.carrier_cost)])
            ):
                continue  # an aircraft sent into combat must be able to land after
            yield Move(one, u.at, to), True
        if combat_move and ut.has("strategic_bomber"):
            for to in sorted(destinations):
                holder = world.owner.get(to)
                if (
                    holder is not None
                    and world.enemies(holder, u.owner)
                    and any(world.unit_type(x).has("factory") for x in world.at(to))
                ):
                    yield Move(one, u.at, to, raid=True), False


def _placements(world: World) -> Iterator[Action]:
    factories = world.extra.get("factories_at_start", [])
    spots: set[str] = set()
    for f in factories:
        if world.owner.get(f) == world.power:
            spots.add(f)
            spots.update(s for s in neighbours(world, f) if world.is_sea(s))
    if world.power == "CHINA":
        spots.update(s for s, h in world.owner.items() if h == "CHINA")
    held = [s for s, side in world.extra.get("held_at_start", {}).items() if side == world.side(world.power)]
    free = hooks(world).free_units
    for economy, bought in world.bought.items():
        for unit, n in sorted(bought.items()):
            if n <= 0:
                continue
            ut = world.data.units[unit]
            targets = held if ut.has("factory") else sorted(spots)
            extra = free.spaces(world, economy, unit) if free else None
            if extra is not None:  # free units need no factory
                targets = sorted(spots.union(extra))
            for at in targets:
                yield Place(((unit, 1),), at)
