"""A hex wargame position drawn as SVG: each map's hexes by terrain, rivers on their hexsides, place
names, each side's control of towns and cities, and a counter per occupied hex showing the stack's
side and size. The maps are drawn one under another, joined by their links."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...board.hexes import corners
from ...render.svg import SVG_NS, el, path_points, text_el, title_el
from .gamedata import GameData

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
            fill = TERRAIN_FILL.get(entry["terrain"], "#eeeeee")
            parts.append(
                el(
                    "path",
                    {
                        "d": path_points(corners(x, y, SIZE)),
                        "fill": fill,
                        "stroke": "#ffffff",
                        "stroke-width": 0.4,
                    },
                    title_el(f"{hid} {entry.get('name', '')} {entry['terrain']}".strip()),
                )
            )
        for a, b in m.rivers:
            (xa, ya), (xb, yb) = centres[a], centres[b]
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            dx, dy = (yb - ya) / 2, -(xb - xa) / 2  # the hexside runs across the line of centres
            scale = SIZE * 0.5 / max((dx * dx + dy * dy) ** 0.5, 1e-6)
            parts.append(
                el(
                    "path",
                    {
                        "d": path_points(
                            [(mx - dx * scale, my - dy * scale), (mx + dx * scale, my + dy * scale)], False
                        ),
                        "stroke": "#3b7dc4",
                        "stroke-width": 1.6,
                    },
                )
            )
        parts.append(text_el({"x": 4, "y": top - 6, "font-size": 11, "font-weight": "bold"}, m.title))
        top = height + GAP
    side_colour = {s.id: s.colour for s in data.sides}
    for hid, holder in position.get("control", {}).items():
        if hid in centres and holder in side_colour:
            x, y = centres[hid]
            parts.append(
                el(
                    "circle",
                    {
                        "cx": x,
                        "cy": y,
                        "r": 3.2,
                        "fill": "none",
                        "stroke": side_colour[holder],
                        "stroke-width": 1.2,
                    },
                )
            )
    for h in geo.by_id.values():
        if h.get("name") and "(" not in str(h.get("name")):
            x, y = centres[h.id]
            parts.append(
                text_el(
                    {"x": x, "y": y - SIZE * 0.45, "font-size": 4.5, "text-anchor": "middle"},
                    str(h.get("name")),
                )
            )
    stacks: dict[str, list[str]] = {}
    for uid, u in position.get("units", {}).items():
        if u.get("where") == "map" and u.get("hex") in centres:
            stacks.setdefault(u["hex"], []).append(uid)
    for hid, uids in sorted(stacks.items()):
        x, y = centres[hid]
        nation = uids[0].split("-")[0]
        side = data.side_of(nation)
        parts.append(
            el(
                "rect",
                {
                    "x": x - 4.5,
                    "y": y - 3,
                    "width": 9,
                    "height": 7,
                    "fill": side_colour.get(side, "#888"),
                    "stroke": "#000",
                    "stroke-width": 0.4,
                },
                title_el(f"{hid}: {', '.join(sorted(uids))}"),
            )
        )
        parts.append(
            text_el(
                {"x": x, "y": y + 2.4, "font-size": 5, "fill": "#ffffff", "text-anchor": "middle"},
                str(len(uids)),
            )
        )
    for link in geo.links:
        if link.a in centres and link.b in centres:
            (xa, ya), (xb, yb) = centres[link.a], centres[link.b]
            parts.append(
                el(
                    "path",
                    {
                        "d": path_points([(xa, ya), (xb, yb)], False),
                        "stroke": "#7a3fb0",
                        "stroke-width": 1,
                        "stroke-dasharray": "4 3",
                        "fill": "none",
                    },
                    title_el(f"link {link.id}: {link.a} - {link.b}"),
                )
            )
    header = text_el({"x": 4, "y": 14, "font-size": 12, "font-weight": "bold"}, title)
    w, tall = width + 10, top
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 {w:.0f} {tall:.0f}" width="{w:.0f}" height="{tall:.0f}">'
        + el("rect", {"x": 0, "y": 0, "width": f"{w:.0f}", "height": f"{tall:.0f}", "fill": "#ffffff"})
        + header
        + "".join(parts)
        + "</svg>"
    )
