"""The HTTP API fuzzed against its own OpenAPI schema (schemathesis), in process over ASGI.

Every operation gets a bounded number of generated requests (the examples, coverage and fuzzing
phases, ``MAX_EXAMPLES`` in the last), all sent to one app over a SQLite file. Most of them aim at
real games (an active one with every seat taken, and a forming one) and carry one of that game's
tokens (a seat's or the game master's); with a seat's token an order request often names the game's
phase and orders for that seat's units. So the requests get past "no such game" and "who are you"
into the handlers, and change the games as they go (orders, ready, pause, draw votes...).

The checks: never a 5xx, and every documented response matches its schema (status and media type).

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
from schemathesis.checks import content_type_conformance, not_a_server_error, response_schema_conformance

from interboard.service.api import create_app
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


_schema_app = create_app("sqlite://", tick=None)
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
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite'}", tick=None)
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
    takes_token = any(p.name.lower() == "authorization" for p in case.operation.headers)

    def aim(choice: tuple[Game | None, str | None, bool]) -> schemathesis.Case[Any]:
        game, token, meaningful = choice
        if game is not None and case.path_parameters and "game_id" in case.path_parameters:
            case.path_parameters["game_id"] = game.id
        if token is not None and takes_token:
            case.headers["Authorization"] = f"Bearer {token}"  # case-insensitive: replaces any
        body = case.body
        if meaningful and isinstance(body, dict):
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


CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
EVENTS = "/api/games/{game_id}/events"


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_never_fails_and_keeps_to_its_schema(case: schemathesis.Case[Any], target: Target) -> None:
    checks = CHECKS
    if case.operation.path == EVENTS:  # see test_the_events_media_type_is_documented
        checks = [c for c in CHECKS if c is not content_type_conformance]
    case.call_and_validate(checks=checks)


def test_the_events_media_type_is_documented() -> None:
    responses = _schema_app.openapi()["paths"][EVENTS]["get"]["responses"]
    assert "text/event-stream" in responses["200"]["content"]
