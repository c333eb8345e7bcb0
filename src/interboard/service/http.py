"""What every route shares: the one error body and the statuses it comes with, the bearer token,
the body limit and the pages' security headers."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi import Path as FastAPIPath
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .games import Unauthorized

MAX_BODY = 64 * 1024
"""The largest request body, in bytes, counted as it arrives (a chunked upload has no length)."""
CLIENT_CLOSED = 499
"""The status a request is logged and counted with when its client closed the connection before
the answer (nginx's "client closed request"): nothing was answered, and it is no fault of the
server's."""
CLIENT_GONE = "interboard.client_gone"
"""Set (``True``) in a request's scope when its client closed the connection before the answer
started: whatever the app then answered, no one read it (:class:`LimitBody` sees it, reading the
body; ``observe.Observe`` counts the request as :data:`CLIENT_CLOSED`)."""


class ErrorBody(BaseModel):
    """Every refusal, whatever refused it (the service, the schema, the framework)."""

    error: str = Field(description="what was wrong, for a person to read")
    details: list[dict[str, Any]] | None = Field(
        None, description="a malformed request: where and what; refused orders: each order's verdict"
    )


ERRORS = {
    400: "the body is not JSON text in UTF-8",
    401: "no token, or not a bearer token (answered with WWW-Authenticate: Bearer)",
    403: "the token holds no right to this (another game's token, a seat's where the GM's is needed)",
    404: "no such game (or seat, or played phase)",
    409: "not in the game's present state (finished, paused, a phase already processed, ...)",
    413: f"the request body is larger than {MAX_BODY} bytes",
    422: "a malformed request, or one the game's rules refuse; details say where",
    503: "the database does not answer: the server cannot take requests now",
}
BODY_ERRORS = (400, 413, 422)
"""What any request with a JSON body may be answered with."""


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` for these error statuses, all with the one error body."""
    return {status: {"model": ErrorBody, "description": ERRORS[status]} for status in sorted(statuses)}


GAME_ID = r"[A-Za-z0-9_-]{1,64}"
"""A game's id as a path may carry it (ours are URL-safe base64)."""
GameId = Annotated[str, FastAPIPath(pattern=f"^{GAME_ID}$", description="a game's id")]

# A token as RFC 6750 writes it (b64token); ours are URL-safe base64, 43 characters.
TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]{1,200}=*")


def request_header(scope: Scope, name: bytes) -> bytes | None:
    """The value of the request's first header called ``name`` (lowercase), or ``None``. ASGI
    servers give header names in lowercase, as Starlette's ``Headers`` also takes them; this reads
    one header without making a ``Headers`` first, on the routes every request takes."""
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


def bearer(scope: Scope) -> str | None:
    """The ``Authorization: Bearer`` credentials as FastAPI's ``HTTPBearer`` reads them (the first
    such header, the scheme in any case, the rest stripped), not yet checked to be a token."""
    given = request_header(scope, b"authorization")
    scheme, _, token = (given or b"").decode("latin-1").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="the game master's or a seat's token; on the account's routes, a session's",
)
SESSION_COOKIE = "interboard_session"
"""The cookie that carries a signed-in session's token to the pages (HttpOnly, SameSite=Lax)."""
_session_cookie = APIKeyCookie(
    name=SESSION_COOKIE,
    auto_error=False,
    scheme_name="session",
    description="a signed-in session's token, as the pages send it (set by signing up or in)",
)


# The dependencies are coroutines, though they wait on nothing: FastAPI would run a plain function
# in a worker thread, which costs more than the check.
def _well_formed(credentials: HTTPAuthorizationCredentials | None, request: Request) -> str | None:
    if credentials is None:
        if "authorization" in request.headers:
            raise Unauthorized("Authorization must be 'Bearer <token>'")
        return None
    if not TOKEN.fullmatch(credentials.credentials):
        raise Unauthorized("that is not a token (Authorization: Bearer <token>)")
    return credentials.credentials


class _BearerToken(HTTPBearer):
    """The bearer token as one dependency (FastAPI's dependency solving costs more per level than
    the check): the scheme is declared in the OpenAPI document as ``_bearer``'s."""

    def __init__(self, required: bool) -> None:
        super().__init__(
            auto_error=False, scheme_name=_bearer.scheme_name, description=_bearer.model.description
        )
        self.required = required

    async def __call__(self, request: Request) -> str | None:  # type: ignore[override]
        token = _well_formed(await super().__call__(request), request)
        if token is None and self.required:
            raise Unauthorized("this needs a token (Authorization: Bearer <token>)")
        return token


_required = _BearerToken(required=True)
_optional = _BearerToken(required=False)


async def _session(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    cookie: Annotated[str | None, Depends(_session_cookie)],
) -> str | None:
    # A bearer token, when sent, is the one meant (a script's); else the pages' cookie.
    token = _well_formed(credentials, request)
    if token is not None:
        return token
    return cookie if cookie and TOKEN.fullmatch(cookie) else None


SessionToken = Annotated[str | None, Depends(_session)]
"""A session's token, from ``Authorization: Bearer`` or the session cookie, if either is sent;
whether it is a live session is the account service's to say."""

Token = Annotated[str, Depends(_required)]
"""A route's required bearer token: none or a malformed one is 401; whether it holds the right
to the request (403) is the service's to say."""
OptionalToken = Annotated[str | None, Depends(_optional)]
OPTIONAL_AUTH: dict[str, Any] = {"security": [{}]}
"""``openapi_extra`` of a route that anyone may call, with more for a seat's token: FastAPI adds
this to the route's ``[{"bearer": []}]``, which makes the token optional."""


class BodyTooLarge(HTTPException):
    def __init__(self) -> None:
        # Connection: close, since the rest of the body is never read.
        super().__init__(413, ERRORS[413], headers={"Connection": "close"})


_BODILESS = frozenset({"GET", "HEAD", "OPTIONS"})
"""The methods of the routes that never read a body."""


class LimitBody:
    """Refuse a request body over ``limit`` bytes: at once by its Content-Length, else (a chunked
    upload) on the chunk that goes over, without reading the rest.

    A body the app answers without reading to its end (a route that takes none, such as
    ``GET /api/games`` or ``POST .../leave``) closes the connection after the answer
    (``Connection: close``): uvicorn would otherwise read the rest, whatever its size, to find the
    connection's next request."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given_length = request_header(scope, b"content-length")
        length = given_length.decode("latin-1") if given_length is not None else None
        chunked = request_header(scope, b"transfer-encoding") is not None
        if length is None and not chunked and scope["method"] in _BODILESS:
            # A read without either header has no body (RFC 9112, 6.3), and no read route asks for
            # one: nothing to count, so no counting wrappers around the request.
            await self.app(scope, receive, send)
            return
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _too_large(scope, receive, send)
            return
        received = 0
        started = False
        # Whether the body has been read to its end (or there is none to read).
        ended = not chunked and (length is None or int(length) == 0)

        async def counted() -> Message:
            nonlocal received, ended
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    # FastAPI passes an HTTPException raised while reading on to the error handler.
                    raise BodyTooLarge()
                ended = ended or not message.get("more_body", False)
            elif message["type"] == "http.disconnect" and not started:
                scope[CLIENT_GONE] = True  # mid-body, most likely: whatever is answered, no one reads it
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start" and not started:
                started = True
                if not ended:
                    message = _closing(message)
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if started:  # the app answered already; nothing more can be said
                raise
            await _too_large(scope, receive, send)


def _closing(start: Message) -> Message:
    """An answer's start that closes the connection after the answer (``Connection: close``)."""
    headers = list(start.get("headers", ()))
    if any(name.lower() == b"connection" and b"close" in value.lower() for name, value in headers):
        return start
    return {**start, "headers": [*headers, (b"connection", b"close")]}


async def _too_large(scope: Scope, receive: Receive, send: Send) -> None:
    response = JSONResponse({"error": ERRORS[413]}, status_code=413, headers=BodyTooLarge().headers)
    await response(scope, receive, send)


PAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    # The maps are SVG put into the page, whose shapes carry style attributes: those, not <style>.
    "style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
DOCS_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""/docs: Swagger UI styles its elements inline."""
SECURITY_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


RawHeaders = list[tuple[bytes, bytes]]
"""An answer's headers as the server sends them: (name, value) pairs."""
ALWAYS_SENT: tuple[tuple[bytes, bytes], ...] = tuple(
    (name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items()
)
PAGE_CSP_SENT, DOCS_CSP_SENT = PAGE_CSP.encode(), DOCS_CSP.encode()


def add_security_headers(path: str, headers: RawHeaders) -> None:
    """Add nosniff, DENY framing and no referrer to an answer's headers where missing; to an HTML
    page's also a CSP that lets it run only its own scripts and styles. Added by the outermost
    middleware (``observe.Observe``) as it adds the request id, rather than by a middleware of its
    own: a layer a request passes through, and its rewrite of every answer, cost more than the
    headers (``docs/server.md``, "What a request costs")."""
    present = set()
    html = False
    for name, value in headers:
        lowered = name.lower()
        present.add(lowered)
        html = html or (lowered == b"content-type" and value[:9].lower() == b"text/html")
    headers.extend(header for header in ALWAYS_SENT if header[0] not in present)
    if html and b"content-security-policy" not in present:
        policy = DOCS_CSP_SENT if path.startswith("/docs") else PAGE_CSP_SENT
        headers.append((b"content-security-policy", policy))
