"""Issue 17: nothing a client sends gives a 5xx or unbounded work, and every answer is one the
OpenAPI document declares, in the one error body.

Each test here failed before its fix.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from interboard.service.api import MAX_BODY, RateLimits, create_app
from interboard.service.games import GameService, NewGame

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
ERROR_REF = "#/components/schemas/ErrorBody"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, sweep=None, limits=RateLimits.off())) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def full_game(client: TestClient, **body: Any) -> tuple[str, str, dict[str, str]]:
    r = client.post("/api/games", json={"seats": {p: p.title() for p in POWERS}, **body})
    assert r.status_code == 201, r.text
    created = r.json()
    return created["game_id"], created["gm_token"], created["seat_tokens"]


def is_error(r: httpx.Response, status: int) -> bool:
    """The answer has ``status`` and the API's error body."""
    body = r.json()
    return (
        r.status_code == status and isinstance(body.get("error"), str) and set(body) <= {"error", "details"}
    )


# ---------------------------------------------------------------- 1. integers bounded in the schema
@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/games/{gid}/map.svg?phase=4555073169330014357815296", None),
        ("post", "/api/games", {"seed": 2**64}),
        ("post", "/api/games", {"deadlines": {"movement": 10**30}}),
        ("post", "/api/games", {"variant": "twin_earths_3", "options": {"link_limit": 10**30}}),
        ("post", "/api/games/{gid}/extend", {"seconds": 10**30}),
    ],
)
def test_huge_integers_are_a_422_in_the_error_body(
    client: TestClient, method: str, path: str, body: Any
) -> None:
    gid, gm, _ = full_game(client, deadlines={"movement": 60})
    r = client.request(method, path.format(gid=gid), json=body, headers=auth(gm))
    assert is_error(r, 422) and r.json()["details"], r.text


