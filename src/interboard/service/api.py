"""The HTTP API (FastAPI). Every handler is a thin shell over :class:`GameService`.

Authentication: the game master's and each seat's secret token, sent as ``Authorization: Bearer``;
an account's session (``account_api.py``) as a cookie or a bearer token.
Errors are JSON ``{"error": message, "details": [...]}`` with a 4xx status that the route declares;
never a traceback. What the API promises, and why: ``docs/server.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import logging
import os
import sys
import time
import unicodedata
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, TextIO, TypeVar

from argon2 import PasswordHasher
from fastapi import FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_json
from sse_starlette.sse import EventSourceResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..games import families
from . import account_api
from .accounts import AccountNotices, AccountService
from .batching import WriteBatches
from .cache import NotKept
from .errors import ServiceError, Unavailable
from .games import GameService, NewGame
from .games.core import SEAT_WRITE_ATTEMPTS
from .games.requests import MAX_DEADLINE, MAX_MESSAGE, MAX_ORDERS
from .http import (
    BODY_ERRORS,
    ERRORS,
    MAX_BODY,
    BodyTimeout,
    GameId,
    LimitBody,
    SessionToken,
    Token,
    add_security_headers,
    errors,
)
from .lane import Lane
from .limits import (
    UNLIMITED_PATHS,
    InFlight,
    Limiter,
    Rate,
    RateLimit,
    RateLimits,
    Refused,
    Shed,
    Shedding,
    client_address,
    refusal,
)
from .mail import MailConfig, Mailer
from .notices import Notices
from .observe import AccessLog, Metrics, Observe, install_log_context
from .placement import Placement
from .scheduler import Scheduler
from .schemas import (
    NAME_MAX,
    NO_NUL,
    PLAYER_NAME_OR_EMPTY,
    UNSEEN_CATEGORIES,
    Strict,
    Whole,
    create_game_body,
    nfc,
)
from .store import open_store
from .variant_files import offer_directory, offer_kept
from .web import install as install_web

__all__ = ["MAX_BODY", "BodyTimeout", "RateLimits", "create_app"]

log = logging.getLogger(__name__)

DEFAULT_SWEEP_S = 60.0
"""How often the scheduler sweeps for phases a crash left due (deadlines are met without it)."""
DEFAULT_BODY_TIMEOUT = BodyTimeout()
"""A body that stops arriving for 10 s, or comes slower than 500 bytes a second past them: 408."""
STREAM_RECHECK_S = 30.0
"""How often an event stream with no notice looks at its game anyway."""
T = TypeVar("T")
AT_ONCE_PATIENCE_S = 1.0
"""How long a write on the event loop keeps trying again while another thread or process holds the
lock it needs (in steps growing from half a millisecond to 20), before it goes to a worker thread,
which waits for the lock."""
PHASE_MAX = 64
"""The longest decision point name (as the database stores it)."""
READY_WITHIN_S = 1.0
"""How long ``/readyz`` waits for the database's answer before it answers 503."""
HISTORY_PAGE = 50
"""The phases ``GET /history`` gives at once unless asked for fewer or more."""
HISTORY_MAX = 200
"""The most phases ``GET /history`` gives at once (an Axis & Allies phase is about 22 kB of JSON)."""
HISTORY_PAGE_LINK: dict[str, Any] = {
    "description": "the phases asked for, in order",
    "headers": {
        "Link": {
            "description": 'the next page, while there is one: `<URL>; rel="next"`',
            "schema": {"type": "string"},
        }
    },
}


class CreatedBody(BaseModel):
    game_id: str
    gm_token: str
    seat_tokens: dict[str, str]
    open_seats: list[str] = Field(description="the seats left open, for anyone to join")
    account: str | None = Field(
        None, description="the signed-in account the players' seats are bound to (null: none)"
    )


class ServerBody(BaseModel):
    mail: bool = Field(
        description="whether the server sends e-mail (the accounts' notices); false: it sends none"
    )


class JoinBody(Strict):
    seat: str = Field(max_length=32, pattern=r"^[A-Za-z0-9_-]+$")
    player: Annotated[
        str,
        Field(
            max_length=NAME_MAX,
            pattern=PLAYER_NAME_OR_EMPTY,
            description="the player's name (omitted or empty: the seat's; no control or format character)",
        ),
        nfc(NAME_MAX),
    ] = ""


class TokenBody(BaseModel):
    seat: str
    token: str
    account: str | None = Field(None, description="the signed-in account the seat is bound to (null: none)")


