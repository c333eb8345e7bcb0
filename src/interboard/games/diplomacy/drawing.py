"""Diplomacy positions as SVG: centres by owner, units, links and cuts, orders and their results.

With results (the engine's :class:`OrderResult` values of a phase) each order is drawn with its
outcome: a bounced move ends in a bar, a cut support is crossed out, a dislodged unit is ringed in
red, links made this phase are drawn green and destroyed links grey and crossed. ``position`` is
the position the phase started from (as a game record keeps it); links made by the results are
drawn even when they are not yet in ``position.links``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from ...board import Board, SpaceKind, UnitKind
from ...render.base import (
    CENTRE_R,
    FILL,
    INK,
    Frame,
    LegendItem,
    document,
    draw_spaces,
    header,
    legend,
    location_title,
    make_frame,
    passage_legend,
    passage_pairs,
    routed,
)
from ...render.svg import (
    Point,
    arrowhead,
    el,
    mix,
    normal,
    num,
    path_points,
    pt,
    text_colour_on,
    title_el,
    towards,
)
from .links import link_pair
from .orders import (
    Build,
    Convoy,
    DestroyLink,
    Disband,
    Hold,
    Link,
    Move,
    Order,
    ReinforceLink,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    format_order,
    order_loc,
)
from .results import OrderResult, Reason
from .state import Position, Unit

UNOWNED = "#9a9a9a"
LINK = "#a0267a"
LINK_NEW = "#1b9e3e"
LINK_GONE = "#8a8a8a"
CUT = "#d21f1f"
FAIL = "#d21f1f"
UNIT_R = 8.5
TWIN_SHADE = 0.35
"""How much darker a twin power (Austria-Z beside Austria-Y) is drawn."""


def render_position(
    board: Board,
    position: Position,
    *,
    orders: Iterable[tuple[str, Order]] = (),
    results: Sequence[OrderResult] = (),
    title: str | None = None,
) -> str:
    """A Diplomacy position as a standalone SVG document.

    ``board`` is the variant's geography (``variant.board``); links and cuts come from ``position``.
    With ``results`` their orders are drawn with outcome marks, otherwise ``orders`` are drawn plainly.
    """
    frame = make_frame(board.base)
    geo = frame.board
    power_board = _power_boards(geo)
    twins = _twins(geo, power_board)
    colours = {p.id: mix(p.colour, "#000000", TWIN_SHADE) if p.id in twins else p.colour for p in geo.powers}

    def colour(power: str) -> str:
        return colours.get(power, "#777777")

    fills: dict[int, str] = {}
    extra: dict[int, list[str]] = {}
    for space in geo.spaces:
        if not space.centre or space.at is None:
            continue
        owner = position.centres.get(space.index)
        base_fill = FILL[space.kind]
        if owner is not None:
            fills[space.index] = (
                f"url(#{_hatch_id(owner)})" if owner in twins else mix(base_fill, colour(owner), 0.38)
            )
        extra[space.index] = [_centre_marker(frame, space.index, owner, colour(owner) if owner else UNOWNED)]

    parts: list[str] = []
    if twins:
        parts.append(el("defs", {}, *(_hatch(p, colour(p)) for p in sorted(twins))))
    parts.extend(header(frame, title or f"{geo.title}: {position.phase.long_name}", _join_note(geo)))
    parts.extend(draw_spaces(frame, fills, extra))

    drawn_orders: list[tuple[str, Order, OrderResult | None]]
    drawn_orders = [(r.power, r.order, r) for r in results] if results else [(p, o, None) for p, o in orders]

    parts.extend(_fixed_links(frame))
    parts.extend(_cuts_and_links(frame, position, drawn_orders, colours))
    dislodged_at = {
        loc for r in results if r.dislodged_by is not None and (loc := order_loc(r.order)) is not None
    }
    parts.append(
        el(
            "g",
            {"class": "units"},
            *(
                _unit(frame, u, colour(u.power), power_board.get(u.power), dislodged=u.loc in dislodged_at)
                for _, u in sorted(position.units.items())
            ),
            *(
                _unit(frame, d.unit, colour(d.unit.power), power_board.get(d.unit.power), retreating=True)
                for d in position.dislodged
            ),
        )
    )
    parts.append(el("g", {"class": "orders"}, *_orders(frame, position, drawn_orders, colour, power_board)))

    items = _legend_items(frame, position, drawn_orders, colours, twins)
    legend_parts, legend_h = legend(frame, items, frame.height)
    parts.extend(legend_parts)
    return document(
        frame, title or f"{geo.title}: {position.phase.long_name}", parts, frame.height + legend_h
    )


def _power_boards(board: Board) -> dict[str, str]:
    """For powers named after their home board (``FRANCE-Y``), that board: drawn on their units."""
    out = {}
    for p in board.powers:
        for name in board.boards:
            if p.id.endswith(f"-{name}"):
                out[p.id] = name
    return out


def _twins(board: Board, power_board: dict[str, str]) -> set[str]:
    """The powers of every board but the first whose nation also plays on the first (Austria-Z,
    beside Austria-Y): drawn in a darker shade, and their centres hatched, so the two read apart."""
    if len(board.boards) < 2:
        return set()
    first = board.boards[0]
    nations = {p.colour for p in board.powers if power_board.get(p.id) == first}
    return {p.id for p in board.powers if power_board.get(p.id, first) != first and p.colour in nations}


def _hatch_id(power: str) -> str:
    return "hatch-" + re.sub(r"[^A-Za-z0-9_-]", "_", power)


def _hatch(power: str, colour: str) -> str:
    """Diagonal stripes of a power's colour over a light ground: a twin power's centres."""
    return el(
        "pattern",
        {
            "id": _hatch_id(power),
            "patternUnits": "userSpaceOnUse",
            "width": 7,
            "height": 7,
            "patternTransform": "rotate(45)",
        },
        el("rect", {"width": 7, "height": 7, "fill": mix(FILL[SpaceKind.LAND], colour, 0.25)}),
        el("rect", {"width": 3, "height": 7, "fill": mix(FILL[SpaceKind.LAND], colour, 0.7)}),
    )


def _join_note(board: Board) -> str | None:
    """A line saying that every space is joined to its twin, when the geography does that."""
    if not _joined_to_twins(board):
        return None
    return "Every space is also adjacent to the same space on the other board."


@cache  # per geography (boards compare by identity): it walks every adjacency
def _joined_to_twins(board: Board) -> bool:
    """Whether every space is adjacent to the same space on each other board (Twin Earths I): those
    joins are said once in a note, not drawn. A few twins joined by a variant file's fixed links
    (one Channel on two boards) are drawn as links."""
    if len(board.boards) < 2:
        return False
    by_name: dict[str, list[int]] = {}
    for space in board.spaces:
        by_name.setdefault(space.name, []).append(space.index)
    neighbours: dict[int, set[int]] = {}
    for loc in board.locations:
        near = neighbours.setdefault(loc.space, set())
        for other in board.army_adj[loc.index] | board.fleet_adj[loc.index]:
            near.add(board.locations[other].space)
    return all(
        twin in neighbours.get(space, set())
        for same in by_name.values()
        for space in same
        for twin in same
        if twin != space and board.spaces[space].kind is not SpaceKind.IMPASSABLE
    )


def _centre_marker(frame: Frame, space: int, owner: str | None, colour: str) -> str:
    x, y = frame.space_point(space)
    return el(
        "g",
        {"class": "centre", "data-owner": owner or "", "data-colour": colour},
        el(
            "circle",
            {
                "class": "centre-ring",
                "cx": x,
                "cy": y,
                "r": CENTRE_R,
                "fill": "none",
                "stroke": colour,
                "stroke-width": 3.5 if owner else 2,
            },
        ),
        el(
            "circle",
            {
                "class": "centre-dot",
                "cx": x,
                "cy": y,
                "r": 3.2,
                "fill": colour,
                "stroke": "#ffffff",
                "stroke-width": 1,
            },
        ),
    )


def unit_symbol(kind: UnitKind, x: float, y: float, colour: str, letter: str | None = None) -> str:
    """An army (a disc) or a fleet (a hull with a sail) centred on (x, y), filled with ``colour``."""
    ink = text_colour_on(colour)
    if kind is UnitKind.ARMY:
        shape = el(
            "circle",
            {
                "class": "army-shape",
                "cx": x,
                "cy": y,
                "r": UNIT_R,
                "fill": colour,
                "stroke": "#1a1a1a",
                "stroke-width": 1.3,
            },
        )
        ty = y + 3.5
    else:
        hull = [(x - 11, y), (x + 11, y), (x + 7, y + 7), (x - 7, y + 7)]
        sail = [(x - 1, y - 1), (x - 1, y - 11), (x + 8, y - 1)]
        shape = el(
            "path",
            {
                "class": "fleet-shape",
                "d": path_points(hull) + path_points(sail),
                "fill": colour,
                "stroke": "#1a1a1a",
                "stroke-width": 1.3,
                "stroke-linejoin": "round",
            },
        )
        ty = y + 6.2
    if not letter:
        return shape
    return shape + el(
        "text",
        {
            "x": x,
            "y": ty,
            "text-anchor": "middle",
            "font-size": 8 if kind is UnitKind.ARMY else 7,
            "font-weight": "bold",
            "fill": ink,
        },
        letter,
    )


def _unit(
    frame: Frame,
    unit: Unit,
    colour: str,
    letter: str | None,
    dislodged: bool = False,
    retreating: bool = False,
) -> str:
    x, y = frame.loc_point(unit.loc)
    if retreating:
        x, y = x + 12, y - 12
    css = f"unit {unit.kind.noun}" + (" dislodged" if dislodged or retreating else "")
    loc_id = frame.board.locations[unit.loc].id
    parts = [title_el(f"{unit.power.title()} {unit.kind.noun} in {location_title(frame, unit.loc)}")]
    if dislodged or retreating:
        parts.append(
            el(
                "circle",
                {
                    "class": "dislodged-mark",
                    "cx": x,
                    "cy": y + (1 if unit.kind is UnitKind.FLEET else 0),
                    "r": 13,
                    "fill": "#ffffff",
                    "fill-opacity": 0.6,
                    "stroke": FAIL,
                    "stroke-width": 2.2,
                    "stroke-dasharray": "4 2" if retreating else None,
                },
            )
        )
    parts.append(unit_symbol(unit.kind, x, y, colour, letter))
    return el(
        "g",
        {
            "class": css,
            "data-loc": loc_id,
            "data-power": unit.power,
            "data-kind": unit.kind.value,
            "data-colour": colour,
            "data-x": x,
            "data-y": y,
        },
        *parts,
    )


# ---------------------------------------------------------------- links and cuts


def _curve(frame: Frame, p: Point, q: Point, bend: float) -> tuple[str, Point, Point]:
    """A cubic curve from p to q bowed to the left by ``bend`` times its length; returns the path data
    and the curve's direction at each end (as a point just inside the curve)."""
    d = math.dist(p, q)
    nx, ny = normal(p, q)
    h = bend * d
    c1 = (p[0] + (q[0] - p[0]) / 3 + nx * h, p[1] + (q[1] - p[1]) / 3 + ny * h)
    c2 = (p[0] + 2 * (q[0] - p[0]) / 3 + nx * h, p[1] + 2 * (q[1] - p[1]) / 3 + ny * h)
    data = f"M{pt(p)}C{pt(c1)} {pt(c2)} {pt(q)}"
    return data, c1, c2


