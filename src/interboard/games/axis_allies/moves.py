"""Movement: where a unit may go this turn, and by which path.

The rules asked here, by domain (docs/rules/axis-allies.md, "Movement"):

* land units move through territories their side held at the start of the move and that hold no
  enemy unit; in the combat move they may end in an enemy territory (an attack), and a blitzing
  unit (armour) may pass through an enemy territory that holds no enemy unit, taking it as it goes;
  no one enters a neutral territory. A land unit boards its own transport in an adjacent sea zone
  (its whole move) and leaves it into an adjacent territory (its whole move, an amphibious assault
  when the territory is the enemy's);
* ships move through sea zones; an enemy warship (not a submarine, not a transport) ends the move
  there; a canal passes only ships of the side that holds every territory it needs; in the
  non-combat move no ship ends among enemy ships, submarines excepted;
* aircraft fly over anything but neutral territories; their movement counts over the whole turn,
  and they must end the turn landed: in a territory their side held at the start of the turn, or
  (fighters) on a carrier of their side with room.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ...board import SpaceKind
from .layers import Hooks, closed_reason, hooks
from .state import Phase, Unit, World
from .units import UnitType


class MoveError(ValueError):
    """A move the rules refuse; the message says which rule."""


@dataclass(frozen=True)
class Route:
    path: tuple[str, ...]
    """Spaces entered, in order (the start excluded)."""

    @property
    def cost(self) -> int:
        return len(self.path)

    @property
    def end(self) -> str:
        return self.path[-1]


def neighbours(world: World, space: str) -> list[str]:
    b = world.data.board
    loc = b.location_by_id[space]
    out = {b.locations[x].space for x in b.army_adj[loc]} | {b.locations[x].space for x in b.fleet_adj[loc]}
    return [b.spaces[s].id for s in sorted(out)]


def is_neutral(world: World, space: str) -> bool:
    return world.data.territories[space].neutral and space not in world.owner


def movement_allowance(world: World, unit: Unit) -> int:
    """The unit's movement this turn, with the Pacific bases' bonus (airfields for aircraft,
    harbours for ships in an adjacent sea zone) when it starts its turn beside one of its side's."""
    ut = world.unit_type(unit)
    allowance = ut.movement
    if world.options.bases and world.data.id != "aa_europe_1999":
        start = unit.origin or unit.at
        if (ut.is_air and _has_base(world, start, unit.owner, "airfield")) or (
            ut.is_sea
            and any(_has_base(world, land, unit.owner, "harbour") for land in neighbours(world, start))
        ):
            allowance += 1
    return allowance


def _has_base(world: World, space: str, power: str, kind: str) -> bool:
    return world.friendly(space, power) and any(
        u.type == kind and not world.enemies(u.owner, power) for u in world.at(space)
    )


def left(world: World, unit: Unit) -> int:
    return max(0, movement_allowance(world, unit) - unit.moved)


def enemy_warships(world: World, space: str, power: str) -> list[Unit]:
    """Enemy ships that fight (transports excepted)."""
    return [
        u
        for u in world.enemy_units(space, power)
        if world.unit_type(u).is_sea and world.unit_type(u).attack > 0
    ]


def blocks_ships(world: World, space: str, power: str) -> bool:
    """An enemy surface warship stops a ship's move here (submarines and transports do not)."""
    return any(not world.unit_type(u).has("submarine") for u in enemy_warships(world, space, power))


def canal_open(world: World, a: str, b: str, power: str) -> bool:
    for canal in world.data.canals:
        if a in canal.seas and b in canal.seas:
            return all(world.friendly(land, power) for land in canal.land)
    return True


def passage_open(world: World, space: str, power: str) -> bool:
    """A sea card the data keeps for one side's ships (the linked world's Panama Canal, the
    Allies'), closed while the other side holds the convoy centre it names (sea zone 3)."""
    t = world.data.territories[space]
    side = world.side(power)
    if t.ships_of is not None and t.ships_of != side:
        return False
    if t.closed_by_convoy is not None:
        held_by = world.convoys.get(t.closed_by_convoy)
        return held_by is None or held_by == side
    return True


def hostile_land(world: World, space: str, power: str) -> bool:
    """A territory an attacker must fight for: the enemy holds it or has units in it."""
    holder = world.controller(space)
    return (holder is not None and world.enemies(holder, power)) or bool(
        world.combatants(world.enemy_units(space, power))
    )


