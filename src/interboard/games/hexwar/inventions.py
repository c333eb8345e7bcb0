"""Weird, huge inventions at the eleventh hour: the Allies' weather control projection devices and
Germany's gigantic Van der Graaf generators (the ``inventions`` and ``storm`` sections of the data).

At the start of each strategic turn from B, a side whose trigger holds (enemy infantry within three
hexes of its named hexes, or the enemy holding enough of its city hexes) rolls one die: on 1 or 2 it
builds one device, at most two in the game.

* Each weather device gives the Allies a storm marker. At the start of each operational turn, before
  anything else, the Allies place their markers (``storm HEX``) in France or England, one a hex; a
  marker lasts the operational turn. Units defending in its hex gain two left shifts, and entering
  it costs one more movement point (air units are kept out: the air rules' part).
* Each generator is a counter Germany places in a German city it holds in its New Units phase,
  one a hex; it never moves, has no stacking value, and is destroyed when an enemy ground unit enters
  its hex. In Germany's Attrition phase every Allied stack next to a generator loses a step.
"""

from __future__ import annotations

from typing import Any

from . import combat, supply
from .layers import Layer
from .state import AVAILABLE, GONE, MAP, POOL, World


def spec(world: World, side: str) -> dict[str, Any]:
    return dict(world.data.inventions.get(side, {}))


def built(world: World, side: str) -> int:
    return int(world.extra.get("inventions", {}).get(side, 0))


def triggered(world: World, side: str) -> bool:
    """Is ``side`` pressed hard enough to try for its invention?"""
    rule = spec(world, side)
    data = world.data
    geo = data.geography
    near = rule.get("near")
    if near:
        goals = [data.hex(h).index for h in near["hexes"]]
        for u in world.on_map():
            if u.hex is None or u.kind != near.get("kind", "infantry") or world.side_of(u) != near["side"]:
                continue
            if any((d := geo.distance(u.hex, g)) is not None and d <= int(near["within"]) for g in goals):
                return True
    holds = rule.get("holds")
    if holds:
        nations = set(holds["nations"])
        count = sum(
            1
            for cell in geo.bitboard.bits(data.cities)
            if world.control.get(cell) == holds["side"] and geo.hexes[cell].get("nation") in nations
        )
        if count >= int(holds["cities"]):
            return True
    return False


def roll_for_inventions(world: World) -> None:
    """The strategic turn's rolls (one a side while triggered, from the data's first turn on)."""
    data = world.data
    for side in data.side_ids:
        rule = spec(world, side)
        if not rule or world.strategic < data.strategic_turns.index(rule.get("from", "A")):
            continue
        if built(world, side) >= int(rule.get("most", 2)) or not triggered(world, side):
            continue
        die = world.roll(f"{side}: {rule['name']}")
        if die > int(rule.get("success", 2)):
            world.say(f"{side} try for a {rule['name']}: die {die}, not yet")
            continue
        world.extra.setdefault("inventions", {})[side] = built(world, side) + 1
        world.say(f"{side} build a {rule['name']} (die {die})")
        if rule.get("effect") == "generator":
            counter = next(
                (
                    u
                    for u in sorted(world.units.values(), key=lambda u: u.id)
                    if u.kind == "generator" and u.where == POOL
                ),
                None,
            )
            if counter is not None:
                counter.where = AVAILABLE


# ---------------------------------------------------------------------- storms
def storm_side(world: World) -> str | None:
    return next((s for s in world.data.side_ids if spec(world, s).get("effect") == "storm"), None)


def storm_cells(world: World) -> set[int]:
    return {world.data.hex(h).index for h in world.extra.get("storms", [])}


def ask_for_storms(world: World) -> None:
    """At the start of an operational turn: old storms blow over, and the side with weather devices
    is asked where to put this turn's."""
    world.extra.pop("storms", None)
    side = storm_side(world)
    if side is None or built(world, side) <= 0 or world.stage != "play":
        return
    world.decision = {"kind": "storms", "seat": side, "count": built(world, side), "hex": ""}


