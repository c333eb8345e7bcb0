"""Maps drawn by interboard as SVG: schematic, legible, every board and every link visible.

* :func:`render_position` draws a Diplomacy position (centres, units, links and cuts), with the
  orders of a phase or their results.
* :func:`render_board` draws any map with drawing positions, each space filled and labelled as the
  caller says (Global War's armies per country, for example).

Spaces are shaded as the Voronoi cells of their drawing positions (no hand-drawn outlines): land,
coast and sea in their own colours, borders between spaces that touch without being adjacent drawn
as heavy walls. Output is deterministic and self-contained (no scripts, no ids), styled by classes
with inline presentation attributes as defaults that a page's CSS may override.
"""

from __future__ import annotations

from .board import render_board
from .diplomacy import render_position, unit_symbol

__all__ = ["render_board", "render_position", "unit_symbol"]