def _curve_mid(p: Point, c1: Point, c2: Point, q: Point) -> Point:
    return (
        (p[0] + 3 * c1[0] + 3 * c2[0] + q[0]) / 8,
        (p[1] + 3 * c1[1] + 3 * c2[1] + q[1]) / 8,
    )


def _link_path(frame: Frame, a: int, b: int) -> tuple[str, Point, Point, Point, Point]:
    """Path data of a link from ``a`` to ``b`` and its four control points: a curve routed around
    the names and unit spots of the spaces it passes (:mod:`interboard.render.routes`).

    A link between boards leaves and enters its ends horizontally, so it crosses the gap between
    the boards as a smooth S, swinging up or down on its way; a link on one board bows to either
    side or swings as an S. The route of a pair of places is worked out once per board.
    """
    pa, pb = frame.loc_point(a), frame.loc_point(b)
    sa = frame.board.spaces[frame.board.locations[a].space]
    sb = frame.board.spaces[frame.board.locations[b].space]
    across = sa.board != sb.board
    if across and pa[0] > pb[0]:
        pa, pb = pb, pa
    c1, c2 = routed(frame, pa, pb, (sa.index, sb.index), across)
    return f"M{pt(pa)}C{pt(c1)} {pt(c2)} {pt(pb)}", pa, c1, c2, pb


