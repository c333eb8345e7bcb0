"""The parts every map drawing shares: where each printed board goes, the shaded spaces, their labels,
the legend and the SVG frame around it all.

All coordinates written to the SVG are global drawing coordinates (no transforms), so a page can
read a location's point from its group (``data-x``, ``data-y``) and match it with units and arrows.
"""

from __future__ import annotations

import functools
import math
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..board import Board, Space, SpaceKind
from .geometry import closest_points, coast_lines, space_shapes
from .routes import Box, Obstacles, route
from .svg import (
    SVG_NS,
    Attr,
    Point,
    el,
    mix,
    num,
    path_points,
    pt,
    text_colour_on,
    text_el,
    title_el,
    towards,
)

MARGIN = 12.0
HEADER = 46.0
"""Height of the band above the boards: the title and each board's name."""
GAP = 70.0
"""Space between boards drawn side by side, where the links between them cross."""
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

FILL = {
    SpaceKind.LAND: "#efe4c6",
    SpaceKind.COAST: "#e4d5a9",
    SpaceKind.SEA: "#b9d7ee",
    SpaceKind.IMPASSABLE: "#b8b4ac",
}
INK = "#2b2b2b"
SEA_INK = "#1d4f7a"
COASTLINE = "#4d7ea8"
WALL = "#5a4630"
LABEL_DY = 21.0
"""Labels sit this far below a space's point; the unit and the centre ring sit on the point."""
CENTRE_R = 11.5
PASSAGE_BELOW = 8.0
"""Adjacent spaces whose cells share less border than this are joined by a drawn passage."""


@dataclass(frozen=True)
class Frame:
    """Where the printed boards of a geography are placed in the drawing."""

    board: Board
    names: tuple[str, ...]
    """Printed boards, left to right."""
    offsets: dict[str, Point]
    sizes: dict[str, Point]
    """Drawing size of each printed board."""
    width: float
    height: float
    """Height of the map part (header and boards), without the legend."""

    @property
    def joined(self) -> bool:
        return len(self.names) > 1

    def space_point(self, space: int) -> Point:
        sp = self.board.spaces[space]
        return self._shift(sp.board, sp.at)

    def loc_point(self, loc: int) -> Point:
        location = self.board.locations[loc]
        sp = self.board.spaces[location.space]
        return self._shift(sp.board, location.at if location.at is not None else sp.at)

    def _shift(self, name: str, at: Point | None) -> Point:
        if at is None:
            raise ValueError(f"map {self.board.id!r}: a space of board {name!r} has no drawing position")
        ox, oy = self.offsets[name]
        return (ox + at[0], oy + at[1])

    def short_id(self, space: Space) -> str:
        """``MUN`` for ``MUN-Y``: the board is shown by where the label is drawn."""
        suffix = f"-{space.board}"
        return space.id[: -len(suffix)] if self.joined and space.id.endswith(suffix) else space.id

    def place(self, space: Space) -> str:
        return f"{space.name} (board {space.board})" if self.joined else space.name


def make_frame(board: Board) -> Frame:
    if board.size is None:
        raise ValueError(
            f'map {board.id!r} has no drawing: add "drawing" and each space\'s "at" to its map data'
        )
    names = board.boards or tuple(dict.fromkeys(sp.board for sp in board.spaces))
    sizes = {name: board.size_of(name) or board.size for name in names}
    offsets: dict[str, Point] = {}
    x = MARGIN
    for name in names:
        offsets[name] = (x, HEADER)
        x += sizes[name][0] + GAP
    width = x - GAP + MARGIN
    height = max(h for _, h in sizes.values())
    return Frame(board, names, offsets, sizes, width, HEADER + height + MARGIN)


def location_title(frame: Frame, loc: int) -> str:
    location = frame.board.locations[loc]
    space = frame.board.spaces[location.space]
    if location.coast is None:
        return frame.place(space)
    coast = {"NC": "north", "SC": "south", "EC": "east", "WC": "west"}.get(location.coast)
    what = f"{coast} coast" if coast else f"coast {location.coast}"
    return f"{frame.place(space)}, {what}"


