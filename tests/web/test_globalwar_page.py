"""Global War on the game page, as a new player sees it: the lobby's options as choices, the world
map with its legend, the prompt that says how many armies to deploy, the players and teams with
what each holds, and a deploy made by clicking a country on the map."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect

from .test_play import LIVE_TIMEOUT, deploy_by_clicking, open_seat, tap_place


def test_the_lobby_offers_global_war_options_as_choices(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.locator("#variant-global_war").check()
    players = page.locator("#opt-players")
    expect(players).to_have_attribute("type", "number")
    expect(players).to_have_value("6")
    expect(players).to_have_attribute("min", "3")
    expect(players).to_have_attribute("max", "6")
    fortification = page.locator("select#opt-fortification")
    expect(fortification.locator("option")).to_have_text(["limited", "unlimited", "connected"])
    expect(fortification).to_have_value("limited")
    expect(page.locator("#variant-options")).to_contain_text("one move along a chain of your own countries")
    expect(page.locator("#opt-teams")).to_have_attribute("type", "checkbox")


def test_a_team_game_explains_the_deploy_and_is_played_on_the_world_map(
    new_context: Any, api: httpx.Client
) -> None:
    seats = {"P1": "Ada", **{f"P{k}": "bot:greedy" for k in range(2, 7)}}
    r = api.post(
        "/api/games",
        json={
            "variant": "global_war",
            "seed": 5,
            "options": {"teams": True},
            "seats": seats,
            "title": "Teams",
        },
    )
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["P1"]
    position = api.get(f"/api/games/{game_id}").json()["position"]
    pool = position["pool"]
    mine = sorted(c for c, owner in position["owner"].items() if owner == "P1")
    country = mine[0]
    before = position["armies"][country]

    page = open_seat(new_context(), game_id, "P1", token)
    expect(page.locator("#phase")).to_have_attribute("data-phase", "T1.P1.deploy.0")
    # The step in the family's words: how many armies, where to click.
    help_text = page.locator("#orders-help")
    expect(help_text).to_contain_text(f"Turn 1, P1: deploy {pool} armies: click one of your countries")
    expect(help_text).to_contain_text("partner P4")
    expect(page.locator("#order-list")).to_contain_text("No actions yet.")
    expect(page.locator("#order-list")).not_to_contain_text("units hold")
    expect(page.locator("#order-input")).to_have_attribute("placeholder", re.compile(r"^deploy \d+ \S"))
    # The world map: 42 countries, the sea lines, the legend of the teams with what each holds.
    expect(page.locator("#map g.space.outlined")).to_have_count(42)
    expect(page.locator('#map g.sea-line[data-a="ALA"][data-b="KAM"]')).to_have_count(1)
    expect(page.locator("#map .legend-team")).to_have_count(3)
    expect(page.locator("#map .legend-team").first).to_contain_text(f"P1: {len(mine)} countries")
    expect(page.locator(f'#map g.space[data-loc="{country}"] > title')).to_have_text(
        re.compile(r": P1, \d+ arm")
    )
    # The powers table: a team column and counts per seat, from the view; P1 is to play.
    table = page.locator("#powers table")
    expect(table.locator("thead th")).to_have_text(
        ["seat", "player", "team", "countries", "armies", "cards", "ordered", "ready"]
    )
    row = table.locator("tbody tr", has_text="Ada")
    expect(row.locator("th")).to_contain_text("to play")
    team_countries = sum(1 for owner in position["owner"].values() if owner in ("P1", "P4"))
    expect(row.locator("td.team")).to_have_text(re.compile(rf"^Team 1: {team_countries} countries, "))
    expect(row.locator('td[data-count="countries"]')).to_have_text(str(len(mine)))
    # The swatches take the map's colours (the legend's, even for seats that hold little).
    expect(table.locator('.swatch[data-power="P4"]')).to_have_css("background-color", "rgb(240, 138, 143)")

    # Deploy every army by clicking the country on the map.
    deploy_by_clicking(page, country, pool)
    page.get_by_role("button", name="Ready").click()
    expect(page.locator("#phase")).to_have_attribute("data-phase", "T1.P1.attack.1", timeout=LIVE_TIMEOUT)
    expect(page.locator(f'#map [data-loc="{country}"] .badge').first).to_have_text(str(before + pool))
    expect(help_text).to_contain_text("P1: attack: click one of your countries with 2 or more armies")


def test_an_attack_is_one_click_and_the_bots_whole_turns_pass_at_once(
    new_context: Any, api: httpx.Client
) -> None:
    r = api.post(
        "/api/games",
        json={
            "variant": "classic_world",
            "seed": 11,
            "options": {"players": 3},
            "seats": {"P1": "Ada", "P2": "bot:greedy", "P3": "bot:greedy"},
        },
    )
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["P1"]
    auth = {"Authorization": f"Bearer {token}"}
    page = open_seat(new_context(), game_id, "P1", token)
    expect(page.locator("#phase")).to_have_attribute("data-phase", "T1.P1.deploy.0")
    tree = api.get(f"/api/games/{game_id}/options", headers=auth).json()
    country, choices = next((c, node) for c, node in tree["orders"].items() if "deploy" in node)
    pool = max(choices["deploy"], key=int)
    deploy_by_clicking(page, country, int(pool))
    page.get_by_role("button", name="Ready").click()
    expect(page.locator("#phase")).to_have_attribute("data-phase", "T1.P1.attack.1", timeout=LIVE_TIMEOUT)

    # An attack is sent with its click: no Ready between the choice and the dice.
    tree = api.get(f"/api/games/{game_id}/options", headers=auth).json()
    source, node = next((c, n) for c, n in tree["orders"].items() if "attack" in n)
    target, by_dice = next(iter(node["attack"].items()))
    attack = by_dice[max(by_dice, key=int)]
    assert attack in tree["play_at_once"]
    tap_place(page, source)
    tap_place(page, target)
    page.locator("#choice-box .order-choice", has_text=attack).click()
    expect(page.locator("#results li", has_text=attack)).to_have_count(1, timeout=LIVE_TIMEOUT)
    expect(page.locator("#phase")).not_to_have_attribute("data-phase", "T1.P1.attack.1")

    # The turn ended by clicking (the turn's own actions are under its button): the two bots'
    # whole turns are played at once, and the page is back to P1's next deploy.
    end_turn = "end turn"
    while (page.locator("#phase").get_attribute("data-phase") or "").startswith("T1.P1"):
        step = api.get(f"/api/games/{game_id}/options", headers=auth).json()
        actions = step["orders"].get("turn", {})
        text = (
            actions.get("end_turn")
            or actions.get("end_attack")
            or next(iter(actions.get("move", {}).values()))
        )
        assert text in step["play_at_once"]
        before = page.locator("#phase").get_attribute("data-phase") or ""
        page.locator("#unit-buttons").get_by_role("button", name="Turn (cards, end, surrender)").click()
        page.locator("#choice-box .order-choice", has_text=text).click()
        expect(page.locator("#phase")).not_to_have_attribute("data-phase", before, timeout=LIVE_TIMEOUT)
        end_turn = text
    assert end_turn.startswith("end turn")
    expect(page.locator("#phase")).to_have_attribute(
        "data-phase", re.compile(r"^T4\.P1\.deploy\."), timeout=LIVE_TIMEOUT
    )  # T: turns played
    history = api.get(f"/api/games/{game_id}/history", params={"limit": 200}).json()  # all of it
    assert {"P2", "P3"} <= {r["power"] for phase in history for r in phase["results"]}
