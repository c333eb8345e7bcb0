"""Join the project's Axis & Allies Europe (1999) and Pacific (2001) data into the linked world game
of Rob Daviau's rules (``aa_linked_world``). Run once by hand; the output is committed:

    python tools/make_aa_linked_world.py

It reads the two shipped games (``src/interboard/games/axis_allies/data/``) and writes
``maps/aa_linked_world.json`` (one map file holding four printed boards: Europe, the interboard cards
between Russia and China and the Indian Ocean, Pacific, and the cards of the Americas) and
``aa_linked_world.json`` (powers in the linked order of play, territories, units, setup).

What the rules text gives is transcribed below (``INTERBOARD``: the ten interboard spaces and
exactly the connections the text lists). The decisions where it is silent are in
``docs/rules/axis-allies.md`` and are marked here where they shape the data.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "interboard" / "games" / "axis_allies" / "data"

# Both boards print a "Canada" and a "United States": Europe's are the east of North America,
# Pacific's the west (the surrender table names "Eastern Canada").
RENAMES = {
    "europe": {
        "CANADA": ("EASTERN_CANADA", "Eastern Canada"),
        "UNITED_STATES": ("EASTERN_UNITED_STATES", "Eastern United States"),
    },
    "pacific": {
        "CANADA": ("WESTERN_CANADA", "Western Canada"),
        "UNITED_STATES": ("WESTERN_UNITED_STATES", "Western United States"),
    },
}

ASIA = "Asia links"
AMERICAS = "America links"
BOARDS = [("Europe", 1800, 1000), (ASIA, 330, 1100), ("Pacific", 1800, 1100), (AMERICAS, 300, 1100)]
CARD = 58.0
"""Drawn radius of an interboard card."""

# The interboard spaces of the rules text: kind, the card's place in its strip, and every connection
# the text lists (ids after renaming; the text's "Canada & USA" is both North American spaces of
# that board).
INTERBOARD: list[dict[str, Any]] = [
    {
        "id": "NOVOSIBIRSK",
        "name": "Novosibirsk",
        "kind": "land",
        "board": ASIA,
        "at": [90, 430],
        "to": ["TURKESTAN", "EVENKI_NATL_OKRUG", "YAKUT_SSR", "TSINGHAI"],
    },
    {
        "id": "EVENKI_NATL_OKRUG",
        "name": "Evenki Nat'l Okrug",
        "kind": "land",
        "board": ASIA,
        "at": [80, 230],
        "to": ["SIBERIA", "NOVOSIBIRSK", "YAKUT_SSR"],
    },
    {
        "id": "YAKUT_SSR",
        "name": "Yakut SSR",
        "kind": "land",
        "board": ASIA,
        "at": [205, 320],
        "to": ["EVENKI_NATL_OKRUG", "NOVOSIBIRSK", "TSINGHAI", "SUIYUAN", "SOVIET_FAR_EAST"],
    },
    {
        "id": "SOVIET_FAR_EAST",
        "name": "Soviet Far East",
        "kind": "land",
        "board": ASIA,
        "at": [255, 150],
        "to": ["YAKUT_SSR", "SUIYUAN", "MANCHURIA", "SOVIET_UNION"],
    },
    {
        "id": "RED_SEA",
        "name": "Red Sea",
        "kind": "sea",
        "board": ASIA,
        "at": [100, 760],
        "to": ["EASTERN_MEDITERRANEAN", "SZ52"],
    },
    {
        "id": "INDIAN_OCEAN",
        "name": "Indian Ocean",
        "kind": "sea",
        "board": ASIA,
        "at": [225, 920],
        "to": ["REALLY_SOUTH_ATLANTIC", "SZ50"],
    },
    {
        "id": "REALLY_SOUTH_ATLANTIC",
        "name": "Really South Atlantic",
        "kind": "sea",
        "board": AMERICAS,
        "at": [150, 800],
        "to": ["SZ1", "INDIAN_OCEAN", "SOUTH_ATLANTIC"],
    },
    {
        "id": "PANAMA_CANAL",
        "name": "Panama Canal",
        "kind": "sea",
        "board": AMERICAS,
        "at": [150, 520],
        "to": ["SZ3", "CENTRAL_ATLANTIC"],
    },
    {
        "id": "ROCKY_MOUNTAINS",
        "name": "Rocky Mountains",
        "kind": "land",
        "board": AMERICAS,
        "at": [90, 180],
        "to": ["WESTERN_CANADA", "WESTERN_UNITED_STATES", "GREAT_PLAINS"],
    },
    {
        "id": "GREAT_PLAINS",
        "name": "Great Plains",
        "kind": "land",
        "board": AMERICAS,
        "at": [215, 300],
        "to": ["ROCKY_MOUNTAINS", "EASTERN_CANADA", "EASTERN_UNITED_STATES"],
    },
]
RUSSIAN = ("NOVOSIBIRSK", "EVENKI_NATL_OKRUG", "YAKUT_SSR", "SOVIET_FAR_EAST")
"""Belong to the USSR at the start and count as Europe board (the rules text)."""

MEDITERRANEAN = (
    "STRAIT_OF_GIBRALTAR",
    "WESTERN_MEDITERRANEAN",
    "TYRRHENIAN_SEA",
    "SICILIAN_SEA",
    "CENTRAL_MEDITERRANEAN",
    "ADRIATIC_SEA",
    "EASTERN_MEDITERRANEAN",
    "AEGEAN_SEA",
)
"""The Mediterranean's sea zones on the Europe board (its mouth at Gibraltar included, the Black Sea
not): the land touching them is "within or adjacent to the Mediterranean" for the UK's free infantry."""

