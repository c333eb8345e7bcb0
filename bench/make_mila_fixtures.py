"""Generate the MILA saved-game fixtures in ``tests/diplomacy/mila_games``; check them with both engines.

Needs the MILA engine (``pip install -e '.[bench]'``). Run from the repository root::

    python bench/make_mila_fixtures.py            # rewrite the fixtures, then check them
    python bench/make_mila_fixtures.py --check    # only check the existing fixtures

Games are random but reproducible: MILA plays them with orders drawn from its own
``get_all_possible_orders()`` by a seeded generator. Some orders are left out on purpose, so the
records also exercise default holds, unordered retreats (disbanded) and civil-disorder removals.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from diplomacy.engine.game import Game
from diplomacy.utils.export import from_saved_game_format, to_saved_game_format

from interboard.games.diplomacy import parse_power_order, step
from interboard.games.diplomacy.mila import read_mila_game, replay_mila, write_mila_game

DATA = Path(__file__).resolve().parent.parent / "tests" / "diplomacy" / "mila_games"
FIXTURES = {1: 40, 2: 50, 3: 60, 4: 60}
"""Seed to the number of phases to play."""


def random_orders(game: Game, rng: random.Random) -> dict[str, list[str]]:
    """One random legal order per orderable unit, with a few left out.

    Adjustments: usually exactly as many orders as due, sometimes one per orderable location (MILA
    voids the surplus) and sometimes none (MILA waives builds and picks the removals itself).
    """
    possible = game.get_all_possible_orders()
    phase_type = game.get_current_phase()[-1]
    state = game.get_state()
    out: dict[str, list[str]] = {}
    for power in game.powers:
        locs = [loc for loc in game.get_orderable_locations(power) if possible[loc]]
        if phase_type == "A":
            due = abs(state["builds"][power]["count"])
            roll = rng.random()
            if roll < 0.15:
                locs = []
            elif roll < 0.85:
                locs = rng.sample(locs, min(due, len(locs)))
        else:
            skip = 0.05 if phase_type == "M" else 0.2
            locs = [loc for loc in locs if rng.random() >= skip]
        out[power] = [rng.choice(sorted(possible[loc])) for loc in locs]
    return out


def play_random_game(seed: int, max_phases: int) -> Game:
    rng = random.Random(seed)
    game = Game(game_id=f"interboard-fixture-{seed}")
    while not game.is_game_done and len(game.get_phase_history()) < max_phases:
        for power, orders in random_orders(game, rng).items():
            game.set_orders(power, orders)
        game.process()
    return game


KNOWN_DIFFERENCES: dict[str, tuple[dict[str, list[str]], dict[str, list[str]]]] = {
    # MILA lets the defender's own support dislodge it when the attack comes by convoy (DATC 6.D.12).
    "convoy_own_support": (
        {"TURKEY": ["A ANK"], "RUSSIA": ["F BLA", "A MOS", "A SEV"]},
        {"TURKEY": ["A ANK - SEV VIA"], "RUSSIA": ["F BLA C A ANK - SEV", "A MOS S A ANK - SEV", "A SEV H"]},
    ),
    # After an attack by convoy MILA offers retreats into occupied provinces (here Rome).
    "convoy_retreat_occupied": (
        {"ITALY": ["A APU", "A ROM"], "FRANCE": ["F ION"], "AUSTRIA": ["A NAP"]},
        {
            "ITALY": ["A APU - NAP VIA", "A ROM S A APU - NAP"],
            "FRANCE": ["F ION C A APU - NAP"],
            "AUSTRIA": ["A NAP H"],
        },
    ),
    # MILA counts that same forbidden support when it asks whether a convoying fleet is dislodged,
    # so the convoy fails although the fleet stays (here England supports Russia against its fleet).
    "convoy_disrupted_by_own_support": (
        {"ENGLAND": ["F NTH", "A YOR", "F NWY"], "RUSSIA": ["F SKA"]},
        {
            "ENGLAND": ["F NTH C A YOR - BEL", "A YOR - BEL VIA", "F NWY S F SKA - NTH"],
            "RUSSIA": ["F SKA - NTH"],
        },
    ),
}
"""Spring 1901 positions (units by power) and orders where MILA 1.1.2 departs from the DATC."""


def play_scenario(units: dict[str, list[str]], orders: dict[str, list[str]]) -> Game:
    game = Game(game_id="interboard-known-difference")
    for power in game.powers:
        game.set_units(power, units.get(power, []), reset=True)
    for power, texts in orders.items():
        game.set_orders(power, texts)
    if game.error:
        raise RuntimeError(f"MILA refused the scenario: {game.error}")
    game.process()
    return game


def write_fixtures() -> list[Path]:
    DATA.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed, max_phases in FIXTURES.items():
        saved = to_saved_game_format(play_random_game(seed, max_phases))
        path = DATA / f"mila_seed{seed}.json"
        path.write_text(json.dumps(saved, sort_keys=True) + "\n", encoding="utf-8")
        paths.append(path)
    for name, (units, orders) in KNOWN_DIFFERENCES.items():
        saved = to_saved_game_format(play_scenario(units, orders))
        (DATA / f"known_difference_{name}.json").write_text(
            json.dumps(saved, sort_keys=True) + "\n", encoding="utf-8"
        )
    return paths


def _mila_view(state: dict[str, Any]) -> tuple[Any, ...]:
    units = {p: sorted(u) for p, u in state["units"].items() if u}
    centres = {p: sorted(c) for p, c in state["centers"].items() if c}
    retreats = {p: {u: sorted(r) for u, r in rs.items()} for p, rs in state["retreats"].items() if rs}
    return state["name"], units, centres, retreats


def check(path: Path) -> int:
    """Problems found with one fixture: interboard replay, MILA loading our export, MILA replaying it."""
    original = json.loads(path.read_text(encoding="utf-8"))
    game = read_mila_game(original)
    problems = 0
    diffs = replay_mila(game)
    for d in diffs:
        print(f"{path.name}: {d}")
    problems += len(diffs)

    # MILA must load what we write, and see the same states.
    exported = write_mila_game(game)
    reloaded = to_saved_game_format(from_saved_game_format(json.loads(json.dumps(exported))))
    for before, after in zip(original["phases"], reloaded["phases"], strict=True):
        if _mila_view(before["state"]) != _mila_view(after["state"]):
            print(f"{path.name}: {before['name']}: MILA reads our export differently")
            problems += 1

    # A record written from interboard's own adjudication, replayed by MILA phase by phase.
    board = game.board
    entries = []
    for ph in game.phases[:-1]:
        orders = []
        for power, text in ph.orders:
            orders.append((power, parse_power_order(board, text, ph.phase.kind).order))
        entries.append((ph.position, orders, step(board, ph.position, orders).results))
    ours = write_mila_game(entries, game.phases[-1].position)
    for ph, nxt in zip(ours["phases"], ours["phases"][1:], strict=False):
        mila = Game(map_name="standard")
        mila.set_state(ph["state"])
        for power, orders in ph["orders"].items():
            mila.set_orders(power, orders)
        mila.process()
        # A different next phase is a retreat phase with nowhere to go, which interboard keeps and
        # MILA skips; that pair is not compared.
        same_phase = mila.get_current_phase() == nxt["name"]
        if same_phase and _mila_view(mila.get_state())[1:] != _mila_view(nxt["state"])[1:]:
            print(f"{path.name}: {ph['name']}: MILA replaying our export disagrees")
            problems += 1
    print(f"{path.name}: {len(game.phases)} phases, {problems} problem(s)")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--check", action="store_true", help="only check the existing fixtures")
    args = ap.parse_args(argv)
    paths = sorted(DATA.glob("mila_*.json")) if args.check else write_fixtures()
    return 1 if sum(check(p) for p in paths) else 0


if __name__ == "__main__":
    sys.exit(main())
