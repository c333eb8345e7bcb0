"""Who fires at what in a round of battle (cases/volleys.json), and the choice of casualties."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interboard.games.axis_allies import volleys as v
from interboard.games.axis_allies.gamedata import game_data
from interboard.games.axis_allies.state import Unit

CASES = json.loads((Path(__file__).parent / "cases" / "volleys.json").read_text(encoding="utf-8"))["cases"]


def side(types: list[str], owner: str, start: int) -> list[Unit]:
    return [Unit(start + k, t, owner, "X") for k, t in enumerate(types)]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_volleys(case: dict[str, Any]) -> None:
    table = game_data(case.get("game", "aa_europe_1999")).units
    attackers = side(case["attacker"], "A", 0)
    defenders = side(case["defender"], "D", 100)
    ctx = v.Context(
        land=case["land"],
        first_round=case.get("first_round", True),
        amphibious={attackers[k].id for k in case.get("amphibious", [])},
        surprise=case.get("surprise", False),
        aa=case.get("aa", False),
        air_needs_destroyer=case.get("air_needs_destroyer", True),
        defending_subs_first_strike=case.get("defending_subs_first_strike", False),
    )
    got = [
        [x.side, list(x.values), x.targets]
        for x in v.volleys(case["stage"], table, attackers, defenders, ctx)
    ]
    assert got == case["volleys"]


def test_low_luck_turns_totals_into_hits() -> None:
    rolls = iter([3, 6])
    got = v.roll(v.Volley("attacker", (3, 3, 3, 2), "any"), lambda: next(rolls), low_luck=True)
    assert got.hits == 2 and got.dice == [3]  # 11 = one sure hit, and 5 rolled: a 3 hits
    got = v.roll(v.Volley("attacker", (3, 3), "any"), lambda: next(rolls), low_luck=True)
    assert got.hits == 1 and got.dice == []  # 6: one hit, nothing to roll
    got = v.roll(v.Volley("attacker", (2, 2), "any"), lambda: 6, low_luck=True)
    assert got.hits == 0 and got.dice == [6]


def test_dice_hit_at_or_under_the_value() -> None:
    rolls = iter([1, 4, 3, 6])
    got = v.roll(v.Volley("defender", (2, 4, 2, 4), "any"), lambda: next(rolls), low_luck=False)
    assert got.dice == [1, 4, 3, 6] and got.hits == 2


def test_default_casualties_take_the_battleships_free_hit_then_the_cheapest() -> None:
    table = game_data("aa_europe_1999").units
    fleet = side(["battleship", "destroyer", "transport", "carrier"], "D", 0)
    assert v.default_losses(table, fleet, {"any": 1}, attacking=False) == [0]  # the free hit
    assert v.default_losses(table, fleet, {"any": 3}, attacking=False) == [
        0,
        2,
        1,
    ]  # then transport, destroyer
    fleet[0].damage = 1
    assert v.default_losses(table, fleet, {"any": 1}, attacking=False) == [2]


def test_submarine_hits_go_to_ships_and_aa_hits_to_aircraft() -> None:
    table = game_data("aa_europe_1999").units
    mixed = side(["fighter", "destroyer"], "D", 0)
    assert v.default_losses(table, mixed, {"sea": 1}, attacking=False) == [1]
    assert v.default_losses(table, mixed, {"air": 1}, attacking=False) == [0]
    assert v.default_losses(table, side(["infantry"], "D", 0), {"air": 1}, attacking=True) == []


def test_chosen_casualties_are_checked() -> None:
    table = game_data("aa_europe_1999").units
    fleet = side(["fighter", "destroyer", "destroyer"], "D", 0)
    assert v.assign(table, fleet, {"sea": 1, "any": 1}, [("fighter", 1), ("destroyer", 1)]) == [0, 1]
    with pytest.raises(ValueError, match="cannot take these hits"):
        v.assign(table, fleet, {"sea": 2}, [("fighter", 1), ("destroyer", 1)])
    with pytest.raises(ValueError, match="take 2 casualties, not 1"):
        v.assign(table, fleet, {"any": 2}, [("destroyer", 1)])
    with pytest.raises(ValueError, match="only 1 hit"):
        v.assign(table, fleet, {"any": 2}, [("fighter", 2)])


def test_a_battleship_takes_two_hits_when_chosen_twice() -> None:
    table = game_data("aa_europe_1999").units
    fleet = side(["battleship", "destroyer"], "D", 0)
    assert v.assign(table, fleet, {"any": 2}, [("battleship", 2)]) == [0, 0]


def test_stalemates_are_seen() -> None:
    table = game_data("aa_europe_1999").units
    ctx = v.Context(land=False, first_round=False)
    assert v.can_hit(table, side(["fighter"], "A", 0), side(["submarine"], "D", 10), ctx) == (False, False)
    assert v.can_hit(table, side(["transport"], "A", 0), side(["transport"], "D", 10), ctx) == (False, True)
    assert v.can_hit(table, side(["destroyer"], "A", 0), side(["submarine"], "D", 10), ctx) == (True, True)