ORDER = ["GERMANY", "USSR", "JAPAN", "UK", "CHINA", "USA"]
"""The text's order of play; China, played by the USA's seat, moves just before the USA as in
the Pacific rulebook."""


def _load(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    game = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    board = json.loads((DATA / "maps" / f"{name}.json").read_text(encoding="utf-8"))
    return game, board


def _rename(part: str, sid: str) -> str:
    return RENAMES[part].get(sid, (sid, ""))[0]


def build() -> tuple[dict[str, Any], dict[str, Any]]:
    europe, europe_map = _load("aa_europe_1999")
    pacific, pacific_map = _load("aa_pacific_2001")

    spaces: list[dict[str, Any]] = []
    army: list[list[str]] = []
    fleet: list[list[str]] = []
    for part, board_name, source in (("europe", "Europe", europe_map), ("pacific", "Pacific", pacific_map)):
        for sp in source["spaces"]:
            sid, name = RENAMES[part].get(sp["id"], (sp["id"], sp["name"]))
            spaces.append({**sp, "id": sid, "name": name, "board": board_name})
        for kind, out in (("army", army), ("fleet", fleet)):
            out.extend([_rename(part, a), _rename(part, b)] for a, b in source["adjacency"][kind])
    kinds = {sp["id"]: sp["kind"] for sp in spaces}
    for card in INTERBOARD:
        spaces.append(
            {
                "id": card["id"],
                "name": card["name"],
                "kind": card["kind"],
                "board": card["board"],
                "at": card["at"],
                "radius": CARD,
            }
        )
        kinds[card["id"]] = card["kind"]
    seen: set[tuple[str, str]] = set()
    for card in INTERBOARD:
        for other in card["to"]:
            pair = tuple(sorted((card["id"], other)))
            if pair in seen:
                continue
            seen.add(pair)  # type: ignore[arg-type]
            land = kinds[card["id"]] != "sea" and kinds[other] != "sea"
            sea = kinds[card["id"]] == "sea" and kinds[other] == "sea"
            if not (land or sea):
                raise SystemExit(f"{card['id']} - {other}: a card joins land to land or sea to sea")
            (army if land else fleet).append(list(pair))
    board = {
        "format": "interboard-map/1",
        "id": "aa_linked_world",
        "title": "Axis & Allies: the linked world game",
        "source": "The Europe (1999) and Pacific (2001) boards of this project joined by "
        "tools/make_aa_linked_world.py with the interboard spaces of Rob Daviau's linked game rules.",
        "boards": [{"id": n, "width": w, "height": h} for n, w, h in BOARDS],
        "spaces": spaces,
        "adjacency": {"army": army, "fleet": fleet},
    }

    territories: dict[str, Any] = {}
    for part, game in (("europe", europe), ("pacific", pacific)):
        for sid, t in game["territories"].items():
            t = dict(t)
            if part == "pacific" and t.get("owner") == "UK" and "economy" not in t:
                t["economy"] = "INDIA"  # the Pacific UK's first purse; Europe's are England's
            if part == "pacific" and t.get("capital") == "USA":
                t.pop("capital")  # one US capital, Washington, on the Europe board
                t.pop("victory_city", None)
            territories[_rename(part, sid)] = t
    # The Soviet Union of the Pacific board is Soviet, no longer neutral (the text: the UK and the USA
    # may land there unless Japan has taken it).
    territories["SOVIET_UNION"] = {"ipc": 0, "owner": "USSR"}
    for card in INTERBOARD:
        if card["id"] in RUSSIAN:
            territories[card["id"]] = {"ipc": 0, "owner": "USSR"}
        elif card["kind"] == "sea":
            territories[card["id"]] = {"ships_only": True}
        else:
            territories[card["id"]] = {"ipc": 0}
    for a, b in army + fleet:
        for sea, land in ((a, b), (b, a)):
            if sea in MEDITERRANEAN and kinds.get(land) != "sea":
                territories[land.split("/")[0]]["mediterranean"] = True
    territories["PANAMA_CANAL"].update({"ships_of": "allies", "closed_by_convoy": "SZ3"})

    powers: dict[str, dict[str, Any]] = {}
    for game in (europe, pacific):
        for p in game["powers"]:
            if p["id"] not in powers:
                powers[p["id"]] = {k: v for k, v in p.items() if k != "buys"} | {"buys": list(p["buys"])}
            else:
                have = powers[p["id"]]
                have["buys"] = sorted(set(have["buys"]) | set(p["buys"]))
                if "economies" in p:
                    have["economies"] = have.get("economies", []) + p["economies"]
                else:
                    have["ipcs"] = have.get("ipcs", 0) + p.get("ipcs", 0)  # one US purse for both
    powers["USSR"]["buys"] = sorted(set(powers["USSR"]["buys"]) - {"marine"})
    for p in powers.values():
        p["buys"] = sorted(p["buys"])

    setup: dict[str, dict[str, dict[str, int]]] = {}
    for part, game in (("europe", europe), ("pacific", pacific)):
        for pid, by_space in game["setup"].items():
            for sid, counts in by_space.items():
                into = setup.setdefault(pid, {}).setdefault(_rename(part, sid), {})
                for unit, n in counts.items():
                    into[unit] = into.get(unit, 0) + n

    game = {
        "format": "interboard-axis-allies/1",
        "id": "aa_linked_world",
        "title": "Axis & Allies: the linked world game",
        "source": "Rob Daviau's rules for linking A&A Europe and Pacific; the boards, units and setups "
        "of the two games as this project holds them; joined by tools/make_aa_linked_world.py.",
        "map": "aa_linked_world",
        "powers": [powers[pid] for pid in ORDER],
        # The Pacific game's unit table: it holds marines and the destroyer-transport, and its
        # transport (8 places) carries what Europe's (4 places) does.
        "units": pacific["units"],
        "territories": territories,
        "canals": europe["canals"]
        + [{"name": "the Suez Canal", "seas": ["RED_SEA", "EASTERN_MEDITERRANEAN"], "land": ["EGYPT"]}],
        "setup": setup,
    }
    return board, game


def main() -> None:
    board, game = build()
    (DATA / "maps" / "aa_linked_world.json").write_text(json.dumps(board, indent=1) + "\n", encoding="utf-8")
    (DATA / "aa_linked_world.json").write_text(json.dumps(game, indent=1) + "\n", encoding="utf-8")
    print(f"{len(board['spaces'])} spaces, {len(game['setup'])} powers set up")


if __name__ == "__main__":
    main()
