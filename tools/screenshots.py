"""Take the README's screenshots of the web UI: Debian's Chromium, driven by Playwright.

Starts ``interboard serve`` on a free loopback port over a temporary SQLite file, plays a few phases
through the HTTP API, and photographs the game pages at laptop width into ``docs/screenshots/``:

- ``standard.png``: a standard game in Fall 1901, France's orders being entered, Spring's results;
- ``twin_earths_1.png``: Twin Earths I after its opening Winter builds (two boards, every space
  joined to its twin);
- ``twin_earths_3.png``: Twin Earths III after the opening Winter's LINK orders: the links drawn.

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
VIEWPORT = {"width": 1366, "height": 900}
TALL = {"width": 1366, "height": 1000}
"""Two boards side by side take the page's width, with the orders below them."""

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
                f"/api/games/{self.id}/ready", headers=auth(token), json={"value": True}
            ).raise_for_status()
        if self.phase == before:
            raise SystemExit(f"{before} was not processed")


def shoot(page: Page, base: str, game: Game, seat: str, path: Path, typed: Sequence[str] = ()) -> None:
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
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    print(f"wrote {path.relative_to(ROOT)}")


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
            [sys.executable, "-m", "interboard.cli.main", "serve", "--db", db, "--port", str(port)],
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
                for name, (game, seat, typed) in games.items():
                    page = browser.new_context(viewport=VIEWPORT if name == "standard" else TALL).new_page()
                    shoot(page, base, game, seat, args.out / f"{name}.png", typed)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)
            log.close()


def make_games(api: httpx.Client) -> dict[str, tuple[Game, str, list[str]]]:
    standard = Game(api, "standard", "A standard game")
    for seat, orders in STANDARD_SPRING.items():
        standard.order(seat, orders)
    standard.process()

    te1 = Game(api, "twin_earths_1", "Twin Earths I")
    for seat in te1.tokens:
        te1.order(seat, te1.builds(seat))
    te1.process()

    te3 = Game(api, "twin_earths_3", "Twin Earths III")
    for seat in te3.tokens:
        te3.order(seat, te3.builds(seat) + ([TE3_LINKS[seat]] if seat in TE3_LINKS else []))
    te3.process()
    return {
        "standard": (standard, "FRANCE", STANDARD_FALL_FRANCE),
        "twin_earths_1": (te1, "FRANCE", []),
        "twin_earths_3": (te3, "GERMANY-Y", []),
    }


if __name__ == "__main__":
    main()
