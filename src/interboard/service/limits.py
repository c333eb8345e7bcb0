"""Rate limits: token buckets in memory, per client address, per token, per seat's press.

A bucket holds up to ``burst`` requests and refills at ``rate`` a second; a request takes one, and
one that finds less than one is answered 429 with ``Retry-After`` (whole seconds until it would
pass). The buckets live in the process: with several server processes each has its own, so a
client may get up to that many times the limits (behind a load balancer that spreads its requests).

- every request, per client address (``address``) and per bearer token (``token``);
- writes (any method but GET, HEAD and OPTIONS) also the stricter ``writes``, per address and token;
- games created per address per hour, and all-bot games (every seat a bot, a game that plays
  itself and costs the server most) per address per hour: counted when created, so a refused
  attempt costs nothing;
- press messages per seat per minute;
- accounts signed up per address per hour, and sign-in attempts per address per minute (a password
  is hashed for each: the limits keep guessing slow and the hashing's cost bounded);
- load shedding (:class:`Shed`): requests under way at once per address (their bodies arriving,
  or served), requests served at once by the process (counted once their body is in), and event
  streams open at once, per address and in all.

The probes and metrics (``/healthz``, ``/readyz``, ``/metrics``) are never limited. The client
address is the connection's, or the one a trusted proxy forwards (uvicorn's ``--forwarded-allow-ips``,
127.0.0.1 by default).
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import ServiceError
from .http import BodyTimeout, BodyWatch, awaits_body, bearer, body_arrival, unread_body

UNLIMITED_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
READS = frozenset({"GET", "HEAD", "OPTIONS"})
SWEEP_EVERY = 1000
"""Takes between two sweeps of the buckets that have refilled (and so need not be kept)."""


@dataclass(frozen=True)
class Rate:
    """``rate`` requests a second on average, ``burst`` at once."""

    rate: float
    burst: float

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``RATE`` (burst the same), ``RATE:BURST`` (per second), or ``off`` (no limit)."""
        if text.strip().lower() in ("off", "none", "0"):
            return None
        rate, _, burst = text.partition(":")
        try:
            value = cls(float(rate), float(burst or rate))
        except ValueError:
            raise ValueError(f"a rate is RATE or RATE:BURST per second, or off: not {text!r}") from None
        if not (value.rate > 0 and value.burst >= 1 and math.isfinite(value.rate + value.burst)):
            raise ValueError(f"a rate above 0 and a burst of at least 1: not {text!r}")
        return value

    @classmethod
    def per_hour(cls, count: int | None) -> Rate | None:
        return cls(count / 3600, count) if count else None

    @classmethod
    def per_minute(cls, count: int | None) -> Rate | None:
        return cls(count / 60, count) if count else None


@dataclass(frozen=True)
class RateLimits:
    """The limits of one server process; ``None`` for a limit: none. The defaults are for a public
    server; :meth:`off` is for tests and benchmarks, which say so."""

    address: Rate | None = Rate(20, 60)
    """Every request, per client address."""
    token: Rate | None = Rate(10, 30)
    """Every request, per bearer token (a seat's or the game master's)."""
    writes: Rate | None = Rate(5, 20)
    """Writes, per address and per token, on top of the above."""
    games_per_hour: int | None = 20
    """Games created per address per hour."""
    bot_games_per_hour: int | None = 3
    """All-bot games created per address per hour."""
    press_per_minute: int | None = 20
    """Press messages per seat per minute."""
    signups_per_hour: int | None = 10
    """Accounts signed up per address per hour."""
    sign_ins_per_minute: int | None = 10
    """Sign-in attempts per address per minute."""
    in_flight: int | None = 64
    """Requests this process serves at once (event streams apart), each counted once its body is
    in; one more is refused at once with 503, so that under overload the answers stay quick rather
    than queue without bound."""
    connections_per_address: int | None = 16
    """Requests under way at once per client address (event streams apart), counted from their
    arrival, their bodies' wait included: over HTTP/1.1, the connections an address has busy. One
    more is refused at once with 429 (and its connection closed)."""
    streams_per_address: int | None = 4
    """Event streams open at once per client address (429 past it)."""
    streams: int | None = 256
    """Event streams open at once in this process (503 past it)."""

    @classmethod
    def off(cls) -> RateLimits:
        return cls(**{f.name: None for f in fields(cls)})

    def but(self, **changes: object) -> RateLimits:
        return replace(self, **changes)  # type: ignore[arg-type]


