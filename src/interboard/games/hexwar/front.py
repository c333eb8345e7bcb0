"""The England front (the ``england`` section of the data): which hexes are England, and the seed's
"No unit in England may ever leave England while fighting continues".

The fighting continues while both sides have ground units in England. Every way a ground unit could
leave (a move, a Zeppelin's sortie or base change with the unit aboard) asks :func:`why_not_leave`,
so that no route out forgets the rule.
"""

from __future__ import annotations

from .state import MAP, Unit, World
from .supply import NOT_GROUND


def england_mask(world: World) -> int:
    england = world.data.england
    return world.data.map_mask([england["map"]]) if england else 0


def in_england(world: World, cell: int | None) -> bool:
    return cell is not None and bool((england_mask(world) >> cell) & 1)


def fighting_in_england(world: World) -> bool:
    """Both sides have ground units in England."""
    mask = england_mask(world)
    sides = {
        world.side_of(u)
        for u in world.units.values()
        if u.where == MAP and u.hex is not None and (mask >> u.hex) & 1 and u.kind not in NOT_GROUND
    }
    return len(sides) >= 2


def why_not_leave(world: World, unit: Unit, target: int) -> str | None:
    """Why ground unit ``unit`` may not go to ``target`` by the England front's rule (None: it may)."""
    if unit.kind in NOT_GROUND or not in_england(world, unit.hex) or in_england(world, target):
        return None
    if fighting_in_england(world):
        return f"{unit.id} stays: no unit leaves England while the fighting goes on there"
    return None
