"""Slow clients (issue 43, point 1): a request whose body stops arriving holds no place that other
clients need. Real server processes, real sockets, each client from an address of its own on the
loopback network (Linux routes all of 127/8 to ``lo``, so a socket may be bound to any of them).

Before the fix, 64 connections that sent a write's headers and a few bytes of its body, then
nothing, held every one of the 64 places of ``--max-in-flight`` for as long as they liked: every
other client, from every address, was answered 503.
"""

from __future__ import annotations

import json
import select
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from .test_server_process import (
    HTTP_TIMEOUT,
    ORDERS,
    POWERS,
    Server,
    Servers,
    auth,
    request_lines,
    wait_for,
)

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="binds sockets to 127.0.0.2 and others")


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    group = Servers(tmp_path)
    try:
        yield group
    finally:
        group.stop_all()


STALLERS = ("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4")
PLAYER = "127.0.0.5"
ANSWER_WAIT_S = 30.0
"""How long a test waits for an answer the server owes (a generous bound, on a shared machine)."""


def connect(server: Server, source: str) -> socket.socket:
    """A connection to ``server`` from the loopback address ``source``."""
    conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        conn.settimeout(HTTP_TIMEOUT)
        conn.bind((source, 0))
        conn.connect(("127.0.0.1", server.port))
    except BaseException:
        conn.close()
        raise
    return conn


def stalled_write(
    server: Server, source: str, method: str, path: str, body: bytes, sent: int, headers: str = ""
) -> socket.socket:
    """A write whose headers and the first ``sent`` bytes of its body are sent, and nothing more."""
    conn = connect(server, source)
    conn.sendall(
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{headers}"
        f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body[:sent]
    )
    return conn


def answer_of(conn: socket.socket, within: float = ANSWER_WAIT_S) -> tuple[int, dict[str, str], bytes]:
    """What the server answers on ``conn`` until it closes it: (status, headers, body); status 0 if
    it closed the connection without a word."""
    conn.settimeout(within)
    raw = b""
    while data := conn.recv(65536):
        raw += data
    if not raw:
        return 0, {}, b""
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, body


def trickle(conn: socket.socket, rest: bytes, every: float) -> None:
    """Send ``rest`` a byte every ``every`` seconds, until it is all sent or the server answers."""
    for k in range(len(rest)):
        try:
            conn.sendall(rest[k : k + 1])
        except (BrokenPipeError, ConnectionResetError):
            return
        answered, _, _ = select.select([conn], [], [], every)
        if answered:
            return


def is_error(status: int, body: bytes, wanted: int) -> bool:
    parsed = json.loads(body)
    return status == wanted and isinstance(parsed.get("error"), str) and set(parsed) <= {"error", "details"}


@contextmanager
def client_from(server: Server, source: str) -> Iterator[tuple[httpx.Client, list[httpx.Response]]]:
    """An HTTP client whose connections come from ``source``, and every answer it got."""
    answers: list[httpx.Response] = []
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(
        base_url=server.url,
        transport=transport,
        timeout=HTTP_TIMEOUT,
        event_hooks={"response": [answers.append]},
    ) as client:
        yield client, answers


def ok(answer: httpx.Response, status: int = 200) -> Any:
    assert answer.status_code == status, (answer.request.method, answer.request.url, answer.text)
    return answer.json()


