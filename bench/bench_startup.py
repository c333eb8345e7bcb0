"""Hand-run benchmark: how long the ``interboard`` command takes to start and answer, against Python
itself starting, in the same run.

Run from the repository root (the CLI's extra installed)::

    python bench/bench_startup.py --repeat 20

Each command is run ``--repeat`` times as a new process, as the console script runs it
(``from interboard.cli.main import main; main()``), each round also running ``python -c pass``, so
that a busy machine slows both alike. The figures are the medians of the runs' wall time and CPU
time (user and system, the process's own), and the CPU time as a multiple of ``python -c pass``'s.
The last row is not a command but what ``interboard serve`` does before its first answer. Goal: each
command under 0.3 s of CPU; before the families loaded lazily, ``interboard --help``
took about 0.9 s, for importing every family's engine, bots and commands.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

SCRIPT = "import sys; from interboard.cli.main import main; sys.argv[0] = 'interboard'; main()"
"""What the ``interboard`` console script does (with this Python and its ``sys.path``)."""

APP = (
    "import tempfile; from interboard.service.api import create_app\n"
    "with tempfile.TemporaryDirectory() as d: create_app(f'sqlite:///{d}/a.sqlite')"
)
"""What a server process does before it answers: import the service and make its app (which lists
every variant) over a new SQLite file, migrated."""
SERVER_APP = "the server's app (create_app, new SQLite)"

COMMANDS: dict[str, list[str]] = {
    "python -c pass": [],
    "interboard --help": ["--help"],
    "interboard variants": ["variants"],
    "interboard odds (3 infantry against 2)": [
        "odds",
        "aa_europe_1999",
        "--attack",
        "3 infantry",
        "--defend",
        "2 infantry",
    ],
    SERVER_APP: [SERVER_APP],
}


def run(args: list[str]) -> tuple[float, float]:
    """One run of the command as a new process: its wall time and its CPU time, in seconds."""
    if args == [SERVER_APP]:
        command = [sys.executable, "-c", APP]
    else:
        command = [sys.executable, "-c", "pass"] if not args else [sys.executable, "-c", SCRIPT, *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=os.environ.copy())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="Runs of each command.")
    args = parser.parse_args()
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in COMMANDS}
    run(["--help"])  # warm: the first run compiles the modules' byte code
    for _ in range(args.repeat):
        for name, command in COMMANDS.items():
            runs[name].append(run(command))
    base_cpu = statistics.median(cpu for _, cpu in runs["python -c pass"])
    print(f"{'command':<40} {'wall':>9} {'CPU':>9} {'x pass':>7}")
    for name, times in runs.items():
        wall = statistics.median(w for w, _ in times)
        cpu = statistics.median(c for _, c in times)
        ratio = cpu / base_cpu if base_cpu > 0 else float("nan")
        print(f"{name:<40} {wall * 1000:>7.0f}ms {cpu * 1000:>7.0f}ms {ratio:>7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
