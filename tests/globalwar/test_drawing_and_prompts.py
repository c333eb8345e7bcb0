"""What a player sees of Global War on the game page: the world map with its legend and sea lines,
and each step's prompt in words (how many armies are left to deploy, what to click)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from interboard.games.globalwar import reinforcements
from interboard.games.globalwar.family import FAMILY, PLAYER_COLOURS, TEAM_COLOURS
from interboard.games.globalwar.maps import world
from interboard.games.globalwar.record import state_from_json
from interboard.games.globalwar.rules import Rules

NS = "{http://www.w3.org/2000/svg}"


def _classes(e: ET.Element) -> set[str]:
    return set(e.get("class", "").split())


def _all(root: ET.Element, css: str) -> list[ET.Element]:
    return [e for e in root.iter() if css in _classes(e)]


@pytest.mark.parametrize(("variant", "teams"), [("global_war", True), ("classic_world", False)])
def test_the_map_is_a_world_of_country_outlines_with_a_legend(variant: str, teams: bool) -> None:
    options: dict[str, bool | int] = {"teams": True} if teams else {"players": 4}
    state = FAMILY.new_state(variant, options, 7)
    view = FAMILY.view(state)
    root = ET.fromstring(FAMILY.draw(variant, view, {}, [], "T1"))
    board = world(variant).board
    spaces = {g.get("data-loc"): g for g in _all(root, "space") if g.tag == f"{NS}g"}
    assert set(spaces) == {sp.id for sp in board.spaces}
    palette = TEAM_COLOURS if teams else PLAYER_COLOURS
    for sp in board.spaces:
        group = spaces[sp.id]
        cell = group.find(f"{NS}path")
        assert cell is not None and "cell" in _classes(cell)
        # Its own outline, every point of it (not a cell around its point).
        assert cell.get("d", "").count("L") == len(sp.outline) - 1
        owner = view["owner"][sp.id]
        assert group.get("data-owner") == owner and group.get("data-colour") == palette[int(owner[1:]) - 1]
        title = group.find(f"{NS}title")
        armies = view["armies"][sp.id]
        assert (
            title is not None
            and title.text == f"{sp.name}: {owner}, {armies} arm{'y' if armies == 1 else 'ies'}"
        )
    # The seas are the background; the continents are outlined and named.
    assert _all(root, "sea") and len(_all(root, "sea-name")) == len(board.seas)
    regions = _all(root, "region")
    assert len(regions) == 6
    assert {"".join(e.itertext()) for e in _all(root, "region-name")} >= {
        "Asia (bonus 7)",
        "Australia (bonus 2)",
    }
    # One dashed line per sea crossing; Alaska-Kamchatka goes round the edge of the map: two pieces,
    # one leaving by the left edge near Alaska, one by the right edge near Kamchatka.
    lines = {
        frozenset((g.get("data-a"), g.get("data-b"))): g for g in _all(root, "sea-line") if g.tag == f"{NS}g"
    }
    assert set(lines) == {frozenset((board.spaces[a].id, board.spaces[b].id)) for a, b in board.sea_lines}
    wrap = lines[frozenset(("ALA", "KAM"))].findall(f"{NS}path")
    assert len(wrap) == 2 and all(p.get("stroke-dasharray") for p in wrap)
    frame = next(e for e in _all(root, "board-frame"))
    left, right = float(frame.get("x", "0")), float(frame.get("x", "0")) + float(frame.get("width", "0"))
    xs = sorted(float(v) for p in wrap for v in p.get("d", "")[1:].replace("L", " ").split()[::2])
    assert xs[0] == pytest.approx(left, abs=0.1) and xs[-1] == pytest.approx(right, abs=0.1)
    # The legend: each player's (or team's) colour with what each holds, and the dashed line.
    legend = [e for e in _all(root, "legend-item")]
    texts = ["".join(e.itertext()) for e in legend]
    assert any("adjacent" in t for t in texts)
    held = {p: sum(1 for o in view["owner"].values() if o == p) for p in set(view["owner"].values())}
    if teams:
        assert len(_all(root, "legend-team")) == 3
        assert any(
            t.startswith("Team 1 · ") and f"P1: {held['P1']} countries" in t and "P4: " in t for t in texts
        )
    else:
        assert len(_all(root, "legend-player")) == 4
    swatches = {
        e.get("data-power"): e.get("data-colour") for e in root.iter(f"{NS}rect") if e.get("data-power")
    }
    assert swatches == {f"P{k}": palette[k - 1] for k in range(1, (6 if teams else 4) + 1)}


def _deploy_once(state: dict[str, object], seat: str, n: int) -> dict[str, object]:
    tree = FAMILY.options(state, seat)
    country = next(k for k, v in tree["orders"].items() if "deploy" in v)
    return FAMILY.process(state, {seat: [tree["orders"][country]["deploy"][str(n)]]}).state


def test_the_prompt_says_how_many_armies_are_left_to_deploy() -> None:
    state = FAMILY.new_state("classic_world", {"players": 4}, 3)
    s = state_from_json(Rules.from_json(state["rules"]), state["state"])
    pool = s.pool
    assert pool == reinforcements(s, s.current)[0] > 0
    seat = f"P{s.current + 1}"
    prompt = FAMILY.pending(state).prompts[seat]
    assert prompt == FAMILY.options(state, seat)["prompt"]
    assert f"{seat}: deploy {pool} armies: click one of your countries" in prompt
    assert FAMILY.options(state, seat)["labels"]  # the buttons name the countries
    # One army deployed, the rest still to deploy.
    state = _deploy_once(state, seat, 1)
    assert f"deploy {pool - 1} arm" in FAMILY.pending(state).prompts[seat]
    state = _deploy_once(state, seat, pool - 1)
    attack = FAMILY.pending(state).prompts[seat]
    assert "attack: click one of your countries with 2 or more armies, then an enemy neighbour" in attack


def test_a_team_player_is_told_it_may_deploy_on_its_partners_countries() -> None:
    state = FAMILY.new_state("global_war", {"teams": True}, 5)
    prompt = FAMILY.pending(state).prompts["P1"]
    pool = FAMILY.view(state)["pool"]
    assert prompt.startswith(
        f"Turn 1, P1: deploy {pool} armies: click one of your countries (or one of your partner P4's)"
    )
    counts = FAMILY.view(state)["counts"]
    assert sum(counts["countries"].values()) == 42
    assert counts["armies"]["P1"] == sum(
        a for c, a in FAMILY.view(state)["armies"].items() if FAMILY.view(state)["owner"][c] == "P1"
    )


def test_the_legend_keeps_an_eliminated_player() -> None:
    state = FAMILY.new_state("classic_world", {"players": 4}, 7)
    view = FAMILY.view(state)
    view["owner"] = {c: ("P1" if o == "P4" else o) for c, o in view["owner"].items()}
    view["eliminated"] = ["P4"]
    root = ET.fromstring(FAMILY.draw("classic_world", view, {}, [], "T"))
    texts = ["".join(e.itertext()) for e in _all(root, "legend-player")]
    assert texts[3] == "P4: out" and texts[0].startswith("P1: ") and len(texts) == 4
