"""Rate limits (issue 17 point 2): each limit answers 429 with a numeric Retry-After in the error
body's shape, lets requests through again once its time has passed (a test clock, never a sleep),
and keeps each address, token and seat to its own bucket."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from interboard.service.api import RateLimits, create_app
from interboard.service.limits import Limiter, Rate

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
GENEROUS = RateLimits.off().but(address=Rate(1000, 1000))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def make(tmp_path: Path, clock: Clock) -> Iterator[Any]:
    """``make(limits)``: an app with these limits on the test clock, and a client for it from
    address ``10.0.0.1``; ``other(app, address)`` gives more clients of the same app."""
    opened: list[TestClient] = []

    def build(limits: RateLimits) -> tuple[FastAPI, TestClient]:
        app = create_app(f"sqlite:///{tmp_path / f'limits{len(opened)}.sqlite'}", sweep=None, limits=limits)
        app.state.limiter.clock = clock
        client = TestClient(app, client=("10.0.0.1", 50000)).__enter__()
        opened.append(client)
        return app, client

    yield build
    for client in opened:
        client.__exit__(None, None, None)


def other(app: FastAPI, address: str) -> TestClient:
    return TestClient(app, client=(address, 50000))


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def refused(r: httpx.Response, limit: str) -> int:
    """The seconds a 429 says to wait, checked: the header and the body agree, in the one shape."""
    assert r.status_code == 429, r.text
    seconds = r.headers["Retry-After"]
    assert seconds.isdigit() and int(seconds) >= 1
    assert set(r.json()) == {"error", "details"}
    assert r.json()["details"] == [{"limit": limit, "retry_after": int(seconds)}]
    return int(seconds)


def test_requests_per_address(make: Any, clock: Clock) -> None:
    app, client = make(RateLimits.off().but(address=Rate(2, 4)))
    for _ in range(4):
        assert client.get("/api/games").status_code == 200
    assert refused(client.get("/api/games"), "requests per address") == 1
    assert client.get("/healthz").status_code == 200  # the probes are never limited
    assert client.get("/readyz").status_code == 200
    assert client.get("/metrics").status_code == 200
    assert other(app, "10.0.0.2").get("/api/games").status_code == 200  # another address: its own
    clock.now += 0.5  # one request's worth
    assert client.get("/api/games").status_code == 200
    refused(client.get("/api/games"), "requests per address")
    clock.now += 2  # the bucket refills to its burst, no further
    assert [client.get("/api/games").status_code for _ in range(5)] == [200] * 4 + [429]


def test_requests_per_token_whatever_the_address(make: Any, clock: Clock) -> None:
    app, client = make(GENEROUS.but(token=Rate(1, 3)))
    gm = client.post("/api/games", json={}).json()
    game, token = gm["game_id"], gm["gm_token"]
    for address in ["10.0.0.1", "10.0.0.2", "10.0.0.3"]:
        assert other(app, address).post(f"/api/games/{game}/pause", headers=auth(token)).status_code in (
            200,
            409,
        )
    r = other(app, "10.0.0.4").post(f"/api/games/{game}/pause", headers=auth(token))
    assert refused(r, "requests per token") == 1
    assert client.get(f"/api/games/{game}").status_code == 200  # without the token
    seat = client.post(f"/api/games/{game}/join", json={"seat": "FRANCE"}).json()["token"]
    assert client.get(f"/api/games/{game}/seat", headers=auth(seat)).status_code == 200  # another token
    clock.now += 1
    assert client.post(f"/api/games/{game}/pause", headers=auth(token)).status_code in (200, 409)


def test_writes_are_held_to_a_stricter_limit(make: Any, clock: Clock) -> None:
    _, client = make(GENEROUS.but(writes=Rate(1, 2)))
    game = client.post("/api/games", json={}).json()["game_id"]
    assert client.post(f"/api/games/{game}/join", json={"seat": "FRANCE"}).status_code == 201
    assert refused(client.post(f"/api/games/{game}/join", json={"seat": "ITALY"}), "writes per address") == 1
    assert client.get(f"/api/games/{game}").status_code == 200  # reads go on
    clock.now += 1
    assert client.post(f"/api/games/{game}/join", json={"seat": "ITALY"}).status_code == 201


def test_games_per_address_per_hour(make: Any, clock: Clock) -> None:
    app, client = make(GENEROUS.but(games_per_hour=2))
    assert client.post("/api/games", json={"variant": "no_such_variant"}).status_code == 422  # not counted
    assert client.post("/api/games", json={}).status_code == 201
    assert client.post("/api/games", json={}).status_code == 201
    wait = refused(client.post("/api/games", json={}), "games per address")
    assert 1700 <= wait <= 1800  # two an hour: one more every half hour
    assert other(app, "10.0.0.2").post("/api/games", json={}).status_code == 201
    clock.now += wait
    assert client.post("/api/games", json={}).status_code == 201
    refused(client.post("/api/games", json={}), "games per address")


def test_all_bot_games_per_address_per_hour(make: Any, clock: Clock) -> None:
    _, client = make(GENEROUS.but(games_per_hour=10, bot_games_per_hour=1))
    bots = {"seats": dict.fromkeys(POWERS, "bot:hold")}
    assert client.post("/api/games", json=bots).status_code == 201
    wait = refused(client.post("/api/games", json=bots), "all-bot games per address")
    assert 3500 <= wait <= 3600
    assert client.post("/api/games", json={"seats": {**bots["seats"], "FRANCE": "Fran"}}).status_code == 201
    clock.now += wait
    assert client.post("/api/games", json=bots).status_code == 201


def test_press_per_seat_per_minute(make: Any, clock: Clock) -> None:
    _, client = make(GENEROUS.but(press_per_minute=2))
    game = client.post("/api/games", json={}).json()["game_id"]
    tokens = {
        p: client.post(f"/api/games/{game}/join", json={"seat": p}).json()["token"]
        for p in ["FRANCE", "ITALY"]
    }

    def send(seat: str) -> httpx.Response:
        return client.post(f"/api/games/{game}/messages", headers=auth(tokens[seat]), json={"body": "hi"})

    assert [send("FRANCE").status_code for _ in range(2)] == [201, 201]
    wait = refused(send("FRANCE"), "press messages per seat")
    assert wait == 30
    assert send("ITALY").status_code == 201  # another seat: its own
    clock.now += wait
    assert send("FRANCE").status_code == 201


def test_every_limited_route_declares_429_with_retry_after(make: Any) -> None:
    _, client = make(RateLimits())
    paths = client.get("/openapi.json").json()["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            declared = operation["responses"].get("429")
            if path in ("/healthz", "/readyz"):
                assert declared is None, (method, path)
                continue
            assert declared is not None, (method, path)
            assert "Retry-After" in declared["headers"]
            assert declared["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/ErrorBody"
            }


def test_the_public_defaults_let_a_normal_client_through(make: Any) -> None:
    _, client = make(RateLimits())
    assert all(client.get("/api/games").status_code == 200 for _ in range(60))
    assert client.get("/api/games").status_code == 429


def test_rates_parse_and_buckets_are_forgotten_once_full(clock: Clock) -> None:
    assert Rate.parse("20:60") == Rate(20, 60)
    assert Rate.parse("5") == Rate(5, 5)
    assert Rate.parse("off") is None
    for bad in ["fast", "0.5:0", "-1", "inf"]:
        with pytest.raises(ValueError):
            Rate.parse(bad)
    limiter = Limiter(RateLimits.off().but(address=Rate(1, 1)), clock=clock)
    for n in range(999):
        assert limiter.take(limiter.request_checks(f"10.0.{n // 256}.{n % 256}", None, False)) is None
    assert len(limiter._buckets) == 999
    clock.now += 1  # every one of them refilled
    limiter.take(limiter.request_checks("10.9.9.9", None, False))  # the 1000th: a sweep
    assert list(limiter._buckets) == [("requests per address", "10.9.9.9")]
