"""The Vernian variant's data: what the seed fixes holds in the stand-in maps and counters."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from interboard.games.hexwar import gamedata
from interboard.games.hexwar.gamedata import GameData, GameDataError, game_data, load_folder


@pytest.fixture(scope="module")
def data() -> GameData:
    return game_data("vernian_wwi")


def test_every_file_says_it_is_a_stand_in() -> None:
    folder = resources.files("interboard.games.hexwar.data").joinpath("vernian")
    for name in ("game.json", "west.json", "england.json", "counters.json"):
        content = json.loads(folder.joinpath(name).read_text(encoding="utf-8"))
        assert content["stand_in"] is True, name
        assert "STAND-IN" in content["source"], name


def test_the_crossing_hex_is_calais_w7005_and_dover_is_in_england(data: GameData) -> None:
    assert data.hex("W7005").name == "Calais"
    crossing = data.geography.link("crossing")
    assert (crossing.a, crossing.b, crossing.carries) == ("W7005", "E0214", ("air",))
    assert data.hex("E0214").name == "Dover" and data.hex("E0214").map == "england"
    tunnel = data.geography.link("tunnel")
    assert tunnel.a == "E0214" and tunnel.b == "MUNICH" and tunnel.closes
    assert {data.hex(h).name for h in data.england["landing_hexes"]} == {"Dover", "Ramsgate", "Folkestone"}


def test_paris_and_the_ruhr_count_two(data: GameData) -> None:
    by_name: dict[str, list[int]] = {}
    for h in data.geography.by_id.values():
        if h.get("victory"):
            by_name.setdefault(h.name.split(" (")[0], []).append(int(h.get("victory")))
    assert by_name["Paris"] == [2, 2, 2, 2]
    for ruhr in ("Essen", "Bochum", "Duisburg"):
        assert by_name[ruhr] == [2], ruhr
    assert by_name["Aachen"] == [1] and data.hex("W4706").get("nation") == "GE"


def test_the_victory_goals_are_reachable(data: GameData) -> None:
    french = sum(v for c, v in data.victory_value.items() if data.geography.hexes[c].get("nation") == "FR")
    german = sum(v for c, v in data.victory_value.items() if data.geography.hexes[c].get("nation") == "GE")
    assert french > 11 and german > 6, (french, german)


def test_board_edge_hexes_are_never_victory_hexes(data: GameData) -> None:
    edges = 0
    for m in data.geography.maps:
        for edge in ("north", "south", "east", "west"):
            edges |= data.edge_mask(m.id, edge)
    assert not any((edges >> c) & 1 for c in data.victory_value)
    assert data.hex("W3315").name == "Mannheim" and not data.hex("W3315").get("victory")


def test_a_city_on_the_board_edge_is_played_as_a_town(data: GameData) -> None:
    """Part II: board edge hexes are not city hexes. The map files keep the city; the data layer,
    which every rule asks, says town."""
    for hid in ("W3900", "W3315"):  # Dortmund, Mannheim
        cell = data.hex(hid).index
        assert data.hex(hid).get("place") == "city"
        assert data.place(cell) == "town"
        assert not (data.cities >> cell) & 1 and (data.towns >> cell) & 1
        assert cell not in data.victory_value
    assert not data.cities & data.board_edge_hexes
    assert data.place(data.hex("W4706").index) == "city"  # Aachen, inside the map


def test_only_the_data_layer_reads_a_hexs_place_from_the_map_file() -> None:
    """So that no rule can forget what the data layer says of board-edge hexes."""
    folder = Path(gamedata.__file__).parent
    readers = sorted(p.name for p in folder.glob("*.py") if 'get("place")' in p.read_text(encoding="utf-8"))
    assert readers == ["gamedata.py"]


def test_london_its_six_neighbours_and_birmingham_are_cities(data: GameData) -> None:
    london = data.hex("E1011")
    ring = [data.geography.hexes[c] for c in data.geography.neighbours[london.index]]
    assert london.name == "London" and len(ring) == 6
    assert all(h.get("place") == "city" for h in [london, *ring])
    assert sorted(h.id for h in [london, *ring]) == sorted(data.victory["Germany"][1]["hexes"])
    birmingham = next(h for h in data.geography.by_id.values() if h.name == "Birmingham")
    assert birmingham.get("place") == "city"
    assert not (data.edge_mask("england", "north") >> birmingham.index) & 1


def test_the_allied_ultimate_sources(data: GameData) -> None:
    allied = data.ultimate_masks["Allies"]
    assert (allied >> data.hex("E1011").index) & 1
    assert data.edge_mask("england", "north") & data.passable & ~allied == 0
    assert not (allied >> data.hex("W6720").index) & 1  # Paris is a source only through its line
    german = data.ultimate_masks["Germany"]
    assert german and all(
        data.geography.hexes[c].get("nation") == "GE" for c in data.geography.bitboard.bits(german)
    )


def test_belgian_cities_include_liege_a_fortress_and_mons(data: GameData) -> None:
    liege, mons = data.hex("W4907"), data.hex("W5809")
    assert (liege.name, liege.get("place"), liege.get("fortress")) == ("Liège", "fortress", 2)
    assert (mons.name, mons.get("place"), mons.get("nation")) == ("Mons", "city", "BE")


def test_the_seeds_reinforcement_codes_all_exist(data: GameData) -> None:
    codes: dict[str, set[str]] = {}
    for c in data.counters:
        codes.setdefault(c.nation, set()).add(c.code)
    assert {"B", "I", "J", "O", "K"} <= codes["GE"]
    assert {"A", "K"} <= codes["BR"] and any(code > "G" and code != "K" for code in codes["BR"])
    assert {"+3", "+4", "+5", "+6", "+7"} <= codes["US"]
    assert any(code >= "G" for code in codes["FR"] if len(code) == 1)
    assert sum(1 for c in data.counters if c.nation == "BR" and c.code == "A") == 1


def test_counters_carry_attack_defence_movement(data: GameData) -> None:
    assert data.types["GE-corps"].sides == ((5, 5, 4), (3, 3, 4))
    assert data.types["FR-corps"].sides == ((4, 5, 4), (2, 3, 4))
    assert data.types["GE-div"].yellow and data.types["GE-div"].crack_side == (5, 3, 5)
    assert data.types["GE-hq-2-2"].guns == (2, 2) and data.types["FR-hq-0-3"].guns == (0, 3)
    assert all(t.sides[0][2] == 3 for t in data.types.values() if t.kind == "hq")


def test_the_base_set_up_is_on_passable_hexes_within_the_stacking_limits(data: GameData) -> None:
    sizes: dict[str, int] = {}
    hqs: dict[str, int] = {}
    for c in data.counters:
        if c.start is None:
            continue
        assert (data.passable >> data.hex(c.start).index) & 1, c.id
        assert data.side_of(data.hex(c.start).get("nation")) == data.side_of(c.nation), c.id
        if c.type.kind == "hq":
            hqs[c.start] = hqs.get(c.start, 0) + 1
        else:
            sizes[c.start] = sizes.get(c.start, 0) + c.type.size
    assert max(sizes.values()) <= data.stacking_size and max(hqs.values()) <= data.stacking_hq


def _with_starts(monkeypatch: pytest.MonkeyPatch, starts: dict[str, str]) -> None:
    """Load the data with these counters starting on these hexes."""
    real = gamedata._read

    def read(folder: str, name: str) -> Any:
        content = real(folder, name)
        if name == "counters.json":
            for unit in content["units"]:
                if unit["id"] in starts:
                    unit["code"], unit["start"] = "S", starts[unit["id"]]
        return content

    monkeypatch.setattr(gamedata, "_read", read)


def test_a_base_set_up_over_the_zeppelin_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_starts(monkeypatch, {"GE-Z06": "W4706"})  # a sixth beside the five in Aachen
    with pytest.raises(GameDataError, match=r"the base set-up: W4706 would hold 6 Zeppelins \(limit 5\)"):
        load_folder("vernian")


def test_a_base_set_up_over_the_ground_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_starts(monkeypatch, {"GE-C25": "W4402", "GE-C26": "W4402"})  # two corps beside two
    with pytest.raises(GameDataError, match=r"W4402 would hold 8 division-equivalents \(limit 6\)"):
        load_folder("vernian")


def test_the_combat_table_reads_down_for_the_attacker(data: GameData) -> None:
    """High odds rarely fail and an even attack costs both sides: the stand-in's design goals."""
    last = data.results
    assert all(last[d][-1].attacker == 0 for d in range(1, 7))
    for die in range(1, 7):
        defender = [r.defender for r in data.results[die]]
        assert defender == sorted(defender), die
    even = data.column_names.index("1:1")
    assert sum(data.results[d][even].attacker for d in range(1, 7)) >= 6
    assert (
        data.column_index(3, 6) == 0
        and data.column_index(5, 3) == 2
        and data.column_index(4, 3) == 1
        and data.column_index(10, 3) == 4
    )
    assert data.column_index(2, 5) == -1 and data.column_index(70, 3) == len(data.columns) - 1


def test_an_unknown_game_or_folder_is_named() -> None:
    with pytest.raises(GameDataError, match="unknown hex wargame 'chess'"):
        game_data("chess")
    with pytest.raises(GameDataError, match=r"nowhere/game\.json: missing"):
        load_folder("nowhere")


SCHEDULE = json.loads((Path(__file__).parent / "schedule.json").read_text(encoding="utf-8"))
INVENTION_KINDS = {"zeppelin", "flyer", "tank", "afb"}


@pytest.mark.parametrize("case", SCHEDULE["cases"], ids=[c["name"] for c in SCHEDULE["cases"]])
def test_the_seeds_schedule_of_inventions(data: GameData, case: dict[str, Any]) -> None:
    when = "start" if case["turn"] == "S" else case["turn"]  # when the counter comes, not its code
    arriving: Counter[str] = Counter(
        c.type.id for c in data.counters if data.code_arrival(c) == when and c.type.kind in INVENTION_KINDS
    )
    assert dict(arriving) == case["arrive"]
    assert data.air["flips"].get(case["turn"], 0) == case.get("flips", 0)