def _step_ok(
    world: World, unit: Unit, ut: UnitType, frm: str, to: str, last: bool, combat: bool, h: Hooks
) -> bool:
    """May ``unit`` step from ``frm`` into ``to``, ending there if ``last``? (``h``: the world's
    hooks, asked once by the search.)"""
    power = unit.owner
    for closed in h.closed:
        if closed(world, to):
            return ut.is_air and not last  # aircraft may fly over a closed space
    if is_neutral(world, to):
        return False
    to_sea = world.is_sea(to)
    if ut.is_air:
        if world.data.territories[to].ships_only:
            return False  # an interboard sea: aircraft cross it only aboard a carrier
        return not (last and not combat and world.enemy_units(to, power))
    if ut.is_sea:
        if not to_sea or not canal_open(world, frm, to, power) or not passage_open(world, to, power):
            return False
        if not last:
            if h.stops_ships and not ut.has("submarine"):
                for stops in h.stops_ships:
                    if stops(world, to, power):
                        return False
            return not blocks_ships(world, to, power)
        if not combat and world.enemy_units(to, power):
            return ut.has("submarine") and not world.combatants(world.enemy_units(to, power))
        return True
    # Land units: ground moves only (boarding and landing are their own moves).
    if to_sea:
        return False
    hostile = hostile_land(world, to, power)
    if last:
        return combat or not hostile
    if not hostile:
        return True
    # A blitz passes through an enemy territory with no enemy unit in it.
    return combat and ut.has("blitz") and not world.enemy_units(to, power)


def find_route(world: World, unit: Unit, to: str, via: tuple[str, ...] = (), *, combat: bool) -> Route:
    """The shortest legal route for ``unit`` to ``to`` (through ``via`` in order when given), or a
    :class:`MoveError` saying why there is none."""
    ut = world.unit_type(unit)
    h = hooks(world)
    budget = left(world, unit)
    if budget <= 0:
        raise MoveError(f"{ut.name} in {world.space_name(unit.at)} has no movement left")
    if via:
        path = (*via, to)
        here = unit.at
        for k, nxt in enumerate(path):
            if nxt not in neighbours(world, here):
                raise MoveError(f"{world.space_name(nxt)} is not next to {world.space_name(here)}")
            if not _step_ok(world, unit, ut, here, nxt, k == len(path) - 1, combat, h):
                raise MoveError(
                    f"{ut.name} may not {'end in' if k == len(path) - 1 else 'pass'} {world.space_name(nxt)}"
                )
            here = nxt
        if len(path) > budget:
            raise MoveError(
                f"{ut.name} needs {len(path)} moves to reach {world.space_name(to)}, it has {budget}"
            )
        return Route(path)
    # Breadth-first, one step at a time: every step costs one.
    previous: dict[str, str | None] = {unit.at: None}
    frontier = deque([(unit.at, 0)])
    while frontier:
        here, cost = frontier.popleft()
        if cost >= budget:
            continue
        for nxt in neighbours(world, here):
            if nxt in previous:
                continue
            if nxt == to:
                if _step_ok(world, unit, ut, here, nxt, True, combat, h):
                    previous[nxt] = here
                    steps = [nxt]
                    back: str | None = here
                    while back is not None and back != unit.at:
                        steps.append(back)
                        back = previous[back]
                    return Route(tuple(reversed(steps)))
                continue
            if _step_ok(world, unit, ut, here, nxt, False, combat, h):
                previous[nxt] = here
                frontier.append((nxt, cost + 1))
    closed = _closed_to(world, unit, to, previous)
    raise MoveError(
        f"{ut.name} in {world.space_name(unit.at)} cannot reach {world.space_name(to)} "
        f"({budget} movement left{', combat move' if combat else ''})" + (f": {closed}" if closed else "")
    )


def _closed_to(world: World, unit: Unit, to: str, reached: dict[str, str | None]) -> str | None:
    """Why a space next to one the search reached stays closed to ``unit``, when a passage rule (a
    canal, a sea card, a card kept for one side) closes it."""
    ut = world.unit_type(unit)
    t = world.data.territories[to]
    closed = closed_reason(world, to)
    if closed:
        return closed
    if ut.is_air and t.ships_only:
        return f"aircraft cross {world.space_name(to)} only aboard a carrier"
    if not ut.is_sea:
        return None
    side = world.side(unit.owner)
    if t.ships_of is not None and t.ships_of != side:
        return f"{world.space_name(to)} is for the ships of the {t.ships_of} only"
    if t.closed_by_convoy is not None and world.convoys.get(t.closed_by_convoy) not in (None, side):
        return (
            f"{world.space_name(to)} is closed while the {world.convoys[t.closed_by_convoy]} hold the "
            f"convoy of {world.space_name(t.closed_by_convoy)}"
        )
    for here in reached:
        if to in neighbours(world, here) and not canal_open(world, here, to, unit.owner):
            canal = next(c for c in world.data.canals if here in c.seas and to in c.seas)
            lands = " and ".join(world.space_name(land) for land in canal.land)
            return f"ships pass {canal.name} only while their side holds {lands}"
    return None