class SeatWriteBody(Strict):
    """A seat's frequent write (orders, Ready): patterns without lookahead, on Rust's regex engine
    (quicker than Python's, for each order), each text field's refusing NUL."""

    model_config = ConfigDict(regex_engine="rust-regex")
    nul_refused_by_fields = True


class OrdersBody(SeatWriteBody):
    phase: str = Field(
        max_length=PHASE_MAX,
        pattern=NO_NUL,
        description="the phase the orders are for; stale ones are refused",
    )
    orders: list[Annotated[str, Field(max_length=200, pattern=NO_NUL)]] = Field(max_length=MAX_ORDERS)


class PhaseFlagBody(SeatWriteBody):
    phase: str = Field(
        max_length=PHASE_MAX,
        pattern=NO_NUL,
        description="the phase this is for; a stale one is refused (409)",
    )
    value: bool


class ExtendBody(Strict):
    seconds: Annotated[int, Field(ge=1, le=MAX_DEADLINE), Whole] = Field(
        description="added to the phase's deadline"
    )


SeatName = Annotated[str, Field(max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


class MessageBody(Strict):
    to: list[SeatName] | None = Field(
        None, min_length=1, max_length=50, description="the recipients' seats; omitted: everyone"
    )
    body: str = Field(min_length=1, max_length=MAX_MESSAGE, pattern=r"^[^\x00]*[^ \t\n\r\x00][^\x00]*$")


FamilyName: Any = Literal[tuple(families())]
"""One schema per variant (``schemas.py``), built from the registry when the API is imported."""


def _links(source: str, token: str, targets: dict[str, tuple[str, str, bool]]) -> dict[str, Any]:
    """OpenAPI links from a 201 to the operations its game id and token open: a client (or a
    stateful fuzzer) follows them from a new game to playing it."""
    links: dict[str, Any] = {}
    for name, (method, path, authorized) in targets.items():
        parameters = {"path.game_id": source}
        if authorized:
            parameters["header.Authorization"] = f"Bearer {{{token}}}"
        pointer = path.replace("~", "~0").replace("/", "~1")
        links[name] = {"operationRef": f"#/paths/{pointer}/{method}", "parameters": parameters}
    return {"responses": {"201": {"links": links}}}


GAME = "/api/games/{game_id}"
CREATED_LINKS = _links(
    "$response.body#/game_id",
    "$response.body#/gm_token",
    {
        "view": ("get", GAME, False),
        "history": ("get", f"{GAME}/history", False),
        "map": ("get", f"{GAME}/map.svg", False),
        "start": ("post", f"{GAME}/start", True),
        "pause": ("post", f"{GAME}/pause", True),
        "resume": ("post", f"{GAME}/resume", True),
        "extend": ("post", f"{GAME}/extend", True),
    },
)
OPTIONAL_SESSION: list[dict[str, Any]] = [{}]
"""Added to a route's security (bearer or session cookie): a session is optional there."""
CREATED_LINKS["security"] = OPTIONAL_SESSION
CREATED_LINKS["responses"]["201"]["links"]["join"] = {
    "operationRef": "#/paths/~1api~1games~1{game_id}~1join/post",
    "parameters": {"path.game_id": "$response.body#/game_id"},
    "requestBody": {"seat": "$response.body#/open_seats/0"},
}
JOINED_LINKS = _links(
    "$request.path.game_id",
    "$response.body#/token",
    {
        "seat": ("get", f"{GAME}/seat", True),
        "orders": ("put", f"{GAME}/orders", True),
        "options": ("get", f"{GAME}/options", True),
        "ready": ("put", f"{GAME}/ready", True),
        "draw": ("put", f"{GAME}/draw", True),
        "read_press": ("get", f"{GAME}/messages", True),
        "send_press": ("post", f"{GAME}/messages", True),
        "leave": ("post", f"{GAME}/leave", True),
    },
)
JOINED_LINKS["security"] = OPTIONAL_SESSION


class InterboardAPI(FastAPI):
    """FastAPI, with the seats' quick lane (:attr:`lane`) taken at the door.

    A request passes FastAPI's own layers (its error and telemetry middlewares, the exception
    handlers' layer, the exit stack for its dependencies, the router's matching) on its way to a
    route, and its answer passes them back. For the lane's requests, most of a server's, they cost
    more CPU than the app's own middlewares. So a request the lane matches goes to a stack of its
    own: the app's middlewares (the same ones, with the same settings and shared state), the app's
    exception handlers, then the lane. Everything else, and the lane's own hand-overs to FastAPI's
    routes, go FastAPI's way. With :attr:`lane` ``None`` every request does."""

    lane: Lane | None = None
    _quick: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        lane = self.lane
        if lane is not None and scope["type"] == "http":
            match, child = lane.matches(scope)
            if match is Match.FULL:
                if self._quick is None:
                    self._quick = self._quick_stack(lane)
                scope["app"] = self
                scope.update(child)
                await self._quick(scope, receive, send)
                return
        await super().__call__(scope, receive, send)

    def _quick_stack(self, lane: Lane) -> ASGIApp:
        """The lane with the app's exception handlers (but the 500's, which :class:`Observe` gives),
        inside its middlewares, as FastAPI's own stack has them."""
        lane.answer_errors_with(
            {key: h for key, h in self.exception_handlers.items() if key not in (500, Exception)}
        )
        app: ASGIApp = lane.handle
        for cls, args, kwargs in reversed(self.user_middleware):
            app = cls(app, *args, **kwargs)
        return app


def create_app(
    db_url: str,
    sweep: float | None = DEFAULT_SWEEP_S,
    limits: RateLimits | None = None,
    mail: MailConfig | None = None,
    hasher: PasswordHasher | None = None,
    access_log: TextIO | None = None,
    body_timeout: BodyTimeout | None = DEFAULT_BODY_TIMEOUT,
    variants_dir: Path | None = None,
) -> InterboardAPI:
    """The API over the database at ``db_url``. Phases are processed when due by a scheduler that
    also sweeps for missed ones every ``sweep`` seconds (``None``: no scheduler, for tests that drive
    processing themselves). ``limits``: the rate limits (``None``: a public server's defaults;
    tests and benchmarks pass ``RateLimits.off()``). The limiter is ``app.state.limiter``, its
    clock settable; the scheduler, once started, ``app.state.scheduler``. ``mail``: the SMTP server
    of the accounts' e-mail notices (``None``: no notices). ``hasher``: the accounts' password
    hasher (``None``: argon2-cffi's defaults; tests pass a cheaper one). ``access_log``: where a line
    a request is written (:class:`~.observe.AccessLog`; ``None``: nowhere). ``body_timeout``: how
    a request's body must arrive, or be answered 408 (``None``: it may take its time).
    ``variants_dir``: a directory of variant files to offer (``docs/variants.md``); a file with
    errors is logged and left out. The counts of the load shedding are ``app.state.in_flight``."""
    limiter = Limiter(limits if limits is not None else RateLimits())
    install_log_context()
    metrics = Metrics()
    access = AccessLog(access_log) if access_log is not None else None
    engine = open_store(db_url)
    # Variants made from files: first those the games were made with, then the directory's.
    for problem in offer_kept(engine):
        log.warning(problem)
    if variants_dir is not None:
        for problem in offer_directory(variants_dir)[1]:
            log.warning(problem)
    notices = Notices(engine)
    mailer = Mailer(mail, engine) if mail is not None else None
    told = AccountNotices(engine, mailer) if mailer is not None else None
    service = GameService(engine, on_processed=metrics.processed, notices=notices, mail=told)
    accounts = AccountService(engine, hasher, mail=told, games=service)

    placement = Placement()

    @contextlib.contextmanager
    def counted_batch() -> Iterator[None]:
        """A batch of the seats' writes (:meth:`GameService.write_batch`), the CPU of opening and
        committing it counted as ``commit`` (each write's own, as its part's)."""
        started = time.thread_time()
        try:
            with service.write_batch():
                metrics.spent("commit", time.thread_time() - started)
                try:
                    yield
                finally:
                    started = time.thread_time()
        finally:
            metrics.spent("commit", time.thread_time() - started)

    batches = WriteBatches(counted_batch, AT_ONCE_PATIENCE_S, metrics.batched)

    def counted(part: str, work: Callable[..., T]) -> Callable[..., T]:
        """``work``, the CPU its thread spends in it counted as ``part`` of the seats' requests
        (``interboard_service_cpu_seconds_total``): on whichever thread it runs, the loop's or a
        worker's, and each time it runs (a read tried again, a write that gave way)."""

        def run(*args: Any) -> T:
            started = time.thread_time()
            try:
                return work(*args)
            finally:
                metrics.spent(part, time.thread_time() - started)

        return run

    async def quick_read(part: str, read: Callable[..., T], game_id: str, *args: Any) -> T:
        """A view's answer: on the event loop if the database is quick to read (a local file) and the
        rules have nothing to work out (what they say of the phase is kept), else with the rules'
        work placed by :class:`Placement` (on the loop if the game's has been quick, else in a worker
        thread); on another database, in a worker thread (a thread hop costs less than a wait on it).
        While the game's rules work has been quick, the read runs once, its rules work and all, on
        the loop, and is timed as the game's rules work: reading first without the rules would read
        twice whenever something is missing, and a seat's tree is missing at every phase. Its CPU is
        counted as ``part``: by :class:`Placement`'s own timing where it places the read, else
        :func:`counted`."""
        if not service.local_file:
            return await run_in_threadpool(counted(part, read), game_id, *args)
        rules, spent = ("rules", game_id), partial(metrics.spent, part)
        if placement.quick(rules):
            return await placement.run(rules, partial(read, game_id, *args), spent)
        for _ in range(2):
            try:
                return service.without_rules(counted(part, read), game_id, *args)
            except NotKept as missing:
                if missing.make is None:
                    break  # its making needs the read itself
                # only the rules' work, then read again
                await placement.run(rules, missing.make, spent)
        return await placement.run(rules, partial(read, game_id, *args), spent)

    async def at_once(part: str, write: Callable[..., T | None], *args: Any) -> T | None:
        """``write(*args)`` on the event loop, in the next batch of writes (:class:`WriteBatches`),
        tried again while another process holds the lock: a worker thread would wait for the lock
        just as long, and its every call into SQLite would then wait for the event loop to let go
        of the interpreter. ``None``: the write needs a worker thread (the rules must describe the
        phase first, or the lock stayed held). Its CPU is counted as ``part``."""
        return await batches.write(counted(part, write), *args)

    async def process_at_once(game_id: str) -> bool:
        """Process the game's due phase: the rules work it out where :class:`Placement` puts the
        game's processing, and the event loop claims the game with it (:meth:`GameService.claim`).
        Whether this call processed it."""
        index: int | None = None
        work_out, spent = partial(service.work_out, game_id), partial(metrics.spent, "process")
        for _ in range(SEAT_WRITE_ATTEMPTS):
            outcome = await placement.run(("process", game_id), work_out, spent)
            if outcome is None or (index is not None and outcome.index != index):
                return False  # not due, or another processor moved the game on
            index = outcome.index
            claimed = await at_once("process", service.claim, outcome, True)
            if claimed is None:
                claimed = await run_in_threadpool(counted("process", service.claim), outcome)
            if claimed:
                return True
        return False

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        notices.start(asyncio.get_running_loop())
        if service.local_file:
            service.connections.keep()  # this thread is the event loop's
        if mailer is not None:
            mailer.start()
        task = None
        if sweep:
            app.state.scheduler = Scheduler(service, notices, sweep)
            task = asyncio.create_task(app.state.scheduler.run())
        try:
            yield
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            notices.stop()
            if mailer is not None:
                await run_in_threadpool(mailer.stop)
            if access is not None:
                access.flush()
            metrics.publish()
            service.connections.release()

    app = InterboardAPI(
        title="interboard",
        version="0.1.0",
        lifespan=lifespan,
        description="A game master for strategy games played on linked boards.",
        docs_url=None,  # served by web.py from local files, not a CDN
        redoc_url=None,
        # FastAPI's OpenTelemetry, which asks on every request whether a provider is configured:
        # the server's own metrics and logs are Prometheus's and JSON lines.
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.service = service
    app.state.accounts = accounts
    app.state.mailer = mailer
    app.state.notices = notices
    app.state.limiter = limiter
    app.state.placement = placement
    app.state.metrics = metrics
    in_flight = app.state.in_flight = InFlight()
    app.add_middleware(LimitBody)
    app.add_middleware(RateLimit, limiter=limiter)  # once the body is in (Shed waits for it)
    # Before anything else is done, and the in-flight count once the body is in; its counts shared
    # with the quick lane's (InterboardAPI) and /readyz.
    app.add_middleware(Shed, limits=limiter.limits, counts=in_flight, body_timeout=body_timeout)
    # Added last, so outermost: every answer counted, and every one (even a 413) with the request id
    # and the security headers.
    app.add_middleware(Observe, metrics=metrics, access=access, answer_headers=add_security_headers)

    @app.exception_handler(ServiceError)
    async def refused(_: Request, exc: ServiceError) -> JSONResponse:
        body: dict[str, Any] = {"error": exc.message}
        details = getattr(exc, "details", None)
        if details:
            body["details"] = details
        if isinstance(exc, Refused):
            return refusal(exc)
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return JSONResponse(body, status_code=exc.status, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            # Starlette names the methods of the first route on the path only; a path served by
            # several routes (GET and POST /api/games) allows all of theirs.
            headers["Allow"] = ", ".join(_allowed_methods(app, request.scope))
        # FastAPI's 400 is a body it could not read (not UTF-8): said as every other unreadable body.
        error = ERRORS[400] if exc.status_code == 400 else str(exc.detail)
        return JSONResponse({"error": error}, status_code=exc.status_code, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def malformed(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            {"where": ".".join(str(x) for x in e.get("loc", ())), "error": _problem(e)} for e in exc.errors()
        ]
        if any(e.get("type") == "json_invalid" for e in exc.errors()):
            # Not JSON at all (or not UTF-8): a bad request, 400, as the documentation says; a
            # body that is JSON but not what the route takes is malformed, 422.
            return JSONResponse({"error": ERRORS[400], "details": problems}, status_code=400)
        return JSONResponse({"error": "malformed request", "details": problems}, status_code=422)

    seat = errors(401, 403, 404, 422)
    """A seat's or the game master's request without a body."""
    seat_body = errors(401, 403, 404, 409, *BODY_ERRORS)
    """A seat's or the game master's request with a body."""

    @app.get("/healthz", tags=["operations"])
    async def healthz() -> dict[str, str]:
        """The process is alive and answering (whatever its database's state)."""
        return {"status": "ok"}

    checking: asyncio.Future[None] | None = None
    """The readiness check under way: one at a time, however many probes wait on it."""

    @app.get("/readyz", tags=["operations"], responses=errors(503))
    async def readyz() -> dict[str, str]:
        """The server is not shedding load, and the database answers a trivial query within a
        second: the server can take requests (503 if not, saying why)."""
        nonlocal checking
        shed = in_flight.shedding(limiter.limits.in_flight)
        if shed is not None:
            raise Shedding(shed)
        if checking is None or checking.done():
            checking = asyncio.ensure_future(run_in_threadpool(service.ping))
            # Its failure is read by whoever waits on it in time; if no one does, by this.
            checking.add_done_callback(lambda done: done.cancelled() or done.exception())
        try:
            # A database that stops answering holds the check for as long as the driver waits
            # (TCP's retries, the connect timeout): the probe's answer does not wait with it, and
            # the next probes wait on the same check rather than each tying up a thread.
            await asyncio.wait_for(asyncio.shield(checking), READY_WITHIN_S)
        except TimeoutError:
            log.warning("the database did not answer /readyz within %g s", READY_WITHIN_S)
            raise Unavailable(f"the database did not answer within {READY_WITHIN_S:g} s") from None
        return {"status": "ready"}

    @app.get("/metrics", include_in_schema=False)
    async def metrics_text() -> Response:
        """The metrics in Prometheus's text format (for a scraper, not the API's clients)."""
        return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    @app.get("/api/variants", responses=errors(422))
    async def variants(
        family: Annotated[FamilyName | None, Query(description="only this family's")] = None,
    ) -> list[dict[str, Any]]:
        return await run_in_threadpool(service.variants, family)

    @app.get("/api/server")
    async def server() -> ServerBody:
        """What this server offers that its pages adapt to: whether it sends e-mail notices (it
        does only when started with an SMTP server)."""
        return ServerBody(mail=mailer is not None)

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return await run_in_threadpool(service.list_games)

    async def create(body: Any, request: Request, session: SessionToken) -> CreatedBody:
        """429 past the games a client address may create in an hour (fewer if every seat is a bot).
        Signed in (a session's cookie or bearer token), the seats given to players are bound to the
        account; a token that is no live session binds nothing (``account`` says null)."""
        # Only what was sent: the service fills in the defaults, the options' among them.
        given = body.model_dump(exclude_unset=True)
        scenario = given.get("scenario")
        if "variant" not in given and isinstance(scenario, dict) and isinstance(scenario.get("variant"), str):
            # A bare {"scenario": ...} is a game of the scenario's variant; the rest of the body was
            # read as the default variant's, and the service checks it again for this one.
            given["variant"] = scenario["variant"]
        # A game is all bots only if every seat given is one (a seat not given is open); whether it
        # is, is known once it is made: counted then, so a refused attempt costs nothing.
        seats = given.get("seats") or {}
        maybe_bots = bool(seats) and all(str(how).startswith("bot") for how in seats.values())
        address = client_address(request.scope)
        limiter.refuse(limiter.game_checks(address, maybe_bots))
        account = await run_in_threadpool(accounts.find, session) if session else None
        created = await run_in_threadpool(service.create, NewGame(**given), account.id if account else None)
        limiter.charge(limiter.game_checks(address, not created.open_seats and not created.seat_tokens))
        return CreatedBody(
            game_id=created.game_id,
            gm_token=created.gm_token,
            seat_tokens=created.seat_tokens,
            open_seats=created.open_seats,
            account=account.name if account else None,
        )

    # The body names every variant offered now, those made from files included, so it is made with
    # the app; FastAPI reads a route's types from its annotations, which name no local here.
    create.__annotations__["body"] = create_game_body()
    app.post("/api/games", status_code=201, responses=errors(401, *BODY_ERRORS), openapi_extra=CREATED_LINKS)(
        create
    )

    @app.get("/api/games/{game_id}", responses=errors(404, 422))
    async def public(game_id: GameId) -> dict[str, Any]:
        return await quick_read("public view", service.public_view, game_id)

    @app.post(
        "/api/games/{game_id}/join",
        status_code=201,
        responses=errors(401, 404, 409, *BODY_ERRORS),
        openapi_extra=JOINED_LINKS,
    )
    async def join(game_id: GameId, body: JoinBody, session: SessionToken) -> TokenBody:
        """Signed in (a session's cookie or bearer token), the seat is bound to the account: its
        games list it, and it may get a fresh token for it elsewhere (``account`` says which)."""
        account = await run_in_threadpool(accounts.find, session) if session else None
        token = await run_in_threadpool(
            service.join, game_id, body.seat, body.player, account.id if account else None
        )
        return TokenBody(seat=body.seat, token=token, account=account.name if account else None)

    @app.get("/api/games/{game_id}/seat", responses=seat, response_model=dict[str, Any])
    async def seat_view(game_id: GameId, token: Token) -> Response:
        return Response(
            await quick_read("view", service.seat_view_json, game_id, token), media_type="application/json"
        )

    @app.put("/api/games/{game_id}/orders", responses=seat_body, response_model=list[dict[str, Any]])
    async def orders(game_id: GameId, body: OrdersBody, token: Token) -> Response:
        """422 also when the rules refuse an order: ``details`` then says what is wrong with each."""
        if service.local_file:
            report = await at_once("orders", service.submit_at_once, game_id, token, body.phase, body.orders)
            if report is not None:
                return _json(report)
        submit = counted("orders", service.submit)
        return _json(await run_in_threadpool(submit, game_id, token, body.phase, body.orders))

    @app.get("/api/games/{game_id}/options", responses=seat, response_model=dict[str, Any])
    async def options(game_id: GameId, token: Token) -> Response:
        return _json(await quick_read("tree", service.options, game_id, token))

    @app.put("/api/games/{game_id}/ready", responses=seat_body, response_model=dict[str, bool])
    async def ready(game_id: GameId, body: PhaseFlagBody, token: Token) -> Response:
        if service.local_file:
            due = await at_once("ready", service.set_ready_at_once, game_id, token, body.phase, body.value)
            if due is not None:
                processed = due and await process_at_once(game_id)
                return _json({"ready": body.value, "processed": processed})
        # Marking ready and the processing it may lead to, in one call: counted as the Ready's.
        ready_and_process = counted("ready", service.ready)
        processed = await run_in_threadpool(ready_and_process, game_id, token, body.phase, body.value)
        return _json({"ready": body.value, "processed": processed})

    # The seats' calls all game long, answered without FastAPI's per-request dependency solving.
    lane_bodies: dict[Callable[..., Any], type[BaseModel] | None] = {
        seat_view: None,
        options: None,
        orders: OrdersBody,
        ready: PhaseFlagBody,
    }
    app.lane = Lane(
        (route, lane_bodies[route.endpoint])
        for route in app.router.routes
        if isinstance(route, APIRoute) and route.endpoint in lane_bodies
    )
    app.router.routes.insert(0, app.lane)  # where a request that came FastAPI's way finds it

    @app.post("/api/games/{game_id}/leave", responses=errors(401, 403, 404, 409, 422))
    async def leave(game_id: GameId, token: Token) -> dict[str, str]:
        """The seat's player leaves; the seat passes to a bot or opens (the game's ``on_leave``)."""
        return {"seat_now": await run_in_threadpool(service.leave, game_id, token)}

    @app.put("/api/games/{game_id}/draw", responses=seat_body)
    async def draw(game_id: GameId, body: PhaseFlagBody, token: Token) -> dict[str, bool]:
        await run_in_threadpool(service.vote_draw, game_id, token, body.phase, body.value)
        return {"draw_vote": body.value}

    @app.get("/api/games/{game_id}/history", responses={200: HISTORY_PAGE_LINK, **errors(404, 422)})
    async def history(
        game_id: GameId,
        request: Request,
        response: Response,
        offset: Annotated[
            int, Query(ge=0, lt=2**31, description="the index of the first phase given (0: the game's first)")
        ] = 0,
        limit: Annotated[
            int, Query(ge=1, le=HISTORY_MAX, description="the most phases given at once")
        ] = HISTORY_PAGE,
    ) -> list[dict[str, Any]]:
        """The played phases in order, a page at a time: ``Link: <...>; rel="next"`` asks for the
        next page while there is one (the public view's ``phase_index`` is how many there are)."""
        page = await run_in_threadpool(service.history, game_id, offset, limit + 1)
        if len(page) > limit:  # one more than asked for: there is a next page
            page.pop()
            following = request.url.include_query_params(offset=offset + limit, limit=limit)
            response.headers["Link"] = f'<{following.path}?{following.query}>; rel="next"'
        return page

    @app.get("/api/games/{game_id}/messages", responses=seat)
    async def messages(game_id: GameId, token: Token) -> list[dict[str, Any]]:
        return await run_in_threadpool(service.messages, game_id, token)

    @app.post("/api/games/{game_id}/messages", status_code=201, responses=seat_body)
    async def send(game_id: GameId, body: MessageBody, token: Token) -> dict[str, int]:
        """403 where the game's press rule forbids the message; 409 once the game is over; 429 past
        the messages a seat may send in a minute."""
        press = limiter.press_checks(game_id, token)
        limiter.refuse(press)
        sent = await run_in_threadpool(service.send_message, game_id, token, body.to, body.body)
        limiter.charge(press)
        return {"id": sent}

    lifecycle = errors(401, 403, 404, 409, 422)

    @app.post("/api/games/{game_id}/start", responses=lifecycle)
    async def start(game_id: GameId, token: Token) -> dict[str, str]:
        await run_in_threadpool(service.start, game_id, token)
        return {"status": "active"}

    @app.post("/api/games/{game_id}/pause", responses=lifecycle)
    async def pause(game_id: GameId, token: Token) -> dict[str, str]:
        await run_in_threadpool(service.pause, game_id, token)
        return {"status": "paused"}

    @app.post("/api/games/{game_id}/resume", responses=lifecycle)
    async def resume(game_id: GameId, token: Token) -> dict[str, str]:
        await run_in_threadpool(service.resume, game_id, token)
        return {"status": "active"}

    @app.post("/api/games/{game_id}/extend", responses=seat_body)
    async def extend(game_id: GameId, body: ExtendBody, token: Token) -> dict[str, int]:
        """Push the phase's deadline back; a phase without a deadline is refused (409): it waits for
        every seat's Ready, and extending must not give it a deadline."""
        await run_in_threadpool(service.extend, game_id, token, body.seconds)
        return {"extended_by": body.seconds}

    @app.get(
        "/api/games/{game_id}/events",
        response_class=EventSourceResponse,
        responses={
            200: {"content": {"text/event-stream": {}}, "description": "a stream of updates"},
            **errors(404, 422),
        },
    )
    async def events(game_id: GameId, request: Request) -> EventSourceResponse:
        """Server-sent events: ``update`` with the game's version, phase and status whenever it
        changes. The stream sleeps until a change notice wakes it (and looks again every
        half-minute, in case a notice was lost)."""
        await run_in_threadpool(service.headline, game_id)  # 404 for an unknown game

        async def stream() -> AsyncIterator[dict[str, str]]:
            with notices.subscribe(game_id) as mailbox:  # before the first look: nothing slips by
                seen = -1
                head = await run_in_threadpool(service.headline, game_id)
                while True:
                    if head["version"] > seen:
                        seen = head["version"]
                        yield {"event": "update", "data": json.dumps(head)}
                    change = await mailbox.wait(STREAM_RECHECK_S)
                    if change is None or change.resync:
                        head = await run_in_threadpool(service.headline, game_id)
                    else:
                        head = {"version": change.version, "phase": change.phase, "status": change.status}

        return EventSourceResponse(stream(), ping=15)

    # After the game's routes: a request is matched against the routes in order, and the seats'
    # requests are most of a server's.
    install_web(app)  # the lobby and game pages, their static files, the map and /docs
    account_api.install(app, accounts, limiter)
    _declare_rate_limits(app)
    return app


RATE_LIMITED: dict[str, Any] = {
    "description": "over a rate limit; Retry-After says in how many seconds to try again",
    "headers": {
        "Retry-After": {"description": "seconds to wait", "schema": {"type": "integer", "minimum": 1}}
    },
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
}


OVERLOADED: dict[str, Any] = {
    **RATE_LIMITED,
    "description": "the server is busy (too many requests or event streams at once); Retry-After says "
    "in how many seconds to try again",
}


BODY_LATE: dict[str, Any] = {
    "description": ERRORS[408],
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
}


def _json(content: dict[str, Any] | list[Any]) -> Response:
    """An answer of plain JSON values (a legal-order tree, the hot writes' reports),
    encoded at once: the route still declares its model, but FastAPI would first validate the
    whole of it against that model (``dict[str, Any]``, ...), which cannot fail, then encode it."""
    return Response(to_json(content), media_type="application/json")


def _declare_rate_limits(app: FastAPI) -> None:
    """Every operation but the probes may answer 429 and 503, and one that takes a body 408: the
    OpenAPI document says so (added to the document as it is made, so that no route, the web
    pages' included, can be missed)."""
    made = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = made()
            for path, operations in document["paths"].items():
                if path not in UNLIMITED_PATHS:
                    for operation in operations.values():
                        operation["responses"].setdefault("429", RATE_LIMITED)
                        operation["responses"].setdefault("503", OVERLOADED)
                        if "requestBody" in operation:
                            operation["responses"].setdefault("408", BODY_LATE)
        return app.openapi_schema or made()

    app.openapi = openapi  # type: ignore[method-assign]


def _problem(error: dict[str, Any]) -> str:
    value = error.get("input")
    if isinstance(value, str) and "\x00" in value:  # say why rather than show the pattern
        return "text may not contain NUL characters"
    if isinstance(value, str) and error.get("type") == "string_pattern_mismatch":
        unseen = [
            k
            for k, c in enumerate(value)
            if ord(c) <= 0xFFFF and unicodedata.category(c) in UNSEEN_CATEGORIES
        ]
        hidden = unseen[0] if unseen else None
        if hidden is not None:  # a name or title that could hide or reorder what is shown
            c = value[hidden]
            named = unicodedata.name(c, "a control character")
            return (
                f"no control or format character may be in it: U+{ord(c):04X} ({named}) at position {hidden}"
            )
    return str(error.get("msg", ""))


def _allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """The methods of every route whose path matches the request's."""
    methods: set[str] = set()
    for route in app.router.routes:
        if isinstance(route, Route) and route.methods and route.matches(scope)[0] != Match.NONE:
            methods |= route.methods
    return sorted(methods)


GC_THRESHOLDS = (10_000, 50, 50)
"""The cyclic garbage collector's thresholds in a server process (Python's defaults: 700, 10, 10).
A server keeps many long-lived objects (the phases' states and views it caches); with the defaults
it scanned all of them in a full collection every few seconds under load, tens of milliseconds
each, which every request then in flight waited for."""


def settle_for_serving() -> None:
    """Ready a server process once its app is made. Its garbage collector never scans again what
    exists now (modules, boards, the app), and collects less often. Its log records skip what the
    server's JSON lines never show (the calling frame, the thread's and process's names): a server
    logs a line a request, and finding the caller alone cost a tenth of the line."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    logging._srcfile = None  # the logging HOWTO's "Optimization": no sys._getframe() a record


ENVIRONMENT = "INTERBOARD_SERVE"
"""The environment variable through which ``interboard serve --workers N`` gives each worker process
its settings (uvicorn starts the workers, and makes each one's app by :func:`app_from_environment`)."""


def serving_config(
    db_url: str,
    sweep: float | None,
    limits: RateLimits,
    mail: MailConfig | None = None,
    access_log: bool = True,
    body_timeout: BodyTimeout | None = DEFAULT_BODY_TIMEOUT,
    variants_dir: Path | None = None,
) -> str:
    """What :func:`app_from_environment` needs, as the text of :data:`ENVIRONMENT`. ``access_log``:
    whether each worker writes a line a request on its standard error."""
    return json.dumps(
        {
            "db": db_url,
            "sweep": sweep,
            "limits": dataclasses.asdict(limits),
            "mail": dataclasses.asdict(mail) if mail is not None else None,
            "access_log": access_log,
            "body_timeout": dataclasses.asdict(body_timeout) if body_timeout is not None else None,
            "variants_dir": str(variants_dir) if variants_dir is not None else None,
        }
    )


def app_from_environment() -> FastAPI:
    """The app of one worker process, from the settings its parent left in :data:`ENVIRONMENT`."""
    config = json.loads(os.environ[ENVIRONMENT])
    limits: dict[str, Any] = {
        name: Rate(**value) if isinstance(value, dict) else value for name, value in config["limits"].items()
    }
    mail = MailConfig(**config["mail"]) if config.get("mail") else None
    body_timeout = config.get("body_timeout", dataclasses.asdict(DEFAULT_BODY_TIMEOUT))
    app = create_app(
        config["db"],
        sweep=config["sweep"],
        limits=RateLimits(**limits),
        mail=mail,
        access_log=sys.stderr if config.get("access_log", True) else None,
        body_timeout=BodyTimeout(**body_timeout) if body_timeout is not None else None,
        variants_dir=Path(config["variants_dir"]) if config.get("variants_dir") else None,
    )
    settle_for_serving()
    return app
