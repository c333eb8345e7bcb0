"""Hand-run load benchmark of the game server over HTTP: SQLite and PostgreSQL side by side.

Needs the server and test extras (``pip install -e '.[test]'``: FastAPI, uvicorn, SQLAlchemy,
psycopg, httpx, pycurl). Run from the repository root::

    python bench/bench_server.py --games 10 --seconds 20

For each database (``--only`` one of them):

1. *load*: ``interboard serve`` is started as a subprocess on 127.0.0.1 and a free port, over a
   fresh SQLite file in a temporary directory, or over a fresh database of a throwaway PostgreSQL
   cluster started here (the Debian binaries, as the ``postgres`` user when run as root, the same
   way as ``tests/conftest.py``; speed-over-durability settings: ``fsync = off``), or of the server
   at ``--pg-url`` (a user that may create databases; else the database of the URL is used as it
   is). Once each server process listens (each has a socket of its own), ``--games`` standard games
   are created with every seat assigned. Then every seat (:class:`SeatLoad`: libcurl's multi
   interface, at most ``--workers`` requests in flight) repeats, until ``--seconds`` have passed or
   its game has played ``--phases`` phases: GET its seat view; if it must act and is not ready yet,
   GET its legal-order tree (``/options``), PUT one random legal order per unit (per build or
   removal due) for the current phase, and PUT ready; otherwise it waits ``--poll`` seconds and
   looks again. The last seat to get ready has the phase processed (the server's scheduler catches
   any that a race missed). Measured: requests per second, p50 / p99 latency overall and per
   endpoint kind, phases processed per second, the mean latency beside the mean time the server
   spent in the app on those requests (its own ``/metrics``: the rest is queueing, the kernel and
   this client), the status of every refused request (there should be no 5xx), the CPU used by the
   server's processes (and of it, by the server's own ``/metrics``, its game service's for each part
   of the seats' requests: views, trees, orders, Readies, the processing they lead to, the commits
   of the writes' batches; the rest is the HTTP server's, the framework's and the kernel's; and the
   seats' writes a commit, by its count of the event loops' batches), by the PostgreSQL processes
   (throwaway cluster only), by this client and by the whole machine (other processes share the
   CPUs), where the server's threads are (sampled from /proc: on a CPU, in a futex, sleeping in
   SQLite's busy back-off, in fsync, waiting on a socket), and on PostgreSQL what its backends are
   doing (pg_stat_activity: running, waiting on a lock, idle in a transaction). Beside the load, a probe
   times a fixed pure-Python loop once a second (:class:`SpeedProbe`): this virtual machine's speed
   moves within seconds (a run's mean sample 1.3-1.6 times its fastest), and the server's CPU a
   request with it; the report gives the probe's mean and fastest sample, and the server's CPU a
   request scaled to the fastest (a generous estimate: ``--idle-probe`` shows the samples spread as
   widely with no load). Then the server's CPU for lone seat views, one request in flight.
2. *profile*: the same workload is driven in-process, one thread, straight through
   :class:`~interboard.service.games.GameService` (no HTTP), on another fresh database, for
   ``--profile-seconds``: two thirds timed, one third under cProfile. Timed: wall and CPU time of
   each service call, and the rules code the family adapter calls, by wrapping its functions for the
   pass (record conversion, legal orders and their trees, order checking, adjudication). The service
   calls' time then splits into waiting on the database (wall - CPU - time runnable but descheduled:
   round trips, fsync, locks), descheduled, SQLAlchemy + driver + service code (CPU - rules) and the
   rules categories. cProfile names the hottest functions. The server's CPU per request under load,
   against what the same requests cost in the service calls alone, shows what the HTTP stack adds.

Only loopback traffic; every loop is bounded in count and in time; the server and the cluster are
stopped and the temporary files removed at the end, also on Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import functools
import glob
import heapq
import io
import json
import os
import pstats
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from interboard.service.observe import PUBLISH_S
from interboard.service.pgcluster import Cluster, find_pg_bin, free_port

HOST = "127.0.0.1"
REQUEST_TIMEOUT_S = 30.0
SERVER_START_TIMEOUT_S = 60.0
GRACE_S = REQUEST_TIMEOUT_S + 5.0
"""How long past ``--seconds`` the client waits for requests in flight before cancelling them."""
MAX_STEPS_PER_SEAT = 1_000_000
THREAD_SAMPLE_S = 0.2
"""How often the server's threads are sampled (``ThreadStates``): 100 samples in a 20 s run. Each
sample reads two /proc files a thread, this process's CPU, which is taken beside the server's: at
0.05 s the client used 35 % of a core, at 0.2 s 31-32 % (two alternate pairs of ``--only sqlite``)."""
MAX_PASS_ROUNDS = 1_000_000
KINDS = ("view", "options", "orders", "ready")
CLK_TCK = os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------------- CPU accounting (/proc)
def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # fields from the 3rd (state) on


def cpu_split(pid: int) -> tuple[float, float]:
    """(user + system, system) CPU seconds of one process: all of it, and the kernel's part
    ((0, 0) if it is gone)."""
    f = _stat(pid)
    if not f:
        return 0.0, 0.0
    return (int(f[11]) + int(f[12])) / CLK_TCK, int(f[12]) / CLK_TCK


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (0 if it is gone)."""
    return cpu_split(pid)[0]


def children(root: int) -> list[int]:
    """The live processes whose parent is ``root``."""
    out = []
    for d in glob.glob("/proc/[0-9]*"):
        pid = int(d.rsplit("/", 1)[1])
        f = _stat(pid)
        if f and int(f[1]) == root:
            out.append(pid)
    return out


