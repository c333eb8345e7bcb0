"""An Axis & Allies position drawn as SVG: each territory in its holder's colour; on each space's
point, what the printed board shows there (its IPC value, a factory, a capital's star, a convoy
centre's IPCs, ``cut by axis`` when the other side controls one) and the pieces in it, one row per
power in its colour, each unit type drawn as a pictogram with its count (``CAP`` where fighters
patrol). Neutrals stay in the land colour. Each space's hover text names its units in full, and
the legend shows every pictogram."""

from __future__ import annotations

import json
import math
from collections import Counter
from functools import cache
from importlib import resources
from typing import Any
from xml.sax.saxutils import escape

from ...board import Board
from ...render import render_board
from ...render.base import LegendItem
from ...render.outlines import name_boxes
from ...render.svg import el, num, text_colour_on
from .gamedata import GameData

LIGHTEN = 0.45
"""How far a territory's fill is lightened from its holder's colour, so that the pieces stand out."""

ROW = 15.0
"""Height of one row of a stack (drawing units)."""
ICON = 16.0
"""Width of a unit's pictogram."""
DIGIT = 6.4
"""Width of a digit of a count."""
MARK_FILL = "#fffdf5"
"""The territory's own row: the printed board's cream."""
CAPITAL = "#b3261e"
INK = "#1a1a1a"


@cache
def unit_icons() -> dict[str, str]:
    """The pictograms of the data file ``unit_icons.json``: unit type to SVG path data."""
    text = resources.files(__package__).joinpath("data", "unit_icons.json").read_text(encoding="utf-8")
    icons: dict[str, str] = json.loads(text)["icons"]
    return icons


def _drawn(name: str, colour: str, shift: float = 0.0) -> str:
    """One of the data file's pictograms in ``colour``, moved right by ``shift``."""
    return f'<path transform="translate({num(shift)},0)" d="{unit_icons()[name]}" fill="{colour}"/>'