class Refused(ServiceError):
    """A limit reached: answered with ``status`` and ``Retry-After``, ``details`` naming the limit."""

    status = 429

    def __init__(self, message: str, what: str, retry_after: int) -> None:
        super().__init__(f"{message}: try again in {retry_after} s")
        self.retry_after = retry_after
        self.details = [{"limit": what, "retry_after": retry_after}]


class TooManyRequests(Refused):
    """Over a rate limit: 429."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(f"too many {what}", what, retry_after)


Check = tuple[str, str, Rate]
"""(what it limits, whose, the rate): a bucket's key is the first two."""


class Limiter:
    """The buckets, with the time read from ``clock`` (seconds, monotonic; a test's may be set)."""

    def __init__(self, limits: RateLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._named: tuple[RateLimits, dict[str, Rate]] | None = None
        self.clock = clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}
        """(what, whose) -> (tokens, when last counted)."""
        self._lock = threading.Lock()
        self._takes = 0

    def _level(self, key: tuple[str, str], rate: Rate, now: float) -> float:
        tokens, then = self._buckets.get(key, (rate.burst, now))
        return min(rate.burst, tokens + (now - then) * rate.rate)

    def wait(self, checks: list[Check]) -> tuple[str, int] | None:
        """The longest wait among the buckets with less than one token, and what it limits; none
        taken. ``None``: every bucket has one."""
        now = self.clock()
        worst: tuple[str, int] | None = None
        with self._lock:
            for what, whose, rate in checks:
                level = self._level((what, whose), rate, now)
                if level < 1:
                    seconds = max(1, math.ceil((1 - level) / rate.rate))
                    if worst is None or seconds > worst[1]:
                        worst = (what, seconds)
        return worst

    def charge(self, checks: list[Check]) -> None:
        """Take one from each bucket (which may so go below zero: a request already let through)."""
        now = self.clock()
        with self._lock:
            for what, whose, rate in checks:
                key = (what, whose)
                self._buckets[key] = (self._level(key, rate, now) - 1, now)
            self._takes += 1
            if self._takes % SWEEP_EVERY == 0:
                self._sweep(now)

    def take(self, checks: list[Check]) -> tuple[str, int] | None:
        """:meth:`wait`, then, if nothing has to wait, :meth:`charge`."""
        refused = self.wait(checks)
        if refused is None:
            self.charge(checks)
        return refused

    def _sweep(self, now: float) -> None:
        """Forget the buckets that have refilled: a new one is full, the same."""
        rates = self._rates()
        for key, (tokens, then) in list(self._buckets.items()):
            rate = rates.get(key[0])
            if rate is None or tokens + (now - then) * rate.rate >= rate.burst:
                del self._buckets[key]

    def _rates(self) -> dict[str, Rate]:
        """The limits by name, made once for the (frozen) limits set (every request asks)."""
        limits = self.limits
        kept = self._named
        if kept is not None and kept[0] is limits:
            return kept[1]
        named = {
            "requests per address": limits.address,
            "requests per token": limits.token,
            "writes per address": limits.writes,
            "writes per token": limits.writes,
            "games per address": Rate.per_hour(limits.games_per_hour),
            "all-bot games per address": Rate.per_hour(limits.bot_games_per_hour),
            "press messages per seat": Rate.per_minute(limits.press_per_minute),
            "accounts per address": Rate.per_hour(limits.signups_per_hour),
            "sign-ins per address": Rate.per_minute(limits.sign_ins_per_minute),
        }
        rates = {what: rate for what, rate in named.items() if rate is not None}
        self._named = (limits, rates)
        return rates

    # ------------------------------------------------------------------ what the API asks
    def limits_requests(self) -> bool:
        """Whether any limit applies to every request (by address, by token, on writes)."""
        limits = self.limits
        return limits.address is not None or limits.token is not None or limits.writes is not None

    def request_checks(self, address: str, token: str | None, write: bool) -> list[Check]:
        rates = self._rates()
        if not rates:
            return []
        whose = [("address", address)] + ([("token", _digest(token))] if token else [])
        checks = []
        for kind, key in whose:
            limited = [f"requests per {kind}", f"writes per {kind}"] if write else [f"requests per {kind}"]
            for what in limited:
                if what in rates:
                    checks.append((what, key, rates[what]))
        return checks

    def game_checks(self, address: str, all_bots: bool) -> list[Check]:
        rates = self._rates()
        names = ["games per address"] + (["all-bot games per address"] if all_bots else [])
        return [(what, address, rates[what]) for what in names if what in rates]

    def account_checks(self, address: str, what: str) -> list[Check]:
        """``what``: "accounts per address" (sign up) or "sign-ins per address"."""
        rate = self._rates().get(what)
        return [] if rate is None else [(what, address, rate)]

    def press_checks(self, game_id: str, token: str) -> list[Check]:
        rate = self._rates().get("press messages per seat")
        return [] if rate is None else [("press messages per seat", f"{game_id} {_digest(token)}", rate)]

    def refuse(self, checks: list[Check]) -> None:
        """:class:`TooManyRequests` if a bucket is empty; nothing is taken (:meth:`charge` after)."""
        refused = self.wait(checks)
        if refused is not None:
            raise TooManyRequests(*refused)


