"""The rules around the fighting: control and victory, arrivals and placement of new units, the
set-up rules, and the England front with its tunnel (the Vernian variant's, driven by the
``england`` section of the data: a game without one has no tunnel).
"""

from __future__ import annotations

from . import supply
from .front import england_mask
from .movement import stack_fits
from .state import AVAILABLE, MAP, POOL, SETUP, Unit, World


class PlacementError(ValueError):
    """A placement the rules refuse; the message says why."""


# ---------------------------------------------------------------------- control and victory
def update_control(world: World) -> None:
    """A town, city or fortress hex belongs to the last side with a ground unit in it."""
    for u in world.units.values():
        if (
            u.where == MAP
            and u.hex is not None
            and u.kind not in supply.NOT_GROUND
            and (u.hex in world.control or (world.data.towns >> u.hex) & 1)
        ):
            side = world.side_of(u)
            if world.control.get(u.hex) != side:
                world.control[u.hex] = side
                world.fortress.pop(u.hex, None)  # a fortress taken is a fortress destroyed
                world.say(f"{side} takes {world.data.geography.hexes[u.hex].name}")


def victory_points(world: World, side: str) -> dict[str, int]:
    """For each victory condition of ``side``, how far it is (value held, or hexes held)."""
    data = world.data
    out = {}
    for k, cond in enumerate(data.victory.get(side, ())):
        if cond["kind"] == "city_value":
            nations = set(cond["nations"])
            out[f"{k}"] = sum(
                value
                for cell, value in data.victory_value.items()
                if world.control.get(cell) == side and data.geography.hexes[cell].get("nation") in nations
            )
        elif cond["kind"] == "all_of":
            out[f"{k}"] = sum(1 for hid in cond["hexes"] if world.control.get(data.hex(hid).index) == side)
    return out


def check_victory(world: World) -> bool:
    """End the game the instant a side meets a victory condition."""
    if world.stage == "over":
        return True
    update_control(world)
    data = world.data
    for side in data.side_ids:
        got = victory_points(world, side)
        for k, cond in enumerate(data.victory.get(side, ())):
            need = int(cond["at_least"]) if cond["kind"] == "city_value" else len(cond["hexes"])
            if got[f"{k}"] >= need:
                world.stage = "over"
                world.winner = side
                what = (
                    f"{got[f'{k}']} victory points of {'/'.join(cond['nations'])} cities"
                    if cond["kind"] == "city_value"
                    else "every hex of " + ", ".join(cond["hexes"])
                )
                world.result = f"{side} win, holding {what}"
                world.say(world.result)
                return True
    return False


# ---------------------------------------------------------------------- the tunnel
def dover(world: World) -> int | None:
    england = world.data.england
    return world.data.hex(england["tunnel_hex"]).index if england else None


def tunnel_side(world: World) -> str:
    return world.data.side_of(str(world.data.england.get("tunnel_nation", "GE")))


def check_tunnel(world: World) -> None:
    """Close the tunnel for good when Dover holds no infantry of the side that dug it; the stacks still
    to come turn back, to come out at home in reverse order after the delay."""
    cell = dover(world)
    if cell is None or not world.tunnel_open or world.stage != "play":
        return
    side = tunnel_side(world)
    if any(u.kind == "infantry" and world.side_of(u) == side for u in world.at(cell)):
        return
    world.tunnel_open = False
    world.tunnel_closed_at = world.strategic
    delay = int(world.data.england.get("tunnel_reversal_delay", 2))
    for k, stack in enumerate(reversed(world.tunnel_stacks)):
        world.returning[world.strategic + 1 + delay + k] = list(stack)
    world.tunnel_stacks = []
    world.say("Dover holds no German infantry: the tunnel is sealed for good")


