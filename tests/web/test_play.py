"""The web UI in a real browser: Debian's Chromium, driven by Playwright, against a real server process.

A short standard game end to end (create in the lobby, seats joined from separate browser profiles,
orders by clicking on the map and by typing, validation beside each order, ready, the phase
processed live, results, history stepped with buttons and keys, phone width), and a Twin Earths III
Winter where a LINK order is typed and the link is drawn on the map afterwards.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import BrowserContext, Locator, Page, expect
from playwright.sync_api import Error as PlaywrightError

from .conftest import PHONE

LIVE_TIMEOUT = 15_000
"""Milliseconds for a page to show a change made elsewhere (the events stream polls twice a second)."""


def open_game(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    page.goto(url)
    # The first load (the view, the history, the seat's option tree) on a machine that may be busy.
    expect(page.locator("#phase")).to_have_attribute("data-phase", re.compile(r"\S"), timeout=LIVE_TIMEOUT)
    return page


def open_seat(context: BrowserContext, game_id: str, seat: str, token: str) -> Page:
    """The game page as the player of ``seat``, its token stored as joining would have stored it
    (not on about:blank, which has no storage)."""
    context.add_init_script(
        f"if (location.protocol.startsWith('http')) localStorage.setItem('interboard.seats.{game_id}',"
        f" JSON.stringify({{'{seat}': '{token}'}}))"
    )
    return open_game(context, f"/games/{game_id}")


def press_until(page: Page, button: Locator, done: Callable[[], bool], tries: int = 3) -> None:
    """Press Enter on ``button`` until ``done()``: a live update may redraw the page between
    Playwright's focus and its key press (a user would see the redraw and press again too)."""
    for _ in range(tries):
        if button.is_visible():
            button.press("Enter")
        page.wait_for_timeout(200)
        if done():
            return


def click_under(page: Page, selector: str, done: Callable[[], bool], tries: int = 3) -> None:
    """Click ``selector`` where a drawing (a unit, a drawn order, a link's line) lies over it, so
    Playwright's check that nothing covers it is skipped (``force``); until ``done()``, because a
    forced click does not wait out a live redraw of the map (a user would click again)."""
    for _ in range(tries):
        with contextlib.suppress(PlaywrightError):  # the map was being drawn again under the click
            page.locator(selector).click(force=True, timeout=5_000)
        page.wait_for_timeout(200)
        if done():
            return


MIDDLE_OF_LINE = """(selector) => {
  const path = document.querySelector(selector);
  const at = path.getPointAtLength(path.getTotalLength() / 2);
  const m = path.getScreenCTM();
  return {x: at.x * m.a + at.y * m.c + m.e, y: at.x * m.b + at.y * m.d + m.f};
}"""


def click_line(page: Page, selector: str, done: Callable[[], bool], tries: int = 3) -> None:
    """Click the middle of a drawn line (a path), as a player does: on the line itself, which a
    curve routed around the map's names seldom passes at its box's centre."""
    for _ in range(tries):
        with contextlib.suppress(PlaywrightError):  # the map was being drawn again
            at = page.evaluate(MIDDLE_OF_LINE, selector)
            page.mouse.click(at["x"], at["y"])
        page.wait_for_timeout(200)
        if done():
            return


def tap_place(page: Page, loc: str) -> None:
    """Click a place as a player does: on its hit area when it has one (a place that may be clicked
    now gets a round one of up to 44 px, over every drawing), else on the place itself."""
    places = f'#map .hits .hit[data-loc="{loc}"], #map g.space[data-loc="{loc}"]'
    page.locator(places).last.click()  # the hit area, drawn last, if any


def has_class(page: Page, selector: str, css: str) -> Callable[[], bool]:
    return lambda: css in (page.locator(selector).get_attribute("class") or "").split()


def orders_shown(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("#order-list .order-text").all_inner_texts()]


def click_order(page: Page, unit: str, target: str, order: str) -> None:
    """Click the unit on the map, then the target space, then the order among the choices."""
    tap_place(page, unit)
    tap_place(page, target)
    page.locator("#choice-box .orders button", has_text=re.compile(f"^{re.escape(order)}$")).click()
    expect(page.locator("#order-list li", has_text=order).locator(".verdict")).to_have_text("✓ accepted")


def deploy_by_clicking(page: Page, country: str, pool: int) -> str:
    """Deploy the whole pool on ``country`` by clicking it on the map, choosing the number (a
    stepper, for more than three) and the order; the order's text, once it is accepted."""
    tap_place(page, country)
    number = page.locator("#choice-box .quantity-number")
    if pool > 3:
        number.fill(str(pool))
        number.blur()  # the number is taken when it is left, as a user tabbing on would
    deploy = page.locator("#choice-box .order-choice", has_text=re.compile(rf"^deploy {pool} "))
    expect(deploy).to_have_count(1)
    text = deploy.inner_text()
    deploy.click()
    expect(page.locator("#order-list li", has_text=text)).to_contain_text("✓ accepted")
    return text


