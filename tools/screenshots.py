"""Take the README's screenshots of the web UI: Debian's Chromium, driven by Playwright.

Starts ``interboard serve`` on a free loopback port over a temporary SQLite file, plays a few phases
through the HTTP API, and photographs a game page of each family at a laptop's 1366×768
(``NAME-laptop.png``) and on a 390×844 touch phone (``NAME-phone.png``) into ``docs/screenshots/``:

- ``standard``: a standard game in Fall 1901, France's orders entered, a unit's choices open;
- ``twin_earths_3``: Twin Earths III after the opening Winter's LINK orders: the links drawn;
- ``global_war``: Global War, P1 deploying, a country's choices open (the other seats bots);
- ``axis_allies``: Axis & Allies Europe, Germany's first combat move, Poland's moves open;
- ``vernian_wwi``: the Vernian WWI hex wargame, Germany's first movement, a stack's moves open.

Run by hand: ``.venv/bin/python tools/screenshots.py`` (needs ``apt-get install chromium`` and
``pip install playwright``).
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import httpx
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
SIZES = {"laptop": ({"width": 1366, "height": 768}, False), "phone": ({"width": 390, "height": 844}, True)}
"""Each picture's viewport, and whether it is a touch phone."""

STANDARD_SPRING = {
    "ENGLAND": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
    "FRANCE": ["A Par - Bur", "F Bre - Mao", "A Mar S A Par - Bur"],
    "GERMANY": ["A Mun - Bur", "F Kie - Den", "A Ber - Kie"],
    "ITALY": ["A Ven - Tyr", "F Nap - Ion", "A Rom - Ven"],
    "AUSTRIA": ["A Vie - Gal", "F Tri - Alb", "A Bud - Ser"],
    "RUSSIA": ["A War - Gal", "F Sev - Bla", "A Mos - Ukr", "F Stp/sc - Bot"],
    "TURKEY": ["F Ank - Bla", "A Con - Bul", "A Smy - Arm"],
}
STANDARD_FALL_FRANCE = ["A Bur - Mun", "F Mao - Spa/nc", "A Mar - Spa"]
# One LINK per power in the opening Winter (facts from tests/diplomacy/cases/twin_earths_3.txt).
TE3_LINKS = {
    "GERMANY-Y": "LINK Mun-Y Hol-Z",
    "FRANCE-Y": "LINK Mao-Y Mao-Z",
    "RUSSIA-Y": "LINK Bar-Y Bar-Z",
    "ENGLAND-Z": "LINK Nth-Z Nth-Y",
    "ITALY-Y": "LINK Naf-Y Gre-Z",
    "AUSTRIA-Z": "LINK Tun-Z Spa-Y",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Game:
    """A game every seat of which this script plays, through the API."""

    def __init__(self, api: httpx.Client, variant: str, title: str) -> None:
        variants = {v["id"]: v for v in api.get("/api/variants").json()}
        seats = {seat: seat.title() for seat in variants[variant]["seats"]}
        r = api.post("/api/games", json={"variant": variant, "title": title, "seats": seats})
        r.raise_for_status()
        self.api, self.id, self.tokens = api, r.json()["game_id"], r.json()["seat_tokens"]

    @property
    def phase(self) -> str:
        phase: str = self.api.get(f"/api/games/{self.id}").json()["phase"]
        return phase

    def order(self, seat: str, orders: list[str]) -> None:
        r = self.api.put(
            f"/api/games/{self.id}/orders",
            headers=auth(self.tokens[seat]),
            json={"phase": self.phase, "orders": orders},
        )
        if r.status_code != 200:
            raise SystemExit(f"{seat}'s orders {orders} were refused: {r.text}")

    def builds(self, seat: str) -> list[str]:
        """As many builds as the seat is due, one per site, armies where it can."""
        tree = self.api.get(f"/api/games/{self.id}/options", headers=auth(self.tokens[seat])).json()
        out = []
        for node in tree["orders"].values():
            kinds = node["build"]
            out.append(next(iter(kinds.get("A", kinds.get("F")).values())))
        return out[: max(tree["due"], 0)]

    def process(self) -> None:
        before = self.phase
        for token in self.tokens.values():
            self.api.put(
                f"/api/games/{self.id}/ready", headers=auth(token), json={"phase": before, "value": True}
            ).raise_for_status()
        if self.phase == before:
            raise SystemExit(f"{before} was not processed")


def shoot(page: Page, base: str, game: Game, seat: str, path: Path, typed: Sequence[str], place: str) -> None:
    """The seat's game page, with ``typed`` orders entered and ``place`` clicked (its choices open)."""
    page.add_init_script(
        f"if (location.protocol.startsWith('http')) "
        f"localStorage.setItem('interboard.seats.{game.id}', '{json.dumps({seat: game.tokens[seat]})}')"
    )
    page.goto(f"{base}/games/{game.id}?seat={seat}")
    page.locator("#map svg").wait_for()
    for text in typed:
        page.locator("#order-input").fill(text)
        page.locator("#order-input").press("Enter")
        page.locator("#order-list li", has_text=text).locator(".verdict.ok").wait_for()
    if place:
        page.locator(f'#unit-buttons button[data-loc="{place}"]').dispatch_event("click")
        page.locator("#chooser").wait_for()
    page.wait_for_timeout(400)
    page.screenshot(path=str(path))
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'shots.sqlite'}"
        log = (Path(tmp) / "server.log").open("wb")
        server = subprocess.Popen(
            [sys.executable, "-m", "interboard.cli.main", "serve", "--db", db, "--port", str(port),
             "--no-rate-limits"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            with httpx.Client(base_url=base, timeout=10) as api:
                for _ in range(300):
                    try:
                        if api.get("/api/variants").status_code == 200:
                            break
                    except httpx.HTTPError:
                        time.sleep(0.1)
                else:
                    raise SystemExit("the server did not start")
                games = make_games(api)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
                for name, (game, seat, typed, place) in games.items():
                    for size, (viewport, touch) in SIZES.items():
                        context = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
                        path = args.out / f"{name}-{size}.png"
                        shoot(context.new_page(), base, game, seat, path, typed, place)
                        context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
            log.close()


def with_bots(api: httpx.Client, variant: str, title: str, seat: str, bot: str) -> Game:
    """A game of ``variant`` whose seats but ``seat`` are played by the family's ``bot``."""
    variants = {v["id"]: v for v in api.get("/api/variants").json()}
    seats = {s: f"bot:{bot}" for s in variants[variant]["seats"]}
    seats[seat] = seat.title()
    r = api.post("/api/games", json={"variant": variant, "title": title, "seats": seats, "seed": 2})
    r.raise_for_status()
    game = Game.__new__(Game)
    game.api, game.id, game.tokens = api, r.json()["game_id"], r.json()["seat_tokens"]
    return game


def ready_until(game: Game, seat: str, phase: str) -> None:
    """Ready the seat's steps (each its default) until its phase's name holds ``phase``."""
    for _ in range(40):
        if phase in game.phase:
            return
        body = {"phase": game.phase, "value": True}
        game.api.put(f"/api/games/{game.id}/ready", headers=auth(game.tokens[seat]), json=body)
        time.sleep(0.3)
    raise SystemExit(f"{seat} never reached {phase} (at {game.phase})")


def first_place(game: Game, seat: str) -> str:
    """The first place of the seat's option tree."""
    tree = game.api.get(f"/api/games/{game.id}/options", headers=auth(game.tokens[seat])).json()
    return str(next(iter(tree["orders"])))


def make_games(api: httpx.Client) -> dict[str, tuple[Game, str, list[str], str]]:
    standard = Game(api, "standard", "A standard game")
    for seat, orders in STANDARD_SPRING.items():
        standard.order(seat, orders)
    standard.process()

    te3 = Game(api, "twin_earths_3", "Twin Earths III")
    for seat in te3.tokens:
        te3.order(seat, te3.builds(seat) + ([TE3_LINKS[seat]] if seat in TE3_LINKS else []))
    te3.process()

    war = with_bots(api, "global_war", "Global War", "P1", "greedy")
    aa = with_bots(api, "aa_europe_1999", "Axis & Allies Europe", "GERMANY", "calculator")
    ready_until(aa, "GERMANY", ".combat_move.")
    pacific = with_bots(api, "aa_pacific_2001", "Axis & Allies Pacific", "JAPAN", "calculator")
    ready_until(pacific, "JAPAN", ".combat_move.")
    world = with_bots(api, "aa_linked_world", "Axis & Allies: the linked world", "GERMANY", "calculator")
    ready_until(world, "GERMANY", ".combat_move.")
    hexes = with_bots(api, "vernian_wwi", "Vernian WWI", "Germany", "heuristic")
    ready_until(hexes, "Germany", ".movement.")
    stack, country = first_place(hexes, "Germany"), first_place(war, "P1")
    return {
        "standard": (standard, "FRANCE", STANDARD_FALL_FRANCE[:2], "MAR"),
        "twin_earths_3": (te3, "GERMANY-Y", [], ""),
        "global_war": (war, "P1", [], country),
        "axis_allies": (aa, "GERMANY", [], "POLAND"),
        "aa_pacific": (pacific, "JAPAN", [], "JAPAN"),
        "aa_linked_world": (world, "GERMANY", [], "GERMANY"),
        "vernian_wwi": (hexes, "Germany", [], stack),
    }


if __name__ == "__main__":
    main()
