"""The boards drawn from real geography read at the first look, measured in the browser as drawn:
on a laptop's 1366×768 whole-board view every space's name is at least 9 CSS px high; no two names
overlap; each lies inside its own space (all of it for nearly every space; a small space may let a
name's end reach over its border), and away from where the space's unit stands."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from interboard.board.outlines import contains
from interboard.games.diplomacy.variants import get_variant

from .test_every_variant import LAPTOP_SCREEN, game_against_bots
from .test_play import open_seat

MIN_PX = 9.0
LABELS = """() => {
  const svg = document.querySelector('#map svg');
  const scale = svg.getScreenCTM().a;
  return [...svg.querySelectorAll('.space-label')].map((g) => {
    const text = g.querySelector('.label');
    const box = text.getBBox();
    return {space: g.dataset.space, x: box.x, y: box.y, w: box.width, h: box.height,
            px: parseFloat(text.getAttribute('font-size')) * scale};
  });
}"""


@pytest.mark.parametrize("variant", ["standard"])
def test_names_are_legible_apart_and_inside_their_spaces(
    new_context: Any, api: httpx.Client, variant: str
) -> None:
    seat, game_id, token = game_against_bots(api, variant)
    page = open_seat(new_context(LAPTOP_SCREEN), game_id, seat, token)
    expect(page.locator("#map svg .space-label").first).to_be_attached()
    labels = page.evaluate(LABELS)
    board = get_variant(variant).board
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

    overlapping = [
        (a["space"], b["space"])
        for k, a in enumerate(labels)
        for b in labels[k + 1 :]
        if a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and a["y"] < b["y"] + b["h"]
        and b["y"] < a["y"] + a["h"]
    ]
    assert overlapping == []
    wholly, partly = 0, []
    for lab in labels:
        space = board.space(lab["space"])
        inside = sum(contains(space.outline, p) for p in ink(lab)) / 15
        centre = (lab["x"] + lab["w"] / 2 - ox, lab["y"] + lab["h"] / 2 - oy)
        assert contains(space.outline, centre), f"{space.id}'s name is centred outside it"
        if inside == 1:
            wholly += 1
        else:
            partly.append((space.id, round(inside, 2)))
    assert all(inside >= 0.6 for _, inside in partly), partly
    assert wholly >= 0.85 * len(labels), partly