def _lighter(colour: str, share: float = LIGHTEN) -> str:
    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    mix = [round(c + (255 - c) * share) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def _text(x: float, content: str, ink: str, size: float = 10.5) -> str:
    return (
        f'<text x="{num(x)}" y="{num(size * 0.36)}" font-size="{num(size)}" font-weight="bold" '
        f'fill="{ink}">{escape(content)}</text>'
    )


def _row(cls: str, colour: str, items: list[tuple[str, float]], attrs: dict[str, str]) -> tuple[str, float]:
    """A rounded row in ``colour`` holding ``items`` (SVG drawn from x = 0, and its width), centred
    on 0, 0; returns it and its width."""
    width = sum(w for _, w in items) + 2.0 * (len(items) - 1) + 8.0
    x = -width / 2 + 4.0
    parts = [
        el(
            "rect",
            {
                "x": -width / 2,
                "y": -ROW / 2 + 0.5,
                "width": width,
                "height": ROW - 1,
                "rx": 5,
                "fill": colour,
                "stroke": "#1a1a1a",
                "stroke-width": 0.9,
            },
        )
    ]
    for svg, w in items:
        parts.append(f'<g transform="translate({num(x)},0)">{svg}</g>')
        x += w + 2.0
    return el("g", {"class": cls, **attrs}, *parts), width


def _icon(unit: str, symbol: str, ink: str) -> tuple[str, float]:
    path = unit_icons().get(unit)
    if path is None:
        return _text(0, symbol, ink), DIGIT * len(symbol)
    return f'<path transform="translate({num(ICON / 2)},0)" d="{path}" fill="{ink}"/>', ICON


def _piece(unit: str, symbol: str, count: int, ink: str) -> tuple[str, float]:
    """A unit type's pictogram with its count (a lone piece shows none)."""
    icon, width = _icon(unit, symbol, ink)
    parts = [icon]
    if count > 1:
        parts.append(_text(width, str(count), ink))
        width += DIGIT * len(str(count))
    return el("g", {"class": "unit", "data-unit": unit, "data-count": count}, *parts), width


def draw_position(data: GameData, position: dict[str, Any], title: str) -> str:
    board = data.board
    fills: dict[int, str] = {}
    for space, holder in position.get("owner", {}).items():
        index = board.space_by_id.get(space)
        if index is None:
            raise ValueError(f"unknown space {space!r}")
        if holder in data.power_by_id and board.spaces[index].kind.value != "sea":
            fills[index] = _lighter(data.power(holder).colour)
    stacks: dict[str, dict[str, Counter[str]]] = {}  # space -> power -> unit type -> count
    patrols: set[tuple[str, str]] = set()
    factories: set[str] = set()
    for unit in position.get("units", []):
        if unit["t"] in data.units and data.units[unit["t"]].domain.value == "building":
            if "factory" in data.units[unit["t"]].abilities:
                factories.add(unit["at"])
            continue
        stacks.setdefault(unit["at"], {}).setdefault(unit["p"], Counter())[unit["t"]] += 1
        if unit.get("cap"):
            patrols.add((unit["at"], unit["p"]))
    order = {uid: k for k, uid in enumerate(data.units)}
    turn = {p.id: k for k, p in enumerate(data.powers)}
    taken = position.get("convoys", {})

    def ranked(types: Counter[str]) -> list[tuple[str, int]]:
        return sorted(types.items(), key=lambda item: order.get(item[0], len(order)))

    marks: dict[int, str] = {}
    titles: dict[int, str] = {}
    holders = position.get("owner", {})
    for index, space in enumerate(board.spaces):
        rows: list[str] = []
        widths: list[float] = []
        hover: list[str] = []
        t = data.territories.get(space.id)
        own: list[tuple[str, float]] = []
        ink = text_colour_on(MARK_FILL)
        if t is not None and t.capital:
            own.append(
                (f'<path transform="translate(6,0)" d="{unit_icons()["capital"]}" fill="#b3261e"/>', 12.0)
            )
        if t is not None and t.victory_city:
            own.append(
                (
                    f'<path transform="translate(5,0)" d="{unit_icons()["victory_city"]}" fill="#1a1a1a"/>',
                    10.0,
                )
            )
        if space.id in factories:
            own.append(_icon("factory", "F", ink))
        if t is not None and t.ipc:
            own.append((_text(0, str(t.ipc), ink), DIGIT * len(str(t.ipc))))
        if t is not None and t.convoy:
            # A convoy centre: its IPCs, and who has cut it when the other side controls it.
            text = f"${t.convoy}" + (f" cut by {taken[space.id]}" if space.id in taken else "")
            own.append((_text(0, text, ink), DIGIT * len(text)))
        if own:
            attrs = {"data-ipc": str(t.ipc or t.convoy) if t is not None else "0"}
            if space.id in taken:
                attrs["data-cut"] = str(taken[space.id])
            row, width = _row("territory-marks", MARK_FILL, own, attrs)
            rows.append(row)
            widths.append(width)
        for power, types in sorted(
            stacks.get(space.id, {}).items(), key=lambda item: turn.get(item[0], len(turn))
        ):
            known = power in data.power_by_id
            colour = data.power(power).colour if known else "#ffffff"
            pen = text_colour_on(colour)
            items = [
                _piece(u, data.units[u].symbol if u in data.units else u, n, pen) for u, n in ranked(types)
            ]
            if (space.id, power) in patrols:
                items.append((_text(0, "CAP", pen), DIGIT * 3))  # fighters on combat air patrol
            row, width = _row("stack", colour, items, {"data-power": power})
            rows.append(row)
            widths.append(width)
            names = ", ".join(f"{n} {data.units[u].name if u in data.units else u}" for u, n in ranked(types))
            hover.append(f"{data.power(power).name if known else power}: {names}")
        if rows:
            dx, dy = _clear_of_names(board, index, max(widths), ROW * len(rows))
            top = dy - ROW * len(rows) / 2 + ROW / 2
            marks[index] = "".join(
                f'<g transform="translate({num(dx)},{num(top + k * ROW)})">{row}</g>'
                for k, row in enumerate(rows)
            )
        holder = holders.get(space.id)
        held = [f"held by {data.power(holder).name}"] if holder in data.power_by_id else []
        titles[index] = "\n".join([space.name, *held, *hover])
    return render_board(
        board,
        fills=fills,
        title=title,
        links=len(board.boards) > 1,
        titles=titles,
        legend=_legend(data),
        marks=marks,
    )


SHIFTS = sorted(
    ((dx, dy) for dx in (0.0, -0.3, 0.3, -0.6, 0.6) for dy in (k / 2 for k in range(-6, 7))),
    key=lambda s: (abs(s[1]) + abs(s[0]), s),
)
"""Where a space's rows may go from its point: shares of their width across, of a row's height up
or down; the nearer first."""


def _clear_of_names(board: Board, space: int, width: float, height: float) -> tuple[float, float]:
    """Where a block of rows ``width`` by ``height`` centred on a space's point goes, relative to the
    point, to cover the least of the names drawn near it (its own first of all): on the point, or a
    row or two above or below it, or a little to the side."""
    at = board.spaces[space].at
    if at is None:
        return 0.0, 0.0
    x, y = at
    reach_x, reach_y = width * 0.8 + 4, height / 2 + 2 * ROW + 4
    near = [
        box
        for other, box in name_boxes(board).items()
        if board.spaces[other].board == board.spaces[space].board
        and box[0] < x + reach_x
        and box[2] > x - reach_x
        and box[1] < y + reach_y
        and box[3] > y - reach_y
    ]
    best = (math.inf, 0.0, 0.0)
    for sx, sy in SHIFTS:
        dx, dy = sx * width, sy * ROW
        x0, y0, x1, y1 = x + dx - width / 2, y + dy - height / 2, x + dx + width / 2, y + dy + height / 2
        covered = sum(
            max(0.0, min(x1, b[2]) - max(x0, b[0])) * max(0.0, min(y1, b[3]) - max(y0, b[1])) for b in near
        )
        if covered < best[0]:
            best = (covered, dx, dy)
            if covered == 0:
                break
    return best[1], best[2]


def _legend(data: GameData) -> list[LegendItem]:
    """The powers in their colours, and each piece's pictogram."""
    items = [
        LegendItem(el("circle", {"r": 5, "fill": p.colour, "stroke": "#333"}), f"{p.short}: {p.name}")
        for p in data.powers
    ]
    for unit in data.units.values():
        if unit.domain.value == "building" and unit.id != "factory":
            continue
        icon, width = _icon(unit.id, unit.symbol, "#222222")
        items.append(LegendItem(f'<g transform="translate({num(-width / 2)},0)">{icon}</g>', unit.name))
    items.append(LegendItem(f'<path d="{unit_icons()["capital"]}" fill="#b3261e"/>', "capital"))
    if any(t.victory_city for t in data.territories.values()):
        items.append(LegendItem(f'<path d="{unit_icons()["victory_city"]}" fill="#1a1a1a"/>', "victory city"))
    items.append(LegendItem("", "a number: the territory's IPCs"))
    items.append(LegendItem("", "$5: a convoy centre's IPCs; CAP: fighters on patrol"))
    return items
