"""The HTTP API fuzzed against its own OpenAPI schema (schemathesis), in process over ASGI.

Every operation gets a bounded number of generated requests (the examples, coverage and fuzzing
phases, ``MAX_EXAMPLES`` in the last), all sent to one app over a SQLite file. Most of them aim at
real games (an active one with every seat taken, and a forming one) and carry one of that game's
tokens (a seat's or the game master's); with a seat's token an order request often names the game's
phase and orders for that seat's units. So the requests get past "no such game" and "who are you"
into the handlers, and change the games as they go (orders, ready, pause, draw votes...).

The checks: all of schemathesis's: never a 5xx; every answer's status, media type and body as
documented; 405 with ``Allow`` for a method the path lacks; schema-violating data refused and
schema-valid data accepted (but see ``RULES_REFUSED``); no answer without the token a route
declares. ``test_fuzz_stateful.py`` follows the links between operations.

The schema is read at import from a throwaway in-memory app, because schemathesis's pytest
integration needs it then (its fixture-based loader, ``schemathesis.pytest.from_fixture``, fails
under pytest 9.2: ``'Function' object has no attribute '_nodeid'``); the requests go to the app the
``target`` fixture makes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import content_type_conformance, positive_data_acceptance
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import ensure_resource_availability

from interboard.service.api import RateLimits, create_app
from interboard.service.games import NewGame

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
SPRING_1901 = {
    "AUSTRIA": ["A Vie - Gal", "F Tri - Alb", "A Bud - Ser"],
    "ENGLAND": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
    "FRANCE": ["A Par - Bur", "F Bre - Mao", "A Mar - Spa"],
    "GERMANY": ["A Mun - Ruh", "F Kie - Den", "A Ber - Kie"],
    "ITALY": ["A Ven - Pie", "F Nap - Ion", "A Rom - Apu"],
    "RUSSIA": ["A War - Gal", "F Sev - Bla", "A Mos - Ukr", "F Stp/sc - Bot"],
    "TURKEY": ["F Ank - Bla", "A Con - Bul", "A Smy - Arm"],
}
MAX_EXAMPLES = 30


class Forward:
    """An ASGI app that hands every request to ``app`` (the one the running test set up)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await self.app(scope, receive, send)


@dataclass
class Game:
    id: str
    tokens: list[str]
    """The game master's token, then the seats' tokens."""
    orders: dict[str, list[str]] = field(default_factory=dict)
    """Seat token -> orders for that seat's units in Spring 1901."""


@dataclass
class Target:
    """What the running test's app holds: games to aim at, with their tokens."""

    games: list[Game] = field(default_factory=list)


_schema_app = create_app("sqlite://", sweep=None, limits=RateLimits.off())
FORWARD = Forward(_schema_app)
TARGET = Target()

schema = schemathesis.openapi.from_dict(_schema_app.openapi())
schema.app = FORWARD
schema.location = "/openapi.json"
schema.config.max_stream_events = 1  # GET .../events streams for ever: keep its first event
schema.config.update(request_timeout=5)


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    """The app under test, over a SQLite file, with an active game and a forming one."""
    app = create_app(
        f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite'}", sweep=None, limits=RateLimits.off()
    )
    service = app.state.service
    active = service.create(NewGame(seats={p: p.title() for p in POWERS}, deadlines={"movement": 3600}))
    forming = service.create(NewGame(seats={"FRANCE": "France", "ITALY": "Italy"}))
    TARGET.games = [
        Game(
            active.game_id,
            [active.gm_token, *active.seat_tokens.values()],
            {token: SPRING_1901[seat] for seat, token in active.seat_tokens.items()},
        ),
        Game(forming.game_id, [forming.gm_token, *forming.seat_tokens.values()]),
    ]
    FORWARD.app = app
    try:
        yield TARGET
    finally:
        FORWARD.app = _schema_app
        TARGET.games = []
        service.engine.dispose()


