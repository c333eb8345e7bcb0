"""Plane geometry for schematic maps: cells around drawing positions, in pure Python.

Each space is shaded as the set of points nearer to one of its sites than to any other space's
site (a Voronoi diagram, weighted so that seas reach further: a power diagram). A space's sites
are its own drawing position plus the positions of its split coasts, so a long province such as
St Petersburg reaches both of its seas. Cells are computed by clipping the drawing rectangle with
the dividing half-plane of every other site (a few thousand clips for the standard map), and
cached per board.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from ..board import Board, Space, SpaceKind

Point = tuple[float, float]
Polygon = list[Point]

_EPS = 1e-7
KIND_WEIGHT = {SpaceKind.SEA: 1200.0, SpaceKind.IMPASSABLE: -900.0}
"""Weights of sites in the power diagram, in squared drawing units. Seas are wide: their cells reach
further than a province's, and two seas meet across a strait between two coasts. An impassable
space is a small gap between the provinces around it."""


def clip_half_plane(poly: Polygon, a: Point, b: Point, shift: float = 0.0) -> Polygon:
    """The part of convex ``poly`` on ``a``'s side of the line between ``a`` and ``b``.

    The line is perpendicular to ``ab`` and crosses it at fraction ``0.5 + shift`` from ``a``: the
    bisector when ``shift`` is 0 (Sutherland-Hodgman against one edge).
    """
    nx, ny = b[0] - a[0], b[1] - a[1]
    t = 0.5 + shift
    mx, my = a[0] + t * nx, a[1] + t * ny

    def side(p: Point) -> float:
        # Negative on a's side of the line.
        return (p[0] - mx) * nx + (p[1] - my) * ny

    out: Polygon = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        sp, sq = side(p), side(q)
        if sp <= _EPS:
            out.append(p)
        if (sp < -_EPS and sq > _EPS) or (sp > _EPS and sq < -_EPS):
            u = sp / (sp - sq)
            out.append((p[0] + u * (q[0] - p[0]), p[1] + u * (q[1] - p[1])))
    return out


def voronoi_cells(
    sites: Sequence[Point], width: float, height: float, weights: Sequence[float] | None = None
) -> list[Polygon]:
    """The cell of each site, clipped to the rectangle (0, 0)-(width, height).

    Without weights these are Voronoi cells. With them it is the power diagram: a point belongs to
    the site with the least ``distance**2 - weight``, so a site of larger weight gets a larger cell.
    """
    frame: Polygon = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    w = list(weights) if weights is not None else [0.0] * len(sites)
    spread = max(w) - min(w) if w else 0.0
    cells: list[Polygon] = []
    for i, a in enumerate(sites):
        cell = frame
        # Nearest sites first: the cell shrinks fast and later clips are cheap or no-ops.
        others = sorted((j for j in range(len(sites)) if j != i), key=lambda j: math.dist(a, sites[j]))
        for j in others:
            b = sites[j]
            d = math.dist(a, b)
            if d < 1e-9:
                continue
            # The dividing line lies at least d/2 - spread/(2d) from a: past the cell's reach, it and
            # every farther site leave the cell as it is.
            reach = max(math.dist(a, p) for p in cell)
            if d / 2 - spread / (2 * d) > reach:
                break
            cell = clip_half_plane(cell, a, b, (w[i] - w[j]) / (2 * d * d))
            if not cell:
                break
        cells.append(cell)
    return cells


DISC_SIDES = 20


def clip_to_disc(poly: Polygon, centre: Point, radius: float) -> Polygon:
    """The part of convex ``poly`` within ``radius`` of ``centre`` (the disc as an inscribed 20-gon)."""
    apothem = radius * math.cos(math.pi / DISC_SIDES)
    for k in range(DISC_SIDES):
        angle = 2 * math.pi * (k + 0.5) / DISC_SIDES
        # The half-plane inside the 20-gon's side at this angle: clip against its mirror point.
        far = (centre[0] + 2 * apothem * math.cos(angle), centre[1] + 2 * apothem * math.sin(angle))
        poly = clip_half_plane(poly, centre, far)
        if not poly:
            break
    return poly


@dataclass(frozen=True, slots=True)
class Edge:
    """A stretch of border between the cells of two spaces (``a < b``)."""

    a: int
    b: int
    p: Point
    q: Point


@dataclass(frozen=True, slots=True)
class SpaceShapes:
    """The Voronoi shading of one printed board: polygons per space and the borders between them."""

    polygons: dict[int, list[Polygon]]
    """Space index to its cells (one per site: the space's point and its coasts' points)."""
    edges: tuple[Edge, ...]
    """Every border segment between two different spaces, each once."""

    def neighbours(self) -> set[tuple[int, int]]:
        """Pairs of spaces (sorted) whose cells share a border."""
        return {(e.a, e.b) for e in self.edges}


_SHAPES: weakref.WeakKeyDictionary[Board, dict[str, SpaceShapes]] = weakref.WeakKeyDictionary()


def board_sites(board: Board, printed: str | None = None) -> list[tuple[int, Point]]:
    """(space index, site) for every drawn space of one printed board (all, when ``printed`` is None):
    its own point, then its coasts' points."""
    sites: list[tuple[int, Point]] = []
    for space in board.spaces:
        if space.at is None or (printed is not None and space.board != printed):
            continue
        sites.append((space.index, space.at))
        for loc in space.coasts:
            at = board.locations[loc].at
            if at is not None and at != space.at:
                sites.append((space.index, at))
    return sites


