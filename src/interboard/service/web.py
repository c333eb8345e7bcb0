"""The web pages: a lobby and a game page, plain HTML shells whose JavaScript talks to the JSON API.

The pages hold no game logic: they fetch ``/api/...`` with the seat's token (kept in the browser's
localStorage) and listen to the game's server-sent events. The one thing added to the API here is
the map, ``GET /api/games/{id}/map.svg``: the current position (with the asking seat's own orders),
or phase K of the history with everyone's orders and their results.
"""

from __future__ import annotations

import html
from importlib.resources import files
from string import Template
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi import Path as FastAPIPath
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response

from ..games import family as get_family
from ..games.protocol import FamilyError
from .games import GameService, Invalid
from .http import OPTIONAL_AUTH, OptionalToken, errors

PACKAGE = files("interboard.service")
GameId = Annotated[str, FastAPIPath(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="a game's id")]

router = APIRouter()


SWAGGER_UI = files("fastapi_offline") / "static"
"""Swagger UI's files, from a package that ships them: /docs works offline."""


def install(app: FastAPI) -> None:
    """Add the pages, their static files, the map endpoint and /docs to the API's app."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(PACKAGE / "static")), name="static")
    app.mount("/docs/assets", StaticFiles(directory=str(SWAGGER_UI)), name="docs-assets")


def _page(name: str, **values: str) -> str:
    template = Template((PACKAGE / "templates" / f"{name}.html").read_text(encoding="utf-8"))
    return template.substitute({k: html.escape(v) for k, v in values.items()})


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def lobby() -> str:
    return _page("lobby")


@router.get("/docs", response_class=HTMLResponse, include_in_schema=False)
async def docs() -> str:
    """The API's documentation (Swagger UI), started by a script file rather than an inline one,
    so that the page's Content-Security-Policy can refuse inline scripts."""
    return _page("docs")


@router.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
async def game_page(request: Request, game_id: GameId) -> str:
    service: GameService = request.app.state.service
    view = await run_in_threadpool(service.public_view, game_id)  # 404 for an unknown game
    return _page("game", game_id=game_id, title=str(view["title"]))


@router.get(
    "/api/games/{game_id}/map.svg",
    response_class=Response,
    responses={
        200: {"content": {"image/svg+xml": {}}, "description": "the map as SVG"},
        **errors(401, 403, 404, 422),
    },
    openapi_extra=OPTIONAL_AUTH,
)
async def game_map(
    request: Request,
    game_id: GameId,
    token: OptionalToken,
    phase: Annotated[
        int | None, Query(ge=0, lt=2**31, description="a phase of the history (0 = the first)")
    ] = None,
) -> Response:
    """The map of the current position, with the asking seat's own orders when its token is sent;
    or, with ``phase``, the position phase K was played from, with every order and its result."""
    service: GameService = request.app.state.service
    svg = await run_in_threadpool(_map_svg, service, game_id, phase, token)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def _map_svg(service: GameService, game_id: str, phase: int | None, token: str | None) -> str:
    if phase is None:
        view = service.seat_view(game_id, token) if token else service.public_view(game_id)
        seat = view.get("seat")
        orders = {seat["seat"]: seat["orders"]} if seat else {}
        return draw(view["family"], view["variant"], view["position"], orders, [], view["phase"])
    game = service.public_view(game_id)
    record = service.played_phase(game_id, phase)
    title = f"{record['phase']}: orders and results"
    return draw(
        game["family"], game["variant"], record["position"], record["orders"], record["results"], title
    )


def draw(
    family: str,
    variant: str,
    position: dict[str, Any],
    orders: dict[str, list[str]],
    results: list[dict[str, Any]],
    title: str,
) -> str:
    """A family's position as SVG, drawn by the family itself."""
    try:
        return get_family(family).draw(variant, position, orders, results, title)
    except FamilyError as exc:
        raise Invalid(str(exc)) from None
