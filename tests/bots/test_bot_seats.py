"""Bots in the seats of server games, through the HTTP API: named bots order every phase through the
same checks as players (their orders show in the history), and a leaving player's seat passes to a
bot or opens, as the game says."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from interboard.service.api import RateLimits, create_app

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, sweep=None, limits=RateLimits.off())) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def ready_all(client: TestClient, gid: str, tokens: dict[str, str]) -> None:
    phase = client.get(f"/api/games/{gid}").json()["phase"]
    for token in tokens.values():
        r = client.put(f"/api/games/{gid}/ready", headers=auth(token), json={"phase": phase, "value": True})
        assert r.status_code == 200, r.text


def test_named_bots_order_each_phase_and_their_orders_show_in_the_history(client: TestClient) -> None:
    seats = {p: "bot:heuristic" for p in POWERS} | {"FRANCE": "Alice", "ENGLAND": "bot:random"}
    seats["ITALY"] = "bot:hold"
    g = create(client, seats=seats, deadlines={"movement": 3600})
    gid, token = g["game_id"], g["seat_tokens"]["FRANCE"]
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "active"
    assert set(view["submitted"]) == set(POWERS) - {"FRANCE"}  # the bots ordered at the start
    kinds = {s["seat"]: (s["kind"], s["player"]) for s in view["seats"]}
    assert kinds["GERMANY"] == ("bot", "heuristic") and kinds["ENGLAND"] == ("bot", "random")
    r = client.put(f"/api/games/{gid}/orders", headers=auth(token), json={"phase": "S1901M", "orders": []})
    assert r.status_code == 200, r.text
    ready_all(client, gid, {"FRANCE": token})  # the bots are always ready: the phase is processed
    history = client.get(f"/api/games/{gid}/history").json()
    assert [h["phase"] for h in history] == ["S1901M"]
    orders = history[0]["orders"]
    assert len(orders["GERMANY"]) == 3 and all(
        " - " in o or " S " in o or " H" in o for o in orders["GERMANY"]
    )
    assert orders["ITALY"] == ["A VEN H", "A ROM H", "F NAP H"] or sorted(orders["ITALY"]) == sorted(
        ["A VEN H", "A ROM H", "F NAP H"]
    )
    results = history[0]["results"]
    assert not [x for x in results if x.get("reason") == "illegal"]
    # The next phase is already ordered by the bots.
    assert set(client.get(f"/api/games/{gid}").json()["submitted"]) == set(POWERS) - {"FRANCE"}


def test_a_bot_only_game_plays_on_by_the_scheduler(client: TestClient) -> None:
    g = create(
        client, variant="twin_earths_3", seats={p: "bot:heuristic" for p in _seats(client, "twin_earths_3")}
    )
    gid = g["game_id"]
    service = client.app.state.service  # type: ignore[attr-defined]
    for _ in range(4):  # W1900A (builds and links), S1901M, F1901M, W1901A
        service.process_due()
    history = client.get(f"/api/games/{gid}/history").json()
    assert len(history) >= 4
    first = history[0]["orders"]
    assert all(any(o.startswith("LINK ") for o in orders) for orders in first.values())
    assert not [x for h in history for x in h["results"] if x.get("reason") == "illegal"]


def _seats(client: TestClient, variant: str) -> list[str]:
    found = next(v for v in client.get("/api/variants").json() if v["id"] == variant)
    return list(found["seats"])


@pytest.mark.parametrize(
    ("on_leave", "kind", "player"),
    [
        pytest.param(None, "bot", "heuristic", id="by_default_a_heuristic_bot_takes_over"),
        pytest.param("bot:random", "bot", "random", id="a_named_bot_takes_over"),
        pytest.param("open", "open", "", id="the_seat_opens"),
    ],
)
def test_a_leaving_players_seat_passes_on(
    client: TestClient, on_leave: str | None, kind: str, player: str
) -> None:
    seats = {p: "bot:hold" for p in POWERS} | {"FRANCE": "Alice", "GERMANY": "Bob"}
    body: dict[str, Any] = {"seats": seats, "deadlines": {"movement": 3600}}
    if on_leave is not None:
        body["on_leave"] = on_leave
    g = create(client, **body)
    gid, tokens = g["game_id"], g["seat_tokens"]
    r = client.post(f"/api/games/{gid}/leave", headers=auth(tokens["FRANCE"]))
    assert r.status_code == 200, r.text
    assert r.json()["seat_now"] == (f"bot:{player}" if kind == "bot" else "open")
    seat = next(s for s in client.get(f"/api/games/{gid}").json()["seats"] if s["seat"] == "FRANCE")
    assert (seat["kind"], seat["player"]) == (kind, player)
    # The old token holds nothing any more.
    assert client.get(f"/api/games/{gid}/seat", headers=auth(tokens["FRANCE"])).status_code == 403
    submitted = client.get(f"/api/games/{gid}").json()["submitted"]
    assert ("FRANCE" in submitted) == (kind == "bot")  # a bot orders at once
    ready_all(client, gid, {"GERMANY": tokens["GERMANY"]})
    processed = client.get(f"/api/games/{gid}").json()["phase"] != "S1901M"
    assert processed == (kind == "bot")  # an open seat waits for a player or the deadline
    if kind == "open":
        r = client.post(f"/api/games/{gid}/join", json={"seat": "FRANCE", "player": "Carol"})
        assert r.status_code == 201, r.text


def test_leaving_before_the_start_opens_the_seat(client: TestClient) -> None:
    g = create(client, seats={"FRANCE": "Alice"}, autostart=False)
    r = client.post(f"/api/games/{g['game_id']}/leave", headers=auth(g["seat_tokens"]["FRANCE"]))
    assert r.json() == {"seat_now": "open"}


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        pytest.param(
            {"seats": {"FRANCE": "bot:clever"}},
            422,
            "seats.FRANCE.literal['open','bot','bot:random','bot:hold','bot:heuristic']",
            id="unknown_bot_in_a_seat",
        ),
        pytest.param({"on_leave": "bot:clever"}, 422, "'bot:heuristic'", id="unknown_bot_on_leave"),
        pytest.param({"on_leave": "vanish"}, 422, "standard.on_leave", id="unknown_on_leave"),
    ],
)
def test_bad_bot_settings_are_refused(
    client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == status and message in r.text, r.text  # the variant's schema refuses it


def test_leaving_needs_a_seat_token(client: TestClient) -> None:
    g = create(client)
    assert client.post(f"/api/games/{g['game_id']}/leave").status_code == 401
    assert client.post(f"/api/games/{g['game_id']}/leave", headers=auth("nope")).status_code == 403


def test_global_war_bots_play_a_whole_game_in_server_seats(client: TestClient) -> None:
    """Three greedy and random bots fill every seat of a Global War game; the scheduler's rounds play
    it step by step, every step through the same checks as a player's, until one player holds all."""
    seats = {"P1": "bot:greedy", "P2": "bot:random", "P3": "bot:greedy"}
    g = create(client, variant="classic_world", options={"players": 3}, seed=7, seats=seats)
    gid = g["game_id"]
    service = client.app.state.service  # type: ignore[attr-defined]
    for _ in range(3000):
        if client.get(f"/api/games/{gid}").json()["status"] == "finished":
            break
        assert service.process_due() == [gid]
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "finished"
    owners = set(view["position"]["owner"].values())
    assert len(owners) == 1 and view["result"]["winners"] == list(owners)
    history = client.get(f"/api/games/{gid}/history").json()
    assert not [r for h in history for r in h["results"] if "refused" in r or r.get("default")]


def test_a_family_without_such_a_bot_refuses_it(client: TestClient) -> None:
    r = client.post(
        "/api/games", json={"family": "globalwar", "variant": "global_war", "seats": {"P1": "bot:heuristic"}}
    )
    assert r.status_code == 422
    assert "'bot:greedy' or 'bot:random'" in r.text