def _digest(token: str) -> str:
    """A token's bucket is keyed by its digest: the process keeps no token it was sent."""
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class RateLimit:
    """Every request but the probes' takes one from its address's bucket and its token's (and, a
    write, from the stricter write buckets); an empty bucket is a 429 with ``Retry-After``."""

    def __init__(self, app: ASGIApp, limiter: Limiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in UNLIMITED_PATHS or not self.limiter.limits_requests():
            await self.app(scope, receive, send)
            return
        checks = self.limiter.request_checks(
            client_address(scope), bearer(scope), scope["method"] not in READS
        )
        refused = self.limiter.take(checks) if checks else None
        if refused is None:
            await self.app(scope, receive, send)
            return
        await refusal(TooManyRequests(*refused), close=unread_body(scope))(scope, receive, send)


def refusal(exc: Refused, close: bool = False) -> JSONResponse:
    """The answer to a limit reached: the error body, its status and ``Retry-After``; ``close``:
    and ``Connection: close``, for a request whose body is left unread (:func:`~.http.unread_body`)."""
    headers = {"Retry-After": str(exc.retry_after)}
    if close:
        headers["Connection"] = "close"
    return JSONResponse(
        {"error": exc.message, "details": exc.details}, status_code=exc.status, headers=headers
    )


class Overloaded(Refused):
    """More requests at once than the process serves: 503."""

    status = 503

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(f"the server is busy ({what})", what, retry_after)


class Shedding(Refused):
    """``/readyz`` while the process sheds load: 503, saying what it sheds."""

    status = 503

    def __init__(self, what: str) -> None:
        super().__init__(f"the server is shedding load ({what})", what, 1)


STREAM_RETRY_S = 5
"""Retry-After for a refused event stream: a page falls back on its own polling meanwhile."""
SHEDDING_FOR_S = 5.0
"""How long after it last refused a request with 503 a process still says it is shedding load
(``/readyz``): a readiness probe comes every few seconds, and sees a process that sheds now and
then as one that sheds."""


class InFlight:
    """What a process has under way: requests served (:attr:`requests`), requests by address from
    their arrival (:attr:`requests_of`), and open event streams (in all, and by address); and what
    it last refused for being busy, and when. The event loop's own, so no lock is needed; shared by
    the :class:`Shed` layers of one app (its quick lane has one of its own: ``api.InterboardAPI``)
    and its ``/readyz``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.requests = 0
        self.requests_of: dict[str, int] = {}
        self.streams = 0
        self.streams_of: dict[str, int] = {}
        self.clock = clock
        self.shed: tuple[str, float] | None = None
        """What was last refused with 503 (the limit's name), and when (``clock``)."""

    def shedding(self, in_flight: int | None) -> str | None:
        """What the process is shedding: the limit it refused a request for within the last
        :data:`SHEDDING_FOR_S`, or ``requests at once`` while it serves ``in_flight`` requests, its
        cap (the next would be refused). ``None``: nothing."""
        if in_flight is not None and self.requests >= in_flight:
            return "requests at once"
        if self.shed is not None and self.clock() - self.shed[1] < SHEDDING_FOR_S:
            return self.shed[0]
        return None

    def refused(self, what: str) -> None:
        """A request was refused for ``what`` (a 503)."""
        self.shed = (what, self.clock())


class Shed:
    """Load shedding, at the door, before any work is done:

    - past ``connections_per_address`` requests under way from one address (from their arrival:
      a body still arriving counts), the next is refused at once with 429;
    - a request with a body waits for it (:func:`~.http.body_arrival`): one whose body stops
      arriving, or comes too slowly for ``body_timeout``, is answered 408;
    - then, past ``in_flight`` requests served at once, the next is refused with 503: a request
      holds a place only once its body is in, so clients that send a body slowly, or stop, hold
      none;
    - past the caps on open event streams, 429 for one address's, 503 in all.

    A refusal of a request whose body is left unread closes the connection. The counts are
    ``counts`` (by default its own)."""

    def __init__(
        self,
        app: ASGIApp,
        limits: RateLimits,
        counts: InFlight | None = None,
        body_timeout: BodyTimeout | None = None,
    ) -> None:
        self.app = app
        self.limits = limits
        self.counts = counts if counts is not None else InFlight()
        self.watch = BodyWatch(body_timeout) if body_timeout is not None else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in UNLIMITED_PATHS:
            await self.app(scope, receive, send)
            return
        if scope["path"].endswith("/events"):
            await self._stream(scope, receive, send)
            return
        per_address = self.limits.connections_per_address
        if per_address is None:
            await self._admit(scope, receive, send)
            return
        address, counts = client_address(scope), self.counts
        mine = counts.requests_of.get(address, 0)
        if mine >= per_address:
            refused = TooManyRequests("connections at once per address", 1)
            await refusal(refused, close=unread_body(scope))(scope, receive, send)
            return
        counts.requests_of[address] = mine + 1
        try:
            await self._admit(scope, receive, send)
        finally:
            left = counts.requests_of[address] - 1
            if left:
                counts.requests_of[address] = left
            else:
                del counts.requests_of[address]

    async def _admit(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The request once its body is in, if there is a place for it."""
        cap, counts = self.limits.in_flight, self.counts
        if (cap is not None or self.watch is not None) and awaits_body(scope):
            arrived = await body_arrival(scope, receive, send, self.watch)
            if arrived is None:  # answered (408), or its client left
                return
            receive = arrived
        if cap is not None and counts.requests >= cap:
            counts.refused("requests at once")
            await refusal(Overloaded("requests at once", 1), close=unread_body(scope))(scope, receive, send)
            return
        counts.requests += 1
        try:
            await self.app(scope, receive, send)
        finally:
            counts.requests -= 1

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        address, counts = client_address(scope), self.counts
        mine = counts.streams_of.get(address, 0)
        per_address, total = self.limits.streams_per_address, self.limits.streams
        close = unread_body(scope)
        if per_address is not None and mine >= per_address:
            refused = refusal(TooManyRequests("open event streams per address", STREAM_RETRY_S), close)
            await refused(scope, receive, send)
            return
        if total is not None and counts.streams >= total:
            counts.refused("open event streams")
            await refusal(Overloaded("open event streams", STREAM_RETRY_S), close)(scope, receive, send)
            return
        counts.streams += 1
        counts.streams_of[address] = mine + 1
        try:
            await self.app(scope, receive, send)
        finally:
            counts.streams -= 1
            left = counts.streams_of[address] - 1
            if left:
                counts.streams_of[address] = left
            else:
                del counts.streams_of[address]
