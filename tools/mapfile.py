"""The layout of the project's map files, shared by the tools that write them."""

from __future__ import annotations

import json
from typing import Any

PLACES = ("geo", "coast_geo", "at", "coast_at", "outline", "holes", "label_at")
"""A space's fields that say where it is and how it is drawn, not what it is in the game."""


def dump(board: dict[str, Any]) -> str:
    """A map file as JSON: one space per line (long outlines stay on it), the rest compact."""
    parts = ["{"]
    keys = list(board)
    for k, key in enumerate(keys):
        comma = "," if k < len(keys) - 1 else ""
        value = board[key]
        if key == "spaces":
            inner = ",\n".join("  " + json.dumps(sp, ensure_ascii=False) for sp in value)
            parts.append(f' "spaces": [\n{inner}\n ]{comma}')
        else:
            parts.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    parts.append("}")
    return "\n".join(parts) + "\n"
