"""Monstrous artilleries: HQs fire at enemy stacks in the Bombard phase, before any combat.

An HQ's two numbers are its dice and its kill number; its range, in hexes, is the kill number. Every
bombard of the phase is designated (``bombard HEX with HQ``) before any die is rolled: the phasing
side's submission for the phase is the list of them, and the dice fall when it is processed. A die
kills a step when, plus its modifiers, it is at or under the kill number: +1 if the target hex is not
clear or flood plain (towns, cities and fortresses are not clear), +1 if no unit of the firing side
stands next to the target. Hits on a stack beyond its steps are wasted; the first hit on a hex with a
tank in each Bombard phase is ignored; HQs die last, the fortress's own steps after every unit; air
units, generators and the armoured front buster are immune. A hex emptied of enemy ground units and
fortress steps may be neither attacked nor entered by advance in the combat phase that follows.
"""

from __future__ import annotations

from . import combat, supply
from .state import MAP, Unit, World

OPEN_TERRAIN = ("clear", "flood_plain")


class BombardError(ValueError):
    """A bombard the rules refuse; the message says why."""


def guns(unit: Unit) -> tuple[int, int]:
    return unit.spec.type.guns if unit.kind == "hq" else (0, 0)


def hittable(world: World, cell: int, side: str) -> list[Unit]:
    """The units of ``side`` in ``cell`` a bombard can kill."""
    return [u for u in combat.defenders(world, cell, side) if u.kind not in combat.IMMUNE]


def targets_of(world: World, hq: Unit) -> list[int]:
    """Hexes ``hq`` may bombard: within range on its own map, holding something it can hit."""
    dice, kill = guns(hq)
    if dice <= 0 or hq.hex is None:
        return []
    geo = world.data.geography
    enemy = world.data.enemy(world.side_of(hq))
    out = []
    for cell in geo.bitboard.bits(supply.ground_masks(world)[enemy]):
        distance = geo.distance(hq.hex, cell)
        if distance is None or distance > kill:
            continue
        if hittable(world, cell, enemy) or (
            world.fortress.get(cell, 0) > 0 and world.control.get(cell) == enemy
        ):
            out.append(cell)
    return sorted(out, key=lambda c: geo.hexes[c].id)


def gunners(world: World) -> list[Unit]:
    """HQs of the phasing side that can still designate a target this phase."""
    designated = {hq for hq, _ in world.extra.get("bombards", [])}
    return sorted(
        (
            u
            for u in world.on_map()
            if world.side_of(u) == world.side
            and u.id not in designated
            and guns(u)[0] > 0
            and targets_of(world, u)
        ),
        key=lambda u: u.id,
    )


def designate(world: World, hq: Unit, cell: int) -> None:
    geo = world.data.geography
    if hq.where != MAP or hq.kind != "hq" or world.side_of(hq) != world.side:
        raise BombardError(f"{hq.id} is not an HQ of the phasing side on the map")
    if guns(hq)[0] <= 0:
        raise BombardError(f"{hq.id} has no gun (a 0-{guns(hq)[1]} HQ is just an HQ)")
    if any(h == hq.id for h, _ in world.extra.get("bombards", [])):
        raise BombardError(f"{hq.id} has already designated its target this phase")
    if cell not in targets_of(world, hq):
        raise BombardError(
            f"{hq.id} cannot bombard {geo.hexes[cell].id}: the target must hold enemy units it can hit, "
            f"at most {guns(hq)[1]} hexes away on the same map"
        )
    world.extra.setdefault("bombards", []).append([hq.id, geo.hexes[cell].id])


def fire(world: World) -> None:
    """Roll every designated bombard, then take the hits, then mark the hexes they emptied."""
    geo = world.data.geography
    side = world.side
    enemy = world.data.enemy(side)
    hits: dict[int, int] = {}
    for hq_id, hid in world.extra.pop("bombards", []):
        hq = world.units[hq_id]
        cell = geo.hex(hid).index
        dice, kill = guns(hq)
        modifier = 0 if geo.hexes[cell].terrain in OPEN_TERRAIN and not world.data.place(cell) else 1
        own = supply.ground_masks(world)[side]
        if not any((own >> n) & 1 for n in geo.neighbours[cell]):
            modifier += 1  # no spotters next to the target
        rolled = [world.roll(f"bombard of {hid} by {hq_id}", hid) for _ in range(dice)]
        scored = sum(1 for d in rolled if d + modifier <= kill)
        hits[cell] = hits.get(cell, 0) + scored
        world.say(
            f"{hq_id} bombards {geo.hexes[cell].name} ({hid}): dice {', '.join(map(str, rolled))}, "
            f"+{modifier}, kill on {kill} or less: {scored} hit{'s' if scored != 1 else ''}"
        )
    for cell, count in sorted(hits.items()):
        if count and any(u.kind == "tank" for u in combat.defenders(world, cell, enemy)):
            count -= 1
            world.say(f"the tank in {geo.hexes[cell].id} shrugs off the first hit")
        combat.take_losses(world, hittable(world, cell, enemy), count, 1, cell)
        if not combat.defenders(world, cell, enemy) and world.fortress.get(cell, 0) <= 0:
            world.cleared.append(cell)
            world.say(f"{geo.hexes[cell].id} is cleared by bombardment: no one goes near it this phase")
