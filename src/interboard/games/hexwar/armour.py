"""The Armoured Front Buster, the Allies' land battleship.

It moves one hex a turn while in attack supply (none out of it), never into mountains or the sea nor
across an all-sea hexside, whatever stands in front of it: enemy ground units in the hex it enters
are pushed straight back one hex (on along the line it came), and if they overstack the hex they are
pushed into, the surplus of the units already there is pushed on in turn, and so on. A unit pushed
off the map, into sea, neutral ground or mountains, or into a hex of the buster's side, is
destroyed; so is a unit that cannot move (a fortress division). A fortress in the hex it enters is
destroyed. Its own hex cannot be attacked in normal combat; it is immune to enemy action, and
counts as a division for stacking.
"""

from __future__ import annotations

from . import supply
from .layers import Layer, SpecialMover
from .movement import stack_fits
from .state import GONE, Unit, World

BARRED = ("mountain",)
"""Terrain the buster cannot enter."""


def allowance(world: World, unit: Unit, points: int) -> int:
    """One hex a turn in attack supply, none out of it."""
    if unit.kind != "afb" or unit.hex is None:
        return points
    own = supply.supply_map(world, world.side_of(unit))
    return 1 if own.state(unit.hex) == supply.ATTACK else 0


def steps(world: World, unit: Unit) -> dict[int, int]:
    """The hexes the buster may enter (cost 1 each), its own at 0."""
    assert unit.hex is not None
    geo = world.data.geography
    out = {unit.hex: 0}
    if allowance(world, unit, 1) < 1:
        return out
    for n in geo.neighbours[unit.hex]:
        if n in world.data.move_cost and geo.hexes[n].terrain not in BARRED and not geo.all_sea(unit.hex, n):
            out[n] = 1
    return out


def _direction(world: World, a: int, b: int) -> str | None:
    board = world.data.geography.bitboard
    for d in ("N", "NE", "SE", "S", "SW", "NW"):
        if board.step(1 << a, d) == 1 << b:
            return d
    return None


def enter(world: World, unit: Unit, target: int) -> None:
    """The buster moves into ``target`` (checked), pushing what stands there."""
    assert unit.hex is not None
    geo = world.data.geography
    direction = _direction(world, unit.hex, target)
    assert direction is not None
    side = world.side_of(unit)
    enemy = world.data.enemy(side)
    pushed = [u for u in world.at(target) if world.side_of(u) == enemy and u.kind not in supply.NOT_GROUND]
    if pushed:
        push(world, target, direction, pushed)
    if world.fortress.get(target, 0) > 0:
        world.fortress[target] = 0
        world.say(f"the armoured front buster crushes the fortress of {geo.hexes[target].name}")
    unit.hex = target


def push(world: World, cell: int, direction: str, units: list[Unit]) -> None:
    """Push ``units`` out of ``cell`` one hex in ``direction``, cascading on overstacking."""
    geo = world.data.geography
    board = geo.bitboard
    side = world.side_of(units[0])
    ahead = board.step(1 << cell, direction)
    nxt = ahead.bit_length() - 1 if ahead else None
    blocked = (
        nxt is None
        or nxt not in world.data.move_cost
        or geo.hexes[nxt].terrain in BARRED
        or geo.all_sea(cell, nxt)
        or (supply.ground_masks(world)[world.data.enemy(side)] >> nxt) & 1
    )
    for u in list(units):
        if blocked or u.factors()[2] <= 0:
            u.where, u.hex = GONE, None
            world.say(f"{u.id} is pushed off {geo.hexes[cell].id} with nowhere to go and is destroyed")
            units.remove(u)
    if not units or nxt is None:
        return
    occupants = [
        u
        for u in world.at(nxt)
        if world.side_of(u) == side and u.kind not in supply.NOT_GROUND and u not in units
    ]
    for u in units:
        u.hex = nxt
    world.say(f"{', '.join(u.id for u in units)} are pushed back to {geo.hexes[nxt].id}")
    surplus: list[Unit] = []
    for u in sorted(occupants, key=lambda u: u.id):
        if stack_fits(world, side, nxt, []) is None:
            break
        u.hex = None  # out of the count while the stack is measured
        surplus.append(u)
    for u in surplus:
        u.hex = nxt
    if surplus:
        push(world, nxt, direction, surplus)


LAYER = Layer("armour", allowance=allowance, movers={"afb": SpecialMover(steps, enter)})
"""The buster's rules on the engine's hooks."""
