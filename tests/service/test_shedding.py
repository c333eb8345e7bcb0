"""Load shedding (issue 17 point 2): past the requests a process serves at once, or past the caps
on open event streams, a request is refused at once (503, or 429 for one address's streams) with a
numeric Retry-After in the error body's shape; the next one passes once a place is free.

Slow clients (issue 43 point 1): a request holds a place only once its body is in, a body that
stops arriving is answered 408, an address has so many requests under way, and ``/readyz`` says
when the process sheds load. ``test_slow_clients.py`` shows the same with a real server."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from fastapi.responses import Response
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from interboard.service.api import RateLimits, create_app
from interboard.service.http import BodyTimeout
from interboard.service.limits import SHEDDING_FOR_S, Shed


class Held:
    """An ASGI app whose every request waits until ``release`` is set, then answers 200."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.started = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.started += 1
        await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


async def call(
    app: Any,
    path: str,
    address: str = "10.0.0.1",
    headers: list[tuple[bytes, bytes]] | None = None,
    body: Any = None,
) -> tuple[int, dict[str, str], bytes]:
    """One GET through ``app`` as an ASGI server would send it: (status, headers, body). With
    ``body`` (a receive of the body's messages), a POST of a 37-byte body."""
    scope = {
        "type": "http",
        "method": "GET" if body is None else "POST",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": (headers or []) + ([(b"content-length", b"37")] if body is not None else []),
        "client": (address, 50000),
        "server": ("testserver", 80),
        "scheme": "http",
        "http_version": "1.1",
        "root_path": "",
    }
    answer: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        else:
            answer["body"] += message.get("body", b"")

    await app(scope, receive if body is None else body, send)
    return answer["status"], answer["headers"], answer["body"]


def refused(answer: tuple[int, dict[str, str], bytes], status: int, limit: str) -> None:
    code, headers, body = answer
    assert code == status, answer
    assert int(headers["retry-after"]) >= 1
    parsed = json.loads(body)
    assert "try again" in parsed["error"] and parsed["details"][0]["limit"] == limit


def test_past_the_requests_served_at_once_the_next_is_refused_with_503_at_once() -> None:
    async def scenario() -> None:
        held = Held()
        shed = Shed(held, RateLimits.off().but(in_flight=2))
        first = [asyncio.create_task(call(shed, "/api/games")) for _ in range(2)]
        while held.started < 2:
            await asyncio.sleep(0)
        refused(await call(shed, "/api/games"), 503, "requests at once")
        assert held.started == 2  # refused before any work
        held.release.set()
        assert [(await t)[0] for t in first] == [200, 200]
        assert (await call(shed, "/api/games"))[0] == 200  # a place is free again

    asyncio.run(scenario())


def test_the_probes_are_never_shed() -> None:
    async def scenario() -> None:
        held = Held()
        shed = Shed(held, RateLimits.off().but(in_flight=1))
        busy = asyncio.create_task(call(shed, "/api/games"))
        while held.started < 1:
            await asyncio.sleep(0)
        probe = asyncio.create_task(call(shed, "/healthz"))
        while held.started < 2:
            await asyncio.sleep(0)  # the probe reached the app though the process is full
        held.release.set()
        assert (await busy)[0] == 200 and (await probe)[0] == 200

    asyncio.run(scenario())


def test_event_streams_are_capped_per_address_and_in_all() -> None:
    async def scenario() -> None:
        held = Held()
        shed = Shed(held, RateLimits.off().but(streams_per_address=1, streams=2, in_flight=1))
        path = "/api/games/abc/events"
        mine = asyncio.create_task(call(shed, path, "10.0.0.1"))
        while held.started < 1:
            await asyncio.sleep(0)
        refused(await call(shed, path, "10.0.0.1"), 429, "open event streams per address")
        other = asyncio.create_task(call(shed, path, "10.0.0.2"))  # another address: its own count
        while held.started < 2:
            await asyncio.sleep(0)
        refused(await call(shed, path, "10.0.0.3"), 503, "open event streams")
        # Streams are not requests in flight: an ordinary request still has its place.
        plain = asyncio.create_task(call(shed, "/api/games", "10.0.0.3"))
        while held.started < 3:
            await asyncio.sleep(0)
        held.release.set()
        assert [(await t)[0] for t in (mine, other, plain)] == [200, 200, 200]
        assert shed.counts.streams == 0 and shed.counts.streams_of == {} and shed.counts.requests == 0

    asyncio.run(scenario())


