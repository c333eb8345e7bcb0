"""What every route shares: the one error body and the statuses it comes with, the bearer token,
the body limit, the wait for a body, and the pages' security headers."""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi import Path as FastAPIPath
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import Unauthorized

log = logging.getLogger(__name__)

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
BODY_IN = "interboard.body_in"
"""Set (``True``) in a request's scope when its whole body was read, within the limit, before the
app was called (:func:`body_arrival`): :class:`LimitBody` has nothing left to count."""


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
    408: "the request body stopped arriving, or came too slowly (the connection is closed)",
    409: "not in the game's present state (finished, paused, a phase already processed, ...)",
    413: f"the request body is larger than {MAX_BODY} bytes",
    422: "a malformed request, or one the game's rules refuse; details say where",
    503: "the database does not answer, or the server is shedding load: it cannot take requests now",
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
        if scope["type"] != "http" or BODY_IN in scope:  # a body read already (body_arrival) is in the limit
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


@dataclass(frozen=True)
class BodyTimeout:
    """How a request's body must arrive (:func:`body_arrival`): never ``seconds`` without a byte,
    and all of it within ``seconds`` and one second more for each ``min_rate`` bytes received
    (Apache's ``RequestReadTimeout body=10,MinRate=500``; ``min_rate`` ``None``: no such floor).
    A 37-byte write has about 10 s; the largest body (:data:`MAX_BODY`) 141 s."""

    seconds: float = 10.0
    min_rate: float | None = 500.0


def unread_body(scope: Scope) -> bool:
    """Whether the request says a body follows (a ``Content-Length`` above 0, or a chunked one) and
    none of it has been read: an answer to it closes the connection (``Connection: close``), else
    the server would read the body, whatever its size, to find the connection's next request."""
    if BODY_IN in scope:
        return False
    length = request_header(scope, b"content-length")
    if length is not None:
        return length != b"0"
    return request_header(scope, b"transfer-encoding") is not None


def awaits_body(scope: Scope, limit: int = MAX_BODY) -> bool:
    """Whether the request says a body follows that the server would read: a ``Content-Length``
    from 1 to ``limit``, or a chunked one, on a method that may carry one. (A length over the
    limit, or not a number, is refused by :class:`LimitBody` at once, unread; a read's body is
    never read, the read answered without it and its connection closed.)"""
    if scope["method"] in _BODILESS:
        return False
    length = request_header(scope, b"content-length")
    if length is not None:
        return length.isdigit() and 0 < int(length) <= limit
    return request_header(scope, b"transfer-encoding") is not None


SWEEP_S = 0.25
"""How often a :class:`BodyWatch` looks for bodies past their time, while any are arriving: a body
is cut at most this late."""


class BodyWatch:
    """The requests of one app whose bodies are arriving (:func:`body_arrival`), each with the time
    by which its next bytes must have come (:class:`BodyTimeout`). While any wait, a sweep every
    :data:`SWEEP_S` cancels the wait of those past their time, which are then answered 408.

    A dictionary entry for each request, not a timer each (a body has nearly always come with its
    headers, and the timer would only be set and cancelled): reading a 37-byte body so took about
    4 µs under uvloop, as the server runs, against 8 to 10 with ``asyncio.timeout`` around the read
    (a loop of such reads; ``bench/bench_instructions.py``, on asyncio's own loop, tells neither
    from the noise, within 1 % of a seat's write). The event loop's own, as the requests'."""

    def __init__(self, timeout: BodyTimeout, every: float = SWEEP_S) -> None:
        self.timeout = timeout
        self.every = every
        self.waiting: dict[asyncio.Task[Any], float] = {}
        """Each request's task, and when (the loop's time) its wait ends."""
        self.cut: set[asyncio.Task[Any]] = set()
        """The tasks whose wait a sweep cancelled, until each has answered 408."""
        self._sweeping: asyncio.AbstractEventLoop | None = None
        """The event loop a sweep is due on (``None``: none is due)."""

    def watch(self, task: asyncio.Task[Any], until: float) -> None:
        """``task``'s body must have come, or more of it, by ``until``."""
        self.waiting[task] = until
        sweeping = self._sweeping
        if sweeping is None or sweeping.is_closed():
            loop = self._sweeping = asyncio.get_running_loop()
            loop.call_later(self.every, self._sweep)

    def _sweep(self) -> None:
        loop = self._sweeping
        assert loop is not None
        now = loop.time()
        # (A task of another loop is one a closed loop left behind: a test's, which ran its app on
        # one loop and then another.)
        late = [task for task, until in self.waiting.items() if until <= now or task.get_loop() is not loop]
        for task in late:
            del self.waiting[task]
            if task.get_loop() is loop:
                self.cut.add(task)
                task.cancel()
        if self.waiting:
            loop.call_later(self.every, self._sweep)
        else:
            self._sweeping = None


