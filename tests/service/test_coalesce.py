"""The server's HTTP protocol sends what a turn of the event loop writes as one write
(``service/coalesce.py``): an answer's head and body together, a streamed answer's parts as they
come, everything held sent before the connection closes."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from interboard.service.coalesce import PROTOCOL, CoalescingHttpToolsProtocol, CoalescingTransport

GET = b"GET / HTTP/1.1\r\nHost: test\r\n\r\n"
GET_AND_CLOSE = b"GET / HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"


class Recorded:
    """A transport that keeps what is done to it, in order."""

    def __init__(self) -> None:
        self.done: list[tuple[str, bytes]] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.done.append(("write", bytes(data)))

    def close(self) -> None:
        self.done.append(("close", b""))
        self.closed = True

    def write_eof(self) -> None:
        self.done.append(("eof", b""))

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def whole(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"5")]})
    await send({"type": "http.response.body", "body": b"hello"})


async def streamed(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"first", "more_body": True})
    await asyncio.sleep(0.01)  # a later turn of the loop
    await send({"type": "http.response.body", "body": b"second", "more_body": False})


async def served(
    protocol_class: type[HttpToolsProtocol], app: Any, request: bytes
) -> list[tuple[str, bytes]]:
    """What the protocol does to its transport for one request, once the answer is complete."""
    config = Config(app, http=protocol_class, lifespan="off", log_level="warning")
    config.load()
    state = ServerState()
    protocol = protocol_class(config=config, server_state=state, app_state={})
    transport = Recorded()
    protocol.connection_made(transport)  # type: ignore[arg-type]
    protocol.data_received(request)
    for _ in range(200):
        await asyncio.sleep(0.001)
        if not state.tasks and protocol.cycle.response_complete:
            break
    await asyncio.sleep(0.001)  # the turn after the last write
    protocol.connection_lost(None)
    return transport.done


def test_uvicorn_is_told_the_protocol_by_a_name_it_can_import() -> None:
    config = Config(whole, http=PROTOCOL)
    config.load()
    assert config.http_protocol_class is CoalescingHttpToolsProtocol


def test_an_answers_head_and_body_go_out_in_one_write() -> None:
    plain = asyncio.run(served(HttpToolsProtocol, whole, GET))
    assert [kind for kind, _ in plain].count("write") == 2  # uvicorn's own: head, then body
    done = asyncio.run(served(CoalescingHttpToolsProtocol, whole, GET))
    writes = [data for kind, data in done if kind == "write"]
    assert len(writes) == 1
    assert writes[0].startswith(b"HTTP/1.1 200 OK\r\n") and writes[0].endswith(b"\r\n\r\nhello")
    assert writes[0] == b"".join(data for kind, data in plain if kind == "write")


def test_a_streamed_answer_goes_out_a_turn_at_a_time() -> None:
    done = asyncio.run(served(CoalescingHttpToolsProtocol, streamed, GET))
    writes = [data for kind, data in done if kind == "write"]
    assert len(writes) == 2
    assert b"200 OK" in writes[0] and writes[0].endswith(b"5\r\nfirst\r\n")
    assert writes[1] == b"6\r\nsecond\r\n0\r\n\r\n"


def test_what_is_held_goes_out_before_the_connection_closes() -> None:
    done = asyncio.run(served(CoalescingHttpToolsProtocol, whole, GET_AND_CLOSE))
    kinds = [kind for kind, _ in done]
    assert kinds[:2] == ["write", "close"]
    assert done[0][1].endswith(b"hello")


@pytest.mark.parametrize("request_bytes", [GET, GET_AND_CLOSE])
def test_a_client_reads_the_whole_answer_over_a_socket(request_bytes: bytes) -> None:
    async def exchange() -> bytes:
        config = Config(whole, http=CoalescingHttpToolsProtocol, lifespan="off", log_level="warning")
        config.load()
        server_end, client_end = socket.socketpair()
        loop = asyncio.get_running_loop()
        protocol = CoalescingHttpToolsProtocol(config=config, server_state=ServerState(), app_state={})
        await loop.connect_accepted_socket(lambda: protocol, server_end)
        reader, writer = await asyncio.open_connection(sock=client_end)
        writer.write(request_bytes)
        head = await reader.readuntil(b"\r\n\r\n")
        body = await reader.readexactly(5)
        writer.close()
        return head + body

    answer = asyncio.run(exchange())
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n") and answer.endswith(b"\r\n\r\nhello")


def test_every_way_of_writing_goes_through_the_one_held_write() -> None:
    async def written() -> list[tuple[str, bytes]]:
        real = Recorded()
        transport = CoalescingTransport(real, asyncio.get_running_loop())  # type: ignore[arg-type]
        transport.write(b"a")
        transport.writelines([b"b", b"c"])
        assert real.done == []  # held until the turn ends
        await asyncio.sleep(0)
        transport.write(b"d")
        transport.write_eof()
        return real.done

    assert asyncio.run(written()) == [("write", b"abc"), ("write", b"d"), ("eof", b"")]
