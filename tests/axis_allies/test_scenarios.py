"""Every rule of the Axis & Allies games as a scenario fixture (see harness.py for the format)."""

from __future__ import annotations

from typing import Any

import pytest

from interboard.games.axis_allies.family import FAMILY

from .. import scenario_files
from .harness import build, load_cases, seat, state_of, units_by_space

CASES = load_cases()


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_scenario(case: dict[str, Any]) -> None:
    state = state_of(build(case))
    who = seat(case, state)
    actions = case.get("actions", [])
    if not scenario_files.checked(FAMILY, state, who, case):
        return
    done = FAMILY.process(state, {who: actions})
    after = done.state
    expect = case["expect"]
    for sid, holder in expect.get("owner", {}).items():
        assert after["owner"].get(sid) == holder, f"{sid} held by {after['owner'].get(sid)}, not {holder}"
    found = units_by_space(after)
    for sid, counts in expect.get("units", {}).items():
        assert dict(found.get(sid, {})) == counts, f"{sid}: {dict(found.get(sid, {}))}"
    for economy, amount in expect.get("ipcs", {}).items():
        assert after["ipcs"][economy] == amount, f"{economy} has {after['ipcs'][economy]}, not {amount}"
    for key, value in expect.get("extra", {}).items():
        assert after["extra"].get(key) == value, f"extra {key}: {after['extra'].get(key)}"
    for key in ("phase", "winner", "convoys", "bought"):
        if key in expect:
            assert after.get(key) == expect[key], f"{key}: {after.get(key)}"
    if "power" in expect:
        assert after["turn"] == [p["id"] for p in FAMILY_powers(after)].index(expect["power"])
    messages = " | ".join(str(r.get("message", "")) for r in done.results)
    for text in expect.get("log", []):
        assert text in messages, messages


def FAMILY_powers(state: dict[str, Any]) -> list[dict[str, Any]]:
    from interboard.games.axis_allies.gamedata import game_data

    return [{"id": p.id} for p in game_data(state["game"]).powers]