def storm_hexes(world: World) -> list[int]:
    """Where a storm marker may go: land hexes of the data's nations (France, England), one a hex."""
    nations = tuple(world.data.storm.get("nations", ()))
    mask = world.data.nation_mask(nations) & world.data.passable
    taken = storm_cells(world)
    return [c for c in world.data.geography.bitboard.bits(mask) if c not in taken]


def place_storm(world: World, cell: int) -> None:
    assert world.decision is not None
    geo = world.data.geography
    if len(world.extra.get("storms", [])) >= int(world.decision["count"]):
        raise combat.CombatError(f"only {world.decision['count']} storm marker(s): one a weather device")
    if cell not in storm_hexes(world):
        raise combat.CombatError(
            f"a storm goes on a land hex of France or England without one: not {geo.hexes[cell].id}"
        )
    world.extra.setdefault("storms", []).append(geo.hexes[cell].id)
    world.say(f"a storm gathers over {geo.hexes[cell].id}")


def storm_shifts(world: World, cell: int, attackers: list[Any]) -> int:
    return int(world.data.storm.get("shifts", 2)) if cell in storm_cells(world) else 0


def storm_cost(world: World, cell: int) -> int:
    # Asked at every step of every move considered: the common case, no storm, answered at once.
    if not world.extra.get("storms"):
        return 0
    return int(world.data.storm.get("move", 1)) if cell in storm_cells(world) else 0


# ---------------------------------------------------------------------- generators
def generators(world: World) -> list[Any]:
    return [u for u in world.on_map() if u.kind == "generator"]


def generator_hexes(world: World, side: str) -> list[int]:
    """Where a new generator may stand: a city of its own country its side holds, none there yet."""
    data = world.data
    held = supply.ground_masks(world)[data.enemy(side)]
    taken = {u.hex for u in generators(world)}
    nations = {n for s in data.sides if s.id == side for n in s.nations}
    return sorted(
        (
            c
            for c, owner in world.control.items()
            if owner == side
            and (data.cities >> c) & 1
            and data.geography.hexes[c].get("nation") in nations
            and c not in taken
            and not (held >> c) & 1
        ),
        key=lambda c: data.geography.hexes[c].id,
    )


def wreck_generators(world: World) -> None:
    """A generator whose hex an enemy ground unit has entered is destroyed."""
    for gen in generators(world):
        enemy = world.data.enemy(world.side_of(gen))
        if combat.defenders(world, gen.hex or -1, enemy):
            gen.where, gen.hex = GONE, None
            world.say(f"{gen.id} is overrun and destroyed")


def lightning(world: World) -> None:
    """In its side's Attrition phase, every enemy stack next to a generator loses a step."""
    geo = world.data.geography
    struck: set[int] = set()
    for gen in generators(world):
        if world.side_of(gen) != world.side or gen.hex is None:
            continue
        enemy = world.data.enemy(world.side)
        for n in geo.neighbours[gen.hex]:
            if n in struck:
                continue
            stack = combat.defenders(world, n, enemy)
            if stack:
                struck.add(n)
                world.say(f"{gen.id} hurls lightning at {geo.hexes[n].id}")
                combat.take_losses(world, stack, 1, 1)


def is_generator_hex(world: World, cell: int) -> bool:
    return any(u.kind == "generator" and u.hex == cell and u.where == MAP for u in world.units.values())


def _asks_for_storms(world: World, side: str, its: str) -> str | None:
    """What the start of an operational turn asks ``side``: its storm markers, once it has a device."""
    return f"placing {its} storm markers" if storm_side(world) == side and built(world, side) else None


LAYER = Layer(
    "inventions",
    strategic=roll_for_inventions,
    operational=ask_for_storms,
    operational_asks=_asks_for_storms,
    attrition=lightning,
    after_change=wreck_generators,
    entry_cost=storm_cost,
    shifts=storm_shifts,
)
"""The weather control devices' and the generators' rules on the engine's hooks."""