def _link(frame: Frame, a: int, b: int, css: str, colour: str, tip: str, tag: str, maker: str = "") -> str:
    """A link drawn as a line between its ends, and as ``tag`` at each end: a page shows one or
    the other (a dozen lines across two boards tangle; numbered ends stay legible)."""
    data, pa, c1, c2, pb = _link_path(frame, a, b)
    locs = frame.board.locations
    dashed = "destroyed" in css.split()
    parts = [
        title_el(tip),
        el(
            "path",
            {
                "class": "link-casing",
                "d": data,
                "fill": "none",
                "stroke": "#ffffff",
                "stroke-width": 6.5,
                "stroke-opacity": 0.85,
                "stroke-linecap": "round",
            },
        ),
        el(
            "path",
            {
                "class": "link-line",
                "d": data,
                "fill": "none",
                "stroke": colour,
                "stroke-width": 3.6 if "new" in css.split() else 3,
                "stroke-dasharray": "7 5" if dashed else None,
                "stroke-linecap": "round",
            },
        ),
        el(
            "circle",
            {
                "class": "link-end",
                "cx": pa[0],
                "cy": pa[1],
                "r": 4,
                "fill": colour,
                "stroke": "#ffffff",
                "stroke-width": 1.2,
            },
        ),
        el(
            "circle",
            {
                "class": "link-end",
                "cx": pb[0],
                "cy": pb[1],
                "r": 4,
                "fill": colour,
                "stroke": "#ffffff",
                "stroke-width": 1.2,
            },
        ),
    ]
    if dashed:
        parts.append(_cross(_curve_mid(pa, c1, c2, pb), 7, FAIL, "destroyed-mark"))
    parts.append(
        el(
            "g",
            {"class": "link-tags", "display": "none"},
            _link_tag(pa, tag, colour, dashed),
            _link_tag(pb, tag, colour, dashed),
        )
    )
    attributes = {"class": css, "data-a": locs[a].id, "data-b": locs[b].id, "data-tag": tag}
    return el("g", {**attributes, "data-maker": maker or None}, *parts)