def listeners(port: int) -> int:
    """The sockets listening on TCP ``port`` (each server worker has its own, see
    ``interboard/service/workers.py``)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                count += int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A"
    return count


def tree_cpu_split(root: int) -> tuple[float, float]:
    """(user + system, system) CPU seconds of ``root`` and its live children (a PostgreSQL
    postmaster and its backends; the server's worker processes): all of it, and the kernel's part
    (system calls: sockets, fsync)."""
    splits = [cpu_split(pid) for pid in (root, *children(root))]
    return sum(total for total, _ in splits), sum(system for _, system in splits)


def tree_cpu_seconds(root: int) -> float:
    """User + system CPU seconds of ``root`` and its live children (:func:`tree_cpu_split`)."""
    return tree_cpu_split(root)[0]


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, all CPUs (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields) - idle) / CLK_TCK, sum(fields) / CLK_TCK


SYSCALLS_X86_64 = {
    0: "socket", 7: "socket", 23: "socket", 45: "socket", 270: "socket", 271: "socket",
    202: "futex", 35: "sleep", 230: "sleep", 74: "fsync", 75: "fsync", 232: "event loop", 281: "event loop",
}  # fmt: skip
THREAD_STATES = (
    ("cpu", "on a CPU or runnable"),
    ("futex", "futex: waiting for the GIL, a lock, or idle"),
    ("sleep", "sleeping (SQLite busy back-off)"),
    ("fsync", "in fsync"),
    ("socket", "waiting on a socket (database)"),
)


class ThreadStates(threading.Thread):
    """Samples the server's threads (its worker processes' too) every ``interval`` seconds (at most
    ``limit_s``): running or runnable, else the system call each is blocked in (x86-64 numbers;
    elsewhere only running)."""

    def __init__(self, pid: int, interval: float, limit_s: float) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval, self.limit_s = pid, interval, limit_s
        self.stop_event = threading.Event()
        self.counts: Counter[str] = Counter()
        self.samples = 0
        self.names = SYSCALLS_X86_64 if os.uname().machine == "x86_64" else {}

    def run(self) -> None:
        start = time.perf_counter()
        pids = [self.pid, *children(self.pid)]  # the workers are started before the load
        for _ in range(int(self.limit_s / self.interval) + 1):
            if self.stop_event.wait(self.interval) or time.perf_counter() - start > self.limit_s:
                return
            for task in [t for pid in pids for t in glob.glob(f"/proc/{pid}/task/*")]:
                try:
                    stat = Path(task, "stat").read_text()
                    call = Path(task, "syscall").read_text().split()[0] if self.names else "?"
                except (OSError, IndexError):
                    continue
                if stat[stat.rindex(")") + 2] == "R" or call == "running":
                    self.counts["cpu"] += 1
                elif call.isdigit():
                    self.counts[self.names.get(int(call), "other")] += 1
            self.samples += 1

    def means(self) -> dict[str, float]:
        return {k: self.counts[k] / max(self.samples, 1) for k, _ in THREAD_STATES}


# ---------------------------------------------------------------------- PostgreSQL
class PgDatabases:
    """Fresh databases on a PostgreSQL server, dropped at the end. If the user may not create
    databases, the database of the URL itself is used (and left with the benchmark's games)."""

    def __init__(self, admin_url: str) -> None:
        from sqlalchemy import create_engine
        from sqlalchemy.engine import make_url
        from sqlalchemy.pool import NullPool

        url = make_url(admin_url)
        if url.drivername == "postgresql":
            url = url.set(drivername="postgresql+psycopg")
        self.url = url
        self.admin = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        self.created: list[str] = []
        self.note = ""

    def new(self) -> str:
        name = f"bench_{uuid.uuid4().hex[:16]}"
        try:
            with self.admin.connect() as conn:
                conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        except Exception as exc:  # no CREATEDB right: use the URL's own database
            self.note = f"could not create a database ({type(exc).__name__}); used {self.url.database}"
            return self.url.render_as_string(hide_password=False)
        self.created.append(name)
        return self.url.set(database=name).render_as_string(hide_password=False)

    def close(self) -> None:
        for name in self.created:
            with contextlib.suppress(Exception), self.admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.admin.dispose()


# ---------------------------------------------------------------------- the server subprocess
@contextlib.contextmanager
def server(db_url: str, sweep: float, workdir: Path, workers: int = 1) -> Iterator[tuple[str, int]]:
    """``interboard serve`` on 127.0.0.1 and a free port, with ``workers`` processes: yields (base
    URL, pid of the main process; with workers, their parent)."""
    port = free_port()
    log_path = workdir / f"server-{port}.log"
    cmd = [
        sys.executable, "-m", "interboard.cli.main", "serve",
        "--db", db_url, "--host", HOST, "--port", str(port), "--sweep", str(sweep),
        "--no-rate-limits",  # the load comes from one address: the server's own rate is measured
        "--workers", str(workers),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log_path.open("wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        for _ in range(int(SERVER_START_TIMEOUT_S / 0.1) + 1):
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"the server did not start (exit {proc.returncode}):\n{tail}")
            # Every worker listening: a connection opened before a worker listens is never its.
            with contextlib.suppress(httpx.HTTPError):
                answered = httpx.get(f"{base}/api/variants", timeout=2.0).status_code == 200
                if answered and (workers == 1 or listeners(port) >= workers):
                    break
            time.sleep(0.1)
        yield base, proc.pid
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # uvicorn shuts down gracefully
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.terminate()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=5)
        errors = [
            line
            for line in log_path.read_text(errors="replace").splitlines()
            if "Traceback" in line or " 500 " in line or "ERROR" in line
        ]
        if errors:
            print(f"  server log {log_path.name}: {len(errors)} error lines, e.g. {errors[0][:160]}")


# ---------------------------------------------------------------------- random legal orders
def _leaves(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [leaf for child in node.values() for leaf in _leaves(child)]
    return []


def pick_orders(tree: dict[str, Any], rng: random.Random) -> list[str]:
    """One random legal order per unit (or per build / removal due) from a seat's option tree.
    Movement: an order kind first, then an order of that kind, so that random play moves."""
    if not tree:
        return []
    due = int(tree.get("due") or 0)
    by_loc: dict[str, Any] = tree.get("orders") or {}
    locs = sorted(by_loc)
    if due > 0:
        return [rng.choice(_leaves(by_loc[loc])) for loc in rng.sample(locs, min(due, len(locs)))]
    if due < 0:
        return [rng.choice(_leaves(by_loc[loc])) for loc in rng.sample(locs, min(-due, len(locs)))]
    out = []
    for loc in locs:
        node = by_loc[loc]
        kinds = [k for k in node if _leaves(node[k])]
        if kinds:
            out.append(rng.choice(_leaves(node[rng.choice(kinds)])))
    return out


# ---------------------------------------------------------------------- the load run
@dataclass
class GameRun:
    game_id: str
    tokens: dict[str, str]
    start_index: int = 0
    end_index: int = 0
    by_ready: int = 0


@dataclass
class LoadResult:
    games: int
    seats: int
    elapsed: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[tuple[str, str]] = field(default_factory=Counter)
    phases: int = 0
    phases_by_ready: int = 0
    finished_games: int = 0
    server_cpu: float = 0.0
    server_system_cpu: float = 0.0
    """Of ``server_cpu``, the kernel's (system time)."""
    db_cpu: float | None = None
    client_cpu: float = 0.0
    examples: dict[tuple[str, str], str] = field(default_factory=dict)
    """The first refusal's message for each (endpoint kind, status)."""
    pg_backends: dict[str, float] | None = None
    """PostgreSQL backends of the server's database by state, mean over the run."""
    idle_cpu: float = 0.0
    """The idle server's CPU per second (its scheduler, asleep until a deadline)."""
    machine_busy: float = 0.0
    """Fraction of all the machine's CPUs busy during the run (every process)."""
    threads: dict[str, float] = field(default_factory=dict)
    """The server's threads by state, mean over the run."""
    serial_view_cpu: float | None = None
    """Server CPU per seat view with one request in flight (idle CPU taken off)."""
    seat_paths: list[tuple[str, str]] = field(default_factory=list)
    """Every seat's view path and token, for wrk."""
    wrk: dict[str, WrkRun] = field(default_factory=dict)
    """wrk's runs by route: the seat views and the trivial route."""
    speed: list[float] = field(default_factory=list)
    """The speed probe's samples during the run (:class:`SpeedProbe`)."""
    in_app: float | None = None
    """Mean seconds the seats' requests spent in the app (the server's own ``/metrics``, all its
    workers), against the client's mean latency: the rest is queued for a turn of an event loop,
    in the kernel, or in the client."""
    batches: tuple[float, float] = (0.0, 0.0)
    """The writes' commits during the run, and the writes in them (its own ``/metrics``)."""
    service_cpu: dict[str, float] = field(default_factory=dict)
    """CPU seconds the server's game service spent on the seats' requests during the run, by part
    (its own ``/metrics``, all its workers): the rest of the server's CPU is the HTTP server's, the
    framework's and the kernel's."""

    @property
    def requests(self) -> int:
        return sum(len(v) for v in self.latencies.values())


@dataclass
class Seat:
    """One seat's place in its round: the request it makes next, and what it has read."""

    game: GameRun
    name: str
    rng: random.Random
    kind: str = "view"
    phase: str = ""
    body: bytes = b""


class SeatLoad:
    """The seats' requests, sent through libcurl's multi interface (pycurl): at most ``workers`` at
    once, on kept connections. libcurl does the HTTP in C: in the load this client uses about a
    quarter of a core where aiohttp used 45 % (the report's "client CPU"). On a two-CPU machine
    the client shares the CPUs with the server it measures, so the less it takes, the less it skews
    the server's figures. Each request's latency is timed from when it is handed to libcurl (a free worker) to
    when its answer is read."""

    def __init__(self, base: str, workers: int, result: LoadResult, args: argparse.Namespace) -> None:
        import pycurl  # the bench extra; imported here so that ``--help`` needs only the standard library

        self.pycurl = pycurl
        self.base, self.result, self.args = base, result, args
        self.multi = pycurl.CurlMulti()
        self.multi.setopt(pycurl.M_MAX_HOST_CONNECTIONS, workers)
        self.multi.setopt(pycurl.M_MAXCONNECTS, workers)
        self.free = [pycurl.Curl() for _ in range(workers)]
        self.waiting: list[tuple[float, int, Seat]] = []  # (when it may go, order, seat): a heap
        self.order = 0
        self.in_flight: dict[Any, tuple[Seat, float, io.BytesIO]] = {}

    def run(self, seats: list[Seat], deadline: float) -> None:
        """Play the seats until ``deadline`` (then wait up to :data:`GRACE_S` for the answers due);
        once: the handles and their connections are closed at the end."""
        now = time.perf_counter()
        for seat in seats:
            self._later(seat, now)
        for _ in range(MAX_STEPS_PER_SEAT * max(len(seats), 1)):
            now = time.perf_counter()
            if now >= deadline + GRACE_S or (now >= deadline and not self.in_flight):
                break
            while self.free and self.waiting and self.waiting[0][0] <= now < deadline:
                self._send(heapq.heappop(self.waiting)[2])
            while self.multi.perform()[0] == self.pycurl.E_CALL_MULTI_PERFORM:
                pass
            if not self._answered():
                until = self.waiting[0][0] - now if self.waiting and self.free else 0.01
                pause = min(max(until, 0.0), 0.01)
                if self.in_flight:
                    self.multi.select(pause)  # wakes when an answer arrives
                else:
                    time.sleep(pause)  # nothing to wait on but the clock
        for handle in list(self.in_flight):  # past the grace: not answered in time
            self.multi.remove_handle(handle)
            self.free.append(handle)
            self.result.statuses[(self.in_flight.pop(handle)[0].kind, "exception timeout")] += 1
        for handle in self.free:
            handle.close()
        self.multi.close()  # its connections with it

    def _later(self, seat: Seat, when: float) -> None:
        self.order += 1
        heapq.heappush(self.waiting, (when, self.order, seat))

    def _send(self, seat: Seat) -> None:
        pycurl, handle = self.pycurl, self.free.pop()
        gid, token = seat.game.game_id, seat.game.tokens[seat.name]
        path = {"view": "seat", "options": "options", "orders": "orders", "ready": "ready"}[seat.kind]
        handle.reset()  # the options of the last request (a PUT's body) gone; the connections kept
        handle.setopt(pycurl.URL, f"{self.base}/api/games/{gid}/{path}")
        headers = [f"Authorization: Bearer {token}"]
        if seat.kind in ("orders", "ready"):
            headers += ["Content-Type: application/json", "Expect:"]
            handle.setopt(pycurl.CUSTOMREQUEST, "PUT")
            handle.setopt(pycurl.POSTFIELDS, seat.body)
        handle.setopt(pycurl.HTTPHEADER, headers)
        handle.setopt(pycurl.TIMEOUT_MS, int(REQUEST_TIMEOUT_S * 1000))
        handle.setopt(pycurl.NOSIGNAL, 1)  # no SIGALRM for its timeouts: this process has threads
        buffer = io.BytesIO()
        handle.setopt(pycurl.WRITEDATA, buffer)
        self.in_flight[handle] = (seat, time.perf_counter(), buffer)
        self.multi.add_handle(handle)

    def _answered(self) -> int:
        """Take the answers libcurl has finished; their number."""
        count = 0
        while True:
            _queued, ok, failed = self.multi.info_read()
            for handle, *error in [(h,) for h in ok] + failed:
                seat, started, buffer = self.in_flight.pop(handle)
                self.multi.remove_handle(handle)
                self.free.append(handle)
                status, data = -1, None
                if error:
                    self.result.statuses[(seat.kind, f"exception curl {error[0]}")] += 1
                    self.result.examples.setdefault((seat.kind, f"exception curl {error[0]}"), str(error[1]))
                else:
                    status = handle.getinfo(self.pycurl.RESPONSE_CODE)
                    try:
                        content = buffer.getvalue()
                        data = json.loads(content) if content else None
                    except ValueError:
                        status = -1
                        self.result.statuses[(seat.kind, "exception ValueError")] += 1
                self.result.latencies[seat.kind].append(time.perf_counter() - started)
                if status >= 300:
                    self.result.statuses[(seat.kind, str(status))] += 1
                    if isinstance(data, dict):
                        example = str(data.get("error", ""))[:120]
                        self.result.examples.setdefault((seat.kind, str(status)), example)
                self._next(seat, status, data)
                count += 1
            if not ok and not failed:
                return count

    def _next(self, seat: Seat, status: int, data: Any) -> None:
        """What the seat does after this answer: a round is view, tree, orders, Ready; a seat with
        nothing to do waits ``--poll`` seconds (about) and looks again."""
        now, args, kind = time.perf_counter(), self.args, seat.kind
        seat.kind = "view"
        if kind == "view":
            if status != 200:
                self._later(seat, now + args.poll)
                return
            if data["status"] != "active" or (
                args.phases and data["phase_index"] - seat.game.start_index >= args.phases
            ):
                return  # this seat is done
            if seat.name not in data["acting"] or data["seat"]["ready"]:
                self._later(seat, now + args.poll * seat.rng.uniform(0.5, 1.5))
                return
            seat.kind, seat.phase = "options", data["phase"]
        elif kind == "options" and status == 200:
            seat.kind = "orders"
            seat.body = json.dumps({"phase": seat.phase, "orders": pick_orders(data, seat.rng)}).encode()
        elif kind == "orders" and status == 200:
            seat.kind = "ready"
            seat.body = json.dumps({"phase": seat.phase, "value": True}).encode()
        elif kind == "ready" and status == 200 and data.get("processed"):
            seat.game.by_ready += 1
        self._later(seat, now)  # anything refused (a stale phase's 409, say): look again


SPEED_LOOP = 100_000
"""Additions a speed sample times."""


class SpeedProbe:
    """The machine's speed beside the load: once a second, the CPU milliseconds a fixed pure-Python
    loop takes, in a process of its own (about 1 % of a CPU). On this virtual machine it moves within
    seconds, and the server's CPU a request moves with it: runs are compared with it in view."""

    CODE = (
        "import time\n"
        "while True:\n"
        "    started, x = time.process_time(), 0\n"
        f"    for i in range({SPEED_LOOP}): x += i\n"
        "    print((time.process_time() - started) * 1e3, flush=True)\n"
        "    time.sleep(1.0)\n"
    )

    def __enter__(self) -> SpeedProbe:
        self.proc = subprocess.Popen([sys.executable, "-c", self.CODE], stdout=subprocess.PIPE, text=True)
        return self

    def stop(self) -> list[float]:
        """Stops it; the samples taken, in CPU milliseconds."""
        self.proc.terminate()
        out, _ = self.proc.communicate(timeout=10)
        return [float(line) for line in out.split()]

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.stop()


class PgActivity(threading.Thread):
    """Counts the backends of one PostgreSQL database by state every ``interval`` seconds (at most
    ``limit_s`` seconds): running, waiting on a lock, idle in a transaction, idle."""

    def __init__(self, db_url: str, interval: float, limit_s: float) -> None:
        super().__init__(daemon=True)
        self.db_url, self.interval, self.limit_s = db_url, interval, limit_s
        self.stop_event = threading.Event()
        self.counts: Counter[str] = Counter()
        self.samples = 0
        self.error = ""

    def run(self) -> None:
        from sqlalchemy import create_engine, text
        from sqlalchemy.pool import NullPool

        query = text(
            "SELECT state, wait_event_type FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        engine = create_engine(self.db_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        try:
            with engine.connect() as conn:
                start = time.perf_counter()
                for _ in range(int(self.limit_s / self.interval) + 1):
                    if self.stop_event.wait(self.interval) or time.perf_counter() - start > self.limit_s:
                        break
                    for state, wait in conn.execute(query):
                        if state == "active":
                            self.counts["waiting on a lock" if wait == "Lock" else "running"] += 1
                        elif state and state.startswith("idle in transaction"):
                            self.counts["idle in transaction"] += 1
                        else:
                            self.counts["idle"] += 1
                    self.samples += 1
        except Exception as exc:  # a diagnostic only: the benchmark goes on without it
            self.error = f"{type(exc).__name__}: {exc}"[:200]
        finally:
            engine.dispose()

    def means(self) -> dict[str, float]:
        keys = ("running", "waiting on a lock", "idle in transaction", "idle")
        return {k: self.counts[k] / max(self.samples, 1) for k in keys}


def serial_views(http: httpx.Client, game: GameRun, server_pid: int, n: int) -> tuple[float, float]:
    """(Server CPU per seat view with one request in flight, less the idle server's CPU; the idle
    server's CPU per second.)"""
    token = next(iter(game.tokens.values()))
    headers = {"Authorization": f"Bearer {token}"}
    cpu0, t0 = tree_cpu_seconds(server_pid), time.perf_counter()
    time.sleep(1.0)
    idle = (tree_cpu_seconds(server_pid) - cpu0) / (time.perf_counter() - t0)
    cpu0, t0 = tree_cpu_seconds(server_pid), time.perf_counter()
    done = 0
    for _ in range(n):
        if time.perf_counter() - t0 > 10.0:
            break
        http.get(f"/api/games/{game.game_id}/seat", headers=headers).raise_for_status()
        done += 1
    busy = tree_cpu_seconds(server_pid) - cpu0 - idle * (time.perf_counter() - t0)
    return busy / max(done, 1), idle


APP_TIME = "interboard_http_request_duration_seconds"
SEAT_ROUTES = {f"/api/games/{{game_id}}/{name}" for name in ("seat", "options", "orders", "ready")}


BATCHES = ("interboard_write_commits_total", "interboard_batched_writes_total")
SERVICE_CPU = "interboard_service_cpu_seconds_total"
SERVICE_PARTS = ("view", "tree", "orders", "ready", "process", "commit")
"""The parts of the seats' requests the server counts the service's CPU of, as its metrics name them."""


@dataclass(frozen=True)
class ServerCounts:
    """What the server has counted so far, from its ``/metrics``, where every worker counts for all
    (``docs/server.md``)."""

    app_seconds: float
    """Seconds spent in the app on the seats' routes."""
    app_requests: float
    """The seats' requests answered."""
    service_cpu: dict[str, float]
    """CPU seconds of the game service on each part of the seats' requests (:data:`SERVICE_PARTS`)."""
    batches: tuple[float, float]
    """The event loops' batches of writes committed, and the writes in them (``service/batching.py``)."""


def server_counts(http: httpx.Client) -> ServerCounts:
    """Read the server's counts (one ``GET /metrics``)."""
    answer = http.get("/metrics")
    answer.raise_for_status()
    app = {f"{APP_TIME}_sum": 0.0, f"{APP_TIME}_count": 0.0}
    spent = dict.fromkeys(SERVICE_PARTS, 0.0)
    batches = dict.fromkeys(BATCHES, 0.0)
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            if sample.name in app and sample.labels.get("route") in SEAT_ROUTES:
                app[sample.name] += sample.value
            elif sample.name == SERVICE_CPU and sample.labels.get("part") in spent:
                spent[sample.labels["part"]] += sample.value
            elif sample.name in batches:
                batches[sample.name] += sample.value
    commits, writes = batches.values()
    return ServerCounts(app[f"{APP_TIME}_sum"], app[f"{APP_TIME}_count"], spent, (commits, writes))


def load(
    base: str,
    args: argparse.Namespace,
    db_pid: Callable[[], int | None],
    server_pid: int,
    pg_url: str | None,
) -> LoadResult:
    with httpx.Client(base_url=base, timeout=REQUEST_TIMEOUT_S) as http:

        def get_json(path: str) -> Any:
            answer = http.get(path)
            answer.raise_for_status()
            return answer.json()

        seats = next(v["seats"] for v in get_json("/api/variants") if v["id"] == "standard")
        games = []
        for i in range(args.games):
            answer = http.post(
                "/api/games",
                json={"variant": "standard", "title": f"bench {i}", "press": "none",
                      "seats": {p: f"bench {p.title()}" for p in seats}},
            )  # fmt: skip
            answer.raise_for_status()
            created = answer.json()
            games.append(GameRun(created["game_id"], created["seat_tokens"]))
        for g in games:
            view = get_json(f"/api/games/{g.game_id}")
            if view["status"] != "active":
                raise RuntimeError(f"game {g.game_id} is {view['status']}, not active")
            g.start_index = view["phase_index"]

        result = LoadResult(games=len(games), seats=len(seats))
        result.seat_paths = [(f"/api/games/{g.game_id}/seat", t) for g in games for t in g.tokens.values()]
        seat_load = SeatLoad(base, args.workers, result, args)
        rng = random.Random(args.seed)
        pg = db_pid()
        (cpu0, system0), db0, me0 = (
            tree_cpu_split(server_pid),
            tree_cpu_seconds(pg) if pg else None,
            time.process_time(),
        )
        watch = PgActivity(pg_url, 0.2, args.seconds + GRACE_S) if pg_url else None
        if watch:
            watch.start()
        threads = ThreadStates(server_pid, THREAD_SAMPLE_S, args.seconds + GRACE_S)
        threads.start()
        busy0, all0 = machine_cpu()
        counts0 = server_counts(http)
        with SpeedProbe() as probe:
            t0 = time.perf_counter()
            deadline = t0 + args.seconds
            seats_played = [Seat(g, p, random.Random(rng.random())) for g in games for p in seats]
            seat_load.run(seats_played, deadline)
            result.elapsed = time.perf_counter() - t0
            result.speed = probe.stop()
        cpu1, system1 = tree_cpu_split(server_pid)
        result.server_cpu, result.server_system_cpu = cpu1 - cpu0, system1 - system0
        result.db_cpu = tree_cpu_seconds(pg) - db0 if pg and db0 is not None else None
        result.client_cpu = time.process_time() - me0
        busy1, all1 = machine_cpu()
        result.machine_busy = (busy1 - busy0) / max(all1 - all0, 1e-9)
        threads.stop_event.set()
        threads.join(timeout=10)
        result.threads = threads.means()
        if watch:
            watch.stop_event.set()
            watch.join(timeout=10)
            result.pg_backends = watch.means()
            if watch.error:
                result.examples[("pg_stat_activity", "error")] = watch.error
        for g in games:
            view = get_json(f"/api/games/{g.game_id}")
            g.end_index = view["phase_index"]
            result.finished_games += view["status"] == "finished"
        result.phases = sum(g.end_index - g.start_index for g in games)
        result.phases_by_ready = sum(g.by_ready for g in games)
        time.sleep(2 * PUBLISH_S)  # each worker publishes its last requests' counts meanwhile
        counts1 = server_counts(http)
        result.service_cpu = {p: counts1.service_cpu[p] - counts0.service_cpu[p] for p in SERVICE_PARTS}
        result.batches = (
            counts1.batches[0] - counts0.batches[0],
            counts1.batches[1] - counts0.batches[1],
        )
        if counts1.app_requests > counts0.app_requests:
            answered = counts1.app_requests - counts0.app_requests
            result.in_app = (counts1.app_seconds - counts0.app_seconds) / answered
        with contextlib.suppress(httpx.HTTPError):
            result.serial_view_cpu, result.idle_cpu = serial_views(http, games[0], server_pid, 200)
        return result


# ---------------------------------------------------------------------- wrk: the HTTP stack's ceiling
@dataclass
class WrkRun:
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    server_cpu: float
    errors: str

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    @property
    def cpu_per_request(self) -> float:
        return self.server_cpu / max(self.requests, 1)


WRK_SCRIPT = """
local paths = {%s}
local i = 0
request = function()
  i = i %% #paths + 1
  return wrk.format("GET", paths[i][1], {["Authorization"] = "Bearer " .. paths[i][2]})
end
"""


def wrk_run(
    base: str, pid: int, paths: list[tuple[str, str]], args: argparse.Namespace, workdir: Path
) -> WrkRun:
    """wrk (a C load generator: the client costs little beside the server) over ``paths`` in turn,
    with as many connections as the load run's workers, on 2 threads."""
    script = workdir / "wrk.lua"
    script.write_text(WRK_SCRIPT % ", ".join(f'{{"{p}", "{t}"}}' for p, t in paths))
    cmd = [
        "wrk",
        "-t2",
        f"-c{args.workers}",
        f"-d{args.wrk_seconds:g}s",
        "--latency",
        "-s",
        str(script),
        base,
    ]
    cpu0 = tree_cpu_seconds(pid)
    out = subprocess.run(
        cmd, capture_output=True, text=True, timeout=args.wrk_seconds + 60, check=True
    ).stdout
    cpu = tree_cpu_seconds(pid) - cpu0

    def latency_ms(label: str) -> float:
        value = next(line.split()[1] for line in out.splitlines() if line.strip().startswith(label))
        for unit, scale in (("us", 1e-3), ("ms", 1.0), ("s", 1e3)):
            if value.endswith(unit):
                return float(value[: -len(unit)]) * scale
        return float("nan")

    done = next(line for line in out.splitlines() if "requests in" in line).split()
    errors = [line.strip() for line in out.splitlines() if "Non-2xx" in line or "Socket errors" in line]
    seconds = float(done[3].rstrip("s,"))
    return WrkRun(int(done[0]), seconds, latency_ms("50%"), latency_ms("99%"), cpu, "; ".join(errors))


def wrk_stage(
    base: str, pid: int, seat_paths: list[tuple[str, str]], args: argparse.Namespace, workdir: Path
) -> dict[str, WrkRun]:
    """Every seat's view in turn (the games at rest), then the trivial route on the same server."""
    return {
        "seat views": wrk_run(base, pid, seat_paths, args, workdir),
        "/healthz": wrk_run(base, pid, [("/healthz", "-")], args, workdir),
    }


# ---------------------------------------------------------------------- the in-process profile
CATEGORIES = (
    ("db_wait", "waiting on the database (round trips, fsync, locks)"),
    ("runqueue", "descheduled (CPUs busy with other processes)"),
    ("db_cpu", "SQLAlchemy + driver + service code (CPU)"),
    ("record", "game record <-> objects (diplomacy record)"),
    ("legal", "legal orders (listing, option tree)"),
    ("check", "order parsing and checking"),
    ("adjudicate", "adjudication (Game.process)"),
    ("rules", "other rules code (family adapter)"),
)
RULES = ("record", "legal", "check", "adjudicate", "rules")


class Timers:
    """Exclusive CPU time per category of the rules code the service calls, by wrapping the
    functions the family adapter calls (restored afterwards). Single-threaded use only."""

    def __init__(self) -> None:
        self.exclusive: Counter[str] = Counter()
        self.stack: list[float] = []
        self.undo: list[Callable[[], None]] = []

    def wrap(self, owner: Any, name: str, category: str) -> None:
        original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)

        @functools.wraps(original)
        def timed(*a: Any, **k: Any) -> Any:
            t = time.thread_time()
            self.stack.append(0.0)
            try:
                return original(*a, **k)
            finally:
                elapsed = time.thread_time() - t
                self.exclusive[category] += elapsed - self.stack.pop()
                if self.stack:
                    self.stack[-1] += elapsed

        setattr(owner, name, timed)
        self.undo.append(lambda: setattr(owner, name, original))

    def install(self) -> None:
        from interboard.games.diplomacy import family as families
        from interboard.games.diplomacy.game import Game

        for name in ("seats", "pending", "check", "process", "view", "options", "winners"):
            self.wrap(families.DiplomacyFamily, name, "rules")
        for name in ("game_from_json", "game_to_json", "position_to_json", "result_to_json"):
            self.wrap(families, name, "record")
        self.wrap(families, "legal_orders", "legal")
        self.wrap(families, "power_tree", "legal")
        self.wrap(families, "parse_power_order", "check")
        self.wrap(families, "check_order", "check")
        self.wrap(Game, "process", "adjudicate")

    def remove(self) -> None:
        for undo in reversed(self.undo):
            undo()
        self.undo.clear()


@dataclass
class PassResult:
    seconds: float = 0.0
    calls: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    cpu_by_kind: Counter[str] = field(default_factory=Counter)
    cpu: float = 0.0
    wall: float = 0.0
    runqueue: float = 0.0
    statements: int = 0
    """SQL statements sent through SQLAlchemy or on the driver's cursor (``prepared.py``); not
    counting PostgreSQL's BEGIN, COMMIT, pre-ping."""
    transactions: int = 0
    """Connections checked out of the pool: one per transaction."""
    split: dict[str, float] = field(default_factory=dict)
    phases: int = 0
    hottest: list[tuple[str, float]] = field(default_factory=list)


def ready(svc: Any, game_id: str, token: str, phase: str) -> bool:
    """What PUT /ready does: mark the seat ready, then process the phase if every seat is."""
    svc.set_ready(game_id, token, phase, True)
    processed: bool = svc.try_process(game_id)
    return processed


def play(svc: Any, games: list[Any], rng: random.Random, seconds: float, timed: Callable[..., Any]) -> int:
    """The load's workload in one thread: every seat looks at its view and, if it must act, gets its
    options, submits random legal orders and gets ready. Returns the number of phases processed."""
    phases = 0
    t0 = time.perf_counter()
    for _ in range(MAX_PASS_ROUNDS):
        if time.perf_counter() - t0 >= seconds:
            break
        active = False
        for g in games:
            for seat, token in g.seat_tokens.items():
                view = timed("view", svc.seat_view, g.game_id, token)
                if view["status"] != "active":
                    continue
                active = True
                if seat not in view["acting"] or view["seat"]["ready"]:
                    continue
                tree = timed("options", svc.options, g.game_id, token)
                timed("orders", svc.submit, g.game_id, token, view["phase"], pick_orders(tree, rng))
                phases += timed("ready", ready, svc, g.game_id, token, view["phase"])
        if not active:
            break
    return phases


def runqueue_seconds() -> float:
    """Seconds this thread has waited for a CPU while runnable (0 where schedstat is missing)."""
    try:
        return int(Path("/proc/thread-self/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def service_pass(db_url: str, games: int, seconds: float, args: argparse.Namespace) -> PassResult:
    """The load's workload in-process, one thread, straight through the service: two thirds of
    ``seconds`` timed (wall and CPU per call, the rules code by category), one third under cProfile
    for the hottest functions."""
    from interboard.service.games import GameService, NewGame
    from interboard.service.store import open_store

    engine = open_store(db_url)
    out = PassResult()
    try:
        svc = GameService(engine)
        seats = next(v["seats"] for v in svc.variants() if v["id"] == "standard")
        created = [
            svc.create(NewGame(variant="standard", title=f"pass {i}", press="none",
                               seats={p: f"bench {p.title()}" for p in seats}))
            for i in range(games)
        ]  # fmt: skip
        rng = random.Random(args.seed + 1)
        timers = Timers()

        def timed(kind: str, fn: Callable[..., Any], *a: Any) -> Any:
            t, c, q = time.perf_counter(), time.thread_time(), runqueue_seconds()
            result = fn(*a)
            wall, cpu = time.perf_counter() - t, time.thread_time() - c
            out.runqueue += runqueue_seconds() - q
            kind = "ready+process" if kind == "ready" and result else kind
            out.calls[kind].append(wall)
            out.cpu_by_kind[kind] += cpu
            out.wall += wall
            out.cpu += cpu
            return result

        from sqlalchemy import event

        def count_statement(*_: Any) -> None:
            out.statements += 1

        def count_checkout(*_: Any) -> None:
            out.transactions += 1

        from interboard.service.prepared import Prepared

        run_prepared = Prepared._execute

        def count_prepared(self: Prepared, *a: Any) -> Any:
            count_statement()
            return run_prepared(self, *a)

        event.listen(engine, "before_cursor_execute", count_statement)
        event.listen(engine.pool, "checkout", count_checkout)
        Prepared._execute = count_prepared  # type: ignore[method-assign]
        timers.install()
        t0 = time.perf_counter()
        try:
            out.phases = play(svc, created, rng, seconds * 2 / 3, timed)
        finally:
            timers.remove()
            event.remove(engine, "before_cursor_execute", count_statement)
            Prepared._execute = run_prepared  # type: ignore[method-assign]
            event.remove(engine.pool, "checkout", count_checkout)
        out.seconds = time.perf_counter() - t0
        rules = sum(timers.exclusive[c] for c in RULES)
        out.split = {
            "db_wait": max(out.wall - out.cpu - out.runqueue, 0.0),
            "runqueue": out.runqueue,
            "db_cpu": max(out.cpu - rules, 0.0),
            **{c: timers.exclusive[c] for c in RULES},
        }

        profiler = cProfile.Profile()
        profiler.enable()
        try:
            play(svc, created, rng, seconds / 3, lambda _kind, fn, *a: fn(*a))
        finally:
            profiler.disable()
        stats = pstats.Stats(profiler)
        rows = stats.stats  # type: ignore[attr-defined]
        total = sum(tt for (_cc, _nc, tt, _ct, _callers) in rows.values()) or 1.0
        top = sorted(rows.items(), key=lambda kv: -kv[1][2])[:5]
        out.hottest = [(_fname(func), tt / total) for func, (_cc, _nc, tt, _ct, _c) in top]
        return out
    finally:
        engine.dispose()


def _fname(func: tuple[str, int, str]) -> str:
    file, _line, name = func
    if file == "~":
        return name
    p = Path(file)
    return f"{p.parent.name}/{p.name}:{name}"


# ---------------------------------------------------------------------- one database
@dataclass
class BackendResult:
    name: str
    load: LoadResult
    prof: PassResult
    note: str = ""
    workers: int = 1
    """The server's processes."""


def run_backend(name: str, args: argparse.Namespace, workdir: Path) -> BackendResult:
    cluster: Cluster | None = None
    dbs: PgDatabases | None = None
    note = ""
    try:
        if name == "sqlite":
            sync = f"?synchronous={args.sqlite_synchronous}"
            load_url, pass_url = (
                f"sqlite:///{workdir / 'load.sqlite'}{sync}",
                f"sqlite:///{workdir / 'pass.sqlite'}{sync}",
            )
            db_pid: Callable[[], int | None] = lambda: None  # noqa: E731
        else:
            admin = args.pg_url
            if admin is None:
                bin_dir = find_pg_bin()
                if bin_dir is None:
                    raise RuntimeError("no PostgreSQL binaries (apt-get install postgresql) and no --pg-url")
                cluster = Cluster(bin_dir)
                print(f"  starting a throwaway PostgreSQL cluster ({bin_dir}) ...", flush=True)
                admin = cluster.start().render_as_string(hide_password=False)
            dbs = PgDatabases(admin)
            load_url, pass_url = dbs.new(), dbs.new()
            note = dbs.note
            db_pid = cluster.postmaster_pid if cluster else lambda: None
        print(f"  load: {args.games} games, {args.seconds:g} s, {args.workers} workers ...", flush=True)
        with server(load_url, args.sweep, workdir, args.server_workers) as (base, pid):
            pg_watch = load_url if name == "postgresql" else None
            result = load(base, args, db_pid, pid, pg_watch)
            if args.wrk_seconds and shutil.which("wrk"):
                print(f"  wrk: seat views, then /healthz, {args.wrk_seconds:g} s each ...", flush=True)
                result.wrk = wrk_stage(base, pid, result.seat_paths, args, workdir)
        print(f"  profile: in-process pass, {args.profile_seconds:g} s ...", flush=True)
        prof = service_pass(pass_url, min(args.games, 3), args.profile_seconds, args)
        return BackendResult(name, result, prof, note, args.server_workers)
    finally:
        if dbs is not None:
            dbs.close()
        if cluster is not None:
            cluster.stop()


# ---------------------------------------------------------------------- report
def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else float("nan")


def lat(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"{pct(xs, 0.5) * 1e3:.1f} / {pct(xs, 0.99) * 1e3:.1f} ms (n={len(xs)})"


def mean_ms(xs: list[float]) -> str:
    return f"{sum(xs) / len(xs) * 1e3:.2f} ms" if xs else "-"


def service_cpu_for_load(r: BackendResult) -> float:
    """Seconds of service-call CPU (the in-process pass's mean per call kind) the load's requests
    would cost without HTTP."""
    P, L = r.prof, r.load
    per = {k: P.cpu_by_kind[k] / len(P.calls[k]) for k in P.calls if P.calls[k]}
    n = {k: len(L.latencies.get(k, [])) for k in KINDS}
    n["ready+process"] = min(L.phases_by_ready, n["ready"])
    n["ready"] -= n["ready+process"]
    return sum(per.get(k, per.get("ready", 0.0)) * c for k, c in n.items())


def request_cpu(L: LoadResult) -> float:
    """Server CPU seconds per request under load, less what the idle server spends (its scheduler)."""
    return max(L.server_cpu - L.idle_cpu * L.elapsed, 0.0) / max(L.requests, 1)


def service_view_cpu(r: BackendResult) -> float:
    n = len(r.prof.calls.get("view", []))
    return r.prof.cpu_by_kind["view"] / n if n else 0.0


def limit_line(r: BackendResult) -> str:
    """What limits throughput, in one line, from the numbers measured."""
    L, P = r.load, r.prof
    ncpu = os.cpu_count() or 1
    cpu = L.server_cpu / L.elapsed
    ours = (L.server_cpu + (L.db_cpu or 0.0) + L.client_cpu) / L.elapsed
    others = max(L.machine_busy * ncpu - ours, 0.0)
    total = sum(P.split.values()) or 1.0
    share = {c: P.split.get(c, 0.0) / total for c, _ in CATEGORIES}
    names = {c: label.split(" (")[0] for c, label in CATEGORIES}
    top = ", ".join(f"{names[c]} {v:.0%}" for c, v in sorted(share.items(), key=lambda kv: -kv[1])[:2])
    per_req = request_cpu(L) * 1e3
    n_calls = max(sum(len(v) for v in P.calls.values()), 1)
    stmts, txs = P.statements / n_calls, P.transactions / n_calls
    service = sum(L.service_cpu.values()) / max(L.requests, 1) * 1e3
    if L.machine_busy >= 0.9:
        bound = (
            f"CPU: the machine's {ncpu} CPUs are {L.machine_busy:.0%} busy (server {cpu:.0%} of a core, "
            f"client {L.client_cpu / L.elapsed:.0%}, database {(L.db_cpu or 0.0) / L.elapsed:.0%}, "
            f"other processes {others:.0%})"
        )
    elif cpu >= 0.8 * r.workers:
        bound = (
            f"CPU: the server's {r.workers} process{'es' if r.workers > 1 else ''} use {cpu:.0%} of a "
            f"core (each Python process runs on one core at a time, GIL)"
        )
    else:
        bound = (
            f"waiting: the server uses only {cpu:.0%} of a core and the machine is {L.machine_busy:.0%} busy"
        )
    waits = [
        f"{L.threads.get(k, 0.0):.1f} {label}"
        for k, label in (
            ("sleep", "in SQLite's busy back-off"),
            ("fsync", "in fsync"),
            ("socket", "waiting on the database socket"),
        )
        if L.threads.get(k, 0.0) >= 0.1
    ]
    if L.pg_backends and L.pg_backends["waiting on a lock"] >= 0.1:
        waits.append(f"{L.pg_backends['waiting on a lock']:.1f} PostgreSQL backends waiting on a row lock")
    return (
        f"limit ({r.name}): {bound}; {per_req:.1f} ms server CPU per request, ~{service:.1f} ms of it in "
        f"the service calls ({top}; adjudication {share['adjudicate']:.1%}; {stmts:.1f} SQL statements "
        f"in {txs:.1f} transactions per call), the rest in the HTTP stack"
        + (f"; threads on average {', '.join(waits)}" if waits else "")
        + "."
    )


def per_request(L: LoadResult, seconds: float) -> str:
    """``seconds`` of the server's CPU spread over the load's requests, in ms."""
    return f"{seconds / max(L.requests, 1) * 1e3:.2f} ms"


def idle_probe(seconds: float) -> None:
    """The speed probe alone, with no load: what the machine's speed does by itself, for the
    load's mean and fastest samples to be read against."""
    with SpeedProbe() as probe:
        time.sleep(seconds)
        xs = sorted(probe.stop())
    if not xs:
        print("idle speed probe: no sample (run it for a second or more)")
        return
    print(
        f"idle speed probe, {SPEED_LOOP:,} additions a second for {seconds:g} s: {len(xs)} samples, "
        f"mean {sum(xs) / len(xs):.1f}, median {xs[len(xs) // 2]:.1f}, fastest {xs[0]:.1f}, "
        f"slowest {xs[-1]:.1f} ms CPU"
    )


def speed(r: BackendResult) -> str:
    xs = r.load.speed
    return f"{sum(xs) / len(xs):.1f} / {min(xs):.1f} ms CPU" if xs else "-"


def at_fastest(r: BackendResult) -> str:
    """The server's CPU a request scaled by how much slower than its fastest sample the machine was
    on average during the run: an estimate of what it costs on this machine at its best."""
    xs = r.load.speed
    return f"{request_cpu(r.load) * min(xs) / (sum(xs) / len(xs)) * 1e3:.2f} ms" if xs else "-"


def report(results: list[BackendResult], args: argparse.Namespace) -> None:
    names = [r.name for r in results]
    rows: list[tuple[str, list[str]]] = []

    def row(label: str, fn: Callable[[BackendResult], str]) -> None:
        rows.append((label, [fn(r) for r in results]))

    def split(r: BackendResult, c: str) -> str:
        return f"{r.prof.split.get(c, 0.0) / max(sum(r.prof.split.values()), 1e-9):.1%}"

    def mean_in_app(r: BackendResult) -> str:
        seen = [x for v in r.load.latencies.values() for x in v]
        if not seen or r.load.in_app is None:
            return "-"
        return f"{sum(seen) / len(seen) * 1e3:.1f} / {r.load.in_app * 1e3:.2f} ms"

    def calls(r: BackendResult, k: str) -> str:
        xs = r.prof.calls.get(k, [])
        return f"{mean_ms(xs)} (n={len(xs)})"

    row("games x seats", lambda r: f"{r.load.games} x {r.load.seats}")
    row("run time", lambda r: f"{r.load.elapsed:.1f} s")
    row("requests", lambda r: f"{r.load.requests}")
    row("requests/s", lambda r: f"{r.load.requests / r.load.elapsed:.1f}")
    row("phases processed", lambda r: f"{r.load.phases} ({r.load.phases_by_ready} on a ready request)")
    row("phases/s", lambda r: f"{r.load.phases / r.load.elapsed:.2f}")
    row("games finished", lambda r: f"{r.load.finished_games}")
    row("latency p50 / p99, all", lambda r: lat([x for v in r.load.latencies.values() for x in v]))
    for kind in KINDS:
        row(f"  {kind}", functools.partial(lambda r, k: lat(r.load.latencies.get(k, [])), k=kind))
    row("mean latency / of it in the app", mean_in_app)

    def batch_size(r: BackendResult) -> str:
        commits, writes = r.load.batches
        return f"{writes:.0f} / {commits:.0f} ({writes / max(commits, 1):.2f})"

    row("writes / commits (a batch's size)", batch_size)
    row(
        "refused / failed",
        lambda r: ", ".join(f"{k} {s}: {n}" for (k, s), n in sorted(r.load.statuses.items())) or "none",
    )
    row("5xx", lambda r: str(sum(n for (_, s), n in r.load.statuses.items() if s.startswith("5"))))
    row("server CPU (one core = 100%)", lambda r: f"{r.load.server_cpu / r.load.elapsed:.0%}")
    row(
        "PostgreSQL CPU",
        lambda r: f"{r.load.db_cpu / r.load.elapsed:.0%}" if r.load.db_cpu is not None else "-",
    )
    row("client CPU (this process)", lambda r: f"{r.load.client_cpu / r.load.elapsed:.0%}")
    row(
        "machine CPUs busy (all processes)",
        lambda r: f"{r.load.machine_busy:.0%} of {os.cpu_count()}",
    )
    rows.append(("server threads (mean):", ["" for _ in results]))
    for key, label in THREAD_STATES:
        row(f"  {label}", functools.partial(lambda r, k: f"{r.load.threads.get(k, 0.0):.2f}", k=key))
    row("idle server CPU (scheduler asleep)", lambda r: f"{r.load.idle_cpu:.1%}")
    row("server CPU per request, less idle", lambda r: f"{request_cpu(r.load) * 1e3:.2f} ms")
    row(f"  the machine's speed: {SPEED_LOOP:,} additions, mean / fastest", speed)
    row("  the server's CPU a request at the fastest", at_fastest)
    row(
        "  of it, the kernel's (sockets, fsync)",
        lambda r: f"{r.load.server_system_cpu / max(r.load.requests, 1) * 1e3:.2f} ms",
    )
    row(
        "  of it, the service's (its /metrics)",
        lambda r: per_request(r.load, sum(r.load.service_cpu.values())),
    )
    for part in SERVICE_PARTS:
        row(f"    {part}", functools.partial(lambda r, p: per_request(r.load, r.load.service_cpu[p]), p=part))
    row(
        "  the same calls in the in-process pass",
        lambda r: f"{service_cpu_for_load(r) / max(r.load.requests, 1) * 1e3:.2f} ms",
    )
    row(
        "server CPU per lone seat view",
        lambda r: f"{r.load.serial_view_cpu * 1e3:.2f} ms" if r.load.serial_view_cpu is not None else "-",
    )
    row("  of it, service call", lambda r: f"{service_view_cpu(r) * 1e3:.2f} ms")
    row(
        "PostgreSQL backends (mean)",
        lambda r: "/".join(f"{v:.1f}" for v in r.load.pg_backends.values()) if r.load.pg_backends else "-",
    )
    rows.append(("  running/lock wait/idle in tx/idle", ["" for _ in results]))
    for route in ("seat views", "/healthz"):
        rows.append(
            (f"wrk, {route}:", ["" if r.load.wrk else "- (no wrk: apt-get install wrk)" for r in results])
        )
        row(
            "  requests/s",
            functools.partial(lambda r, k: f"{r.load.wrk[k].rate:.0f}" if r.load.wrk else "", k=route),
        )
        row(
            "  latency p50 / p99",
            functools.partial(
                lambda r, k: (
                    f"{r.load.wrk[k].p50_ms:.1f} / {r.load.wrk[k].p99_ms:.1f} ms" if r.load.wrk else ""
                ),
                k=route,
            ),
        )
        row(
            "  server CPU per request",
            functools.partial(
                lambda r, k: f"{r.load.wrk[k].cpu_per_request * 1e3:.2f} ms" if r.load.wrk else "", k=route
            ),
        )
    row(
        "seat views / trivial route, requests/s",
        lambda r: f"{r.load.wrk['seat views'].rate / r.load.wrk['/healthz'].rate:.2f}" if r.load.wrk else "-",
    )
    rows.append(("in-process pass (no HTTP)", ["" for _ in results]))
    row("  pass time, phases", lambda r: f"{r.prof.seconds:.1f} s, {r.prof.phases} phases")
    for kind in (*KINDS, "ready+process"):
        row(f"  {kind} mean", functools.partial(calls, k=kind))
    row(
        "  SQL statements / transactions per call",
        lambda r: (
            f"{r.prof.statements / max(sum(len(v) for v in r.prof.calls.values()), 1):.1f} / "
            f"{r.prof.transactions / max(sum(len(v) for v in r.prof.calls.values()), 1):.1f}"
        ),
    )
    row(
        "  serial capacity, this mix",
        lambda r: f"{sum(len(v) for v in r.prof.calls.values()) / max(r.prof.wall, 1e-9):.0f} req/s",
    )
    row("  share of the service calls' time:", lambda r: "")
    for cat, label in CATEGORIES:
        row(f"    {label}", functools.partial(split, c=cat))

    width = max(len(label) for label, _ in rows) + 2
    cols = [max(len(n), *(len(v[i]) for _, v in rows)) + 2 for i, n in enumerate(names)]
    print()
    print(
        f"interboard server load: {args.games} games, {args.seconds:g} s, {args.workers} requests in "
        f"flight, {args.server_workers} server process{'es' if args.server_workers > 1 else ''}, "
        f"poll {args.poll:g} s, sweep {args.sweep:g} s; {os.cpu_count()} CPUs; "
        f"Python {sys.version.split()[0]}"
    )
    print("".ljust(width) + "".join(n.ljust(c) for n, c in zip(names, cols, strict=True)))
    for label, values in rows:
        print((label.ljust(width) + "".join(v.ljust(c) for v, c in zip(values, cols, strict=True))).rstrip())
    for r in results:
        top = ", ".join(f"{name} {v:.0%}" for name, v in r.prof.hottest)
        print(f"hottest functions, own time (cProfile, {r.name}): {top}")
    notes = [f"note ({r.name}): {r.note}" for r in results if r.note]
    for r in results:
        for (kind, status), message in sorted(r.load.examples.items()):
            notes.append(f"refused ({r.name}), e.g. {kind} {status}: {message}")
    if any(r.name == "postgresql" for r in results) and args.pg_url is None:
        notes.append("note: the throwaway PostgreSQL runs with fsync off")
    if any(r.name == "sqlite" for r in results):
        notes.append(
            f"note: SQLite runs in WAL mode with synchronous={args.sqlite_synchronous} ("
            + (
                "the server's default: an fsync per write transaction)"
                if args.sqlite_synchronous == "full"
                else "the log synced only when copied into the database)"
            )
        )
    for r in results:
        for route, run in r.load.wrk.items():
            if run.errors:
                notes.append(f"wrk ({r.name}, {route}): {run.errors}")
    for line in notes:
        print(line)
    for r in results:
        print(limit_line(r))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Load benchmark of interboard serve on SQLite and PostgreSQL")
    ap.add_argument("--games", type=int, default=20, help="concurrent standard games (every seat played)")
    ap.add_argument("--seconds", type=float, default=30.0, help="length of the load run")
    ap.add_argument("--workers", type=int, default=16, help="requests in flight at most")
    ap.add_argument("--phases", type=int, default=0, help="stop a game after this many phases (0: no limit)")
    ap.add_argument("--poll", type=float, default=0.25, help="seconds a waiting seat waits between views")
    ap.add_argument("--sweep", type=float, default=60.0, help="the server's --sweep")
    ap.add_argument("--profile-seconds", type=float, default=8.0, help="length of the in-process pass")
    ap.add_argument("--pg-url", help="a PostgreSQL server to use instead of a throwaway cluster")
    ap.add_argument(
        "--sqlite-synchronous",
        choices=("full", "normal"),
        default="full",
        help="the SQLite database URL's synchronous= (default: full, the server's own default)",
    )
    ap.add_argument("--only", choices=("sqlite", "postgresql"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--server-workers",
        type=int,
        default=os.cpu_count() or 1,
        help="the server's --workers (default: one per CPU)",
    )
    ap.add_argument(
        "--wrk-seconds",
        type=float,
        default=10.0,
        help="length of each wrk run after the load (0: none; needs wrk: apt-get install wrk)",
    )
    ap.add_argument(
        "--idle-probe",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="only run the speed probe that long with no load, print its samples, and stop",
    )
    args = ap.parse_args(argv)
    checks = {
        "--games": 1 <= args.games <= 1000,
        "--seconds": 0 < args.seconds <= 3600,
        "--workers": 1 <= args.workers <= 1000,
        "--phases": 0 <= args.phases <= 100_000,
        "--poll": 0.01 <= args.poll <= 60,
        "--sweep": 0.1 <= args.sweep <= 3600,
        "--profile-seconds": 0 < args.profile_seconds <= 600,
        "--server-workers": 1 <= args.server_workers <= 64,
        "--wrk-seconds": 0 <= args.wrk_seconds <= 600,
        "--idle-probe": 0 <= args.idle_probe <= 3600,
    }
    bad = [k for k, ok in checks.items() if not ok]
    if bad:
        ap.error(f"out of range: {', '.join(bad)}")
    if args.idle_probe:
        idle_probe(args.idle_probe)
        return 0
    backends = [args.only] if args.only else ["sqlite", "postgresql"]
    results = []
    workdir = Path(tempfile.mkdtemp(prefix="interboard-bench-"))
    try:
        for name in backends:
            print(f"{name}:", flush=True)
            try:
                results.append(run_backend(name, args, workdir))
            except RuntimeError as exc:
                print(f"  {name} skipped: {exc}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if results:
        report(results, args)
    return 0 if results else 1


if __name__ == "__main__":
    sys.exit(main())