def space_shapes(board: Board, printed: str | None = None) -> SpaceShapes:
    """Voronoi shading of the printed board ``printed`` of a geography (cached per board).

    Coordinates are the board's own drawing units, without any offset for its place in a drawing
    of several boards.
    """
    board = board.base
    cache = _SHAPES.setdefault(board, {})
    key = printed or ""
    found = cache.get(key)
    if found is not None:
        return found
    outlined = [sp for sp in board.spaces if sp.outline and (printed is None or sp.board == printed)]
    if outlined:
        shapes = _outline_shapes(outlined)
        cache[key] = shapes
        return shapes
    size = board.size_of(printed) if printed is not None else board.size
    if size is None:
        raise ValueError(f"map {board.id!r} has no drawing size: its spaces cannot be placed")
    width, height = size
    sites = board_sites(board, printed)
    weights = [KIND_WEIGHT.get(board.spaces[space].kind, 0.0) for space, _ in sites]
    cells = voronoi_cells([p for _, p in sites], width, height, weights)
    for k, (space, at) in enumerate(sites):
        radius = board.spaces[space].radius
        if radius is not None and cells[k]:
            cells[k] = clip_to_disc(cells[k], at, radius)
    polygons: dict[int, list[Polygon]] = {}
    for (space, _), cell in zip(sites, cells, strict=True):
        if cell:
            polygons.setdefault(space, []).append(cell)
    radii = [board.spaces[space].radius for space, _ in sites]
    shapes = SpaceShapes(polygons, tuple(_borders(sites, weights, cells, width, height, radii)))
    cache[key] = shapes
    return shapes


def _outline_shapes(spaces: Sequence[Space]) -> SpaceShapes:
    """The shapes of a map drawn with its own outlines: each space its polygon, and the edges two
    outlines share (the map's loader made neighbours use the same points along a border)."""
    polygons: dict[int, list[Polygon]] = {sp.index: [list(sp.outline)] for sp in spaces}
    sides: dict[tuple[Point, Point], list[tuple[int, Point, Point]]] = {}
    for sp in spaces:
        for poly in (sp.outline, *sp.holes):
            for k in range(len(poly)):
                p, q = poly[k], poly[(k + 1) % len(poly)]
                sides.setdefault((p, q) if p <= q else (q, p), []).append((sp.index, p, q))
    edges = [
        Edge(min(a, b), max(a, b), p, q)
        for found in sides.values()
        if len(found) == 2 and (a := found[0][0]) != (b := found[1][0])
        for _, p, q in found[:1]
    ]
    edges.sort(key=lambda e: (e.a, e.b, e.p, e.q))
    return SpaceShapes(polygons, tuple(edges))


_COASTS: weakref.WeakKeyDictionary[Board, dict[str, list[list[Point]]]] = weakref.WeakKeyDictionary()


