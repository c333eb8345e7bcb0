"""The quick lane for the seats' hot routes (``service/lane.py``) answers exactly as FastAPI would.

Each case sends one request three times, to three games played alike: through the lane as the app
takes it at the door (``api.InterboardAPI``, inside the app's middlewares and exception handlers but
none of FastAPI's layers), through the lane as the first route of FastAPI's router, and with the
lane taken out (FastAPI's own route). The answers must be the same, status and body, and the case
says whether the lane answers it itself or hands it to the FastAPI route.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from interboard.service.api import MAX_BODY, RateLimits, create_app
from interboard.service.lane import Lane

from .test_api import full_game


@dataclass(frozen=True)
class Case:
    method: str
    route: str
    body: Any = None
    """JSON to send, or bytes as they are."""
    headers: dict[str, str] = field(default_factory=dict)
    authorization: str | None = "Bearer {token}"
    seat: str = "FRANCE"
    game: str = "{gid}"
    lane: bool = True
    """Whether the lane answers it itself (else FastAPI's route does)."""
    chunked: bool = False
    """Sent without a Content-Length, in chunks (the body's limit is then counted as it comes)."""


COUNT = "interboard_http_requests_total{"
ORDERS = {"phase": "S1901M", "orders": ["A Par - Bur", "F Bre - Mao"]}
CASES = {
    "a seat's view": Case("GET", "seat"),
    "a seat's legal-order tree": Case("GET", "options"),
    "orders": Case("PUT", "orders", ORDERS),
    "a Ready": Case("PUT", "ready", {"phase": "S1901M", "value": True}),
    "orders the rules refuse (the service's 422)": Case(
        "PUT", "orders", {"phase": "S1901M", "orders": ["A Par - Mos"]}
    ),
    "a Ready for a past phase (the service's 409)": Case("PUT", "ready", {"phase": "F1900M", "value": True}),
    "a token that is no seat's (the service's 403)": Case("GET", "seat", authorization="Bearer " + "A" * 43),
    "a game that does not exist (the service's 404)": Case("GET", "options", game="nosuchgame"),
    "the scheme in lower case": Case("GET", "seat", authorization="bearer {token}"),
    "a JSON content type with its charset": Case(
        "PUT", "orders", ORDERS, headers={"Content-Type": "application/json; charset=UTF-8"}
    ),
    "two spaces after the scheme (stripped, as FastAPI strips them)": Case(
        "GET", "seat", authorization="Bearer  {token}"
    ),
    "no token (401)": Case("GET", "seat", authorization=None, lane=False),
    "another scheme (401)": Case("GET", "options", authorization="Basic {token}", lane=False),
    "a token of characters no token has (401)": Case(
        "GET", "seat", authorization="Bearer {token}!", lane=False
    ),
    "a body that is not JSON": Case("PUT", "orders", b"{phase: S1901M", lane=False),
    "a body of the wrong types (strict: 1 is no true)": Case(
        "PUT", "ready", {"phase": "S1901M", "value": 1}, lane=False
    ),
    "a body with an unknown field": Case(
        "PUT", "ready", {"phase": "S1901M", "value": True, "x": 1}, lane=False
    ),
    "a body without its content type (FastAPI reads it as JSON)": Case(
        "PUT", "orders", json.dumps(ORDERS).encode(), headers={"Content-Type": ""}, lane=False
    ),
    "a body of another content type": Case(
        "PUT", "orders", json.dumps(ORDERS).encode(), headers={"Content-Type": "text/plain"}, lane=False
    ),
    "a body that is not UTF-8": Case("PUT", "ready", b'{"phase": "S1901M\xff", "value": true}', lane=False),
    "an order with a NUL in it (its pattern refuses it)": Case(
        "PUT", "orders", {"phase": "S1901M", "orders": ["A Par\x00 - Bur"]}, lane=False
    ),
    "a phase with a NUL in it": Case("PUT", "ready", {"phase": "S1901M\x00", "value": True}, lane=False),
    "a field given twice (the last one counts, as json.loads reads it)": Case(
        "PUT", "ready", b'{"phase": "F1900M", "value": true, "phase": "S1901M"}'
    ),
    "a chunked body over the limit (413 as it comes)": Case(
        "PUT", "orders", b'{"phase": "S1901M", "orders": ["' + b" " * MAX_BODY + b'"]}', chunked=True
    ),
    "a chunked body within the limit": Case("PUT", "orders", json.dumps(ORDERS).encode(), chunked=True),
}


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, sweep=None, limits=RateLimits.off())) as c:
        yield c


def send(client: TestClient, case: Case, gid: str, token: str) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json", **case.headers}
    if case.authorization is not None:
        headers["Authorization"] = case.authorization.format(token=token)
    headers = {k: v for k, v in headers.items() if v}
    body = case.body if isinstance(case.body, bytes) else None if case.body is None else json.dumps(case.body)
    path = f"/api/games/{case.game.format(gid=gid)}/{case.route}"
    content: Any = (
        iter([body[i : i + 8192] for i in range(0, len(body), 8192)]) if case.chunked and body else body
    )
    r = client.request(case.method, path, content=content, headers=headers)
    return r.status_code, json.loads(r.text.replace(gid, "GID"))


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_the_lane_answers_as_fastapi_would(
    client: TestClient, case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    app: Any = client.app
    routes = app.router.routes
    (lane,) = [route for route in routes if isinstance(route, Lane)]
    assert routes[0] is lane and app.lane is lane  # before any route that could match
    handled: list[str] = []
    for route in routes:
        if isinstance(route, APIRoute) and route.path.startswith("/api/games/{game_id}/"):

            async def spy(scope: Any, receive: Any, send: Any, route: APIRoute = route) -> None:
                handled.append(route.path)
                await APIRoute.handle(route, scope, receive, send)

            monkeypatch.setattr(route, "handle", spy)
    games = [full_game(client) for _ in range(3)]
    template = f'route="/api/games/{{game_id}}/{case.route}"'

    def counted() -> float:
        lines = client.get("/metrics").text.splitlines()
        ours = [line for line in lines if line.startswith(COUNT) and template in line]
        return sum(float(line.rpartition(" ")[2]) for line in ours)

    def through(game: tuple[str, Any, dict[str, str]]) -> tuple[int, Any]:
        handled.clear()
        return send(client, case, game[0], game[2][case.seat])

    before = counted()
    at_the_door = through(games[0])
    assert bool(handled) is not case.lane, handled
    monkeypatch.setattr(app, "lane", None)
    in_the_router = through(games[1])
    assert bool(handled) is not case.lane, handled
    monkeypatch.setattr(app.router, "routes", [route for route in routes if route is not lane])
    through_fastapi = through(games[2])
    assert handled, "FastAPI's route did not answer without the lane"

    assert at_the_door == in_the_router == through_fastapi
    assert counted() == before + 3  # each under its route's template, whichever way it went
