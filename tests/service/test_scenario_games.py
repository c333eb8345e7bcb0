"""A game started over HTTP from a scenario (``POST /api/games {"scenario": ...}``), on each database
of the ``db_url`` fixture; a broken scenario is a 422 that names the field and the rule."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from interboard.games import find_variant
from interboard.games import scenario as scenarios
from interboard.service.api import RateLimits, create_app

DOCS = Path(__file__).parent.parent.parent / "docs" / "scenarios"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, sweep=None, limits=RateLimits.off())) as c:
        yield c


@pytest.mark.parametrize("path", sorted(DOCS.glob("*.json")), ids=lambda p: p.stem)
def test_a_game_starts_from_a_scenario(client: TestClient, path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    r = client.post("/api/games", json={"scenario": data, "seats": {}})  # the variant is the scenario's
    assert r.status_code == 201, r.text
    game = client.get(f"/api/games/{r.json()['game_id']}").json()
    assert game["variant"] == data["variant"]
    chosen = scenarios.read(data)
    fam, _ = find_variant(chosen.variant)
    expected = fam.pending(scenarios.start_state(chosen, chosen.seed or 1))
    assert game["phase"] == expected.phase


def test_a_broken_scenario_is_refused_with_the_field_and_the_rule(client: TestClient) -> None:
    bad = {"variant": "aa_europe_1999", "position": {"units": ["GERMANY 1 battleship Germany"]}}
    r = client.post("/api/games", json={"scenario": bad})
    assert r.status_code == 422
    assert "scenario: position.units[0]: a battleship is a ship: it cannot be on land" in r.text
    before = client.get("/api/games").json()
    r = client.post("/api/games", json={"variant": "standard", "scenario": {"variant": "global_war"}})
    assert r.status_code == 422 and "not standard" in r.text
    scenario = {"variant": "global_war", "options": {"players": 3}}
    r = client.post(
        "/api/games", json={"variant": "global_war", "scenario": scenario, "options": {"players": 4}}
    )
    assert r.status_code == 422 and "not in both" in r.text
    r = client.post("/api/games", json={"scenario": {"variant": "standard", "title": "a\x00b"}})
    assert r.status_code == 422 and "scenario: text may not contain NUL characters" in r.text
    # Without 'variant' the body is read as the default variant's: its options are Diplomacy's.
    r = client.post("/api/games", json={"scenario": scenario, "options": {"players": 4}})
    assert r.status_code == 422 and "body.standard.options.players" in r.text
    assert client.get("/api/games").json() == before  # nothing refused was kept