def type_order(page: Page, text: str) -> None:
    page.locator("#order-input").fill(text)
    page.locator("#order-input").press("Enter")


def test_a_standard_game_from_the_lobby_to_the_history(new_context: Any) -> None:
    # The game master creates the game in the lobby: three open seats, four bots.
    gm = new_context()
    lobby = gm.new_page()
    lobby.goto("/")
    expect(lobby.locator("#variant-standard")).to_be_checked()
    expect(lobby.locator("#variant-list")).to_contain_text("Twin Earths III")
    lobby.locator("#variant-twin_earths_3").check()  # its options appear, then back to standard
    expect(lobby.locator("#opt-cut_printed")).not_to_be_checked()
    expect(lobby.locator("#seat-kinds select")).to_have_count(14)
    lobby.locator("#variant-standard").check()
    expect(lobby.locator("#seat-kinds select")).to_have_count(7)
    lobby.locator("#game-title").fill("Browser test")
    expect(lobby.locator("#seat-AUSTRIA option")).to_have_text(
        ["you", "open", "bot: random", "bot: hold", "bot: heuristic", "empty (no orders)"]
    )
    # The creator would play AUSTRIA (the first seat); made a bot, it leaves the creator watching.
    expect(lobby.locator("#my-seat")).to_have_value("AUSTRIA")
    for seat in ("AUSTRIA", "ITALY", "RUSSIA", "TURKEY"):  # seats that order nothing keep the test exact
        lobby.locator(f"#seat-{seat}").select_option("bot")
    expect(lobby.locator("#my-seat")).to_have_value("")
    lobby.locator("#create-button").click()
    lobby.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    game_url = lobby.url
    expect(lobby.locator("#status")).to_have_text("forming")
    expect(lobby.locator("#gm-panel")).to_be_visible()

    # France joins from the lobby, in its own browser profile; Germany from the game page; the game
    # master takes England, the last open seat, which starts the game.
    france_ctx = new_context()
    france = france_ctx.new_page()
    france.goto("/")
    france.locator("#player-name").fill("Fran")
    france.locator(".game-entry", has_text="Browser test").get_by_role("button", name="Join FRANCE").click()
    france.wait_for_url(re.compile(r"\?seat=FRANCE$"))
    expect(france.locator("#seat-name")).to_have_text("France")
    germany = open_game(new_context(), game_url)
    germany.locator("#join-name").fill("Gerd")
    germany.get_by_role("button", name="Join as Germany").click()
    expect(germany.locator("#seat-name")).to_have_text("Germany")
    lobby.get_by_role("button", name="Join as England").click()
    england = lobby
    for page in (france, germany, england):
        expect(page.locator("#status")).to_have_text("active", timeout=LIVE_TIMEOUT)
        expect(page.locator("#phase")).to_have_attribute("data-phase", "S1901M")

    # Orders by clicking: unit, destination, order; the destinations are highlighted on the map.
    expect(france.locator("#map .unit")).to_have_count(22)
    tap_place(france, "PAR")
    expect(france.locator('#map g.space[data-loc="BUR"]')).to_have_class(re.compile(r"\btarget\b"))
    expect(france.locator('#map g.space[data-loc="MUN"]')).to_have_class(
        re.compile(r"\btarget\b")
    )  # supports
    expect(france.locator('#map g.space[data-loc="LON"]')).not_to_have_class(re.compile(r"\btarget\b"))
    france.locator("#choice-box").get_by_role("button", name="Cancel (Esc)").click()
    click_order(france, "PAR", "BUR", "A PAR - BUR")
    click_order(england, "LON", "NTH", "F LON - NTH")

    # Orders by typing: accepted ones are marked, a refused one says why beside it and nothing is
    # stored until it is removed.
    type_order(france, "F Bre - Mao")
    expect(france.locator("#order-list li", has_text="F Bre - Mao")).to_contain_text("✓ accepted")
    type_order(france, "A Mar - Mos")
    bad = france.locator("#order-list li", has_text="A Mar - Mos")
    expect(bad.locator(".verdict")).to_contain_text("cannot be reached")
    expect(france.locator("#orders-status")).to_contain_text("none was stored")
    bad.get_by_role("button", name="Remove A Mar - Mos").click()
    expect(france.locator("#orders-status")).to_have_text("Saved: 2 orders.")
    assert orders_shown(france) == ["A PAR - BUR", "F Bre - Mao"]
    type_order(germany, "A Mun - Bur; F Kie - Den")
    expect(germany.locator("#orders-status")).to_have_text("Saved: 2 orders.")
    # The keyboard path through the same choices: unit, destination and order are buttons.
    # A live update may redraw the list between Playwright's focus and its key press: press again
    # until the unit is shown as chosen (a user would see the redraw and press again too).
    # (The change notices of the page's own saves come within milliseconds, so each step may meet
    # a redraw.)
    a_ber = germany.get_by_role("button", name="A BER", exact=True)
    press_until(germany, a_ber, lambda: a_ber.get_attribute("aria-pressed") == "true")
    expect(a_ber).to_have_attribute("aria-pressed", "true")
    order = germany.get_by_role("button", name="A BER - KIE", exact=True)
    kie = germany.locator("#choice-box .targets").get_by_role("button", name="Kiel (KIE)", exact=True)
    press_until(germany, kie, order.is_visible)
    status = germany.locator("#orders-status")
    press_until(germany, order, lambda: status.text_content() == "Saved: 3 orders.")
    expect(status).to_have_text("Saved: 3 orders.")

    # Press: France writes to Germany alone; it appears on Germany's page, not on England's.
    france.locator("#press-to").select_option("GERMANY")
    france.locator("#press-body").fill("Bounce in Burgundy?")
    france.locator("#press-body").press("Enter")
    expect(france.locator("#press-status")).to_have_text("Sent.")
    expect(germany.locator("#messages")).to_contain_text("France → Germany", timeout=LIVE_TIMEOUT)
    expect(germany.locator("#messages")).to_contain_text("Bounce in Burgundy?")
    expect(england.locator("#messages")).to_have_text("No messages yet.")

    # The map shows the seat's own orders, and the public view who has ordered.
    expect(france.locator("#powers tr", has_text="GERMANY").locator("td").nth(3)).to_have_text(
        "✓", timeout=LIVE_TIMEOUT
    )

    # Everyone ready (Germany by keyboard): processed, and every page moves on by itself.
    france.get_by_role("button", name="Ready").click()
    expect(france.locator("#ready-button")).to_have_attribute("aria-pressed", "true")
    england.get_by_role("button", name="Ready").click()
    germany.locator("#ready-button").focus()
    germany.keyboard.press("Enter")
    for page in (france, germany, england):
        expect(page.locator("#phase")).to_have_attribute("data-phase", "F1901M", timeout=LIVE_TIMEOUT)
        expect(page.locator("#announce")).to_contain_text("now Fall 1901, movement")
    results = france.locator("#results li")
    expect(france.locator("#results-h")).to_have_text("Results of Spring 1901, movement")
    expect(results.filter(has_text="France: A PAR - BUR")).to_contain_text("bounced (MUN)")
    expect(results.filter(has_text="England: F LON - NTH")).to_contain_text("succeeds")
    expect(results.filter(has_text="Turkey: F ANK H")).to_contain_text("held (no order)")
    expect(france.locator('#map .unit[data-loc="MAO"]')).to_have_attribute("data-power", "FRANCE")
    expect(france.locator('#map .unit[data-loc="PAR"]')).to_have_count(1)
    assert orders_shown(france) == []

    # History: back to Spring 1901 (its map, with the units where they stood), and forward by key.
    france.get_by_role("button", name="Previous phase").click()
    expect(france.locator("#hist-label")).to_have_text(
        "Phase 1 of 1: Spring 1901, movement, orders and results"
    )
    expect(france.locator("#map")).to_have_attribute("data-phase", "0")
    expect(france.locator('#map .unit[data-loc="BRE"]')).to_have_attribute("data-power", "FRANCE")
    expect(france.locator('#map .unit[data-loc="MAO"]')).to_have_count(0)
    expect(france.locator("#results li").filter(has_text="Germany: F KIE - DEN")).to_contain_text("succeeds")
    france.locator("#hist-next").focus()
    france.keyboard.press("ArrowRight")
    expect(france.locator("#map")).to_have_attribute("data-phase", "current")
    expect(france.locator("#hist-label")).to_contain_text("Current position: Fall 1901, movement")

    # A phone: one column, the map scaled to the screen, nothing wider than it.
    phone = new_context(viewport=PHONE).new_page()
    phone.goto(game_url)
    expect(phone.locator("#map svg")).to_be_visible()
    widths = phone.evaluate(
        "() => [document.documentElement.scrollWidth, document.querySelector('#map svg')"
        ".getBoundingClientRect().width]"
    )
    assert widths[0] <= PHONE["width"], f"horizontal overflow at {PHONE['width']} px: {widths[0]} px"
    assert widths[1] <= PHONE["width"]
    phone.goto("/")
    expect(phone.locator("#variant-standard")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_twin_earths_3_link_is_ordered_and_drawn(new_context: Any, api: httpx.Client) -> None:
    te3 = next(v for v in api.get("/api/variants").json() if v["id"] == "twin_earths_3")
    seats = {seat: "bot" for seat in te3["seats"]}
    seats["GERMANY-Y"] = "Gerd"
    r = api.post(
        "/api/games",
        json={
            "variant": "twin_earths_3",
            "seats": seats,
            "title": "Links",
            "deadlines": {"adjustments": 3600},
        },
    )
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["GERMANY-Y"]

    page = open_seat(new_context(), game_id, "GERMANY-Y", token)
    expect(page.locator("#phase")).to_have_attribute("data-phase", "W1900A")
    expect(page.locator("#orders-help")).to_contain_text("Builds due: 3")
    expect(page.locator("#countdown")).to_have_text(re.compile(r"^(59:[0-5]\d|1 h 00 min) left$"))
    expect(page.locator("#map g.link")).to_have_count(0)

    # A build by clicking its site (an order without a destination); a LINK by clicking its two
    # ends, each among the places the rules allow (another power's homeland is never marked).
    tap_place(page, "MUN-Y")
    page.locator("#choice-box").get_by_role("button", name="A MUN-Y B").click()
    expect(page.locator("#order-list li", has_text="A MUN-Y B")).to_contain_text("✓ accepted")
    links = page.locator("#link-box")
    expect(links).to_contain_text("You may give 1 link order; 0 given.")
    links.get_by_role("button", name="Make a link").click()
    expect(page.locator('#map g.space[data-loc="MUN-Y"]')).to_have_class(re.compile(r"\btarget\b"))
    expect(page.locator('#map g.space[data-loc="PAR-Y"]')).not_to_have_class(re.compile(r"\btarget\b"))
    munich = '#map g.space[data-loc="MUN-Y"]'
    click_under(page, munich, has_class(page, munich, "selected"))  # where the new army is drawn
    expect(page.locator('#map g.space[data-loc="MUN-Y"]')).to_have_class(re.compile(r"\bselected\b"))
    expect(page.locator('#map g.space[data-loc="HOL-Z"]')).to_have_class(re.compile(r"\btarget\b"))
    # Munich's own twin is adjacent already: not a second end.
    expect(page.locator('#map g.space[data-loc="MUN-Z"]')).not_to_have_class(re.compile(r"\btarget\b"))
    tap_place(page, "HOL-Z")
    page.locator("#chooser").get_by_role("button", name="LINK MUN-Y HOL-Z").click()
    expect(page.locator("#order-list li", has_text="LINK MUN-Y HOL-Z")).to_contain_text("✓ accepted")
    expect(links).to_contain_text("1 given")
    page.get_by_role("button", name="Ready").click()

    expect(page.locator("#phase")).to_have_attribute("data-phase", "S1901M", timeout=LIVE_TIMEOUT)
    expect(page.locator("#results li").filter(has_text="LINK MUN-Y HOL-Z")).to_contain_text("succeeds")
    link = page.locator("#map g.link")
    expect(link).to_have_count(1)
    ends = {link.get_attribute("data-a"), link.get_attribute("data-b")}
    assert ends == {"MUN-Y", "HOL-Z"}, ends
    # Drawn in its maker's colour and named on hover; picking one of its ends lights it (and would
    # dim every other link), picking a place it does not touch lights none.
    expect(link).to_have_attribute("data-maker", "GERMANY-Y")  # once the new position's map is in
    expect(link.locator("title")).to_contain_text("made by Germany-Y")
    page.keyboard.press("Escape")  # the seat's one unit, picked by itself: nothing picked now
    expect(page.locator("#map")).not_to_have_class(re.compile(r"\blinks-focus\b"))
    tap_place(page, "MUN-Y")
    expect(page.locator("#map")).to_have_class(re.compile(r"\blinks-focus\b"))
    expect(link).to_have_class(re.compile(r"\blit\b"))
    page.keyboard.press("Escape")
    expect(page.locator("#map")).not_to_have_class(re.compile(r"\blinks-focus\b"))
    # The history's Winter map shows the link as made in that phase.
    page.get_by_role("button", name="Previous phase").click()
    expect(page.locator("#map")).to_have_attribute("data-phase", "0")
    expect(page.locator("#map g.link.new")).to_have_count(1)
    page.get_by_role("button", name="Current position").click()

    # A year on (units hold), the next Winter: the drawn link is clicked to destroy it.
    for phase in ("F1901M", "W1901A"):
        page.get_by_role("button", name="Ready").click()
        expect(page.locator("#phase")).to_have_attribute("data-phase", phase, timeout=LIVE_TIMEOUT)
    links.get_by_role("button", name="Destroy a link").click()
    drawn = page.locator('#map g.link[data-a="MUN-Y"]')
    expect(drawn).to_have_class(re.compile(r"\bpickable\b"))
    line = '#map g.link[data-a="MUN-Y"] .link-line'  # thin: a player clicks near it
    click_line(page, line, has_class(page, '#map g.link[data-a="MUN-Y"]', "chosen"))
    expect(drawn).to_have_class(re.compile(r"\bchosen\b"))
    page.locator("#chooser").get_by_role("button", name="DESTROY MUN-Y HOL-Z").click()
    expect(page.locator("#order-list li", has_text="DESTROY MUN-Y HOL-Z")).to_contain_text("✓ accepted")


def test_hyperspace_neighbours_are_separated_and_linked_from_the_lists(
    new_context: Any, api: httpx.Client
) -> None:
    seats = {seat: "bot" for seat in ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY")}
    r = api.post("/api/games", json={"variant": "hyperspace_2", "seats": {**seats, "FRANCE": "Fran"}})
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["FRANCE"]
    page = open_seat(new_context(), game_id, "FRANCE", token)
    links = page.locator("#link-box")
    expect(links).to_contain_text("You may give 1 order of each kind.")
    # SEPARATE cuts a printed adjacency: Paris, then its neighbour Burgundy.
    links.get_by_role("button", name="Separate two neighbours or destroy a link").click()
    paris = '#map g.space[data-loc="PAR"]'
    click_under(page, paris, has_class(page, paris, "selected"))  # under the army's counter
    expect(page.locator('#map g.space[data-loc="BUR"]')).to_have_class(re.compile(r"\btarget\b"))
    expect(page.locator('#map g.space[data-loc="MUN"]')).not_to_have_class(re.compile(r"\btarget\b"))
    tap_place(page, "BUR")
    page.locator("#chooser").get_by_role("button", name=re.compile(r"^DESTROY (BUR PAR|PAR BUR)$")).click()
    expect(page.locator("#order-list li", has_text="DESTROY")).to_contain_text("✓ accepted")
    # A LINK picked from the lists alone (the keyboard's way): Brest and Portugal.
    links.get_by_role("button", name="Make a link").click()
    page.locator("#chooser").get_by_label("First end").select_option("BRE")
    page.locator("#chooser").get_by_label("Second end").select_option("POR")
    page.locator("#chooser").get_by_role("button", name=re.compile(r"^LINK (BRE POR|POR BRE)$")).click()
    expect(page.locator("#order-list li", has_text="LINK")).to_contain_text("✓ accepted")
    assert len(orders_shown(page)) == 2


def test_a_global_war_step_is_played_by_clicking(new_context: Any, api: httpx.Client) -> None:
    """The same page plays the other family: the country clicked offers its actions from the tree."""
    r = api.post(
        "/api/games",
        json={
            "variant": "classic_world",
            "seed": 11,
            "options": {"players": 3},
            "seats": {"P1": "Ada", "P2": "bot:greedy", "P3": "bot:random"},
            "title": "World",
        },
    )
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["P1"]
    position = api.get(f"/api/games/{game_id}").json()["position"]
    mine = sorted(c for c, owner in position["owner"].items() if owner == "P1")
    country, pool = mine[0], position["pool"]
    before = position["armies"][country]

    page = open_seat(new_context(), game_id, "P1", token)
    expect(page.locator("#phase")).to_have_attribute("data-phase", "T1.P1.deploy.0")
    expect(page.locator("#map g.space")).to_have_count(42)
    text = deploy_by_clicking(page, country, pool)
    page.get_by_role("button", name="Ready").click()

    expect(page.locator("#phase")).to_have_attribute("data-phase", "T1.P1.attack.1", timeout=LIVE_TIMEOUT)
    badge = page.locator(f'#map [data-loc="{country}"] .badge, #map .badge[data-loc="{country}"]')
    expect(badge.first).to_have_text(str(before + pool))
    expect(page.locator("#results li").first).to_contain_text(text)
    expect(page.locator("#results li").first).to_contain_text(f"P1 deploys {pool} on ")


def test_a_vernian_operational_turn_is_played_by_clicking(new_context: Any, api: httpx.Client) -> None:
    """The hex wargame on the same page: both hex maps drawn with counters and the supply overlay;
    Germany readies through its phases, moves a stack by clicking its counter and a highlighted hex,
    and sees the odds of an attack before committing it, then its die; the Allies' player (another
    person) keeps the game waiting after Germany's steps, so the results shown are Germany's."""
    r = api.post(
        "/api/games",
        json={
            "variant": "vernian_wwi",
            "seed": 4,
            "seats": {"Germany": "Ada", "Allies": "Bea"},
            "title": "Verne",
        },
    )
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["Germany"]
    headers = {"Authorization": f"Bearer {token}"}

    page = open_seat(new_context(), game_id, "Germany", token)
    expect(page.locator("#map g.space[data-loc='W7005']")).to_have_count(1)
    expect(page.locator("#map g.space[data-loc='E0214']")).to_have_count(1)
    expect(page.locator("#map g.unit").first).to_have_attribute(
        "data-supply", re.compile("attack|defence|out")
    )

    # The Allies' player sets up (by the rules, through the API) and says no more.
    allies = {"Authorization": f"Bearer {r.json()['seat_tokens']['Allies']}"}
    setup = api.get(f"/api/games/{game_id}").json()["phase"]
    assert api.put(
        f"/api/games/{game_id}/ready", headers=allies, json={"phase": setup, "value": True}
    ).is_success

    # Ready through each German decision point of turn A1 until the movement phase.
    for _ in range(12):
        phase = page.locator("#phase").get_attribute("data-phase") or ""
        if ".movement." in phase:
            break
        page.get_by_role("button", name="Ready").click()
        expect(page.locator("#phase")).not_to_have_attribute("data-phase", phase, timeout=LIVE_TIMEOUT)
    phase = page.locator("#phase").get_attribute("data-phase") or ""
    assert phase.startswith("A1.Germany.movement."), phase

    # A move by clicking: the stack, then a hex among those highlighted, then the order.
    tree = api.get(f"/api/games/{game_id}/options", headers=headers).json()
    origin, moves = next((hid, units) for hid, units in sorted(tree["orders"].items()) if hid.startswith("W"))
    unit, destinations = sorted(moves.items())[0]
    target, order = sorted((t, o) for t, o in destinations.items() if t != "hold")[-1]
    tap_place(page, origin)
    expect(page.locator("#choice-box h4").first).to_contain_text(unit)
    expect(page.locator(f'#map g.space.target[data-loc="{target}"]')).to_have_count(1)
    tap_place(page, target)
    # The choice in players' words: the counter and the hex by name, with their codes.
    choice = page.locator(f'#choice-box .orders button[data-order="{order}"]')
    expect(choice).to_have_text(re.compile(rf"^Move German .*\({unit}\) to .*{target}"))
    choice.click()
    expect(page.locator("#order-list li", has_text=order).locator(".verdict")).to_have_text("✓ accepted")
    page.get_by_role("button", name="Ready").click()
    expect(page.locator("#phase")).not_to_have_attribute("data-phase", phase, timeout=LIVE_TIMEOUT)
    expect(page.locator(f'#map g.unit[data-loc="{target}"]')).to_have_count(1)
    expect(page.locator("#results li").filter(has_text=order).first).to_be_visible()

    # In a combat phase the attack buttons carry their odds, shown before anything is committed.
    odds_seen = ""
    for _ in range(12):
        phase = page.locator("#phase").get_attribute("data-phase") or ""
        tree = api.get(f"/api/games/{game_id}/options", headers=headers).json()
        if tree.get("notes"):
            attack, odds = sorted(tree["notes"].items())[0]
            home = next(h for h, targets in tree["orders"].items() if attack in targets.values())
            hexes = [h for h, text in tree["orders"][home].items() if text == attack]
            tap_place(page, home)  # the counter, drawn over its hex
            page.locator(f'#map [data-loc="{hexes[0]}"]').last.click()  # the defending counter
            button = page.locator(f'#choice-box .orders button[data-order="{attack}"]')
            expect(button).to_contain_text(odds)
            odds_seen = odds
            # Committed, the attack is resolved at once and its die is listed with the results.
            button.click()
            page.get_by_role("button", name="Ready").click()
            expect(page.locator("#phase")).not_to_have_attribute("data-phase", phase, timeout=LIVE_TIMEOUT)
            expect(page.locator("#results-h")).to_have_text(re.compile(r"^Results of \w+: combat, turn "))
            expect(page.locator("#results ul.dice li").filter(has_text=f"attack on {hexes[0]}")).to_have_text(
                re.compile(r": [1-6]$")
            )
            break
        if not phase.startswith(("A1.Germany", "A2.Germany", "A3.Germany")):
            break
        page.get_by_role("button", name="Ready").click()
        expect(page.locator("#phase")).not_to_have_attribute("data-phase", phase, timeout=LIVE_TIMEOUT)
    assert odds_seen, "no German attack was offered in the first turns"


def test_a_linked_axis_and_allies_turn_is_played_by_clicking(new_context: Any, api: httpx.Client) -> None:
    """The linked world game on the same page: both boards and the interboard cards drawn; the USSR
    makes its initial placement by clicking Moscow, then plays its round 1 turn by clicking: a
    purchase, a move (a stack, then a highlighted space), and the placement; the other powers are
    bots."""
    seats = {
        "GERMANY": "bot:random",
        "USSR": "Ada",
        "JAPAN": "bot:random",
        "UK": "bot:random",
        "USA": "bot:random",
    }
    r = api.post(
        "/api/games", json={"variant": "aa_linked_world", "seed": 2, "seats": seats, "title": "World"}
    )
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["USSR"]
    headers = {"Authorization": f"Bearer {token}"}
    page = open_seat(new_context(), game_id, "USSR", token)
    for card in ("NOVOSIBIRSK", "PANAMA_CANAL", "RED_SEA"):
        expect(page.locator(f"#map g.space[data-loc='{card}']")).to_have_count(1)
    expect(page.locator("#map g.link").first).to_be_attached()
    # Each power's unit value by round, charted from the start (income joins at the round's end).
    expect(page.locator('#charts figure[data-chart="unit value (IPCs)"] polyline')).to_have_count(6)

    def click_order(space: str, text: str) -> None:
        tap_place(page, space)
        page.locator("#choice-box .order-choice", has_text=re.compile(f"^{re.escape(text)}$")).click()
        expect(page.locator("#order-list li", has_text=text).locator(".verdict")).to_have_text("✓ accepted")

    def ready() -> None:
        phase = page.locator("#phase").get_attribute("data-phase") or ""
        page.get_by_role("button", name="Ready").click()
        expect(page.locator("#phase")).not_to_have_attribute("data-phase", phase, timeout=LIVE_TIMEOUT)

    # The initial placement: the USSR first, 18 IPCs.
    expect(page.locator("#phase")).to_have_attribute("data-phase", re.compile(re.escape(".USSR.setup.")))
    click_order("MOSCOW", "place 1 infantry at Moscow")
    click_order("MOSCOW", "place 1 armour at Moscow")
    ready()

    # Germany's turn (a bot) may ask the USSR for its casualties: it answers on the page.
    for _ in range(40):
        phase = page.locator("#phase").get_attribute("data-phase") or ""
        if phase.startswith("R1.USSR."):
            break
        tree = api.get(f"/api/games/{game_id}/options", headers=headers).json()
        if tree.get("orders", {}).get("battle"):
            board = page.get_by_role("button", name=re.compile("^Battle in "))
            expect(board).to_contain_text(" against ")  # the battle board: where, the round, both sides
            board.click()
            page.locator("#choice-box .order-choice").first.click()
            expect(page.locator("#order-list li .verdict").first).to_have_text("✓ accepted")
            ready()
        else:
            page.wait_for_timeout(500)
    expect(page.locator("#phase")).to_have_attribute("data-phase", re.compile(re.escape("R1.USSR.purchase")))

    # Round 1: buy by clicking the purchase group.
    page.get_by_role("button", name=re.compile("^purchase")).click()
    # Each unit by number (a stepper at one), with its price and the money left.
    buy = page.locator('#choice-box .order-choice[data-order="buy 1 infantry"]')
    expect(buy).to_contain_text(re.compile(r"3 IPCs each: 3 IPCs, \d+ left"))
    buy.click()
    expect(page.locator("#order-list li", has_text="buy 1 infantry").locator(".verdict")).to_have_text(
        "✓ accepted"
    )
    ready()
    while ".combat" in (page.locator("#phase").get_attribute("data-phase") or ""):
        ready()  # no attack this turn
    expect(page.locator("#phase")).to_have_attribute(
        "data-phase", re.compile(re.escape("R1.USSR.noncombat_move"))
    )

    # A move: the stack, then a space among those highlighted, then the order.
    tree = api.get(f"/api/games/{game_id}/options", headers=headers).json()
    origin, unit, target, kinds = next(
        (space, unit, target, kinds)
        for space, units in sorted(tree["orders"].items())
        for unit, targets in sorted(units.items())
        if isinstance(targets, dict)
        for target, kinds in sorted(targets.items())
        if isinstance(kinds, dict) and "move" in kinds and "SEA" not in target and not target.startswith("SZ")
    )
    # Several like units ready together are offered by number (a stepper that starts at one).
    move = kinds["move"] if isinstance(kinds["move"], str) else kinds["move"]["1"]
    tap_place(page, origin)
    expect(page.locator("#choice-box h4").first).to_contain_text(unit)  # the stack, opened
    expect(page.locator(f'#map g.space.target[data-loc="{target}"]')).to_have_count(1)
    tap_place(page, target)
    page.locator(f'#choice-box .orders button[data-order="{move}"]').click()
    expect(page.locator("#order-list li", has_text=move).locator(".verdict")).to_have_text("✓ accepted")
    # The tree follows the saved move: the stack it left is described without the unit moved.
    after = api.get(f"/api/games/{game_id}/options", headers=headers).json()
    assert after["labels"].get(origin) != tree["labels"][origin]
    ready()

    # The placement of what was bought, by clicking Moscow.
    expect(page.locator("#phase")).to_have_attribute("data-phase", re.compile(re.escape("R1.USSR.place")))
    click_order("MOSCOW", "place 1 infantry at Moscow")
    ready()
    expect(
        page.locator("#results li").filter(has_text="USSR places 1 infantry at Moscow").first
    ).to_be_visible()
    expect(
        page.locator("#results li").filter(has_text="Soviet Union:").filter(has_text="surrender dice")
    ).to_have_count(1)


def test_the_map_zooms_pans_and_draws_links_as_numbered_ends(new_context: Any, api: httpx.Client) -> None:
    te3 = next(v for v in api.get("/api/variants").json() if v["id"] == "twin_earths_3")
    r = api.post(
        "/api/games",
        json={"variant": "twin_earths_3", "seats": {**dict.fromkeys(te3["seats"], "bot"), "ITALY-Y": "Ida"}},
    )
    assert r.status_code == 201, r.text
    game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["ITALY-Y"]
    auth = {"Authorization": f"Bearer {token}"}
    orders = {"phase": "W1900A", "orders": ["A ROM-Y B", "LINK NAP-Y TUN-Z"]}
    assert api.put(f"/api/games/{game_id}/orders", json=orders, headers=auth).status_code == 200
    assert (
        api.put(
            f"/api/games/{game_id}/ready", json={"phase": "W1900A", "value": True}, headers=auth
        ).status_code
        == 200
    )

    page = open_seat(new_context(), game_id, "ITALY-Y", token)
    expect(page.locator("#phase")).to_have_attribute("data-phase", "S1901M")
    svg = page.locator("#map svg")
    whole = svg.get_attribute("viewBox")
    assert whole is not None
    width = float(whole.split()[2])
    # The links drawn as numbered ends: the lines hidden, a tag at each end instead.
    style = page.get_by_role("button", name="Links as numbered ends")
    expect(page.locator("#map .link-line").first).to_be_visible()
    style.click()
    expect(style).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#map .link-line").first).to_be_hidden()
    expect(page.locator("#map .link-tag")).to_have_count(2 * page.locator("#map g.link").count())
    expect(page.locator("#map .link-tag").first).to_be_visible()

    # Zoom in twice: the viewBox narrows; the whole map again with one button.
    page.get_by_role("button", name="Zoom in").click()
    page.get_by_role("button", name="Zoom in").click()
    zoomed = [float(v) for v in (svg.get_attribute("viewBox") or "").split()]
    assert abs(zoomed[2] - width / 2.25) < 1, (zoomed, width)
    # A drag moves the view and is not taken for a click on the map.
    page.keyboard.press("Escape")  # a seat with one unit finds its choices open: closed first
    expect(page.locator("#choice-box h4")).to_have_count(0)
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 120, box["y"] + box["height"] / 2 - 60, steps=5)
    page.mouse.up()
    moved = [float(v) for v in (svg.get_attribute("viewBox") or "").split()]
    assert moved[0] > zoomed[0] and moved[1] > zoomed[1] and moved[2] == zoomed[2], (zoomed, moved)
    expect(page.locator("#choice-box h4")).to_have_count(0)
    # A click on a unit still orders it on the zoomed map, and the view stays after the redraw.
    page.get_by_role("button", name="Whole map").click()
    assert svg.get_attribute("viewBox") == whole
    page.get_by_role("button", name="Zoom in").click()
    drawn = svg.element_handle()
    board_z = page.get_by_role("button", name="Board Z").element_handle()
    page.locator("#unit-buttons").get_by_role("button", name=re.compile("ROM-Y")).click()
    page.locator("#choice-box").get_by_role("button", name="A ROM-Y H").click()
    expect(page.locator("#order-list li", has_text="A ROM-Y H")).to_contain_text("✓ accepted")
    page.wait_for_function("svg => !svg.isConnected", arg=drawn)  # the map drawn again
    assert float((page.locator("#map svg").get_attribute("viewBox") or "").split()[2]) < width
    # The redraw kept the board buttons (one replaced mid-click would lose the click).
    assert board_z.evaluate("button => button.isConnected")
    # One board fills the view (on a phone, the map's two boards side by side are too small).
    page.get_by_role("button", name="Board Z").click()
    z_box = [float(v) for v in (page.locator("#map svg").get_attribute("viewBox") or "").split()]
    assert z_box[2] < width * 0.6 and z_box[0] > width * 0.4, (z_box, width)
