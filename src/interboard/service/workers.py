"""Several server processes on one port, each accepting its own share of the connections.

uvicorn's supervisor binds one listening socket and hands it to every worker process. They then
share one accept queue, and the worker that wakes first takes every connection waiting: connections
opened together (a proxy's pool, a load test's clients) land on one process while the others idle.

On Linux each worker here listens on a socket of its own instead, all of them in the port's
``SO_REUSEPORT`` group, and the kernel spreads new connections over the group by a hash of their
addresses. The supervisor (uvicorn's, unchanged: restarts, signals, health checks) keeps a bound
member of the group that never listens. It holds the port, so that a clash is said before any
worker starts, and no connection waits in a queue that nobody accepts from. A worker's socket is
made when the worker starts, so a worker started again after a crash makes a new one.

Elsewhere (no such group, or no spreading over it) the workers share one socket, as uvicorn does.
"""

from __future__ import annotations

import socket
import sys
from typing import Any

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors import Multiprocess

SPREADS_CONNECTIONS = sys.platform == "linux" and hasattr(socket, "SO_REUSEPORT")
"""Whether the kernel spreads a port's connections over the listening sockets that share it."""


def run(application: str, *, host: str, port: int, workers: int, **options: Any) -> None:
    """Serve the app that the factory *application* (``module:function``) makes in each of
    *workers* processes, on *host*:*port*; *options* are uvicorn's. :class:`CannotListen` if the
    port cannot be had."""
    if not SPREADS_CONNECTIONS:
        uvicorn.run(application, host=host, port=port, workers=workers, factory=True, **options)
        return
    config = uvicorn.Config(application, host=host, port=port, workers=workers, factory=True, **options)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        # First without SO_REUSEPORT, which fails if anything holds the port: a second server
        # started on it by mistake would otherwise join the group and take half the connections.
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
            port = probe.getsockname()[1]  # port 0: the one the system chose
        held = _PortHeld(family, socket.SOCK_STREAM)
        _share_port(held)
        held.bind((host, port))
    except OSError as exc:
        raise CannotListen(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    with held:
        Multiprocess(config, sockets=[held]).run()


class CannotListen(Exception):
    """The port cannot be had (taken, not allowed); said before any worker starts."""


def _share_port(sock: socket.socket) -> None:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)


class _PortHeld(socket.socket):
    """The supervisor's bound socket. Handed to a worker process (pickled when the worker is
    spawned), it arrives there as a new socket of the worker's own, bound to the same address."""

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        return (_own_socket, (self.family, self.getsockname()))


def _own_socket(family: int, address: tuple[Any, ...]) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        _share_port(sock)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        print(f"cannot listen on {address[0]}:{address[1]}: {exc.strerror or exc}", file=sys.stderr)
        # The supervisor stops on this exit status instead of starting the worker again and again.
        raise SystemExit(STARTUP_FAILURE) from exc
    return sock