def play_a_phase(client: httpx.Client) -> None:
    """Create a game, join its open seat, order, say Ready for every seat, wait for the phase to be
    processed and read what it left: a game's every kind of request, within the default rate
    limits of one address."""
    made = ok(client.post("/api/games", json={"seats": {p: p.title() for p in POWERS if p != "ITALY"}}), 201)
    gid, tokens = made["game_id"], made["seat_tokens"]
    tokens["ITALY"] = ok(client.post(f"/api/games/{gid}/join", json={"seat": "ITALY"}), 201)["token"]
    assert ok(client.get(f"/api/games/{gid}"))["status"] == "active"
    for seat, orders in ORDERS.items():
        ok(
            client.put(
                f"/api/games/{gid}/orders",
                headers=auth(tokens[seat]),
                json={"phase": "S1901M", "orders": orders},
            )
        )
    for seat in POWERS:
        ok(
            client.put(
                f"/api/games/{gid}/ready", headers=auth(tokens[seat]), json={"phase": "S1901M", "value": True}
            )
        )
    wait_for(
        "the phase to be processed",
        lambda: ok(client.get(f"/api/games/{gid}"))["phase"] == "F1901M",
        timeout=ANSWER_WAIT_S,
        every=0.2,
    )
    assert {"A BUR", "F MAO", "A SPA"} <= set(
        ok(client.get(f"/api/games/{gid}"))["position"]["units"]["FRANCE"]
    )
    assert (
        ok(client.get(f"/api/games/{gid}/seat", headers=auth(tokens["FRANCE"])))["seat"]["seat"] == "FRANCE"
    )
    assert [h["phase"] for h in ok(client.get(f"/api/games/{gid}/history"))] == ["S1901M"]
    ok(client.get("/api/games"))


def test_stalled_writers_from_four_addresses_leave_another_address_playing(
    sqlite_url: str, servers: Servers
) -> None:
    """The issue's case, with the server's defaults: 70 writes from four addresses that send their
    headers and 5 of their body's bytes, then nothing. Meanwhile a fifth address plays a phase of a
    game, every kind of request, and is never answered 503; the probes say the server is alive and
    ready. The stalled writes hold no place: each is cut with a 408 once its body has stopped
    arriving for the body timeout, or refused at once (429) past the connections an address may
    have under way; none is a 5xx, and none is logged as an error."""
    server = servers.start(sqlite_url, args=())
    with client_from(server, "127.0.0.6") as (setup, _):
        made = ok(setup.post("/api/games", json={"seats": {p: p.title() for p in POWERS}}), 201)
    gid, tokens = made["game_id"], made["seat_tokens"]
    orders = json.dumps({"phase": "S1901M", "orders": ["A Par - Bur"]}).encode()
    created = json.dumps({"title": "a game never made"}).encode()
    with ExitStack() as held:
        stalled = []
        for k in range(70):
            source = STALLERS[k % len(STALLERS)]
            if k % 2:
                seat = POWERS[k % len(POWERS)]
                conn = stalled_write(
                    server, source, "PUT", f"/api/games/{gid}/orders", orders, 5,
                    f"Authorization: Bearer {tokens[seat]}\r\nX-Request-ID: stalled-{k}\r\n",
                )  # fmt: skip
            else:
                conn = stalled_write(
                    server, source, "POST", "/api/games", created, 5, f"X-Request-ID: stalled-{k}\r\n"
                )
            stalled.append(held.enter_context(conn))
        with client_from(server, PLAYER) as (client, answers):
            assert ok(client.get("/healthz")) == {"status": "ok"}
            assert ok(client.get("/readyz")) == {"status": "ready"}  # nothing is being shed
            play_a_phase(client)
            assert ok(client.get("/readyz")) == {"status": "ready"}
        assert answers and not [a for a in answers if a.status_code >= 500], [
            (a.request.method, a.request.url.path, a.status_code) for a in answers if a.status_code >= 500
        ]
        started = time.monotonic()
        cut = [answer_of(conn) for conn in stalled]
        waited = time.monotonic() - started
    statuses = [status for status, _, _ in cut]
    # 16 connections under way per address by default: four addresses hold 64, the rest are refused.
    assert sorted(set(statuses)) == [408, 429], statuses
    assert statuses.count(408) == 64 and statuses.count(429) == 6, statuses
    for status, headers, body in cut:
        assert is_error(status, body, status) and headers["connection"] == "close", (status, headers, body)
    assert waited < ANSWER_WAIT_S
    wait_for(
        "the stalled writes' request lines",
        lambda: len([r for r in request_lines(server) if r.startswith("stalled-")]) == 70,
        timeout=10,
    )
    logged = request_lines(server)
    assert sorted({logged[f"stalled-{k}"]["status"] for k in range(70)}) == [408, 429]
    out = server.output()
    assert "Traceback" not in out and '"level": "ERROR"' not in out, out[-3000:]


