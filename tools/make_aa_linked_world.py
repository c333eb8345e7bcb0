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

import mapfile

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
STRIP_WIDTH = {ASIA: 330, AMERICAS: 300}
"""The card strips' widths; they are as high as the boards they join."""

# The interboard spaces of the rules text: kind, the card's rectangle in its strip ([x0, y0, x1, y1]:
# cards that the text joins share an edge, others keep apart), and every connection
# the text lists (ids after renaming; the text's "Canada & USA" is both North American spaces of
# that board).
INTERBOARD: list[dict[str, Any]] = [
    {
        "id": "NOVOSIBIRSK",
        "name": "Novosibirsk",
        "kind": "land",
        "board": ASIA,
        "card": [10, 330, 165, 520],
        "to": ["TURKESTAN", "EVENKI_NATL_OKRUG", "YAKUT_SSR", "TSINGHAI"],
    },
    {
        "id": "EVENKI_NATL_OKRUG",
        "name": "Evenki Nat'l Okrug",
        "kind": "land",
        "board": ASIA,
        "card": [10, 120, 165, 330],
        "to": ["SIBERIA", "NOVOSIBIRSK", "YAKUT_SSR"],
    },
    {
        "id": "YAKUT_SSR",
        "name": "Yakut SSR",
        "kind": "land",
        "board": ASIA,
        "card": [165, 240, 320, 440],
        "to": ["EVENKI_NATL_OKRUG", "NOVOSIBIRSK", "TSINGHAI", "SUIYUAN", "SOVIET_FAR_EAST"],
    },
    {
        "id": "SOVIET_FAR_EAST",
        "name": "Soviet Far East",
        "kind": "land",
        "board": ASIA,
        "card": [175, 40, 320, 240],
        "to": ["YAKUT_SSR", "SUIYUAN", "MANCHURIA", "SOVIET_UNION"],
    },
    {
        "id": "RED_SEA",
        "name": "Red Sea",
        "kind": "sea",
        "board": ASIA,
        "card": [20, 680, 180, 840],
        "to": ["EASTERN_MEDITERRANEAN", "SZ52"],
    },
    {
        "id": "INDIAN_OCEAN",
        "name": "Indian Ocean",
        "kind": "sea",
        "board": ASIA,
        "card": [150, 900, 320, 1060],
        "to": ["REALLY_SOUTH_ATLANTIC", "SZ50"],
    },
    {
        "id": "REALLY_SOUTH_ATLANTIC",
        "name": "Really South Atlantic",
        "kind": "sea",
        "board": AMERICAS,
        "card": [40, 760, 260, 960],
        "to": ["SZ1", "INDIAN_OCEAN", "SOUTH_ATLANTIC"],
    },
    {
        "id": "PANAMA_CANAL",
        "name": "Panama Canal",
        "kind": "sea",
        "board": AMERICAS,
        "card": [40, 480, 260, 620],
        "to": ["SZ3", "CENTRAL_ATLANTIC"],
    },
    {
        "id": "ROCKY_MOUNTAINS",
        "name": "Rocky Mountains",
        "kind": "land",
        "board": AMERICAS,
        "card": [10, 100, 150, 300],
        "to": ["WESTERN_CANADA", "WESTERN_UNITED_STATES", "GREAT_PLAINS"],
    },
    {
        "id": "GREAT_PLAINS",
        "name": "Great Plains",
        "kind": "land",
        "board": AMERICAS,
        "card": [150, 200, 290, 400],
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


def _share_corners(cards: list[dict[str, Any]]) -> None:
    """Cards that share an edge use the same points along it, as the loader wants: a corner of one
    card lying on another's edge becomes a point of that edge too."""
    corners = {tuple(p) for card in cards for p in card["outline"]}
    for card in cards:
        ring = card["outline"]
        out: list[list[float]] = []
        for k, p in enumerate(ring):
            q = ring[(k + 1) % len(ring)]
            out.append(p)
            between = [
                c
                for c in corners
                if (c[0] == p[0] == q[0] and min(p[1], q[1]) < c[1] < max(p[1], q[1]))
                or (c[1] == p[1] == q[1] and min(p[0], q[0]) < c[0] < max(p[0], q[0]))
            ]
            between.sort(key=lambda c: abs(c[0] - p[0]) + abs(c[1] - p[1]))
            out.extend(list(c) for c in between)
        card["outline"] = out


def build() -> tuple[dict[str, Any], dict[str, Any]]:
    europe, europe_map = _load("aa_europe_1999")
    pacific, pacific_map = _load("aa_pacific_2001")

    spaces: list[dict[str, Any]] = []
    army: list[list[str]] = []
    fleet: list[list[str]] = []
    # The two boards as drawn from real geography (tools/make_real_maps.py), each keeping its
    # outlines, scenery, walls and passages; the card strips between them are as high as they.
    height = max(m["drawing"]["height"] for m in (europe_map, pacific_map))
    boards = [
        {"id": "Europe", "width": europe_map["drawing"]["width"], "height": europe_map["drawing"]["height"]},
        {"id": ASIA, "width": STRIP_WIDTH[ASIA], "height": height},
        {
            "id": "Pacific",
            "width": pacific_map["drawing"]["width"],
            "height": pacific_map["drawing"]["height"],
        },
        {"id": AMERICAS, "width": STRIP_WIDTH[AMERICAS], "height": height},
    ]
    drawing: dict[str, Any] = {"sea_lines": [], "walls": [], "scenery": []}
    for part, board_name, source in (("europe", "Europe", europe_map), ("pacific", "Pacific", pacific_map)):
        for sp in source["spaces"]:
            sid, name = RENAMES[part].get(sp["id"], (sp["id"], sp["name"]))
            kept = {k: v for k, v in sp.items() if k not in ("geo", "coast_geo")}
            spaces.append({**kept, "id": sid, "name": name, "board": board_name})
        for kind, out in (("army", army), ("fleet", fleet)):
            out.extend([_rename(part, a), _rename(part, b)] for a, b in source["adjacency"][kind])
        drawn = source["drawing"]
        drawing["label_size"] = drawn["label_size"]
        for key in ("sea_lines", "walls"):
            drawing[key] += [[_rename(part, a), _rename(part, b)] for a, b in drawn.get(key, [])]
        drawing["scenery"] += [{"board": board_name, "polygon": piece} for piece in drawn.get("scenery", [])]
    kinds = {sp["id"]: sp["kind"] for sp in spaces}
    for card in INTERBOARD:
        x0, y0, x1, y1 = card["card"]
        spaces.append(
            {
                "id": card["id"],
                "name": card["name"],
                "kind": card["kind"],
                "board": card["board"],
                "at": [(x0 + x1) / 2, (y0 + y1) / 2 - 25],
                "outline": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
                "label_at": [(x0 + x1) / 2, (y0 + y1) / 2 + 40],
            }
        )
        kinds[card["id"]] = card["kind"]
    _share_corners([sp for sp in spaces if sp["id"] in {c["id"] for c in INTERBOARD}])
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
        "boards": boards,
        "drawing": drawing,
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
    (DATA / "maps" / "aa_linked_world.json").write_text(mapfile.dump(board), encoding="utf-8")
    (DATA / "aa_linked_world.json").write_text(json.dumps(game, indent=1) + "\n", encoding="utf-8")
    print(f"{len(board['spaces'])} spaces, {len(game['setup'])} powers set up")


if __name__ == "__main__":
    main()
