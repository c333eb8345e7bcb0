"""The boards drawn from real geography read at the first look, measured in the browser as drawn:
on a laptop's 1366×768 whole-board view every space's name is at least 9 CSS px high; no two names
overlap (their letters: the blank of the font's ascent above the capitals may); each lies inside
its own space (all of it for nearly every space; a small space may let a name's end reach over its
border, and a space with no room for its name has it written beside it), and away from where the
space's unit stands."""

from __future__ import annotations

import math
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from interboard.board.loader import load_packaged_board
from interboard.board.model import Board
from interboard.board.outlines import contains

from .test_every_variant import LAPTOP_SCREEN, game_against_bots
from .test_play import open_seat

MIN_PX = 9.0
BOARDS = {
    "standard": ("interboard.games.diplomacy.data.maps", "standard"),
    "aa_europe_1999": ("interboard.games.axis_allies.data.maps", "aa_europe_1999"),
    "aa_pacific_2001": ("interboard.games.axis_allies.data.maps", "aa_pacific_2001"),
}
"""Each variant played on one board drawn from real geography, and that board's map."""
LABELS = """() => {
  const svg = document.querySelector('#map svg');
  const scale = svg.getScreenCTM().a;
  return [...svg.querySelectorAll('.space-label')].map((g) => {
    const text = g.querySelector('.label');
    const box = text.getBBox();
    return {space: g.dataset.space, x: box.x, y: box.y, w: box.width, h: box.height,
            size: parseFloat(text.getAttribute('font-size')),
            px: parseFloat(text.getAttribute('font-size')) * scale};
  });
}"""


def _area(ring: tuple[tuple[float, float], ...]) -> float:
    return (
        abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True))) / 2
    )


def _board(variant: str) -> Board:
    return load_packaged_board(*BOARDS[variant])


@pytest.mark.parametrize("variant", list(BOARDS))
def test_names_are_legible_apart_and_inside_their_spaces(
    new_context: Any, api: httpx.Client, variant: str
) -> None:
    seat, game_id, token = game_against_bots(api, variant)
    page = open_seat(new_context(LAPTOP_SCREEN), game_id, seat, token)
    expect(page.locator("#map svg .space-label").first).to_be_attached()
    labels = page.evaluate(LABELS)
    board = _board(variant)
    frame = page.locator("#map svg rect.board-frame").first
    ox, oy = float(frame.get_attribute("x") or 0), float(frame.get_attribute("y") or 0)
    assert len(labels) == len(board.spaces)

    small = [(lab["space"], round(lab["px"], 1)) for lab in labels if lab["px"] < MIN_PX]
    assert small == [], f"names under {MIN_PX} CSS px on the whole-board view"

    def ink(lab: dict[str, float]) -> list[tuple[float, float]]:
        # Points over the capitals' ink (the box also holds the font's ascent and descent), in
        # the board's own units.
        return [
            (lab["x"] + lab["w"] * (0.05 + 0.225 * i) - ox, lab["y"] + lab["h"] * (0.2 + 0.3 * j) - oy)
            for i in range(5)
            for j in range(3)
        ]

    def inked(lab: dict[str, float]) -> float:
        # A text's box starts at the font's ascent, a fifth of an em above its capitals, where no
        # letter without an accent has ink: two names may meet there without touching.
        return lab["y"] + 0.19 * lab["size"]

    overlapping = [
        (a["space"], b["space"])
        for k, a in enumerate(labels)
        for b in labels[k + 1 :]
        if a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and inked(a) < b["y"] + b["h"]
        and inked(b) < a["y"] + a["h"]
    ]
    assert overlapping == []
    wholly, partly, inner = 0, [], 0
    for lab in labels:
        space = board.space(lab["space"])
        centre = (lab["x"] + lab["w"] / 2 - ox, lab["y"] + lab["h"] / 2 - oy)
        xs, ys = [p[0] for p in space.outline], [p[1] for p in space.outline]
        small = max(xs) - min(xs) < lab["w"] or max(ys) - min(ys) < lab["h"]
        if small or _area(space.outline) < 2 * lab["w"] * lab["h"]:
            # A space with no room for its name (an atoll, Palestine, Sicily at this scale): the
            # name is written beside it, as printed boards write their atolls' names, but near
            # enough to read as its own.
            gap = min(math.dist(centre, p) for p in space.outline)
            assert gap <= 2 * lab["h"], f"{space.id}'s name is {gap:.0f} units from it"
            continue
        inner += 1
        inside = sum(contains(space.outline, p) for p in ink(lab)) / 15
        assert contains(space.outline, centre), f"{space.id}'s name is centred outside it"
        if inside == 1:
            wholly += 1
        else:
            partly.append((space.id, round(inside, 2)))
    assert [(space, inside) for space, inside in partly if inside < 0.6] == []
    assert wholly >= 0.85 * inner, partly
