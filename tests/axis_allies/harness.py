"""Scenario fixtures of the Axis & Allies family: a position, the actions of one decision point,
and what must follow (``tests/axis_allies/scenarios/*.json``, read by ``test_scenarios.py``).

A case::

    {"name": "armour_blitzes_through_an_empty_enemy_territory",
     "game": "aa_europe_1999", "power": "GERMANY", "phase": "combat_move",
     "units": ["GERMANY 1 armour Poland", "USSR 1 infantry Belorussia"],   # replaces every unit
                                                  # ("UK 1 fighter North Sea on patrol": on CAP)
     "owner": {"EAST_POLAND": "USSR"}, "ipcs": {"GERMANY": 10},           # over the published start
     "actions": ["move 1 armour from Poland to Belorussia via East Poland"],
     "expect": {"owner": {"EAST_POLAND": "GERMANY"}, "units": {"BELORUSSIA": {"GERMANY armour": 1}}}}

``bought`` replaces the units to place; without it, those the turn's start grants (the linked
game's free units) are there. ``taken`` (``{"LIBYA": "UK"}``) gives territories to a power after its
turn began, as if taken in this turn's combat (``owner`` sets the position the turn starts from).

``refused`` instead of ``expect`` names a text the refusal must contain (the actions before the last
must be accepted). ``process`` plays the decision point to its end (then ``expect`` may check
``ipcs``, ``phase``, ``power``, ``bought``, ``convoys``, ``winner``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from interboard.games.axis_allies.engine import begin_turn
from interboard.games.axis_allies.family import FAMILY
from interboard.games.axis_allies.options import Options
from interboard.games.axis_allies.state import Phase, World, new_world

from .. import scenario_files

SCENARIOS = Path(__file__).parent / "scenarios"


def load_cases() -> list[dict[str, Any]]:
    return scenario_files.load_cases(SCENARIOS)


def build(case: dict[str, Any]) -> World:
    world = new_world(case["game"], Options.from_json(case.get("options", {})), case.get("seed", 1))
    if "units" in case:
        world.units, world.next_id = {}, 1
        for line in case["units"]:
            patrol = line.endswith(" on patrol")  # a fighter on combat air patrol (the linked game)
            line = line.removesuffix(" on patrol")
            power, count, rest = line.split(" ", 2)
            type_, _, at = rest.partition(" ")
            space = FAMILY_space(world, at)
            for _ in range(int(count)):
                unit = world.add_unit(type_, power, space)
                unit.cap = patrol
                if patrol:
                    continue
                if world.is_sea(space) and world.unit_type(unit).is_land:
                    ship = next(
                        u
                        for u in world.at(space)
                        if u.owner == power and world.unit_type(u).transport_capacity
                    )
                    unit.aboard = ship.id
                elif world.is_sea(space) and world.unit_type(unit).is_air:
                    carrier = next((u for u in world.at(space) if world.unit_type(u).carrier_capacity), None)
                    unit.aboard = carrier.id if carrier else None
    world.owner.update(case.get("owner", {}))
    for sid, holder in case.get("owner", {}).items():
        if holder is None:
            world.owner.pop(sid, None)
    world.ipcs.update(case.get("ipcs", {}))
    world.round = case.get("round", 1)
    world.turn = world.order.index(case.get("power", world.order[0]))
    begin_turn(world)
    for sid, holder in case.get("taken", {}).items():
        world.owner[sid] = holder
        world.extra["conquered"].append(sid)
    world.phase = Phase(case.get("phase", "purchase"))
    if "bought" in case:  # otherwise what the turn's start granted (free units) stays to place
        world.bought = {e: dict(b) for e, b in case["bought"].items()}
    world.convoys.update(case.get("convoys", {}))
    world.captured_capitals.update(case.get("captured", {}))
    world.extra.update(case.get("extra", {}))
    return world


def FAMILY_space(world: World, name: str) -> str:
    from interboard.games.axis_allies.actions import space_of

    return space_of(world.data, name, "fixture")


def state_of(world: World) -> dict[str, Any]:
    return {"variant": world.data.id, **world.to_json()}


def units_by_space(state: dict[str, Any]) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for u in state["units"]:
        out.setdefault(u["at"], Counter())[f"{u['p']} {u['t']}"] += 1
    return out


def seat(case: dict[str, Any], state: dict[str, Any]) -> str:
    return case.get("seat") or FAMILY.pending(state).seats[0]
