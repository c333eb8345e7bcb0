"""The game page as a new player meets it, at a laptop's 1366×768 and on a 390×844 touch phone:
the map first and wide, every unit of a long front clickable, the choices in view after a tap,
tap targets a finger can hit, a half-made link order never lost, names rather than codes."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE
from .test_play import LIVE_TIMEOUT, open_seat, tap_place

LAPTOP_SCREEN = {"width": 1366, "height": 768}
SIZES = {"laptop": (LAPTOP_SCREEN, False), "phone": (PHONE, True)}
"""A laptop's screen, and a phone's (touch) for the tests that run at both."""


def bots_but(api: httpx.Client, variant: str, mine: str, **extra: Any) -> tuple[str, str]:
    seats = {
        seat: "bot"
        for seat in next(v for v in api.get("/api/variants").json() if v["id"] == variant)["seats"]
    }
    seats[mine] = "Ann"
    r = api.post("/api/games", json={"variant": variant, "seats": seats, "seed": 3, **extra})
    assert r.status_code == 201, r.text
    return r.json()["game_id"], r.json()["seat_tokens"][mine]


def map_box(page: Page) -> dict[str, float]:
    svg = page.locator("#map svg")
    expect(svg).to_be_visible()
    box = svg.bounding_box()
    assert box is not None
    return box


@pytest.mark.parametrize(
    ("variant", "seat"),
    [
        ("standard", "FRANCE"),
        ("aa_europe_1999", "GERMANY"),
        ("global_war", "P1"),
        ("twin_earths_3", "GERMANY-Y"),
        ("vernian_wwi", "Germany"),
        ("aa_linked_world", "GERMANY"),
    ],
)
def test_on_a_laptop_the_map_starts_in_the_first_screen_and_takes_most_of_its_width(
    new_context: Any, api: httpx.Client, variant: str, seat: str
) -> None:
    game_id, token = bots_but(api, variant, seat)
    page = open_seat(new_context(LAPTOP_SCREEN), game_id, seat, token)
    box = map_box(page)
    assert box["y"] < LAPTOP_SCREEN["height"] / 3, f"the map starts {box['y']} px down"
    assert box["width"] >= 0.55 * LAPTOP_SCREEN["width"], f"the map is {box['width']} px wide"
    # And most of the first screen's height below its top: a wide map (the linked world's four
    # panels) is not shown as a strip.
    below = LAPTOP_SCREEN["height"] - box["y"]
    assert box["height"] >= 0.6 * below, f"the map is {box['height']} px high of the {below} px below its top"
    # The phase as players say it, its code kept for the API.
    expect(page.locator("#phase")).not_to_have_text(page.locator("#phase").get_attribute("data-phase") or "…")
    expect(page.locator("#next-step")).to_contain_text(re.compile(r"^(Your move|Waiting|You are ready)"))


def test_every_unit_of_germanys_first_combat_move_can_be_clicked(new_context: Any, api: httpx.Client) -> None:
    game_id, token = bots_but(api, "aa_europe_1999", "GERMANY")
    page = open_seat(new_context(LAPTOP_SCREEN), game_id, "GERMANY", token)
    page.get_by_role("button", name="Ready").click()  # the purchase: nothing bought
    expect(page.locator("#phase")).to_have_attribute(
        "data-phase", re.compile(r"\.combat_move\."), timeout=LIVE_TIMEOUT
    )
    expect(page.locator("#phase")).to_have_text("Germany: combat move, round 1")
    tree = api.get(f"/api/games/{game_id}/options", headers={"Authorization": f"Bearer {token}"}).json()
    for space, name in (
        ("POLAND", "Poland"),
        ("NORWAY", "Norway"),
        ("RUMANIA", "Rumania"),
        ("SOUTHERN_ITALY", "Southern Italy"),
    ):
        assert space in tree["orders"], space
        tap_place(page, space)
        chooser = page.locator("#chooser")
        expect(chooser.locator("h4").first).to_contain_text(name)
        # A destination by its name, not its code.
        expect(chooser.locator(".targets button").first).not_to_have_text(re.compile(r"^[A-Z_]+$"))
        page.keyboard.press("Escape")
        expect(chooser).to_be_hidden()
    # Another power's stack, clicked, says what is there: by power and type, in full.
    tap_place(page, "KARELIA")
    expect(chooser.locator("h4")).to_have_text("Karelia")
    expect(chooser.locator(".inspector")).to_contain_text(re.compile(r"Soviet Union: \d+ infantry"))
    page.keyboard.press("Escape")
    expect(chooser).to_be_hidden()
    # The powers table counts what each power has, not "units 0".
    units = page.locator('#powers td[data-count="units"]')
    expect(units.first).to_have_text(re.compile(r"^[1-9]\d*$"))


def begin_link(new_context: Any, api: httpx.Client, size: str, *ends: str) -> Page:
    """Twin Earths III's first Winter as GERMANY-Y, a LINK begun at ``ends`` and not given."""
    game_id, token = bots_but(api, "twin_earths_3", "GERMANY-Y")
    viewport, touch = SIZES[size]
    page = open_seat(new_context(viewport, touch=touch), game_id, "GERMANY-Y", token)
    expect(page.locator("#phase")).to_have_attribute("data-phase", "W1900A")
    page.locator("#link-box").get_by_role("button", name="Make a link").click()
    for label, end in zip(("First end", "Second end"), ends, strict=False):
        page.locator("#chooser").get_by_label(label).select_option(end)
    return page