def _link_tag(at: Point, tag: str, colour: str, dashed: bool) -> str:
    """A link's end as a tag: its number in the link's colour, beside the end's point."""
    x, y = at[0] + 9, at[1] - 9
    width = 8 + 6 * len(tag)
    return el(
        "g",
        {"class": "link-tag"},
        el("path", {"d": f"M{pt(at)}L{pt((x, y))}", "stroke": colour, "stroke-width": 2}),
        el(
            "rect",
            {
                "x": x - width / 2,
                "y": y - 7,
                "width": width,
                "height": 14,
                "rx": 7,
                "fill": "#ffffff" if dashed else colour,
                "stroke": colour,
                "stroke-width": 1.5,
                "stroke-dasharray": "3 2" if dashed else None,
            },
        ),
        _small_label(x, y, tag, colour if dashed else text_colour_on(colour)),
    )


def _small_label(x: float, y: float, text: str, fill: str) -> str:
    """Bold small text centred on (x, y): the number on a badge or a link's tag."""
    attrs: dict[str, str | float | int | None] = {
        "x": x,
        "y": y + 3.5,
        "text-anchor": "middle",
        "font-size": 10,
        "font-weight": "bold",
        "fill": fill,
    }
    return el("text", attrs, text)


def _cross(at: Point, r: float, colour: str, css: str) -> str:
    x, y = at
    d = f"M{pt((x - r, y - r))}L{pt((x + r, y + r))}M{pt((x - r, y + r))}L{pt((x + r, y - r))}"
    return el(
        "path",
        {
            "class": css,
            "d": d,
            "stroke": colour,
            "stroke-width": 3,
            "stroke-linecap": "round",
            "fill": "none",
        },
    )


def _fixed_links(frame: Frame) -> list[str]:
    """Printed adjacencies between boards (drawn as links), but for the joins of every space to its
    twin, which the title's note says."""
    geo = frame.board
    twins_said = _joined_to_twins(geo)
    seen: set[tuple[int, int]] = set()
    out = []
    for loc in geo.locations:
        for other in sorted(geo.army_adj[loc.index] | geo.fleet_adj[loc.index]):
            a, b = geo.spaces[loc.space], geo.spaces[geo.locations[other].space]
            if a.board == b.board or (twins_said and a.name == b.name):
                continue
            pair = (min(a.index, b.index), max(a.index, b.index))
            if pair in seen:
                continue
            seen.add(pair)
            x, y = geo.location_by_id[a.id], geo.location_by_id[b.id]
            tip = f"Fixed link: {frame.place(a)} - {frame.place(b)}"
            out.append(_link(frame, x, y, "link fixed", LINK, tip, f"F{len(seen)}"))
    return out