def test_a_body_that_stops_arriving_or_trickles_is_cut_with_a_408(sqlite_url: str, servers: Servers) -> None:
    """``--body-timeout 2 --body-min-rate 40``: a body that stops after its first 5 bytes is
    answered 408 once 2 s pass without a byte; one that comes a byte every 0.1 s (10 bytes a second,
    never 2 s without one) once it is behind the floor of 40 bytes a second past the first 2 s.
    Each answer is the error body, with the request id, and closes the connection; each is logged
    as a request line with status 408 and a line saying why, at INFO: never an error, never a
    traceback."""
    server = servers.start(sqlite_url, args=("--body-timeout", "2", "--body-min-rate", "40"))
    body = json.dumps({"title": "x" * 200}).encode()
    stopped = stalled_write(server, "127.0.0.2", "POST", "/api/games", body, 5, "X-Request-ID: stopped\r\n")
    trickled = stalled_write(server, "127.0.0.3", "POST", "/api/games", body, 1, "X-Request-ID: trickled\r\n")
    with stopped, trickled:
        trickle(trickled, body[1:], every=0.1)
        slow = answer_of(trickled)
        cut = answer_of(stopped)
    assert is_error(cut[0], cut[2], 408), cut
    assert json.loads(cut[2])["error"] == (
        f"the request body stopped arriving: 5 of {len(body)} bytes came, then nothing for 2 s"
    )
    assert cut[1]["connection"] == "close" and cut[1]["x-request-id"] == "stopped"
    assert is_error(slow[0], slow[2], 408), slow
    assert json.loads(slow[2])["error"].startswith("the request body came too slowly: "), slow
    assert slow[1]["connection"] == "close" and slow[1]["x-request-id"] == "trickled"
    wait_for("the request lines", lambda: {"stopped", "trickled"} <= set(request_lines(server)), timeout=10)
    lines = request_lines(server)
    assert lines["stopped"]["status"] == lines["trickled"]["status"] == 408
    out = server.output()
    assert out.count("/api/games cut: the request body") == 2
    assert "Traceback" not in out and '"level": "ERROR"' not in out, out[-3000:]
    with client_from(server, "127.0.0.2") as (client, _):
        assert client.get("/api/games").status_code == 200  # nothing of either is left behind


def test_an_address_may_have_so_many_connections_under_way(sqlite_url: str, servers: Servers) -> None:
    """``--max-connections-per-address 3``: three writes from one address whose bodies stop
    arriving are its three; its next request is refused at once, 429 with Retry-After in the error
    body (and, a write, its connection closed, its body unread), while another address is served.
    Once one of the three is closed by its client (a 499), the address has a place again."""
    server = servers.start(sqlite_url, args=("--max-connections-per-address", "3"))
    body = json.dumps({"title": "a game never made"}).encode()
    with ExitStack() as held:
        stalled = [
            held.enter_context(
                stalled_write(
                    server, "127.0.0.2", "POST", "/api/games", body, 5, f"X-Request-ID: held-{k}\r\n"
                )
            )
            for k in range(3)
        ]
        with client_from(server, "127.0.0.2") as (client, _), client_from(server, "127.0.0.3") as (other, _):
            refused = wait_for(
                "the address's fourth request to be refused",
                lambda: (r := client.get("/api/games")).status_code == 429 and r,
                timeout=10,
                every=0.1,
            )
            assert refused.headers["retry-after"] == "1"
            assert refused.json()["details"] == [
                {"limit": "connections at once per address", "retry_after": 1}
            ]
            assert refused.json()["error"].startswith("too many connections at once per address")
            fourth = held.enter_context(stalled_write(server, "127.0.0.2", "POST", "/api/games", body, 5))
            status, headers, answer = answer_of(fourth)
            assert is_error(status, answer, 429) and headers["connection"] == "close", (
                status,
                headers,
                answer,
            )
            assert other.get("/api/games").status_code == 200
            stalled[0].close()
            wait_for(
                "the address to have a place again",
                lambda: client.get("/api/games").status_code == 200,
                timeout=10,
                every=0.1,
            )
    wait_for("the closed request's line", lambda: "held-0" in request_lines(server), timeout=10)
    assert request_lines(server)["held-0"]["status"] == 499
