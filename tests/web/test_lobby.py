"""The lobby in a real browser: a game created with the creator in a seat and bots in every other,
landing on the game page as that seat; the families by the names players know; the account's forms
gone once signed in, back once signed out; the e-mail notices offered only by a server that sends
e-mail.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.service.test_server_process import NO_LIMITS, Server, free_port

from .conftest import LAPTOP
from .test_play import LIVE_TIMEOUT

PASSWORD = "a long enough password"


@pytest.mark.parametrize(
    ("variant", "mine", "bot", "shown"),
    [
        ("standard", "FRANCE", "bot:heuristic", "France"),
        ("aa_europe_1999", "USSR", "bot:calculator", "Soviet Union"),  # the seat as players name it
    ],
)
def test_the_creator_plays_a_seat_with_bots_in_every_other(
    new_context: Any, api: httpx.Client, variant: str, mine: str, bot: str, shown: str
) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.locator(f"#variant-{variant}").check()
    seats = page.locator("#seat-kinds select")
    first = seats.first.get_attribute("data-seat")
    # By default the creator plays the first seat; chosen in "Your seat", the choice moves there.
    expect(page.locator("#my-seat")).to_have_value(first or "")
    expect(page.locator(f"#seat-{first}")).to_have_value("you")
    page.get_by_label("Your seat").select_option(mine)
    expect(page.locator(f"#seat-{mine}")).to_have_value("you")
    expect(page.locator(f"#seat-{first}")).to_have_value("open")
    page.get_by_label("Your name in the game").fill("Ann")
    page.get_by_role("button", name="Bots in every other seat").click()
    for seat in seats.all():
        expect(seat).to_have_value("you" if seat.get_attribute("data-seat") == mine else bot)
    expect(page.locator("#create-status")).to_have_text(f"Every seat but {mine}: bot {bot[4:]}.")
    page.locator("#game-title").fill(f"Bots and {mine}")
    page.locator("#create-button").click()

    # On the game page as that seat, with its orders; the seat's and the game master's tokens kept.
    page.wait_for_url(re.compile(rf"/games/[0-9a-f]+\?seat={mine}$"))
    game_id = page.url.split("/games/", 1)[1].split("?", 1)[0]
    expect(page.locator("#seat-name")).to_have_text(shown)
    expect(page.locator("#orders-panel")).to_be_visible()
    expect(page.locator("#status")).to_have_text("active", timeout=LIVE_TIMEOUT)
    kept = page.evaluate(
        f"[localStorage.getItem('interboard.gm.{game_id}'),"
        f" JSON.parse(localStorage.getItem('interboard.seats.{game_id}'))]"
    )
    assert kept[0] and set(kept[1]) == {mine}
    view = api.get(f"/api/games/{game_id}").json()
    assert view["title"] == f"Bots and {mine}"
    assert {s["seat"]: (s["kind"], s["player"]) for s in view["seats"]} == {
        s["seat"]: ("player", "Ann") if s["seat"] == mine else ("bot", bot[4:]) for s in view["seats"]
    }
    seat = api.get(f"/api/games/{game_id}/seat", headers={"Authorization": f"Bearer {kept[1][mine]}"})
    assert seat.json()["seat"]["seat"] == mine


def test_the_creator_may_only_watch(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.locator("#variant-global_war").check()
    page.get_by_label("Your seat").select_option("")  # none: watch only
    expect(page.locator("#seat-P1")).to_have_value("open")
    expect(page.get_by_label("Your name in the game")).to_be_hidden()
    page.locator("#seat-P2").select_option("you")  # a seat's own list takes the seat too
    expect(page.locator("#my-seat")).to_have_value("P2")
    page.locator("#seat-P2").select_option("open")  # and gives it up
    expect(page.locator("#my-seat")).to_have_value("")
    page.get_by_role("button", name="Bots in every other seat").click()
    expect(page.locator("#seat-P1")).to_have_value("bot:greedy")
    page.locator("#create-button").click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    expect(page.locator("#seat-name")).to_have_text("spectator")


def test_the_families_go_by_the_names_players_know(new_context: Any, api: httpx.Client) -> None:
    r = api.post("/api/games", json={"variant": "aa_pacific_2001", "title": "Named"})
    assert r.status_code == 201, r.text
    r = api.post("/api/games", json={"variant": "twin_earths_1", "title": "Twins"})
    assert r.status_code == 201, r.text
    page = new_context().new_page()
    page.goto("/")
    headings = page.locator("#variant-list .family h3")
    expect(headings).to_have_text(["Diplomacy", "Global War", "Axis & Allies", "Hex-and-counter wargames"])
    games = page.locator(".game-entry")
    expect(games.filter(has_text="Named")).to_contain_text("Axis & Allies Pacific (2001) · forming")
    expect(games.filter(has_text="Twins")).to_contain_text("Diplomacy: Twin Earths I")
    text = page.locator("main").inner_text()
    for family_id in ("axis_allies", "globalwar", "hexwar", "aa_pacific_2001"):
        assert family_id not in text


def sign_up(page: Page, name: str) -> None:
    page.locator("#sign-up-name").fill(name)
    page.locator("#sign-up-password").fill(PASSWORD)
    page.locator("#sign-up-button").click()
    expect(page.locator("#account-name")).to_have_text(name)


def test_the_sign_in_forms_go_once_signed_in_and_come_back_once_signed_out(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    expect(page.locator("#sign-in-form")).to_be_visible()
    expect(page.locator("#sign-up-form")).to_be_visible()
    expect(page.locator("#signed-in")).to_be_hidden()
    sign_up(page, "Forms")
    for form in ("#sign-in-form", "#sign-up-form"):
        expect(page.locator(form)).to_be_hidden()
    expect(page.locator("#signed-in")).to_contain_text("Signed in as Forms.")
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    page.reload()  # already signed in when the page loads
    expect(page.locator("#account-name")).to_have_text("Forms")
    expect(page.locator("#sign-in-form")).to_be_hidden()
    page.get_by_role("button", name="Sign out").click()
    expect(page.locator("#account-message")).to_have_text("Signed out.")
    expect(page.locator("#sign-in-form")).to_be_visible()
    expect(page.locator("#sign-up-form")).to_be_visible()
    expect(page.locator("#signed-in")).to_be_hidden()
    page.locator("#sign-in-name").fill("forms")
    page.locator("#sign-in-password").fill(PASSWORD)
    page.locator("#sign-in-button").click()
    expect(page.locator("#account-message")).to_have_text("Signed in as Forms.")
    expect(page.locator("#sign-up-form")).to_be_hidden()


def test_a_server_that_sends_no_mail_offers_no_notices(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    expect(page.locator("#no-mail")).to_have_text("This server sends no e-mail, so it sends no notices.")
    expect(page.locator("#sign-up-email-hint")).to_have_text("optional; this server sends no e-mail")
    sign_up(page, "Quiet")
    expect(page.locator("#account-notices")).to_be_hidden()
    expect(page.locator("#no-mail")).to_be_visible()
    page.locator("#account-email").fill("quiet@example.org")
    page.locator("#account-save").click()
    expect(page.locator("#account-message")).to_have_text("Saved.")


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server started with an SMTP server (nobody listens there: nothing is sent in the test)."""
    tmp: Path = tmp_path_factory.mktemp("web-mail")
    args = (*NO_LIMITS, "--smtp-host", "127.0.0.1", "--smtp-port", str(free_port()))
    srv = Server(f"sqlite:///{tmp / 'web.sqlite'}", sweep=0.2, log=tmp / "server.log", args=args)
    try:
        yield srv.wait_ready()
    finally:
        srv.stop()