def tunnel_stacks(world: World) -> list[list[str]]:
    """The tunnel's units in stacks of the data's size (infantry, at most one HQ each), in code order."""
    spec = world.data.england.get("tunnel_stack", {"infantry": 5, "hq": 1})
    units = [u for u in world.units.values() if world.data.code_arrival(u.spec) == "tunnel"]
    units.sort(key=lambda u: (u.spec.code, u.kind == "hq", u.id))
    infantry = [u.id for u in units if u.kind != "hq"]
    hqs = [u.id for u in units if u.kind == "hq"]
    stacks = []
    while infantry or hqs:
        stack = infantry[: spec["infantry"]] + hqs[: spec["hq"]]
        infantry, hqs = infantry[spec["infantry"] :], hqs[spec["hq"] :]
        stacks.append(stack)
    return stacks


def tunnel_arrival(world: World) -> None:
    """The next stack comes out in Dover, as much as fits; the rest is bumped down the line, and as
    many from each later stack (the queue keeps its order)."""
    cell = dover(world)
    if cell is None or not world.tunnel_open or not world.tunnel_stacks:
        return
    stack = world.tunnel_stacks.pop(0)
    side = tunnel_side(world)
    placed: list[str] = []
    excess: list[str] = []
    for uid in stack:
        unit = world.units[uid]
        if stack_fits(world, side, cell, [unit]) is None:
            unit.where, unit.hex = MAP, cell
            placed.append(uid)
        else:
            excess.append(uid)
    if placed:
        world.say(f"through the tunnel into Dover: {', '.join(placed)}")
    if excess:
        world.say(f"the tunnel backs up: {', '.join(excess)} bumped to the next strategic turn")
        for k, later in enumerate(world.tunnel_stacks):
            joined = excess + later
            world.tunnel_stacks[k], excess = joined[: len(later)], joined[len(later) :]
        if excess:
            world.tunnel_stacks.append(excess)


# ---------------------------------------------------------------------- arrivals
def strategic_arrivals(world: World) -> None:
    """The counters due on this strategic turn become available (and the tunnel delivers)."""
    letter = world.turn_letter
    arrived = [
        u.id for u in world.units.values() if u.where == POOL and world.data.code_arrival(u.spec) == letter
    ]
    for uid in world.returning.pop(world.strategic, []):
        if world.units[uid].where == POOL:
            arrived.append(uid)
            world.units[uid].where = AVAILABLE
    for uid in arrived:
        world.units[uid].where = AVAILABLE
    if arrived:
        world.say(f"turn {letter} reinforcements: {', '.join(sorted(arrived))}")
    tunnel_arrival(world)


def england_clear(world: World) -> bool:
    """No ground unit of the tunnel's side is left in England."""
    mask = england_mask(world)
    side = tunnel_side(world)
    return not any(
        u.where == MAP and u.hex is not None and (mask >> u.hex) & 1 and world.side_of(u) == side
        for u in world.units.values()
        if u.kind not in supply.NOT_GROUND
    )


def may_withdraw(world: World, unit: Unit) -> str | None:
    """Why ``unit`` may not be taken off England to the available box now (None: it may)."""
    if not world.data.england:
        return "this game has no England front"
    if world.side_of(unit) != world.side or world.operational != 1:
        return "units leave England only in their side's first New Units phase of a strategic turn"
    if unit.where != MAP or unit.hex is None or not (england_mask(world) >> unit.hex) & 1:
        return f"{unit.id} is not in England"
    if unit.spec.nation != "BR":
        return f"{unit.id} is not British"
    if not england_clear(world):
        return "no unit leaves England while German units fight there"
    return None


# ---------------------------------------------------------------------- placement
def placement_hexes(world: World, unit: Unit, maps: dict[str, supply.SupplyMap] | None = None) -> list[int]:
    """Where ``unit`` (available) may be placed in a New Units phase."""
    mask, in_england = _placement_area(world, unit, maps)
    geo = world.data.geography
    return sorted(
        (c for c in geo.bitboard.bits(mask) if placement_room(world, unit, c, in_england) is None),
        key=lambda c: geo.hexes[c].id,
    )