def _cuts_and_links(
    frame: Frame,
    position: Position,
    drawn: Sequence[tuple[str, Order, OrderResult | None]],
    colours: dict[str, str],
) -> list[str]:
    geo = frame.board
    made: list[tuple[int, int]] = []
    destroyed: set[tuple[int, int]] = set()
    new_cuts: set[tuple[int, int]] = set()
    restored: set[tuple[int, int]] = set()
    existing = set(position.links)
    for _, order, result in drawn:
        if result is None or not result.succeeded:
            continue
        if isinstance(order, Link):
            pair = link_pair(geo, order.a, order.b)
            spaces = _space_pair(geo, *pair)
            if spaces in position.cuts:
                restored.add(spaces)
            elif pair not in made:
                made.append(pair)
        elif isinstance(order, DestroyLink):
            pair = link_pair(geo, order.a, order.b)
            spaces = _space_pair(geo, *pair)
            match = next((p for p in existing if p == pair or _space_pair(geo, *p) == spaces), None)
            if match is not None:
                destroyed.add(match)
            else:
                new_cuts.add(spaces)
    out: list[str] = []
    cuts = sorted(position.cuts | new_cuts)
    for a, b in cuts:
        state = "restored" if (a, b) in restored else "new" if (a, b) in new_cuts else None
        out.append(_cut(frame, a, b, state))
    links = list(position.links) + [p for p in made if p not in existing]
    names = {p.id: p.name for p in geo.powers}
    for k, (a, b) in enumerate(links):
        where = f"{location_title(frame, a)} - {location_title(frame, b)}"
        tag = str(k + 1)
        maker = position.link_maker(k)
        by = f", made by {names.get(maker, maker)}" if maker else ""
        if (a, b) in destroyed:
            tip = f"Link {tag} destroyed this phase: {where}{by}"
            out.append(_link(frame, a, b, "link destroyed", LINK_GONE, tip, tag, maker))
        elif (a, b) in made:
            tip = f"Link {tag} made this phase: {where}"
            out.append(_link(frame, a, b, "link new", LINK_NEW, tip, tag))
        else:
            colour = colours.get(maker, LINK)
            out.append(_link(frame, a, b, "link", colour, f"Link {tag}: {where}{by}", tag, maker))
    return out


def _space_pair(board: Board, a: int, b: int) -> tuple[int, int]:
    x, y = board.locations[a].space, board.locations[b].space
    return (x, y) if x <= y else (y, x)


def _cut(frame: Frame, a: int, b: int, state: str | None) -> str:
    """A cut adjacency: a red bar across the border of the two spaces (on the bisector of their points)."""
    geo = frame.board
    pa, pb = frame.space_point(a), frame.space_point(b)
    mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
    nx, ny = normal(pa, pb)
    r = 13.0
    bar = [(mid[0] - nx * r, mid[1] - ny * r), (mid[0] + nx * r, mid[1] + ny * r)]
    dots = path_points([towards(mid, pa, 9), towards(mid, pb, 9)], closed=False)
    sa, sb = geo.spaces[a], geo.spaces[b]
    css = "cut" + (f" {state}" if state else "")
    what = {"new": "Adjacency cut this phase", "restored": "Cut adjacency restored this phase"}.get(
        state or "", "Adjacency cut"
    )
    return el(
        "g",
        {"class": css, "data-a": sa.id, "data-b": sb.id},
        title_el(f"{what}: {frame.place(sa)} - {frame.place(sb)}"),
        el(
            "path",
            {
                "class": "cut-bar",
                "d": path_points(bar, closed=False),
                "stroke": "#ffffff",
                "stroke-width": 7.5,
                "stroke-linecap": "round",
            },
        ),
        el(
            "path",
            {
                "class": "cut-bar",
                "d": path_points(bar, closed=False),
                "stroke": LINK_NEW if state == "restored" else CUT,
                "stroke-width": 4.5,
                "stroke-linecap": "round",
                "stroke-dasharray": "4 2.5" if state == "restored" else None,
            },
        ),
        el("path", {"class": "cut-gap", "d": dots, "stroke": CUT, "stroke-width": 1.5, "fill": "none"}),
    )


# ---------------------------------------------------------------- orders


