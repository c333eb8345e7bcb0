"""Rule layers belong to their variant: the engine runs the hooks of the layers a variant's data
names, and no others. The same positions (the inventions' scenario cases) are played with the
Vernian data and with that data less its ``inventions`` layer."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from interboard.games.hexwar import air, armour, combat, engine, inventions, movement
from interboard.games.hexwar.actions import parse_action
from interboard.games.hexwar.gamedata import GameData, game_data
from interboard.games.hexwar.layers import hooks
from interboard.games.hexwar.state import World

from .harness import build, load_cases

VERNIAN = game_data("vernian_wwi")
WITHOUT_INVENTIONS = replace(VERNIAN, layers=tuple(n for n in VERNIAN.layers if n != "inventions"))
CASES = {case["name"]: case for case in load_cases()}


def world_of(name: str, data: GameData) -> World:
    """The scenario case's position, played with ``data``."""
    world = build(CASES[name])
    world.data = data
    return world


def play(world: World, seat: str, *texts: str) -> None:
    for text in texts:
        engine.apply(world, seat, parse_action(world.data, text))


def end_phase(world: World) -> None:
    """The phasing side's submission is over: the game runs on to the next decision."""
    engine.finish_step(world)
    engine.run_on(world)


def test_the_vernian_variant_names_its_layers_and_a_variant_may_leave_one_out() -> None:
    assert VERNIAN.layers == ("inventions", "air", "armour")
    assert hooks(world_of("storms_go_one_a_hex", VERNIAN)).layers == (
        inventions.LAYER,
        air.LAYER,
        armour.LAYER,
    )
    plain = hooks(world_of("storms_go_one_a_hex", WITHOUT_INVENTIONS))
    assert plain.layers == (air.LAYER, armour.LAYER)
    every_hook: list[Any] = [
        *plain.strategic,
        *plain.operational,
        *plain.operational_asks,
        *plain.attrition,
        *plain.on_change,
        *plain.after_change,
        *plain.shifts,
        *plain.entry_cost,
    ]
    assert not [f for f in every_hook if f.__module__ == inventions.__name__]


@pytest.mark.parametrize(
    ("data", "runs"), [(VERNIAN, True), (WITHOUT_INVENTIONS, False)], ids=["vernian", "plain"]
)
def test_the_start_of_a_strategic_turn_rolls_for_inventions_only_with_the_layer(
    data: GameData, runs: bool
) -> None:
    world = world_of("the_allies_build_a_weather_device_on_a_one_or_two_with_germans_near_paris", data)
    end_phase(world)
    assert world.turn_name() == "B1"
    built = "Allies build a Weather Control Projection Device (die 2)" in world.log
    assert built is runs
    assert (world.extra.get("inventions") == {"Allies": 1}) is runs
    assert (world.decision is not None and world.decision["kind"] == "storms") is runs


@pytest.mark.parametrize(
    ("data", "runs"), [(VERNIAN, True), (WITHOUT_INVENTIONS, False)], ids=["vernian", "plain"]
)
def test_a_storm_shifts_an_attack_and_slows_a_move_only_with_the_layer(data: GameData, runs: bool) -> None:
    world = world_of("a_storm_shifts_an_attack_on_its_hex_two_left", data)
    target = world.data.hex("W4707").index
    odds = combat.odds(world, target, [world.units["GE-C01"], world.units["GE-C02"]])
    assert odds.shifts == (2 if runs else 0)
    world = world_of("entering_a_storm_hex_costs_one_more", data)
    reach = movement.reachable(world, world.units["GE-C01"])
    assert (world.data.hex("W5007").index not in reach) is runs


@pytest.mark.parametrize(
    ("data", "runs"), [(VERNIAN, True), (WITHOUT_INVENTIONS, False)], ids=["vernian", "plain"]
)
def test_a_generator_strikes_and_is_overrun_only_with_the_layer(data: GameData, runs: bool) -> None:
    world = world_of("a_generator_strikes_every_adjacent_allied_stack_in_germanys_attrition", data)
    end_phase(world)
    assert ("GE-G01 hurls lightning at W4707" in world.log) is runs
    assert world.units["BE-C01"].lost == (1 if runs else 0)
    world = world_of("a_generator_is_destroyed_when_an_enemy_enters_its_hex", data)
    play(world, "Allies", "move BE-C01 W4706")
    assert (world.units["GE-G01"].where == "eliminated") is runs


def test_a_variant_may_not_play_a_phase_of_a_layer_it_does_not_name() -> None:
    world = world_of("storms_go_one_a_hex", replace(VERNIAN, layers=("inventions", "armour")))
    with pytest.raises(ValueError, match=r"zeppelin_base_change.*a phase of no layer it plays with"):
        hooks(world)
