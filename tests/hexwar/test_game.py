"""The hex wargame as a whole: supply against its naive reference on random positions, whole seeded
games played to their end, records that replay, local play from the command line, the drawing."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from interboard.bots.random_player import random_submission
from interboard.cli.main import app
from interboard.games.hexwar import supply
from interboard.games.hexwar.family import FAMILY
from interboard.games.hexwar.gamedata import game_data
from interboard.games.hexwar.rules import tunnel_stacks, update_control
from interboard.games.hexwar.state import MAP, POOL, World, new_world
from interboard.games.record import Match, load, replay, save

DATA = game_data("vernian_wwi")
PASSABLE = list(DATA.geography.bitboard.bits(DATA.passable))
GROUND = [c.id for c in DATA.counters if c.type.kind != "fortress"]
TOWNS = list(DATA.geography.bitboard.bits(DATA.towns & DATA.passable))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(GROUND), st.sampled_from(PASSABLE)), min_size=1, max_size=60),
    st.lists(st.tuples(st.sampled_from(TOWNS), st.sampled_from(["Germany", "Allies"])), max_size=20),
    st.booleans(),
    st.lists(st.sampled_from(sorted(DATA.fortress_steps)), max_size=5),
)
def test_supply_by_bit_sets_equals_a_search_from_every_unit(
    placed: list[tuple[str, int]], control: list[tuple[int, str]], tunnel_open: bool, razed: list[int]
) -> None:
    world = new_world("vernian_wwi", 1)
    world.stage = "play"
    for u in world.units.values():
        u.where, u.hex = POOL, None
    for cell, side in control:
        world.control[cell] = side
    for cell in razed:
        world.fortress[cell] = 0
    holder: dict[int, str] = {}
    for uid, cell in placed:  # as in play, a hex holds one side's units
        side = DATA.side_of(DATA.counter_by_id[uid].nation)
        if holder.setdefault(cell, side) == side:
            world.units[uid].where, world.units[uid].hex = MAP, cell
    update_control(world)  # entering a place takes it (and razes its fortress)
    world.tunnel_open = tunnel_open
    assert supply.unit_states(world) == supply.naive_states(world)


def test_supply_of_the_opening_position_matches_the_reference() -> None:
    state = FAMILY.process(FAMILY.new_state("vernian_wwi", {}, 3), {}).state
    world = World.from_json(state)
    states = supply.unit_states(world)
    assert states == supply.naive_states(world)
    assert sum(1 for s in states.values() if s == supply.ATTACK) > 90


def test_the_default_set_up_respects_every_stacking_limit() -> None:
    """Every counter the set-up rules leave to the default, placed: each side's stack in each hex is
    within the ground, HQ and tank limits and the five Zeppelins and five flyers."""
    world = World.from_json(FAMILY.process(FAMILY.new_state("vernian_wwi", {}, 3), {}).state)
    assert not any(u.where == "setup" for u in world.units.values())
    count: Counter[tuple[int, str, str]] = Counter()
    for u in world.on_map():
        assert u.hex is not None
        key = u.kind if u.kind in ("hq", "tank", "zeppelin", "flyer", "generator") else "size"
        count[(u.hex, world.side_of(u), key)] += u.size if key == "size" else 1
    limits = {"size": 6, "hq": 1, "tank": 1, "zeppelin": 5, "flyer": 5}
    over = {k: n for k, n in count.items() if n > limits.get(k[2], n)}
    assert not over, {(DATA.geography.hexes[c].id, side, key): n for (c, side, key), n in over.items()}
    assert count[(DATA.hex("W4706").index, "Germany", "zeppelin")] == 5  # the seed's five in Aachen


def test_the_tunnel_stacks_hold_five_infantry_and_at_most_one_hq() -> None:
    stacks = tunnel_stacks(new_world("vernian_wwi", 1))
    assert [len(s) for s in stacks] == [6, 6, 6]
    for stack in stacks:
        kinds = [DATA.counter_by_id[u].type.kind for u in stack]
        assert kinds.count("infantry") == 5 and kinds.count("hq") == 1
    assert [DATA.counter_by_id[s[0]].code for s in stacks] == ["I", "J", "O"]


LAST_TURN = Path(__file__).parent / "positions" / "last_strategic_turn.json"
"""A seeded random game's position at the start of its last strategic turn (G), exported by
``interboard scenario export``: a game from there plays to its end in a seventh of the time."""


def _play_out(
    seed: int, max_steps: int = 2000, position: dict[str, Any] | None = None
) -> tuple[Match, list[dict[str, Any]]]:
    match = Match.new("vernian_wwi", {}, seed, position)
    rng = random.Random(seed)
    results: list[dict[str, Any]] = []
    for _ in range(max_steps):
        pending = FAMILY.pending(match.state)
        if pending.over:
            break
        done = match.play({seat: random_submission(FAMILY, match.state, seat, rng) for seat in pending.seats})
        results.extend(done.results)
    return match, results


def test_a_seeded_random_game_plays_to_its_end_and_its_record_replays(tmp_path: Path) -> None:
    """From the last strategic turn to the end (whole games from the start are played by the bot
    tests, tests/hexwar/test_bots.py); the record, which keeps the starting position, replays to
    the same end."""
    scenario = json.loads(LAST_TURN.read_text(encoding="utf-8"))
    assert scenario["position"]["turn"] == "G1"
    match, results = _play_out(5, position=scenario["position"])
    state = match.state
    assert FAMILY.pending(state).over
    assert state["stage"] == "over" and state["result"]
    if state["winner"] is None:
        assert state["turn"] == "H1" and "draw" in state["result"]
    rolled = [d for r in results for d in r.get("dice", [])]
    assert rolled and all(1 <= d["die"] <= 6 for d in rolled)
    path = tmp_path / "game.json"
    save(match, path)
    again = load(path)
    assert again.state == replay(match.to_json()).state
    assert again.state == state


def test_the_same_seed_and_submissions_give_the_same_game() -> None:
    (a, results_a), (b, results_b) = _play_out(11, 60), _play_out(11, 60)
    assert a.state == b.state and a.steps == b.steps and results_a == results_b


def test_every_offered_action_is_accepted() -> None:
    state = FAMILY.process(FAMILY.new_state("vernian_wwi", {}, 2), {}).state
    pending = FAMILY.pending(state)
    seat = pending.seats[0]
    while ".zeppelin_base_change." not in pending.phase:
        state = FAMILY.process(state, {s: [] for s in pending.seats}).state
        pending = FAMILY.pending(state)
    offered = FAMILY.legal(state, seat, []).actions
    assert offered and all(a.startswith("base GE-Z01 ") for a in offered)
    assert all(FAMILY.check(state, seat, [a]) == [None] for a in offered[:5])
    refused = FAMILY.check(state, seat, ["base GE-Z01 W8420"])[0]
    assert refused is not None and "cannot base in W8420" in refused
    state = FAMILY.process(state, {seat: []}).state
    while not FAMILY.pending(state).phase.startswith("A1.Germany.movement"):
        state = FAMILY.process(state, {s: [] for s in FAMILY.pending(state).seats}).state
    offered = FAMILY.legal(state, seat, []).actions
    assert offered and all(a.startswith(("move ", "hold ")) for a in offered)
    assert FAMILY.check(state, seat, list(offered[:1])) == [None]
    refused = FAMILY.check(state, seat, ["move GE-C01 W8420"])[0]
    assert refused is not None and "cannot reach W8420" in refused


def test_a_missing_retreat_decision_takes_the_default() -> None:
    world = new_world("vernian_wwi", 1)
    world.stage = "play"
    for u in world.units.values():
        u.where, u.hex = POOL, None
    geo = DATA.geography
    for uid, hid in {"GE-C01": "W4607", "GE-C02": "W4607", "BE-C01": "W4707"}.items():
        world.units[uid].where, world.units[uid].hex = MAP, geo.hex(hid).index
    world.tunnel_open = False
    world.phase = DATA.sequence["Germany"].index("combat")
    world.decision = {
        "kind": "retreat",
        "seat": "Allies",
        "hex": "W4707",
        "units": ["BE-C01"],
        "options": ["W4706", "W4808"],
    }
    world.extra["last_attackers"] = ["GE-C01", "GE-C02"]
    state = {"variant": "vernian_wwi", **world.to_json()}
    assert FAMILY.pending(state).seats == ("Allies",) and FAMILY.pending(state).kind == "decision"
    done = FAMILY.process(state, {})
    assert done.results[0]["order"] == "retreat W4808" and done.results[0]["default"] is True
    after = World.from_json(done.state)
    assert geo.hexes[after.units["BE-C01"].hex].id == "W4808"  # W4706 lies in the attackers' zone


def test_interboard_play_vernian_wwi_with_bots_and_replay(tmp_path: Path) -> None:
    runner = CliRunner()
    saved = tmp_path / "vernian.json"
    out = runner.invoke(
        app, ["play", "vernian_wwi", "--bots", "all", "--max-steps", "6", "--save", str(saved), "--quiet"]
    )
    assert out.exit_code == 0, out.output
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["variant"] == "vernian_wwi" and len(record["steps"]) == 6
    out = runner.invoke(app, ["replay", str(saved)])
    assert out.exit_code == 0, out.output
    out = runner.invoke(app, ["variants", "--family", "hexwar"])
    assert "vernian_wwi" in out.output


def test_the_position_draws_both_maps_with_the_links() -> None:
    state = FAMILY.process(FAMILY.new_state("vernian_wwi", {}, 1), {}).state
    svg = FAMILY.draw("vernian_wwi", FAMILY.view(state), {}, [], "A1")
    assert svg.startswith("<svg") and "West Front" in svg and "Southern England" in svg
    assert "link tunnel: E0214 - MUNICH" not in svg  # a box has no place on the drawing
    assert "link crossing: W7005 - E0214" in svg and "Calais" in svg


def test_hexes_and_counters_are_named_as_players_name_them() -> None:
    """A hex by its name and code, a counter by nation, values, kind and code, with its supply and
    whether it may still act; the page's choices and a combat result in words."""
    from interboard.games.hexwar.gamedata import Result

    state = FAMILY.process(FAMILY.new_state("vernian_wwi", {}, 1), {}).state
    svg = FAMILY.draw("vernian_wwi", FAMILY.view(state), {}, [], "A1")
    assert "<title>Krefeld (W4402), clear" in svg and "<title>W3300, clear</title>" in svg
    assert "German 5-5-4 corps (GE-C01), 2 steps: in attack supply; may still act this phase" in svg
    # The legend under the maps explains every mark: terrain, stacks, supply rings, cities, links.
    marks = ("flood plain", "out of supply", "in defence supply only", "a city, ringed", "a river hexside")
    for mark in marks:
        assert f">{mark}" in svg, mark
    seat = FAMILY.pending(state).seats[0]
    tree = FAMILY.options(state, seat)
    assert tree["help"] == [["the combat results table", "/rules/vernian_wwi#rules-vernian-play-combat"]]
    words = tree["words"]
    assert all(text in words for node in tree["orders"].values() for text in _texts(node))
    assert not any(word == text for text, word in words.items())  # every action has its words
    assert (
        Result.parse("a1 d2 r", "t").meaning()
        == "the attacker loses 1 step, the defender 2 steps and retreats"
    )
    assert Result.parse("a0 d0", "t").meaning() == "the attacker loses no step, the defender none"
    # A log line names its counters and hexes; one already named is left as it is.
    from interboard.games.hexwar.interface import in_words

    world = FAMILY._world(state)
    assert in_words(world, "GE-C01, GE-C02 retreat to W4907 (Liège (W4907) stays)") == (
        "German 5-5-4 corps (GE-C01), German 5-5-4 corps (GE-C02) retreat to Liège (W4907)"
        " (Liège (W4907) stays)"
    )


def _texts(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    return [t for child in node.values() for t in _texts(child)] if isinstance(node, dict) else []
