"""The boards drawn from real geography (tools/make_real_maps.py), checked as a player would look at
them: one outline per space, no two overlapping, touching exactly where the rules make them
adjacent (or joined by a drawn passage), labels inside their spaces and apart, and each space's
point well inside it. The shipped standard map is still what its transcriber makes of its sources.
"""

from __future__ import annotations

import importlib.util
import math
from importlib import resources
from pathlib import Path

import pytest

from interboard.board import Board, Space, SpaceKind, load_packaged_board
from interboard.board.outlines import MIN_BORDER, coverage, within
from interboard.render.base import document, draw_spaces, make_frame

from .helpers import Drawing

ROOT = Path(__file__).resolve().parents[2]

REAL_MAPS = [
    ("interboard.games.diplomacy.data.maps", "standard"),
    ("interboard.games.axis_allies.data.maps", "aa_europe_1999"),
    ("interboard.games.axis_allies.data.maps", "aa_pacific_2001"),
    ("interboard.games.axis_allies.data.maps", "aa_linked_world"),
]
"""(package, map) of every board drawn by tools/make_real_maps.py."""


@pytest.fixture(scope="module", params=REAL_MAPS, ids=[name for _, name in REAL_MAPS])
def board(request: pytest.FixtureRequest) -> Board:
    package, name = request.param
    return load_packaged_board(package, name)


def _adjacent_spaces(board: Board) -> set[tuple[int, int]]:
    pairs = set()
    for loc in board.locations:
        for other in board.army_adj[loc.index] | board.fleet_adj[loc.index]:
            a, b = loc.space, board.locations[other].space
            if a != b:
                pairs.add((min(a, b), max(a, b)))
    return pairs


def _drawn(board: Board, printed: str) -> list[int]:
    return [sp.index for sp in board.spaces if sp.kind is not SpaceKind.IMPASSABLE and sp.board == printed]


def _printed(board: Board) -> list[str]:
    """The printed boards of a map (the linked world's: Europe, the Pacific, the cards), each with
    its own coordinates."""
    return sorted({sp.board for sp in board.spaces})


def test_every_space_has_one_outline_and_none_overlap(board: Board) -> None:
    assert all(len(sp.outline) >= 3 for sp in board.spaces), "every space is drawn as its own outline"
    for printed in _printed(board):
        spaces = [sp for sp in board.spaces if sp.board == printed]
        _, problems = coverage([sp.outline for sp in spaces], [sp.holes for sp in spaces])
        assert [(spaces[i].id, spaces[j].id if j is not None else None, why) for i, j, why in problems] == []
    for sp in board.spaces:
        assert sp.at is not None and within(sp.outline, sp.holes, sp.at), sp.id


def test_spaces_touch_exactly_where_they_are_adjacent(board: Board) -> None:
    """Two spaces share a border when the rules make them adjacent; where they cannot (a strait),
    the map draws a passage; no two spaces touch without being adjacent."""
    touching: set[tuple[int, int]] = set()
    for printed in _printed(board):
        drawn = _drawn(board, printed)
        shared, _ = coverage([board.spaces[i].outline for i in drawn], [board.spaces[i].holes for i in drawn])
        touching |= {
            (min(drawn[i], drawn[j]), max(drawn[i], drawn[j]))
            for (i, j), length in shared.items()
            if length >= MIN_BORDER
        }
    # Spaces of different printed boards are joined by drawn links, not borders.
    adjacent = {(a, b) for a, b in _adjacent_spaces(board) if board.spaces[a].board == board.spaces[b].board}
    lines = set(board.sea_lines)
    walls = set(board.walls)
    names = {pair: (board.spaces[pair[0]].id, board.spaces[pair[1]].id) for pair in touching | adjacent}
    assert [names[p] for p in sorted(touching - adjacent - walls)] == []
    assert [names[p] for p in sorted(adjacent - touching - lines)] == []
    assert not touching & lines, "a passage is drawn only where the outlines do not touch"
    # A wall closes a coast: a sea and a space it is not adjacent to. Land that touches is adjacent.
    assert walls <= touching - adjacent
    assert all(SpaceKind.SEA in (board.spaces[a].kind, board.spaces[b].kind) for a, b in walls)
    # Real land tiles the board: nearly every adjacency is a border, not a passage.
    assert len(lines) <= 0.03 * len(adjacent)
    frame = make_frame(board)
    drawing = Drawing.parse(document(frame, board.id, draw_spaces(frame, {}), frame.height))
    passages = {frozenset((e.get("data-a"), e.get("data-b"))) for e in drawing.all("passage", "g")}
    assert passages == {frozenset((board.spaces[a].id, board.spaces[b].id)) for a, b in lines}
    assert bool(drawing.all("wall", "path")) == bool(walls)


def test_each_space_has_room_for_its_unit_and_centre(board: Board) -> None:
    """A space's point, where its unit and centre ring go, is well inside it: at least 6 units from
    its edge (the ring's radius is 11.5; a small space may let it reach over its border a little),
    or, in a space too narrow for that (a long thin island), near as far in as the space allows."""
    tight = []
    for sp in board.spaces:
        assert sp.at is not None
        edge = _edge_distance(sp, sp.at)
        if edge < 6 and edge < 0.75 * _inradius(sp):
            tight.append((sp.id, round(edge, 1)))
    assert tight == []


def _edge_distance(space: Space, p: tuple[float, float]) -> float:
    rings = (space.outline, *space.holes)
    return min(_distance_to_segment(p, ring[k - 1], ring[k]) for ring in rings for k in range(len(ring)))


def _inradius(space: Space) -> float:
    """How far in from its edge any point of a (small) space lies, at most: sampled on a grid."""
    xs, ys = [x for x, _ in space.outline], [y for _, y in space.outline]
    best = 0.0
    steps = 40
    for i in range(steps + 1):
        for j in range(steps + 1):
            p = (min(xs) + (max(xs) - min(xs)) * i / steps, min(ys) + (max(ys) - min(ys)) * j / steps)
            if within(space.outline, space.holes, p):
                best = max(best, _edge_distance(space, p))
    return best


def _distance_to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def test_scenery_is_no_space_and_lies_apart_from_the_land(board: Board) -> None:
    """Land drawn for the eye only (islands, land beyond the board's edge) overlaps no land space;
    an island may lie within a sea (it is drawn over it)."""
    assert board.scenery, "a real coastline leaves islands that are no space"
    for printed in _printed(board):
        pieces = [polygon for on, polygon in board.scenery if on in (printed, "")]
        land = [sp.outline for sp in board.spaces if sp.kind is not SpaceKind.SEA and sp.board == printed]
        _, problems = coverage([*land, *pieces])
        assert problems == [], printed


def test_transcriber_reproduces_the_shipped_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The standard map's facts are the transcriber's; where the spaces lie and how they are drawn
    is kept from the shipped file (tools/make_real_maps.py makes it)."""
    script = ROOT / "tools" / "transcribe_standard.py"
    monkeypatch.syspath_prepend(str(script.parent))
    spec = importlib.util.spec_from_file_location("transcribe_standard", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shipped = (
        resources.files("interboard.games.diplomacy.data.maps")
        .joinpath("standard.json")
        .read_text(encoding="utf-8")
    )
    out = tmp_path / "standard.json"
    out.write_text(shipped, encoding="utf-8")
    monkeypatch.setattr(module, "OUT", out)
    assert module.main() == 0
    assert out.read_text(encoding="utf-8") == shipped
