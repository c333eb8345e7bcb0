"""The instructions the app runs for each of a seat's routes, in-process, beside the trivial route
(``/healthz``) through the same middlewares: counted by Valgrind's callgrind.

The app, game and requests are ``bench_routes.py``'s. Unlike its CPU times, a count does not move
with the machine's speed, which on a shared virtual machine swings by half from one minute to the
next: the effect of a change to the app's own code shows in one run, where times need many
alternate runs. A count weighs every instruction alike (a cache miss costs more than an add) and
leaves out the kernel's work (sockets, fsync) and the HTTP server's, so it measures the code, not
the server under load (``bench_server.py``). Each route runs in a process of its own under
``valgrind --tool=callgrind --instr-atstart=no``; counting is switched on (``callgrind_control``)
after three warm-up calls and off after ``--calls`` more. Needs Valgrind (``apt-get install
valgrind``). Run from the repository root::

    python bench/bench_instructions.py [--calls 100] [--routes "seat view,orders"]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# The sibling script's app and requests, found by the path of this one.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_routes import call, seat_routes

ROUTES = ("/healthz", "seat view", "options", "orders", "ready")
WARM_UP = 3
COLLECTED = re.compile(r"Collected : (\d+)")


def count(route: str, calls: int) -> int:
    """Instructions of ``calls`` calls of ``route``, counted in a child process under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [
                "valgrind", "--tool=callgrind", "--instr-atstart=no",
                f"--callgrind-out-file={tmp}/callgrind.out", sys.executable, __file__,
                "--child", route, "--calls", str(calls),
            ],
            capture_output=True, text=True, check=False, timeout=1800,
        )  # fmt: skip
    found = COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind run of {route!r} failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
    return int(found.group(1))


def child(route: str, calls: int) -> None:
    """Call ``route`` with counting on only for the measured calls (this process is callgrind's)."""
    pid = str(os.getpid())
    with tempfile.TemporaryDirectory() as tmp, open(Path(tmp) / "requests.log", "w") as lines:
        app, routes = seat_routes(tmp, lines)
        request, body = routes[route]

        async def run() -> None:
            async with app.router.lifespan_context(app):
                for _ in range(WARM_UP):
                    await call(app, request, body)
                subprocess.run(["callgrind_control", "--instr=on", pid], capture_output=True, check=True)
                for _ in range(calls):
                    await call(app, request, body)
                subprocess.run(["callgrind_control", "--instr=off", pid], capture_output=True, check=True)

        asyncio.run(run())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=100, help="calls of a route counted")
    ap.add_argument("--routes", default=",".join(ROUTES), help="comma-separated, of: " + ", ".join(ROUTES))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.calls < 1:
        ap.error("--calls is at least 1")
    if args.child:
        child(args.child, args.calls)
        return 0
    names = [name.strip() for name in args.routes.split(",") if name.strip()]
    unknown = sorted(set(names) - set(ROUTES))
    if unknown:
        ap.error(f"unknown routes {unknown}; they are: {', '.join(ROUTES)}")
    if not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        ap.error("Valgrind is not installed (apt-get install valgrind)")
    if "/healthz" not in names:
        names.insert(0, "/healthz")  # the reference
    per_call = {name: count(name, args.calls) / args.calls for name in names}
    python = sys.version.split()[0]
    print(f"the app's instructions a call, in-process (callgrind, {args.calls:,} calls; Python {python}):")
    for name, instructions in per_call.items():
        ratio = instructions / per_call["/healthz"]
        print(f"  {name:<12} {instructions:>12,.0f}   {ratio:5.2f} x /healthz")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