def placement_room(world: World, unit: Unit, cell: int, in_england: int) -> str | None:
    """Why ``unit`` finds no room in ``cell`` (None: it does): the stacking limits, and in England's
    towns (``in_england``) the mobilisation's one ground unit a hex."""
    reason = stack_fits(world, world.side_of(unit), cell, [unit])
    if reason:
        return reason
    mobilising = (in_england >> cell) & 1 and unit.kind not in ("hq", *supply.NOT_GROUND)
    if mobilising and not _england_room(world, unit, cell):
        where = world.data.geography.hexes[cell].id
        return f"{where} already holds a British ground unit (one an English town)"
    return None


def _placement_area(world: World, unit: Unit, maps: dict[str, supply.SupplyMap] | None) -> tuple[int, int]:
    """The hexes where ``unit``'s nation places new units, before stacking; and those of them that
    are England's towns."""
    data = world.data
    side = world.side_of(unit)
    spec = data.placement.get(unit.spec.nation)
    if spec is None:
        return 0, 0
    maps = maps if maps is not None else supply.supply_maps(world)
    own = maps[side]
    held = supply.ground_masks(world)
    enemy = held[data.enemy(side)]
    kinds = spec["kinds"]
    mask = 0
    area = data.map_mask(spec["maps"]) & data.nation_mask(spec["nations"]) & data.passable & ~enemy
    controlled = 0
    for cell, owner in world.control.items():
        if owner == side:
            controlled |= 1 << cell
    if "city" in kinds:
        mask |= area & data.cities & controlled & own.attack
    if "edge" in kinds:
        mask |= area & data.ultimate_masks.get(side, 0)
    if "port" in kinds:
        for hid in spec.get("ports", ()):
            cell = data.hex(hid).index
            if (controlled >> cell) & 1 and not (enemy >> cell) & 1:
                mask |= 1 << cell
    in_england = 0
    if "england" in kinds and data.england:
        in_england = england_mask(world) & data.towns & controlled & area
        mask |= in_england
    if unit.spec.nation == "US" and "edge" in kinds and world.strategic >= data.strategic_turns.index("D"):
        for u in world.on_map():
            if u.kind == "hq" and u.spec.nation == "US" and u.hex is not None:
                mask |= 1 << u.hex
    return mask, in_england


def _england_room(world: World, unit: Unit, cell: int) -> bool:
    """British mobilisation in England: one ground unit a town or city (plus an HQ), but London and
    Birmingham take a full stack."""
    big = {world.data.hex(h).index for h in world.data.england.get("big_cities", ())}
    if cell in big:
        return True
    side = world.side_of(unit)
    return not any(
        u.kind not in ("hq", *supply.NOT_GROUND) and world.side_of(u) == side and u.id != unit.id
        for u in world.at(cell)
    )


def place(world: World, unit: Unit, cell: int) -> None:
    geo = world.data.geography
    if unit.where != AVAILABLE:
        raise PlacementError(f"{unit.id} is not waiting to be placed (it is {unit.where})")
    if world.side_of(unit) != world.side:
        raise PlacementError(f"{unit.id} is not {world.side}'s")
    mask, in_england = _placement_area(world, unit, None)
    if not (mask >> cell) & 1:
        raise PlacementError(
            f"{unit.id} may not be placed in {geo.hexes[cell].id}: see where {unit.spec.nation} units arrive "
            "(cities in attack supply, ports, map edges, England's towns)"
        )
    reason = placement_room(world, unit, cell, in_england)
    if reason:
        raise PlacementError(f"{unit.id} may not be placed in {geo.hexes[cell].id}: {reason}")
    unit.where, unit.hex = MAP, cell


# ---------------------------------------------------------------------- set-up rules
def setup_rule(world: World, unit: Unit) -> str:
    return world.data.code_arrival(unit.spec)


