"""Accounts in a real browser: sign up in the lobby, take a seat, lose the browser's storage and
cookies, sign in again in a fresh profile and play the seat again from "My games"; the banner when
the phase is processed."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .test_play import LIVE_TIMEOUT, type_order

PASSWORD = "a long enough password"


def test_a_seat_is_got_back_after_the_browser_forgot_it(new_context: Any) -> None:
    first = new_context()
    lobby = first.new_page()
    lobby.goto("/")
    expect(lobby.locator("#account-status")).to_have_text("Sign in")
    lobby.locator("#sign-up-name").fill("Annika")
    lobby.locator("#sign-up-password").fill(PASSWORD)
    lobby.locator("#sign-up-button").click()
    expect(lobby.locator("#account-name")).to_have_text("Annika")
    expect(lobby.locator("#account-status")).to_have_text("Signed in as Annika")
    expect(lobby.locator("#my-games")).to_contain_text("No seats yet")

    # A game whose other seats give no orders; Annika watches at first, then joins Austria from the
    # lobby, which starts it.
    lobby.locator("#game-title").fill("Remembered")
    lobby.locator("#my-seat").select_option("")
    for seat in ("ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        lobby.locator(f"#seat-{seat}").select_option("bot")
    lobby.locator("#create-button").click()
    lobby.wait_for_url(re.compile(r"/games/[0-9a-f]+$"))
    game_id = lobby.url.rsplit("/", 1)[1]
    expect(lobby.locator("#account-status")).to_have_text("Signed in as Annika")  # the game page's header
    lobby.goto("/")
    lobby.locator(".game-entry", has_text="Remembered").get_by_role("button", name="Join AUSTRIA").click()
    lobby.wait_for_url(re.compile(r"\?seat=AUSTRIA$"))
    expect(lobby.locator("#seat-name")).to_have_text("Austria")
    expect(lobby.locator("#status")).to_have_text("active", timeout=LIVE_TIMEOUT)
    old_token = lobby.evaluate(f"JSON.parse(localStorage.getItem('interboard.seats.{game_id}')).AUSTRIA")

    # Another profile: no storage, no cookies. Signed out, then signed in: the game is listed.
    second = new_context()
    page = second.new_page()
    page.goto("/")
    expect(page.locator("#account-status")).to_have_text("Sign in")
    page.locator("#sign-in-name").fill("annika")  # case is not told apart
    page.locator("#sign-in-password").fill("not it")
    page.locator("#sign-in-button").click()
    expect(page.locator("#account-message")).to_have_text("Not signed in: wrong name or password")
    page.locator("#sign-in-password").fill(PASSWORD)
    page.locator("#sign-in-button").click()
    expect(page.locator("#signed-out")).to_be_hidden()  # the sign-in and sign-up forms go
    entry = page.locator(f'.my-game[data-game-id="{game_id}"]')
    expect(entry).to_contain_text("Remembered")
    expect(entry).to_contain_text("active")
    entry.get_by_role("button", name="Play AUSTRIA").click()

    # The seat is played again: an order is accepted and stored.
    page.wait_for_url(re.compile(r"\?seat=AUSTRIA$"))
    expect(page.locator("#seat-name")).to_have_text("Austria")
    type_order(page, "A Vie - Gal")
    expect(page.locator("#order-list li", has_text="A Vie - Gal")).to_contain_text("✓ accepted")
    expect(page.locator("#orders-status")).to_have_text("Saved: 1 order.")
    # Ready: the other seats give no orders, so the phase is processed, and a banner says so.
    expect(page.locator("#phase-banner")).to_be_hidden()
    page.locator("#ready-button").click()
    expect(page.locator("#phase")).to_have_attribute("data-phase", "F1901M", timeout=LIVE_TIMEOUT)
    expect(page.locator("#phase-banner")).to_be_visible()
    expect(page.locator("#phase-banner-text")).to_have_text("Phase processed: now Fall 1901, movement.")
    page.locator("#phase-banner-close").click()
    expect(page.locator("#phase-banner")).to_be_hidden()
    new_token = page.evaluate(f"JSON.parse(localStorage.getItem('interboard.seats.{game_id}')).AUSTRIA")
    assert new_token != old_token

    # The password changed in the lobby (the current one asked again); then signing out.
    page.goto("/")
    page.get_by_text("Change the password").click()
    page.locator("#password-current").fill(PASSWORD)
    page.locator("#password-new").fill("another long secret")
    page.get_by_role("button", name="Save the new password").click()
    # The first browser's session (signed up there, never signed out) ends.
    expect(page.locator("#account-message")).to_have_text("Password changed; 1 other session signed out.")
    page.locator("#sign-out").click()
    expect(page.locator("#account-status")).to_have_text("Sign in")
    expect(page.locator("#signed-out")).to_be_visible()

    # The account deleted from the lobby, its password asked again: Austria passes to a bot.
    page.locator("#sign-in-name").fill("Annika")
    page.locator("#sign-in-password").fill("another long secret")
    page.locator("#sign-in-button").click()
    expect(page.locator("#account-name")).to_have_text("Annika")
    page.get_by_text("Delete the account").click()
    page.locator("#delete-password").fill("not it")
    page.get_by_role("button", name="Delete my account").click()
    expect(page.locator("#account-message")).to_have_text("Not deleted: the current password is wrong")
    page.locator("#delete-password").fill("another long secret")
    page.get_by_role("button", name="Delete my account").click()
    expect(page.locator("#account-message")).to_have_text("Account deleted; 1 seat left in games not over.")
    expect(page.locator("#signed-out")).to_be_visible()
    expect(page.locator("#account-status")).to_have_text("Sign in")
    page.locator("#sign-in-name").fill("Annika")
    page.locator("#sign-in-password").fill("another long secret")
    page.locator("#sign-in-button").click()
    expect(page.locator("#account-message")).to_have_text("Not signed in: wrong name or password")
