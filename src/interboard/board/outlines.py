"""Checks of a map drawn with outlines: every space its own polygon, the polygons tiling the land as
the adjacency says.

A map may give each space an ``outline`` (a polygon in drawing units) instead of leaving the renderer
to shade cells around the drawing positions. The drawing is then only honest if what touches on the
map is what is adjacent in the rules: two spaces that share a stretch of border must be adjacent,
and two adjacent spaces must share one, unless the map lists the pair among its ``sea_lines`` (a
crossing drawn as a dashed line over the sea). Shared borders use the same vertices on both sides
(no vertex of one polygon in the middle of the other's edge), so a renderer can tell a coast from an
inner border by comparing edges. Pure Python: edges are sorted into a grid, so only edges that
lie near each other are compared (a map of real coastlines has tens of thousands of edges).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from .model import Point

TOLERANCE = 0.05
"""Drawing units: points closer than this are the same point."""
MIN_BORDER = 4.0
"""A shared border shorter than this (drawing units) cannot be seen: it counts as no border."""

Polygon = Sequence[Point]
Segment = tuple[Point, Point]


def edges(poly: Polygon) -> list[Segment]:
    return [(poly[k], poly[(k + 1) % len(poly)]) for k in range(len(poly))]


def area(poly: Polygon) -> float:
    """Signed area (shoelace)."""
    return sum(p[0] * q[1] - q[0] * p[1] for p, q in edges(poly)) / 2


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def crosses(s: Segment, t: Segment) -> bool:
    """True when the two segments cross at a point inside both (touching ends or running along each
    other is no crossing)."""
    (a, b), (c, d) = s, t
    d1, d2 = _cross(c, d, a), _cross(c, d, b)
    d3, d4 = _cross(a, b, c), _cross(a, b, d)
    scale_t = math.dist(c, d) * TOLERANCE
    scale_s = math.dist(a, b) * TOLERANCE
    return ((d1 > scale_t and d2 < -scale_t) or (d1 < -scale_t and d2 > scale_t)) and (
        (d3 > scale_s and d4 < -scale_s) or (d3 < -scale_s and d4 > scale_s)
    )


def overlap(s: Segment, t: Segment) -> float:
    """Length along which two segments run on one line (0 when they do not)."""
    (a, b), (c, d) = s, t
    length = math.dist(a, b)
    if length == 0 or distance_to_line(c, a, b) > TOLERANCE or distance_to_line(d, a, b) > TOLERANCE:
        return 0.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    tc = (c[0] - a[0]) * ux + (c[1] - a[1]) * uy
    td = (d[0] - a[0]) * ux + (d[1] - a[1]) * uy
    return max(0.0, min(length, max(tc, td)) - max(0.0, min(tc, td)))


def distance_to_line(p: Point, a: Point, b: Point) -> float:
    length = math.dist(a, b)
    return abs(_cross(a, b, p)) / length if length else math.dist(p, a)


def same_edge(s: Segment, t: Segment) -> bool:
    (a, b), (c, d) = s, t

    def near(p: Point, q: Point) -> bool:
        return math.dist(p, q) <= TOLERANCE

    return (near(a, c) and near(b, d)) or (near(a, d) and near(b, c))


def contains(poly: Polygon, p: Point) -> bool:
    """True when ``p`` lies inside ``poly`` and not on its outline (even-odd rule)."""
    x, y = p
    inside = False
    for k in range(len(poly)):
        (x1, y1), (x2, y2) = poly[k - 1], poly[k]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside and not any(distance_to_segment(p, a, b) <= TOLERANCE for a, b in edges(poly))


def _box(poly: Polygon) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in poly], [p[1] for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


GRID = 6.0
"""Drawing units: the side of the grid's squares that edges are sorted into."""


def _point_text(p: Point) -> str:
    return f"[{p[0]:g}, {p[1]:g}]"