def draw_spaces(
    frame: Frame,
    fills: Mapping[int, str],
    extra: Mapping[int, Sequence[str]] | None = None,
    titles: Mapping[int, str] | None = None,
) -> list[str]:
    """One group per space (``data-loc``, its cells and ``<title>``: ``titles`` or the place's
    name), the borders, one group per split coast, then the labels over everything (a label may
    reach into a neighbour's cell).

    ``extra`` adds drawn parts (a centre ring, a badge) to a space's label group. The labels take no
    pointer events, so that a page's clicks reach the space underneath.
    """
    board = frame.board
    out = board_frames(frame, "board-frame", FILL[SpaceKind.SEA])
    spaces_out: list[str] = []
    coasts_out: list[str] = []
    labels_out: list[str] = []
    for name in frame.names:
        ox, oy = frame.offsets[name]
        for space in board.spaces:
            if space.board != name or space.at is None:
                continue
            fill = fills.get(space.index, FILL[space.kind])
            cells = [
                el(
                    "path",
                    {
                        "class": "cell",
                        "d": d,
                        "fill-rule": "evenodd" if space.holes else None,
                        "fill": fill,
                        "stroke": "#8c8574" if space.kind is not SpaceKind.SEA else "#8fb3d0",
                        "stroke-width": 0.6,
                    },
                )
                for d in cell_paths(board, name, space.index, (ox, oy))
            ]
            x, y = frame.space_point(space.index)
            lx, ly = (ox + space.label_at[0], oy + space.label_at[1]) if space.label_at else (x, y + LABEL_DY)
            is_sea = space.kind is SpaceKind.SEA
            label = text_el(
                {
                    "class": "label",
                    "x": lx,
                    "y": ly,
                    "text-anchor": "middle",
                    "font-size": board.label_size or 10,
                    "font-weight": "bold",
                    "font-style": "italic" if is_sea else None,
                    "fill": SEA_INK if is_sea else INK,
                    "stroke": mix(fill, "#ffffff", 0.4),
                    "stroke-width": 2.5,
                    "paint-order": "stroke",
                },
                frame.short_id(space),
            )
            kind_class = f"space {space.kind.value}" + (" centre-space" if space.centre else "")
            loc_id = (
                board.locations[board.location_by_id[space.id]].id
                if space.id in board.location_by_id
                else None
            )
            spaces_out.append(
                el(
                    "g",
                    {
                        "class": kind_class,
                        "data-loc": loc_id,
                        "data-space": space.id,
                        "data-board": name,
                        "data-x": x,
                        "data-y": y,
                    },
                    title_el((titles or {}).get(space.index) or frame.place(space)),
                    *cells,
                )
            )
            labels_out.append(
                el(
                    "g",
                    {"class": "space-label", "data-loc": loc_id, "data-space": space.id},
                    label,
                    *(extra or {}).get(space.index, ()),
                )
            )
            for loc in space.coasts:
                coasts_out.append(_coast_group(frame, loc))
    out.extend(spaces_out)
    out.extend(scenery(frame))  # islands lie on the seas around them
    out.extend(_borders(frame))
    out.extend(coasts_out)
    out.append(el("g", {"class": "labels", "pointer-events": "none"}, *labels_out))
    return out


SPOT_HALF = 9.0
"""Half the side of the square a route keeps off around each place's point (its unit, its centre)."""


