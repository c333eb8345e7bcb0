"""A quick lane for the routes every seat calls all game long: its view, its legal-order tree, its
orders and its Ready.

FastAPI answers a request by matching it against the routes in turn, then solving the route's
dependencies (the path's game id, the bearer token, the JSON body) through its general machinery.
For these routes that costs more server CPU than the answer (``docs/server.md``, "What a request
costs"). The lane is a route placed first in the router. It takes a request only when it is plain:
the route's path and method, a well-formed ``Authorization: Bearer`` token (read as FastAPI reads
it: ``http.bearer``), and for a write a JSON body that the route's model accepts. It then calls the
route's own endpoint with those arguments, as FastAPI would. Anything else (no token, a malformed
one, a body the model refuses, another content type) is handed to the FastAPI route itself, so every
error is FastAPI's answer, word for word. The endpoints, their OpenAPI description and their errors
stay the FastAPI routes'; the lane only finds their arguments.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from fastapi.middleware.asyncexitstack import AsyncExitStackMiddleware
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Match
from starlette.types import Message, Receive, Scope, Send

from .http import GAME_ID, TOKEN, bearer, request_header

_JSON = (b"application/json", b"application/json; charset=utf-8")


class Lane(BaseRoute):
    """The quick lane for *routes*: FastAPI routes at ``/api/games/{game_id}/<name>``, each with
    the body model it takes (or ``None``). Each endpoint is called as
    ``endpoint(game_id=..., token=...[, body=...])``."""

    def __init__(self, routes: Iterable[tuple[APIRoute, type[BaseModel] | None]]) -> None:
        self._routes: dict[tuple[str, str], tuple[APIRoute, type[BaseModel] | None]] = {}
        for route, body in routes:
            prefix, _, name = route.path.rpartition("/")
            wanted = {"game_id", "token"} | ({"body"} if body else set())
            methods = route.methods or set()
            if (
                prefix != "/api/games/{game_id}"
                or len(methods) != 1
                or set(inspect.signature(route.endpoint).parameters) != wanted
            ):
                raise ValueError(
                    f"the lane takes endpoint({', '.join(sorted(wanted))}) at one method of "
                    f"/api/games/{{game_id}}/<name>, not {route.path}"
                )
            (method,) = methods
            self._routes[(method, name)] = (route, body)
        names = "|".join(re.escape(name) for _, name in self._routes)
        self._path = re.compile(rf"/api/games/({GAME_ID})/({names})")
        self._by_class: dict[type[BaseException], ErrorHandler] = {}
        self._by_status: dict[int, ErrorHandler] = {}

    def answer_errors_with(self, handlers: Mapping[Any, ErrorHandler]) -> None:
        """The app's exception handlers (keyed by exception class or status), which answer what an
        endpoint raises (the service's 404, say) as Starlette's ``ExceptionMiddleware`` would. The
        lane looks them up only when an endpoint raises, where that middleware wraps every request:
        about 18,000 instructions of a seat's view (``docs/server.md``)."""
        self._by_class = {key: h for key, h in handlers.items() if not isinstance(key, int)}
        self._by_status = {key: h for key, h in handlers.items() if isinstance(key, int)}

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] == "http" and not scope.get("root_path"):
            found = self._path.fullmatch(scope["path"])
            if found:
                entry = self._routes.get((scope["method"], found.group(2)))
                if entry is not None:
                    route = entry[0]
                    return Match.FULL, {
                        "endpoint": route.endpoint,
                        "route": route,
                        "path_params": {"game_id": found.group(1)},
                    }
        return Match.NONE, {}

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            response = await self._answer(scope, receive, send)
        except Exception as exc:
            response = await self._error_answer(exc, scope, receive, send)
        if response is not None:
            await response(scope, receive, send)

    async def _answer(self, scope: Scope, receive: Receive, send: Send) -> Response | None:
        """The endpoint's answer; ``None`` if the request was handed to its FastAPI route (which
        answered it)."""
        route, model = self._routes[(scope["method"], scope["path"].rpartition("/")[2])]
        token = _token(scope)
        if token is None:
            await self._to_fastapi(route, scope, receive, send)
            return None
        arguments: dict[str, Any] = {"game_id": scope["path_params"]["game_id"], "token": token}
        if model is not None:
            if (request_header(scope, b"content-type") or b"").lower() not in _JSON:
                await self._to_fastapi(route, scope, receive, send)
                return None
            raw = await _body(receive)
            try:
                # Parsed and checked in one pass by pydantic-core (json.loads, then validating the
                # objects it made, cost more); what it refuses goes to FastAPI, as below.
                arguments["body"] = model.model_validate_json(raw)
            except (ValueError, ValidationError):  # FastAPI says what is wrong, as on any route
                await self._to_fastapi(route, scope, _replay(raw, receive), send)
                return None
        endpoint: Callable[..., Awaitable[Any]] = route.endpoint
        response = await endpoint(**arguments)
        if not isinstance(response, Response):
            raise TypeError(f"the lane's endpoints answer with a Response, not {type(response).__name__}")
        return response

    async def _error_answer(self, exc: Exception, scope: Scope, receive: Receive, send: Send) -> Response:
        """The app's handler's answer to ``exc``, looked up as Starlette looks it up (an HTTP
        error's status first, then the exception's classes, nearest first); ``exc`` raised again
        if no handler takes it."""
        handler = self._by_status.get(exc.status_code) if isinstance(exc, HTTPException) else None
        if handler is None:
            handler = next((self._by_class[c] for c in type(exc).__mro__ if c in self._by_class), None)
        if handler is None:
            raise exc
        answer = handler(Request(scope, receive, send), exc)
        response = await answer if inspect.isawaitable(answer) else answer
        exc.__traceback__ = None  # as Starlette does: a reused exception would gather tracebacks
        if not isinstance(response, Response):
            raise TypeError(f"an exception handler answered with {type(response).__name__}, not a Response")
        return response

    async def _to_fastapi(self, route: APIRoute, scope: Scope, receive: Receive, send: Send) -> None:
        """Hand the request to its FastAPI route. The route reads from the scope the exception
        handlers and its dependencies' exit stack, which FastAPI's own stack puts there and the
        app's quick lane (``api.InterboardAPI``) does not."""
        scope.setdefault(_HANDLERS, (self._by_class, self._by_status))
        if _EXIT_STACK in scope:
            await route.handle(scope, receive, send)
        else:
            await AsyncExitStackMiddleware(route.handle, _EXIT_STACK)(scope, receive, send)


ErrorHandler = Callable[[Request, Any], Any]
"""An exception handler of the app's: its answer (a Response, or an awaitable of one)."""
_EXIT_STACK = "fastapi_middleware_astack"
"""Where FastAPI's ``AsyncExitStackMiddleware`` puts the stack by default."""
_HANDLERS = "starlette.exception_handlers"
"""Where Starlette's ``ExceptionMiddleware`` puts the app's exception handlers for the routes."""


def _token(scope: Scope) -> str | None:
    """The bearer token, when the request carries one well-formed (what FastAPI's ``Token`` gives)."""
    token = bearer(scope)
    return token if token is not None and TOKEN.fullmatch(token) else None


async def _body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()  # as Starlette's reading says it
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(raw: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then what *receive* gives."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": raw, "more_body": False}
        return await receive()

    return replay
