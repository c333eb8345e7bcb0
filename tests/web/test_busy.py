"""A busy server in a real browser: when the server refuses the page its event stream (too many
open from one address), the page still shows the game moving on, by reloading it while it asks
again."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.service.test_server_process import Server

from .test_play import open_seat

ONE_STREAM = (
    *("--rate-limit", "off", "--token-rate-limit", "off", "--write-rate-limit", "off"),
    *("--games-per-hour", "0", "--bot-games-per-hour", "0", "--press-per-minute", "0"),
    *("--max-in-flight", "0", "--max-streams", "0", "--streams-per-address", "1"),
)
SPRING = ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"]


@pytest.fixture(scope="module")
def busy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("busy")
    srv = Server(f"sqlite:///{tmp / 'busy.sqlite'}", sweep=0.2, log=tmp / "server.log", args=ONE_STREAM)
    try:
        yield srv.wait_ready()
    finally:
        srv.stop()
        print(f"==== server log\n{srv.output()[-4000:]}")


def test_a_page_refused_its_event_stream_still_follows_the_game(browser: Any, busy_server: Server) -> None:
    with httpx.Client(base_url=busy_server.url, timeout=30) as api:
        standard = next(v for v in api.get("/api/variants").json() if v["id"] == "standard")
        seats = {seat: "bot" for seat in standard["seats"]}
        seats["ENGLAND"] = "Ann"
        r = api.post("/api/games", json={"variant": "standard", "seats": seats, "title": "Busy"})
        assert r.status_code == 201, r.text
        game_id, token = r.json()["game_id"], r.json()["seat_tokens"]["ENGLAND"]
        events = f"/api/games/{game_id}/events"

        # This address's one event stream, held open by someone else meanwhile.
        opened = threading.Event()
        done = threading.Event()

        def hold() -> None:
            with (
                httpx.Client(base_url=busy_server.url, timeout=None) as other,
                other.stream("GET", events) as stream,
            ):
                assert stream.status_code == 200
                opened.set()
                done.wait(60)

        holder = threading.Thread(target=hold, daemon=True)
        holder.start()
        assert opened.wait(10)
        refused = api.get(events)
        assert refused.status_code == 429 and refused.headers["retry-after"] == "5", refused.text

        context = browser.new_context(base_url=busy_server.url)
        try:
            page = open_seat(context, game_id, "ENGLAND", token)
            expect(page.locator("#phase")).to_have_attribute("data-phase", "S1901M")
            auth = {"Authorization": f"Bearer {token}"}
            phase = api.get(f"/api/games/{game_id}/seat", headers=auth).json()["phase"]
            r = api.put(f"/api/games/{game_id}/orders", headers=auth, json={"phase": phase, "orders": SPRING})
            assert r.status_code == 200, r.text
            assert (
                api.put(
                    f"/api/games/{game_id}/ready", headers=auth, json={"phase": phase, "value": True}
                ).status_code
                == 200
            )
            # No stream tells the page; its reload after the refusal does.
            expect(page.locator("#phase")).to_have_attribute("data-phase", "F1901M", timeout=20_000)
        finally:
            context.close()
            done.set()
