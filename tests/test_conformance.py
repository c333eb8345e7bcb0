"""Every registered variant of every family passes the conformance suite, and is served by the API.

The variants come from the registry, so a new family is checked here before it has tests of its own.
"""

from __future__ import annotations

import gc
import inspect
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from interboard.bots.random_player import random_submission
from interboard.conformance import MALFORMED, ConformanceError, check_liveness, check_scenarios, check_variant
from interboard.games import family, variants
from interboard.games.protocol import Choices, Pending
from interboard.service.api import RateLimits, create_app

VARIANTS = [v.id for v in variants()]


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_passes_the_conformance_suite_leaving_no_reference_cycles(variant: str) -> None:
    """The suite's seeded game passes, and the rules' calls free what they made as they return: no
    reference cycle is left for the garbage collector, whose collections a server pays for while it
    answers (a recursive function nested in another, which holds itself in its closure, made
    hundreds a second under load). One game checks both, as the suite's game is the slowest part."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept in gc.garbage
    try:
        report = check_variant(variant, seed=3, max_steps=60)
        gc.collect()
        left = [type(o).__qualname__ for o in gc.garbage]
        functions = sorted({o.__qualname__ for o in gc.garbage if inspect.isfunction(o)})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert report.steps > 0 and report.drawings == report.steps
    assert report.actions > 0, "random legal play never found a legal action"
    assert not left, f"{len(left)} objects in reference cycles, made by {functions}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_decisions_always_move_on(variant: str) -> None:
    """An empty submission to every decision point of a seeded game is processed into another
    decision or position: a decision that may not end empty gets the family's default."""
    assert check_liveness(variant, seed=5, max_steps=40) > 0


def test_the_suite_catches_a_decision_that_is_asked_again_for_ever(monkeypatch: pytest.MonkeyPatch) -> None:
    fam = family("diplomacy")
    original = type(fam).process

    def stuck(self: Any, state: dict[str, Any], submissions: Any) -> Any:
        done = original(self, state, submissions)
        if any(not texts for texts in submissions.values()):
            return type(done)(state, done.phase, done.position, [], [])  # the same decision again
        return done

    monkeypatch.setattr(type(fam), "process", stuck)
    with pytest.raises(ConformanceError, match="never moves on"):
        check_liveness("standard", seed=5, max_steps=3)


def test_the_suite_catches_a_scenario_position_that_leaves_something_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fam = family("axis_allies")
    original = type(fam).position

    def forgetful(self: Any, state: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in original(self, state).items() if k != "ipcs"}

    monkeypatch.setattr(type(fam), "position", forgetful)
    with pytest.raises(ConformanceError, match="another position"):
        check_scenarios("aa_europe_1999", seed=3, max_steps=2)


def test_the_suite_catches_a_family_that_breaks_a_promise(monkeypatch: pytest.MonkeyPatch) -> None:
    """A family whose check refuses an action its legal list offers fails the suite with the step named."""
    fam = family("diplomacy")
    original = type(fam).check

    def refuses_moves(self: Any, state: dict[str, Any], seat: str, actions: Any) -> list[str | None]:
        return ["no moves today" if " - " in a else None for a in actions]

    monkeypatch.setattr(type(fam), "check", refuses_moves)
    with pytest.raises(
        ConformanceError, match=r"standard: step \d+ \(S1901M\): .* was refused: no moves today"
    ):
        check_variant("standard", seed=1, max_steps=2)
    monkeypatch.setattr(type(fam), "check", original)


