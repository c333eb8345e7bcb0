"""The pages pass axe-core's accessibility checks (WCAG 2 A and AA rules) in Chromium with no
serious or critical violation: the lobby, a rules page, a game as a spectator, a seat choosing an order, and a
Twin Earths III seat picking a link.

axe-core comes with the ``axe-playwright-python`` package (its ``axe.min.js``), run in the page.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from .test_play import click_under, has_class, open_game, open_seat, tap_place

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

SERIOUS = ("serious", "critical")


def serious_violations(page: Page) -> list[str]:
    """Each serious or critical violation: its rule, what it says, and the first nodes it found."""
    results = axe_playwright.Axe().run(page, options={"runOnly": ["wcag2a", "wcag2aa", "best-practice"]})
    out = []
    for violation in results.response["violations"]:
        if violation["impact"] in SERIOUS:
            nodes = [" ".join(n["target"]) for n in violation["nodes"][:3]]
            out.append(f"{violation['id']} ({violation['impact']}): {violation['help']} at {nodes}")
    return out


def test_the_lobby_has_no_serious_accessibility_violation(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    expect(page.locator("#variant-standard")).to_be_checked()
    assert serious_violations(page) == []


def test_a_rules_page_has_no_serious_accessibility_violation(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/rules")
    page.get_by_role("link", name="Twin Earths III (rm11, Lew Pulsipher)").click()
    expect(page.get_by_role("heading", name="Twin Earths III (rm11, Lew Pulsipher)").first).to_be_visible()
    assert serious_violations(page) == []


def test_a_game_page_has_no_serious_accessibility_violation(new_context: Any, api: httpx.Client) -> None:
    seats = {s: "bot" for s in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY")}
    r = api.post("/api/games", json={"variant": "standard", "seats": {**seats, "FRANCE": "Ann"}})
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["FRANCE"]
    spectator = open_game(new_context(), f"/games/{game_id}")
    assert serious_violations(spectator) == []
    page = open_seat(new_context(), game_id, "FRANCE", token)
    tap_place(page, "PAR")
    tap_place(page, "BUR")
    expect(page.locator("#choice-box .orders button").first).to_be_visible()
    assert serious_violations(page) == []


def test_picking_a_link_has_no_serious_accessibility_violation(new_context: Any, api: httpx.Client) -> None:
    te3 = next(v for v in api.get("/api/variants").json() if v["id"] == "twin_earths_3")
    seats = {seat: "bot" for seat in te3["seats"]}
    r = api.post("/api/games", json={"variant": "twin_earths_3", "seats": {**seats, "ITALY-Z": "Ida"}})
    assert r.status_code == 201, r.text
    page = open_seat(new_context(), r.json()["game_id"], "ITALY-Z", r.json()["seat_tokens"]["ITALY-Z"])
    page.locator("#link-box").get_by_role("button", name="Make a link").click()
    rome = '#map g.space[data-loc="ROM-Z"]'
    click_under(page, rome, has_class(page, rome, "selected"))
    expect(page.locator("#link-second")).to_be_visible()
    assert serious_violations(page) == []
