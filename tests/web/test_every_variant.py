"""One turn of every registered variant played by clicking alone, at a laptop's 1366×768 and on a
390×844 touch phone: the map's top in the first screen and its width; each place the seat may
order at opens its choices when clicked (on a phone, each in the opening view, with a tap target
of 44 px), in view, named rather than coded; then an order is clicked and Ready ends the turn."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from interboard.games import find_variant, variants

from .conftest import PHONE
from .test_play import LIVE_TIMEOUT, open_seat, tap_place

LAPTOP_SCREEN = {"width": 1366, "height": 768}
SIZES = {"laptop": (LAPTOP_SCREEN, False), "phone": (PHONE, True)}
MOST_PLACES = 25
"""Places clicked per page, at most (a front of forty is sampled evenly)."""
CODE = re.compile(r"^[A-Z][A-Z0-9_]{3,}$")
"""A choice that is only a code (NORTHERN_ITALY, W4907): what a label must never be."""


def first_seat(variant: str) -> str:
    fam, info = find_variant(variant)
    return fam.pending(fam.new_state(info.id, {}, 3)).seats[0]


def game_against_bots(api: httpx.Client, variant: str) -> tuple[str, str, str]:
    """A new game of ``variant`` (seed 3) with Ann in its first seat and bots in the others: the
    seat, the game's id and the seat's token."""
    seat = first_seat(variant)
    seats = {
        s: "bot" for s in next(v for v in api.get("/api/variants").json() if v["id"] == variant)["seats"]
    }
    r = api.post("/api/games", json={"variant": variant, "seed": 3, "seats": {**seats, seat: "Ann"}})
    assert r.status_code == 201, r.text
    return seat, r.json()["game_id"], r.json()["seat_tokens"][seat]


def in_view(page: Page, selector: str) -> bool:
    """Is the element's centre within the map's drawn area and the window?"""
    box = page.locator(selector).last.bounding_box()
    svg = page.locator("#map svg").bounding_box()
    if box is None or svg is None:
        return False
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return svg["x"] <= x <= svg["x"] + svg["width"] and svg["y"] <= y <= svg["y"] + svg["height"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("variant", [info.id for info in variants()])
def test_a_turn_of_every_variant_is_played_by_clicking(
    new_context: Any, api: httpx.Client, variant: str, size: str
) -> None:
    viewport, touch = SIZES[size]
    seat, game_id, token = game_against_bots(api, variant)
    page = open_seat(new_context(viewport, touch=touch), game_id, seat, token)
    phase = page.locator("#phase").get_attribute("data-phase")

    # The map first: in the first screen, most of its width.
    svg = page.locator("#map svg")
    expect(svg).to_be_visible()
    box = svg.bounding_box()
    assert box is not None
    assert box["y"] < viewport["height"] / 2, f"the map starts {box['y']} px down"
    assert box["width"] >= (0.55 * viewport["width"] if not touch else viewport["width"] - 20)

    tree = api.get(f"/api/games/{game_id}/options", headers={"Authorization": f"Bearer {token}"}).json()
    keys = list(tree["orders"])
    assert keys, f"{seat} has nothing to order in {phase}"
    drawn = set(page.locator("#map [data-loc]").evaluate_all("nodes => nodes.map(n => n.dataset.loc)"))
    sample = keys[:: max(1, len(keys) // MOST_PLACES)][:MOST_PLACES]
    chooser = page.locator("#chooser")
    clicked = 0
    for key in sample:
        if key in drawn:
            hit = f'#map .hits .hit[data-loc="{key}"]'
            if not in_view(page, hit):
                # Off the opening view (a phone's, or a desktop's opened on the seat's crowded pieces,
                # as the linked world's wide strip is): the player pans to it.
                continue
            if touch:
                b = page.locator(hit).bounding_box()
                assert b is not None and b["width"] >= 43.5 and b["height"] >= 43.5, (key, b)
            tap_place(page, key)
        else:
            page.locator(f'#unit-buttons button[data-loc="{key}"]').click()
        expect(chooser).to_be_visible()
        expect(chooser.locator("h4").first).to_be_visible()
        sheet = chooser.bounding_box()
        assert sheet is not None and sheet["y"] >= 0 and sheet["y"] + 40 <= viewport["height"], (key, sheet)
        labels = chooser.locator("button").all_inner_texts()
        assert not [t for t in labels if CODE.match(t.strip())], (key, labels)
        chooser.get_by_role("button", name="Cancel (Esc)").click()
        expect(chooser).to_be_hidden()
        clicked += 1
    assert clicked, f"no place of {seat} could be clicked"

    # The turn, by clicking: the first place, an order (through a destination if it needs one), Ready.
    first = keys[0]
    if first in drawn and in_view(page, f'#map .hits .hit[data-loc="{first}"]'):
        tap_place(page, first)
    else:
        page.locator(f'#unit-buttons button[data-loc="{first}"]').click()
    if not chooser.locator(".order-choice").count():
        chooser.locator(".targets button").first.click()
    order = chooser.locator(".order-choice").first
    text = order.get_attribute("data-order")
    order.click()
    expect(page.locator("#order-list li", has_text=text or "")).to_contain_text("✓ accepted")
    if page.locator("#phase").get_attribute("data-phase") == phase:  # not played at once
        page.get_by_role("button", name="Ready").click()
    expect(page.locator("#phase")).not_to_have_attribute("data-phase", phase or "", timeout=LIVE_TIMEOUT)
