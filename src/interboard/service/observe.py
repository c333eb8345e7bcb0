"""What an operator sees of the server: a request id on every log line, structured logs, and metrics.

- Each request gets an id: the client's ``X-Request-ID`` if it is short and plain (letters, digits,
  ``.``, ``_``, ``-``; at most 64), else a new one. It is sent back in ``X-Request-ID`` and every log
  record made while the request runs carries it as ``request_id`` (a context variable, copied into
  the threads the handlers run in; a log record factory reads it).
- One line per request (:class:`AccessLog`, shaped as a log line of ``interboard.request``): method,
  path, route template, status and duration. Never a header or a query string, so never a token.
- Metrics in Prometheus's text format (``GET /metrics``), in a registry of the app's own (not the
  process's global one: several apps in one process, as in the tests, each count their own). The
  worker processes of ``serve --workers N`` count in prometheus-client's multi-process mode
  (:func:`metrics_shared_by_workers`): a scraper reaches whichever worker the kernel hands its
  connection to, and each worker's ``/metrics`` gives the sum of them all.
"""

from __future__ import annotations

import asyncio
import bisect
import contextvars
import itertools
import json
import logging
import os
import re
import secrets
import select
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse
from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .http import CLIENT_CLOSED, CLIENT_GONE, request_header

REQUEST_ID_HEADER = "X-Request-ID"
_REQUEST_ID_NAME = REQUEST_ID_HEADER.lower().encode()
WELL_FORMED_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""An incoming request id that is kept: short, and nothing a log line could be forged with."""
NO_REQUEST = "-"
"""The request id of a log record made outside any request (the scheduler, start-up)."""

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default=NO_REQUEST)
log = logging.getLogger(__name__)

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The methods counted by name in the metrics; any other is counted as ``other``."""
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
LAG_BUCKETS = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 3600.0)
"""Seconds a phase was processed after its deadline: the scheduler's tick is the floor, a backlog
or a stopped server the tail."""


def install_log_context() -> None:
    """Give every log record a ``request_id`` attribute (the running request's, else ``-``).

    A record factory rather than a filter: a filter on a logger does not see the records its
    children propagate, and one on a handler misses the handlers others (pytest's caplog) add."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, "interboard_request_id", False):
        return

    def with_request_id(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = factory(*args, **kwargs)
        record.request_id = request_id.get()
        return record

    with_request_id.interboard_request_id = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(with_request_id)


LOG_FIELDS = ("game_id", "lag_s")
"""The extra fields a log line may carry (``logger.info(..., extra={...})``): a processed phase's.
The request lines carry theirs without the ``logging`` module (:class:`AccessLog`)."""


_encode = json.JSONEncoder(ensure_ascii=False, default=str).encode
"""``json.dumps`` with these options would make a new encoder for every line."""


_second: tuple[int, str] = (-1, "")
"""The last whole second stamped, and its text (a server writes a line a request)."""


def utc_stamp(created: float) -> str:
    """``created`` (seconds since the epoch) as a JSON line's time: UTC, to the millisecond."""
    global _second
    second, kept = int(created), _second  # read once: another thread may replace it meanwhile
    if kept[0] != second:
        kept = _second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return f"{kept[1]}.{int((created - second) * 1000):03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request id and any of ``LOG_FIELDS``."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": utc_stamp(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", NO_REQUEST),
        }
        for name in LOG_FIELDS:
            if hasattr(record, name):
                line[name] = getattr(record, name)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return _encode(line)


def log_config(level: str = "INFO") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for ``interboard serve``: every logger (uvicorn's too) as
    JSON lines on standard error."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {"default": handler},
        "root": {"handlers": ["default"], "level": level},
        "loggers": {
            "uvicorn": {"handlers": [], "propagate": True},
            "uvicorn.error": {"handlers": [], "propagate": True},
            "uvicorn.access": {"handlers": [], "propagate": False, "level": "WARNING"},
        },
    }


ACCESS_LOGGER = "interboard.request"
"""The ``logger`` field of the request lines (they keep the shape of that logger's log lines)."""
FLUSH_S = 0.2
"""The longest a request line waits to be written."""
_quoted = json.encoder.encode_basestring_ascii
"""A string as a JSON string, in ASCII (so a line's length in characters is its length in bytes)."""


