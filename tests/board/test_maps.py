"""Every shipped map loads and is consistent; bad map data gets an error naming file and entry."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from interboard.board import (
    Board,
    MapDataError,
    SpaceKind,
    UnitKind,
    board_from_data,
)

from ..shipped import load_map, shipped_maps

MAPS = shipped_maps()
STANDARD = "interboard.games.diplomacy.data.maps"


@pytest.mark.parametrize(("package", "name"), MAPS, ids=[n for _, n in MAPS])
def test_a_shipped_maps_outlines_touch_where_its_spaces_are_adjacent(package: str, name: str) -> None:
    """A shipped map is loaded without its outlines checked (a server start would pay for it):
    they are checked here, as every other map's are when it is read."""
    data = json.loads(resources.files(package).joinpath(f"{name}.json").read_text(encoding="utf-8"))
    checked = board_from_data(data, source=f"{name}.json")
    assert [sp.outline for sp in checked.spaces] == [sp.outline for sp in load_map(package, name).spaces]


def test_a_shipped_maps_outlines_are_trusted_but_any_other_maps_are_checked() -> None:
    data = _raw("standard")
    broken = copy.deepcopy(data)
    # Paris given Burgundy's outline: its point lies outside it, and the two overlap.
    _space(broken, "PAR")["outline"] = _space(broken, "BUR")["outline"]
    with pytest.raises(MapDataError, match="space PAR: "):
        board_from_data(broken, source="standard.json")
    assert board_from_data(broken, source="standard.json", check_outlines=False).id == "standard"


def _space(data: dict[str, Any], ident: str) -> dict[str, Any]:
    found: dict[str, Any] = next(x for x in data["spaces"] if x["id"] == ident)
    return found


def _raw(name: str, package: str = STANDARD) -> dict[str, Any]:
    text = resources.files(package).joinpath(f"{name}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _geographies() -> list[tuple[str, Board]]:
    from interboard.games.diplomacy.variants import VARIANTS

    return [(f"map:{n}", load_map(p, n)) for p, n in MAPS] + [
        (f"variant:{v.id}", v.board) for v in VARIANTS.values()
    ]


@pytest.mark.parametrize(("name", "board"), _geographies(), ids=[n for n, _ in _geographies()])
def test_map_is_consistent(name: str, board: Board) -> None:
    for table in (board.army_adj, board.fleet_adj):
        for a, adj in enumerate(table):
            for b in adj:
                assert a in table[b], f"{board.locations[a].id}-{board.locations[b].id} is one-way"
    for space in board.spaces:
        for coast in space.coasts:
            assert board.locations[coast].space == space.index
            base, _, board_name = space.id.partition("-")
            assert board.locations[coast].id.startswith(base + "/")
            assert board.locations[coast].id.endswith(board_name)
        if space.kind is SpaceKind.SEA:
            assert not board.army_adj[board.location_by_id[space.id]]
        if space.kind is SpaceKind.LAND:
            assert not board.fleet_adj[board.location_by_id[space.id]]
    for power in board.powers:
        for home in power.home_centres:
            assert board.spaces[home].centre, f"{power.id} home {board.spaces[home].id} is not a centre"
            assert home in power.homeland
    if board.powers:
        assert 0 < board.victory_centres <= len(board.centres)
    for region in board.regions:
        assert region.spaces and len(set(region.spaces)) == len(region.spaces), region.id
    if board.size is not None:
        width, height = board.size
        for loc in board.locations:
            assert loc.at is not None, f"{loc.id} has no drawing position"
            assert 0 <= loc.at[0] <= width and 0 <= loc.at[1] <= height, loc.id


def test_standard_map_facts() -> None:
    board = load_map(STANDARD, "standard")
    passable = [s for s in board.spaces if s.kind is not SpaceKind.IMPASSABLE]
    assert len(passable) == 75
    assert len(board.centres) == 34
    assert sorted(s.id for s in board.spaces if s.coasts) == ["BUL", "SPA", "STP"]
    assert len(board.start.units) == 22
    assert board.victory_centres == 18
    assert board.adjacent(UnitKind.FLEET, board.location_by_id["MAO"], board.location_by_id["SPA/NC"])
    assert not board.adjacent(UnitKind.FLEET, board.location_by_id["LYO"], board.location_by_id["SPA/NC"])
    assert board.adjacent(UnitKind.ARMY, board.location_by_id["ROM"], board.location_by_id["VEN"])
    assert not board.adjacent(UnitKind.FLEET, board.location_by_id["ROM"], board.location_by_id["VEN"])
    assert sorted(board.spaces[s].id for s in board.power_by_id["RUSSIA"].homeland) == [
        "FIN",
        "LVN",
        "MOS",
        "SEV",
        "STP",
        "UKR",
        "WAR",
    ]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("spaces"), "standard.json: top level: missing field 'spaces'"),
        (lambda d: d["spaces"][3].update(kind="swamp"), "spaces[3] (ANK): kind must be one of"),
        (lambda d: d["adjacency"]["army"].append(["PAR", "XYZ"]), "unknown location 'XYZ'"),
        (lambda d: d["adjacency"]["fleet"].append(["MAO", "SPA"]), "'SPA' has split coasts: name the coast"),
        (lambda d: d["adjacency"]["army"].append(["PAR", "NTH"]), "army adjacency cannot touch the sea"),
        (lambda d: d["powers"][0]["home_centres"].append("GAL"), "home centre 'GAL' is not a supply centre"),
        (lambda d: d["start"]["units"]["FRANCE"].append("F PAR"), "a fleet cannot stand at PAR"),
        (lambda d: d.update(format="other/9"), "format: expected 'interboard-map/1'"),
        (lambda d: d["spaces"][0].pop("at"), "spaces[0] (ADR): missing field 'at'"),
        (lambda d: _space(d, "SPA").pop("coast_at"), "(SPA): coast_at must give"),
        (lambda d: d.update(drawing={"width": 10, "height": 10}), "is outside the 10x10 drawing"),
        (lambda d: d["spaces"][0].update(at=[1, "north"]), "spaces[0] (ADR): a drawing position is a pair"),
        (
            lambda d: d.update(regions=[{"id": "X", "name": "X", "spaces": ["PAR", "ZZZ"]}]),
            "regions[0] (X): unknown space 'ZZZ'",
        ),
        (
            lambda d: d.update(regions=[{"id": "X", "name": "X", "spaces": [], "bonus": "2"}]),
            "field 'bonus' must be int",
        ),
    ],
)
def test_bad_map_data_names_file_and_entry(mutate: Any, message: str) -> None:
    data = copy.deepcopy(_raw("standard"))
    mutate(data)
    with pytest.raises(MapDataError) as info:
        board_from_data(data, source="standard.json")
    assert message in str(info.value)
    assert str(info.value).startswith("standard.json: ")


