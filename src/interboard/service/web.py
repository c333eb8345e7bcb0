"""The web pages: a lobby and a game page, plain HTML shells whose JavaScript talks to the JSON API.

The pages hold no game logic: they fetch ``/api/...`` with the seat's token (kept in the browser's
localStorage) and listen to the game's server-sent events. The one thing added to the API here is
the map, ``GET /api/games/{id}/map.svg``: the current position (with the asking seat's own orders),
or phase K of the history with everyone's orders and their results.
"""

from __future__ import annotations

import functools
import gzip
import html
import re
from importlib.resources import files
from string import Template
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi import Path as FastAPIPath
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from markdown_it import MarkdownIt
from starlette.responses import Response

from ..games import family as get_family
from ..games import find_variant, variants
from ..games.protocol import FamilyError, VariantInfo
from .errors import Invalid, NotFound
from .games import GameService
from .http import OPTIONAL_AUTH, GameId, OptionalToken, errors

PACKAGE = files("interboard.service")
GZIP_LEVEL = 6
"""gzip's level for maps: near the smallest output, at a few milliseconds for a real-coastline map."""

router = APIRouter()


SWAGGER_UI = files("fastapi_offline") / "static"
"""Swagger UI's files, from a package that ships them: /docs works offline."""


def install(app: FastAPI) -> None:
    """Add the pages, their static files, the map endpoint and /docs to the API's app."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(PACKAGE / "static")), name="static")
    app.mount("/docs/assets", StaticFiles(directory=str(SWAGGER_UI)), name="docs-assets")


def _page(name: str, raw: dict[str, str] | None = None, **values: str) -> str:
    """A page from its template: ``values`` escaped, ``raw`` (HTML the server built) as it is."""
    template = Template((PACKAGE / "templates" / f"{name}.html").read_text(encoding="utf-8"))
    return template.substitute({k: html.escape(v) for k, v in values.items()} | (raw or {}))


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def lobby() -> str:
    return _page("lobby")


@router.get("/docs", response_class=HTMLResponse, include_in_schema=False)
async def docs() -> str:
    """The API's documentation (Swagger UI), started by a script file rather than an inline one,
    so that the page's Content-Security-Policy can refuse inline scripts."""
    return _page("docs")


@router.get("/rules", response_class=HTMLResponse, include_in_schema=False)
async def rules_index() -> str:
    """Every variant, each linked to its rules page."""
    body = [
        "<h2>Rules</h2>",
        "<p>Each variant's rules as interboard plays them, with its options.</p>",
        "<ul class='rules-list'>",
    ]
    for info in variants():
        body.append(
            f"<li><a href='/rules/{html.escape(info.id)}'>{html.escape(info.title)}</a>"
            f" <span class='hint'>{html.escape(info.description)}</span></li>"
        )
    body.append("</ul>")
    return _page("rules", raw={"body": "\n".join(body)}, title="all variants")


@router.get("/rules/{variant_id}", response_class=HTMLResponse, include_in_schema=False)
async def rules_page(variant_id: Annotated[str, FastAPIPath(max_length=64)]) -> str:
    """A variant's rules page: what it is, its options, then the project's rule pages for it
    (``docs/rules/*.md``, shipped with the package), rendered from Markdown."""
    try:
        _, info = find_variant(variant_id)
    except FamilyError as exc:
        raise NotFound(str(exc)) from None
    return _page("rules", raw={"body": rules_html(info)}, title=info.title)


def rules_html(info: VariantInfo) -> str:
    """The body of a variant's rules page."""
    out = [f"<h2>{html.escape(info.title)}</h2>", f"<p>{html.escape(info.description)}</p>"]
    out.append(f"<p>Seats: {html.escape(', '.join(info.seats))}.</p>")
    if info.options:
        out.append("<h3>Options</h3><p>Chosen when a game is created.</p><dl class='rule-options'>")
        for option in info.options:
            default = html.escape(str(option.default))
            out.append(
                f"<dt><code>{html.escape(option.name)}</code> (default {default})</dt>"
                f"<dd>{html.escape(option.help)}</dd>"
            )
        out.append("</dl>")
    if len(info.rules) > 1:
        out.append("<nav aria-label='On this page'><ul>")
        for name in info.rules:
            out.append(f"<li><a href='#rules-{name}'>{html.escape(_heading(name))}</a></li>")
        out.append("</ul></nav>")
    for name in info.rules:
        out.append(f"<section id='rules-{name}' class='rule-text'>{_markdown(name)}</section>")
    return "\n".join(out)


@functools.cache
def _rule_text(name: str) -> str:
    """A rule page's Markdown; a page an installed family names but did not ship says so."""
    path = PACKAGE / "rules" / f"{name}.md"
    if not path.is_file():
        return f"# {name}\n\nThis rules page is not installed with this server."
    return path.read_text(encoding="utf-8")


def _heading(name: str) -> str:
    first = _rule_text(name).splitlines()[0]
    return first.lstrip("# ").strip()


@functools.cache
def _markdown(name: str) -> str:
    # Raw HTML in the Markdown is escaped, not passed through: the pages allow no inline markup.
    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    text: str = renderer.render(_rule_text(name))

    # The page has its own h1 and h2: a rule page's headings go two levels down, each with an id
    # (rules-PAGE-HEADING) that a link may point at, such as a game page's "combat table".
    def heading(match: re.Match[str]) -> str:
        level, inner = int(match.group(1)), match.group(2)
        slug = re.sub(r"[^a-z0-9]+", "-", html.unescape(re.sub(r"<[^>]+>", "", inner)).lower()).strip("-")
        return f"<h{level + 2} id='rules-{name}-{slug}'>{inner}</h{level + 2}>"

    return re.sub(r"<h([1-4])>(.*?)</h\1>", heading, text)


@router.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
async def game_page(request: Request, game_id: GameId) -> str:
    service: GameService = request.app.state.service
    view = await run_in_threadpool(service.public_view, game_id)  # 404 for an unknown game
    return _page("game", game_id=game_id, title=str(view["title"]), variant=str(view["variant"]))


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
    headers = {"Cache-Control": "no-store", "Vary": "Accept-Encoding"}
    if takes_gzip(request.headers.get("accept-encoding", "")):
        # Maps drawn from real coastlines are long and repetitive: a fifth of the bytes travel.
        body = await run_in_threadpool(gzip.compress, svg.encode(), GZIP_LEVEL)
        return Response(body, media_type="image/svg+xml", headers={**headers, "Content-Encoding": "gzip"})
    return Response(svg, media_type="image/svg+xml", headers=headers)


def takes_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (``gzip`` or ``*``, at a weight above 0)."""
    for part in accept_encoding.split(","):
        coding, _, params = part.partition(";")
        if coding.strip().lower() not in ("gzip", "*"):
            continue
        weight = params.strip()
        try:
            return not weight.startswith("q=") or float(weight[2:]) > 0
        except ValueError:
            return False
    return False


def _map_svg(service: GameService, game_id: str, phase: int | None, token: str | None) -> str:
    if phase is None:
        view = service.seat_view(game_id, token) if token else service.public_view(game_id)
        seat = view.get("seat")
        orders = {seat["seat"]: seat["orders"]} if seat else {}
        title = (view.get("position") or {}).get("phase_title") or view["phase"]  # as players say it
        return draw(view["family"], view["variant"], view["position"], orders, [], title)
    game = service.public_view(game_id)
    record = service.played_phase(game_id, phase)
    named = (record.get("position") or {}).get("phase_title") or record["phase"]
    title = f"{named}: orders and results"
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