def test_the_suite_catches_an_option_tree_that_leaves_out_legal_actions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A tree cut short (as Axis & Allies' once was, at 400 actions) leaves fronts unclickable."""
    fam = family("diplomacy")
    original = type(fam).options

    def without_supports(self: Any, state: dict[str, Any], seat: str, chosen: Any = ()) -> dict[str, Any]:
        tree = original(self, state, seat, chosen)
        orders = tree.get("orders") or {}

        def prune(node: Any) -> Any:
            if isinstance(node, dict):
                return {k: prune(v) for k, v in node.items() if not (isinstance(v, str) and " S " in v)}
            return node

        return {**tree, "orders": prune(orders)}

    monkeypatch.setattr(type(fam), "options", without_supports)
    with pytest.raises(
        ConformanceError,
        match=r"standard: step 0 \(S1901M\), \w+: legal actions the option tree does not offer: '. \w+ S ",
    ):
        check_variant("standard", seed=1, max_steps=2)


def test_the_suite_catches_a_view_that_shows_the_dice_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    fam = family("globalwar")
    view = type(fam).view

    def leaky(self: Any, state: dict[str, Any]) -> dict[str, Any]:
        return {**view(self, state), "rng": state["state"]["rng"]}

    monkeypatch.setattr(type(fam), "view", leaky)
    with pytest.raises(ConformanceError, match="shows 'rng'"):
        check_variant("global_war", max_steps=1)


def test_protocol_values() -> None:
    assert Pending("S1901M", "movement", ("FRANCE",), 1901).over is False
    assert Choices((), True).may_end


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(
        create_app(f"sqlite:///{tmp_path / 'conformance.sqlite'}", sweep=None, limits=RateLimits.off())
    ) as c:
        yield c


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_is_served_through_the_http_api(client: TestClient, variant: str) -> None:
    """One seat played over HTTP with random legal actions (refused a malformed one first), the others
    by the generic random bot; the history, the maps and the views follow the game."""
    fam = family(next(v.family for v in variants() if v.id == variant))
    listed = {v["id"]: v for v in client.get("/api/variants").json()}
    assert listed[variant]["family"] == fam.name and "random" in listed[variant]["bots"]
    seats = listed[variant]["seats"]
    me = seats[0]
    r = client.post(
        "/api/games",
        json={
            "variant": variant,
            "seed": 5,
            "seats": {s: "tester" if s == me else "bot:random" for s in seats},
        },
    )
    assert r.status_code == 201, r.text
    gid, token = r.json()["game_id"], r.json()["seat_tokens"][me]
    headers = {"Authorization": f"Bearer {token}"}
    service = client.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(5)
    refused_once = False
    for _ in range(12):
        view = client.get(f"/api/games/{gid}").json()
        if view["status"] != "active":
            break
        assert view["pending"]["phase"] == view["phase"] and view["pending"]["kind"] in fam.phase_kinds
        if me in view["acting"]:
            if not refused_once:
                bad = client.put(
                    f"/api/games/{gid}/orders",
                    headers=headers,
                    json={"phase": view["phase"], "orders": [MALFORMED]},
                )
                assert bad.status_code == 422 and bad.json()["details"][0]["error"], bad.text
                refused_once = True
            state = service_state(service, gid)
            orders = random_submission(fam, state, me, rng)
            r = client.put(
                f"/api/games/{gid}/orders", headers=headers, json={"phase": view["phase"], "orders": orders}
            )
            assert r.status_code == 200, r.text
            r = client.put(
                f"/api/games/{gid}/ready", headers=headers, json={"phase": view["phase"], "value": True}
            )
            assert r.status_code == 200, r.text
        else:
            assert service.try_process(gid), f"{view['phase']}: the bots' phase was not processed"
    history = client.get(f"/api/games/{gid}/history").json()
    assert history, "no phase was processed"
    for k in (0, len(history) - 1):
        svg = client.get(f"/api/games/{gid}/map.svg", params={"phase": k})
        assert svg.status_code == 200, svg.text
        assert ET.fromstring(svg.text).tag == "{http://www.w3.org/2000/svg}svg"
    assert client.get(f"/api/games/{gid}/map.svg", params={"phase": 10**30}).status_code == 422
    assert ET.fromstring(client.get(f"/api/games/{gid}/map.svg", headers=headers).text) is not None
    assert client.get(f"/api/games/{gid}/seat", headers=headers).json()["seat"]["seat"] == me


def service_state(service: Any, game_id: str) -> dict[str, Any]:
    """The stored family state (what a bot reads); the API never shows it."""
    from sqlalchemy.orm import Session

    from interboard.service.models import GameRow

    with Session(service.engine) as s:
        row = s.get(GameRow, game_id)
        assert row is not None
        state: dict[str, Any] = row.state
        return state