def test_optional_parts_of_a_map() -> None:
    """Drawing positions, coast positions and regions load; Diplomacy's parts may be left out."""
    data = copy.deepcopy(_raw("standard"))
    for key in ("powers", "start", "victory_centres", "drawing", "regions"):
        data.pop(key, None)
    data["drawing"] = {"width": 100, "height": 50}
    for i, raw in enumerate(data["spaces"]):
        for drawn in ("outline", "label_at", "coast_at"):
            raw.pop(drawn, None)
        raw["at"] = [i % 100, 1]
        if raw.get("coasts"):
            raw["coast_at"] = {code.lower(): [i % 100, 2] for code in raw["coasts"]}
    data["regions"] = [{"id": "FR", "name": "France", "spaces": ["PAR", "BRE"], "bonus": 2}]
    board = board_from_data(data, source="plain.json")
    assert board.powers == () and board.start.units == () and board.victory_centres == 0
    assert board.size == (100.0, 50.0)
    spa = board.space("SPA")
    assert spa.at == (float(spa.index), 1.0)
    assert board.location("SPA/NC").at == (float(spa.index), 2.0)
    assert [(r.id, [board.spaces[i].id for i in r.spaces], r.bonus) for r in board.regions] == [
        ("FR", ["PAR", "BRE"], 2)
    ]
    data["spaces"][0]["at"] = [101, 0]
    with pytest.raises(MapDataError, match="outside the 100x50 drawing"):
        board_from_data(data, source="plain.json")


def test_twin_earths_geographies() -> None:
    from interboard.games.diplomacy.variants import get_variant

    te1 = get_variant("twin_earths_1").board
    loc = te1.location_by_id
    assert len(te1.centres) == 68
    assert te1.boards == ("I", "II")
    # Each space is joined to its corresponding space only, for the units that can stand on both.
    assert te1.adjacent(UnitKind.ARMY, loc["MUN-I"], loc["MUN-II"])
    assert not te1.adjacent(UnitKind.ARMY, loc["MUN-I"], loc["KIE-II"])
    assert te1.adjacent(UnitKind.FLEET, loc["SPA/NC-I"], loc["SPA/NC-II"])
    assert not te1.adjacent(UnitKind.FLEET, loc["SPA/NC-I"], loc["SPA/SC-II"])
    assert te1.adjacent(UnitKind.FLEET, loc["NTH-I"], loc["NTH-II"])
    assert te1.adjacent(UnitKind.ARMY, loc["BRE-I"], loc["BRE-II"])
    assert te1.adjacent(UnitKind.FLEET, loc["BRE-I"], loc["BRE-II"])
    germany = te1.power_by_id["GERMANY"]
    assert sorted(te1.spaces[s].id for s in germany.home_centres) == [
        "BER-I",
        "BER-II",
        "KIE-I",
        "KIE-II",
        "MUN-I",
        "MUN-II",
    ]
    te3 = get_variant("twin_earths_3").board
    assert len(te3.powers) == 14
    assert len(te3.centres) == 68
    g = te3.power_by_id["GERMANY-Y"]
    assert sorted(te3.spaces[s].id for s in g.homeland) == [
        "BER-Y",
        "KIE-Y",
        "MUN-Y",
        "PRU-Y",
        "RUH-Y",
        "SIL-Y",
    ]
    # The two boards start unconnected.
    y_locs = {x.index for x in te3.locations if x.id.endswith("-Y")}
    for a in y_locs:
        assert all(b in y_locs for b in (*te3.army_adj[a], *te3.fleet_adj[a]))