def setup_hexes(world: World, unit: Unit) -> list[int]:
    """Where a counter of a set-up rule may go now, given what is already placed (the rule's hexes
    with room for it: a set-up obeys the stacking limits as any placement does)."""
    side = world.side_of(unit)
    geo = world.data.geography
    return sorted(
        (c for c in _setup_candidates(world, unit) if stack_fits(world, side, c, [unit]) is None),
        key=lambda c: geo.hexes[c].id,
    )


def _setup_candidates(world: World, unit: Unit) -> list[int]:
    """The hexes a counter's set-up rule allows now, before stacking."""
    data = world.data
    geo = data.geography
    rule = setup_rule(world, unit)
    side = world.side_of(unit)
    occupied = {  # ground units only: air units have their own stacking
        c: [u for u in units if u.kind not in supply.NOT_GROUND] for c, units in world.occupancy().items()
    }
    occupied = {c: units for c, units in occupied.items() if units}
    if rule == "setup_england" and data.england:
        if side == tunnel_side(world):
            candidates = [data.hex(h).index for h in data.england["landing_hexes"]]
        else:
            landings = {data.hex(h).index for h in data.england["landing_hexes"]}
            candidates = [c for c in geo.bitboard.bits(england_mask(world) & data.towns) if c not in landings]
            if unit.kind != "hq":
                spacing = int(data.england.get("setup_spacing", 4))
                others = [
                    u.hex
                    for u in world.units.values()
                    if u.where == MAP and u.hex is not None and u.kind not in ("hq", *supply.NOT_GROUND)
                    and world.side_of(u) == side
                    and (england_mask(world) >> u.hex) & 1
                ]  # fmt: skip
                candidates = [
                    c
                    for c in candidates
                    if all((geo.distance(c, o) or 0) >= spacing for o in others if o is not None)
                ]
    elif rule == "setup_french_cities":
        candidates = [
            c
            for c in geo.bitboard.bits(data.cities & data.nation_mask(["FR"]) & data.map_mask(["west"]))
            if c not in occupied
        ]
    elif rule == "setup_belgium":
        if unit.kind == "hq":
            candidates = [h.index for h in geo.by_id.values() if h.name == "Mons" and h.get("nation") == "BE"]
        else:
            candidates = [
                c
                for c in geo.bitboard.bits(data.cities & data.nation_mask(["BE"]))
                if geo.hexes[c].name != "Liège"
                and not any(u.kind != "hq" and world.side_of(u) == side for u in occupied.get(c, []))
            ]
    else:
        return []
    return candidates


def setup_place(world: World, unit: Unit, cell: int) -> None:
    geo = world.data.geography
    if unit.where != SETUP:
        raise PlacementError(f"{unit.id} is not placed by a set-up rule, or is placed already")
    if cell not in _setup_candidates(world, unit):
        raise PlacementError(
            f"{unit.id} may not set up in {geo.hexes[cell].id} ({_rule_text(setup_rule(world, unit))})"
        )
    reason = stack_fits(world, world.side_of(unit), cell, [unit])
    if reason:
        raise PlacementError(f"{unit.id} may not set up in {geo.hexes[cell].id}: {reason}")
    unit.where, unit.hex = MAP, cell


def _rule_text(rule: str) -> str:
    return {
        "setup_england": "German landing units go to Dover, Ramsgate or Folkestone; British units to English "
        "towns and cities, one a hex, at least three hexes between any two (HQs excepted)",
        "setup_french_cities": "one a French city hex that no unit holds",
        "setup_belgium": "one a Belgian city but Liège; the Belgian HQ in Mons",
    }.get(rule, rule)


def setup_units(world: World, side: str) -> list[Unit]:
    return sorted(
        (u for u in world.units.values() if u.where == SETUP and world.side_of(u) == side),
        key=lambda u: (u.kind == "hq", u.id),
    )
