"""The app's CPU for each of a seat's routes, called in-process (no HTTP, no client), beside the
trivial route (``/healthz``) through the same middlewares.

One standard game on a SQLite file in a temporary directory, the app made as ``interboard serve``
makes it (request lines written, to a file here; the lifespan run, so the event loop keeps its
connection), the rate limits off. Each route is called ``--calls`` times in a round, the same
request each time (so the code and the caches are warm: a server under load pays more for each);
the best of ``--repeat`` rounds is kept. A last row times tree requests whose tree is not made yet,
as at each new phase (six seats of each of new games, after the seventh's). Run from the repository
root::

    python bench/bench_routes.py [--calls 1000] [--repeat 7]

The mix is the game load's of ``bench/bench_server.py`` (views 38.5 %, trees, orders and Readies
20.5 % each; its phases processed are not in it). Its trees are the last row's: in that load each
seat asks for its tree once a phase.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

from interboard.service.api import create_app, settle_for_serving
from interboard.service.games import NewGame
from interboard.service.limits import RateLimits

MIX = {"seat view": 0.385, "options, tree not made yet": 0.205, "orders": 0.205, "ready": 0.205}
"""Each route's share of the requests in bench_server.py's game load."""


def scope(path: str, method: str = "GET", headers: tuple[tuple[bytes, bytes], ...] = ()) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }


async def call(app: Any, request: dict[str, Any], body: bytes) -> None:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(dict(request), receive, send)
    if sent[0]["status"] != 200:
        raise RuntimeError(f"{request['method']} {request['path']}: {sent[0]['status']} {sent[1:]}")


Routes = dict[str, tuple[dict[str, Any], bytes]]
"""Each route's request (an ASGI scope) and body, by name."""


def seat_routes(tmp: str, lines: TextIO) -> tuple[Any, Routes]:
    """The app as ``interboard serve`` makes it, on a SQLite file in ``tmp`` (request lines written
    to ``lines``, the rate limits off), with one standard game; and the requests of France's seat
    (and ``/healthz``) in it."""
    app = create_app(f"sqlite:///{tmp}/routes.sqlite", sweep=None, limits=RateLimits.off(), access_log=lines)
    service = app.state.service
    seats = next(v["seats"] for v in service.variants() if v["id"] == "standard")
    game = service.create(NewGame(variant="standard", press="none", seats={p: p for p in seats}))
    settle_for_serving()
    auth = ((b"authorization", f"Bearer {game.seat_tokens['FRANCE']}".encode()),)
    as_json = ((b"content-type", b"application/json"),)
    at = f"/api/games/{game.game_id}"
    phase = service.public_view(game.game_id)["phase"]
    return app, {
        "/healthz": (scope("/healthz"), b""),
        "seat view": (scope(f"{at}/seat", headers=auth), b""),
        "options": (scope(f"{at}/options", headers=auth), b""),
        "orders": (
            scope(f"{at}/orders", "PUT", auth + as_json),
            b'{"phase": "%s", "orders": ["A Par - Bur", "F Bre - Mao"]}' % phase.encode(),
        ),
        "ready": (
            scope(f"{at}/ready", "PUT", auth + as_json),
            b'{"phase": "%s", "value": false}' % phase.encode(),
        ),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=1000, help="calls of a route in a round")
    ap.add_argument("--repeat", type=int, default=7, help="rounds (the best is kept)")
    args = ap.parse_args(argv)
    if args.calls < 1 or args.repeat < 1:
        ap.error("--calls and --repeat are at least 1")
    with tempfile.TemporaryDirectory() as tmp, open(Path(tmp) / "requests.log", "w") as lines:
        app, routes = seat_routes(tmp, lines)
        service = app.state.service
        seats = next(v["seats"] for v in service.variants() if v["id"] == "standard")

        async def new_trees() -> float:
            """CPU microseconds a tree request takes while the seat's tree is not made yet, as at each
            new phase: the six other seats of new games, after France's (the phase described, the
            game's rules seen quick)."""
            spent, calls = 0.0, 0
            while calls < args.calls:
                fresh = service.create(NewGame(variant="standard", press="none", seats={p: p for p in seats}))
                for seat, token in sorted(fresh.seat_tokens.items(), key=lambda kv: kv[0] != "FRANCE"):
                    request = scope(
                        f"/api/games/{fresh.game_id}/options",
                        headers=((b"authorization", f"Bearer {token}".encode()),),
                    )
                    started = time.process_time()
                    await call(app, request, b"")
                    if seat != "FRANCE":
                        spent, calls = spent + time.process_time() - started, calls + 1
            return spent / calls * 1e6

        async def measure() -> dict[str, float]:
            best: dict[str, float] = {}
            async with app.router.lifespan_context(app):
                for name, (request, body) in routes.items():
                    await call(app, request, body)
                    for _ in range(args.repeat):
                        started = time.process_time()
                        for _ in range(args.calls):
                            await call(app, request, body)
                        spent = (time.process_time() - started) / args.calls * 1e6
                        best[name] = min(best.get(name, spent), spent)
                best["options, tree not made yet"] = min([await new_trees() for _ in range(args.repeat)])
            return best

        best = asyncio.run(measure())
    python = sys.version.split()[0]
    print(f"the app's CPU a call, in-process (best of {args.repeat} x {args.calls:,}; Python {python}):")
    for name, us in best.items():
        print(f"  {name:<28} {us:7.0f} us")
    mix = sum(share * best[name] for name, share in MIX.items())
    print(f"  {'the game load mix':<28} {mix:7.0f} us")
    print(f"  {'mix / trivial route':<28} {mix / best['/healthz']:7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