class AccessLog:
    """One JSON line a request, on ``stream``: the fields of a log line (``time``, ``level``,
    ``logger``, ``message``, ``request_id``) and ``method``, ``path``, ``route``, ``status``,
    ``duration_ms``.

    Written without the ``logging`` module: a record, its handlers and its formatter cost several times
    a line built here (``bench/bench_request_line.py``: about 23 µs against 4 in a loop, more inside a
    request, whose code runs cold). As nginx's buffered access log does, lines are gathered and written
    together, at most ``flush_s`` after the first of them, and when the app stops (:meth:`flush`). A
    write holds at most ``select.PIPE_BUF`` bytes, cut at the end of a line, so that on a pipe shared by
    the worker processes (their standard error) no line is cut into by another's. A crash loses at most
    the last ``flush_s`` of lines."""

    def __init__(self, stream: TextIO, flush_s: float = FLUSH_S) -> None:
        self.stream = stream
        self.flush_s = flush_s
        self._lines: list[str] = []

    def answered(
        self, rid: str, method: str, path: str, route: str, status: int, seconds: float, now: float
    ) -> None:
        """A request was answered at ``now`` (seconds since the epoch)."""
        ms = repr(round(seconds * 1000, 1))
        status = int(status)
        # The line's shape is fixed, so it is put together here rather than by json's encoder,
        # which costs several times more for its setup than for the line. JSON escapes character
        # by character, so the message is its parts' escapes joined (digits and spaces need none).
        method_json, path_json = _quoted(method), _quoted(path)
        line = (
            f'{{"time": "{utc_stamp(now)}", "level": "INFO", "logger": "{ACCESS_LOGGER}", '
            f'"message": "{method_json[1:-1]} {path_json[1:-1]} {status} {ms} ms", '
            f'"request_id": {_quoted(rid)}, "method": {method_json}, "path": {path_json}, '
            f'"route": {_quoted(route)}, "status": {status}, "duration_ms": {ms}}}'
        )
        if not self._lines:
            try:
                asyncio.get_running_loop().call_later(self.flush_s, self.flush)
            except RuntimeError:  # no event loop to wait on: written at once
                self._lines.append(line)
                self.flush()
                return
        self._lines.append(line)

    def flush(self) -> None:
        """Write the lines gathered so far."""
        lines, self._lines = self._lines, []
        chunk: list[str] = []
        size = 0
        try:
            for line in lines:
                if chunk and size + len(line) + 1 > select.PIPE_BUF:
                    self._write(chunk)
                    chunk, size = [], 0
                chunk.append(line)
                size += len(line) + 1
            if chunk:
                self._write(chunk)
        except (OSError, ValueError):  # the stream is closed or gone: nothing to write them to
            pass

    def _write(self, lines: list[str]) -> None:
        self.stream.write("\n".join(lines) + "\n")
        self.stream.flush()


SHARED_METRICS_DIR = "PROMETHEUS_MULTIPROC_DIR"
"""prometheus-client's own setting, read when it is imported: the directory where each process keeps
its metrics in memory-mapped files, so that any process can report the sum of all."""


@contextmanager
def metrics_shared_by_workers() -> Iterator[str]:
    """Around starting the worker processes of one server: they inherit :data:`SHARED_METRICS_DIR`
    and count in files there, so each one's ``/metrics`` reports all of them. Otherwise each would
    report its own counts, and a scraper, whose connection the kernel gives to any worker, would see
    counters go back and forth between scrapes (read as restarts). A directory the deployer set is
    used as it is (prometheus-client says to empty it before each start); else a new one is made
    and removed at the end. Yields the directory."""
    given = os.environ.get(SHARED_METRICS_DIR)
    if given:
        yield given
        return
    path = tempfile.mkdtemp(prefix="interboard-metrics-")
    os.environ[SHARED_METRICS_DIR] = path
    try:
        yield path
    finally:
        os.environ.pop(SHARED_METRICS_DIR, None)
        shutil.rmtree(path, ignore_errors=True)


PUBLISH_S = 0.2
"""The longest a request's counts wait in its process before they are published (:class:`Metrics`)."""


