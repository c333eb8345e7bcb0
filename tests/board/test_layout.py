"""The layout of a graph for a map without drawing positions (``interboard.board.layout``)."""

from __future__ import annotations

import math

from interboard.board.layout import MIN_GAP, lay_out, spread


def grid(n: int) -> tuple[list[str], list[tuple[str, str]]]:
    nodes = [f"{r}-{c}" for r in range(n) for c in range(n)]
    edges = [(f"{r}-{c}", f"{r}-{c + 1}") for r in range(n) for c in range(n - 1)]
    edges += [(f"{r}-{c}", f"{r + 1}-{c}") for r in range(n - 1) for c in range(n)]
    return nodes, edges


def test_a_grid_is_laid_out_as_a_grid() -> None:
    nodes, edges = grid(6)
    points = lay_out(nodes, edges, seed=3)
    near = [math.dist(points[a], points[b]) for a, b in edges]
    assert abs(sum(near) / len(near) - 1.0) < 0.1
    # Opposite corners are the farthest apart, about five steps along each side.
    farthest = max(
        ((a, b) for a in nodes for b in nodes), key=lambda ab: math.dist(points[ab[0]], points[ab[1]])
    )
    assert set(farthest) in ({"0-0", "5-5"}, {"0-5", "5-0"})
    assert 5.0 < math.dist(points["0-0"], points["5-5"]) < 9.0
    gaps = [math.dist(points[a], points[b]) for k, a in enumerate(nodes) for b in nodes[k + 1 :]]
    assert min(gaps) >= MIN_GAP - 1e-9


def test_the_same_graph_and_seed_give_the_same_points() -> None:
    nodes, edges = grid(5)
    assert lay_out(nodes, edges, seed=1) == lay_out(list(nodes), list(edges), seed=1)
    assert lay_out(nodes, edges, seed=1) != lay_out(nodes, edges, seed=2)


def test_small_and_disconnected_graphs() -> None:
    assert lay_out([], []) == {}
    assert lay_out(["A"], []) == {"A": (0.0, 0.0)}
    points = lay_out(["A", "B", "C", "D"], [("A", "B"), ("C", "D")])
    assert math.dist(points["A"], points["B"]) < math.dist(points["A"], points["C"])
    assert len(set(points.values())) == 4


def test_spread_parts_points_on_one_spot() -> None:
    parted = spread([(0.0, 0.0), (0.0, 0.0), (0.0, 0.0), (5.0, 5.0)], 1.0)
    gaps = [math.dist(p, q) for k, p in enumerate(parted) for q in parted[k + 1 :]]
    assert min(gaps) >= 1.0 - 1e-9
    assert parted[3] == (5.0, 5.0)