def _orders(
    frame: Frame,
    position: Position,
    drawn: Sequence[tuple[str, Order, OrderResult | None]],
    colour: Callable[[str], str],
    power_board: dict[str, str],
) -> list[str]:
    geo = frame.board
    out: list[str] = []
    unit_kind: dict[int, UnitKind] = {u.loc: u.kind for u in position.units.values()}
    for d in position.dislodged:
        unit_kind[d.unit.loc] = d.unit.kind
    retreat_from = {d.unit.loc for d in position.dislodged}
    for power, order, result in drawn:
        c = colour(power)
        status = _status(result)
        if isinstance(order, Waive | Link | DestroyLink | ReinforceLink):
            if result is None or not result.succeeded:
                out.extend(_link_order(frame, power, order, c, status))
            continue
        if result is not None and result.reason is Reason.NOT_ORDERED and isinstance(order, Hold):
            continue
        loc = order.loc
        src = frame.loc_point(loc)
        if loc in retreat_from and isinstance(order, Retreat | Disband):
            src = (src[0] + 12, src[1] - 12)
        css = f"order {type(order).__name__.lower()}" + (f" {status}" if status else "")
        attrs: dict[str, str | float | None] = {
            "class": css,
            "data-loc": geo.locations[loc].id,
            "data-power": power,
        }
        tip = _tip(frame, power, order, result)
        body: list[str] = [title_el(tip)]
        match order:
            case Hold():
                body.append(
                    el(
                        "circle",
                        {
                            "class": "order-line",
                            "cx": src[0],
                            "cy": src[1],
                            "r": 14,
                            "fill": "none",
                            "stroke": c,
                            "stroke-width": 3,
                        },
                    )
                )
                body.append(
                    el(
                        "circle",
                        {
                            "cx": src[0],
                            "cy": src[1],
                            "r": 14,
                            "fill": "none",
                            "stroke": INK,
                            "stroke-width": 0.8,
                        },
                    )
                )
            case Move(dest=dest) | Retreat(dest=dest):
                attrs["data-dest"] = geo.locations[dest].id
                body.extend(_arrow(src, frame.loc_point(dest), c, status, dashed=isinstance(order, Retreat)))
            case SupportHold(target=target):
                attrs["data-target"] = geo.locations[target].id
                tgt = frame.loc_point(target)
                end = towards(tgt, src, 14)
                body.append(_line([towards(src, tgt, 11), end], c, "5 3", status))
                body.append(
                    el(
                        "circle",
                        {
                            "cx": tgt[0],
                            "cy": tgt[1],
                            "r": 14,
                            "fill": "none",
                            "stroke": c,
                            "stroke-width": 2,
                            "stroke-dasharray": "5 3",
                        },
                    )
                )
                body.extend(_fail_mark(_midpoint(src, tgt), status))
            case SupportMove(origin=origin, dest=dest):
                attrs["data-origin"] = geo.locations[origin].id
                attrs["data-dest"] = geo.locations[dest].id
                body.extend(_support_move(src, frame.loc_point(origin), frame.loc_point(dest), c, status))
            case Convoy(origin=origin, dest=dest):
                attrs["data-origin"] = geo.locations[origin].id
                attrs["data-dest"] = geo.locations[dest].id
                o, t = frame.loc_point(origin), frame.loc_point(dest)
                body.append(_line([towards(src, o, 12), towards(o, src, 12)], c, "1.5 3", status, width=2.6))
                body.append(_line([towards(src, t, 12), towards(t, src, 12)], c, "1.5 3", status, width=2.6))
                body.extend(_fail_mark(src, status))
            case Disband() | Remove():
                body.append(_cross(src, 10, FAIL, "remove-mark"))
            case Build(unit=kind):
                body.append(
                    el(
                        "circle",
                        {
                            "cx": src[0],
                            "cy": src[1],
                            "r": 14,
                            "fill": "#ffffff",
                            "fill-opacity": 0.7,
                            "stroke": c,
                            "stroke-width": 2,
                            "stroke-dasharray": "3 2",
                        },
                    )
                )
                body.append(
                    el(
                        "g",
                        {"class": "built", "opacity": 0.45 if status else 0.9},
                        unit_symbol(kind, src[0], src[1], c, power_board.get(power)),
                    )
                )
                body.append(_badge(src[0] + 11, src[1] - 11, "+", c))
                if status:
                    body.append(_cross(src, 10, FAIL, "fail-mark"))
        out.append(el("g", attrs, *body))
    return out


def _status(result: OrderResult | None) -> str | None:
    """The outcome class of an order: None (succeeded or no result), or why it failed."""
    if result is None or (result.succeeded and result.reason is None):
        return None
    if result.reason is None:
        return "failed"
    return "failed " + result.reason.value.replace(" ", "-")


def _tip(frame: Frame, power: str, order: Order, result: OrderResult | None) -> str:
    text = f"{power.title()}: {format_order(frame.board, order)}"
    if result is None:
        return text
    if result.succeeded and result.reason is None:
        return text + " (succeeds)"
    why = result.reason.value if result.reason else "fails"
    if result.message:
        why += f": {result.message}"
    return f"{text} ({why})"


def _midpoint(p: Point, q: Point) -> Point:
    return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)


def _line(points: list[Point], colour: str, dash: str | None, status: str | None, width: float = 2.2) -> str:
    return el(
        "path",
        {
            "class": "order-line",
            "d": path_points(points, closed=False),
            "fill": "none",
            "stroke": colour,
            "stroke-width": width,
            "stroke-dasharray": dash,
            "stroke-linecap": "round",
            "stroke-opacity": 0.55 if status else None,
        },
    )