def test_a_server_that_sends_mail_offers_the_notices(browser: Browser, mail_server: Server) -> None:
    context = browser.new_context(viewport=LAPTOP, base_url=mail_server.url)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.locator("#sign-up-email-hint")).to_have_text("optional, for notices")
        expect(page.locator("#no-mail")).to_be_hidden()
        sign_up(page, "Told")
        expect(page.locator("#account-notices")).to_be_visible()
        expect(page.locator("#account-notices")).to_be_checked()
        page.locator("#account-notices").uncheck()
        page.locator("#account-save").click()
        expect(page.locator("#account-message")).to_have_text("Saved.")
        page.reload()
        expect(page.locator("#account-notices")).not_to_be_checked()
        # An address given is unconfirmed until the link mailed to it is followed: the page says so.
        expect(page.locator("#email-status")).to_be_hidden()
        page.locator("#account-email").fill("told@example.org")
        page.locator("#account-save").click()
        expect(page.locator("#account-message")).to_have_text("Saved.")
        expect(page.locator("#email-status")).to_have_text(
            "Not confirmed yet: follow the link in the message sent to told@example.org. Notices start then."
        )
        expect(page.get_by_role("button", name="Send the confirmation again")).to_be_visible()
    finally:
        context.close()


@pytest.fixture(scope="module")
def examples_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server offering the example variant files (``--variants docs/examples``)."""
    tmp: Path = tmp_path_factory.mktemp("web-variants")
    examples = Path(__file__).parents[2] / "docs" / "examples"
    args = (*NO_LIMITS, "--variants", str(examples))
    srv = Server(f"sqlite:///{tmp / 'web.sqlite'}", sweep=0.2, log=tmp / "server.log", args=args)
    try:
        yield srv.wait_ready()
    finally:
        srv.stop()


def test_a_variant_file_the_server_offers_is_played_from_the_lobby(
    browser: Browser, examples_server: Server
) -> None:
    """A designer's file, served with ``--variants``, is in the lobby beside the built-ins, and a
    game of it is made and opened there like any other."""
    context = browser.new_context(viewport=LAPTOP, base_url=examples_server.url)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        page.goto("/")
        page.locator("#variant-channel_earths").check()
        page.get_by_label("Your seat").select_option("ENGLAND-N")
        page.get_by_label("Your name in the game").fill("Ann")
        page.get_by_role("button", name="Bots in every other seat").click()
        page.locator("#create-button").click()
        page.wait_for_url(re.compile(r"/games/[0-9a-f]+\?seat=ENGLAND-N$"))
        expect(page.locator("#status")).to_have_text("active", timeout=LIVE_TIMEOUT)
        expect(page.locator("#orders-panel")).to_be_visible()
        expect(page.locator("#map svg")).to_contain_text("Fixed link: London (board N) - Paris (board S)")
    finally:
        context.close()