def coverage(
    polys: Sequence[Polygon], holes: Sequence[Sequence[Polygon]] = ()
) -> tuple[dict[tuple[int, int], float], list[tuple[int, int | None, str]]]:
    """How a set of outlines lies together, all at once: the length of border each pair shares
    (pairs ``(i, j)``, ``i < j``), and the problems found, as ``(i, j, why)`` (``j`` is None for a
    problem of outline ``i`` alone). Outlines may share whole edges; any other contact (edges that
    cross, that run along part of each other, an outline inside another) is a problem.

    ``holes[i]``, when given, are rings cut out of outline ``i`` (a sea around its islands): their
    edges are outline ``i``'s too, and what lies in a hole is not inside ``i``."""
    problems: list[tuple[int, int | None, str]] = []
    rings = [[poly, *(holes[i] if i < len(holes) else ())] for i, poly in enumerate(polys)]
    segments: list[tuple[int, tuple[int, int], Point, Point]] = []
    for i, own in enumerate(rings):
        for r, ring in enumerate(own):
            if len(ring) < 3:
                problems.append((i, None, "an outline has at least 3 points"))
                break
            if abs(area(ring)) < 1.0:
                problems.append((i, None, "the outline encloses no area"))
                break
            for k, (a, b) in enumerate(edges(ring)):
                if math.dist(a, b) <= TOLERANCE:
                    problems.append((i, None, f"the outline repeats the point {_point_text(a)}"))
                segments.append((i, (r, k), a, b))
    grid: dict[tuple[int, int], list[int]] = defaultdict(list)
    boxes_of: list[tuple[float, float, float, float]] = []
    for n, (_, _, a, b) in enumerate(segments):
        box = (
            min(a[0], b[0]) - TOLERANCE,
            min(a[1], b[1]) - TOLERANCE,
            max(a[0], b[0]) + TOLERANCE,
            max(a[1], b[1]) + TOLERANCE,
        )
        boxes_of.append(box)
        for gx in range(int(box[0] // GRID), int(box[2] // GRID) + 1):
            for gy in range(int(box[1] // GRID), int(box[3] // GRID) + 1):
                grid[(gx, gy)].append(n)
    shared: dict[tuple[int, int], float] = defaultdict(float)
    reported: set[tuple[int, int | None]] = set()

    def report(i: int, j: int | None, why: str) -> None:
        key = (i, j) if j is None else (min(i, j), max(i, j))
        if key not in reported:
            reported.add(key)
            problems.append((key[0], key[1], why))

    for (gx, gy), members in grid.items():
        for u in range(len(members)):
            m = members[u]
            pi, ki, a, b = segments[m]
            bm = boxes_of[m]
            for v in range(u + 1, len(members)):
                n = members[v]
                bn = boxes_of[n]
                if bm[2] < bn[0] or bn[2] < bm[0] or bm[3] < bn[1] or bn[3] < bm[1]:
                    continue
                # Two edges share several squares: compare them in the first only.
                if int(max(bm[0], bn[0]) // GRID) != gx or int(max(bm[1], bn[1]) // GRID) != gy:
                    continue
                pj, kj, c, d = segments[n]
                s, t = (a, b), (c, d)
                if pi == pj:
                    size = len(rings[pi][ki[0]])
                    if ki[0] == kj[0] and abs(ki[1] - kj[1]) in (1, size - 1):
                        continue  # consecutive edges meet at their common point
                    if crosses(s, t) or overlap(s, t) > TOLERANCE:
                        report(pi, None, f"the outline crosses itself (the edge from {_point_text(a)})")
                    continue
                if crosses(s, t):
                    report(pi, pj, f"their outlines cross (near {_point_text(a)})")
                    continue
                run = overlap(s, t)
                if run > TOLERANCE:
                    if not same_edge(s, t):
                        report(
                            pi,
                            pj,
                            f"they share part of an edge (near {_point_text(a)}): "
                            "give both outlines the same points along a shared border",
                        )
                    else:
                        shared[(min(pi, pj), max(pi, pj))] += run
    # Edges that neither cross nor half-share: one outline lies inside another only if any of its
    # points not on the other does.
    boxes = [_box(poly) if len(poly) >= 3 else (0.0, 0.0, -1.0, -1.0) for poly in polys]
    vertex_sets = [{p for ring in own for p in ring} for own in rings]
    for i in range(len(polys)):
        for j in range(i + 1, len(polys)):
            bi, bj = boxes[i], boxes[j]
            if bi[0] > bj[2] or bj[0] > bi[2] or bi[1] > bj[3] or bj[1] > bi[3] or (i, j) in reported:
                continue
            for inner, outer in ((i, j), (j, i)):
                spot = next((p for p in polys[inner] if p not in vertex_sets[outer]), None)
                if spot is not None and within(polys[outer], rings[outer][1:], spot):
                    report(i, j, f"the point {_point_text(spot)} of one lies inside the other")
                    break
    return dict(shared), problems


def within(poly: Polygon, holes: Sequence[Polygon], p: Point) -> bool:
    """True when ``p`` lies inside ``poly`` and in none of its holes."""
    return contains(poly, p) and not any(contains(hole, p) for hole in holes)