def _two_boards() -> dict[str, Any]:
    return {
        "format": "interboard-map/1",
        "id": "pair",
        "title": "A wide board and a narrow card strip",
        "boards": [{"id": "West", "width": 200, "height": 100}, {"id": "Cards", "width": 40, "height": 120}],
        "spaces": [
            {"id": "A", "name": "Alpha", "kind": "land", "board": "West", "at": [150, 50]},
            {"id": "B", "name": "Beta", "kind": "land", "board": "West", "at": [50, 50]},
            {"id": "C", "name": "Card", "kind": "land", "board": "Cards", "at": [20, 110], "radius": 15},
        ],
        "adjacency": {"army": [["A", "B"], ["A", "C"]], "fleet": []},
    }


def test_a_map_file_of_several_printed_boards_of_their_own_sizes() -> None:
    board = board_from_data(_two_boards(), source="pair.json")
    assert board.boards == ("West", "Cards")
    assert board.space("C").board == "Cards" and board.space("A").board == "West"
    assert board.size_of("West") == (200.0, 100.0) and board.size_of("Cards") == (40.0, 120.0)
    assert board.size == (200.0, 120.0)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["spaces"][2].update(board="East"), "board 'East' is not one of the file's boards"),
        (lambda d: d["spaces"][2].pop("board"), "missing field 'board'"),
        (
            lambda d: d["spaces"][2].update(at=[30, 110]) or d["boards"][1].update(width=20),
            "outside the 20x120",
        ),
        (lambda d: d["boards"].append({"id": "West", "width": 1, "height": 1}), "duplicate board 'West'"),
    ],
    ids=["unknown_board", "space_without_board", "point_outside_its_board", "duplicate_board"],
)
def test_bad_printed_boards_are_named(mutate: Any, message: str) -> None:
    data = _two_boards()
    mutate(data)
    with pytest.raises(MapDataError, match=message):
        board_from_data(data, source="pair.json")


def test_scenery_of_a_file_of_several_boards_names_its_board() -> None:
    """Each piece of scenery lies on one printed board, in that board's own units (the linked Axis &
    Allies world: Europe's Sahara and the Pacific's Siberia)."""
    data = _two_boards()
    data["drawing"] = {"scenery": [{"board": "Cards", "polygon": [[5, 5], [35, 5], [35, 115]]}]}
    board = board_from_data(data, source="pair.json")
    assert board.scenery == (("Cards", ((5.0, 5.0), (35.0, 5.0), (35.0, 115.0))),)
    data["drawing"]["scenery"][0]["polygon"][2] = [35, 140]  # beyond the card strip, inside West
    with pytest.raises(MapDataError, match="outside the 40x120"):
        board_from_data(data, source="pair.json")
    data["drawing"]["scenery"] = [[[5, 5], [35, 5], [35, 115]]]
    with pytest.raises(MapDataError, match=r"drawing.scenery\[0\].*names its board|several boards"):
        board_from_data(data, source="pair.json")
    data["drawing"]["scenery"] = [{"board": "East", "polygon": [[5, 5], [35, 5], [35, 115]]}]
    with pytest.raises(MapDataError, match="board 'East' is not one of the file's boards"):
        board_from_data(data, source="pair.json")


def test_a_space_may_carry_the_short_form_its_board_writes() -> None:
    data = _two_boards()
    data["spaces"][0]["label"] = "Alp."
    board = board_from_data(data, source="pair.json")
    assert board.space("A").label == "Alp." and board.space("B").label is None
    data["spaces"][0]["label"] = "  "
    with pytest.raises(MapDataError, match=r"spaces\[0\] \(A\): label must be the text to write"):
        board_from_data(data, source="pair.json")
