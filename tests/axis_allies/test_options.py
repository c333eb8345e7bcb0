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


def leaves(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    return [text for child in node.values() for text in leaves(child)] if isinstance(node, dict) else []


def test_quantities_are_offered_and_every_one_is_legal() -> None:
    """A purchase for each number of a unit the purse affords, with its price and the money left;
    a move for each number of like units ready together; each of them accepted as it stands."""
    state = FAMILY.new_state("aa_europe_1999", {}, 1)
    tree = FAMILY.options(state, "GERMANY")
    infantry = tree["orders"]["purchase"]["buy"]["infantry"]
    assert sorted(map(int, infantry)) == list(range(1, 40 // 3 + 1))  # Germany's 40 IPCs
    assert infantry["13"] == "buy 13 infantry"
    assert tree["notes"]["buy 13 infantry"] == "3 IPCs each: 39 IPCs, 1 left"
    assert "40 IPCs to spend" in tree["labels"]["purchase"]
    bought = leaves(tree["orders"]["purchase"])
    assert [t for t in bought if FAMILY.check(state, "GERMANY", [t])[0]] == []  # each alone

    combat = first_combat_move("aa_europe_1999", "GERMANY")
    after = FAMILY.process(combat, {"GERMANY": []}).state  # no attack: the non-combat move next
    assert ".noncombat_move." in FAMILY.pending(after).phase
    for state in (combat, after):
        check_quantities(state)


def check_quantities(state: State) -> None:
    moves = FAMILY.options(state, "GERMANY")["orders"]
    several = {
        text
        for units in moves.values()
        for targets in units.values()
        if isinstance(targets, dict)
        for kinds in targets.values()
        if isinstance(kinds, dict) and isinstance(kinds.get("move"), dict)
        for text in kinds["move"].values()
    }
    assert any(text.startswith("move 3 infantry from ") for text in several)
    refused = [(t, FAMILY.check(state, "GERMANY", [t])[0]) for t in sorted(several)]
    assert not [r for r in refused if r[1]], [r for r in refused if r[1]][:3]
