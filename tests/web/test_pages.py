"""The pages and the map endpoint over HTTP, without a browser: what the server sends and what it refuses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from interboard.service.api import RateLimits, create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(
        create_app(f"sqlite:///{tmp_path / 'pages.sqlite'}", sweep=None, limits=RateLimits.off())
    ) as c:
        yield c


def test_lobby_loads_its_script(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/lobby.js">' in page.text
    script = client.get("/static/lobby.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert client.get("/static/app.css").headers["content-type"].startswith("text/css")


def test_game_page_escapes_the_title_and_refuses_an_unknown_game(client: TestClient) -> None:
    created = client.post("/api/games", json={"title": "<script>alert(1)</script> & co"}).json()
    page = client.get(f"/games/{created['game_id']}")
    assert page.status_code == 200
    assert "<script>alert(1)" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page.text
    assert f'data-game-id="{created["game_id"]}"' in page.text
    missing = client.get("/games/nosuchgame")
    assert missing.status_code == 404 and missing.json() == {"error": "no game 'nosuchgame'"}


def test_map_of_the_current_position_and_refusals(client: TestClient) -> None:
    created = client.post("/api/games", json={"seats": {"FRANCE": "Fran"}}).json()
    gid = created["game_id"]
    svg = client.get(f"/api/games/{gid}/map.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.lstrip().startswith("<svg") and 'data-loc="STP/SC"' in svg.text
    assert svg.text.count('class="unit ') == 22  # an army or fleet per unit
    assert ">Spring 1901, movement<" in svg.text  # the map's title: the phase as players say it
    unplayed = client.get(f"/api/games/{gid}/map.svg?phase=0")
    assert unplayed.status_code == 404
    assert unplayed.json()["error"] == "phase 0 has not been played (the history has 0 phases)"
    assert client.get(f"/api/games/{gid}/map.svg?phase=-1").status_code == 422
    stranger = client.get(f"/api/games/{gid}/map.svg", headers={"Authorization": "Bearer nope"})
    assert stranger.status_code == 403 and "holds no seat" in stranger.json()["error"]
    assert client.get("/api/games/nosuchgame/map.svg").status_code == 404


def test_the_map_travels_gzipped_to_a_client_that_takes_gzip(client: TestClient) -> None:
    gid = client.post("/api/games", json={"seats": {"FRANCE": "Fran"}}).json()["game_id"]
    url = f"/api/games/{gid}/map.svg"
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.headers["vary"] == "Accept-Encoding"
    packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
    assert packed.headers["content-encoding"] == "gzip" and packed.headers["vary"] == "Accept-Encoding"
    # The client unpacks it: the same drawing, in under half the bytes.
    assert packed.text == plain.text
    assert int(packed.headers["content-length"]) < 0.5 * len(plain.content)
    refused = client.get(url, headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert "content-encoding" not in refused.headers


def test_every_variant_has_a_rules_page_built_from_its_rule_pages(client: TestClient) -> None:
    from interboard.games import variants

    index = client.get("/rules")
    assert index.status_code == 200 and index.headers["content-type"].startswith("text/html")
    for info in variants():
        assert f"href='/rules/{info.id}'" in index.text
        page = client.get(f"/rules/{info.id}")
        assert page.status_code == 200, info.id
        assert info.rules, f"{info.id} names no rule page"
        for name in info.rules:
            assert f"id='rules-{name}'" in page.text
        for option in info.options:
            assert f"<code>{option.name}</code>" in page.text
    te3 = client.get("/rules/twin_earths_3").text
    # The Markdown is rendered (headings, lists, code), its headings below the page's own.
    assert ">Twin Earths III (rm11, Lew Pulsipher)</h4>" in te3
    assert "<code>REINFORCE a b</code>" in te3
    heading = (
        "<h3 id='rules-diplomacy-diplomacy-how-the-game-is-played'>Diplomacy: how the game is played</h3>"
    )
    assert heading in te3
    assert "# The aim" not in te3
    missing = client.get("/rules/no_such_variant")
    assert missing.status_code == 404 and "no_such_variant" in missing.json()["error"]


def test_the_game_page_links_to_its_variants_rules(client: TestClient) -> None:
    created = client.post("/api/games", json={"variant": "hyperspace_2"}).json()
    assert 'href="/rules/hyperspace_2"' in client.get(f"/games/{created['game_id']}").text


def test_a_rules_page_an_installed_family_did_not_ship_is_said_missing_not_an_error() -> None:
    from interboard.games.protocol import VariantInfo
    from interboard.service.web import rules_html

    info = VariantInfo(
        "plugin_game", "plugin", "Plugin game", "from elsewhere", ("A", "B"), rules=("no-such-page",)
    )
    page = rules_html(info)
    assert "id='rules-no-such-page'" in page and "This rules page is not installed with this server." in page
