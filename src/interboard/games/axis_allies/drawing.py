"""An Axis & Allies position drawn as SVG: each territory in its holder's colour, each space badged
with the units in it by power and type (``Ger 3i 1a``: three German infantry and an armour, by the
data's short names and symbols), ``CAP`` where fighters patrol, convoy centres with their IPCs
(``$5 cut by axis`` when the other side controls one), neutrals left in the land colour. Each
space's hover text names its units in full, and the legend explains every letter."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...render import render_board
from ...render.base import LegendItem
from ...render.svg import el
from .gamedata import GameData

LIGHTEN = 0.45
"""How far a territory's fill is lightened from its holder's colour, so that badges stand out."""


def _lighter(colour: str, share: float = LIGHTEN) -> str:
    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    mix = [round(c + (255 - c) * share) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


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
    patrols: set[str] = set()
    for unit in position.get("units", []):
        if unit["t"] in data.units and data.units[unit["t"]].domain.value == "building":
            continue
        stacks.setdefault(unit["at"], {}).setdefault(unit["p"], Counter())[unit["t"]] += 1
        if unit.get("cap"):
            patrols.add(unit["at"])
    order = {uid: k for k, uid in enumerate(data.units)}

    def kinds(types: Counter[str], symbols: bool) -> str:
        ranked = sorted(types.items(), key=lambda item: order.get(item[0], len(order)))
        if symbols:
            return " ".join(f"{n}{data.units[t].symbol if t in data.units else t}" for t, n in ranked)
        return ", ".join(f"{n} {data.units[t].name if t in data.units else t}" for t, n in ranked)

    parts: dict[str, list[str]] = {}
    hover: dict[str, list[str]] = {}
    turn = {p.id: k for k, p in enumerate(data.powers)}
    for space, by_power in stacks.items():
        for power, types in sorted(by_power.items(), key=lambda item: turn.get(item[0], len(turn))):
            short = data.power(power).short if power in data.power_by_id else power
            name = data.power(power).name if power in data.power_by_id else power
            parts.setdefault(space, []).append(f"{short} {kinds(types, True)}")
            hover.setdefault(space, []).append(f"{name}: {kinds(types, False)}")
    for space in patrols:
        parts[space].append("CAP")  # fighters on combat air patrol (the linked game)
    taken = position.get("convoys", {})
    for space, t in data.territories.items():
        if t.convoy:
            # A convoy centre: its IPCs, and who has cut it when the other side controls it.
            parts.setdefault(space, []).append(
                f"${t.convoy}" + (f" cut by {taken[space]}" if space in taken else "")
            )
    labels: dict[int, str] = {}
    titles: dict[int, str] = {}
    holders = position.get("owner", {})
    for space, texts in parts.items():
        index = board.space_by_id.get(space)
        if index is None:
            raise ValueError(f"unknown space {space!r}")
        labels[index] = " · ".join(texts)
    for index, space in enumerate(board.spaces):
        holder = holders.get(space.id)
        held = [f"held by {data.power(holder).name}"] if holder in data.power_by_id else []
        titles[index] = "\n".join([space.name, *held, *hover.get(space.id, [])])
    return render_board(
        board,
        fills=fills,
        labels=labels,
        title=title,
        links=len(board.boards) > 1,
        titles=titles,
        legend=_legend(data),
    )


def _legend(data: GameData) -> list[LegendItem]:
    """The badges' powers, in their colours, and the unit letters."""
    items = [
        LegendItem(el("circle", {"r": 5, "fill": p.colour, "stroke": "#333"}), f"{p.short}: {p.name}")
        for p in data.powers
    ]
    used = [u for u in data.units.values() if u.domain.value != "building"]
    items.append(LegendItem("", "units: " + ", ".join(f"{u.symbol} {u.name}" for u in used)))
    items.append(LegendItem("", "$5: a convoy centre's IPCs; CAP: fighters on patrol"))
    return items
