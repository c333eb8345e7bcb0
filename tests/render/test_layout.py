"""The standard map's drawing positions are sensible: neighbours near, borders where the rules put
them, nothing drawn on top of anything else, and the shipped file reproducible from its sources."""

from __future__ import annotations

import importlib.util
import math
from importlib import resources
from pathlib import Path

import pytest

from interboard.board import Board, SpaceKind, load_packaged_board
from interboard.render import render_board
from interboard.render.base import CENTRE_R, LABEL_DY, PASSAGE_BELOW
from interboard.render.geometry import space_shapes

from .helpers import Drawing

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def board() -> Board:
    return load_packaged_board("interboard.games.diplomacy.data.maps", "standard")


def _adjacent_spaces(board: Board) -> set[tuple[int, int]]:
    pairs = set()
    for loc in board.locations:
        for other in board.army_adj[loc.index] | board.fleet_adj[loc.index]:
            a, b = loc.space, board.locations[other].space
            pairs.add((min(a, b), max(a, b)))
    return pairs


def test_adjacent_spaces_are_drawn_near_each_other(board: Board) -> None:
    far = []
    for a, b in _adjacent_spaces(board):
        pa, pb = board.spaces[a].at, board.spaces[b].at
        assert pa is not None and pb is not None
        # Sea areas are large; two provinces that share a border sit close together.
        bound = 380 if SpaceKind.SEA in (board.spaces[a].kind, board.spaces[b].kind) else 300
        if math.dist(pa, pb) > bound:
            far.append((board.spaces[a].id, board.spaces[b].id, round(math.dist(pa, pb))))
    assert not far


def test_every_adjacency_is_shown_and_nearly_all_as_shared_borders(board: Board) -> None:
    """Spaces are shaded as cells around their points: an adjacent pair should touch along a border
    long enough to see; the few that cannot (a strait between two seas) are drawn as a passage, and
    cells that touch without being adjacent are drawn with a wall between them."""
    lengths: dict[tuple[int, int], float] = {}
    for e in space_shapes(board, "standard").edges:
        lengths[(e.a, e.b)] = lengths.get((e.a, e.b), 0.0) + math.dist(e.p, e.q)
    adjacent = _adjacent_spaces(board)
    unseen = {
        frozenset((board.spaces[a].id, board.spaces[b].id))
        for a, b in adjacent
        if lengths.get((a, b), 0) < PASSAGE_BELOW
    }
    drawing = Drawing.parse(render_board(board))
    passages = {frozenset((e.get("data-a"), e.get("data-b"))) for e in drawing.all("passage", "g")}
    assert passages == unseen
    assert len(passages) <= 3, f"too many adjacencies drawn as passages: {sorted(map(sorted, passages))}"
    walls = [
        (a, b)
        for a, b in lengths
        if (a, b) not in adjacent
        and board.spaces[a].kind is not SpaceKind.IMPASSABLE
        and board.spaces[b].kind is not SpaceKind.IMPASSABLE
    ]
    assert len(walls) <= 6, [(board.spaces[a].id, board.spaces[b].id) for a, b in walls]


def test_every_point_lies_in_its_own_cell(board: Board) -> None:
    shapes = space_shapes(board, "standard")
    for space in board.spaces:
        if space.at is None:
            continue
        assert any(_inside(poly, space.at) for poly in shapes.polygons.get(space.index, [])), space.id


def _inside(poly: list[tuple[float, float]], p: tuple[float, float]) -> bool:
    """Inside a convex polygon listed clockwise on screen (y downwards)."""
    return all(
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= -1e-6
        for a, b in zip(poly, poly[1:] + poly[:1], strict=True)
    )


def test_seas_lie_at_sea(board: Board) -> None:
    """A sea's point is nearer to the seas and coasts it touches than to any inland province."""
    for sea in board.spaces:
        if sea.kind is not SpaceKind.SEA or sea.at is None:
            continue
        nearest = min(
            (s for s in board.spaces if s.at is not None and s.index != sea.index),
            key=lambda s: math.dist(s.at or (0, 0), sea.at or (0, 0)),
        )
        assert nearest.kind is not SpaceKind.LAND, f"{sea.id} is drawn nearest to the inland {nearest.id}"


def test_no_two_places_are_drawn_on_top_of_each_other(board: Board) -> None:
    # Around a space's point: the centre ring (or a unit) on it, the three-letter label under it.
    ring = CENTRE_R + 2
    boxes: list[tuple[str, float, float, float, float]] = []
    for space in board.spaces:
        if space.at is None:
            continue
        x, y = space.at
        boxes.append((space.id, x - ring, y - ring, x + ring, y + ring))
        boxes.append((space.id, x - 12, y + LABEL_DY - 8, x + 12, y + LABEL_DY + 2))
    for loc in board.locations:
        if loc.coast is not None and loc.at is not None:
            x, y = loc.at
            boxes.append((board.spaces[loc.space].id, x - 8, y - 8, x + 8, y + 8))
    overlaps = {
        (a[0], b[0])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if a[0] != b[0] and a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
    }
    assert not overlaps


def test_transcriber_reproduces_the_shipped_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = ROOT / "tools" / "transcribe_standard.py"
    spec = importlib.util.spec_from_file_location("transcribe_standard", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "standard.json"
    monkeypatch.setattr(module, "OUT", out)
    assert module.main() == 0
    shipped = (
        resources.files("interboard.games.diplomacy.data.maps")
        .joinpath("standard.json")
        .read_text(encoding="utf-8")
    )
    assert out.read_text(encoding="utf-8") == shipped
