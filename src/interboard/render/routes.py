"""Lines drawn across a map between two places (the links of linked games) routed around what the
map writes: of a family of smooth curves between the two ends, the one that runs over the fewest
space names and unit spots, then the shortest.

A curve is one cubic Bézier whose two inner control points are pushed off their places on a plain
curve by one of a few amounts each, so that a route may bow to either side or swing as an S. Every
candidate is sampled coarsely; the few best are sampled finely, and every sample inside an
obstacle costs as much as a long detour. The ends' own spaces are no obstacle (a link ends on its
space's unit spot, beside its name).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""x0, y0, x1, y1."""

CELL = 4.0
"""Side of the squares the obstacles are rasterised into, in drawing units."""
COARSE = 40
"""Samples of every candidate."""
FINE_STEP = 4.0
"""Drawing units between the samples of the best candidates."""
FINALISTS = 6
BENDS = tuple(k * 0.1 for k in range(-6, 7))
"""How far each inner control point is pushed, as a share of the ends' distance."""
HIT = 400.0
"""What a sample inside an obstacle costs, in drawing units of length."""


def _bernstein(n: int) -> tuple[tuple[float, float, float, float], ...]:
    out = []
    for i in range(1, n):
        t = i / n
        s = 1 - t
        out.append((s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t))
    return tuple(out)


_COARSE_WEIGHTS = _bernstein(COARSE)


@dataclass(frozen=True)
class Obstacles:
    """Boxes a route should keep off, each belonging to a space, rasterised: the spaces whose
    boxes cover each square of ``CELL`` drawing units."""

    cells: dict[tuple[int, int], tuple[int, ...]]
    bounds: Box
    """The drawing: a route may not leave it."""

    @classmethod
    def of(cls, boxes: Iterable[tuple[Box, int]], bounds: Box) -> Obstacles:
        cells: dict[tuple[int, int], tuple[int, ...]] = {}
        for (x0, y0, x1, y1), owner in boxes:
            for gx in range(int(x0 // CELL), int(x1 // CELL) + 1):
                for gy in range(int(y0 // CELL), int(y1 // CELL) + 1):
                    cells[(gx, gy)] = (*cells.get((gx, gy), ()), owner)
        return cls(cells, bounds)

    def hits(self, x: float, y: float, spared: tuple[int, ...]) -> int:
        """How many boxes cover the point, but for those of the ``spared`` spaces."""
        owners = self.cells.get((int(x // CELL), int(y // CELL)))
        if not owners:
            return 0
        return sum(1 for o in owners if o not in spared)


def _cost(
    obstacles: Obstacles,
    curve: tuple[Point, Point, Point, Point],
    weights: Sequence[tuple[float, float, float, float]],
    spared: tuple[int, ...],
    bound: float,
) -> float:
    """The curve's length plus ``HIT`` for each sample inside an obstacle (a share of it for
    coarse samples, which stand for a longer stretch); ``inf`` once it passes ``bound`` or leaves
    the drawing."""
    (px, py), (ax, ay), (bx, by), (qx, qy) = curve
    x0, y0, x1, y1 = obstacles.bounds
    hit = HIT * (len(_COARSE_WEIGHTS) + 1) / (len(weights) + 1)
    cost = 0.0
    lx, ly = px, py
    for w0, w1, w2, w3 in weights:
        x = w0 * px + w1 * ax + w2 * bx + w3 * qx
        y = w0 * py + w1 * ay + w2 * by + w3 * qy
        if not (x0 <= x <= x1 and y0 <= y <= y1):
            return math.inf
        cost += math.hypot(x - lx, y - ly)
        if (hits := obstacles.hits(x, y, spared)) and (cost := cost + hit * hits) >= bound:
            return math.inf
        lx, ly = x, y
    return cost + math.hypot(qx - lx, qy - ly)


def route(
    obstacles: Obstacles,
    p: Point,
    q: Point,
    spared: Sequence[int],
    leave: Point | None = None,
) -> tuple[Point, Point]:
    """The two inner control points of the cheapest curve from ``p`` to ``q``.

    ``leave``: the direction (a unit vector) in which a plain curve leaves ``p`` and enters ``q``
    (a link between boards drawn side by side runs across the gap between them); the route then
    swings up or down on its way rather than to either side of the straight line."""
    d = math.dist(p, q) or 1.0
    keep = tuple(spared)
    if leave is None:
        nx, ny = -(q[1] - p[1]) / d, (q[0] - p[0]) / d
        base1 = (p[0] + (q[0] - p[0]) / 3, p[1] + (q[1] - p[1]) / 3)
        base2 = (p[0] + 2 * (q[0] - p[0]) / 3, p[1] + 2 * (q[1] - p[1]) / 3)
    else:
        reach = max(40.0, 0.45 * abs(q[0] - p[0]))
        nx, ny = -leave[1], leave[0]
        base1 = (p[0] + leave[0] * reach, p[1] + leave[1] * reach)
        base2 = (q[0] - leave[0] * reach, q[1] - leave[1] * reach)
    ranked: list[tuple[float, float, tuple[Point, Point, Point, Point]]] = []
    for b1 in BENDS:
        for b2 in BENDS:
            curve = (
                p,
                (base1[0] + nx * b1 * d, base1[1] + ny * b1 * d),
                (base2[0] + nx * b2 * d, base2[1] + ny * b2 * d),
                q,
            )
            bend = 8 * (abs(b1) + abs(b2))  # of equal routes, the straighter
            ranked.append((_cost(obstacles, curve, _COARSE_WEIGHTS, keep, math.inf) + bend, bend, curve))
    ranked.sort(key=lambda r: r[0])
    best: tuple[float, tuple[Point, Point, Point, Point]] = (math.inf, ranked[0][2])
    for _, bend, curve in ranked[:FINALISTS]:
        (_, c1, c2, _) = curve
        rough = math.dist(p, c1) + math.dist(c1, c2) + math.dist(c2, q)
        cost = _cost(obstacles, curve, _bernstein(max(COARSE, int(rough / FINE_STEP))), keep, best[0] - bend)
        if cost + bend < best[0]:
            best = (cost + bend, curve)
    return best[1][1], best[1][2]
