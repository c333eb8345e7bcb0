"""Every benchmark in ``bench/`` runs at its smallest size, as a user runs it, so that a refactor that
breaks one fails here. The figures themselves are taken by hand (no timing is asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"

SMOKE = {
    "bench_adjudicate.py": ["--games", "1", "--phases", "4", "--repeat", "1"],
    "bench_bots.py": [
        "--games",
        "1",
        "--workers",
        "1",
        "--max-year",
        "1901",
        "--boards",
        "standard",
        "--globalwar",
        "--turns",
        "1",
    ],
    "bench_aa_bots.py": [
        "--games",
        "1",
        "--rounds",
        "1",
        "--variants",
        "aa_europe_1999",
        "--opponents",
        "turtle",
    ],
    # One route under callgrind (each is a child process of ~20 s): the reference, after the same
    # app and game are made as for a seat's routes.
    "bench_instructions.py": ["--calls", "2", "--routes", "/healthz"],
    "bench_hexwar.py": [
        *("--positions", "2", "--games", "0", "--repeat", "1"),
        *("--bot-games", "1", "--max-turns", "2"),
    ],
    "bench_odds.py": ["--size", "4", "--error", "0.05"],
    "bench_server.py": [
        "--games",
        "1",
        "--seconds",
        "2",
        "--workers",
        "2",
        "--profile-seconds",
        "1",
        "--only",
        "sqlite",
        "--sqlite-synchronous",
        "normal",
        "--wrk-seconds",
        "1",
    ],
    "bench_legal.py": ["--phases", "4", "--repeat", "1"],
    "bench_maps.py": ["--repeat", "1"],
    "bench_request_line.py": ["--lines", "10", "--repeat", "1"],
    "bench_routes.py": ["--calls", "5", "--repeat", "1"],
    "bench_startup.py": ["--repeat", "1"],
    "bench_twin_earths.py": ["--games", "1", "--phases", "4", "--repeat", "1"],
    "make_mila_fixtures.py": ["--check"],
}
"""Each script with the arguments of its smallest run."""

REPORTED = {
    # Each board drawn from real geography against its cells, with both sizes of the SVG.
    "bench_maps.py": [r"^standard\s+\d+\.\dms\s+\d+\.\dms\s+\d+\.\d\d\s+\d+kB\s+\d+kB$"],
    # The bot table's rows, one a side, with games stopped at the turn cap counted as not won.
    "bench_hexwar.py": [r"^Germany\s+0/1 = ", r"^Allies\s+0/1 = "],
    # Each command's wall and CPU time, and its CPU time against Python's own start.
    "bench_startup.py": [
        r"^python -c pass\s+\d+ms\s+\d+ms\s+1\.0$",
        r"^interboard --help\s+\d+ms\s+\d+ms\s+\d+\.\d$",
        r"^interboard variants\s+\d+ms\s+\d+ms\s+\d+\.\d$",
        r"^interboard odds \(3 infantry against 2\)\s+\d+ms\s+\d+ms\s+\d+\.\d$",
        r"^the server's app \(create_app, new SQLite\)\s+\d+ms\s+\d+ms\s+\d+\.\d$",
    ],
    # The seats' client played whole rounds (views, trees, orders, Readies) with nothing refused.
    # The server's own count of its service's CPU reached the report: not nothing, for the views;
    # and its count of the writes committed in the event loops' batches.
    "bench_server.py": [
        r"^requests\s+[1-9]",
        r"^phases processed\s+[1-9]",
        r"^refused / failed\s+none$",
        r"^    view\s+(?!0\.00 )\d+\.\d\d ms",
        r"^writes / commits \(a batch's size\)\s+[1-9]\d* / [1-9]\d* \(\d+\.\d\d\)",
    ],
}
"""Lines a script's smallest run must print (regular expressions, each matching a line)."""


def test_every_benchmark_has_a_smoke_run() -> None:
    assert sorted(p.name for p in BENCH.glob("*.py")) == sorted(SMOKE)


def run_bench(script: str, args: list[str], where: Path, timeout: float = 600) -> str:
    """A benchmark run as a user runs it (from a directory of its own); what it printed. It must
    succeed."""
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-4000:]
    return done.stdout


@pytest.mark.parametrize("script", sorted(SMOKE))
def test_benchmark_runs_at_its_smallest_size(script: str, tmp_path: Path) -> None:
    printed = run_bench(script, SMOKE[script], tmp_path)
    assert printed.strip(), "a benchmark prints its figures"
    for line in REPORTED.get(script, []):
        assert re.search(line, printed, re.MULTILINE), f"no line {line!r} in:\n{printed[-3000:]}"


def test_the_server_benchmarks_idle_probe_samples_the_machine_with_no_load(tmp_path: Path) -> None:
    """``bench_server.py --idle-probe``: the speed probe alone, for the load's samples to be read
    against; it starts no server."""
    printed = run_bench("bench_server.py", ["--idle-probe", "2.5"], tmp_path, timeout=60)
    found = re.search(
        r"(\d+) samples, mean ([\d.]+), median ([\d.]+), fastest ([\d.]+), slowest ([\d.]+)", printed
    )
    assert found, printed
    count, mean, median, fastest, slowest = (float(x) for x in found.groups())
    assert count >= 2 and 0 < fastest <= min(mean, median) and max(mean, median) <= slowest
    assert "load" not in printed  # no server, no load
