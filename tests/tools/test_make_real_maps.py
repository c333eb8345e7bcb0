"""tools/make_real_maps.py draws a board from Natural Earth and the board's facts: a small board
(Iberia between two seas) is cut here from the real coastline and checked as the loader checks it.

Needs the ``maps`` extra (shapely) and Natural Earth's data, which the tool takes from the npm
registry once (``world-atlas``, checked against the registry's SHA-512)."""

from __future__ import annotations

import copy
import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from interboard.board import SpaceKind, board_from_data
from interboard.board.errors import MapDataError
from interboard.board.outlines import within

pytest.importorskip("shapely")

TOOLS = Path(__file__).resolve().parents[2] / "tools"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    sys.path.insert(0, str(TOOLS))
    try:
        spec = importlib.util.spec_from_file_location("make_real_maps", TOOLS / "make_real_maps.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["make_real_maps"] = module  # its dataclasses look themselves up there
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(TOOLS))
    try:
        module.atlas_file("countries-50m.json")  # downloaded once, then kept under tools/maps/.cache
    except OSError as exc:  # the registry out of reach (URLError and timeouts are OSErrors)
        pytest.skip(f"Natural Earth could not be fetched from the npm registry: {exc}")
    return module


RECIPE: dict[str, Any] = {
    "projection": {"lon0": -4, "lat0": 40, "parallels": [36, 44]},
    "extent": [[-11, 44.5], [10, 44.5], [10, 35.5], [-11, 35.5]],
    "width": 400,
    "label_size": 12,
    "groups": [
        {"countries": ["Portugal"], "spaces": ["POR"]},
        {"countries": ["Spain", "Andorra"], "spaces": ["SPA"]},
        {"countries": ["France"], "spaces": ["GAS"]},
    ],
    "neutral": [[-5, 33], [3, 33]],
    "islands": {"ALB": 4},
}

BOARD: dict[str, Any] = {
    "format": "interboard-map/1",
    "id": "iberia",
    "title": "Iberia",
    "spaces": [
        {"id": "POR", "name": "Portugal", "kind": "coast", "geo": [[-8.2, 39.8]]},
        {"id": "SPA", "name": "Spain", "kind": "coast", "geo": [[-3.7, 40.2]]},
        {"id": "GAS", "name": "Gascony", "kind": "coast", "geo": [[0.5, 44.0]]},
        {"id": "ATL", "name": "Atlantic", "kind": "sea", "geo": [[-10.0, 40.0], [-4.0, 44.3]]},
        {"id": "MED", "name": "Mediterranean", "kind": "sea", "geo": [[2.0, 38.5]]},
        {"id": "SAR", "name": "Sardinia", "kind": "coast", "geo": [[9.0, 40.0]]},
        {"id": "ALB", "name": "Alboran", "kind": "coast", "geo": [[-3.03, 35.94]]},
    ],
    "adjacency": {
        "army": [["POR", "SPA"], ["SPA", "GAS"]],
        "fleet": [
            ["POR", "ATL"],
            ["SPA", "ATL"],
            ["SPA", "MED"],
            ["ATL", "MED"],
            ["GAS", "ATL"],
            ["GAS", "MED"],
            ["SAR", "MED"],
            ["ALB", "MED"],
        ],
    },
}


@pytest.fixture(scope="module")
def drawn(tool: ModuleType) -> dict[str, Any]:
    board = copy.deepcopy(BOARD)
    tool.draw(RECIPE, board)
    return board


