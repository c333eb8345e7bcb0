"""Drawing positions for a map that has none: a deterministic layout of its adjacency graph.

A map imported without a drawing still needs a point for each space, for the cells drawn around
them (:mod:`interboard.render.geometry`) to be usable: neighbours near each other, no two points on
top of each other. :func:`lay_out` places the graph so that the distance between two points follows
the number of steps between their spaces, as neato does: pivot MDS for a start that is already
unfolded, then stress majorization weighted towards near pairs, then a pass that pushes apart any
two points closer than a share of a step. Pure Python and seeded: the same graph and seed give the
same points on every machine.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Iterable, Sequence

from .model import Point

PIVOTS = 40
"""Spaces whose distances give the starting layout (pivot MDS): enough to unfold a map of hundreds."""
STRESS_ROUNDS = 40
"""Rounds of stress majorization after the start: the layout no longer moves visibly after these."""
MIN_GAP = 0.6
"""The least distance between two points, in steps (one step: the mean distance of neighbours)."""


def lay_out(nodes: Sequence[str], edges: Iterable[tuple[str, str]], seed: int = 1) -> dict[str, Point]:
    """A point for each node, neighbours one unit apart on average, no two points nearer than
    :data:`MIN_GAP`; ``edges`` are undirected pairs of nodes. Parts of the graph that do not meet
    are drawn apart, as if one step further than its farthest pair."""
    index = {node: k for k, node in enumerate(nodes)}
    neighbours: list[set[int]] = [set() for _ in nodes]
    for a, b in edges:
        i, j = index[a], index[b]
        if i != j:
            neighbours[i].add(j)
            neighbours[j].add(i)
    n = len(nodes)
    if n == 0:
        return {}
    if n == 1:
        return {nodes[0]: (0.0, 0.0)}
    rng = random.Random(seed)
    steps = _steps(neighbours)
    points = _pivot_mds(steps, rng)
    # A small jitter: spaces at the same distance from every pivot would start on the same point.
    points = [(x + rng.uniform(-0.01, 0.01), y + rng.uniform(-0.01, 0.01)) for x, y in points]
    points = _majorize(points, steps, STRESS_ROUNDS)
    points = _rescale(points, neighbours)
    points = spread(points, MIN_GAP)
    return {node: points[k] for k, node in enumerate(nodes)}


def _steps(neighbours: Sequence[set[int]]) -> list[list[float]]:
    """Steps between every two nodes (breadth first); parts of the graph that do not meet are put
    one step further apart than the farthest connected pair."""
    n = len(neighbours)
    rows: list[list[int]] = []
    for start in range(n):
        seen = [-1] * n
        seen[start] = 0
        queue = deque([start])
        while queue:
            u = queue.popleft()
            for v in neighbours[u]:
                if seen[v] < 0:
                    seen[v] = seen[u] + 1
                    queue.append(v)
        rows.append(seen)
    apart = max(max(row) for row in rows) + 1
    return [[float(d if d >= 0 else apart) for d in row] for row in rows]


def _pivot_mds(steps: list[list[float]], rng: random.Random) -> list[Point]:
    """Classical MDS approximated from the distances to a few pivots chosen far apart (Brandes and
    Pich's pivot MDS): the two main axes of the double-centred squared distances."""
    n = len(steps)
    first = rng.randrange(n)
    pivots = [first]
    nearest = list(steps[first])
    while len(pivots) < min(PIVOTS, n):
        far = max(range(n), key=lambda i: (nearest[i], -i))
        if nearest[far] == 0:
            break
        pivots.append(far)
        nearest = [min(a, b) for a, b in zip(nearest, steps[far], strict=True)]
    k = len(pivots)
    squared = [[steps[i][p] ** 2 for p in pivots] for i in range(n)]
    column_mean = [sum(squared[i][j] for i in range(n)) / n for j in range(k)]
    row_mean = [sum(row) / k for row in squared]
    total_mean = sum(column_mean) / k
    centred = [
        [-0.5 * (squared[i][j] - row_mean[i] - column_mean[j] + total_mean) for j in range(k)]
        for i in range(n)
    ]
    gram = [[sum(row[a] * row[b] for row in centred) for b in range(k)] for a in range(k)]
    axes: list[list[float]] = []
    for _ in range(2):
        v = [rng.random() - 0.5 for _ in range(k)]
        for _ in range(200):  # power iteration, the axes found so far projected out
            w = [sum(x * y for x, y in zip(row, v, strict=True)) for row in gram]
            for axis in axes:
                dot = sum(a * b for a, b in zip(axis, w, strict=True))
                w = [a - dot * b for a, b in zip(w, axis, strict=True)]
            norm = math.sqrt(sum(x * x for x in w)) or 1.0
            v = [x / norm for x in w]
        axes.append(v)
    xs, ys = ([sum(a * b for a, b in zip(row, axis, strict=True)) for row in centred] for axis in axes)
    return list(zip(xs, ys, strict=True))


def _majorize(points: list[Point], steps: list[list[float]], rounds: int) -> list[Point]:
    """Stress majorization (Gansner, Koren and North), each pair weighted by 1/steps² so that near
    pairs count most, updated in place one point at a time."""
    n = len(points)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    # The start is in the units of squared steps: bring it near the units of steps first.
    scale = _mean_ratio(xs, ys, steps)
    xs = [x * scale for x in xs]
    ys = [y * scale for y in ys]
    weights = [[0.0 if i == j else 1.0 / (steps[i][j] ** 2) for j in range(n)] for i in range(n)]
    totals = [sum(row) for row in weights]
    for _ in range(rounds):
        for i in range(n):
            xi, yi = xs[i], ys[i]
            row, wrow = steps[i], weights[i]
            sx = sy = 0.0
            for j in range(n):
                if j == i:
                    continue
                dx, dy = xi - xs[j], yi - ys[j]
                gap = math.hypot(dx, dy) or 1e-9
                pull = row[j] / gap
                w = wrow[j]
                sx += w * (xs[j] + pull * dx)
                sy += w * (ys[j] + pull * dy)
            xs[i], ys[i] = sx / totals[i], sy / totals[i]
    return list(zip(xs, ys, strict=True))


def _mean_ratio(xs: list[float], ys: list[float], steps: list[list[float]]) -> float:
    """The factor that makes the mean drawn distance of the pairs one step apart one unit."""
    drawn = [
        math.hypot(xs[i] - xs[j], ys[i] - ys[j])
        for i in range(len(xs))
        for j in range(i + 1, len(xs))
        if steps[i][j] == 1.0
    ]
    mean = sum(drawn) / len(drawn) if drawn else 0.0
    return 1.0 / mean if mean > 0 else 1.0


def _rescale(points: list[Point], neighbours: Sequence[set[int]]) -> list[Point]:
    """The points scaled so that neighbours are one unit apart on average."""
    drawn = [math.dist(points[i], points[j]) for i, near in enumerate(neighbours) for j in near]
    mean = sum(drawn) / len(drawn) if drawn else 0.0
    if mean <= 0:
        return points
    return [(x / mean, y / mean) for x, y in points]


def spread(points: list[Point], gap: float, rounds: int = 50) -> list[Point]:
    """Push apart every two points closer than ``gap``, each by half of what they lack, until none
    are (or ``rounds`` passes). Points on one spot are parted along a fixed direction of their own."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    n = len(points)
    for _ in range(rounds):
        moved = False
        for i in range(n):
            for j in range(i + 1, n):
                dx, dy = xs[j] - xs[i], ys[j] - ys[i]
                d = math.hypot(dx, dy)
                if d >= gap:
                    continue
                if d < 1e-9:
                    angle = 2.0 * math.pi * ((i * 7 + j * 13) % 36) / 36
                    dx, dy, d = math.cos(angle), math.sin(angle), 1.0
                    push = gap / 2
                else:
                    push = (gap - d) / 2
                ux, uy = dx / d * push, dy / d * push
                xs[i] -= ux
                ys[i] -= uy
                xs[j] += ux
                ys[j] += uy
                moved = True
        if not moved:
            break
    return list(zip(xs, ys, strict=True))
