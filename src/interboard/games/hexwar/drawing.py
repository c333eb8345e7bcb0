"""A hex wargame position drawn as SVG, one map under another: each hex by terrain (a clickable
``g.space`` with its id in ``data-loc``), rivers on their hexsides, place names, who holds each town
and city, the links between the maps (the Channel crossing) and the storms of the turn. Each stack
is a counter (``g.unit``) in its side's colour showing the top unit's values and the stack's size;
its title lists every unit with its values and steps. The supply overlay rings a stack in defence
supply in orange and one out of supply in red; air units show as a small mark in the hex's corner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...board.hexes import corners
from ...render.svg import SVG_NS, Attr, el, path_points, text_el, title_el
from . import supply
from .gamedata import GameData
from .interface import hex_words, unit_words
from .state import Unit, World

SIZE = 9.0
"""Centre to corner of a drawn hex."""
GAP = 30.0
TERRAIN_FILL = {
    "clear": "#eef0d8",
    "flood_plain": "#cfe3c0",
    "forest": "#9cc48a",
    "rough": "#d6c49c",
    "mountain": "#b59a7a",
    "sea": "#a9cde8",
    "neutral": "#d8d8d8",
}
SUPPLY_RING = {supply.DEFENCE: "#e08a00", supply.OUT: "#d0202a"}
"""Supply overlay: the ring colour of a stack in defence supply or out of supply."""
LEGEND_ROW = 14.0


def _legend(data: GameData, width: float, top: float) -> tuple[list[str], float]:
    """Every mark of the map explained, in rows under it; returns the parts and the drawing's new
    height."""
    items: list[tuple[str, str]] = []  # (a symbol drawn around 0, 0; its text)
    for terrain, fill in TERRAIN_FILL.items():
        items.append(
            (
                el("path", {"d": path_points(corners(0, 0, 4.5)), "fill": fill, "stroke": "#999"}),
                terrain.replace("_", " "),
            )
        )
    for side in data.sides:
        box: dict[str, Attr] = {
            "x": -5,
            "y": -3.5,
            "width": 10,
            "height": 7,
            "fill": side.colour,
            "stroke": "#000",
            "stroke-width": 0.4,
        }
        items.append(
            (
                el("rect", box),
                f"a stack of {side.name or side.id}: its strongest counter's values, ×N counters",
            )
        )
    for state, colour in SUPPLY_RING.items():
        box = {
            "x": -5,
            "y": -3.5,
            "width": 10,
            "height": 7,
            "fill": "#888",
            "stroke": colour,
            "stroke-width": 1.2,
        }
        items.append(
            (el("rect", box), "in defence supply only" if state == supply.DEFENCE else "out of supply")
        )
    items.append((el("circle", {"r": 2.2, "fill": "#888", "stroke": "#fff"}), "air units in the hex"))
    items.append(
        (
            el("circle", {"r": 3.2, "fill": "none", "stroke": "#555", "stroke-width": 1.2}),
            "a city, ringed in its holder's colour",
        )
    )
    items.append(
        (el("path", {"d": "M-6 0L6 0", "stroke": "#3b7dc4", "stroke-width": 1.6}), "a river hexside")
    )
    items.append(
        (
            el("path", {"d": "M-6 0L6 0", "stroke": "#7a3fb0", "stroke-dasharray": "4 3"}),
            "a link between the maps",
        )
    )
    items.append((text_el({"x": 0, "y": 3, "font-size": 7, "text-anchor": "middle"}, "⛈"), "a storm"))
    out: list[str] = []
    x, y = 14.0, top + 4
    for symbol, text in items:
        need = 18 + 3.3 * len(text)
        if x + need > width and x > 14:
            x, y = 14.0, y + LEGEND_ROW
        out.append(
            el(
                "g",
                {"class": "legend-item", "transform": f"translate({x:.1f} {y:.1f})"},
                symbol,
                text_el({"x": 9, "y": 2.5, "font-size": 6.5, "fill": "#2b2b2b"}, text),
            )
        )
        x += need + 8
    return out, y + LEGEND_ROW


def _world(data: GameData, position: Mapping[str, Any]) -> World | None:
    """The position as a world (the public view has no generator: a blank one is enough to draw)."""
    if "units" not in position or "tunnel" not in position:
        return None
    return World.from_json({"seed": 0, "rng": 0, **position, "game": data.id})


def draw_position(data: GameData, position: Mapping[str, Any], title: str) -> str:
    geo = data.geography
    parts: list[str] = []
    top = 40.0
    centres: dict[str, tuple[float, float]] = {}
    width = 0.0
    for m in geo.maps:
        grid = m.grid
        height = 0.0
        for hid, entry in m.hexes.items():
            col, row = grid.parse(hid)
            x, y = grid.centre(col, row, SIZE)
            y += top
            centres[hid] = (x, y)
            width = max(width, x + SIZE)
            height = max(height, y + SIZE)
            cell = el(
                "path",
                {
                    "class": "cell",
                    "d": path_points(corners(x, y, SIZE)),
                    "fill": TERRAIN_FILL.get(entry["terrain"], "#eeeeee"),
                    "stroke": "#ffffff",
                    "stroke-width": 0.4,
                },
            )
            terrain = entry["terrain"].replace("_", " ")
            # The hex as players name it (the page reads its first words): "Liège (W4907), forest".
            label = title_el(
                f"{entry['name']} ({hid}), {terrain}" if entry.get("name") else f"{hid}, {terrain}"
            )
            parts.append(el("g", {"class": "space", "data-loc": hid}, cell, label))
        for a, b in m.rivers:
            (xa, ya), (xb, yb) = centres[a], centres[b]
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            dx, dy = (yb - ya) / 2, -(xb - xa) / 2  # the hexside runs across the line of centres
            scale = SIZE * 0.5 / max((dx * dx + dy * dy) ** 0.5, 1e-6)
            ends = [(mx - dx * scale, my - dy * scale), (mx + dx * scale, my + dy * scale)]
            parts.append(
                el("path", {"d": path_points(ends, False), "stroke": "#3b7dc4", "stroke-width": 1.6})
            )
        parts.append(text_el({"x": 4, "y": top - 6, "font-size": 11, "font-weight": "bold"}, m.title))
        top = height + GAP
    side_colour = {s.id: s.colour for s in data.sides}
    for hid, holder in position.get("control", {}).items():
        if hid in centres and holder in side_colour:
            x, y = centres[hid]
            ring: dict[str, Attr] = {
                "cx": x,
                "cy": y,
                "r": 3.2,
                "fill": "none",
                "stroke": side_colour[holder],
                "stroke-width": 1.2,
            }
            parts.append(el("circle", ring))
    for hid in position.get("extra", {}).get("storms", []):
        if hid in centres:
            x, y = centres[hid]
            parts.append(text_el({"x": x, "y": y - 2, "font-size": 7, "text-anchor": "middle"}, "⛈"))
    for h in geo.by_id.values():
        if h.get("name") and "(" not in str(h.get("name")):
            x, y = centres[h.id]
            attrs: dict[str, Attr] = {"x": x, "y": y - SIZE * 0.45, "font-size": 4.5, "text-anchor": "middle"}
            parts.append(text_el(attrs, str(h.get("name"))))
    for link in geo.links:
        if link.a in centres and link.b in centres:
            (xa, ya), (xb, yb) = centres[link.a], centres[link.b]
            line: dict[str, Attr] = {
                "d": path_points([(xa, ya), (xb, yb)], False),
                "stroke": "#7a3fb0",
                "stroke-width": 1,
                "stroke-dasharray": "4 3",
                "fill": "none",
            }
            parts.append(el("path", line, title_el(f"link {link.id}: {link.a} - {link.b}")))
    parts.extend(_counters(data, position, centres, side_colour))
    header = text_el({"x": 4, "y": 14, "font-size": 12, "font-weight": "bold"}, title)
    w = width + 10
    drawn, tall = _legend(data, w, top)
    parts.extend(drawn)
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 {w:.0f} {tall:.0f}" width="{w:.0f}" height="{tall:.0f}">'
        + el("rect", {"x": 0, "y": 0, "width": f"{w:.0f}", "height": f"{tall:.0f}", "fill": "#ffffff"})
        + header
        + "".join(parts)
        + "</svg>"
    )


SUPPLY_WORDS = {
    supply.ATTACK: "in attack supply",
    supply.DEFENCE: "in defence supply only",
    supply.OUT: "out of supply",
}


def _counter_words(world: World, unit: Unit, states: Mapping[str, str]) -> str:
    """A counter on hover: what it is, its supply, and whether it has moved (or attacked) this phase."""
    supplied = SUPPLY_WORDS.get(states.get(unit.id, supply.ATTACK), "")
    done = "has moved or attacked this phase" if unit.id in world.moved else "may still act this phase"
    return f"{unit_words(world, unit)}: {supplied}; {done}"


def _counters(
    data: GameData,
    position: Mapping[str, Any],
    centres: dict[str, tuple[float, float]],
    colours: dict[str, str],
) -> list[str]:
    world = _world(data, position)
    if world is None:
        return []
    states = supply.unit_states(world)
    geo = data.geography
    out: list[str] = []
    for cell, units in sorted(world.occupancy().items(), key=lambda kv: geo.hexes[kv[0]].id):
        hid = geo.hexes[cell].id
        x, y = centres[hid]
        ground = [u for u in units if u.kind not in supply.NOT_GROUND]
        flying = [u for u in units if u.kind in supply.NOT_GROUND]
        title = title_el(
            "\n".join(
                [
                    hex_words(world, hid),
                    *(_counter_words(world, u, states) for u in sorted(units, key=lambda u: u.id)),
                ]
            )
        )
        if ground:
            side = world.side_of(ground[0])
            top = max(ground, key=lambda u: (u.factors()[0] + u.factors()[1], u.id))
            a, d, m = top.factors()
            worst = min((states.get(u.id, supply.ATTACK) for u in ground), key=lambda s: supply.RANK[s])
            ring = SUPPLY_RING.get(worst)
            box: dict[str, Attr] = {
                "class": "counter",
                "x": x - 5,
                "y": y - 3.5,
                "width": 10,
                "height": 8,
                "fill": colours.get(side, "#888"),
                "stroke": ring or "#000",
                "stroke-width": 1.2 if ring else 0.4,
            }
            values: dict[str, Attr] = {
                "x": x,
                "y": y + 0.6,
                "font-size": 3.6,
                "fill": "#ffffff",
                "text-anchor": "middle",
            }
            size: dict[str, Attr] = {
                "x": x,
                "y": y + 4,
                "font-size": 3,
                "fill": "#ffffff",
                "text-anchor": "middle",
            }
            out.append(
                el(
                    "g",
                    {"class": "unit", "data-loc": hid, "data-side": side, "data-supply": worst},
                    el("rect", box),
                    text_el(values, f"{a}-{d}-{m}" if top.kind != "hq" else "HQ"),
                    text_el(size, f"×{len(ground)}" if len(ground) > 1 else ""),
                    title,
                )
            )
        if flying:
            side = world.side_of(flying[0])
            mark: dict[str, Attr] = {
                "cx": x + 5,
                "cy": y - 5,
                "r": 2.2,
                "fill": colours.get(side, "#888"),
                "stroke": "#fff",
            }
            out.append(
                el("g", {"class": "air", "data-loc": hid}, el("circle", mark), title if not ground else "")
            )
    return out