def _arrow(src: Point, dst: Point, colour: str, status: str | None, dashed: bool = False) -> list[str]:
    """A move: a slightly bowed arrow from the unit to the destination, with a bar when it bounced."""
    start = towards(src, dst, 10)
    tip = towards(dst, src, 11)
    d = math.dist(start, tip)
    nx, ny = normal(start, tip)
    bow = min(0.12 * d, 30.0)
    ctrl = ((start[0] + tip[0]) / 2 + nx * bow, (start[1] + tip[1]) / 2 + ny * bow)
    data = f"M{num(start[0])} {num(start[1])}Q{num(ctrl[0])} {num(ctrl[1])} {num(tip[0])} {num(tip[1])}"
    faded = status is not None
    head = arrowhead(tip, ctrl, 11)
    out = [
        el(
            "path",
            {
                "class": "order-casing",
                "d": data,
                "fill": "none",
                "stroke": "#1a1a1a",
                "stroke-width": 5.2,
                "stroke-opacity": 0.5 if faded else 0.8,
                "stroke-linecap": "round",
            },
        ),
        el(
            "path",
            {
                "class": "order-line",
                "d": data,
                "fill": "none",
                "stroke": colour,
                "stroke-width": 3.2,
                "stroke-dasharray": "6 3" if dashed else None,
                "stroke-linecap": "round",
                "stroke-opacity": 0.6 if faded else None,
            },
        ),
        el(
            "path",
            {
                "class": "order-head",
                "d": path_points(head),
                "fill": colour,
                "stroke": "#1a1a1a",
                "stroke-width": 1,
                "fill-opacity": 0.6 if faded else None,
            },
        ),
    ]
    if status and ("bounced" in status or "failed" in status):
        # A bar across the arrow just before its head: it went no further.
        stop = towards(tip, ctrl, 13)
        bx, by = normal(ctrl, tip)
        bar = [(stop[0] - bx * 9, stop[1] - by * 9), (stop[0] + bx * 9, stop[1] + by * 9)]
        out.append(
            el(
                "path",
                {
                    "class": "bounce-mark" if "bounced" in status else "fail-mark",
                    "d": path_points(bar, closed=False),
                    "stroke": FAIL,
                    "stroke-width": 4,
                    "stroke-linecap": "round",
                },
            )
        )
    return out


def _support_move(src: Point, origin: Point, dest: Point, colour: str, status: str | None) -> list[str]:
    """A support of a move: a dashed curve from the supporter, past the supported unit, to its target."""
    start = towards(src, origin, 11)
    end = towards(dest, origin, 13)
    ctrl = origin
    data = f"M{num(start[0])} {num(start[1])}Q{num(ctrl[0])} {num(ctrl[1])} {num(end[0])} {num(end[1])}"
    out = [
        el(
            "path",
            {
                "class": "order-line",
                "d": data,
                "fill": "none",
                "stroke": colour,
                "stroke-width": 2.2,
                "stroke-dasharray": "5 3",
                "stroke-opacity": 0.55 if status else None,
            },
        ),
        el(
            "circle",
            {"cx": end[0], "cy": end[1], "r": 3, "fill": colour, "stroke": "#1a1a1a", "stroke-width": 0.8},
        ),
    ]
    mid = (
        (start[0] + 2 * ctrl[0] + end[0]) / 4,
        (start[1] + 2 * ctrl[1] + end[1]) / 4,
    )
    out.extend(_fail_mark(mid, status))
    return out


def _fail_mark(at: Point, status: str | None) -> list[str]:
    if not status:
        return []
    css = "cut-mark" if "cut" in status.split() else "fail-mark"
    return [_cross(at, 6, FAIL, css)]


def _badge(x: float, y: float, text: str, colour: str) -> str:
    return el(
        "g",
        {"class": "badge"},
        el("circle", {"cx": x, "cy": y, "r": 6, "fill": colour, "stroke": "#ffffff", "stroke-width": 1}),
        _small_label(x, y, text, text_colour_on(colour)),
    )


def _link_order(frame: Frame, power: str, order: Order, colour: str, status: str | None) -> list[str]:
    """A link order without a result, or one that failed: a thin dashed curve between its ends."""
    if not isinstance(order, Link | DestroyLink | ReinforceLink):
        return []
    geo = frame.board
    kind = {Link: "link", DestroyLink: "destroy", ReinforceLink: "reinforce"}[type(order)]
    pa, pb = frame.loc_point(order.a), frame.loc_point(order.b)
    if pa[0] > pb[0]:
        pa, pb = pb, pa
    data, c1, c2 = _curve(frame, pa, pb, -0.1)
    css = f"order link-order {kind}" + (f" {status}" if status else "")
    parts = [
        title_el(_tip(frame, power, order, None) + (f" ({status.replace('failed ', '')})" if status else "")),
        el(
            "path",
            {
                "class": "order-line",
                "d": data,
                "fill": "none",
                "stroke": colour,
                "stroke-width": 2.4,
                "stroke-dasharray": "2 4",
                "stroke-linecap": "round",
                "stroke-opacity": 0.6 if status else None,
            },
        ),
    ]
    mid = _curve_mid(pa, c1, c2, pb)
    if isinstance(order, DestroyLink):
        parts.append(_cross(mid, 6, colour, "destroy-mark"))
    elif isinstance(order, ReinforceLink):
        parts.append(_badge(mid[0], mid[1], "+", colour))
    if status:
        parts.append(_cross(mid, 6, FAIL, "fail-mark"))
    return [
        el(
            "g",
            {
                "class": css,
                "data-a": geo.locations[order.a].id,
                "data-b": geo.locations[order.b].id,
                "data-power": power,
            },
            *parts,
        )
    ]


