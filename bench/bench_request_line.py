"""The server's line a request: its own writer (``observe.AccessLog``) beside the same line through
the ``logging`` module as ``interboard serve`` configures it (a JSON formatter, a stream handler).

Both write to a file in a temporary directory, on a running event loop (as in the server: the
writer gathers lines and writes them together). Run from the repository root::

    python bench/bench_request_line.py [--lines 20000] [--repeat 5]

It prints the CPU microseconds a line for each (the best of ``--repeat`` rounds) and their ratio.
In a loop the code is warm; inside a request, whose code runs once, each costs several times more.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import logging.config
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from interboard.service.observe import AccessLog, install_log_context, log_config

PATH = "/api/games/0123456789abcdef/seat"
ROUTE = "/api/games/{game_id}/seat"


def best_us(write: Callable[[], None], lines: int, repeat: int, after: Callable[[], None]) -> float:
    """The least CPU microseconds a line over ``repeat`` rounds of ``lines`` lines."""

    async def rounds() -> float:
        best = float("inf")
        for _ in range(repeat):
            started = time.process_time()
            for _ in range(lines):
                write()
            after()
            best = min(best, (time.process_time() - started) / lines * 1e6)
        return best

    return asyncio.run(rounds())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=20000, help="lines a round")
    ap.add_argument("--repeat", type=int, default=5, help="rounds (the best is kept)")
    args = ap.parse_args(argv)
    if args.lines < 1 or args.repeat < 1:
        ap.error("--lines and --repeat are at least 1")
    with tempfile.TemporaryDirectory() as tmp, open(Path(tmp) / "logging.log", "w") as logged:
        config = log_config()
        config["handlers"]["default"]["stream"] = logged
        logging.config.dictConfig(config)
        install_log_context()
        logger = logging.getLogger("interboard.request")
        fields = {"method": "GET", "path": PATH, "route": ROUTE, "status": 200, "duration_ms": 0.8}

        def through_logging() -> None:
            logger.info("%s %s %d %.1f ms", "GET", PATH, 200, 0.8, extra=fields)

        with open(Path(tmp) / "access.log", "w") as stream:
            own = AccessLog(stream)

            def own_line() -> None:
                own.answered("0123456789abcdef", "GET", PATH, ROUTE, 200, 0.0008, time.time())

            ours = best_us(own_line, args.lines, args.repeat, own.flush)
            theirs = best_us(through_logging, args.lines, args.repeat, lambda: None)
            written = (Path(tmp) / "access.log").read_text().count("\n")
        logging.config.dictConfig({"version": 1, "disable_existing_loggers": False})
    python = sys.version.split()[0]
    print(f"request line, CPU a line (best of {args.repeat} x {args.lines:,}; Python {python}):")
    print(f"  AccessLog (the server's)            {ours:6.2f} us")
    print(f"  the same line through logging       {theirs:6.2f} us")
    print(f"  ratio                               {theirs / ours:6.2f}x")
    print(f"  lines written by AccessLog          {written:,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