def reachable(world: World, unit: Unit, *, combat: bool) -> dict[str, int]:
    """Every space ``unit`` may end its move in now, with the cost (boarding and landing excluded)."""
    ut = world.unit_type(unit)
    h = hooks(world)
    budget = left(world, unit)
    out: dict[str, int] = {}
    seen = {unit.at}
    frontier = deque([(unit.at, 0)])
    while frontier:
        here, cost = frontier.popleft()
        if cost >= budget:
            continue
        for nxt in neighbours(world, here):
            if nxt not in out and _step_ok(world, unit, ut, here, nxt, True, combat, h):
                out[nxt] = cost + 1
            if nxt not in seen and _step_ok(world, unit, ut, here, nxt, False, combat, h):
                seen.add(nxt)
                frontier.append((nxt, cost + 1))
    out.pop(unit.at, None)
    return out


# ---------------------------------------------------------------------- air landing
def landing_spots(world: World, power: str, fighter: bool) -> set[str]:
    """Where an aircraft of ``power`` may end the turn: territories its side held at the start of
    the turn, and (fighters) sea zones with a carrier of its side with room."""
    held = world.extra.get("held_at_start", {})
    side = world.side(power)
    spots = {sid for sid, s in held.items() if s == side}
    for closed in hooks(world).closed:
        spots = {sid for sid in spots if not closed(world, sid)}
    if fighter:
        # One pass over the units: carrier places and the fighters already on them, by sea zone.
        room: dict[str, int] = {}
        own_aboard: set[str] = set()
        for u in world.units.values():
            ut = world.unit_type(u)
            if ut.carrier_capacity:
                room.setdefault(u.at, 0)
            if world.enemies(u.owner, power):
                continue
            if ut.carrier_capacity:
                room[u.at] = room.get(u.at, 0) + ut.carrier_capacity
            elif ut.is_air and not u.cap:
                room[u.at] = room.get(u.at, 0) - ut.carrier_cost
                if u.aboard is not None and u.owner == power:
                    own_aboard.add(u.at)
        spots.update(
            space for space in room if world.is_sea(space) and (room[space] > 0 or space in own_aboard)
        )
    return spots


def carrier_room(world: World, space: str, power: str) -> int:
    """Free carrier places for ``power``'s side's fighters in ``space``."""
    capacity = sum(
        world.unit_type(u).carrier_capacity
        for u in world.at(space)
        if world.unit_type(u).carrier_capacity and not world.enemies(u.owner, power)
    )
    used = sum(
        world.unit_type(u).carrier_cost
        for u in world.at(space)
        if world.unit_type(u).is_air and not world.enemies(u.owner, power) and not u.cap
    )
    return capacity - used


def air_distance(world: World, frm: str, targets: set[str], limit: int) -> int | None:
    """Fewest moves from ``frm`` to any of ``targets`` for an aircraft (neutrals closed), up to ``limit``."""
    if frm in targets:
        return 0
    seen = {frm}
    frontier = deque([(frm, 0)])
    while frontier:
        here, cost = frontier.popleft()
        if cost >= limit:
            continue
        for nxt in neighbours(world, here):
            if nxt in seen or is_neutral(world, nxt) or world.data.territories[nxt].ships_only:
                continue
            if nxt in targets:
                return cost + 1
            seen.add(nxt)
            frontier.append((nxt, cost + 1))
    return None


# ---------------------------------------------------------------------- transports
def transport_room(world: World, transport: Unit) -> int:
    ut = world.unit_type(transport)
    used = sum(world.unit_type(u).transport_cost for u in world.units.values() if u.aboard == transport.id)
    return ut.transport_capacity - used


def can_carry(world: World, transport: Unit, cargo: Unit) -> bool:
    """A transport carries its own side's land units; a destroyer-transport (Japan, Pacific) carries
    one infantry or marine."""
    t_type, c_type = world.unit_type(transport), world.unit_type(cargo)
    if not c_type.is_land or c_type.transport_cost <= 0 or transport.owner != cargo.owner:
        return False
    if t_type.has("destroyer") and (transport.owner != "JAPAN" or not c_type.has("supportable")):
        return False
    return transport_room(world, transport) >= c_type.transport_cost


def transports_at(world: World, space: str, power: str) -> list[Unit]:
    return [
        u
        for u in world.at(space)
        if u.owner == power and world.unit_type(u).transport_capacity > 0 and not u.submerged
    ]


def may_unload_from(world: World, space: str, power: str) -> bool:
    """Land units leave ships only where no enemy warship is left in the sea zone."""
    return not enemy_warships(world, space, power)


def in_combat_move(world: World) -> bool:
    return world.phase is Phase.COMBAT_MOVE


def is_land(world: World, space: str) -> bool:
    b = world.data.board
    return b.spaces[b.space_by_id[space]].kind is not SpaceKind.SEA