class Metrics:
    """The server's metrics, in a registry of its own; in a worker of a multi-process server
    (:func:`metrics_shared_by_workers`), the sum over its workers.

    The counts of each request (its answer, its latency, the service's CPU, a batch's writes) are
    tallied in the process and published to the registry together, at most ``publish_s`` after the
    first of them, when the process reports them (:meth:`exposition`) and when it stops
    (:meth:`publish`): a count made in prometheus-client costs a lock and, in a worker of several,
    a write to its memory-mapped file, and the counts of a request were about 7 % of the app's
    instructions for it (``bench/bench_instructions.py``). A scrape of another worker sees this
    one's counts of the last ``publish_s`` on its next scrape."""

    def __init__(self, publish_s: float = PUBLISH_S) -> None:
        self.publish_s = publish_s
        self.shared = bool(os.environ.get(SHARED_METRICS_DIR))
        """Whether this process counts in the workers' shared files (set before prometheus-client
        was imported: the worker processes are started with it)."""
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "interboard_http_requests",
            "HTTP requests answered, by route template, method and status",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "interboard_http_request_duration_seconds",
            "Seconds from a request's arrival to the end of its answer, by route template",
            ["route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.phases = Counter(
            "interboard_phases_processed",
            "Phases processed (a game moved on), by family",
            ["family"],
            registry=self.registry,
        )
        self._answers: dict[tuple[str, str, int], Counter] = {}
        self.service_cpu = Counter(
            "interboard_service_cpu_seconds",
            "CPU seconds of the game service's work for the seats' routes, by part (the rest of the"
            " server's CPU is the HTTP server's, the framework's and the kernel's)",
            ["part"],
            registry=self.registry,
        )
        self._parts: dict[str, Counter] = {}
        self.write_commits = Counter(
            "interboard_write_commits",
            "Commits of the event loop's batches of seats' writes (orders, Readies, phases claimed)",
            registry=self.registry,
        )
        self.batched_writes = Counter(
            "interboard_batched_writes",
            "Seats' writes committed in the event loop's batches (writes / commits: a batch's size)",
            registry=self.registry,
        )
        self.deadline_lag = Histogram(
            "interboard_phase_deadline_lag_seconds",
            "How late past its deadline a phase was processed (phases processed by their deadline)",
            buckets=LAG_BUCKETS,
            registry=self.registry,
        )
        # The tallies not published yet, under one lock: the service's CPU is counted on worker
        # threads too.
        self._lock = threading.Lock()
        self._answered: dict[tuple[str, str, int], int] = {}
        self._latency: dict[str, _Observed] = {}
        self._spent: dict[str, float] = {}
        self._commits = self._writes = 0
        self._publish_on: asyncio.AbstractEventLoop | None = None
        """The event loop a publication is due on (``None``: none is due)."""

    def answered(self, route: str, method: str, status: int, seconds: float) -> None:
        """A request was answered: counted by route template, method and status, timed by route."""
        method = method if method in METHODS else "other"  # a client may send any method name
        key = (route, method, status)
        with self._lock:
            self._answered[key] = self._answered.get(key, 0) + 1
            observed = self._latency.get(route)
            if observed is None:
                observed = self._latency[route] = _Observed(LATENCY_BUCKETS)
            observed.add(seconds)
            waiting = self._publish_on
            if waiting is not None and not waiting.is_closed():
                return  # a publication is due already
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            self._publish_on = loop
        if loop is None:  # no event loop to wait on: published at once
            self.publish()
        else:
            loop.call_later(self.publish_s, self.publish)

    def spent(self, part: str, seconds: float) -> None:
        """The service spent ``seconds`` of a thread's CPU on ``part`` of a seat's request (published
        with the request's answer)."""
        with self._lock:
            self._spent[part] = self._spent.get(part, 0.0) + seconds

    def batched(self, writes: int) -> None:
        """A batch of ``writes`` writes was committed (:class:`~.batching.WriteBatches`; published
        with its requests' answers)."""
        with self._lock:
            self._commits += 1
            self._writes += writes

    def publish(self) -> None:
        """Add the counts tallied so far to the registry (or, in a worker, to its shared file)."""
        with self._lock:
            answered, self._answered = self._answered, {}
            latency, self._latency = self._latency, {}
            spent, self._spent = self._spent, {}
            commits, writes, self._commits, self._writes = self._commits, self._writes, 0, 0
            self._publish_on = None
        for (route, method, status), count in answered.items():
            child = self._answers.get((route, method, status))
            if child is None:  # the registry's lookup by label values costs more than the count
                child = self._answers[route, method, status] = self.requests.labels(
                    route=route, method=method, status=str(status)
                )
            child.inc(count)
        for route, observed in latency.items():
            observed.publish(self.latency.labels(route=route))
        for part, seconds in spent.items():
            part_child = self._parts.get(part)
            if part_child is None:
                part_child = self._parts[part] = self.service_cpu.labels(part=part)
            part_child.inc(seconds)
        if commits:
            self.write_commits.inc(commits)
            self.batched_writes.inc(writes)

    def exposition(self) -> bytes:
        """The metrics in Prometheus's text format: this app's, or all the workers' summed (this
        process's tallies published first)."""
        self.publish()
        if not self.shared:
            return generate_latest(self.registry)
        every_worker = CollectorRegistry()
        MultiProcessCollector(every_worker)  # type: ignore[no-untyped-call]
        return generate_latest(every_worker)

    def processed(self, family: str, lag: float | None) -> None:
        """A phase of a ``family`` game was processed, ``lag`` seconds after its deadline (``None``:
        before it, every seat ready, or a phase without one)."""
        self.phases.labels(family=family).inc()
        if lag is not None:
            self.deadline_lag.observe(lag)