@schema.hook
def flatmap_case(context: schemathesis.HookContext, case: schemathesis.Case[Any]) -> Any:
    """Mostly a real game and one of its tokens; with a seat's token, often its phase and orders."""
    takes_token = bool(case.operation.definition.raw.get("security"))

    def negative(location: ParameterLocation) -> bool:
        # A part schemathesis made invalid on purpose stays so: aiming it would make it valid.
        return case.meta is not None and case.meta.is_negative_at(location)

    def aim(choice: tuple[Game | None, str | None, bool]) -> schemathesis.Case[Any]:
        game, token, meaningful = choice
        if (
            game is not None
            and case.path_parameters
            and "game_id" in case.path_parameters
            and not negative(ParameterLocation.PATH)
        ):
            case.path_parameters["game_id"] = game.id
        if token is not None and takes_token and not negative(ParameterLocation.HEADER):
            case.headers["Authorization"] = f"Bearer {token}"  # case-insensitive: replaces any
        body = case.body
        if meaningful and isinstance(body, dict) and not negative(ParameterLocation.BODY):
            if "phase" in body:
                body["phase"] = "S1901M"
            orders = body.get("orders")
            if isinstance(orders, list) and game is not None and token in game.orders:
                body["orders"] = list(game.orders[token][: len(orders)])
            seat = body.get("seat")
            if isinstance(seat, str):
                body["seat"] = POWERS[len(seat) % len(POWERS)]
        return case

    def token_for(game: Game | None) -> st.SearchStrategy[str | None]:
        if game is None:
            return st.none()
        return st.one_of(st.sampled_from(game.tokens), st.none())

    game = st.one_of(st.sampled_from(TARGET.games), st.none()) if TARGET.games else st.none()
    return game.flatmap(lambda g: st.tuples(st.just(g), token_for(g), st.booleans())).map(aim)


EVENTS = "/api/games/{game_id}/events"
RULES_REFUSED = {"/api/games", "/api/games/{game_id}/orders", "/api/accounts", "/api/account/password"}
"""Where the game's rules may refuse a request the schema accepts: orders (their legality is the
position's) and a new game whose options and seats disagree (Global War's ``players`` below 6 with
a seat beyond them, or ``teams`` with fewer than 6 players); and where the accounts refuse a new
password that is one of the commonest (a list of hundreds, which the schema does not carry: the
coverage phase's ``00000000`` is one). Only there, and only with the service's own message, is a
422 for schema-valid data allowed."""


def no_such_seat(response: Any) -> bool:
    """A 404 for a seat the game lacks (a join, a message's recipient): the game itself is there,
    which schemathesis's check that a created resource is available cannot tell apart."""
    return response.status_code == 404 and str(_error(response)).startswith("no seat")


def _error(response: Any) -> object:
    try:
        body = response.json()
    except ValueError:
        return None
    return body.get("error") if isinstance(body, dict) else None


def excluded_for(case: schemathesis.Case[Any], response: Any) -> list[Any]:
    """The checks that do not apply to this answer, each for the reason given with it."""
    excluded: list[Any] = []
    if case.operation.path == EVENTS:  # see test_the_events_media_type_is_documented
        excluded.append(content_type_conformance)
    if case.operation.path in RULES_REFUSED and refused_by_the_rules(response):
        excluded.append(positive_data_acceptance)
    if no_such_seat(response):
        excluded.append(ensure_resource_availability)
    return excluded


def refused_by_the_rules(response: Any) -> bool:
    error = _error(response)
    return response.status_code == 422 and isinstance(error, str) and error != "malformed request"


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_never_fails_and_keeps_to_its_schema(case: schemathesis.Case[Any], target: Target) -> None:
    response = case.call()
    case.validate_response(response, excluded_checks=excluded_for(case, response))


def test_the_events_media_type_is_documented() -> None:
    responses = _schema_app.openapi()["paths"][EVENTS]["get"]["responses"]
    assert "text/event-stream" in responses["200"]["content"]
