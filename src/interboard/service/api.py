"""The HTTP API (FastAPI). Every handler is a thin shell over :class:`GameService`.

Authentication: the game master's and each seat's secret token, sent as ``Authorization: Bearer``.
Errors are JSON ``{"error": message, "details": [...]}`` with a 4xx status; never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi import Path as FastAPIPath
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from sse_starlette.sse import EventSourceResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.base import BaseHTTPMiddleware, RequestResponseEndpoint
from starlette.responses import Response

from .games import GameService, NewGame, ServiceError
from .store import open_store
from .web import install as install_web

MAX_BODY = 64 * 1024
PHASE_MAX = 64
"""The longest decision point name (as the database stores it)."""


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="after")
    def _no_nul(self) -> Strict:
        # PostgreSQL cannot store NUL in text; refuse it everywhere rather than on one database.
        if _has_nul(self.model_dump()):
            raise ValueError("text may not contain NUL characters")
        return self


def _has_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_has_nul(v) for v in value)
    return False


class CreateGameBody(Strict):
    variant: str = Field("standard", max_length=64, description="a variant id (GET /api/variants)")
    family: str | None = Field(None, max_length=32, description="optional: checked against the variant's")
    title: str = Field("", max_length=200)
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    seed: int | None = Field(
        None, ge=0, lt=2**63, description="seeds the game's dice; omitted: drawn by the server, unseen"
    )
    press: str = Field("full", max_length=16)
    deadlines: dict[str, int] = Field(default_factory=dict, description="seconds per phase kind")
    seats: dict[str, str] = Field(
        default_factory=dict, description="seat -> open | bot | bot:NAME (bot:heuristic ...) | player name"
    )
    autostart: bool = True
    missed_orders: str = Field("default", max_length=16, description="default | wait (extend once)")
    on_leave: str = Field(
        "bot", max_length=40, description="a leaving player's seat becomes: bot | bot:NAME | open"
    )


class CreatedBody(BaseModel):
    game_id: str
    gm_token: str
    seat_tokens: dict[str, str]


class JoinBody(Strict):
    seat: str = Field(max_length=32, pattern=r"^[A-Za-z0-9_-]+$")
    player: str = Field("", max_length=100)


class TokenBody(BaseModel):
    seat: str
    token: str


class OrdersBody(Strict):
    phase: str = Field(
        max_length=PHASE_MAX, description="the phase the orders are for; stale ones are refused"
    )
    orders: list[Annotated[str, Field(max_length=200)]] = Field(max_length=200)


class PhaseFlagBody(Strict):
    phase: str = Field(
        max_length=PHASE_MAX, description="the phase this is for; a stale one is refused (409)"
    )
    value: bool


class ExtendBody(Strict):
    seconds: int = Field(ge=1, le=30 * 86400)


class MessageBody(Strict):
    to: list[Annotated[str, Field(max_length=32)]] | None = Field(None, max_length=50)
    body: str = Field(max_length=4000)


class LimitBody(BaseHTTPMiddleware):
    """Refuse request bodies larger than MAX_BODY before reading them."""

    async def dispatch(self, request: Request, call_next: RequestResponseEndpoint) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return JSONResponse({"error": f"request body larger than {MAX_BODY} bytes"}, status_code=413)
        return await call_next(request)


def _token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


Token = Annotated[str | None, Depends(_token)]
GameId = Annotated[str, FastAPIPath(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="a game's id")]


def create_app(db_url: str, tick: float | None = 1.0) -> FastAPI:
    """The API over the database at ``db_url``; every ``tick`` seconds due phases are processed
    (``None``: no scheduler, for tests that drive processing themselves)."""
    service = GameService(open_store(db_url))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(_scheduler(service, tick)) if tick else None
        yield
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    app = FastAPI(
        title="interboard",
        version="0.1.0",
        lifespan=lifespan,
        description="A game master for strategy games played on linked boards.",
    )
    app.state.service = service
    app.add_middleware(LimitBody)

    @app.exception_handler(ServiceError)
    async def refused(_: Request, exc: ServiceError) -> JSONResponse:
        body: dict[str, Any] = {"error": exc.message}
        details = getattr(exc, "details", None)
        if details:
            body["details"] = details
        return JSONResponse(body, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def malformed(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            {"where": ".".join(str(x) for x in e.get("loc", ())), "error": str(e.get("msg", ""))}
            for e in exc.errors()
        ]
        return JSONResponse({"error": "malformed request", "details": problems}, status_code=422)

    install_web(app)  # the lobby and game pages, their static files, and the map

    @app.get("/api/variants")
    async def variants(
        family: Annotated[str | None, Query(max_length=32, description="only this family's")] = None,
    ) -> list[dict[str, Any]]:
        return await run_in_threadpool(service.variants, family)

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return await run_in_threadpool(service.list_games)

    @app.post("/api/games", status_code=201)
    async def create(body: CreateGameBody) -> CreatedBody:
        created = await run_in_threadpool(service.create, NewGame(**body.model_dump()))
        return CreatedBody(
            game_id=created.game_id, gm_token=created.gm_token, seat_tokens=created.seat_tokens
        )

    @app.get("/api/games/{game_id}")
    async def public(game_id: GameId) -> dict[str, Any]:
        return await run_in_threadpool(service.public_view, game_id)

    @app.post("/api/games/{game_id}/join", status_code=201)
    async def join(game_id: GameId, body: JoinBody) -> TokenBody:
        token = await run_in_threadpool(service.join, game_id, body.seat, body.player)
        return TokenBody(seat=body.seat, token=token)

    @app.get("/api/games/{game_id}/seat")
    async def seat(game_id: GameId, token: Token) -> dict[str, Any]:
        return await run_in_threadpool(service.seat_view, game_id, token)

    @app.put("/api/games/{game_id}/orders")
    async def orders(game_id: GameId, body: OrdersBody, token: Token) -> list[dict[str, Any]]:
        return await run_in_threadpool(service.submit, game_id, token, body.phase, body.orders)

    @app.get("/api/games/{game_id}/options")
    async def options(game_id: GameId, token: Token) -> dict[str, Any]:
        return await run_in_threadpool(service.options, game_id, token)

    @app.put("/api/games/{game_id}/ready")
    async def ready(game_id: GameId, body: PhaseFlagBody, token: Token) -> dict[str, bool]:
        await run_in_threadpool(service.set_ready, game_id, token, body.phase, body.value)
        processed = await run_in_threadpool(service.try_process, game_id)
        return {"ready": body.value, "processed": processed}

    @app.post("/api/games/{game_id}/leave")
    async def leave(game_id: GameId, token: Token) -> dict[str, str]:
        """The seat's player leaves; the seat passes to a bot or opens (the game's ``on_leave``)."""
        return {"seat_now": await run_in_threadpool(service.leave, game_id, token)}

    @app.put("/api/games/{game_id}/draw")
    async def draw(game_id: GameId, body: PhaseFlagBody, token: Token) -> dict[str, bool]:
        await run_in_threadpool(service.vote_draw, game_id, token, body.phase, body.value)
        return {"draw_vote": body.value}

    @app.get("/api/games/{game_id}/history")
    async def history(game_id: GameId) -> list[dict[str, Any]]:
        return await run_in_threadpool(service.history, game_id)

    @app.get("/api/games/{game_id}/messages")
    async def messages(game_id: GameId, token: Token) -> list[dict[str, Any]]:
        return await run_in_threadpool(service.messages, game_id, token)

    @app.post("/api/games/{game_id}/messages", status_code=201)
    async def send(game_id: GameId, body: MessageBody, token: Token) -> dict[str, int]:
        return {"id": await run_in_threadpool(service.send_message, game_id, token, body.to, body.body)}

    @app.post("/api/games/{game_id}/start")
    async def start(game_id: GameId, token: Token) -> dict[str, str]:
        await run_in_threadpool(service.start, game_id, token)
        return {"status": "active"}

    @app.post("/api/games/{game_id}/pause")
    async def pause(game_id: GameId, token: Token) -> dict[str, str]:
        await run_in_threadpool(service.pause, game_id, token)
        return {"status": "paused"}

    @app.post("/api/games/{game_id}/resume")
    async def resume(game_id: GameId, token: Token) -> dict[str, str]:
        await run_in_threadpool(service.resume, game_id, token)
        return {"status": "active"}

    @app.post("/api/games/{game_id}/extend")
    async def extend(game_id: GameId, body: ExtendBody, token: Token) -> dict[str, int]:
        await run_in_threadpool(service.extend, game_id, token, body.seconds)
        return {"extended_by": body.seconds}

    @app.get(
        "/api/games/{game_id}/events",
        response_class=EventSourceResponse,
        responses={200: {"content": {"text/event-stream": {}}, "description": "a stream of updates"}},
    )
    async def events(game_id: GameId, request: Request) -> EventSourceResponse:
        """Server-sent events: ``update`` with the game's version and phase whenever it changes."""
        await run_in_threadpool(service.version, game_id)  # 404 for an unknown game

        async def stream() -> AsyncIterator[dict[str, str]]:
            seen = -1
            while not await request.is_disconnected():
                view = await run_in_threadpool(service.public_view, game_id)
                if view["version"] != seen:
                    seen = view["version"]
                    data = {"version": seen, "phase": view["phase"], "status": view["status"]}
                    yield {"event": "update", "data": json.dumps(data)}
                await asyncio.sleep(0.5)

        return EventSourceResponse(stream(), ping=15)

    return app


async def _scheduler(service: GameService, tick: float) -> None:
    """Process every phase that is due, every ``tick`` seconds, for as long as the server runs."""
    while True:
        await run_in_threadpool(service.process_due)
        await asyncio.sleep(tick)
