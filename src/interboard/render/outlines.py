"""Maps whose spaces are drawn as their own outlines (a world map): seas as the background, each space
its polygon, regions outlined and named, the adjacencies across the sea as dashed lines.

Knows no rule family: the caller gives each space's fill, badge, hover text and data attributes, and
the legend's entries. Every space group keeps the attributes the pages rely on (``data-loc``,
``data-x``, ``data-y``, a ``cell`` path), as :func:`.base.draw_spaces` does for shaded maps.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

from ..board import Board, Space, SpaceKind
from .base import (
    FILL,
    INK,
    SEA_INK,
    Frame,
    LegendItem,
    _static,
    badge,
    board_frames,
    label_lines,
    legend,
    placed_mark,
    scenery,
    wall_path,
)
from .geometry import closest_points, space_shapes
from .routes import Box
from .svg import Attr, Point, el, mix, num, path_points, text_el, title_el, towards

SEA = "#a9cfe8"
COAST = "#2f5f86"
BORDER = "#6d6658"
SEA_LINE = "#1d4f7a"
LABEL_DY = 17.0
"""A space's short name sits this far below its point, under the badge."""


def sea_line_legend() -> LegendItem:
    symbol = el(
        "path",
        {
            "d": "M-11 0L11 0",
            "stroke": SEA_LINE,
            "stroke-width": 2,
            "stroke-dasharray": "5 3",
            "fill": "none",
        },
    )
    return LegendItem(
        symbol,
        "dashed line over the sea: the two places it joins are adjacent",
        "legend-item legend-sea-line",
    )


def _edge_key(p: Point, q: Point) -> tuple[tuple[float, float], tuple[float, float]]:
    a, b = (round(p[0], 1), round(p[1], 1)), (round(q[0], 1), round(q[1], 1))
    return (a, b) if a <= b else (b, a)


def region_outlines(board: Board) -> dict[str, list[tuple[Point, Point]]]:
    """Per region, the edges of its spaces that no other space of the region shares: its coasts and
    its borders with other regions (shared borders use the same points on both sides)."""
    out: dict[str, list[tuple[Point, Point]]] = {}
    for region in board.regions:
        count: dict[tuple[tuple[float, float], tuple[float, float]], int] = {}
        sides: list[tuple[Point, Point]] = []
        for index in region.spaces:
            poly = board.spaces[index].outline
            for k in range(len(poly)):
                p, q = poly[k], poly[(k + 1) % len(poly)]
                count[_edge_key(p, q)] = count.get(_edge_key(p, q), 0) + 1
                sides.append((p, q))
        out[region.id] = [(p, q) for p, q in sides if count[_edge_key(p, q)] == 1]
    return out


def _outline_d(space: Space, ox: float, oy: float) -> str:
    """A space's outline and holes as path data, moved by (ox, oy): the same in every drawing."""
    return "".join(
        path_points([(ox + px, oy + py) for px, py in ring]) for ring in (space.outline, *space.holes)
    )


def _sea_line(frame: Frame, a: int, b: int) -> str:
    """A dashed line across the narrowest stretch of sea between two spaces; on a map that wraps, the
    shorter way round, leaving by one edge of the map and coming back by the other."""
    board = frame.board
    sa, sb = board.spaces[a], board.spaces[b]
    ox, oy = frame.offsets[sa.board]
    width = frame.sizes[sa.board][0]
    outline_a, outline_b = list(sa.outline), list(sb.outline)
    best: tuple[float, Point, Point, float] | None = None
    for shift in (0.0, -width, width) if board.wrap else (0.0,):
        moved = [(x + shift, y) for x, y in outline_b]
        pa, pb = closest_points([outline_a], [moved])
        if best is None or math.dist(pa, pb) < best[0] - 1e-6:
            best = (math.dist(pa, pb), pa, pb, shift)
    assert best is not None
    _, pa, pb, shift = best
    # Each end reaches a little into its own country, towards its point, so it is seen to land there.
    assert sa.at is not None and sb.at is not None
    start = towards(pa, sa.at, 6)
    end = towards(pb, (sb.at[0] + shift, sb.at[1]), 6)
    pieces: list[tuple[Point, Point]] = [(start, end)]
    if shift:
        edge = width if shift > 0 else 0.0
        t = (edge - start[0]) / (end[0] - start[0]) if end[0] != start[0] else 0.5
        cut = (edge, start[1] + t * (end[1] - start[1]))
        pieces = [(start, cut), ((cut[0] - shift, cut[1]), (end[0] - shift, end[1]))]
    style: dict[str, Attr] = {
        "class": "sea-line-path",
        "fill": "none",
        "stroke": SEA_LINE,
        "stroke-width": 2,
        "stroke-dasharray": "5 3",
        "stroke-linecap": "round",
    }
    paths = [
        el(
            "path",
            {**style, "d": path_points([(ox + p[0], oy + p[1]), (ox + q[0], oy + q[1])], closed=False)},
        )
        for p, q in pieces
    ]
    return el(
        "g",
        {"class": "sea-line", "data-a": sa.id, "data-b": sb.id},
        title_el(f"Sea line: {sa.name} and {sb.name} are adjacent"),
        *paths,
    )