def written_parts(frame: Frame, names: Mapping[int, Box] | None = None) -> Obstacles:
    """What a drawing writes on the map, as boxes a line across the map should keep off: each
    space's name, with room for a line's white casing, and each place's point, where its unit and
    centre stand. ``names`` gives each name's box in its printed board's own units (an outlined
    map's names, :func:`outlines.name_boxes`); by default the names are the short ids that
    :func:`draw_spaces` writes."""

    def make() -> Obstacles:
        board = frame.board
        size = board.label_size or 10
        pad = 3.5
        boxes: list[tuple[Box, int]] = []
        for space in board.spaces:
            if space.at is None or space.board not in frame.offsets:
                continue
            ox, oy = frame.offsets[space.board]
            if names is not None:
                if space.index in names:
                    x0, y0, x1, y1 = names[space.index]
                    boxes.append(((ox + x0 - pad, oy + y0 - pad, ox + x1 + pad, oy + y1 + pad), space.index))
                continue
            x, y = frame.space_point(space.index)
            lx, ly = (ox + space.label_at[0], oy + space.label_at[1]) if space.label_at else (x, y + LABEL_DY)
            half = 0.36 * size * len(frame.short_id(space))  # bold capitals are about 0.72 em wide
            boxes.append(
                (
                    (lx - half - pad, ly - 0.75 * size - pad, lx + half + pad, ly + 0.15 * size + pad),
                    space.index,
                )
            )
        for loc in board.locations:
            if board.spaces[loc.space].at is None or board.spaces[loc.space].board not in frame.offsets:
                continue
            x, y = frame.loc_point(loc.index)
            boxes.append(((x - SPOT_HALF, y - SPOT_HALF, x + SPOT_HALF, y + SPOT_HALF), loc.space))
        # A route stays on the printed boards and the gaps between them, off the titles above.
        x0 = min(ox for ox, _ in frame.offsets.values())
        y0 = min(oy for _, oy in frame.offsets.values())
        x1 = max(frame.offsets[n][0] + frame.sizes[n][0] for n in frame.names)
        y1 = max(frame.offsets[n][1] + frame.sizes[n][1] for n in frame.names)
        return Obstacles.of(boxes, (x0, y0, x1, y1))

    return _static(frame.board, ("written", tuple(frame.offsets.items()), names is None), make)


def routed(
    frame: Frame,
    p: Point,
    q: Point,
    spared: tuple[int, ...],
    across: bool,
    names: Mapping[int, Box] | None = None,
) -> tuple[Point, Point]:
    """The inner control points of a curve from ``p`` to ``q`` that keeps off the names and unit
    spots of the spaces it passes, but for the ``spared`` spaces' own (:func:`routes.route`);
    ``across``: it joins boards drawn side by side, leaving and entering its ends horizontally;
    ``names``: as for :func:`written_parts`. Worked out once per board and pair of points."""
    return _static(
        frame.board,
        ("route", tuple(frame.offsets.items()), names is None, p, q),
        lambda: route(written_parts(frame, names), p, q, spared, leave=(1.0, 0.0) if across else None),
    )


def _coast_group(frame: Frame, loc: int) -> str:
    location = frame.board.locations[loc]
    x, y = frame.loc_point(loc)
    sx, sy = frame.space_point(location.space)
    # The coast code sits on the side away from the province's own point.
    dx, dy = x - sx, y - sy
    d = math.hypot(dx, dy) or 1.0
    tx, ty = x + 13 * dx / d, y + 13 * dy / d + 3
    return el(
        "g",
        {"class": "coast-loc", "data-loc": location.id, "data-x": x, "data-y": y},
        title_el(location_title(frame, loc)),
        el(
            "path",
            {
                "class": "coast-link",
                "d": path_points([(sx, sy), (x, y)], closed=False),
                "stroke": "#9c8a5c",
                "stroke-width": 1,
                "stroke-dasharray": "2 2",
                "fill": "none",
            },
        ),
        el(
            "circle",
            {
                "class": "coast-dot",
                "cx": x,
                "cy": y,
                "r": 4.5,
                "fill": "#ffffff",
                "stroke": "#6b5a2e",
                "stroke-width": 1.2,
            },
        ),
        text_el(
            {
                "class": "coast-label",
                "x": tx,
                "y": ty,
                "text-anchor": "middle",
                "font-size": 8,
                "font-weight": "bold",
                "fill": "#6b5a2e",
            },
            location.coast or "",
        ),
    )


