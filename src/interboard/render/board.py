"""A family-agnostic drawing of a map: each space filled and badged as the caller says."""

from __future__ import annotations

from collections.abc import Mapping

from ..board import Board
from .base import cross_board_links, document, draw_spaces, header, make_frame
from .svg import el, text_colour_on


def render_board(
    board: Board,
    *,
    fills: Mapping[int, str] | None = None,
    labels: Mapping[int, str] | None = None,
    title: str | None = None,
    links: bool = False,
) -> str:
    """``board`` as a standalone SVG: ``fills`` maps a space index to its fill colour (spaces left out
    keep their terrain colour), ``labels`` to a short badge drawn on its point (an army count);
    ``links`` draws the adjacencies between its printed boards (cards laid between them)."""
    fills = fills or {}
    labels = labels or {}
    frame = make_frame(board.base)
    extra: dict[int, list[str]] = {}
    for space, text in labels.items():
        if board.spaces[space].at is None:
            continue
        extra[space] = [_badge(*frame.space_point(space), text, fills.get(space, "#ffffff"))]
    parts = header(frame, title or board.title)
    parts.extend(draw_spaces(frame, fills, extra))
    if links:
        parts.extend(cross_board_links(frame))
    return document(frame, title or board.title, parts, frame.height)


def _badge(x: float, y: float, text: str, colour: str) -> str:
    width = 10 + 6.5 * len(text)
    return el(
        "g",
        {"class": "badge"},
        el(
            "rect",
            {
                "x": x - width / 2,
                "y": y - 9,
                "width": width,
                "height": 17,
                "rx": 8.5,
                "fill": colour,
                "stroke": "#1a1a1a",
                "stroke-width": 1.2,
            },
        ),
        el(
            "text",
            {
                "x": x,
                "y": y + 4,
                "text-anchor": "middle",
                "font-size": 11,
                "font-weight": "bold",
                "fill": text_colour_on(colour),
            },
            text,
        ),
    )
