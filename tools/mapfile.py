"""The layout of the project's map files, shared by the tools that write them."""

from __future__ import annotations

import json
from typing import Any

PLACES = ("geo", "coast_geo", "at", "coast_at", "outline", "holes", "label_at", "label")
"""A space's fields that say where it is and how it is drawn, not what it is in the game."""


ORDER = (
    "id",
    "name",
    "kind",
    "centre",
    "coasts",
    "aliases",
    "board",
    "radius",
    "at",
    "coast_at",
    "geo",
    "coast_geo",
)
"""A space's fields in the order every tool writes them (then any others, then its outline)."""


def _ordered(space: dict[str, Any]) -> dict[str, Any]:
    first = {k: space[k] for k in ORDER if k in space}
    last = {k: space[k] for k in ("outline", "holes", "label_at", "label") if k in space}
    return {**first, **{k: v for k, v in space.items() if k not in first and k not in last}, **last}


def dump(board: dict[str, Any]) -> str:
    """A map file as JSON: one space per line (long outlines stay on it, at its end), the rest
    compact; a space's fields always in one order, whichever tool wrote the file last."""
    parts = ["{"]
    keys = list(board)
    for k, key in enumerate(keys):
        comma = "," if k < len(keys) - 1 else ""
        value = board[key]
        if key == "spaces":
            inner = ",\n".join("  " + json.dumps(_ordered(sp), ensure_ascii=False) for sp in value)
            parts.append(f' "spaces": [\n{inner}\n ]{comma}')
        else:
            parts.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    parts.append("}")
    return "\n".join(parts) + "\n"