NAME_SIZE = 9.0
"""The names' font size where the board sets none."""


def name_lines(space: Space) -> list[str]:
    """What :func:`draw_outlined` writes in a space: its name in players' words where the map
    tool placed it (on two lines when long), else its id."""
    return label_lines(space.id, space.label or space.name) if space.label_at else [space.id]


def name_boxes(board: Board) -> dict[int, Box]:
    """Each space's name as :func:`draw_outlined` writes it, as a box (x0, y0, x1, y1) in its
    printed board's own units (bold letters about 0.62 em wide; one line from 0.75 em above its
    baseline to 0.2 below, two lines about its spot), for a caller's drawings to keep off. Made once
    per board."""

    def make() -> dict[int, Box]:
        size = board.label_size or NAME_SIZE
        out: dict[int, Box] = {}
        for space in board.spaces:
            if space.at is None:
                continue
            lx, ly = space.label_at if space.label_at else (space.at[0], space.at[1] + LABEL_DY)
            lines = name_lines(space)
            half = 0.31 * size * max(len(line) for line in lines)
            top, bottom = (
                (ly - 0.75 * size, ly + 0.2 * size)
                if len(lines) == 1
                else (ly - 1.25 * size, ly + 0.7 * size)
            )
            out[space.index] = (lx - half, top, lx + half, bottom)
        return out

    return _static(board, ("name-boxes",), make)


