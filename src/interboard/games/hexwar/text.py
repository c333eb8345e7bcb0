"""A plain-text view of a hex wargame position, for the terminal."""

from __future__ import annotations

from . import rules, supply
from .state import AVAILABLE, MAP, World


def world_text(world: World) -> str:
    data = world.data
    geo = data.geography
    lines = [f"{data.title}: turn {world.turn_name()}, {world.side} {world.phase_name.replace('_', ' ')}"]
    if world.stage == "setup":
        lines[0] = f"{data.title}: set-up"
    if world.stage == "over":
        lines.append(f"  over: {world.result}")
    states = supply.unit_states(world)
    for side in data.side_ids:
        points = rules.victory_points(world, side)
        lines.append(f"  {side}: victory progress {points}")
        stacks: dict[int, list[str]] = {}
        for u in world.units.values():
            if u.where == MAP and u.hex is not None and world.side_of(u) == side:
                mark = {"attack": "", "defence": "d", "out": "!"}[states.get(u.id, "attack")]
                stacks.setdefault(u.hex, []).append(u.id + ("'" if u.lost else "") + mark)
        for cell in sorted(stacks, key=lambda c: geo.hexes[c].id):
            h = geo.hexes[cell]
            name = f" {h.name}" if h.get("name") else ""
            lines.append(f"    {h.id}{name}: {' '.join(sorted(stacks[cell]))}")
        waiting = sorted(
            u.id for u in world.units.values() if u.where == AVAILABLE and world.side_of(u) == side
        )
        if waiting:
            lines.append(f"    to place: {' '.join(waiting)}")
    if data.england:
        lines.append(
            f"  tunnel: {'open' if world.tunnel_open else 'sealed'}; stacks to come {world.tunnel_stacks}"
        )
    if world.decision:
        lines.append(
            f"  {world.decision['seat']} decides: {world.decision['kind']} at {world.decision['hex']}"
        )
    lines.append("  (' reduced, d defence supply only, ! out of supply)")
    return "\n".join(lines)