def label_lines(ident: str, name: str) -> list[str]:
    """What a board writes in a space, in players' words: a short id as it is (``BUL``, as orders
    write it), else the space's name, on two lines when it is long (``Netherlands`` /
    ``& Belgium``: split at the space or hyphen nearest its middle)."""
    if len(ident) <= 3:
        return [ident]
    text = name.replace("-", " & ") if "-" in name and " " not in name else name
    if len(text) <= 11:
        return [text]
    breaks = [k for k, ch in enumerate(text) if ch == " "]
    if not breaks:
        return [text]
    k = min(breaks, key=lambda k: abs(k - len(text) / 2))
    return [text[:k], text[k + 1 :]]


SCENERY = "#ddd8c8"
T = TypeVar("T")

_STATIC: weakref.WeakKeyDictionary[Board, dict[tuple[object, ...], object]] = weakref.WeakKeyDictionary()


def _static(board: Board, key: tuple[object, ...], make: Callable[[], T]) -> T:
    """A part of a board's drawing that no position changes (cached per board: a map of real
    coastlines has thousands of points, and every drawing of the board writes them)."""
    per_board = _STATIC.setdefault(board.base, {})
    if key not in per_board:
        per_board[key] = make()
    return per_board[key]  # type: ignore[return-value]


def _coast_paths(board: Board, printed: str, size: Point, offset: Point) -> list[str]:
    ox, oy = offset
    return [
        path_points([(ox + x, oy + y) for x, y in line], closed=False)
        for line in coast_lines(board, printed, size)
    ]


def cell_paths(board: Board, printed: str, space: int, offset: Point) -> list[str]:
    """The path data of a space's cells on one printed board, moved by ``offset``."""

    def make() -> dict[int, list[str]]:
        ox, oy = offset
        paths = {
            index: [path_points([(ox + x, oy + y) for x, y in poly]) for poly in polys]
            for index, polys in space_shapes(board.base, printed).polygons.items()
        }
        for sp in board.base.spaces:
            if sp.holes and sp.board == printed:
                # A sea's islands are holes in its one path (drawn even-odd: a click there is the island's).
                paths[sp.index] = [
                    paths[sp.index][0]
                    + "".join(path_points([(ox + x, oy + y) for x, y in hole]) for hole in sp.holes)
                ]
        return paths

    return _static(board, ("cells", printed, offset), make).get(space, [])


def scenery(frame: Frame) -> list[str]:
    """Land that is no space (islands, land beyond the board's edge), drawn for the eye only: a
    click on an island reaches the sea it lies in."""

    def make() -> list[str]:
        return [
            path_points([(frame.offsets[name][0] + x, frame.offsets[name][1] + y) for x, y in polygon])
            for name, polygon in frame.board.base.scenery
            if name in frame.offsets
        ]

    parts = _static(frame.board, ("scenery", tuple(frame.offsets.items())), make)
    if not parts:
        return []
    return [
        el(
            "path",
            {
                "class": "scenery",
                "d": "".join(parts),
                "fill": SCENERY,
                "stroke": COASTLINE,
                "stroke-width": 0.8,
                "pointer-events": "none",
            },
        )
    ]


def board_frames(frame: Frame, css: str, fill: str) -> list[str]:
    """Each printed board's background rectangle (``data-board`` names it), filled as the sea."""
    out = []
    for name in frame.names:
        (ox, oy), (bw, bh) = frame.offsets[name], frame.sizes[name]
        attrs: dict[str, Attr] = {
            "class": css,
            "data-board": name,
            "x": ox,
            "y": oy,
            "width": bw,
            "height": bh,
        }
        out.append(el("rect", {**attrs, "fill": fill, "stroke": "#555555", "stroke-width": 1.5}))
    return out


def adjacent_spaces(board: Board) -> set[tuple[int, int]]:
    """Every pair of adjacent spaces (by any location), sorted."""
    out: set[tuple[int, int]] = set()
    for loc in board.locations:
        for other in board.army_adj[loc.index] | board.fleet_adj[loc.index]:
            a, b = loc.space, board.locations[other].space
            out.add((min(a, b), max(a, b)))
    return out


