"""Scenario fixtures of the Axis & Allies family: a position, the actions of one decision point,
and what must follow (``tests/axis_allies/scenarios/*.json``, read by ``test_scenarios.py``).

A case is a scenario position (``docs/scenarios.md``: the fields of an Axis & Allies position, read
by the family's own scenario reader) with the test's keys beside it::

    {"name": "armour_blitzes_through_an_empty_enemy_territory",
     "game": "aa_europe_1999", "power": "GERMANY", "phase": "combat_move",
     "units": ["GERMANY 1 armour Poland", "USSR 1 infantry Belorussia"],   # replaces every unit
                                                  # ("UK 1 fighter North Sea on patrol": on CAP)
     "owner": {"EAST_POLAND": "USSR"}, "ipcs": {"GERMANY": 10},           # over the published start
     "actions": ["move 1 armour from Poland to Belorussia via East Poland"],
     "expect": {"owner": {"EAST_POLAND": "GERMANY"}, "units": {"BELORUSSIA": {"GERMANY armour": 1}}}}

``game``, ``options`` and ``seed`` are the scenario's variant, options and seed.

``refused`` instead of ``expect`` names a text the refusal must contain (the actions before the last
must be accepted). ``process`` plays the decision point to its end (then ``expect`` may check
``ipcs``, ``phase``, ``power``, ``bought``, ``convoys``, ``winner``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from interboard.games.axis_allies import scenario
from interboard.games.axis_allies.family import FAMILY
from interboard.games.axis_allies.state import World

from .. import scenario_files

SCENARIOS = Path(__file__).parent / "scenarios"


def load_cases() -> list[dict[str, Any]]:
    return scenario_files.load_cases(SCENARIOS)


def position(case: dict[str, Any]) -> dict[str, Any]:
    """The case's position: its scenario fields (``docs/scenarios.md``), without the test's own."""
    return {key: case[key] for key in scenario.FIELDS if key in case}


def build(case: dict[str, Any]) -> World:
    """The case's position, read as a scenario file's is."""
    return scenario.build(case["game"], case.get("options", {}), case.get("seed", 1), position(case))


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


def east_poland_battles() -> Iterator[dict[str, Any]]:
    """Germany's 4 infantry attack East Poland (2 Soviet infantry and an armour), one game a seed
    from 1 to 29: the state after the combat move, its first battle round fought."""
    for seed in range(1, 30):
        case = {
            "game": "aa_europe_1999",
            "seed": seed,
            "power": "GERMANY",
            "phase": "combat_move",
            "units": [
                "GERMANY 4 infantry Poland",
                "USSR 2 infantry East Poland",
                "USSR 1 armour East Poland",
                "USSR 1 infantry Moscow",
            ],
        }
        move = ["move 4 infantry from Poland to East Poland"]
        yield FAMILY.process(state_of(build(case)), {"GERMANY": move}).state
