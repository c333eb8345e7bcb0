"""The two games' data, converted once from the published facts, checked against their totals."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from interboard.board import SpaceKind
from interboard.games.axis_allies.gamedata import GameData, game_data
from interboard.games.axis_allies.units import Domain

EUROPE = "aa_europe_1999"
PACIFIC = "aa_pacific_2001"


def income(data: GameData) -> dict[str, int]:
    """Each power's (or economy's) income at the start: territories and convoy centres it holds,
    without the Middle East, whose IPCs are paid to Germany only when Germany holds them."""
    out: Counter[str] = Counter()
    for t in data.territories.values():
        if t.owner is not None and not t.middle_east:
            out[t.economy or t.owner] += t.ipc + t.convoy
    return dict(out)


@pytest.mark.parametrize(
    ("game", "land", "sea", "neutral"),
    [(EUROPE, 61, 35, 7), (PACIFIC, 62, 54, 2)],
    ids=["europe_spaces", "pacific_spaces"],
)
def test_space_counts(game: str, land: int, sea: int, neutral: int) -> None:
    data = game_data(game)
    kinds = Counter("sea" if s.kind is SpaceKind.SEA else "land" for s in data.board.spaces)
    assert (kinds["land"], kinds["sea"]) == (land, sea)
    assert sum(t.neutral for t in data.territories.values()) == neutral


def test_starting_incomes_europe() -> None:
    assert income(game_data(EUROPE)) == {"GERMANY": 40, "USSR": 24, "UK": 25, "USA": 40}
    data = game_data(EUROPE)
    assert (
        sum(t.ipc for t in data.territories.values() if t.middle_east) == 8
    )  # Egypt 1, Syria 1, Trans-Jordan 2, Iraq 2, Iran 2
    assert {p.id: p.economies[0].ipcs for p in data.powers} == {
        "GERMANY": 40,
        "USSR": 24,
        "UK": 25,
        "USA": 40,
    }


def test_starting_incomes_pacific() -> None:
    data = game_data(PACIFIC)
    found = income(data)
    assert (found["JAPAN"], found["UK"], found["AUSTRALIA"], found["USA"]) == (19, 22, 25, 75)
    uk = data.power("UK")
    assert [(e.id, e.capital, e.ipcs) for e in uk.economies] == [
        ("INDIA", "INDIA", 22),
        ("AUSTRALIA", "NEW_SOUTH_WALES", 25),
    ]
    assert data.power("JAPAN").kamikaze_tokens == 6
    assert sorted(s for s, t in data.territories.items() if t.kamikaze) == [
        "SZ23",
        "SZ24",
        "SZ25",
        "SZ35",
        "SZ36",
        "SZ37",
    ]


# The starting forces, pinned as converted (buildings included: factories, AA guns, and the Pacific
# game's airfields and harbours); a change to the data must be deliberate.
@pytest.mark.parametrize(
    ("game", "power", "units"),
    [
        (EUROPE, "GERMANY", 98),
        (EUROPE, "USSR", 67),
        (EUROPE, "UK", 33),
        (EUROPE, "USA", 8),
        (PACIFIC, "JAPAN", 106),
        (PACIFIC, "UK", 72),
        (PACIFIC, "CHINA", 19),
        (PACIFIC, "USA", 50),
    ],
)
def test_starting_forces(game: str, power: str, units: int) -> None:
    data = game_data(game)
    assert sum(n for counts in data.setup[power].values() for n in counts.values()) == units
    for sid, counts in data.setup[power].items():
        space = data.board.spaces[data.board.space_by_id[sid]]
        for unit in counts:
            kind = data.units[unit].domain
            if kind is Domain.SEA:
                assert space.kind is SpaceKind.SEA, (sid, unit)
            elif kind in (Domain.LAND, Domain.BUILDING):
                assert space.kind is not SpaceKind.SEA, (sid, unit)


@pytest.mark.parametrize(
    ("unit", "values"),
    [
        ("infantry", (1, 2, 1, 3)),
        ("artillery", (2, 2, 1, 4)),
        ("armour", (3, 2, 2, 5)),
        ("fighter", (3, 4, 4, 12)),
        ("bomber", (4, 1, 6, 15)),
        ("transport", (0, 1, 2, 8)),
        ("submarine", (2, 2, 2, 8)),
        ("destroyer", (3, 3, 2, 12)),
        ("carrier", (1, 3, 2, 18)),
        ("battleship", (4, 4, 2, 24)),
        ("aa_gun", (0, 0, 1, 5)),
    ],
)
def test_unit_values_europe(unit: str, values: tuple[int, int, int, int]) -> None:
    u = game_data(EUROPE).units[unit]
    assert (u.attack, u.defence, u.movement, u.cost) == values


def test_german_forces_by_type() -> None:
    found: Counter[str] = Counter()
    for counts in game_data(EUROPE).setup["GERMANY"].values():
        found.update(counts)
    assert dict(found) == {
        "infantry": 50, "artillery": 10, "armour": 13, "fighter": 6, "bomber": 1, "aa_gun": 2, "factory": 2,
        "battleship": 1, "destroyer": 1, "transport": 2, "submarine": 10,
    }  # fmt: skip


def test_unit_abilities() -> None:
    eu, pac = game_data(EUROPE).units, game_data(PACIFIC).units
    assert eu["battleship"].hits == 2 and eu["battleship"].has("bombard")
    assert eu["submarine"].has("submarine") and eu["destroyer"].has("destroyer")
    assert eu["artillery"].has("artillery") and eu["infantry"].has("supportable")
    assert eu["armour"].has("blitz") and eu["bomber"].has("strategic_bomber")
    assert eu["aa_gun"].has("anti_aircraft") and not eu["aa_gun"].fights
    assert eu["carrier"].carrier_capacity == 2 and eu["fighter"].carrier_cost == 1
    assert eu["transport"].transport_capacity == 4 and eu["infantry"].transport_cost == 2
    assert "marine" not in eu and pac["marine"].has("marine") and pac["marine"].cost == 4
    assert pac["destroyer"].transport_capacity == 3  # Japan's destroyer-transports carry one infantry
    assert game_data(PACIFIC).power("USA").buys.count("factory") == 1
    assert game_data(PACIFIC).power("CHINA").buys == ()


def test_europe_rule_facts() -> None:
    t = game_data(EUROPE).territories
    assert sorted(s for s, x in t.items() if x.conversion) == [
        "ARCHANGEL",
        "LENINGRAD",
        "MOSCOW",
        "STALINGRAD",
    ]
    assert sorted(s for s, x in t.items() if x.convoy) == [
        "BRITISH_CONVOY_1", "BRITISH_CONVOY_2", "BRITISH_CONVOY_3", "BRITISH_CONVOY_4",
        "SOVIET_CONVOY", "US_CONVOY_1", "US_CONVOY_2",
    ]  # fmt: skip
    assert {s: x.capital for s, x in t.items() if x.capital} == {
        "GERMANY": "GERMANY", "MOSCOW": "USSR", "UNITED_KINGDOM": "UK", "UNITED_STATES": "USA",
    }  # fmt: skip
    canal = game_data(EUROPE).canals[0]
    assert canal.name == "The Bosphorus" and canal.land == ("TURKEY",)


INTERBOARD = json.loads((Path(__file__).parent / "cases" / "interboard.json").read_text(encoding="utf-8"))


def test_the_linked_world_joins_the_boards_by_exactly_the_cards_of_the_text() -> None:
    data = game_data("aa_linked_world")
    board = data.board
    europe, pacific = game_data(EUROPE).board, game_data(PACIFIC).board
    cards = INTERBOARD["cards"]
    assert len(board.spaces) == len(europe.spaces) + len(pacific.spaces) + len(cards)
    for card, spec in cards.items():
        space = board.space(card)
        assert (space.kind is SpaceKind.SEA) == (spec["kind"] == "sea"), card
        loc = board.location_by_id[card]
        joined = {
            board.spaces[board.locations[x].space].id for x in board.army_adj[loc] | board.fleet_adj[loc]
        }
        assert joined == set(spec["to"]), card
    # Nothing else crosses from one printed board to another.
    for space in board.spaces:
        loc = board.location_by_id[space.id]
        for x in board.army_adj[loc] | board.fleet_adj[loc]:
            other = board.spaces[board.locations[x].space]
            if other.board != space.board:
                assert space.id in cards or other.id in cards, (space.id, other.id)
    for sid, printed in INTERBOARD["boards"].items():
        assert board.space(sid).board == printed, sid


def test_the_linked_world_keeps_each_boards_own_connections() -> None:
    board = game_data("aa_linked_world").board
    renamed = {
        ("Europe", "CANADA"): "EASTERN_CANADA",
        ("Europe", "UNITED_STATES"): "EASTERN_UNITED_STATES",
        ("Pacific", "CANADA"): "WESTERN_CANADA",
        ("Pacific", "UNITED_STATES"): "WESTERN_UNITED_STATES",
    }
    for printed, game in (("Europe", EUROPE), ("Pacific", PACIFIC)):
        source = game_data(game).board
        for loc in source.locations:
            a = renamed.get((printed, loc.id), loc.id)
            for x in source.army_adj[loc.index] | source.fleet_adj[loc.index]:
                b_id = source.locations[x].id
                b = renamed.get((printed, b_id), b_id)
                la, lb = board.location_by_id[a], board.location_by_id[b]
                assert lb in board.army_adj[la] | board.fleet_adj[la], (a, b)