@pytest.mark.parametrize("size", SIZES)
def test_a_link_begun_and_not_finished_becomes_the_order_on_ready(
    new_context: Any, api: httpx.Client, size: str
) -> None:
    page = begin_link(new_context, api, size, "MUN-Y", "HOL-Z")
    expect(page.locator("#chooser").get_by_role("button", name="LINK MUN-Y HOL-Z")).to_be_visible()
    page.get_by_role("button", name="Ready").click()  # the LINK button not pressed
    expect(page.locator("#phase")).not_to_have_attribute("data-phase", "W1900A", timeout=LIVE_TIMEOUT)
    game_id = page.url.split("/games/", 1)[1].split("?", 1)[0]
    winter = api.get(f"/api/games/{game_id}/history").json()[0]
    assert winter["orders"]["GERMANY-Y"] == ["LINK MUN-Y HOL-Z"]
    assert [r["succeeded"] for r in winter["results"] if r["order"] == "LINK MUN-Y HOL-Z"] == [True]


@pytest.mark.parametrize("size", SIZES)
def test_a_link_begun_at_one_end_makes_ready_warn_rather_than_lose_it(
    new_context: Any, api: httpx.Client, size: str
) -> None:
    page = begin_link(new_context, api, size, "MUN-Y")
    page.get_by_role("button", name="Ready").click()
    expect(page.locator("#orders-status")).to_contain_text("did not finish it")
    expect(page.locator("#chooser")).to_contain_text("did not finish it")
    expect(page.get_by_role("button", name="Ready")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#phase")).to_have_attribute("data-phase", "W1900A")


def test_on_a_phone_the_map_fills_the_width_and_a_tap_opens_the_choices_in_view(
    new_context: Any, api: httpx.Client
) -> None:
    game_id, token = bots_but(api, "standard", "FRANCE")
    page = open_seat(new_context(PHONE, touch=True), game_id, "FRANCE", token)
    box = map_box(page)
    assert box["y"] < PHONE["height"] / 2, f"the map starts {box['y']} px down"
    assert box["width"] >= PHONE["width"] - 20
    expect(page.locator("#zoom-hint")).not_to_contain_text("Ctrl")
    expect(page.locator("#facts")).to_be_hidden()  # the header folded
    # The map opens on France's units, each a tap target of 44 px at least.
    hits = page.locator("#map .hits .hit")
    expect(hits).to_have_count(3)
    for hit in hits.all():
        b = hit.bounding_box()
        assert b is not None and b["width"] >= 43.5 and b["height"] >= 43.5, b
    page.locator('#map .hits .hit[data-loc="PAR"]').tap()
    chooser = page.locator("#chooser")
    expect(chooser).to_be_visible()
    sheet = chooser.bounding_box()
    assert sheet is not None and sheet["y"] >= 0 and sheet["y"] + sheet["height"] <= PHONE["height"] + 1, (
        sheet
    )
    expect(chooser.locator("h4").first).to_contain_text("PAR")
    chooser.locator(".targets button", has_text="Burgundy").tap()
    chooser.get_by_role("button", name="A PAR - BUR").tap()
    expect(page.locator("#order-list li", has_text="A PAR - BUR")).to_contain_text("✓ accepted")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_hex_wargame_names_its_counters_and_hexes(new_context: Any, api: httpx.Client) -> None:
    game_id, token = bots_but(api, "vernian_wwi", "Germany")
    page = open_seat(new_context(LAPTOP_SCREEN), game_id, "Germany", token)
    expect(page.locator("#phase")).to_have_text("Set-up")
    buttons = page.locator("#unit-buttons button")
    expect(buttons.first).to_be_visible()
    expect(page.locator("#powers thead")).to_contain_text("victory points")
    # The combat results table, one click away.
    table = page.locator("#help-links a", has_text="the combat results table")
    expect(table).to_have_attribute("href", "/rules/vernian_wwi#rules-vernian-play-combat")


@pytest.mark.parametrize("size", SIZES)
def test_a_player_sees_what_the_others_did_since_its_last_turn_with_the_dice_on_the_map(
    new_context: Any, api: httpx.Client, size: str
) -> None:
    seats = {f"P{k}": "bot:greedy" for k in range(2, 5)}
    r = api.post(
        "/api/games",
        json={"variant": "global_war", "seed": 4, "options": {"players": 4}, "seats": {"P1": "Ann", **seats}},
    )
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["P1"]
    auth = {"Authorization": f"Bearer {token}"}
    # P1's first turn by the API: each step's default (Ready with nothing), until the others play.
    for _ in range(20):
        view = api.get(f"/api/games/{game_id}").json()
        if not view["phase"].startswith("T1.P1."):
            break
        api.put(f"/api/games/{game_id}/ready", headers=auth, json={"phase": view["phase"], "value": True})
    page = open_seat(new_context(SIZES[size][0], touch=SIZES[size][1]), game_id, "P1", token)
    expect(page.locator("#phase")).to_have_attribute(
        "data-phase", re.compile(r"^T(?!1\.)\d+\.P1\."), timeout=LIVE_TIMEOUT
    )
    history = api.get(f"/api/games/{game_id}/history", params={"limit": 200}).json()  # all of it
    mine = max(
        k
        for k, record in enumerate(history)
        if record["orders"].get("P1") or any(x["power"] == "P1" for x in record["results"])
    )
    since = page.locator("#since-panel")
    expect(since).to_be_visible()
    expect(since.locator("#since-list > li")).to_have_count(len(history) - mine - 1)
    expect(since).to_contain_text("P2: ")
    # A phase with a battle, clicked: its map with the dice where the battle was.
    battle = next(
        (k, roll["at"])
        for k, record in enumerate(history)
        if k > mine
        for result in record["results"]
        for roll in result.get("dice", [])
    )
    since.locator(f'#since-list > li[data-index="{battle[0]}"] > button').click()
    expect(page.locator("#map")).to_have_attribute("data-phase", str(battle[0]))
    expect(page.locator(f'#map .dice-mark[data-at="{battle[1]}"]')).to_have_count(1)
    expect(page.locator(f'#map .dice-mark[data-at="{battle[1]}"] text')).to_have_text(
        re.compile(r"^⚅ [1-6]( [1-6])*")
    )


def test_units_are_bought_by_number_with_their_price_and_the_money_left(
    new_context: Any, api: httpx.Client
) -> None:
    game_id, token = bots_but(api, "aa_europe_1999", "GERMANY")
    page = open_seat(new_context(LAPTOP_SCREEN), game_id, "GERMANY", token)
    page.get_by_role("button", name=re.compile(r"^purchase: units to buy \(40 IPCs to spend\)")).click()
    infantry = page.locator(
        "#chooser .quantity", has=page.locator("label", has_text="infantry: how many (1–13)")
    )
    infantry.get_by_role("button", name="More: infantry").click()
    infantry.get_by_role("button", name="More: infantry").click()
    buy = infantry.locator(".order-choice")
    expect(buy).to_have_attribute("data-order", "buy 3 infantry")
    expect(buy).to_have_text("buy 3 infantry (3 IPCs each: 9 IPCs, 31 left)")
    buy.click()
    expect(page.locator("#order-list li", has_text="buy 3 infantry")).to_contain_text("✓ accepted")
    # The purse is spent: the next choices count what is left.
    page.get_by_role("button", name=re.compile(r"^purchase: units to buy \(31 IPCs to spend\)")).click()
    expect(page.locator("#chooser .quantity label", has_text="infantry: how many (1–10)")).to_have_count(1)


@pytest.mark.parametrize("size", SIZES)
def test_the_number_to_move_in_after_a_capture_is_offered_where_the_country_was_taken(
    new_context: Any, api: httpx.Client, size: str
) -> None:
    """Global War, P1 has just taken Kamchatka from Alaska: the choices open by themselves at
    Kamchatka with the numbers allowed, and the number clicked is moved in at once."""
    scenario = {
        "format": "interboard-scenario/1",
        "variant": "global_war",
        "options": {"players": 3},
        "seed": 5,
        "position": {
            "owner": {"P1": {"Alaska": 9, "Kamchatka": 0}, "P2": {"Yukon": 2}},
            "rest": ["P2", "P3", "P1"],
            "current": "P1",
            "phase": "move_in",
            "pending": {"from": "Alaska", "to": "Kamchatka", "minimum": 3, "maximum": 8},
        },
    }
    seats = {"P1": "Ann", "P2": "bot", "P3": "bot"}
    r = api.post("/api/games", json={"variant": "global_war", "scenario": scenario, "seats": seats})
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["P1"]
    page = open_seat(new_context(SIZES[size][0], touch=SIZES[size][1]), game_id, "P1", token)
    chooser = page.locator("#chooser")
    expect(chooser).to_be_visible()  # opened by itself: there is nothing else to do
    expect(chooser.locator("h4").first).to_contain_text("Kamchatka")
    number = chooser.locator(".quantity-number")
    expect(number).to_have_attribute("min", "3")
    expect(number).to_have_attribute("max", "8")
    number.fill("6")
    number.blur()
    move = chooser.locator(".order-choice")
    expect(move).to_have_attribute("data-order", re.compile(r"^move 6\b"))
    move.click()  # played at once: nothing else may follow a move-in
    expect(page.locator("#phase")).not_to_have_attribute(
        "data-phase", re.compile(r"move_in"), timeout=LIVE_TIMEOUT
    )
    position = api.get(f"/api/games/{game_id}").json()["position"]
    assert position["armies"]["KAM"] == 6 and position["armies"]["ALA"] == 3


def test_a_surrender_asks_once_more_before_it_is_given(new_context: Any, api: httpx.Client) -> None:
    seats = {"P1": "Ann", "P2": "bot", "P3": "bot"}
    r = api.post(
        "/api/games", json={"variant": "global_war", "seed": 5, "options": {"players": 3}, "seats": seats}
    )
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["P1"]
    page = open_seat(new_context(LAPTOP_SCREEN), game_id, "P1", token)
    page.locator('#unit-buttons button[data-loc="turn"]').click()
    chooser = page.locator("#chooser")
    chooser.locator('.order-choice[data-order="surrender to P2"]').click()
    expect(chooser.locator("h4")).to_have_text("Are you sure?")
    expect(chooser).to_contain_text(
        "Surrender to P2: your countries and armies pass to P2 and you leave the game."
    )
    chooser.get_by_role("button", name="No, go back").click()
    expect(page.locator("#order-list")).not_to_contain_text("surrender")
    chooser.locator('.order-choice[data-order="surrender to P2"]').click()
    chooser.get_by_role("button", name="Yes: surrender to P2").click()
    expect(page.locator("#order-list li", has_text="surrender to P2")).to_contain_text("✓ accepted")


def test_a_live_update_keeps_the_number_being_chosen(new_context: Any, api: httpx.Client) -> None:
    """The page is drawn again at every live update (here, another seat's message): the stepper
    keeps the number the player chose."""
    seats = {"GERMANY": "Ann", "USSR": "Bob", "UK": "bot", "USA": "bot"}
    r = api.post("/api/games", json={"variant": "aa_europe_1999", "seed": 3, "seats": seats, "press": "full"})
    assert r.status_code == 201, r.text
    game_id, tokens = r.json()["game_id"], r.json()["seat_tokens"]
    page = open_seat(new_context(LAPTOP_SCREEN), game_id, "GERMANY", tokens["GERMANY"])
    page.get_by_role("button", name=re.compile(r"^purchase: units to buy")).click()
    infantry = page.locator("#chooser .quantity", has=page.locator("label", has_text="infantry: how many"))
    infantry.get_by_role("button", name="More: infantry").click()
    infantry.get_by_role("button", name="More: infantry").click()
    expect(infantry.locator(".order-choice")).to_have_attribute("data-order", "buy 3 infantry")
    messages = page.locator("#messages")
    sent = api.post(
        f"/api/games/{game_id}/messages",
        headers={"Authorization": f"Bearer {tokens['USSR']}"},
        json={"to": None, "body": "Hello from Moscow"},
    )
    assert sent.status_code in (200, 201), sent.text
    expect(messages).to_contain_text("Hello from Moscow", timeout=LIVE_TIMEOUT)  # the page was redrawn
    expect(infantry.locator(".order-choice")).to_have_attribute("data-order", "buy 3 infantry")
    expect(infantry.locator(".quantity-number")).to_have_value("3")