def test_the_server_sheds_through_its_own_stack_and_says_so_in_its_openapi(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 'shed.sqlite'}", sweep=None, limits=RateLimits.off().but(in_flight=0)
    )
    with TestClient(app) as client:
        answer = client.get("/api/variants")
        assert answer.status_code == 503 and int(answer.headers["retry-after"]) >= 1
        assert answer.headers["x-frame-options"] == "DENY"  # the refusal still carries the headers
        assert client.get("/healthz").status_code == 200
    document = create_app(
        f"sqlite:///{tmp_path / 'doc.sqlite'}", sweep=None, limits=RateLimits.off()
    ).openapi()
    for path, operations in document["paths"].items():
        for operation in operations.values():
            if path not in ("/healthz", "/readyz"):
                assert "503" in operation["responses"], (path, sorted(operation["responses"]))


def test_the_quick_lane_and_the_other_routes_share_one_count_of_requests_at_once(tmp_path: Path) -> None:
    """The lane's requests are taken at the door, through a stack of their own (``InterboardAPI``):
    its load shedding counts with the rest of the app's, so the cap holds for both together."""
    app = create_app(
        f"sqlite:///{tmp_path / 'shed.sqlite'}", sweep=None, limits=RateLimits.off().but(in_flight=1)
    )
    (seat,) = [r for r in app.routes if isinstance(r, APIRoute) and r.path == "/api/games/{game_id}/seat"]
    release = asyncio.Event()

    async def held_view(game_id: str, token: str) -> Response:
        await release.wait()
        return Response(b"{}", media_type="application/json")

    seat.endpoint = held_view  # what the lane calls, once it has the game id and a well-formed token

    async def scenario() -> None:
        headers = [(b"authorization", b"Bearer " + b"A" * 43)]
        view = asyncio.create_task(call(app, "/api/games/abcdefghijkl/seat", headers=headers))
        for _ in range(100):  # until the view is in flight, held at its endpoint
            if view.done():
                break
            await asyncio.sleep(0)
        refused(await call(app, "/api/variants"), 503, "requests at once")
        release.set()
        assert (await view)[0] == 200
        assert (await call(app, "/api/variants"))[0] == 200

    asyncio.run(scenario())


class Body:
    """A request body's ``receive`` that gives its first 5 bytes, then waits for ``rest`` to be set
    (before which, the body has stopped arriving)."""

    def __init__(self) -> None:
        self.rest = asyncio.Event()
        self.given = 0

    async def __call__(self) -> dict[str, Any]:
        self.given += 1
        if self.given == 1:
            return {"type": "http.request", "body": b'{"pha', "more_body": True}
        if self.given == 2:
            await self.rest.wait()
            return {"type": "http.request", "body": b'se": "S1901M", "orders": []}', "more_body": False}
        await asyncio.Event().wait()  # the client is still there
        raise AssertionError


def test_a_request_holds_a_place_only_once_its_body_is_in() -> None:
    """One place in all: a request whose body has stopped arriving holds none (another is served
    meanwhile), takes one once its body is in, and is served with the whole of it."""

    async def scenario() -> None:
        held = Held()
        shed = Shed(held, RateLimits.off().but(in_flight=1), body_timeout=BodyTimeout())
        body = Body()
        slow = asyncio.create_task(call(shed, "/api/games", body=body))
        while body.given < 2:
            await asyncio.sleep(0)
        other = asyncio.create_task(call(shed, "/api/games"))
        while held.started < 1:
            await asyncio.sleep(0)  # the other request has the one place
        held.release.set()
        assert (await other)[0] == 200
        assert held.started == 1 and shed.counts.requests == 0  # the slow one was never in
        body.rest.set()
        assert (await slow)[0] == 200 and held.started == 2
        assert shed.counts.requests == 0

    asyncio.run(scenario())


