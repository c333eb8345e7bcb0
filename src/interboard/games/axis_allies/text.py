"""A plain-text view of an Axis & Allies position, for the terminal."""

from __future__ import annotations

from collections import Counter

from .rules import income_of
from .state import World


def world_text(world: World) -> str:
    data = world.data
    lines = [f"Round {world.round}: {data.power(world.power).name}, {world.phase.value.replace('_', ' ')}"]
    for p in data.powers:
        purse = ", ".join(f"{e.id} {world.ipcs.get(e.id, 0)}" for e in p.economies)
        income = sum(income_of(world, p.id).values())
        lines.append(f"  {p.name}: {purse} IPCs in hand, income {income}")
    by_space: dict[str, Counter[str]] = {}
    for u in world.units.values():
        by_space.setdefault(u.at, Counter())[f"{u.owner[:3]} {world.unit_type(u).name}"] += 1
    for space in sorted(by_space, key=world.space_name):
        holder = world.owner.get(space)
        units = ", ".join(f"{n} {k}" for k, n in sorted(by_space[space].items()))
        lines.append(f"  {world.space_name(space)}{f' ({holder})' if holder else ''}: {units}")
    bought = {e: b for e, b in world.bought.items() if any(b.values())}
    if bought:
        lines.append(
            "  to place: "
            + "; ".join(
                f"{e}: " + ", ".join(f"{n} {t}" for t, n in b.items() if n) for e, b in bought.items()
            )
        )
    return "\n".join(lines)
