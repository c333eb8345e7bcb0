"""Scenario fixtures of the hex wargame family: a position, the actions of one seat, and what must
follow (``tests/hexwar/scenarios/*.json``, read by ``test_scenarios.py``).

A case::

    {"name": "infantry_stops_on_entering_an_enemy_zone_of_control",
     "turn": "A2", "side": "Germany", "phase": "movement",      # the phasing side and its phase
     "units": {"GE-C01": "W4607", "BE-C01": "W4908"},          # every other counter leaves the map
     "lost": {"GE-C01": 1}, "control": {"W4907": "Germany"}, "fortress": {"W4907": 0},
     "available": ["GE-C30"], "tunnel": {"open": true, "stacks": [["GE-D15"]]},
     "dice": [4],                                               # the next dice the generator gives
     "actions": ["move GE-C01 W4808"],
     "expect": {"units": {"GE-C01": "W4808"}, "lost": {"GE-C01": 1}, "eliminated": ["BE-C01"],
                "supply": {"GE-C01": "attack"}, "control": {"W4907": "Germany"},
                "decision": {"kind": "retreat", "options": ["W5008"]}, "log": ["text in the log"],
                "defaulted": ["retreat W5008"]}}                        # orders played by default

The actions are checked and played by the engine one by one (as a player building a submission);
with ``"process": true`` they are submitted to the family and the decision point is processed
(then the turn moves on, and ``expect`` may check ``phase``, ``turn``, ``side``, ``stage``,
``winner``, ``tunnel_open``). ``refused`` instead of ``expect`` names a text the refusal of the last
action must contain (the actions before it must be accepted).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interboard import rng
from interboard.games.hexwar import scenario, supply
from interboard.games.hexwar.family import FAMILY
from interboard.games.hexwar.state import AVAILABLE, World

from .. import scenario_files

SCENARIOS = Path(__file__).parent / "scenarios"


def load_cases() -> list[dict[str, Any]]:
    return scenario_files.load_cases(SCENARIOS)


def rng_giving(dice: list[int]) -> int:
    """A generator state whose next dice are ``dice``."""
    for seed in range(1_000_000):
        state = rng.seed_state(seed)
        if list(rng.roll_dice(state, len(dice))[1]) == dice:
            return state
    raise AssertionError(f"no seed gives dice {dice}")


def position(case: dict[str, Any]) -> dict[str, Any]:
    """The case's scenario position (``docs/scenarios.md``): its fields over the fixtures' defaults
    (turn A1, Germany's movement; the tunnel open while Germans hold Dover, or with no units given).
    The files call the markers ``extra``."""
    fields = {key: case[key] for key in scenario.FIELDS if key in case}
    if "extra" in case:
        fields["markers"] = case["extra"]
    dover_held = any(hid == "E0214" and uid.startswith("GE-") for uid, hid in case.get("units", {}).items())
    tunnel = {
        "open": dover_held or "units" not in case,
        "stacks": [],
        "returning": {},
        **case.get("tunnel", {}),
    }
    return {"stage": "play", "turn": "A1", "side": "Germany", "phase": "movement", **fields, "tunnel": tunnel}


def build(case: dict[str, Any]) -> World:
    """The case's position, read as a scenario file's is, with its next dice."""
    world = scenario.build("vernian_wwi", case.get("seed", 1), position(case))
    if "dice" in case:
        world.rng = rng_giving(case["dice"])
    return world


def state_of(world: World) -> dict[str, Any]:
    return {"variant": "vernian_wwi", **world.to_json()}


def seat(case: dict[str, Any]) -> str:
    return str(case.get("seat", case.get("side", "Germany")))


def check_expectations(
    world: World, case: dict[str, Any], log: list[str], results: list[dict[str, Any]] | None = None
) -> None:
    geo = world.data.geography
    expect = case["expect"]
    for uid, hid in expect.get("units", {}).items():
        unit = world.units[uid]
        where = geo.hexes[unit.hex].id if unit.hex is not None else unit.where
        assert where == hid, f"{uid} is in {where}, not {hid}"
    for uid, lost in expect.get("lost", {}).items():
        assert world.units[uid].lost == lost, f"{uid} has lost {world.units[uid].lost} steps, not {lost}"
    for uid in expect.get("eliminated", []):
        assert world.units[uid].where == "eliminated", f"{uid} is {world.units[uid].where}, not eliminated"
    for uid in expect.get("improved", []):
        assert world.units[uid].improved, f"{uid} is not on its improved side"
    for uid in expect.get("moved", []):
        assert uid in world.moved, f"{uid} has not moved this phase: {world.moved}"
    for uid in expect.get("crack", []):
        assert world.units[uid].crack, f"{uid} is not a crack unit"
    for uid in expect.get("not_crack", []):
        assert not world.units[uid].crack, f"{uid} is a crack unit"
    if "cleared" in expect:
        assert sorted(geo.hexes[c].id for c in world.cleared) == expect["cleared"], world.cleared
    for key, value in expect.get("extra", {}).items():
        assert world.extra.get(key) == value, f"extra {key}: {world.extra.get(key)!r}, not {value!r}"
    for uid in expect.get("available", []):
        assert world.units[uid].where == AVAILABLE, f"{uid} is {world.units[uid].where}, not available"
    if "supply" in expect:
        states = supply.unit_states(world)
        for uid, state in expect["supply"].items():
            assert states.get(uid) == state, f"{uid} is in {states.get(uid)} supply, not {state}"
    for hid, side in expect.get("control", {}).items():
        assert world.control.get(geo.hex(hid).index) == side, (
            f"{hid} is held by {world.control.get(geo.hex(hid).index)}"
        )
    for hid, steps in expect.get("fortress", {}).items():
        assert world.fortress.get(geo.hex(hid).index, 0) == steps
    if "decision" in expect:
        want = expect["decision"]
        if want is None:
            assert world.decision is None, world.decision
        else:
            assert world.decision is not None, "no decision is pending"
            for key, value in want.items():
                assert world.decision[key] == value, f"decision {key}: {world.decision[key]}, not {value}"
    for key, got in (
        ("phase", world.phase_name),
        ("turn", world.turn_name()),
        ("side", world.side),
        ("stage", world.stage),
        ("winner", world.winner),
        ("tunnel_open", world.tunnel_open),
        ("stacks", world.tunnel_stacks),
        ("returning", {str(k): v for k, v in world.returning.items()}),
    ):
        if key in expect:
            assert got == expect[key], f"{key}: {got!r}, not {expect[key]!r}"
    for text in expect.get("log", []):
        assert any(text in line for line in log), f"{text!r} is not in the log: {log}"
    for text in expect.get("not_in_log", []):
        assert not any(text in line for line in log), f"{text!r} is in the log: {log}"
    if "defaulted" in expect:
        played = [r["order"] for r in results or [] if r.get("default") and r.get("succeeded")]
        assert played == expect["defaulted"], f"orders played by default: {played}"


def run_case(case: dict[str, Any]) -> None:
    world = build(case)
    state = state_of(world)
    who = seat(case)
    actions = case.get("actions", [])
    if not scenario_files.checked(FAMILY, state, who, case):
        return
    if case.get("process"):
        done = FAMILY.process(state, {who: actions})
        after = World.from_json(done.state)
        log = [str(r.get("log", r.get("message", ""))) for r in done.results]  # as the rules wrote it
        check_expectations(after, case, log, list(done.results))
        return
    from interboard.games.hexwar.actions import parse_action
    from interboard.games.hexwar.engine import apply

    for text in actions:
        apply(world, who, parse_action(world.data, text))
    check_expectations(world, case, world.log)
