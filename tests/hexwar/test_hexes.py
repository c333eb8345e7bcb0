"""Hex geometry of the board layer: numbering, neighbours, distance, and the bit-set spreads that
supply runs on, checked against a plain model by property tests."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interboard.board.errors import MapDataError
from interboard.board.hexes import DIRECTIONS, OPPOSITE, Bitboard, Grid
from interboard.board.hexmap import geography_from_data, hexmap_from_data

GRIDS = [
    Grid("W", (33, 84), (0, 34), east=False, shifted_odd=True),
    Grid("E", (1, 26), (1, 18), east=False, shifted_odd=False),
    Grid("T", (1, 9), (1, 7), east=True, shifted_odd=True),
    Grid("U", (2, 10), (0, 6), east=True, shifted_odd=False),
]


@st.composite
def cells(draw: st.DrawFn) -> tuple[Grid, tuple[int, int]]:
    grid = draw(st.sampled_from(GRIDS))
    col = draw(st.integers(grid.columns[0], grid.columns[1]))
    row = draw(st.integers(grid.rows[0], grid.rows[1]))
    return grid, (col, row)


def test_hex_ids_are_the_maps_own_numbers() -> None:
    west = GRIDS[0]
    assert west.hex_id(70, 5) == "W7005"
    assert west.parse("W7005") == (70, 5)
    with pytest.raises(ValueError, match="off map W"):
        west.parse("W9005")
    with pytest.raises(ValueError, match="is not a hex of map W"):
        west.parse("E0214")


def test_neighbours_of_a_shifted_and_a_plain_column() -> None:
    """Flat-topped columns: a shifted column's side neighbours are on its row and the row below; a
    plain column's on its row and the row above (columns numbered westward on this grid)."""
    west = GRIDS[0]
    shifted = {d: west.neighbour(47, 7, d) for d in DIRECTIONS}  # odd column: shifted down
    assert shifted == {"N": (47, 6), "S": (47, 8), "NE": (46, 7), "SE": (46, 8), "NW": (48, 7), "SW": (48, 8)}
    plain = {d: west.neighbour(46, 8, d) for d in DIRECTIONS}
    assert plain == {"N": (46, 7), "S": (46, 9), "NE": (45, 7), "SE": (45, 8), "NW": (47, 7), "SW": (47, 8)}


@given(cells(), st.sampled_from(DIRECTIONS))
def test_a_step_and_its_opposite_come_back(cell: tuple[Grid, tuple[int, int]], direction: str) -> None:
    grid, (col, row) = cell
    there = grid.neighbour(col, row, direction)
    if there is not None:
        assert grid.neighbour(*there, OPPOSITE[direction]) == (col, row)
        assert grid.distance((col, row), there) == 1


@given(cells())
def test_axial_and_offset_coordinates_round_trip(cell: tuple[Grid, tuple[int, int]]) -> None:
    grid, (col, row) = cell
    assert grid.offset(*grid.axial(col, row)) == (col, row)


def _bfs_distance(grid: Grid, a: tuple[int, int], b: tuple[int, int]) -> int:
    seen = {a: 0}
    queue = deque([a])
    while queue:
        cell = queue.popleft()
        if cell == b:
            return seen[cell]
        for _, col, row in grid.neighbours(*cell):
            if (col, row) not in seen:
                seen[(col, row)] = seen[cell] + 1
                queue.append((col, row))
    raise AssertionError("unreachable")


@settings(max_examples=60)
@given(st.sampled_from(GRIDS[2:]), st.data())
def test_distance_is_the_number_of_steps(grid: Grid, data: st.DataObject) -> None:
    """On a whole rectangular grid (no holes) the shortest walk equals the hex distance."""
    pick = st.tuples(st.integers(*grid.columns), st.integers(*grid.rows))
    a, b = data.draw(pick), data.draw(pick)
    assert grid.distance(a, b) == _bfs_distance(grid, a, b)


@settings(max_examples=80)
@given(st.data())
def test_a_bit_set_step_moves_every_hex_to_its_neighbour(data: st.DataObject) -> None:
    board = Bitboard(GRIDS)
    k = data.draw(st.integers(0, len(GRIDS) - 1))
    grid = GRIDS[k]
    col = data.draw(st.integers(*grid.columns))
    row = data.draw(st.integers(*grid.rows))
    for d in DIRECTIONS:
        there = grid.neighbour(col, row, d)
        expected = 0 if there is None else 1 << board.bit(k, *there)
        assert board.step(1 << board.bit(k, col, row), d) == expected, (grid.prefix, col, row, d)


@settings(max_examples=40)
@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(0, 60), st.integers(0, 40)), min_size=1, max_size=12)
)
def test_a_spread_is_the_union_of_the_neighbours(picks: list[tuple[int, int, int]]) -> None:
    board = Bitboard(GRIDS[:2])
    chosen: set[int] = set()
    expected: set[int] = set()
    for k, x, y in picks:
        grid = GRIDS[k]
        col = grid.columns[0] + x % (grid.columns[1] - grid.columns[0] + 1)
        row = grid.rows[0] + y % (grid.rows[1] - grid.rows[0] + 1)
        chosen.add(board.bit(k, col, row))
        expected.add(board.bit(k, col, row))
        expected.update(board.bit(k, c, r) for _, c, r in grid.neighbours(col, row))
    mask = sum(1 << b for b in chosen)
    assert set(board.bits(board.spread(mask, board.on_map))) == expected
    for b in chosen:
        place = board.place(b)
        assert board.bit(place.grid, place.col, place.row) == b


def test_a_hexmap_names_what_is_wrong() -> None:
    base = {
        "format": "interboard-hexmap/1",
        "id": "t",
        "title": "T",
        "grid": {"prefix": "T", "columns": [1, 3], "rows": [1, 3]},
        "hexes": {
            "T0101": {"terrain": "clear"},
            "T0102": {"terrain": "clear"},
            "T0303": {"terrain": "clear"},
        },
    }
    assert len(hexmap_from_data(base, "t.json").hexes) == 3
    with pytest.raises(MapDataError, match=r"t.json: hexes.T0909: T0909 is off map T"):
        hexmap_from_data({**base, "hexes": {"T0909": {"terrain": "clear"}}}, "t.json")
    with pytest.raises(MapDataError, match=r"rivers\[0\]: T0101 and T0303 are not neighbours"):
        hexmap_from_data({**base, "rivers": [["T0101", "T0303"]]}, "t.json")
    with pytest.raises(MapDataError, match=r"format: must be 'interboard-hexmap/1'"):
        hexmap_from_data({**base, "format": "x"}, "t.json")
    hexmap = hexmap_from_data({**base, "rivers": [["T0101", "T0102"]]}, "t.json")
    geo = geography_from_data(
        [hexmap], [{"id": "BOX"}], [{"id": "l", "a": "T0101", "b": "BOX", "carries": ["air"]}], "g"
    )
    a, b = geo.hex("T0101").index, geo.hex("T0102").index
    assert geo.river(a, b) and geo.river(b, a) and not geo.all_sea(a, b)
    assert geo.link("l").carries == ("air",)
    with pytest.raises(MapDataError, match="link l: T0909 is neither a hex nor a box"):
        geography_from_data([hexmap], [], [{"id": "l", "a": "T0909", "b": "T0101"}], "g")