def draw_outlined(
    frame: Frame,
    fills: Mapping[int, str],
    badges: Mapping[int, str],
    titles: Mapping[int, str],
    data: Mapping[int, Mapping[str, str]],
    items: Sequence[LegendItem],
    marks: Mapping[int, str] | None = None,
) -> tuple[list[str], float]:
    """The parts of an outlined map under the header, and the height of the legend under it."""
    board = frame.board
    out: list[str] = []
    seas: list[str] = []
    out.extend(board_frames(frame, "board-frame sea", SEA))
    ox, oy = frame.offsets[frame.names[0]]
    for sea, (x, y) in board.seas:
        seas.append(
            text_el(
                {
                    "class": "sea-name",
                    "x": ox + x,
                    "y": oy + y,
                    "text-anchor": "middle",
                    "font-size": 13,
                    "font-style": "italic",
                    "letter-spacing": 2,
                    "fill": mix(SEA_INK, SEA, 0.35),
                },
                sea,
            )
        )
    out.append(el("g", {"class": "seas", "pointer-events": "none"}, *seas))
    spaces_out: list[str] = []
    labels_out: list[str] = []
    for space in board.spaces:
        if not space.outline or space.at is None:
            continue
        ox, oy = frame.offsets[space.board]  # each printed board has its place in the drawing
        fill = fills.get(
            space.index, FILL[space.kind] if space.kind is SpaceKind.SEA else FILL[SpaceKind.LAND]
        )
        x, y = ox + space.at[0], oy + space.at[1]
        loc_id = space.id if space.id in board.location_by_id else None
        cell = el(
            "path",
            {
                "class": "cell",
                "d": _static(
                    board.base, ("outline", space.index, ox, oy), functools.partial(_outline_d, space, ox, oy)
                ),
                "fill-rule": "evenodd" if space.holes else None,
                "fill": fill,
                "stroke": BORDER,
                "stroke-width": 0.8,
                "stroke-linejoin": "round",
            },
        )
        attributes: dict[str, str | float | None] = {
            "class": f"space {space.kind.value} outlined",
            "data-loc": loc_id,
            "data-space": space.id,
            "data-x": x,
            "data-y": y,
        }
        attributes.update(data.get(space.index, {}))
        spaces_out.append(el("g", attributes, title_el(titles.get(space.index, space.name)), cell))
        size = board.label_size or NAME_SIZE
        lx, ly = (ox + space.label_at[0], oy + space.label_at[1]) if space.label_at else (x, y + LABEL_DY)
        lines = name_lines(space)
        is_sea = space.kind is SpaceKind.SEA
        label_style: dict[str, Attr] = {
            "class": "label",
            "x": lx,
            "y": ly,
            "text-anchor": "middle",
            "font-size": size,
            "font-weight": "bold",
            "font-style": "italic" if is_sea else None,
            "fill": SEA_INK if is_sea else INK,
            "stroke": mix(fill, "#ffffff", 0.5) if not fill.startswith("url(") else "#ffffff",
            "stroke-width": 2.2,
            "paint-order": "stroke",
        }
        if len(lines) == 1:
            parts = [text_el(label_style, lines[0])]
        else:
            # Two lines, the first above the label's spot and the second below, as the map tool
            # placed their box.
            parts = [
                el(
                    "text",
                    label_style,
                    *(
                        el("tspan", {"x": lx, "dy": -0.5 * size if k == 0 else size}, escape(line))
                        for k, line in enumerate(lines)
                    ),
                )
            ]
        if marks and space.index in marks:
            parts.append(placed_mark(x, y, marks[space.index]))
        elif space.index in badges:
            parts.append(badge(x, y, badges[space.index], data.get(space.index, {}).get("data-colour", fill)))
        labels_out.append(
            el("g", {"class": "space-label", "data-loc": loc_id, "data-space": space.id}, *parts)
        )
    out.extend(spaces_out)
    out.extend(scenery(frame))
    closed = set(board.walls)
    walls = [
        f"M{num(bx + e.p[0])} {num(by + e.p[1])}L{num(bx + e.q[0])} {num(by + e.q[1])}"
        for name in frame.names
        for bx, by in [frame.offsets[name]]
        for e in space_shapes(board.base, name).edges
        if (e.a, e.b) in closed
    ]
    if walls:
        out.append(wall_path(walls))  # a coast the game closes: a sea touches what it is not adjacent to
    regions: list[str] = []
    for region in board.regions:
        sides = region_outlines(board).get(region.id, [])
        if not sides:
            continue
        d = "".join(f"M{num(ox + p[0])} {num(oy + p[1])}L{num(ox + q[0])} {num(oy + q[1])}" for p, q in sides)
        bonus = f" (bonus {region.bonus})" if region.bonus else ""
        parts = [
            title_el(f"{region.name}{bonus}"),
            el(
                "path",
                {
                    "class": "region-outline",
                    "d": d,
                    "fill": "none",
                    "stroke": COAST,
                    "stroke-width": 2,
                    "stroke-linecap": "round",
                },
            ),
        ]
        if region.at is not None:
            parts.append(
                text_el(
                    {
                        "class": "region-name",
                        "x": ox + region.at[0],
                        "y": oy + region.at[1],
                        "text-anchor": "middle",
                        "font-size": 14,
                        "font-weight": "bold",
                        "fill": COAST,
                        "stroke": SEA,
                        "stroke-width": 3,
                        "paint-order": "stroke",
                    },
                    f"{region.name}{bonus}",
                )
            )
        regions.append(
            el("g", {"class": "region", "data-region": region.id, "pointer-events": "none"}, *parts)
        )
    out.extend(regions)
    # A sea line's path is the board's own (its two outlines' nearest points): found once per board.
    offsets = tuple(frame.offsets.items())
    out.append(
        el(
            "g",
            {"class": "sea-lines"},
            *(
                _static(board.base, ("sea-line", a, b, offsets), functools.partial(_sea_line, frame, a, b))
                for a, b in board.sea_lines
            ),
        )
    )
    out.append(el("g", {"class": "labels", "pointer-events": "none"}, *labels_out))
    legend_parts, legend_height = legend(
        frame, [*items, *([sea_line_legend()] if board.sea_lines else [])], frame.height
    )
    out.extend(legend_parts)
    return out, legend_height
