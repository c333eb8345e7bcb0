"""uvicorn's HTTP/1.1 protocol (httptools), sending what a turn of the event loop writes as one.

uvicorn writes an answer's status line and headers when the app starts the answer, and its body
when the app sends it: two writes, and with uvloop two ``send`` system calls and two TCP segments
(Nagle's algorithm is off), which the client then reads in two wake-ups. An app sends both in the
same turn of the event loop, so this protocol holds a connection's writes until the turn ends and
sends them together. A streamed answer (the event stream) still goes out at the end of each turn
it writes in; closing the connection sends what is held first.

``interboard serve`` runs uvicorn with it (``http=`` :data:`PROTOCOL`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

PROTOCOL = "interboard.service.coalesce:CoalescingHttpToolsProtocol"
"""The protocol as uvicorn's ``http`` option names it (a worker process imports it by name)."""


class CoalescingTransport:
    """A transport whose writes in one turn of the event loop reach the real one as one write.

    Everything else is the real transport's; what ends the writes (``write_eof``, ``close``) sends
    what is held first."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._held:
            self._loop.call_soon(self._flush)
        self._held.append(data)

    def _flush(self) -> None:
        if not self._held:
            return
        held, self._held = self._held, []
        if not self._transport.is_closing():
            self._transport.write(held[0] if len(held) == 1 else b"".join(held))

    def writelines(self, chunks: Any) -> None:
        self.write(b"".join(chunks))

    def write_eof(self) -> None:
        self._flush()
        self._transport.write_eof()

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class CoalescingHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol over a :class:`CoalescingTransport`."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(CoalescingTransport(transport, self.loop))  # type: ignore[arg-type]