async def body_arrival(
    scope: Scope, receive: Receive, send: Send, watch: BodyWatch | None, limit: int = MAX_BODY
) -> Receive | None:
    """Read the request's body as it arrives, before anything is done with the request: the
    ``receive`` the app is to read it from (the body read, then ``receive``'s own messages). A body
    read to its end within ``limit`` marks the request :data:`BODY_IN`; one that goes over is given
    as far as read, the rest left to the app's reading (:class:`LimitBody` refuses it).

    ``None``: there is nothing more to do. Either the body stopped arriving, or came too slowly
    (``watch``'s timeout; ``None``: it may take its time): answered 408 and the connection closed,
    logged as the client's doing, at ``INFO``. Or the client closed the connection: the request is
    marked :data:`CLIENT_GONE`, with no one left to answer."""
    chunks: list[bytes] = []
    received = 0
    more = True
    if watch is None:
        while more and received <= limit:
            message = await receive()
            if message["type"] != "http.request":
                scope[CLIENT_GONE] = True  # gone mid-body: nothing to answer
                return None
            chunk = message.get("body", b"")
            chunks.append(chunk)
            received += len(chunk)
            more = message.get("more_body", False)
        return _replaying(scope, chunks, more, received <= limit, receive)
    timeout, loop, task = watch.timeout, asyncio.get_running_loop(), asyncio.current_task()
    assert task is not None
    started = last = loop.time()
    stopped = True  # which bound is the nearer: the wait for the next byte, or the floor on the rate
    watch.watch(task, started + timeout.seconds)
    try:
        while more and received <= limit:
            message = await receive()
            if message["type"] != "http.request":
                scope[CLIENT_GONE] = True  # gone mid-body: nothing to answer
                return None
            chunk = message.get("body", b"")
            more = message.get("more_body", False)
            if chunk:
                chunks.append(chunk)
                received += len(chunk)
            if more:
                if chunk:
                    last = loop.time()
                until, stopped = last + timeout.seconds, True
                if timeout.min_rate is not None:
                    paced = started + timeout.seconds + received / timeout.min_rate
                    if paced < until:
                        until, stopped = paced, False
                watch.waiting[task] = until
    except asyncio.CancelledError:
        if task not in watch.cut:
            raise
        watch.cut.discard(task)
        task.uncancel()
        length = request_header(scope, b"content-length")
        came = (
            f"{received} of {length.decode('latin-1')} bytes" if length is not None else f"{received} bytes"
        )
        if stopped:
            error = f"the request body stopped arriving: {came} came, then nothing for {timeout.seconds:g} s"
        else:
            error = (
                f"the request body came too slowly: {came} in {loop.time() - started:.0f} s (a body has "
                f"{timeout.seconds:g} s, and a second more for each {timeout.min_rate:g} bytes)"
            )
        log.info("%s %s cut: %s", scope["method"], scope["path"], error)
        response = JSONResponse({"error": error}, status_code=408, headers={"Connection": "close"})
        await response(scope, receive, send)
        return None
    finally:
        watch.waiting.pop(task, None)
    return _replaying(scope, chunks, more, received <= limit, receive)


def _replaying(scope: Scope, chunks: list[bytes], more: bool, within: bool, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read so far, as one message, then ``receive``'s; the
    request marked :data:`BODY_IN` if that is the whole body, ``within`` the limit."""
    if not more and within:
        scope[BODY_IN] = True
    given: Message | None = {
        "type": "http.request",
        "body": chunks[0] if len(chunks) == 1 else b"".join(chunks),
        "more_body": more,
    }

    async def replayed() -> Message:
        nonlocal given
        message, given = given, None
        return message if message is not None else await receive()

    return replayed


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