def test_a_body_that_stops_arriving_is_answered_408_and_never_reaches_the_app() -> None:
    async def scenario() -> None:
        held = Held()
        held.release.set()
        shed = Shed(held, RateLimits(), body_timeout=BodyTimeout(seconds=0.05))
        status, headers, answer = await call(shed, "/api/games", body=Body())
        assert status == 408 and headers["connection"] == "close"
        assert json.loads(answer) == {
            "error": "the request body stopped arriving: 5 of 37 bytes came, then nothing for 0.05 s"
        }
        assert held.started == 0 and shed.counts.requests == 0 and shed.counts.requests_of == {}

    asyncio.run(scenario())


def test_an_address_has_so_many_requests_under_way_bodies_arriving_included() -> None:
    async def scenario() -> None:
        held = Held()
        shed = Shed(held, RateLimits.off().but(connections_per_address=2), body_timeout=BodyTimeout())
        bodies = [Body(), Body()]
        slow = [asyncio.create_task(call(shed, "/api/games", body=body)) for body in bodies]
        while any(body.given < 2 for body in bodies):
            await asyncio.sleep(0)
        answer = await call(shed, "/api/games", body=Body())
        refused(answer, 429, "connections at once per address")
        assert answer[1]["connection"] == "close"  # its body unread
        elsewhere = asyncio.create_task(call(shed, "/api/games", "10.0.0.2"))  # its own count
        while held.started < 1:
            await asyncio.sleep(0)
        held.release.set()
        for body in bodies:
            body.rest.set()
        assert [(await t)[0] for t in (*slow, elsewhere)] == [200, 200, 200]
        assert shed.counts.requests_of == {} and shed.counts.requests == 0

    asyncio.run(scenario())


def test_readyz_says_the_server_is_shedding_load_while_it_does(tmp_path: Path) -> None:
    """503 with the reason while the process serves as many requests as it may, and for
    ``SHEDDING_FOR_S`` after it last refused one; then ready again. /healthz stays 200."""
    app = create_app(
        f"sqlite:///{tmp_path / 'shed.sqlite'}", sweep=None, limits=RateLimits.off().but(in_flight=1)
    )
    now = [1000.0]
    app.state.in_flight.clock = lambda: now[0]
    (seat,) = [r for r in app.routes if isinstance(r, APIRoute) and r.path == "/api/games/{game_id}/seat"]
    release = asyncio.Event()

    async def held_view(game_id: str, token: str) -> Response:
        await release.wait()
        return Response(b"{}", media_type="application/json")

    seat.endpoint = held_view

    async def scenario() -> None:
        assert (await call(app, "/readyz"))[0] == 200
        headers = [(b"authorization", b"Bearer " + b"A" * 43)]
        view = asyncio.create_task(call(app, "/api/games/abcdefghijkl/seat", headers=headers))
        while app.state.in_flight.requests < 1:
            await asyncio.sleep(0)
        busy = await call(app, "/readyz")
        refused(busy, 503, "requests at once")
        assert json.loads(busy[2])["error"].startswith("the server is shedding load (requests at once)")
        refused(await call(app, "/api/variants"), 503, "requests at once")
        release.set()
        assert (await view)[0] == 200
        refused(await call(app, "/readyz"), 503, "requests at once")  # it shed one a moment ago
        assert (await call(app, "/healthz"))[0] == 200
        now[0] += SHEDDING_FOR_S
        assert (await call(app, "/readyz"))[0] == 200

    asyncio.run(scenario())