def passage_pairs(frame: Frame) -> list[tuple[int, int]]:
    """Adjacent spaces of one board whose cells share too little border to see: a dashed passage
    joins them on the map (and a legend should say what it means)."""
    board = frame.board.base
    if any(sp.outline for sp in board.spaces):
        # The map's loader checked its outlines: what does not touch is joined by a sea line.
        return list(board.sea_lines)
    adjacent = adjacent_spaces(board)
    out: list[tuple[int, int]] = []
    for name in frame.names:
        shared: dict[tuple[int, int], float] = {}
        for e in space_shapes(board, name).edges:
            shared[(e.a, e.b)] = shared.get((e.a, e.b), 0.0) + math.dist(e.p, e.q)
        for a, b in sorted(adjacent):
            sa, sb = board.spaces[a], board.spaces[b]
            if sa.board == name == sb.board and sa.at and sb.at and shared.get((a, b), 0.0) < PASSAGE_BELOW:
                out.append((a, b))
    return out


def passage_legend() -> LegendItem:
    """The legend's entry for :func:`passage_pairs`' dashed passages."""
    line = el(
        "path",
        {"d": "M-9 0L9 0", "stroke": SEA_INK, "stroke-width": 1.8, "stroke-dasharray": "5 3", "fill": "none"},
    )
    dots = el("circle", {"cx": -9, "cy": 0, "r": 2.5, "fill": SEA_INK}) + el(
        "circle", {"cx": 9, "cy": 0, "r": 2.5, "fill": SEA_INK}
    )
    return LegendItem(line + dots, "passage: its two ends are adjacent")


def _borders(frame: Frame) -> list[str]:
    """Coastlines (land against sea), walls (cells that touch without being adjacent) and passages
    (adjacent spaces whose cells do not share a visible border, such as a strait between two seas)."""
    board = frame.board.base
    adjacent = adjacent_spaces(board)
    coast: list[str] = []
    walls: list[str] = []
    passages = [_passage(frame, a, b) for a, b in passage_pairs(frame)]
    for name in frame.names:
        ox, oy = frame.offsets[name]
        shapes = space_shapes(board, name)
        if any(sp.outline for sp in board.spaces if sp.board == name):
            coast.extend(
                _static(
                    board,
                    ("coasts", name, (ox, oy)),
                    functools.partial(_coast_paths, board, name, frame.sizes[name], (ox, oy)),
                )
            )
            # Outlines touch where spaces are adjacent (the loader checks it): a wall is only where
            # the map lists one, not a corner where two spaces meet at a point.
            closed = set(board.walls)
            walls.extend(
                f"M{num(ox + e.p[0])} {num(oy + e.p[1])}L{num(ox + e.q[0])} {num(oy + e.q[1])}"
                for e in shapes.edges
                if (e.a, e.b) in closed
            )
            continue
        for e in shapes.edges:
            ka, kb = board.spaces[e.a].kind, board.spaces[e.b].kind
            if SpaceKind.IMPASSABLE in (ka, kb):
                continue
            seg = f"M{num(ox + e.p[0])} {num(oy + e.p[1])}L{num(ox + e.q[0])} {num(oy + e.q[1])}"
            if (e.a, e.b) not in adjacent:
                walls.append(seg)
            elif (ka is SpaceKind.SEA) != (kb is SpaceKind.SEA):
                coast.append(seg)
    out: list[str] = []
    if coast:
        out.append(
            el(
                "path",
                {
                    "class": "coastline",
                    "d": "".join(coast),
                    "fill": "none",
                    "stroke": COASTLINE,
                    "stroke-width": 1.6,
                    "stroke-linecap": "round",
                },
            )
        )
    if walls:
        out.append(wall_path(walls))
    out.extend(passages)
    return out


def wall_path(segments: Sequence[str]) -> str:
    """Borders that may not be crossed, drawn thick (path data ``M x y L x y`` each)."""
    return el(
        "path",
        {
            "class": "wall",
            "d": "".join(segments),
            "fill": "none",
            "stroke": WALL,
            "stroke-width": 2.6,
            "stroke-linecap": "round",
        },
    )