class _Observed:
    """Observations of one histogram child, tallied until published: their sum and their count in
    each bucket (the last: above every bound)."""

    __slots__ = ("bounds", "counts", "total")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        self.total = 0.0

    def add(self, amount: float) -> None:
        self.total += amount
        self.counts[bisect.bisect_left(self.bounds, amount)] += 1  # the first bound >= amount

    def publish(self, child: Histogram) -> None:
        """Add the tally to ``child``, as as many calls of its ``observe`` would. prometheus-client
        has no call that adds several observations at once; a histogram child keeps its sum and
        buckets as values with ``inc`` (``_sum``, ``_buckets``), and
        ``tests/service/test_observe.py`` compares the two ways, so a version that keeps them
        otherwise fails there."""
        child._sum.inc(self.total)
        for bucket, count in zip(child._buckets, self.counts, strict=True):
            if count:
                bucket.inc(count)


Arrived = tuple[str, str, Any]
"""What routing may change of a request's scope, as it came: its path, root path and app."""


def arrived(scope: Scope) -> Arrived:
    return scope["path"], scope.get("root_path", ""), scope.get("app")


def route_template(scope: Scope, came: Arrived) -> str:
    """The matched route's path template (``/api/games/{game_id}``), never the raw path: ids would
    make a label value per game. A request no route matched is ``unmatched``. ``scope`` is the
    request's after routing, ``came`` what it was before (:func:`arrived`; a mount changes it)."""
    route = scope.get("route")
    if route is None:  # not every router says (a mount's does not): match the scope as it came
        came_path, came_root_path, app = came
        as_it_came = {**scope, "path": came_path, "root_path": came_root_path, "app": app}
        router = getattr(app, "router", None)
        for candidate in getattr(router, "routes", ()):
            if candidate.matches(as_it_came)[0] != Match.NONE:
                route = candidate
                break
    path = getattr(route, "path", None)
    if not isinstance(path, str):
        return "unmatched"
    if isinstance(route, Mount):  # the static files
        return path + "/{path}"
    return path


_ID_PREFIX = secrets.token_hex(4)
_ID_COUNT = itertools.count(1)  # its next() is atomic: no generator to run twice at once
"""A new request's id is this process's random prefix and a count, without a call for random bytes
each: unique in the process, whichever :class:`Observe` gives it (an app's quick lane has its own);
two processes share a prefix by a 1 in 2**32 chance."""


class Observe:
    """The outermost middleware: the request id, the request's line (if there is an
    :class:`AccessLog`) and its metrics. ``answer_headers(path, headers)`` adds what every answer
    carries besides the request id (the security headers) to a list of them, as the request id is
    added: one rewrite of each answer's headers rather than one per middleware. A request whose
    client closed the connection before the answer is the client's doing: counted and logged as
    499 (:data:`~.http.CLIENT_CLOSED`), never as the server's failure."""

    def __init__(
        self,
        app: ASGIApp,
        metrics: Metrics,
        access: AccessLog | None = None,
        answer_headers: Callable[[str, list[tuple[bytes, bytes]]], None] | None = None,
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.access = access
        self.answer_headers = answer_headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = request_header(scope, _REQUEST_ID_NAME)
        rid = given.decode("latin-1") if given is not None else ""
        if not WELL_FORMED_ID.fullmatch(rid):
            rid = f"{_ID_PREFIX}{next(_ID_COUNT):08x}"
        token = request_id.set(rid)
        came = arrived(scope)  # not a copy of the scope: most of it stays as it is
        started = time.perf_counter()
        status = 500  # unless an answer starts

        started_answer = False

        async def tagged(message: Message) -> None:
            nonlocal status, started_answer
            if message["type"] == "http.response.start":
                started_answer = True
                status = message["status"]
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() != _REQUEST_ID_NAME]
                headers.append((_REQUEST_ID_NAME, rid.encode()))
                if self.answer_headers is not None:
                    self.answer_headers(scope["path"], headers)
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, tagged)
        except ClientDisconnect:
            # The client closed the connection before its body had all come (the quick lane reads
            # it as Starlette does): the client's doing, with no one left to answer.
            status = CLIENT_CLOSED
        except Exception:
            # A fault of the server's own: logged here with the request's id, and answered in the
            # one error shape with the id to quote (Starlette's own 500 would carry neither).
            log.exception("the server failed on %s %s", scope["method"], scope["path"])
            if started_answer:
                raise
            failed = JSONResponse({"error": f"the server failed on this request ({rid})"}, status_code=500)
            await failed(scope, receive, tagged)
        finally:
            elapsed = time.perf_counter() - started
            if CLIENT_GONE in scope:  # gone before the answer: FastAPI's routes answer a 400 to no one
                status = CLIENT_CLOSED
            route = route_template(scope, came)
            method = scope["method"]
            self.metrics.answered(route, method, status, elapsed)
            if self.access is not None:
                self.access.answered(rid, method, came[0], route, status, elapsed, time.time())
            request_id.reset(token)
