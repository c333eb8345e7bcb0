"""A family-agnostic drawing of a map: each space filled and badged as the caller says."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..board import Board
from .base import (
    LegendItem,
    badge,
    cross_board_links,
    document,
    draw_spaces,
    header,
    make_frame,
    placed_mark,
)
from .base import legend as draw_legend
from .outlines import draw_outlined, name_boxes


def render_board(
    board: Board,
    *,
    fills: Mapping[int, str] | None = None,
    labels: Mapping[int, str] | None = None,
    title: str | None = None,
    links: bool = False,
    titles: Mapping[int, str] | None = None,
    data: Mapping[int, Mapping[str, str]] | None = None,
    legend: Sequence[LegendItem] = (),
    marks: Mapping[int, str] | None = None,
) -> str:
    """``board`` as a standalone SVG: ``fills`` maps a space index to its fill colour (spaces left out
    keep their terrain colour), ``labels`` to a short badge drawn on its point (an army count);
    ``links`` draws the adjacencies between its printed boards (cards laid between them).

    ``titles`` gives a space's hover text (its name by default) and ``legend`` the entries under the
    map. ``marks`` are the caller's own drawings of what stands in a space (SVG centred on 0, 0: a
    stack of pieces), put on its point in place of a badge. A map whose spaces have outlines is
    drawn as them (:mod:`.outlines`): there ``data`` adds ``data-*`` attributes to a space's group
    (a ``data-colour`` also colours its badge).
    """
    fills = fills or {}
    labels = labels or {}
    marks = marks or {}
    frame = make_frame(board.base)
    parts = header(frame, title or board.title)
    if any(space.outline for space in board.spaces):
        drawn, legend_height = draw_outlined(frame, fills, labels, titles or {}, data or {}, legend, marks)
        if links:
            # Under the labels and the legend.
            drawn[-1:-1] = cross_board_links(frame, name_boxes(frame.board))
        parts.extend(drawn)
        return document(frame, title or board.title, parts, frame.height + legend_height)
    extra: dict[int, list[str]] = {}
    for space, text in labels.items():
        if board.spaces[space].at is None:
            continue
        extra[space] = [badge(*frame.space_point(space), text, fills.get(space, "#ffffff"))]
    for space, mark in marks.items():
        if board.spaces[space].at is not None:
            extra[space] = [placed_mark(*frame.space_point(space), mark)]
    parts.extend(draw_spaces(frame, fills, extra, titles))
    if links:
        parts.extend(cross_board_links(frame))
    legend_parts, legend_height = draw_legend(frame, legend, frame.height)
    parts.extend(legend_parts)
    return document(frame, title or board.title, parts, frame.height + legend_height)
