"""The two Global War maps: 42 countries, six continents with their bonuses, a connected graph, and
their drawing as a world map (each country its own outline, checked when loaded)."""

from __future__ import annotations

import json
import re
from collections import deque
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from interboard.board import MapDataError, board_from_data
from interboard.board.outlines import MIN_BORDER, contains, coverage
from interboard.games.globalwar import MAPS, world
from interboard.games.globalwar.maps import MAPS_PACKAGE, World

from ..render.helpers import ISLAND, atoll_map

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


# ---- the drawing: a world map of the project's own outlines, checked when loaded


def _centre(w: World, members: tuple[int, ...]) -> tuple[float, float]:
    points = [p for c in members for p in w.board.spaces[c].outline]
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def _even_odd(outline: tuple[tuple[float, float], ...], x: float, y: float) -> bool:
    inside = False
    for k, (x1, y1) in enumerate(outline):
        x2, y2 = outline[k - 1]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


@pytest.mark.parametrize("map_id", MAPS)
def test_every_country_is_its_own_polygon_and_none_overlaps(map_id: str) -> None:
    """Counted on a grid independently of the loader's checks: no point of the drawing lies in two
    countries, every country covers some of it around its own point, and the sea shows between."""
    w = world(map_id)
    board = w.board
    assert board.size is not None and board.wrap
    width, height = board.size
    shapes = [sp.outline for sp in board.spaces]
    assert all(len(outline) >= 5 for outline in shapes), "a country is more than a triangle"
    assert all(contains(sp.outline, sp.at) for sp in board.spaces if sp.at is not None)
    boxes = [
        (min(x for x, _ in o), min(y for _, y in o), max(x for x, _ in o), max(y for _, y in o))
        for o in shapes
    ]
    covered: dict[int, int] = {}
    sea = 0
    step = 6.0
    for row in range(int(height // step)):
        y = step * (row + 0.5)
        for col in range(int(width // step)):
            x = step * (col + 0.5)
            inside = [
                k
                for k, (x0, y0, x1, y1) in enumerate(boxes)
                if x0 < x < x1 and y0 < y < y1 and _even_odd(shapes[k], x, y)
            ]
            assert len(inside) <= 1, f"{[board.spaces[k].id for k in inside]} overlap at ({x}, {y})"
            for k in inside:
                covered[k] = covered.get(k, 0) + 1
            sea += not inside
    assert set(covered) == set(range(w.size)), "every country is drawn large enough to see"
    cells = (width // step) * (height // step)
    assert 0.45 < sea / cells < 0.8, f"the seas are {sea / cells:.0%} of the map"


@pytest.mark.parametrize("map_id", MAPS)
def test_adjacent_countries_share_a_border_or_a_sea_line(map_id: str) -> None:
    """Adjacent countries of one continent that do not touch are joined by a sea line, and every
    sea line joins two adjacent countries that do not touch: what the loader refuses otherwise."""
    w = world(map_id)
    lines = set(w.board.sea_lines)
    shared, problems = coverage([w.board.spaces[k].outline for k in range(w.size)])
    assert problems == []
    touching = {pair for pair, length in shared.items() if length >= MIN_BORDER}
    adjacent = {(a, b) for a in range(w.size) for b in w.adjacent[a] if a < b}
    assert touching <= adjacent, "countries drawn touching are adjacent"
    assert adjacent == touching | lines and not touching & lines
    inner: set[tuple[int, int]] = set()
    for _, name, members, _ in w.continents:
        pairs = {(a, b) for a, b in adjacent if a in members and b in members}
        assert pairs <= touching | lines, name
        inner |= pairs
    # The countries tile their continents: most borders inside a continent are drawn as borders (the
    # rest join islands: Greenland, Britain, Madagascar, Japan, the Australian islands).
    assert len(inner & touching) >= 0.7 * len(inner)
    alaska, kamchatka = w.names.index("Alaska"), w.names.index("Kamchatka")
    assert (min(alaska, kamchatka), max(alaska, kamchatka)) in lines


@pytest.mark.parametrize("map_id", MAPS)
def test_continents_are_placed_as_on_a_globe(map_id: str) -> None:
    w = world(map_id)
    at = {name: _centre(w, members) for _, name, members, _ in w.continents}
    west_to_east = ["North America", "Europe", "Asia"]
    assert [at[n][0] for n in west_to_east] == sorted(at[n][0] for n in west_to_east)
    assert at["South America"][1] > at["North America"][1]  # y grows southwards
    assert at["Africa"][1] > at["Europe"][1]
    assert at["Australia"][1] > at["Asia"][1] and at["Australia"][0] > at["Africa"][0]
    assert at["South America"][0] < at["Africa"][0] < at["Asia"][0]
    alaska = _centre(w, (w.names.index("Alaska"),))
    kamchatka = _centre(w, (w.names.index("Kamchatka"),))
    assert alaska[0] < 0.1 * w.board.size[0] and kamchatka[0] > 0.85 * w.board.size[0]  # type: ignore[index]
    assert "project's own schematic world map" in w.board.source


def _map_data(map_id: str) -> dict[str, Any]:
    text = resources.files(MAPS_PACKAGE).joinpath(f"{map_id}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _space(data: dict[str, Any], ident: str) -> dict[str, Any]:
    found: dict[str, Any] = next(s for s in data["spaces"] if s["id"] == ident)
    return found


def _swap(points: list[Any], i: int, j: int) -> None:
    points[i], points[j] = points[j], points[i]


def _moved(data: dict[str, Any], ident: str, dx: float) -> None:
    space = _space(data, ident)
    space["outline"] = [[x + dx, y] for x, y in space["outline"]]
    space["at"] = [space["at"][0] + dx, space["at"][1]]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["drawing"]["sea_lines"].remove(["ALA", "KAM"]),
            "outlines of ALA and KAM: adjacent, but",
        ),
        (lambda d: d["adjacency"]["army"].remove(["ALA", "NWT"]), "share a border but are not adjacent"),
        (lambda d: d["drawing"]["sea_lines"].append(["ALA", "NWT"]), "they need no sea line"),
        (lambda d: d["drawing"]["sea_lines"].append(["ALA", "BRA"]), "ALA and BRA are not adjacent"),
        (lambda d: _space(d, "ALB").pop("outline"), "space ALB: missing field 'outline'"),
        (lambda d: _moved(d, "EGY", 15), "outlines of"),
        (lambda d: _space(d, "JAP").update(at=[10, 10]), "must lie inside its outline"),
        (lambda d: _swap(_space(d, "ICE")["outline"], 2, 3), "crosses itself"),
        (lambda d: _space(d, "ICE").update(outline=[[1, 1], [2, 2], [3, 3]]), "encloses no area"),
    ],
)
def test_the_loader_refuses_outlines_that_would_mislead(change: Any, message: str) -> None:
    data = _map_data("classic_world")
    change(data)
    with pytest.raises(MapDataError, match=re.escape(message)):
        board_from_data(data, source="classic_world.json")


def test_a_border_shared_along_part_of_an_edge_is_refused() -> None:
    """Both sides of a border use the same points, so the drawing can tell coasts from borders."""
    data = {
        "format": "interboard-map/1",
        "id": "strip",
        "title": "Strip",
        "drawing": {"width": 100, "height": 100},
        "spaces": [
            {
                "id": "A",
                "name": "A",
                "kind": "land",
                "at": [20, 50],
                "outline": [[10, 10], [40, 10], [40, 90], [10, 90]],
            },
            {
                "id": "B",
                "name": "B",
                "kind": "land",
                "at": [60, 50],
                "outline": [[40, 20], [80, 20], [80, 80], [40, 80]],
            },
        ],
        "adjacency": {"army": [["A", "B"]], "fleet": []},
    }
    with pytest.raises(MapDataError, match="share part of an edge"):
        board_from_data(data)
    data["spaces"][0]["outline"] = [[10, 10], [40, 10], [40, 20], [40, 80], [40, 90], [10, 90]]  # type: ignore[index]
    assert board_from_data(data).spaces[0].outline[2] == (40.0, 20.0)


def test_an_island_is_a_hole_in_its_sea() -> None:
    """An island space lies in a hole of the sea around it: they share the island's coast, and a
    point in the hole is the island's; an island drawn over its sea with no hole is refused."""
    data = atoll_map()
    board = board_from_data(data)
    assert board.space("SEA").holes == (tuple((float(x), float(y)) for x, y in ISLAND),)
    data["adjacency"]["fleet"] = []
    with pytest.raises(
        MapDataError, match="outlines of SEA and ISL: they share a border but are not adjacent"
    ):
        board_from_data(data)
    data["adjacency"]["fleet"] = [["SEA", "ISL"]]
    data["spaces"][0]["at"] = [50, 50]
    with pytest.raises(
        MapDataError, match="space SEA: its drawing position 'at' must lie inside its outline"
    ):
        board_from_data(data)
    data["spaces"][0]["at"] = [20, 20]
    del data["spaces"][0]["holes"]
    with pytest.raises(
        MapDataError, match=r"outlines of SEA and ISL: the point \[.*\] of one lies inside the other"
    ):
        board_from_data(data)


def test_a_wall_closes_a_coast_the_game_closes_but_never_a_land_border() -> None:
    """A sea may touch a space it is not adjacent to only across a wall the map lists (Axis &
    Allies closes Spain's north coast to the Bay of Biscay); land that touches is adjacent."""
    data: dict[str, Any] = {
        "format": "interboard-map/1",
        "id": "coast",
        "title": "Coast",
        "drawing": {"width": 100, "height": 100, "walls": [["SEA", "WEST"]]},
        "spaces": [
            {
                "id": "SEA",
                "name": "Sea",
                "kind": "sea",
                "at": [50, 20],
                "outline": [[10, 10], [90, 10], [90, 40], [50, 40], [10, 40]],
            },
            {
                "id": "WEST",
                "name": "West",
                "kind": "coast",
                "at": [30, 70],
                "outline": [[10, 40], [50, 40], [50, 90], [10, 90]],
            },
            {
                "id": "EAST",
                "name": "East",
                "kind": "coast",
                "at": [70, 70],
                "outline": [[50, 40], [90, 40], [90, 90], [50, 90]],
            },
        ],
        "adjacency": {"army": [["WEST", "EAST"]], "fleet": [["SEA", "EAST"]]},
    }
    board = board_from_data(data)
    assert [(board.spaces[a].id, board.spaces[b].id) for a, b in board.walls] == [("SEA", "WEST")]
    data["drawing"]["walls"] = []
    with pytest.raises(
        MapDataError, match="outlines of SEA and WEST: they share a border but are not adjacent"
    ):
        board_from_data(data)
    data["drawing"]["walls"] = [["SEA", "EAST"]]
    with pytest.raises(MapDataError, match="SEA and EAST are adjacent: no wall between them"):
        board_from_data(data)
    data["adjacency"]["army"] = []
    data["drawing"]["walls"] = [["SEA", "WEST"], ["WEST", "EAST"]]
    with pytest.raises(MapDataError, match="WEST and EAST are land: land that touches is adjacent"):
        board_from_data(data)
