"""Global War through the game master's HTTP API: one seat acts at a time, one step at a time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from interboard.games.globalwar import Rules, action_text
from interboard.games.globalwar.bots import GreedyBot
from interboard.games.globalwar.family import GlobalWarFamily
from interboard.games.globalwar.record import state_from_json
from interboard.service.api import RateLimits, create_app


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, sweep=None, limits=RateLimits.off())) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def start(
    client: TestClient, players: int = 3, seed: int | None = None, **options: Any
) -> tuple[str, dict[str, str]]:
    r = client.post(
        "/api/games",
        json={"variant": "global_war", "seed": seed, "options": {"players": players, **options}},
    )
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    tokens = {}
    for p in range(1, players + 1):
        r = client.post(f"/api/games/{gid}/join", json={"seat": f"P{p}", "player": f"player {p}"})
        assert r.status_code == 201, r.text
        tokens[f"P{p}"] = r.json()["token"]
    return gid, tokens


def play_step(client: TestClient, gid: str, tokens: dict[str, str], orders: list[str]) -> dict[str, Any]:
    view = client.get(f"/api/games/{gid}").json()
    seat = view["acting"][0]
    r = client.put(
        f"/api/games/{gid}/orders",
        headers=auth(tokens[seat]),
        json={"phase": view["phase"], "orders": orders},
    )
    assert r.status_code == 200, r.text
    r = client.put(
        f"/api/games/{gid}/ready", headers=auth(tokens[seat]), json={"phase": view["phase"], "value": True}
    )
    assert r.json()["processed"] is True
    after: dict[str, Any] = client.get(f"/api/games/{gid}").json()
    return after


def pick(options: dict[str, Any]) -> str:
    """A simple client of the click tree: move all in, deploy everything on one country, end steps."""
    tree = options["orders"]
    turn = tree.get("turn", {})
    for node in tree.values():
        if "move" in node:
            return str(node["move"][max(node["move"], key=int)])
    if "trade" in turn:
        return str(next(iter(turn["trade"].values())))
    for node in tree.values():
        if "place" in node:
            return str(node["place"])
        if "deploy" in node:
            return str(node["deploy"][max(node["deploy"], key=int)])
    for node in tree.values():
        for target in node.get("attack", {}).values():
            return str(target[max(target, key=int)])
    return str(turn.get("end_attack") or turn["end_turn"])


def test_variants_of_the_family(client: TestClient) -> None:
    variants = {v["id"]: v for v in client.get("/api/variants", params={"family": "globalwar"}).json()}
    assert set(variants) == {"global_war", "classic_world"}
    options = {o["name"]: o for o in variants["global_war"]["options"]}
    assert options["fortification"]["default"] == "limited"
    assert options["fortification"]["choices"] == ["limited", "unlimited", "connected"]
    assert options["players"]["minimum"] == 3 and options["players"]["maximum"] == 6
    assert variants["global_war"]["family"] == "globalwar"
    assert variants["global_war"]["phase_kinds"] == ["turn"]
    assert variants["global_war"]["seats"] == ["P1", "P2", "P3", "P4", "P5", "P6"]


def test_a_game_is_created_joined_and_played_step_by_step(client: TestClient) -> None:
    gid, tokens = start(client, players=3, seed=7)
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "active"
    assert view["acting"] == ["P1"] and view["phase"] == "T1.P1.deploy.0"
    position = view["position"]
    assert position["current"] == "P1" and position["cards"] == {"P1": 0, "P2": 0, "P3": 0}
    assert "hands" not in position and "rng" not in position and "deck" not in position
    assert len(position["owner"]) == 42

    tree = client.get(f"/api/games/{gid}/options", headers=auth(tokens["P1"])).json()["orders"]
    mine = [c for c, p in position["owner"].items() if p == "P1"]
    assert set(tree) - {"turn"} == set(mine)
    pool = position["pool"]
    assert tree[mine[0]]["deploy"][str(pool)].startswith(f"deploy {pool} ")
    assert client.get(f"/api/games/{gid}/options", headers=auth(tokens["P2"])).json() == {}

    r = client.put(
        f"/api/games/{gid}/orders",
        headers=auth(tokens["P2"]),
        json={"phase": view["phase"], "orders": ["end turn"]},
    )
    assert r.status_code == 409
    r = client.put(
        f"/api/games/{gid}/orders",
        headers=auth(tokens["P1"]),
        json={"phase": view["phase"], "orders": [f"deploy {pool + 1} {mine[0]}", "deploy 1 Atlantis"]},
    )
    assert r.status_code == 422
    errors = [d["error"] for d in r.json()["details"]]
    assert f"not {pool + 1}" in errors[0] and "unknown country 'atlantis'" in errors[1]

    # Deploy everything, then attack: the attack must be the last action sent (its dice are unknown).
    source = max(mine, key=lambda c: position["armies"][c])
    deploy = tree[source]["deploy"][str(pool)]
    state_view = play_step(client, gid, tokens, [deploy])
    assert state_view["position"]["phase"] == "attack"
    tree = client.get(f"/api/games/{gid}/options", headers=auth(tokens["P1"])).json()
    attack = pick(tree)
    r = client.put(
        f"/api/games/{gid}/orders",
        headers=auth(tokens["P1"]),
        json={"phase": state_view["phase"], "orders": [attack, "end attack"]},
    )
    assert r.status_code == 422
    assert "an attack must be the last action sent" in r.json()["details"][1]["error"]
    play_step(client, gid, tokens, [attack] if attack.startswith("attack") else ["end attack"])

    history = client.get(f"/api/games/{gid}/history").json()
    assert [h["phase"] for h in history] == ["T1.P1.deploy.0", "T1.P1.attack.1"]
    assert history[0]["results"][0]["action"] == deploy
    if attack.startswith("attack"):
        battle = history[1]["results"][0]["events"][0]
        assert battle["kind"] == "battle" and 1 <= len(battle["attack_dice"]) <= 3

    # A client that only reads the click tree plays on until the turn passes to P2.
    for _ in range(200):
        view = client.get(f"/api/games/{gid}").json()
        if view["acting"] != ["P1"]:
            break
        seat_tree = client.get(f"/api/games/{gid}/options", headers=auth(tokens["P1"])).json()
        play_step(client, gid, tokens, [pick(seat_tree)])
    assert view["acting"] == ["P2"] and view["position"]["turn"] == 2


def test_the_map_shows_owners_and_armies(client: TestClient) -> None:
    """The game's map (the web page's too): every country drawn, clickable by its id, marked with its
    owner and the owner's colour (a light shade of it as the fill), with its army count in that
    colour; partners of a team game in two shades of one colour."""
    import xml.etree.ElementTree as ET

    from interboard.games.globalwar.family import TEAM_COLOURS
    from interboard.render.svg import mix

    gid, tokens = start(client, players=6, teams=True, seed=5)
    position = client.get(f"/api/games/{gid}").json()["position"]
    r = client.get(f"/api/games/{gid}/map.svg", headers=auth(tokens["P1"]))
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    svg = ET.fromstring(r.text)
    ns = {"s": "http://www.w3.org/2000/svg"}
    spaces = {
        g.get("data-loc"): g
        for g in svg.iterfind(".//s:g[@data-space]", ns)
        if "space" in g.get("class", "").split()
    }
    assert set(spaces) == set(position["owner"])
    labels = {g.get("data-loc"): g for g in svg.iterfind(".//s:g[@class='space-label']", ns)}
    for country, owner in position["owner"].items():
        colour = TEAM_COLOURS[int(owner[1:]) - 1]
        group = spaces[country]
        assert (group.get("data-owner"), group.get("data-colour")) == (owner, colour), country
        cell = group.find("s:path", ns)
        assert cell is not None and cell.get("fill") == mix(colour, "#ffffff", 0.45), country
        badge = labels[country].find("s:g[@class='badge']/s:rect", ns)
        assert badge is not None and badge.get("fill") == colour, country
    badges = ["".join(b.itertext()) for b in svg.iterfind(".//s:g[@class='badge']", ns)]
    assert sorted(badges) == sorted(str(n) for n in position["armies"].values())


def test_team_game_and_bad_options(client: TestClient) -> None:
    gid, _tokens = start(client, players=6, teams=True, fortification="unlimited", seed=3)
    view = client.get(f"/api/games/{gid}").json()
    assert view["position"]["teams"] == [["P1", "P4"], ["P2", "P5"], ["P3", "P6"]]
    # The variant's schema (each option typed and bounded) refuses most; the rules the rest.
    for options, message in (
        ({"players": 4, "teams": True}, "a team game has 6 players"),
        ({"fortification": "total"}, 'options.fortification","error":"Input should be \'limited\''),
        ({"players": 7}, 'options.players","error":"Input should be less than or equal to 6'),
        ({"dice": 4}, 'options.dice","error":"Extra inputs are not permitted'),
        ({"players": "six"}, 'options.players","error":"Input should be a valid integer'),
    ):
        r = client.post("/api/games", json={"variant": "global_war", "options": options})
        assert r.status_code == 422 and message in r.text, r.text
    r = client.post("/api/games", json={"family": "globalwar", "variant": "mars"})
    assert r.status_code == 422 and "unknown variant" in r.text
    assert "globalwar: global_war, classic_world" in r.text  # the error lists every family's variants
    r = client.post("/api/games", json={"family": "diplomacy", "variant": "global_war"})
    assert r.status_code == 422 and 'global_war.family","error":"Input should be \'globalwar\'' in r.text


def test_missed_steps_get_defaults_and_the_game_ends() -> None:
    """At a deadline with no orders: starting armies and deployments on the strongest country, the
    fewest armies moved in, attacks and turns ended. A whole game of defaults and chosen actions ends."""
    family = GlobalWarFamily()
    state = family.new_state("classic_world", {"players": 3, "auto_placement": False}, 11)
    pending = family.pending(state)
    assert (pending.phase, pending.kind, pending.seats, pending.turn) == (
        "T0.P1.placement.0",
        "turn",
        ("P1",),
        "P1",
    )
    legal = family.legal(state, "P1", []).actions
    assert len(legal) == 14 and all(t.startswith("place ") for t in legal)
    assert family.legal(state, "P1", [legal[0]]).actions == ()  # the placement step ends the submission
    done = family.process(state, {})
    assert done.results[0]["default"] and done.results[0]["action"].startswith("place ")
    state = done.state
    bots = [GreedyBot(seed=p) for p in range(3)]
    steps = 1
    while family.pending(state).seats and steps < 20_000:
        seat = family.pending(state).seats[0]
        game = state_from_json(Rules.from_json(state["rules"]), state["state"])
        action = bots[game.current].choose(game)
        orders = [] if steps % 7 == 0 else [action_text(game, action)]
        assert family.check(state, seat, orders) == [None] * len(orders)
        state = family.process(state, {seat: orders}).state
        steps += 1
    assert family.winners(state), "the game did not end"
    assert set(family.winners(state)) == set(state["state"]["owner"].values())


def test_each_action_of_a_step_is_read_on_the_state_before_it() -> None:
    """Two trades in one step, both 'trade cards 1 2 3': card numbers count in the hand as it is when
    the action comes, on processing as on checking, so the second trade takes the next three cards."""
    family = GlobalWarFamily()
    state = family.new_state("classic_world", {"players": 3}, 4)
    infantry, cavalry = [0, 3, 6], [1, 4, 7]  # card c shows symbol c % 3 (map order)
    inner = state["state"]
    inner["hands"]["P1"] = infantry + cavalry
    inner["deck"] = [c for c in inner["deck"] if c not in infantry + cavalry]
    assert family.pending(state).seats == ("P1",) and inner["phase"] == "deploy"
    orders = ["trade cards 1 2 3", "trade cards 1 2 3"]
    assert family.check(state, "P1", orders) == [None, None]
    done = family.process(state, {"P1": orders})
    assert [r.get("refused") for r in done.results] == [None, None]
    traded = [e for r in done.results for e in r["events"] if e["kind"] == "traded"]
    assert len(traded) == 2 and traded[0]["cards"] != traded[1]["cards"]
    assert done.state["state"]["hands"]["P1"] == [] and done.state["state"]["sets_traded"] == 2
