"""What an operator sees (issue 17 point 5): request ids in the answers and the logs, /healthz,
/readyz and /metrics, all through the ASGI app as a client sees it."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import select
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine

from interboard.service.api import ENVIRONMENT, RateLimits, app_from_environment, create_app, serving_config
from interboard.service.clock import utcnow
from interboard.service.observe import (
    LATENCY_BUCKETS,
    SHARED_METRICS_DIR,
    AccessLog,
    JsonFormatter,
    Metrics,
    metrics_shared_by_workers,
)

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@pytest.fixture
def access() -> io.StringIO:
    """Where the app's request lines go."""
    return io.StringIO()


@pytest.fixture
def client(sqlite_url: str, access: io.StringIO) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, sweep=None, limits=RateLimits.off(), access_log=access)) as c:
        yield c


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/observe.sqlite"


def metric(client: TestClient, name: str, **labels: str) -> float:
    """The value of one sample of ``/metrics`` (0 if absent)."""
    text = client.get("/metrics").text
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        sample, _, value = line.rpartition(" ")
        if sample.split("{", 1)[0] != name:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', sample))
        if found == labels:
            return float(value)
    return 0.0


def test_a_well_formed_request_id_is_kept_and_a_bad_one_replaced(client: TestClient) -> None:
    r = client.get("/healthz", headers={"X-Request-ID": "lb-42.a_b"})
    assert r.headers["X-Request-ID"] == "lb-42.a_b"
    generated = client.get("/healthz").headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{16}", generated)
    assert client.get("/healthz").headers["X-Request-ID"] != generated  # one per request
    for bad in ["x" * 65, "two words", 'a"b', "line\\nbreak"]:
        kept = client.get("/healthz", headers={"X-Request-ID": bad}).headers["X-Request-ID"]
        assert kept != bad and re.fullmatch(r"[0-9a-f]{16}", kept)
    # Every answer has one, a refusal from the framework (405) and the body limit (413) too.
    assert client.delete("/api/games").headers["X-Request-ID"]
    big = client.post("/api/games", content=b"x" * 70_000, headers={"Content-Type": "application/json"})
    assert big.status_code == 413 and big.headers["X-Request-ID"]


def test_a_request_line_names_the_route_and_carries_the_id_but_never_a_token(
    sqlite_url: str, access: io.StringIO
) -> None:
    app = create_app(sqlite_url, sweep=None, limits=RateLimits.off(), access_log=access)
    with TestClient(app) as client:
        token = client.post("/api/games", json={}).json()["gm_token"]
        game = client.get("/api/games").json()[0]["id"]
        headers = {"Authorization": f"Bearer {token}", "X-Request-ID": "req-1"}
        assert client.post(f"/api/games/{game}/start", headers=headers).status_code == 200
    # Written when the app stopped at the latest: one line a request.
    lines = [json.loads(line) for line in access.getvalue().splitlines()]
    assert len(lines) == 3
    line = lines[-1]
    assert line["request_id"] == "req-1" and line["logger"] == "interboard.request"
    assert line["level"] == "INFO" and line["method"] == "POST" and line["status"] == 200
    assert line["route"] == "/api/games/{game_id}/start" and line["path"] == f"/api/games/{game}/start"
    assert line["message"] == f"POST /api/games/{game}/start 200 {line['duration_ms']} ms"
    assert token not in access.getvalue()