def test_a_board_is_cut_from_the_real_coastline_and_loads(tool: ModuleType, drawn: dict[str, Any]) -> None:
    assert tool.report(drawn) == []
    board = board_from_data(drawn, source="iberia.json")  # the loader's checks: see board.outlines
    assert board.size == (400.0, drawn["drawing"]["height"])
    por, spa = board.space("POR"), board.space("SPA")
    # Portugal is Natural Earth's: west of Spain, about a fifth of Iberia's land.
    assert max(x for x, _ in por.outline) < max(x for x, _ in spa.outline)
    assert 0.12 < _area(por.outline) / (_area(por.outline) + _area(spa.outline)) < 0.25
    assert board.size is not None and 200 < board.size[1] < 350
    # A real coast has hundreds of points; each space has its label spot inside it.
    assert len(spa.outline) > 100
    for sp in board.spaces:
        assert sp.label_at is not None and sp.at is not None
    assert board.label_size == 12.0
    # Sardinia is a space, cut out of the sea around it; the Balearics (Spain's, but away from
    # Spain's point) are scenery drawn over the sea.
    med, sardinia = board.space("MED"), board.space("SAR")
    assert sardinia.outline in med.holes and len(sardinia.outline) > 10
    assert any(
        max(x for x, _ in p) > spa.at[0] and min(x for x, _ in p) < sardinia.at[0] for _, p in board.scenery
    )
    # Alboran, too small for Natural Earth's 1:50m, is a disc of the recipe's radius in its sea.
    alboran = board.space("ALB")
    assert alboran.outline in med.holes and len(alboran.outline) == 12
    assert all(3.5 < math.dist(p, alboran.at) < 4.5 for p in alboran.outline)
    assert {sp.kind for sp in board.spaces} == {SpaceKind.COAST, SpaceKind.SEA}


def test_what_touches_without_being_adjacent_is_reported(tool: ModuleType, drawn: dict[str, Any]) -> None:
    """A border the rules do not have is named by the tool and refused by the loader."""
    board = copy.deepcopy(drawn)
    board["adjacency"]["army"].remove(["SPA", "GAS"])
    assert tool.report(board) == [f"GAS and SPA touch ({_shared(drawn)} units) but are not adjacent"]
    with pytest.raises(
        MapDataError, match="outlines of SPA and GAS: they share a border but are not adjacent"
    ):
        board_from_data(board, source="iberia.json")


def test_a_space_placed_in_the_sea_is_refused(tool: ModuleType) -> None:
    board = copy.deepcopy(BOARD)
    board["spaces"][0]["geo"] = [[-12.0, 39.5]]  # Portugal's point in the Atlantic
    with pytest.raises(tool.RecipeError, match=r"the first point of \['POR'\]"):
        tool.draw(RECIPE, board)


def _area(poly: tuple[tuple[float, float], ...]) -> float:
    return abs(sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1], strict=True))) / 2


def _shared(board: dict[str, Any]) -> str:
    from interboard.board.outlines import coverage

    ids = [sp["id"] for sp in board["spaces"]]
    shared, _ = coverage(
        [[tuple(p) for p in sp["outline"]] for sp in board["spaces"]],
        [[[tuple(p) for p in h] for h in sp.get("holes", [])] for sp in board["spaces"]],
    )
    pair = tuple(sorted((ids.index("GAS"), ids.index("SPA"))))
    return f"{shared[pair]:.1f}"


def test_an_archipelago_is_joined_into_one_space_and_a_long_name_shortened(tool: ModuleType) -> None:
    """The Balearics as one space: the strait between Mallorca and Menorca (about 6 units at this
    scale) is closed by the recipe's ``archipelagos`` radius, so both islands are one outline; its
    name has no room there, so the board writes the recipe's short form instead."""
    recipe = copy.deepcopy(RECIPE)
    recipe["groups"][1]["spaces"] = ["SPA", "BALEARICS"]
    recipe["archipelagos"] = {"BALEARICS": 10}
    recipe["short"] = {"BALEARICS": "Bal."}
    board = copy.deepcopy(BOARD)
    board["spaces"].append(
        {"id": "BALEARICS", "name": "Balearic Islands", "kind": "coast", "geo": [[2.95, 39.6]]}
    )
    board["adjacency"]["fleet"].append(["BALEARICS", "MED"])
    tool.draw(recipe, board)
    assert tool.report(board) == []
    loaded = board_from_data(board, source="iberia.json")
    frame = tool.make_frame(recipe)
    balearics = loaded.space("BALEARICS")
    assert within(balearics.outline, (), frame(2.95, 39.6))  # Mallorca
    assert within(balearics.outline, (), frame(4.05, 39.95))  # and Menorca, in one outline
    assert not within(balearics.outline, (), frame(1.4, 38.98))  # Ibiza, further off, is not
    assert balearics.label == "Bal." and balearics.label_at is not None
    assert loaded.space("SPA").label is None  # a name with room is written in full