# ---------------------------------------------------------------- legend


def _legend_items(
    frame: Frame,
    position: Position,
    drawn: Sequence[tuple[str, Order, OrderResult | None]],
    colours: dict[str, str],
    twins: set[str],
) -> list[LegendItem]:
    geo = frame.board
    items: list[LegendItem] = []
    seen: dict[str, list[str]] = {}
    hatched: dict[str, str] = {}
    for p in geo.powers:
        seen.setdefault(colours[p.id], []).append(p.name)
        if p.id in twins:
            hatched[colours[p.id]] = p.id
    for colour, names in seen.items():
        swatch = f"url(#{_hatch_id(hatched[colour])})" if colour in hatched else colour
        items.append(
            LegendItem(
                el(
                    "circle",
                    {"cx": 0, "cy": 0, "r": 7, "fill": swatch, "stroke": colour, "stroke-width": 2},
                ),
                " / ".join(names) + (" (darker; its centres hatched)" if colour in hatched else ""),
                "legend-item power",
            )
        )
    items.append(LegendItem(unit_symbol(UnitKind.ARMY, 0, 0, "#ffffff"), "army"))
    boards = sorted(set(_power_boards(geo).values()))
    if boards:
        letter = boards[-1]
        items.append(
            LegendItem(
                unit_symbol(UnitKind.ARMY, 0, 0, "#ffffff", letter),
                f"letter: the owner's home board ({letter}: a {letter} power's unit, wherever it stands)",
            )
        )
    items.append(LegendItem(unit_symbol(UnitKind.FLEET, 0, -1, "#ffffff"), "fleet"))
    items.append(
        LegendItem(
            el("circle", {"cx": 0, "cy": 0, "r": 7, "fill": "none", "stroke": UNOWNED, "stroke-width": 2.5})
            + el("circle", {"cx": 0, "cy": 0, "r": 2.5, "fill": UNOWNED}),
            "supply centre (ring in the owner's colour)",
        )
    )
    if passage_pairs(frame):
        items.append(passage_legend())
    has_links = bool(position.links) or any(isinstance(o, Link | DestroyLink) for _, o, _ in drawn)
    if has_links or _fixed_links(frame):
        makers = "in its maker's colour; " if position.link_makers else ""
        items.append(
            LegendItem(_legend_line(LINK, None), f"link ({makers}hover or pick a place to follow its links)")
        )
    if any(isinstance(o, Link) and r is not None and r.succeeded for _, o, r in drawn):
        items.append(LegendItem(_legend_line(LINK_NEW, None), "link made this phase"))
    if any(isinstance(o, DestroyLink) and r is not None and r.succeeded for _, o, r in drawn):
        items.append(LegendItem(_legend_line(LINK_GONE, "7 5"), "link destroyed this phase"))
    new_cuts = any(
        isinstance(o, DestroyLink)
        and r is not None
        and r.succeeded
        and link_pair(geo, o.a, o.b) not in position.links
        for _, o, r in drawn
    )
    if position.cuts or new_cuts:
        items.append(
            LegendItem(
                el("path", {"d": "M0 -8L0 8", "stroke": CUT, "stroke-width": 4.5, "stroke-linecap": "round"}),
                "adjacency cut",
            )
        )
    if any(r is not None and r.reason is Reason.BOUNCED for _, _, r in drawn):
        items.append(
            LegendItem(
                el("path", {"d": "M-8 0L4 0M4 -6L4 6", "stroke": FAIL, "stroke-width": 3}),
                "bounced",
            )
        )
    if any(r is not None and r.dislodged_by is not None for _, _, r in drawn) or position.dislodged:
        items.append(
            LegendItem(
                el("circle", {"cx": 0, "cy": 0, "r": 8, "fill": "none", "stroke": FAIL, "stroke-width": 2.2}),
                "dislodged",
            )
        )
    return items


def _legend_line(colour: str, dash: str | None) -> str:
    return el(
        "path",
        {
            "d": "M-9 3C-4 -5 4 -5 9 3",
            "stroke": colour,
            "stroke-width": 3,
            "fill": "none",
            "stroke-dasharray": dash,
        },
    )
