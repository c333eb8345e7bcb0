"""Supply in three states, computed for a whole side at once on bit sets of hexes.

For a side, a hex a supply line may pass through is passable, holds no enemy ground unit (nor an
enemy fortress with steps left) and is not in an enemy zone of control unless a friendly ground unit
stands in it. Then:

* the *ultimate sources* are the side's map-edge hexes and hexes named in the data, and the hex end
  of an open link that carries supply (Dover, while the tunnel is open);
* the *secondary sources* are the friendly towns, cities and HQs joined to an ultimate source by a
  line of any length (an ultimate source is one too);
* a hex is in **attack supply** if a line of at most ``attack_trace`` hexes joins it to a secondary
  source; it is in **defence supply** if it is a town or city, or a line of any length joins it to a
  friendly city; otherwise it is **out of supply**.

Each step of a search is one :meth:`~interboard.board.hexes.Bitboard.spread` over the whole map, a
few operations on integers, so both sides' supply takes well under a millisecond or two.
:func:`naive_states` is the plain breadth-first search from every unit that it replaces, kept as the
reference the tests and the benchmark compare it with.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .layers import hooks
from .state import World

ATTACK = "attack"
DEFENCE = "defence"
OUT = "out"
RANK = {OUT: 0, DEFENCE: 1, ATTACK: 2}

NOT_GROUND = frozenset({"zeppelin", "flyer", "generator"})
"""Counters that are not ground units (the Vernian air arms and lightning generators): they neither
block nor project a zone, fight nor trace supply."""


@dataclass(frozen=True, slots=True)
class SupplyMap:
    side: str
    attack: int
    defence: int
    lines: int
    """Hexes a supply line of the side may pass through."""
    sources: int
    """Secondary and ultimate sources in use (the goals of an attack-supply line)."""

    def state(self, cell: int) -> str:
        bit = 1 << cell
        if self.attack & bit:
            return ATTACK
        if self.defence & bit:
            return DEFENCE
        return OUT


def ground_masks(world: World) -> dict[str, int]:
    """Hexes holding ground units, per side (an enemy fortress with steps left counts as held)."""
    out = {s: 0 for s in world.data.side_ids}
    for u in world.units.values():
        if u.where == "map" and u.hex is not None and u.kind not in NOT_GROUND:
            out[world.side_of(u)] |= 1 << u.hex
    for cell, steps in world.fortress.items():
        owner = world.control.get(cell)
        if steps > 0 and owner in out:
            out[owner] |= 1 << cell
    return out


def zones(world: World, held: int) -> int:
    """The zone of control of ground units in ``held``: every hex next to one (not across all sea)."""
    board = world.data.geography.bitboard
    return board.spread(held, world.data.passable, world.data.geography.sea_sides) & ~held


def ultimate_sources(world: World, side: str) -> int:
    data = world.data
    mask = data.ultimate_masks.get(side, 0)
    for link_id in data.ultimate.get(side, {}).get("links", ()):
        link = data.geography.link(link_id)
        if link_id == data.england.get("tunnel") and not world.tunnel_open:
            continue
        for end in (link.a, link.b):
            if end in data.geography.by_id:
                mask |= 1 << data.geography.by_id[end].index
    return mask


def supply_map(world: World, side: str, held: dict[str, int] | None = None) -> SupplyMap:
    data = world.data
    board = data.geography.bitboard
    sea = data.geography.sea_sides
    held = held if held is not None else ground_masks(world)
    enemy = data.enemy(side)
    own = held[side]
    blocked = held[enemy]
    h = hooks(world)
    interdicted = 0
    for hook in h.interdicted:  # the layers' interdiction (ether flyers)
        interdicted |= hook(world, side)
    lines = data.passable & ~blocked & (~zones(world, held[enemy]) | own) & ~interdicted
    endpoints = data.passable & ~blocked & ~interdicted
    ultimate = ultimate_sources(world, side) & lines
    connected = board.reach(ultimate, lines, None, sea)
    friendly_places = 0
    friendly_cities = 0
    for cell, owner in world.control.items():
        if owner == side:
            friendly_places |= 1 << cell
    friendly_cities = friendly_places & data.cities
    friendly_places &= data.towns
    hqs = 0
    for u in world.units.values():
        if u.where == "map" and u.hex is not None and u.kind == "hq" and world.side_of(u) == side:
            hqs |= 1 << u.hex
    sources = ((friendly_places | hqs) & connected) | ultimate
    near = board.reach(sources & lines, lines, data.attack_trace - 1, sea) | (sources & endpoints)
    attack = board.spread(near, endpoints, sea) & endpoints
    for hook in h.adjacent_sources:  # sources with no trace (Zeppelins)
        attack |= board.spread(hook(world, side) & ~interdicted, endpoints) & endpoints
    reached = board.reach(friendly_cities & lines, lines, None, sea)
    defence = (board.spread(reached, endpoints, sea) & endpoints) | (data.towns & endpoints)
    return SupplyMap(side, attack, defence & ~attack, lines, sources & lines)


def supply_maps(world: World) -> dict[str, SupplyMap]:
    held = ground_masks(world)
    return {side: supply_map(world, side, held) for side in world.data.side_ids}


def unit_states(world: World) -> dict[str, str]:
    """The supply state of every ground unit on the map."""
    maps = supply_maps(world)
    return {
        u.id: maps[world.side_of(u)].state(u.hex)
        for u in world.units.values()
        if u.where == "map" and u.hex is not None and u.kind not in NOT_GROUND
    }


def distance_to_sources(world: World, side: str, supply: SupplyMap) -> dict[int, int]:
    """Path length from each hex to the nearest source through the side's supply-line hexes (a hex
    missing is unreachable): how a unit out of supply knows it moves closer."""
    geo = world.data.geography
    dist: dict[int, int] = {}
    queue: deque[int] = deque()
    for cell in geo.bitboard.bits(supply.sources):
        dist[cell] = 0
        queue.append(cell)
    passable = world.data.passable & ~ground_masks(world)[world.data.enemy(side)]
    while queue:
        cell = queue.popleft()
        for nxt in geo.neighbours[cell]:
            if nxt in dist or geo.all_sea(cell, nxt):
                continue
            if not (passable >> nxt) & 1:
                continue
            dist[nxt] = dist[cell] + 1
            if (supply.lines >> nxt) & 1:
                queue.append(nxt)
    return dist


# ---------------------------------------------------------------------- the naive reference
def naive_states(world: World) -> dict[str, str]:
    """The same states as :func:`unit_states`, the plain way: one breadth-first search from the side's
    ultimate sources for the places joined to them, then a search from every unit over the hex graph
    (sets and dicts) for its sources and cities. The reference for tests and the benchmark."""
    data = world.data
    geo = data.geography
    held = ground_masks(world)
    h = hooks(world)
    out: dict[str, str] = {}
    for side in data.side_ids:
        enemy = data.enemy(side)
        zone = zones(world, held[enemy])
        enemy_cells = set(geo.bitboard.bits(held[enemy]))
        own_cells = set(geo.bitboard.bits(held[side]))
        zone_cells = set(geo.bitboard.bits(zone))
        cut = 0
        for hook in h.interdicted:
            cut |= hook(world, side)
        interdicted = set(geo.bitboard.bits(cut))
        passable = set(geo.bitboard.bits(data.passable)) - interdicted
        beside: set[int] = set()  # hexes a Zeppelin supplies: its own and the adjacent ones
        for hook in h.adjacent_sources:
            for cell in geo.bitboard.bits(hook(world, side) & ~cut):
                beside.add(cell)
                beside.update(geo.neighbours[cell])

        def line_ok(cell: int, enemy_cells: set[int] = enemy_cells, zone_cells: set[int] = zone_cells,
                    own_cells: set[int] = own_cells, passable: set[int] = passable) -> bool:  # fmt: skip
            return (
                cell in passable and cell not in enemy_cells and (cell not in zone_cells or cell in own_cells)
            )

        ultimate = {c for c in geo.bitboard.bits(ultimate_sources(world, side)) if line_ok(c)}
        hqs = {
            u.hex
            for u in world.units.values()
            if u.where == "map" and u.hex is not None and u.kind == "hq" and world.side_of(u) == side
        }
        places = {c for c, owner in world.control.items() if owner == side and (data.towns >> c) & 1}
        cities = {c for c in places if (data.cities >> c) & 1}

        def search(
            start: int, goals: set[int], limit: int | None, line_ok: Callable[[int], bool] = line_ok
        ) -> bool:
            if start in goals:
                return True
            seen = {start}
            frontier = deque([(start, 0)])
            while frontier:
                cell, d = frontier.popleft()
                if limit is not None and d >= limit:
                    continue
                for nxt in geo.neighbours[cell]:
                    if nxt in seen or geo.all_sea(cell, nxt) or not line_ok(nxt):
                        continue
                    if nxt in goals:
                        return True
                    seen.add(nxt)
                    frontier.append((nxt, d + 1))
            return False

        # The places joined to an ultimate source: one search from those sources for the side.
        connected = set(ultimate)
        frontier = deque(ultimate)
        while frontier:
            cell = frontier.popleft()
            for nxt in geo.neighbours[cell]:
                if nxt not in connected and not geo.all_sea(cell, nxt) and line_ok(nxt):
                    connected.add(nxt)
                    frontier.append(nxt)
        sources = {s for s in places | hqs if s in connected} | ultimate
        for u in world.units.values():
            if u.where != "map" or u.hex is None or u.kind in NOT_GROUND or world.side_of(u) != side:
                continue
            if u.hex in interdicted:
                out[u.id] = OUT
            elif u.hex in beside or search(u.hex, sources, data.attack_trace):
                out[u.id] = ATTACK
            elif (data.towns >> u.hex) & 1 or search(u.hex, {c for c in cities if line_ok(c)}, None):
                out[u.id] = DEFENCE
            else:
                out[u.id] = OUT
    return out