def test_every_integer_in_the_schema_is_bounded(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    unbounded: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            if node.get("type") == "integer" and not (
                ("minimum" in node or "exclusiveMinimum" in node)
                and ("maximum" in node or "exclusiveMaximum" in node)
            ):
                unbounded.append(where)
            for key, value in node.items():
                walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    # Requests only: what the server answers (ids, counts) is not for a client to bound.
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            walk(op.get("parameters", []), f"{method} {path} parameters")
            walk(op.get("requestBody", {}), f"{method} {path} body")
    for name, component in schema["components"]["schemas"].items():
        if name.startswith("Create") or name.endswith(("Body", "Options")):
            walk(component, name)
    assert not unbounded


# ---------------------------------------------------------------- 2. every status declared, one body
def test_every_route_declares_its_error_statuses_with_the_error_body(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            declared = {int(code) for code in op["responses"] if code != "default"}
            needs = {422} if op.get("parameters") or "requestBody" in op else set()
            if "requestBody" in op:
                needs |= {400, 413}
            schemes = {name for alternative in op.get("security", []) for name in alternative}
            if "bearer" in schemes:
                needs |= {401}  # none, or a malformed one
                if "session" not in schemes:
                    # A seat's or the GM's token may hold no right there; a session is live or not (401).
                    needs |= {403}
            assert needs <= declared, (method, path, needs - declared)
            for code, response in op["responses"].items():
                if int(code) >= 400:
                    assert response["content"]["application/json"]["schema"]["$ref"] == ERROR_REF
    # The map takes a seat's token optionally.
    assert schema["paths"]["/api/games/{game_id}/map.svg"]["get"]["security"] == [{"bearer": []}, {}]
    # Creating and joining take a session optionally (bearer or cookie); the account's routes need one.
    optional_session = [{"bearer": []}, {"session": []}, {}]
    assert schema["paths"]["/api/games"]["post"]["security"] == optional_session
    assert schema["paths"]["/api/games/{game_id}/join"]["post"]["security"] == optional_session
    assert schema["paths"]["/api/account"]["get"]["security"] == [{"bearer": []}, {"session": []}]


def test_the_variant_is_an_enum_and_each_variant_has_its_own_schema(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    parts = schema["components"]["schemas"]
    te3 = parts["CreateTwinEarths3"]["properties"]
    assert te3["variant"]["const"] == "twin_earths_3" or te3["variant"]["enum"] == ["twin_earths_3"]
    link_limit = parts["TwinEarths3Options"]["properties"]["link_limit"]
    assert (link_limit["minimum"], link_limit["maximum"]) == (0, 1000)
    assert parts["TwinEarths3Options"]["additionalProperties"] is False
    seats = te3["seats"]["propertyNames"]["enum"]
    assert len(seats) == 14 and "AUSTRIA-Y" in seats


# ---------------------------------------------------------------- 3. 405 with every allowed method
def test_an_unsupported_method_is_405_with_allow_naming_every_method_of_the_path(client: TestClient) -> None:
    r = client.delete("/api/games")
    assert is_error(r, 405) and r.headers["Allow"] == "GET, POST"
    r = client.patch("/api/games/abc/messages", json={})
    assert is_error(r, 405) and r.headers["Allow"] == "GET, POST"


# ---------------------------------------------------------------- 4. a body that is not UTF-8
def test_a_body_that_is_not_utf8_is_a_declared_400_in_the_error_body(client: TestClient) -> None:
    r = client.post(
        "/api/games", content=b'{"title": "\xff\xfe"}', headers={"Content-Type": "application/json"}
    )
    assert is_error(r, 400)
    declared = client.get("/openapi.json").json()["paths"]["/api/games"]["post"]["responses"]
    assert "400" in declared


# ---------------------------------------------------------------- 5. the body limit on bytes received
def test_a_chunked_body_is_cut_off_at_the_limit_without_reading_the_rest(sqlite_url: str) -> None:
    """300 MB offered in 64 KiB chunks with no Content-Length: refused after the limit's worth."""
    asyncio.run(_chunked_upload(sqlite_url))


async def _chunked_upload(sqlite_url: str) -> None:
    app = create_app(sqlite_url, sweep=None, limits=RateLimits.off())
    sent = 0
    chunk = b" " * 65536

    async def upload() -> AsyncIterator[bytes]:
        nonlocal sent
        yield b"{"
        while sent < 300_000_000:
            sent += len(chunk)
            yield chunk

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        r = await c.post("/api/games", content=upload(), headers={"Content-Type": "application/json"})
    assert "content-length" not in r.request.headers
    assert is_error(r, 413)
    assert sent <= MAX_BODY + 2 * len(chunk)


# ---------------------------------------------------------------- 6. extend never makes a deadline
def test_extending_a_phase_without_a_deadline_is_refused_and_makes_none(sqlite_url: str) -> None:
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    app = create_app(sqlite_url, sweep=None, limits=RateLimits.off())
    service: GameService = app.state.service
    service.clock = lambda: now[0]
    with TestClient(app) as client:
        gid, gm, _ = full_game(client)  # no deadlines: each phase waits for every Ready
        r = client.post(f"/api/games/{gid}/extend", headers=auth(gm), json={"seconds": 60})
        assert is_error(r, 409) and "no deadline" in r.json()["error"]
        assert client.get(f"/api/games/{gid}").json()["deadline"] is None
        now[0] += timedelta(seconds=120)
        service.process_due()
        assert client.get(f"/api/games/{gid}").json()["phase"] == "S1901M"  # nobody pressed Ready


# ---------------------------------------------------------------- 7. 401 without a token, 403 with another's
@pytest.mark.parametrize(
    "header", [None, "Basic QWxhZGRpbjpvcGVu", "Bearer", "Bearer two words", "Bearer \x7f"]
)
def test_no_token_or_a_malformed_one_is_401_with_www_authenticate(
    client: TestClient, header: str | None
) -> None:
    gid, _, _ = full_game(client)
    headers = {} if header is None else {"Authorization": header}
    for method, path in [("get", "seat"), ("get", "messages"), ("post", "pause"), ("post", "leave")]:
        r = client.request(method, f"/api/games/{gid}/{path}", headers=headers)
        assert is_error(r, 401), (path, r.text)
        assert r.headers["WWW-Authenticate"].startswith("Bearer")
    if header is not None:  # a malformed token is refused on the map too, where a token is optional
        assert is_error(client.get(f"/api/games/{gid}/map.svg", headers=headers), 401)


def test_a_valid_token_without_the_right_is_403(client: TestClient) -> None:
    gid, gm, tokens = full_game(client)
    assert is_error(client.post(f"/api/games/{gid}/pause", headers=auth(tokens["FRANCE"])), 403)
    body = {"phase": "S1901M", "orders": []}
    assert is_error(client.put(f"/api/games/{gid}/orders", headers=auth(gm), json=body), 403)


# ---------------------------------------------------------------- 8. names and press
def test_a_player_name_over_the_limit_is_refused_at_creation_and_at_join(client: TestClient) -> None:
    long = "x" * 60_000
    r = client.post("/api/games", json={"seats": {"FRANCE": long}})
    assert is_error(r, 422)
    r = client.post("/api/games", json={"seats": {"FRANCE": "y" * 100}})
    assert r.status_code == 201
    gid = r.json()["game_id"]
    assert is_error(client.post(f"/api/games/{gid}/join", json={"seat": "ITALY", "player": long}), 422)
    assert is_error(client.post(f"/api/games/{gid}/join", json={"seat": "ITALY", "player": "z" * 101}), 422)
    assert (
        client.post(f"/api/games/{gid}/join", json={"seat": "ITALY", "player": "z" * 100}).status_code == 201
    )
    names = {s["seat"]: s["player"] for s in client.get(f"/api/games/{gid}").json()["seats"]}
    assert names["FRANCE"] == "y" * 100 and names["ITALY"] == "z" * 100


def test_the_service_refuses_a_long_name_rather_than_cutting_it(sqlite_url: str) -> None:
    app = create_app(sqlite_url, sweep=None, limits=RateLimits.off())
    service: GameService = app.state.service
    with pytest.raises(Exception, match="1 to 100 characters"):
        service.create(NewGame(seats={"FRANCE": "x" * 101}))


def test_press_after_the_game_ends_is_refused(client: TestClient) -> None:
    gid, _, tokens = full_game(client)
    for p in POWERS:
        body = {"phase": "S1901M", "value": True}
        client.put(f"/api/games/{gid}/draw", headers=auth(tokens[p]), json=body)
    assert client.get(f"/api/games/{gid}").json()["status"] == "finished"
    r = client.post(f"/api/games/{gid}/messages", headers=auth(tokens["FRANCE"]), json={"body": "gg"})
    assert is_error(r, 409)


# ---------------------------------------------------------------- 9. security headers, /docs offline
def test_pages_carry_security_headers(client: TestClient) -> None:
    gid, _, _ = full_game(client)
    for path in ("/", f"/games/{gid}", "/docs"):
        r = client.get(path)
        assert r.status_code == 200
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert r.headers["X-Frame-Options"] == "DENY"
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "no-referrer"
        assert "<script>" not in r.text and "onclick" not in r.text  # no inline script to allow
    assert client.get("/api/games").headers["X-Content-Type-Options"] == "nosniff"


def test_docs_load_swagger_ui_from_this_server(client: TestClient) -> None:
    page = client.get("/docs").text
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    assert any(a.endswith("swagger-ui.css") for a in assets)
    for asset in assets:
        assert asset.startswith("/"), asset  # nothing from another host
        r = client.get(asset)
        assert r.status_code == 200 and len(r.content) > 100, asset
    assert client.get("/openapi.json").status_code == 200


# ---------------------------------------------------------------- 10. a seat's press chosen in SQL
def test_a_seat_view_loads_only_the_messages_the_seat_may_read(db_url: str) -> None:
    """The messages a seat may read are chosen by the database: each messages query the service runs,
    run again as it was sent, returns only them (the 30 private messages never leave the database)."""
    with TestClient(create_app(db_url, sweep=None, limits=RateLimits.off())) as client:
        gid, _, tokens = full_game(client)
        for i in range(30):
            body = {"to": ["ENGLAND"], "body": f"secret {i}"}
            assert client.post(
                f"/api/games/{gid}/messages", headers=auth(tokens["FRANCE"]), json=body
            ).is_success
        client.post(f"/api/games/{gid}/messages", headers=auth(tokens["TURKEY"]), json={"body": "to all"})
        engine = client.app.state.service.engine  # type: ignore[attr-defined]
        sent: list[tuple[str, Any]] = []

        def on_execute(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
            if "FROM messages" in statement and "messages.body" in statement:  # what is read, not a count
                sent.append((statement, parameters))

        def rows_of_sent_queries() -> list[int]:
            queries = list(sent)
            with engine.connect() as conn:
                counts = [len(conn.exec_driver_sql(sql, params).all()) for sql, params in queries]
            sent.clear()  # of the queries just run again too
            return counts

        event.listen(engine, "before_cursor_execute", on_execute)
        try:
            view = client.get(f"/api/games/{gid}/seat", headers=auth(tokens["GERMANY"])).json()
            assert [m["body"] for m in view["messages"]] == ["to all"]
            assert rows_of_sent_queries() == [1]
            english = client.get(f"/api/games/{gid}/messages", headers=auth(tokens["ENGLAND"])).json()
            assert len(english) == 31 and rows_of_sent_queries() == [31]
        finally:
            event.remove(engine, "before_cursor_execute", on_execute)


def test_a_new_game_names_its_open_seats_and_links_to_joining_one(client: TestClient) -> None:
    r = client.post("/api/games", json={"seats": {"FRANCE": "Alice", "ENGLAND": "bot"}})
    assert r.json()["open_seats"] == [p for p in POWERS if p not in ("FRANCE", "ENGLAND")]
    links = client.get("/openapi.json").json()["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    assert links["join"]["requestBody"] == {"seat": "$response.body#/open_seats/0"}