def cross_board_links(frame: Frame, names: Mapping[int, Box] | None = None) -> list[str]:
    """Adjacencies between spaces of different printed boards (cards laid between boards, joined
    games): a dashed curve across the gap, routed around the names it passes (``names``: as for
    :func:`written_parts`), when the two boards are drawn side by side; otherwise (a link that wraps
    round the world) a stub from each end to the outer edge of its board, naming the far end."""
    board = frame.board.base
    order = {name: k for k, name in enumerate(frame.names)}
    pairs: set[tuple[int, int]] = set()
    for loc in board.locations:
        for other in board.army_adj[loc.index] | board.fleet_adj[loc.index]:
            a, b = loc.space, board.locations[other].space
            if board.spaces[a].board != board.spaces[b].board:
                pairs.add((min(a, b), max(a, b)))
    out: list[str] = []
    for a, b in sorted(pairs):
        sa, sb = board.spaces[a], board.spaces[b]
        if sa.at is None or sb.at is None:
            continue
        if order[sa.board] > order[sb.board]:
            sa, sb = sb, sa
        pa, pb = frame.space_point(sa.index), frame.space_point(sb.index)
        style: dict[str, Attr] = {
            "fill": "none",
            "stroke": SEA_INK,
            "stroke-width": 1.8,
            "stroke-dasharray": "5 3",
        }
        if order[sb.board] - order[sa.board] == 1:
            c1, c2 = routed(frame, pa, pb, (sa.index, sb.index), True, names)
            data = f"M{pt(pa)}C{pt(c1)} {pt(c2)} {pt(pb)}"
            line = el("path", {"class": "link-line", "d": data, **style})
            out.append(
                el(
                    "g",
                    {"class": "link", "data-a": sa.id, "data-b": sb.id},
                    title_el(f"Adjacent: {frame.place(sa)} - {frame.place(sb)}"),
                    line,
                )
            )
            continue
        # The left end leaves by its board's left edge, the right end by its board's right edge.
        left_edge = frame.offsets[sa.board][0]
        right_edge = frame.offsets[sb.board][0] + frame.sizes[sb.board][0]
        for p, edge, far, anchor, dx in (
            (pa, left_edge, sb, "start", 3),
            (pb, right_edge, sa, "end", -3),
        ):
            out.append(
                el(
                    "g",
                    {"class": "link wrap", "data-a": sa.id, "data-b": sb.id},
                    title_el(f"Adjacent: {frame.place(sa)} - {frame.place(sb)} (round the world)"),
                    el(
                        "path",
                        {"class": "link-line", "d": path_points([p, (edge, p[1])], closed=False), **style},
                    ),
                    text_el(
                        {
                            "x": edge + dx,
                            "y": p[1] - 4,
                            "text-anchor": anchor,
                            "font-size": 10,
                            "fill": SEA_INK,
                        },
                        f"to {far.name}",
                    ),
                )
            )
    return out


def _passage(frame: Frame, a: int, b: int) -> str:
    """A dashed bridge across the narrowest gap between two adjacent spaces whose cells do not meet
    (a strait), reaching a little into each cell."""
    sa, sb = frame.board.spaces[a], frame.board.spaces[b]
    shapes = space_shapes(frame.board, sa.board)
    ox, oy = frame.offsets[sa.board]
    pa, pb = frame.space_point(a), frame.space_point(b)
    cells_a, cells_b = shapes.polygons.get(a, []), shapes.polygons.get(b, [])
    if cells_a and cells_b:
        qa, qb = closest_points(cells_a, cells_b)
        # Each end goes 10 units into its own cell, towards the space's point.
        start = towards((ox + qa[0], oy + qa[1]), pa, 10)
        end = towards((ox + qb[0], oy + qb[1]), pb, 10)
    else:
        start, end = towards(pa, pb, CENTRE_R + 4), towards(pb, pa, CENTRE_R + 4)
    return el(
        "g",
        {"class": "passage", "data-a": sa.id, "data-b": sb.id},
        title_el(f"Adjacent: {frame.place(sa)} - {frame.place(sb)}"),
        el(
            "path",
            {
                "class": "passage-line",
                "d": path_points([start, end], closed=False),
                "fill": "none",
                "stroke": SEA_INK,
                "stroke-width": 1.8,
                "stroke-dasharray": "5 3",
                "stroke-linecap": "round",
            },
        ),
        el("circle", {"cx": start[0], "cy": start[1], "r": 2.5, "fill": SEA_INK}),
        el("circle", {"cx": end[0], "cy": end[1], "r": 2.5, "fill": SEA_INK}),
    )