def test_a_fault_of_the_server_is_a_500_in_the_error_shape_with_the_request_id(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(sqlite_url, sweep=None, limits=RateLimits.off())

    async def broken() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/broken", broken)
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/broken", headers={"X-Request-ID": "bug-1"})
    assert r.status_code == 500 and r.headers["X-Request-ID"] == "bug-1"
    assert r.json() == {"error": "the server failed on this request (bug-1)"}
    logged = [rec for rec in caplog.records if rec.levelno == logging.ERROR]
    assert logged and logged[0].exc_info and logged[0].request_id == "bug-1"  # type: ignore[attr-defined]


def test_log_lines_made_in_a_handlers_thread_carry_the_request_id(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    client.app.state.service.engine = create_engine("sqlite:////nonexistent-dir/none.sqlite")  # type: ignore[attr-defined]
    caplog.set_level(logging.INFO)
    client.get("/readyz", headers={"X-Request-ID": "ready-1"})
    warning = next(rec for rec in caplog.records if rec.name == "interboard.service.games")
    assert warning.levelno == logging.WARNING and warning.request_id == "ready-1"  # type: ignore[attr-defined]
    assert json.loads(JsonFormatter().format(warning))["request_id"] == "ready-1"  # as serve writes it


def test_healthz_and_readyz(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.get("/readyz")
    assert r.status_code == 200 and r.json() == {"status": "ready"}
    schema = client.get("/openapi.json").json()["paths"]
    assert "503" in schema["/readyz"]["get"]["responses"]


def test_readyz_is_503_when_the_database_does_not_answer(client: TestClient) -> None:
    client.app.state.service.engine = create_engine("sqlite:////nonexistent-dir/none.sqlite")  # type: ignore[attr-defined]
    r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json() == {"error": "the database does not answer"}  # the one error body
    assert client.get("/healthz").status_code == 200  # alive all the same


def test_metrics_count_requests_by_route_template(client: TestClient) -> None:
    for game in ["aaaa", "bbbb", "cccc"]:
        assert client.get(f"/api/games/{game}").status_code == 404
    r = client.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert "/api/games/aaaa" not in r.text  # the template, never the raw path
    template = {"route": "/api/games/{game_id}"}
    assert metric(client, "interboard_http_requests_total", **template, method="GET", status="404") == 3
    assert metric(client, "interboard_http_request_duration_seconds_count", **template) == 3
    client.get("/api/games/aaaa/map.svg")  # a route of the web pages' router
    assert (
        metric(
            client,
            "interboard_http_requests_total",
            route="/api/games/{game_id}/map.svg",
            method="GET",
            status="404",
        )
        == 1
    )
    client.get("/no/such/page")
    assert (
        metric(client, "interboard_http_requests_total", route="unmatched", method="GET", status="404") == 1
    )
    # The static files: their mount tells no route, so the request is matched again as it came.
    for name in ["app.css", "game.js"]:
        assert client.get(f"/static/{name}").status_code == 200
    assert (
        metric(client, "interboard_http_requests_total", route="/static/{path}", method="GET", status="200")
        == 2
    )
    # A method no one serves is counted as 'other': a client cannot make a label value per name.
    for name in ["BREW", "WHEN", "BREW"]:
        assert client.request(name, "/healthz").status_code == 405
    other = {"route": "/healthz", "method": "other", "status": "405"}
    assert metric(client, "interboard_http_requests_total", **other) == 3
    assert "BREW" not in client.get("/metrics").text


def test_metrics_count_processed_phases_and_their_deadline_lag(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    # Every seat a bot: the phase is processed at once, ready or not; no deadline, so no lag.
    client.post("/api/games", json={"seats": dict.fromkeys(POWERS, "bot:hold")})
    assert len(service.process_due()) == 1
    assert metric(client, "interboard_phases_processed_total", family="diplomacy") == 1
    assert metric(client, "interboard_phase_deadline_lag_seconds_count") == 0
    # A player who never orders: the phase waits for its deadline; processed two hours after.
    seats = {**dict.fromkeys(POWERS, "bot:hold"), "FRANCE": "Frances"}
    client.post("/api/games", json={"seats": seats, "deadlines": {"movement": 3600}})
    service.clock = lambda: utcnow() + timedelta(hours=2)
    processed = service.process_due()
    assert len(processed) == 2  # the all-bot game's next phase too
    assert metric(client, "interboard_phases_processed_total", family="diplomacy") == 3
    assert metric(client, "interboard_phase_deadline_lag_seconds_count") == 1
    lag = metric(client, "interboard_phase_deadline_lag_seconds_sum")
    assert 3599 < lag < 3700


def test_metrics_count_the_service_cpu_of_the_seats_requests_by_part(client: TestClient) -> None:
    """Each of a seat's calls counts its CPU under its own part; the processing a Ready leads to
    counts under ``process``; a route outside the seats' counts nowhere."""
    created = client.post("/api/games", json={"seats": {p: p for p in POWERS}}).json()
    at, tokens = f"/api/games/{created['game_id']}", created["seat_tokens"]
    cpu = "interboard_service_cpu_seconds_total"
    parts = ("view", "tree", "orders", "ready", "process")

    def spent() -> dict[str, float]:
        return {part: metric(client, cpu, part=part) for part in parts}

    assert spent() == dict.fromkeys(parts, 0.0)
    assert client.get("/healthz").status_code == 200 and client.get(f"{at}/history").status_code == 200
    assert spent() == dict.fromkeys(parts, 0.0)
    phase = client.get(at).json()["phase"]
    no_orders = {"phase": phase, "orders": []}
    steps = [
        ("view", lambda auth: client.get(f"{at}/seat", headers=auth)),
        ("tree", lambda auth: client.get(f"{at}/options", headers=auth)),
        ("orders", lambda auth: client.put(f"{at}/orders", headers=auth, json=no_orders)),
    ]
    for part, step in steps:
        before = spent()
        assert step({"Authorization": f"Bearer {tokens['FRANCE']}"}).status_code == 200
        after = spent()
        assert after[part] > before[part]
        assert {p: v for p, v in after.items() if p != part} == {p: v for p, v in before.items() if p != part}
    for seat in POWERS:
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        answer = client.put(f"{at}/ready", headers=auth, json={"phase": phase, "value": True})
        assert answer.status_code == 200
    assert answer.json()["processed"] is True  # the last Ready processed the phase
    assert spent()["ready"] > 0 and spent()["process"] > 0
    assert metric(client, cpu, part="commit") > 0  # the batches the writes were committed in


def test_readies_sent_together_are_committed_in_batches_and_counted(client: TestClient) -> None:
    """The seats' writes that arrive together share a commit (``service/batching.py``): the
    metrics count the commits and the writes in them. Seven Readies at once, and the processing
    the last one leads to, in fewer commits than writes; every Ready kept, the phase processed once."""
    created = client.post("/api/games", json={"seats": {p: p for p in POWERS}}).json()
    at, tokens = f"/api/games/{created['game_id']}", created["seat_tokens"]
    phase = client.get(at).json()["phase"]
    france = {"Authorization": f"Bearer {tokens['FRANCE']}"}
    assert client.get(f"{at}/seat", headers=france).status_code == 200  # the phase described here

    async def readies() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            return await asyncio.gather(
                *(
                    http.put(
                        f"{at}/ready",
                        headers={"Authorization": f"Bearer {tokens[seat]}"},
                        json={"phase": phase, "value": True},
                    )
                    for seat in POWERS
                )
            )

    assert client.portal is not None  # the app's event loop, where its lifespan ran
    answers = client.portal.call(readies)
    assert [a.status_code for a in answers] == [200] * len(POWERS)
    assert sum(a.json()["processed"] for a in answers) == 1
    assert client.get(at).json()["phase"] != phase
    writes = metric(client, "interboard_batched_writes_total")
    commits = metric(client, "interboard_write_commits_total")
    assert writes == len(POWERS) + 1  # the Readies and the phase claimed
    assert 1 <= commits < writes


def test_a_json_line_says_when_in_utc_to_the_millisecond() -> None:
    """The formatter keeps the text of the last whole second: lines within it and after it are
    each stamped with their own time."""
    formatter = JsonFormatter()
    for created in (1_790_000_000.25, 1_790_000_000.5, 1_790_000_001.125, 1_790_000_000.0):
        record = logging.LogRecord("interboard.request", logging.INFO, __file__, 1, "line", None, None)
        record.created, record.msecs = created, (created - int(created)) * 1000
        stamp = datetime.fromtimestamp(created, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        assert json.loads(formatter.format(record))["time"] == stamp


def test_the_workers_metrics_directory_is_made_and_removed_unless_the_deployer_gave_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SHARED_METRICS_DIR, raising=False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    with metrics_shared_by_workers() as made:
        assert Path(made).parent == tmp_path and Path(made).is_dir()
        assert os.environ[SHARED_METRICS_DIR] == made  # what the worker processes inherit
        (Path(made) / "counter_1.db").write_bytes(b"")
    assert not Path(made).exists() and SHARED_METRICS_DIR not in os.environ

    given = tmp_path / "deployers"
    given.mkdir()
    (given / "counter_2.db").write_bytes(b"")
    monkeypatch.setenv(SHARED_METRICS_DIR, str(given))
    with metrics_shared_by_workers() as used:
        assert used == str(given)
    assert (given / "counter_2.db").exists() and os.environ[SHARED_METRICS_DIR] == str(given)


class Writes(io.StringIO):
    """A stream that keeps each write apart."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return super().write(text)


def test_request_lines_are_json_whatever_the_path_holds() -> None:
    stream = Writes()
    lines = AccessLog(stream)
    odd = '/api/games/a"b\\c/\u00e9t\u00e9/\x01\n'
    # Outside an event loop: written at once.
    lines.answered("r-1", "GET", odd, "unmatched", 404, 0.01234, 1_790_000_000.5)
    (written,) = stream.writes
    assert written.endswith("\n") and written.count("\n") == 1 and written.isascii()
    assert json.loads(written) == {
        "time": "2026-09-21T14:13:20.500Z",
        "level": "INFO",
        "logger": "interboard.request",
        "message": f"GET {odd} 404 12.3 ms",
        "request_id": "r-1",
        "method": "GET",
        "path": odd,
        "route": "unmatched",
        "status": 404,
        "duration_ms": 12.3,
    }


def test_request_lines_are_written_together_in_whole_lines_of_at_most_a_pipes_atomic_write() -> None:
    """On a pipe that several worker processes share, a write of at most PIPE_BUF bytes is never cut
    into by another's: the lines gathered are written in such writes, each ending a line."""
    stream = Writes()
    lines = AccessLog(stream, flush_s=60)

    async def answer_many() -> None:
        for i in range(200):
            lines.answered(
                f"r-{i}", "GET", f"/api/games/{i:016x}/seat", "/api/games/{game_id}/seat", 200, 0.001, 1.0
            )

    asyncio.run(answer_many())
    assert stream.writes == []  # gathered, not yet written
    lines.flush()
    assert len(stream.writes) > 1
    assert all(len(w.encode()) <= select.PIPE_BUF and w.endswith("\n") for w in stream.writes)
    ids = [json.loads(line)["request_id"] for line in stream.getvalue().splitlines()]
    assert ids == [f"r-{i}" for i in range(200)]
    lines.flush()  # nothing more to write
    assert len(stream.getvalue().splitlines()) == 200


def test_request_lines_are_written_within_the_flush_interval_while_the_server_runs(
    sqlite_url: str,
) -> None:
    stream = Writes()
    app = create_app(sqlite_url, sweep=None, limits=RateLimits.off(), access_log=stream)
    with TestClient(app) as client:
        client.get("/healthz", headers={"X-Request-ID": "early-1"})
        # While the app runs, not only when it stops: a timer on its event loop writes it.
        for _ in range(100):
            if "early-1" in stream.getvalue():
                break
            client.portal.call(asyncio.sleep, 0.05)  # type: ignore[union-attr]
        assert "early-1" in stream.getvalue()


def test_request_lines_to_a_closed_stream_are_dropped_without_an_error() -> None:
    stream = io.StringIO()
    stream.close()
    AccessLog(stream).answered("r-1", "GET", "/", "unmatched", 404, 0.001, 1.0)


@pytest.mark.parametrize("on", [True, False])
def test_a_worker_writes_request_lines_on_its_standard_error_unless_told_not_to(
    sqlite_url: str, on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``interboard serve --workers N [--no-access-log]``: each worker's app, made from the
    settings its parent leaves in the environment."""
    monkeypatch.setenv(ENVIRONMENT, serving_config(sqlite_url, None, RateLimits.off(), access_log=on))
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with TestClient(app_from_environment()) as client:
        assert client.get("/healthz", headers={"X-Request-ID": "worker-1"}).status_code == 200
    written = sys.stderr.getvalue()
    assert ("worker-1" in written) is on


def samples(registry: CollectorRegistry) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample a registry reports, by name and labels (the ``_created`` times left out)."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(generate_latest(registry).decode())
        for sample in family.samples
        if not sample.name.endswith("_created")
    }


def test_latencies_tallied_then_published_make_the_histogram_that_observing_each_makes() -> None:
    """A request's latency is tallied, and the tally added to the histogram when published: the
    buckets, count and sum must be those that prometheus-client's ``observe``, called for each,
    gives (on a bound, between bounds, above them all)."""
    durations = [0.0, 0.001, 0.005, 0.0051, 0.01, 0.3, 2.5, 9.99, 10.0, 11.0, 0.025, 0.3]
    metrics = Metrics()

    async def answer_all() -> None:
        for seconds in durations:
            metrics.answered("/api/games/{game_id}", "GET", 200, seconds)

    asyncio.run(answer_all())
    name = "interboard_http_request_duration_seconds"
    assert not [key for key in samples(metrics.registry) if key[0].startswith(name)]  # tallied only
    metrics.publish()
    reference = CollectorRegistry()
    observed = Histogram(name, "reference", ["route"], buckets=LATENCY_BUCKETS, registry=reference)
    for seconds in durations:
        observed.labels(route="/api/games/{game_id}").observe(seconds)
    published = {key: value for key, value in samples(metrics.registry).items() if key[0].startswith(name)}
    assert published == samples(reference)
    counted = samples(metrics.registry)
    labels = (("method", "GET"), ("route", "/api/games/{game_id}"), ("status", "200"))
    assert counted["interboard_http_requests_total", labels] == len(durations)


def test_a_requests_counts_are_published_within_the_interval_while_the_loop_runs() -> None:
    """Counts made on an event loop wait in the process, then a timer on the loop publishes them,
    all together, within ``publish_s``; a publication due on a loop that closed first does not
    keep the next loop's counts from theirs."""
    metrics = Metrics(publish_s=0.05)
    view = ("interboard_service_cpu_seconds_total", (("part", "view"),))
    commits = ("interboard_write_commits_total", ())

    async def count_then_wait(wait: float) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        metrics.spent("view", 0.25)
        metrics.batched(3)
        metrics.answered("/api/games/{game_id}/seat", "GET", 200, 0.004)
        before = samples(metrics.registry)
        await asyncio.sleep(wait)
        return before

    before = asyncio.run(count_then_wait(0.0))  # the loop closes before its timer is due
    assert before.get(view, 0.0) == 0.0 and before.get(commits, 0.0) == 0.0
    assert samples(metrics.registry).get(view, 0.0) == 0.0
    asyncio.run(count_then_wait(0.3))  # the next loop publishes both requests' counts
    after = samples(metrics.registry)
    assert after[view] == 0.5
    assert after[commits] == 2
    assert after["interboard_batched_writes_total", ()] == 6


def test_counts_from_many_threads_at_once_are_all_kept() -> None:
    """The service's CPU is counted on worker threads too: tallies made at once are none lost."""
    metrics = Metrics()
    start = threading.Barrier(8)

    def count() -> None:
        start.wait()
        for _ in range(2000):
            metrics.spent("tree", 0.5)
            metrics.batched(1)

    threads = [threading.Thread(target=count) for _ in range(8)]
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switched as often as can be: without the lock, counts are lost
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switching)
    metrics.publish()
    counted = samples(metrics.registry)
    assert counted["interboard_service_cpu_seconds_total", (("part", "tree"),)] == 8 * 2000 * 0.5
    assert counted["interboard_write_commits_total", ()] == 8 * 2000


def test_the_last_requests_counts_are_published_when_the_app_stops(sqlite_url: str) -> None:
    app = create_app(sqlite_url, sweep=None, limits=RateLimits.off())
    app.state.metrics.publish_s = 3600.0  # no timer would publish them
    with TestClient(app) as client:
        for _ in range(3):
            assert client.get("/healthz").status_code == 200
    labels = (("method", "GET"), ("route", "/healthz"), ("status", "200"))
    assert samples(app.state.metrics.registry)["interboard_http_requests_total", labels] == 3
