"""The two Global War maps: 42 countries, six continents with their bonuses, a connected graph."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest

from interboard.games.globalwar import MAPS, world
from interboard.games.globalwar.maps import World

REFERENCE = Path(__file__).resolve().parent / "reference"  # the facts the maps were built from
SIZES = {"North America": 9, "South America": 4, "Europe": 7, "Africa": 6, "Asia": 12, "Australia": 4}
BONUSES = {"North America": 5, "South America": 2, "Europe": 5, "Africa": 3, "Asia": 7, "Australia": 2}


def _connected(w: World, members: set[int]) -> bool:
    start = next(iter(members))
    seen = {start}
    queue = deque([start])
    while queue:
        for nxt in w.adjacent[queue.popleft()]:
            if nxt in members and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen == members


@pytest.mark.parametrize("map_id", MAPS)
def test_map_has_six_continents_of_classic_sizes(map_id: str) -> None:
    w = world(map_id)
    assert w.size == 42
    assert {name: len(members) for _, name, members, _ in w.continents} == SIZES
    assert {name: bonus for _, name, _, bonus in w.continents} == BONUSES
    assert sorted(c for _, _, members, _ in w.continents for c in members) == list(range(42))
    assert _connected(w, set(range(42)))
    for _, name, members, _ in w.continents:
        assert _connected(w, set(members)), f"{name} is not connected"
    assert all(w.board.spaces[c].at is not None for c in range(42))


def test_classic_board_is_the_reference_board() -> None:
    ref = json.loads((REFERENCE / "classic_risk_42.json").read_text(encoding="utf-8"))
    w = world("classic_world")
    index = {name: i for i, name in enumerate(w.names)}
    edges = {frozenset((index[t["name"]], index[o])) for t in ref["territories"] for o in t["adjacent"]}
    ours = {frozenset((a, b)) for a in range(42) for b in w.adjacent[a]}
    assert ours == edges
    assert len(ours) == ref["edge_count"]
    for continent in ref["continents"]:
        members = next(m for _, name, m, _ in w.continents if name == continent["name"])
        assert sorted(w.names[c] for c in members) == sorted(continent["territories"])


def test_global_war_map_has_global_war_names_and_says_it_is_reconstructed() -> None:
    ref = json.loads((REFERENCE / "global_war_countries.json").read_text(encoding="utf-8"))
    w = world("global_war")
    for _, name, members, _ in w.continents:
        assert sorted(w.names[c] for c in members) == sorted(ref["continents"][name])
    assert "RECONSTRUCTION" in w.board.source
    # Global War's Europe has Spain and no Iceland: Greenland reaches Europe through England.
    england = w.names.index("England")
    assert w.names.index("Greenland") in w.adjacent[england]
    assert w.names.index("Kamchatka") in w.adjacent[w.names.index("Alaska")]