def header(frame: Frame, title: str, note: str | None = None) -> list[str]:
    out = [
        text_el(
            {"class": "title", "x": MARGIN, "y": 20, "font-size": 16, "font-weight": "bold", "fill": INK},
            title,
        )
    ]
    if frame.joined:
        for name in frame.names:
            ox, oy = frame.offsets[name]
            out.append(
                text_el(
                    {
                        "class": "board-label",
                        "data-board": name,
                        "x": ox + frame.sizes[name][0] / 2,
                        "y": oy - 7,
                        "text-anchor": "middle",
                        "font-size": 14,
                        "font-weight": "bold",
                        "fill": INK,
                    },
                    f"Board {name}",
                )
            )
    if note:
        out.append(
            text_el(
                {
                    "class": "note",
                    "x": frame.width - MARGIN,
                    "y": 20,
                    "text-anchor": "end",
                    "font-size": 11,
                    "fill": "#444444",
                },
                note,
            )
        )
    return out


@dataclass(frozen=True)
class LegendItem:
    """One entry of the legend: a small drawing (centred on 0, 0) and its text."""

    symbol: str
    text: str
    css: str = "legend-item"


def legend(frame: Frame, items: Sequence[LegendItem], top: float) -> tuple[list[str], float]:
    """The legend as flowing rows under the map; returns its parts and the height it takes."""
    if not items:
        return [], 0.0
    out: list[str] = []
    x, y = MARGIN + 10, top + 16
    row_h = 22.0
    for item in items:
        w = 26 + 6.2 * len(item.text)
        if x + w > frame.width - MARGIN and x > MARGIN + 10:
            x, y = MARGIN + 10, y + row_h
        out.append(
            el(
                "g",
                {"class": item.css},
                f'<g transform="translate({num(x)},{num(y)})">{item.symbol}</g>',
                text_el({"x": x + 14, "y": y + 4, "font-size": 11, "fill": INK}, item.text),
            )
        )
        x += w + 14
    return [el("g", {"class": "legend"}, *out)], y + row_h - top


def document(frame: Frame, title: str, parts: Iterable[str], height: float) -> str:
    """The complete standalone SVG."""
    body = "".join(parts)
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 {num(frame.width)} {num(height)}" '
        f'width="{num(frame.width)}" height="{num(height)}" class="interboard-map" '
        f'font-family="{FONT}">'
        f"{title_el(title)}"
        + el(
            "rect",
            {
                "class": "background",
                "x": 0,
                "y": 0,
                "width": frame.width,
                "height": height,
                "fill": "#ffffff",
            },
        )
        + body
        + "</svg>\n"
    )


def placed_mark(x: float, y: float, mark: str) -> str:
    """A caller's drawing (centred on 0, 0) put on a space's point."""
    return f'<g class="mark" transform="translate({num(x)},{num(y)})">{mark}</g>'


def badge(x: float, y: float, text: str, colour: str) -> str:
    """A rounded badge on a point (an army count), in ``colour`` with legible text."""
    width = 10 + 6.5 * len(text)
    return el(
        "g",
        {"class": "badge"},
        el(
            "rect",
            {
                "x": x - width / 2,
                "y": y - 9,
                "width": width,
                "height": 17,
                "rx": 8.5,
                "fill": colour,
                "stroke": "#1a1a1a",
                "stroke-width": 1.2,
            },
        ),
        el(
            "text",
            {
                "x": x,
                "y": y + 4,
                "text-anchor": "middle",
                "font-size": 11,
                "font-weight": "bold",
                "fill": text_colour_on(colour),
            },
            text,
        ),
    )
