"""An Axis & Allies position drawn as SVG: each territory in its holder's colour, each space badged
with the units in it by power (``G7`` for seven German units), ``CAP`` where fighters patrol, convoy
centres with their IPCs (``$5 cut by axis`` when the other side controls one), neutrals left in the
land colour."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...render import render_board
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
    counts: dict[str, Counter[str]] = {}
    patrols: set[str] = set()
    for unit in position.get("units", []):
        if unit["t"] in data.units and data.units[unit["t"]].domain.value == "building":
            continue
        counts.setdefault(unit["at"], Counter())[unit["p"]] += 1
        if unit.get("cap"):
            patrols.add(unit["at"])
    parts: dict[str, list[str]] = {}
    for space, by_power in counts.items():
        parts.setdefault(space, []).append(" ".join(f"{p[0]}{n}" for p, n in sorted(by_power.items())))
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
    for space, texts in parts.items():
        index = board.space_by_id.get(space)
        if index is None:
            raise ValueError(f"unknown space {space!r}")
        labels[index] = " · ".join(texts)
    return render_board(board, fills=fills, labels=labels, title=title, links=len(board.boards) > 1)
