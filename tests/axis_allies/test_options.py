"""The page's option tree offers every unit that may move: each space holding a unit of the mover
with somewhere to go is a key of the tree, found here by the engine's own route search rather than
by the list that builds the tree (which once stopped at 400 actions, leaving most of Germany's
front unclickable)."""

from __future__ import annotations

import pytest

from interboard.games.axis_allies.family import FAMILY
from interboard.games.axis_allies.moves import MoveError, reachable
from interboard.games.axis_allies.state import Phase
from interboard.games.protocol import State

FIRST_MOVES = [
    ("aa_europe_1999", "GERMANY", ["POLAND", "NORWAY", "RUMANIA", "SOUTHERN_ITALY", "TYRRHENIAN_SEA"]),
    ("aa_pacific_2001", "JAPAN", []),
    ("aa_linked_world", "GERMANY", ["POLAND", "NORWAY", "RUMANIA", "SOUTHERN_ITALY"]),
]


def first_combat_move(variant: str, power: str) -> State:
    state = FAMILY.new_state(variant, {}, 1)
    for _ in range(40):
        pending = FAMILY.pending(state)
        if pending.phase.endswith(f"{power}.combat_move.{pending.phase.rsplit('.', 1)[1]}"):
            return state
        state = FAMILY.process(state, {seat: [] for seat in pending.seats}).state
    raise AssertionError(f"{variant}: no combat move of {power} in 40 decision points")


def spaces_with_a_move(state: State) -> set[str]:
    world = FAMILY._world(state)
    assert world.phase is Phase.COMBAT_MOVE
    out = set()
    for unit in world.units.values():
        if unit.owner != world.power or unit.submerged or world.unit_type(unit).movement <= 0:
            continue
        try:
            places = reachable(world, unit, combat=True)
        except MoveError:
            continue
        if any(not (world.unit_type(unit).is_land and world.is_sea(p)) for p in places):
            out.add(unit.at)
    return out


@pytest.mark.parametrize(("variant", "power", "named"), FIRST_MOVES, ids=[v for v, _, _ in FIRST_MOVES])
def test_every_space_with_a_unit_that_may_move_is_offered_in_the_first_combat_move(
    variant: str, power: str, named: list[str]
) -> None:
    state = first_combat_move(variant, power)
    tree = FAMILY.options(state, power)["orders"]
    expected = spaces_with_a_move(state)
    assert set(named) <= expected, "the test's own list of the front is wrong"
    assert len(expected) > 10
    missing = sorted(expected - set(tree))
    assert not missing, f"{power} cannot click its units in {missing}"