def coast_lines(board: Board, printed: str, size: Point) -> list[list[Point]]:
    """On a map drawn with outlines, the coasts of one printed board as polylines: every edge of a
    land space that borders a sea space or open water (no space, no scenery, not the board's edge),
    consecutive edges joined into one line (cached per board)."""
    board = board.base
    cache = _COASTS.setdefault(board, {})
    found = cache.get(printed)
    if found is not None:
        return found
    here = [sp for sp in board.spaces if sp.outline and sp.board == printed]
    owners: dict[tuple[Point, Point], list[int]] = {}

    def key(p: Point, q: Point) -> tuple[Point, Point]:
        return (p, q) if p <= q else (q, p)

    for sp in here:
        for poly in (sp.outline, *sp.holes):
            for k in range(len(poly)):
                owners.setdefault(key(poly[k], poly[(k + 1) % len(poly)]), []).append(sp.index)
    for name, poly in board.scenery:
        if name == printed:
            for k in range(len(poly)):
                owners.setdefault(key(poly[k], poly[(k + 1) % len(poly)]), []).append(-1)
    width, height = size

    def on_edge(p: Point, q: Point) -> bool:
        return (p[0] == q[0] and p[0] in (0.0, width)) or (p[1] == q[1] and p[1] in (0.0, height))

    lines: list[list[Point]] = []
    for sp in here:
        if sp.kind is SpaceKind.SEA:
            continue
        poly = sp.outline
        n = len(poly)
        coast = []
        for k in range(n):
            p, q = poly[k], poly[(k + 1) % n]
            others = [o for o in owners[key(p, q)] if o != sp.index]
            coast.append(
                not on_edge(p, q) and all(o >= 0 and board.spaces[o].kind is SpaceKind.SEA for o in others)
            )
        if all(coast):
            lines.append([*poly, poly[0]])
            continue
        # Start at an edge that is no coast, so every run of coast is whole.
        start = coast.index(False)
        run: list[Point] = []
        for step in range(1, n + 1):
            k = (start + step) % n
            if coast[k]:
                if not run:
                    run.append(poly[k])
                run.append(poly[(k + 1) % n])
            elif run:
                lines.append(run)
                run = []
        if run:
            lines.append(run)
    cache[printed] = lines
    return lines


def _borders(
    sites: list[tuple[int, Point]],
    weights: list[float],
    cells: list[Polygon],
    width: float,
    height: float,
    radii: Sequence[float | None] = (),
) -> list[Edge]:
    """Border segments between cells of different spaces.

    An inner edge of a cell lies on the bisector between its site and the other site nearest to
    the edge's midpoint; each edge is taken from the cell of the lower site index only. Around a
    space drawn within a radius (an island) the sea shows: an edge off the bisector (the island's
    rim) or beyond the radius (where the island's cell was cut away) borders no space.
    """
    limits = list(radii) or [None] * len(sites)
    edges: list[Edge] = []
    points = [p for _, p in sites]
    if len(points) < 2:
        return edges  # a board of one space (a single card) borders nothing
    for i, cell in enumerate(cells):
        n = len(cell)
        for k in range(n):
            p, q = cell[k], cell[(k + 1) % n]
            if math.dist(p, q) < 1e-6:
                continue
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            on_frame = (abs(p[0] - q[0]) < 1e-6 and (abs(mx) < 1e-6 or abs(mx - width) < 1e-6)) or (
                abs(p[1] - q[1]) < 1e-6 and (abs(my) < 1e-6 or abs(my - height) < 1e-6)
            )
            if on_frame:
                continue
            j = min(
                (j for j in range(len(points)) if j != i),
                key=lambda j: math.dist((mx, my), points[j]) ** 2 - weights[j],
            )
            if j < i:
                continue
            if limits[i] is not None or limits[j] is not None:
                gap = (math.dist((mx, my), points[i]) ** 2 - weights[i]) - (
                    math.dist((mx, my), points[j]) ** 2 - weights[j]
                )
                if abs(gap) > 1e-3 * max(1.0, math.dist(points[i], points[j]) ** 2):
                    continue  # an island's rim
                if any(
                    (limit := limits[k]) is not None and math.dist((mx, my), points[k]) > limit
                    for k in (i, j)
                ):
                    continue  # where an island's cell was cut away
            sa, sb = sites[i][0], sites[j][0]
            if sa != sb:
                edges.append(Edge(min(sa, sb), max(sa, sb), p, q))
    edges.sort(key=lambda e: (e.a, e.b, e.p, e.q))
    return edges


def closest_points(a: Sequence[Polygon], b: Sequence[Polygon]) -> tuple[Point, Point]:
    """The nearest pair of points on the outlines of two sets of convex polygons (one point of ``a``,
    one of ``b``)."""
    best: tuple[float, Point, Point] | None = None
    for pa in a:
        for pb in b:
            for poly_v, poly_e, flip in ((pa, pb, False), (pb, pa, True)):
                for v in poly_v:
                    n = len(poly_e)
                    for k in range(n):
                        q = _nearest_on_segment(v, poly_e[k], poly_e[(k + 1) % n])
                        d = math.dist(v, q)
                        if best is None or d < best[0]:
                            best = (d, q, v) if flip else (d, v, q)
    if best is None:
        raise ValueError("closest_points needs a polygon on each side")
    return best[1], best[2]


def _nearest_on_segment(p: Point, a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 < 1e-12:
        return a
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return (a[0] + t * dx, a[1] + t * dy)
