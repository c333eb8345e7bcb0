"""Maps drawn by interboard as SVG: schematic, legible, every board and every link visible.

This package knows no rule family. It gives the primitives (:mod:`.svg`), the shapes of the spaces
(:mod:`.geometry`: Voronoi cells of the drawing positions), a frame, header and legend
(:mod:`.base`), and :func:`render_board`, which draws any map with drawing positions, each space
filled and labelled as the caller says; a map whose spaces have their own outlines (a world map) is
drawn as them, with its seas, region outlines, sea lines and a legend (:mod:`.outlines`). A family
draws its own pieces on top (the Diplomacy family's units, orders and links are in
:mod:`interboard.games.diplomacy.drawing`).

Other spaces are shaded as the Voronoi cells of their drawing positions: land,
coast and sea in their own colours, borders between spaces that touch without being adjacent drawn
as heavy walls. Output is deterministic and self-contained (no scripts, no ids), styled by classes
with inline presentation attributes as defaults that a page's CSS may override.
"""

from __future__ import annotations

from .board import render_board

__all__ = ["render_board"]
