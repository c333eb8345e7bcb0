"""The game master over HTTP, as clients use it: lifecycle, orders, press, history and every refusal.

Runs on each database of the ``db_url`` fixture (SQLite, and PostgreSQL where available).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from interboard.service.api import RateLimits, create_app
from interboard.service.schemas import Strict

from .writer import another_thread_writing

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, sweep=None, limits=RateLimits.off())) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def full_game(client: TestClient, **body: Any) -> tuple[str, str, dict[str, str]]:
    """A standard game with every seat joined: (game id, GM token, seat tokens)."""
    g = new_game(client, **body)
    tokens = {}
    for p in POWERS:
        r = client.post(f"/api/games/{g['game_id']}/join", json={"seat": p, "player": p.title()})
        assert r.status_code == 201, r.text
        tokens[p] = r.json()["token"]
    return g["game_id"], g["gm_token"], tokens


def test_variants_and_openapi(client: TestClient) -> None:
    variants = {v["id"]: v for v in client.get("/api/variants").json()}
    assert set(variants) >= {"standard", "twin_earths_1", "twin_earths_3", "hyperspace_2"}
    assert len(variants["twin_earths_3"]["seats"]) == 14
    te3_options = {o["name"]: o for o in variants["twin_earths_3"]["options"]}
    assert te3_options["cut_printed"]["default"] is False and te3_options["cut_printed"]["type"] == "bool"
    assert te3_options["link_limit"]["maximum"] == 1000
    assert variants["twin_earths_3"]["phase_kinds"] == ["movement", "retreats", "adjustments"]
    assert variants["standard"]["bots"] == ["random", "hold", "heuristic"]
    world = {v["id"]: v for v in client.get("/api/variants", params={"family": "globalwar"}).json()}
    assert set(world) == {"global_war", "classic_world"} and world["global_war"]["bots"] == [
        "greedy",
        "random",
    ]
    schema = client.get("/openapi.json").json()
    assert "/api/games/{game_id}/orders" in schema["paths"]


def test_a_game_from_creation_to_the_next_phase(client: TestClient) -> None:
    gid, _gm, tokens = full_game(client, deadlines={"movement": 3600})
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "active"  # started when the last seat was taken
    assert view["phase"] == "S1901M"
    assert view["deadline"] is not None
    r = client.put(
        f"/api/games/{gid}/orders",
        headers=auth(tokens["FRANCE"]),
        json={"phase": "S1901M", "orders": ["A Par - Bur", "F Bre - Mao"]},
    )
    assert r.status_code == 200, r.text
    assert all(x["ok"] for x in r.json())
    # Orders are replaced, not added to.
    r = client.put(
        f"/api/games/{gid}/orders",
        headers=auth(tokens["FRANCE"]),
        json={"phase": "S1901M", "orders": ["A Par - Bur"]},
    )
    assert client.get(f"/api/games/{gid}/seat", headers=auth(tokens["FRANCE"])).json()["seat"]["orders"] == [
        "A Par - Bur"
    ]
    assert client.get(f"/api/games/{gid}").json()["submitted"] == ["FRANCE"]
    for p in POWERS:
        r = client.put(
            f"/api/games/{gid}/ready", headers=auth(tokens[p]), json={"phase": "S1901M", "value": True}
        )
        assert r.status_code == 200
    assert r.json()["processed"] is True  # the last ready seat moved the game on
    view = client.get(f"/api/games/{gid}").json()
    assert view["phase"] == "F1901M"
    assert "A BUR" in view["position"]["units"]["FRANCE"]
    history = client.get(f"/api/games/{gid}/history").json()
    assert [h["phase"] for h in history] == ["S1901M"]
    assert history[0]["orders"] == {"FRANCE": ["A Par - Bur"]}
    assert any(r["order"] == "A PAR - BUR" and r["succeeded"] for r in history[0]["results"])
    assert "A PAR" in history[0]["position"]["units"]["FRANCE"]


def test_every_order_is_checked_and_nothing_partial_is_stored(client: TestClient) -> None:
    gid, _, tokens = full_game(client)
    r = client.put(
        f"/api/games/{gid}/orders",
        headers=auth(tokens["FRANCE"]),
        json={"phase": "S1901M", "orders": ["A Par - Bur", "A Par - Xyz", "A Mun - Ruh", "F Bre - Par"]},
    )
    assert r.status_code == 422
    details = r.json()["details"]
    assert details[0] == {"order": "A Par - Bur", "ok": True, "error": None}
    assert "unknown place 'xyz'" in details[1]["error"]
    assert "the unit in Munich belongs to GERMANY" in details[2]["error"]
    assert "a fleet cannot move inland (Paris)" in details[3]["error"]
    assert client.get(f"/api/games/{gid}/seat", headers=auth(tokens["FRANCE"])).json()["seat"]["orders"] == []
    r = client.put(
        f"/api/games/{gid}/orders",
        headers=auth(tokens["FRANCE"]),
        json={"phase": "S1901M", "orders": ["Germany: A Mun - Ruh"]},
    )
    assert "you play FRANCE, not GERMANY" in r.json()["details"][0]["error"]


def test_stale_orders_are_refused(client: TestClient) -> None:
    gid, _, tokens = full_game(client)
    r = client.put(
        f"/api/games/{gid}/orders",
        headers=auth(tokens["FRANCE"]),
        json={"phase": "F1901M", "orders": ["A Par - Bur"]},
    )
    assert r.status_code == 409
    assert "for F1901M, but the game is in S1901M" in r.json()["error"]


def test_refusals(client: TestClient) -> None:
    gid, gm, tokens = full_game(client, press="full")
    # No token (401, as HTTP says), a wrong token, another game's token (403: no right here).
    none = client.get(f"/api/games/{gid}/seat")
    assert none.status_code == 401 and none.headers["WWW-Authenticate"] == "Bearer"
    assert client.get(f"/api/games/{gid}/seat", headers=auth("nonsense")).status_code == 403
    _other, _, other_tokens = full_game(client)
    assert client.get(f"/api/games/{gid}/seat", headers=auth(other_tokens["FRANCE"])).status_code == 403
    # A seat cannot act for the game master, nor the GM for a seat.
    for action in ("pause", "start", "resume"):
        assert client.post(f"/api/games/{gid}/{action}", headers=auth(tokens["FRANCE"])).status_code == 403
    assert (
        client.post(
            f"/api/games/{gid}/extend", headers=auth(tokens["FRANCE"]), json={"seconds": 60}
        ).status_code
        == 403
    )
    assert (
        client.put(
            f"/api/games/{gid}/orders", headers=auth(gm), json={"phase": "S1901M", "orders": []}
        ).status_code
        == 403
    )
    # A taken seat cannot be joined again; an unknown game or seat is 404.
    assert client.post(f"/api/games/{gid}/join", json={"seat": "FRANCE"}).status_code == 409
    assert client.post(f"/api/games/{gid}/join", json={"seat": "PRUSSIA"}).status_code == 404
    assert client.get("/api/games/nosuchgame").status_code == 404
    # Nobody sees another seat's orders before adjudication.
    client.put(
        f"/api/games/{gid}/orders",
        headers=auth(tokens["FRANCE"]),
        json={"phase": "S1901M", "orders": ["A Par - Bur"]},
    )
    german = client.get(f"/api/games/{gid}/seat", headers=auth(tokens["GERMANY"])).json()
    public = client.get(f"/api/games/{gid}").json()
    assert "A Par - Bur" not in str(german) and "A Par - Bur" not in str(public)
    assert german["seat"]["orders"] == []


def test_press_is_seen_only_by_its_recipients(client: TestClient) -> None:
    gid, _, tokens = full_game(client, press="full")
    r = client.post(
        f"/api/games/{gid}/messages",
        headers=auth(tokens["FRANCE"]),
        json={"to": ["ENGLAND"], "body": "Channel stays empty?"},
    )
    assert r.status_code == 201
    client.post(f"/api/games/{gid}/messages", headers=auth(tokens["TURKEY"]), json={"body": "Peace to all"})

    def bodies(p: str) -> list[str]:
        return [m["body"] for m in client.get(f"/api/games/{gid}/messages", headers=auth(tokens[p])).json()]

    assert bodies("ENGLAND") == ["Channel stays empty?", "Peace to all"]
    assert bodies("FRANCE") == ["Channel stays empty?", "Peace to all"]
    assert bodies("GERMANY") == ["Peace to all"]
    assert client.get(f"/api/games/{gid}/messages").status_code == 401
    bad = client.post(
        f"/api/games/{gid}/messages", headers=auth(tokens["FRANCE"]), json={"to": ["PRUSSIA"], "body": "hi"}
    )
    assert bad.status_code == 404
    broadcast_only, _, t2 = full_game(client, press="broadcast")
    r = client.post(
        f"/api/games/{broadcast_only}/messages",
        headers=auth(t2["FRANCE"]),
        json={"to": ["ENGLAND"], "body": "psst"},
    )
    assert r.status_code == 403
    silent, _, t3 = full_game(client, press="none")
    assert (
        client.post(
            f"/api/games/{silent}/messages", headers=auth(t3["FRANCE"]), json={"body": "hello"}
        ).status_code
        == 403
    )


def test_game_master_controls(client: TestClient) -> None:
    g = new_game(
        client, autostart=False, seats={"FRANCE": "Alice", "ENGLAND": "bot"}, deadlines={"movement": 600}
    )
    gid, gm = g["game_id"], g["gm_token"]
    assert set(g["seat_tokens"]) == {"FRANCE"}
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "forming"
    kinds = {s["seat"]: s["kind"] for s in view["seats"]}
    assert kinds["ENGLAND"] == "bot" and kinds["FRANCE"] == "player" and kinds["ITALY"] == "open"
    assert client.post(f"/api/games/{gid}/start", headers=auth(gm)).status_code == 200
    assert client.get(f"/api/games/{gid}").json()["status"] == "active"
    assert client.post(f"/api/games/{gid}/pause", headers=auth(gm)).status_code == 200
    paused = client.get(f"/api/games/{gid}").json()
    assert paused["status"] == "paused" and paused["deadline"] is None
    r = client.put(
        f"/api/games/{gid}/orders",
        headers=auth(g["seat_tokens"]["FRANCE"]),
        json={"phase": "S1901M", "orders": ["A Par - Bur"]},
    )
    assert r.status_code == 409
    assert client.post(f"/api/games/{gid}/resume", headers=auth(gm)).status_code == 200
    before = client.get(f"/api/games/{gid}").json()["deadline"]
    assert (
        client.post(f"/api/games/{gid}/extend", headers=auth(gm), json={"seconds": 3600}).status_code == 200
    )
    assert client.get(f"/api/games/{gid}").json()["deadline"] > before


def test_a_ready_that_arrives_after_its_phase_does_not_count_for_the_next(client: TestClient) -> None:
    """A retried or double-clicked ready for S1901M, arriving once S1901M is processed, is refused (409)
    and leaves the seat unready in F1901M, which its player has not seen."""
    gid, _, tokens = full_game(client)
    for p in POWERS:
        r = client.put(
            f"/api/games/{gid}/ready", headers=auth(tokens[p]), json={"phase": "S1901M", "value": True}
        )
    assert r.json()["processed"] is True
    late = client.put(
        f"/api/games/{gid}/ready", headers=auth(tokens["FRANCE"]), json={"phase": "S1901M", "value": True}
    )
    assert late.status_code == 409 and "F1901M" in late.json()["error"]
    seats = {s["seat"]: s for s in client.get(f"/api/games/{gid}").json()["seats"]}
    assert not seats["FRANCE"]["ready"]
    r = client.put(f"/api/games/{gid}/ready", headers=auth(tokens["FRANCE"]), json={"value": True})
    assert r.status_code == 422  # the phase must be named
    stale_draw = client.put(
        f"/api/games/{gid}/draw", headers=auth(tokens["FRANCE"]), json={"phase": "S1901M", "value": True}
    )
    assert stale_draw.status_code == 409
    assert not client.get(f"/api/games/{gid}/seat", headers=auth(tokens["FRANCE"])).json()["seat"][
        "draw_vote"
    ]


def test_variants_of_every_family(client: TestClient) -> None:
    every = client.get("/api/variants").json()
    assert {(v["id"], v["family"]) for v in every} == {
        ("standard", "diplomacy"),
        ("twin_earths_1", "diplomacy"),
        ("twin_earths_3", "diplomacy"),
        ("hyperspace_2", "diplomacy"),
        ("global_war", "globalwar"),
        ("classic_world", "globalwar"),
        ("aa_europe_1999", "axis_allies"),
        ("aa_pacific_2001", "axis_allies"),
        ("aa_linked_world", "axis_allies"),
        ("vernian_wwi", "hexwar"),
    }
    only = client.get("/api/variants", params={"family": "globalwar"}).json()
    assert [v["id"] for v in only] == ["global_war", "classic_world"]
    r = client.get("/api/variants", params={"family": "chess"})
    assert r.status_code == 422 and "'diplomacy'" in str(r.json()["details"])  # the schema's enum
    # One id everywhere: the server's Global War needs no family named.
    r = client.post("/api/games", json={"variant": "global_war"})
    assert r.status_code == 201, r.text


def test_the_names_players_know_families_and_variants_by(client: TestClient) -> None:
    every = {v["id"]: v for v in client.get("/api/variants").json()}
    assert {v["family"]: v["family_title"] for v in every.values()} == {
        "diplomacy": "Diplomacy",
        "globalwar": "Global War",
        "axis_allies": "Axis & Allies",
        "hexwar": "Hex-and-counter wargames",
    }
    # The bot that plays a seat in each family (the lobby's "Bots in every other seat").
    assert {v["family"]: v["default_bot"] for v in every.values()} == {
        "diplomacy": "heuristic",
        "globalwar": "greedy",
        "axis_allies": "calculator",
        "hexwar": "heuristic",
    }
    game = new_game(client, variant="aa_europe_1999", title="Names")
    listed = next(g for g in client.get("/api/games").json() if g["id"] == game["game_id"])
    public = client.get(f"/api/games/{game['game_id']}").json()
    for summary in (listed, public):
        assert summary["family"] == "axis_allies" and summary["family_title"] == "Axis & Allies"
        assert summary["variant"] == "aa_europe_1999"
        assert summary["variant_title"] == "Axis & Allies Europe (1999)"


def test_the_server_says_whether_it_sends_mail(client: TestClient) -> None:
    assert client.get("/api/server").json() == {"mail": False}  # no SMTP server given
    # (with one: tests/service/test_accounts.py)


@pytest.mark.parametrize(
    ("variant", "mine", "bot"),
    [("standard", "FRANCE", "bot:heuristic"), ("aa_europe_1999", "GERMANY", "bot:calculator")],
)
def test_the_creator_plays_a_seat_taken_in_the_creating_request(
    client: TestClient, variant: str, mine: str, bot: str
) -> None:
    """What the lobby sends when its creator takes a seat with bots in every other: the seat given the
    creator's name, in the one request, so it is taken before the game starts (at once: no seat is
    open) and the bots order; its token plays it."""
    seats = next(v["seats"] for v in client.get("/api/variants").json() if v["id"] == variant)
    bots = {seat: bot for seat in seats if seat != mine}
    g = new_game(client, variant=variant, seats={**bots, mine: "Ann"})
    assert set(g["seat_tokens"]) == {mine} and g["open_seats"] == [] and g["gm_token"]
    gid, token = g["game_id"], g["seat_tokens"][mine]
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "active"
    assert {s["seat"]: (s["kind"], s["player"]) for s in view["seats"]} == {
        seat: ("player", "Ann") if seat == mine else ("bot", bot[4:]) for seat in seats
    }
    assert set(view["submitted"]) == set(view["acting"]) - {mine}  # the acting bots have ordered
    r = client.get(f"/api/games/{gid}/seat", headers=auth(token))
    assert r.status_code == 200 and r.json()["seat"]["seat"] == mine
    # The seat is taken: nobody else joins it.
    assert client.post(f"/api/games/{gid}/join", json={"seat": mine}).status_code == 409


def test_a_creators_seat_that_cannot_be_given_is_refused_naming_it(client: TestClient) -> None:
    def refused(body: dict[str, Any], where: str) -> None:
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, r.text
        assert any(where in d["where"] for d in r.json()["details"]), r.json()

    refused({"seats": {"PRUSSIA": "Ann"}}, "standard.seats.PRUSSIA")  # no such seat
    refused({"variant": "aa_europe_1999", "seats": {"FRANCE": "Ann"}}, "aa_europe_1999.seats.FRANCE")
    refused({"seats": {"FRANCE": " "}}, "standard.seats.FRANCE")  # a blank name
    refused({"seats": {"FRANCE": "bot:greedy"}}, "standard.seats.FRANCE")  # another family's bot
    assert client.get("/api/games").json() == []  # nothing was made


def test_draw_by_agreement(client: TestClient) -> None:
    gid, _, tokens = full_game(client)
    for p in POWERS[:-1]:
        client.put(f"/api/games/{gid}/draw", headers=auth(tokens[p]), json={"phase": "S1901M", "value": True})
    assert client.get(f"/api/games/{gid}").json()["status"] == "active"
    client.put(
        f"/api/games/{gid}/draw", headers=auth(tokens["TURKEY"]), json={"phase": "S1901M", "value": True}
    )
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "finished"
    assert view["result"] == {"draw": sorted(POWERS)}


def test_options_tree_of_a_seat(client: TestClient) -> None:
    gid, _, tokens = full_game(client)
    tree = client.get(f"/api/games/{gid}/options", headers=auth(tokens["FRANCE"])).json()
    assert tree["orders"]["PAR"]["move"]["BUR"] == "A PAR - BUR"
    assert "MUN" not in tree["orders"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("post", "/api/games", {"variant": "chess"}, 422),
        ("post", "/api/games", {"press": "shouting"}, 422),
        ("post", "/api/games", {"seats": {"PRUSSIA": "bot"}}, 422),
        ("post", "/api/games", {"deadlines": {"movement": -5}}, 422),
        ("post", "/api/games", {"variant": "twin_earths_3", "options": {"link_limit": "many"}}, 422),
        ("post", "/api/games", {"options": {"cut_printed": True}}, 422),
        ("post", "/api/games", {"unexpected": 1}, 422),
        ("post", "/api/games", [1, 2, 3], 422),
    ],
)
def test_malformed_requests_get_a_message(
    client: TestClient, method: str, path: str, body: Any, status: int
) -> None:
    r = getattr(client, method)(path, json=body)
    assert r.status_code == status
    assert r.json()["error"]


def test_oversized_body_is_refused(client: TestClient) -> None:
    r = client.post(
        "/api/games", content=b"{" + b" " * 70_000 + b"}", headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 413


def test_text_with_nul_is_refused_on_every_database(client: TestClient) -> None:
    r = client.post("/api/games", json={"title": "a\x00b"})
    assert r.status_code == 422
    assert "NUL" in str(r.json())
    assert client.get("/api/games/a%00b").status_code == 422
    # A seat's writes, whose text fields refuse NUL by their patterns, whichever way they are sent.
    gid, _, tokens = full_game(client)
    auth = {"Authorization": f"Bearer {tokens['FRANCE']}"}
    for path, body in [
        ("orders", {"phase": "S1901M", "orders": ["A Par - Bur", "F Bre\x00 - Mao"]}),
        ("orders", {"phase": "S19\x0001M", "orders": []}),
        ("ready", {"phase": "S1901M\x00", "value": True}),
    ]:
        r = client.put(f"/api/games/{gid}/{path}", json=body, headers=auth)
        assert r.status_code == 422, (path, body, r.text)
        assert "NUL" in r.text
    assert client.get(f"/api/games/{gid}/seat", headers=auth).json()["seat"]["orders"] == []


def test_framework_errors_use_the_error_format(client: TestClient) -> None:
    r = client.delete("/api/games")
    assert r.status_code == 405
    assert r.json() == {"error": "Method Not Allowed"}
    assert client.get("/api/nothing-here").json() == {"error": "Not Found"}


def test_writes_made_while_another_thread_writes_wait_for_it_and_are_kept(client: TestClient) -> None:
    """An order or a Ready that finds the process's writer lock held (another thread writing) is
    answered once it is free, with nothing lost; the last Ready then has the phase processed."""
    gid, _, tokens = full_game(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    france = auth(tokens["FRANCE"])
    client.get(f"/api/games/{gid}/seat", headers=france)  # the phase described in this process
    with another_thread_writing(service) as release:
        threading.Timer(0.3, release.set).start()
        started = time.monotonic()
        r = client.put(
            f"/api/games/{gid}/orders", headers=france, json={"phase": "S1901M", "orders": ["A Par - Bur"]}
        )
        assert r.status_code == 200, r.text
        assert time.monotonic() - started >= (0.25 if service.local_file else 0.0)
    for power in POWERS:
        r = client.put(
            f"/api/games/{gid}/ready", headers=auth(tokens[power]), json={"phase": "S1901M", "value": True}
        )
        assert r.status_code == 200, r.text
    assert r.json() == {"ready": True, "processed": True}
    history = client.get(f"/api/games/{gid}/history").json()
    assert [h["orders"] for h in history] == [{"FRANCE": ["A Par - Bur"]}]


def test_a_seats_tree_at_a_new_phase_is_read_once_while_the_games_rules_are_quick(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every seat's tree is missing at each new phase. Once the game's rules work has been quick,
    the seat's request reads the game once, the tree made within it, not a read that stops at the
    missing tree, then another."""
    client.app.state.placement.clock = lambda: 0.0  # type: ignore[attr-defined]  # all of it quick
    gid, _, tokens = full_game(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    assert client.get(f"/api/games/{gid}/options", headers=auth(tokens["FRANCE"])).status_code == 200
    reads: list[str] = []
    plain = service._head_and_seat

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append("head and seat")
        return plain(*args, **kwargs)

    monkeypatch.setattr(service, "_head_and_seat", counted)
    r = client.get(f"/api/games/{gid}/options", headers=auth(tokens["ENGLAND"]))
    assert r.status_code == 200 and r.json()["orders"], r.text
    assert reads == ["head and seat"]


def test_the_rules_work_on_the_event_loop_while_it_is_quick_and_in_a_thread_once_it_is_slow(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A legal-order tree, or a phase worked out, runs on the event loop (SQLite) once the game's
    such work has been quick; work not seen before, or after a slow run, in a worker thread."""
    import asyncio

    from interboard.games.diplomacy.family import DiplomacyFamily

    where: list[tuple[str, str]] = []
    cost = {"options": 0.0, "process": 0.0}
    cpu = [0.0]  # the placement's clock: only the family's calls take (this much) CPU time
    client.app.state.placement.clock = lambda: cpu[0]  # type: ignore[attr-defined]

    def on_loop() -> str:
        try:
            asyncio.get_running_loop()
            return "loop"
        except RuntimeError:
            return "thread"

    def watched(name: str) -> Any:
        plain = getattr(DiplomacyFamily, name)

        def call(self: DiplomacyFamily, *args: Any, **kwargs: Any) -> Any:
            where.append((name, on_loop()))
            cpu[0] += cost[name]
            return plain(self, *args, **kwargs)

        return call

    monkeypatch.setattr(DiplomacyFamily, "options", watched("options"))
    monkeypatch.setattr(DiplomacyFamily, "process", watched("process"))
    gid, _, tokens = full_game(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    quick = "loop" if service.local_file else "thread"  # on PostgreSQL, every read is in a thread

    def tree(power: str) -> str:
        assert client.get(f"/api/games/{gid}/options", headers=auth(tokens[power])).status_code == 200
        return where[-1][1]

    assert tree("FRANCE") == "thread"  # not seen before
    assert tree("ENGLAND") == quick
    cost["options"] = 0.016  # over three switch intervals (5 ms)
    assert [tree(p) for p in ("GERMANY", "ITALY")] == [quick, "thread"]  # it was quick, then slow
    cost["options"] = 0.001
    # Half of the slow run's cost is forgotten at each quick run since: 16, 8 ms, then 4: the loop.
    assert [tree(p) for p in ("RUSSIA", "TURKEY", "AUSTRIA")] == ["thread", "thread", quick]

    for phase in ("S1901M", "F1901M"):
        for power in POWERS:
            r = client.put(
                f"/api/games/{gid}/ready", headers=auth(tokens[power]), json={"phase": phase, "value": True}
            )
            assert r.status_code == 200, r.text
        assert r.json()["processed"] is True
    assert [w for name, w in where if name == "process"] == ["thread", quick]


def test_a_body_that_skips_the_whole_body_nul_check_refuses_nul_in_each_text_field() -> None:
    """``Strict.nul_refused_by_fields`` skips the look at the whole body: only a model each of whose
    text fields (list items too) has a pattern that refuses NUL may say so."""
    # A base that only sets the flag has no fields to check; its subclasses are checked.
    flagged = [model for model in _subclasses(Strict) if model.nul_refused_by_fields and model.model_fields]
    assert flagged, "no model skips the check: the flag is tested on nothing"
    for model in flagged:
        texts = list(_text_schemas(model.model_json_schema()))
        assert texts, model
        for where, schema in texts:
            pattern = schema.get("pattern")
            assert pattern is not None, (model.__name__, where)
            assert re.search(pattern, "a\x00b") is None and re.search(pattern, "ab"), (model.__name__, where)


def _subclasses(cls: type) -> Iterator[Any]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _text_schemas(schema: dict[str, Any], where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every string schema in a JSON schema (properties, list items), with where it is."""
    if schema.get("type") == "string":
        yield where, schema
    for name, sub in schema.get("properties", {}).items():
        yield from _text_schemas(sub, f"{where}.{name}")
    if isinstance(schema.get("items"), dict):
        yield from _text_schemas(schema["items"], f"{where}[]")
    for key in ("anyOf", "allOf", "oneOf"):
        for sub in schema.get(key, ()):
            yield from _text_schemas(sub, where)


def test_a_game_created_without_a_title_is_named_after_its_variant(client: TestClient) -> None:
    titles = {v["id"]: v["title"] for v in client.get("/api/variants").json()}
    for variant in ("standard", "aa_linked_world"):
        game = client.post("/api/games", json={"variant": variant}).json()["game_id"]
        title = client.get(f"/api/games/{game}").json()["title"]
        assert title.startswith(titles[variant]) and title.endswith(" game")
        assert not title.endswith("game game"), title


@pytest.mark.parametrize(
    ("body", "where"),
    [(b"{", "body.1"), (b'{"variant": "standard",}', "body.23"), (b'{"title": "\xff"}', None)],
    ids=["cut short", "a trailing comma", "not UTF-8"],
)
def test_a_body_that_is_not_json_is_a_bad_request(client: TestClient, body: bytes, where: str | None) -> None:
    """400 with where it stopped being JSON, as docs/server.md says; JSON of the wrong shape is 422."""
    headers = {"Content-Type": "application/json"}
    r = client.post("/api/games", content=body, headers=headers)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "the body is not JSON text in UTF-8"
    if where is not None:  # where JSON stopped; bytes that are not UTF-8 stop the reading itself
        assert r.json()["details"][0]["where"] == where
    game = client.post("/api/games", json={"seats": {"FRANCE": "Ann"}}).json()
    auth = {**headers, "Authorization": f"Bearer {game['seat_tokens']['FRANCE']}"}
    assert client.put(f"/api/games/{game['game_id']}/orders", content=body, headers=auth).status_code == 400
    assert client.post("/api/games", content=b'{"title": 5}', headers=headers).status_code == 422


SPOOFS = {
    "a right-to-left override": ("\u202eevil", "U+202E (RIGHT-TO-LEFT OVERRIDE) at position 0"),
    "a zero-width space": ("a\u200bb", "U+200B (ZERO WIDTH SPACE) at position 1"),
    "a line break": ("a\nb", "U+000A (a control character) at position 1"),
}


@pytest.mark.parametrize(("text", "said"), SPOOFS.values(), ids=SPOOFS.keys())
def test_names_and_titles_that_could_spoof_are_refused_with_the_character_named(
    client: TestClient, text: str, said: str
) -> None:
    for body, where in (
        ({"seats": {"FRANCE": text}}, "body.standard.seats.FRANCE"),
        ({"title": text}, "body.standard.title"),
    ):
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, r.text
        problems = {d["where"]: d["error"] for d in r.json()["details"]}
        assert any(w.startswith(where) and said in e for w, e in problems.items()), problems
    game = client.post("/api/games", json={}).json()["game_id"]
    r = client.post(f"/api/games/{game}/join", json={"seat": "FRANCE", "player": text})
    assert r.status_code == 422 and said in r.text, r.text


def test_names_and_titles_are_kept_composed(client: TestClient) -> None:
    """ "Café" typed with a combining accent is the same name as with the composed letter (NFC)."""
    made = client.post(
        "/api/games", json={"seats": {"FRANCE": "Cafe\u0301"}, "title": "Cafe\u0301 game"}
    ).json()
    view = client.get(f"/api/games/{made['game_id']}").json()
    assert view["title"] == "Caf\u00e9 game"
    assert next(s["player"] for s in view["seats"] if s["seat"] == "FRANCE") == "Caf\u00e9"
    r = client.post(f"/api/games/{made['game_id']}/join", json={"seat": "ENGLAND", "player": "E\u0301mile"})
    assert r.status_code == 201, r.text
    view = client.get(f"/api/games/{made['game_id']}").json()
    assert next(s["player"] for s in view["seats"] if s["seat"] == "ENGLAND") == "\u00c9mile"


def test_the_refused_characters_are_this_pythons_controls_and_format_characters() -> None:
    from interboard.service.schemas import UNSEEN, unseen_characters

    assert unseen_characters() == UNSEEN


def test_the_history_is_given_a_page_at_a_time(client: TestClient) -> None:
    """``GET /history`` gives at most ``limit`` phases (50 unless asked, 200 at most) from
    ``offset`` on, with a ``Link`` to the next page while there is one: it gave every phase at once,
    however long the game (an Axis & Allies phase is about 22 kB)."""
    from interboard.service.api import HISTORY_MAX, HISTORY_PAGE

    gid = new_game(client, seats=dict.fromkeys(POWERS, "bot"))["game_id"]  # always due
    service = client.app.state.service  # type: ignore[attr-defined]
    while client.get(f"/api/games/{gid}").json()["phase_index"] < HISTORY_PAGE + 3:
        service.process_due()
    played = service.history(gid)
    assert len(played) >= HISTORY_PAGE + 3

    first = client.get(f"/api/games/{gid}/history")
    assert first.status_code == 200 and first.json() == played[:HISTORY_PAGE]
    assert (
        first.headers["Link"]
        == f'</api/games/{gid}/history?offset={HISTORY_PAGE}&limit={HISTORY_PAGE}>; rel="next"'
    )
    pages, at = [], f"/api/games/{gid}/history?limit=3"
    while at:
        r = client.get(at)
        pages.append(r.json())
        at = r.headers.get("Link", "").partition(">")[0].lstrip("<")
    assert [record for page in pages for record in page] == played
    assert all(len(page) == 3 for page in pages[:-1]) and 1 <= len(pages[-1]) <= 3
    middle = client.get(f"/api/games/{gid}/history", params={"offset": 1, "limit": 2})
    assert [h["index"] for h in middle.json()] == [1, 2]
    assert client.get(f"/api/games/{gid}/history", params={"offset": 10**6}).json() == []
    for params in ({"limit": HISTORY_MAX + 1}, {"limit": 0}, {"offset": -1}, {"limit": "all"}):
        r = client.get(f"/api/games/{gid}/history", params=params)
        assert r.status_code == 422 and r.json()["error"] == "malformed request", (params, r.text)
    assert client.get("/api/games/nosuchgame/history").status_code == 404


def test_a_games_player_names_are_unique_whatever_their_case_or_form(client: TestClient) -> None:
    """Two players of one game cannot take names that differ only in case, in how their letters
    are encoded (a composed or a combining accent, full-width letters) or in the spaces around
    them: the second is refused, at creation (422, naming the seat) or at join (409, naming the
    seat that has it). Bots share names freely; a different name passes."""
    for seats in (
        {"FRANCE": "Anna", "ENGLAND": "anna"},
        {"FRANCE": "\u00c9mile", "ENGLAND": "E\u0301MILE"},
        {"FRANCE": "Emile", "ENGLAND": "\uff25\uff4d\uff49\uff4c\uff45"},  # full-width
        {"FRANCE": "Stra\u00dfe", "ENGLAND": " STRASSE "},
    ):
        r = client.post("/api/games", json={"seats": seats})
        assert r.status_code == 422, (seats, r.text)
        error = r.json()["error"]
        assert error.startswith("seat ") and "ENGLAND" in error and "FRANCE" in error, r.text
    made = new_game(
        client, seats={"FRANCE": "\u00c9mile", "ITALY": "bot:hold", "TURKEY": "bot:hold", "RUSSIA": "bot"}
    )
    gid = made["game_id"]
    for name in ("\u00e9mile", "E\u0301MILE", "\uff25\u0301\uff4d\uff49\uff4c\uff45", "  \u00c9mile "):
        r = client.post(f"/api/games/{gid}/join", json={"seat": "ENGLAND", "player": name})
        assert r.status_code == 409 and "FRANCE" in r.json()["error"], (name, r.text)
    assert (
        client.post(f"/api/games/{gid}/join", json={"seat": "ENGLAND", "player": "Emile"}).status_code == 201
    )
    assert client.post(f"/api/games/{gid}/join", json={"seat": "GERMANY"}).status_code == 201  # "GERMANY"
    r = client.post(f"/api/games/{gid}/join", json={"seat": "AUSTRIA", "player": "germany"})
    assert r.status_code == 409 and "GERMANY" in r.json()["error"], r.text
    names = {s["seat"]: s["player"] for s in client.get(f"/api/games/{gid}").json()["seats"]}
    assert (names["FRANCE"], names["ENGLAND"], names["GERMANY"], names["AUSTRIA"]) == (
        "\u00c9mile",
        "Emile",
        "GERMANY",
        "",
    )
