"""Convert the facts of Axis & Allies Europe (1999) and Pacific (2001) from TripleA's game files into
interboard's own data files. Run once by hand; the output is committed:

    python tools/convert_axis_allies.py --europe PATH/europe_AAE.xml --pacific PATH/pacific.xml

The game files are the TripleA map project's (``triplea-maps``: ``europe map/games/europe_AAE.xml``
and ``pacific map/games/pacific.xml``); they are read, never copied. What is taken from them is facts:
spaces, connections, IPC values, owners, capitals, factories, convoy and kamikaze zones, canals, unit
values, costs and abilities, the starting forces and treasuries, and who may buy what. Drawing
positions come from ``tools/axis_allies/layout.json`` (the project's own). Facts the files do not
hold, or hold wrongly, are added here with the reason (``FACTS``).

Output, under ``src/interboard/games/axis_allies/data/``: ``maps/<game>.json`` (the board, in the
``interboard-map/1`` format) and ``<game>.json`` (the game: powers, territories, units, setup).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

import mapfile

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "interboard" / "games" / "axis_allies" / "data"
LAYOUT = Path(__file__).resolve().parent / "axis_allies" / "layout.json"

POWERS = {
    # TripleA player -> (power, economy): the UK keeps one purse per economy (India, Australia).
    "Germans": ("GERMANY", None),
    "Russians": ("USSR", None),
    "British": ("UK", None),
    "Americans": ("USA", None),
    "Japanese": ("JAPAN", None),
    "Australians": ("UK", "AUSTRALIA"),
    "Chinese": ("CHINA", None),
}
POWER_INFO = {
    # name, side, colour, and the short name a stack's label gives it (``Ger 3i 1a``)
    "GERMANY": ("Germany", "axis", "#5a5a5a", "Ger"),
    "USSR": ("Soviet Union", "allies", "#a8322d", "Sov"),
    "UK": ("United Kingdom", "allies", "#c8a35a", "UK"),
    "USA": ("United States", "allies", "#3f7a3a", "US"),
    "JAPAN": ("Japan", "axis", "#e08a1e", "Jpn"),
    "CHINA": ("China", "allies", "#2f6fa8", "Chn"),
}
UNIT_SYMBOLS = {
    # The letter a stack's label counts a unit type by (capitals for the big ships and buildings).
    "infantry": "i", "marine": "m", "armour": "a", "artillery": "r", "fighter": "f", "bomber": "b",
    "transport": "t", "submarine": "s", "destroyer": "d", "carrier": "c", "battleship": "B",
    "factory": "F", "aa_gun": "g", "airfield": "A", "harbour": "H",
}  # fmt: skip

GAMES = {
    # Longitude and latitude knots (degrees, share of the drawing): the oceans are drawn narrower
    # than the crowded lands, as the printed boards do.
    "aa_europe_1999": {
        "title": "Axis & Allies Europe (1999)",
        "width": 1800,
        "height": 1000,
        "lon": ((-92.0, 0.0), (-25.0, 0.2), (-12.0, 0.27), (50.0, 0.88), (78.0, 1.0)),
        "lat": ((78.0, 0.0), (66.0, 0.12), (30.0, 0.86), (18.0, 1.0)),
        "sea_spacing": 60.0,
    },
    "aa_pacific_2001": {
        "title": "Axis & Allies Pacific (2001)",
        "width": 1800,
        "height": 1100,
        "lon": ((70.0, 0.0), (150.0, 0.6), (250.0, 1.0)),
        "lat": ((58.0, 0.0), (-48.0, 1.0)),
        "sea_spacing": 110.0,
    },
}

FACTS: dict[str, dict[str, Any]] = {
    "aa_europe_1999": {
        # The Europe rulebook: these pay Germany when it holds them, not the UK's income (TripleA
        # counts them as ordinary British territories, its notes say).
        "middle_east": ["Egypt", "Syria", "Trans-Jordan", "Iraq", "Iran"],
        # The Soviet factories where Allied units may be converted; TripleA also marks Vyborg, which
        # has no factory: a mistake (the rule names the territories with a Soviet factory).
        "conversion": ["Leningrad", "Moscow", "Stalingrad", "Archangel"],
        "mediterranean_home": ["Gibraltar", "Malta", "Cyprus"],
        "economy_capitals": {"UK": {"ENGLAND": "United Kingdom"}},
    },
    "aa_pacific_2001": {
        "economy_capitals": {"UK": {"INDIA": "India", "AUSTRALIA": "New South Wales"}},
        # Where the Pacific rulebook lets Japan's kamikaze strike (sea zones 23-25 and 35-37).
        "kamikaze": [
            "23 Sea Zone",
            "24 Sea Zone",
            "25 Sea Zone",
            "35 Sea Zone",
            "36 Sea Zone",
            "37 Sea Zone",
        ],
        "oil": ["Borneo", "Sumatra", "Java", "Celebes"],
        # China buys nothing: the Pacific rulebook gives it free infantry (TripleA's "purchaseNoPU").
        "buys": {"CHINA": []},
    },
}

ALIASES = {
    "United Kingdom": ["UK", "England", "Britain"],
    "United States": ["US", "USA"],
    "French Indo-China": ["FIC", "Indochina"],
    "New South Wales": ["NSW"],
    "Netherlands-Belgium": ["Netherlands", "Belgium", "Benelux"],
    "Ukraine S.S.R.": ["Ukraine"],
}


def space_name(game: str, name: str) -> str:
    if name.endswith(" Sea Zone"):
        stem = name[: -len(" Sea Zone")]
        return f"Sea Zone {stem}" if stem.isdigit() else stem
    return name


def space_id(name: str) -> str:
    shown = name.replace(".", "")
    if shown.startswith("Sea Zone "):
        return "SZ" + shown.split()[-1]
    return re.sub(r"[^A-Z0-9]+", "_", shown.upper()).strip("_")


def unit_types(root: ET.Element) -> dict[str, dict[str, Any]]:
    costs = {}
    for rule in root.find("production").findall("productionRule"):  # type: ignore[union-attr]
        if rule.get("name", "").endswith("IndustrialTechnology"):
            continue
        result = rule.find("result")
        cost = rule.find("cost")
        assert result is not None and cost is not None
        costs[result.get("resourceOrUnit")] = int(cost.get("quantity", "0"))
    out: dict[str, dict[str, Any]] = {}
    for unit in root.find("unitList"):  # type: ignore[union-attr]
        out[unit.get("name", "")] = {"cost": costs.get(unit.get("name"))}
    for att in root.find("attachmentList"):  # type: ignore[union-attr]
        if att.get("name") != "unitAttachment":
            continue
        u = out[att.get("attachTo", "")]
        for opt in att:
            key, value = opt.get("name", ""), opt.get("value", "")
            if key in (
                "movement",
                "attack",
                "defense",
                "hitPoints",
                "transportCapacity",
                "transportCost",
                "carrierCapacity",
                "carrierCost",
                "airDefense",
                "airAttack",
            ):
                u[key] = int(value)
            elif value == "true":
                u[key] = True
    types = {}
    for name, u in out.items():
        domain = (
            "air"
            if u.get("isAir")
            else "sea"
            if u.get("isSea")
            else "building"
            if (u.get("isFactory") or u.get("isInfrastructure"))
            else "land"
        )
        entry: dict[str, Any] = {
            "name": name.replace("aaGun", "AA gun").replace("_", " "),
            "symbol": UNIT_SYMBOLS[{"aaGun": "aa_gun"}.get(name, name)],
            "domain": domain,
            "cost": u["cost"],
            "attack": u.get("attack", 0),
            "defence": u.get("defense", 0),
            "movement": u.get("movement", 0),
            "hits": u.get("hitPoints", 1),
        }
        for key, ours in (
            ("transportCapacity", "transport_capacity"),
            ("transportCost", "transport_cost"),
            ("carrierCapacity", "carrier_capacity"),
            ("carrierCost", "carrier_cost"),
        ):
            if key in u:
                entry[ours] = u[key]
        abilities = [
            ours
            for key, ours in (
                ("artillery", "artillery"),
                ("artillerySupportable", "supportable"),
                ("canBlitz", "blitz"),
                ("isSub", "submarine"),
                ("isDestroyer", "destroyer"),
                ("canBombard", "bombard"),
                ("isAA", "anti_aircraft"),
                ("isFactory", "factory"),
                ("isStrategicBomber", "strategic_bomber"),
                ("isMarine", "marine"),
                ("isAirBase", "air_base"),
                ("isInfrastructure", "infrastructure"),
            )
            if u.get(key)
        ]
        if abilities:
            entry["abilities"] = abilities
        types[{"aaGun": "aa_gun"}.get(name, name)] = entry
    return types


def _knots(value: float, knots: tuple[tuple[float, float], ...]) -> float:
    """Piecewise-linear interpolation of ``value`` between (degrees, share) knots."""
    for (a, fa), (b, fb) in itertools.pairwise(knots):
        if min(a, b) <= value <= max(a, b):
            return fa + (value - a) / (b - a) * (fb - fa)
    return knots[0][1] if abs(value - knots[0][0]) < abs(value - knots[-1][0]) else knots[-1][1]


def project(game: str, lon: float, lat: float) -> list[float]:
    g = GAMES[game]
    x = _knots(lon, g["lon"]) * g["width"]
    y = _knots(lat, g["lat"]) * g["height"]
    return [round(min(max(x, 5.0), g["width"] - 5.0), 1), round(min(max(y, 5.0), g["height"] - 5.0), 1)]


def place_seas(
    game: str, names: list[str], sea: set[str], adj: dict[str, set[str]], fixed: dict[str, list[float]]
) -> dict[str, list[float]]:
    """Positions for the sea zones the layout leaves out: each at the mean of its neighbours (a Tutte
    embedding with the placed spaces fixed), then pushed apart where two come too close."""
    pos = dict(fixed)
    free = [n for n in names if n not in pos]
    g = GAMES[game]
    centre = [g["width"] / 2, g["height"] / 2]
    for n in free:
        pos[n] = list(centre)
    for _ in range(400):
        for n in free:
            ns = [pos[m] for m in adj[n]]
            pos[n] = [sum(p[0] for p in ns) / len(ns), sum(p[1] for p in ns) / len(ns)]
    spacing = GAMES[game]["sea_spacing"]
    for _ in range(300):
        for n in free:
            fx = fy = 0.0
            for m in names:
                if m == n:
                    continue
                dx, dy = pos[n][0] - pos[m][0], pos[n][1] - pos[m][1]
                d = math.hypot(dx, dy) or 0.01
                if d < spacing:
                    fx += dx / d * (spacing - d) * 0.25
                    fy += dy / d * (spacing - d) * 0.25
            # Held near the neighbours it touches, so that spreading out keeps the map's shape.
            ns = [pos[m] for m in adj[n]]
            cx, cy = sum(p[0] for p in ns) / len(ns), sum(p[1] for p in ns) / len(ns)
            fx += (cx - pos[n][0]) * 0.05
            fy += (cy - pos[n][1]) * 0.05
            pos[n] = [
                min(max(pos[n][0] + fx, 5.0), g["width"] - 5.0),
                min(max(pos[n][1] + fy, 5.0), g["height"] - 5.0),
            ]
    return {n: [round(p[0], 1), round(p[1], 1)] for n, p in pos.items()}


def convert(game: str, path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    root = ET.parse(path).getroot()
    facts = FACTS[game]
    board = root.find("map")
    assert board is not None
    names = [t.get("name", "") for t in board.findall("territory")]
    sea = {t.get("name", "") for t in board.findall("territory") if t.get("water") == "true"}
    adj: dict[str, set[str]] = defaultdict(set)
    for c in board.findall("connection"):
        a, b = c.get("t1", ""), c.get("t2", "")
        adj[a].add(b)
        adj[b].add(a)
    drawing = json.loads(LAYOUT.read_text(encoding="utf-8"))
    layout, radii = drawing[game], drawing["radius"]
    unknown = set(layout) - set(names)
    if unknown:
        raise SystemExit(f"layout names spaces that {path.name} does not have: {sorted(unknown)}")
    # A layout entry is a place [lon, lat], or a list of them (the first the place, the rest the
    # points tools/make_real_maps.py shapes the space by).
    geo = {n: [list(p) for p in v] if isinstance(v[0], list) else [list(v)] for n, v in layout.items()}
    # Sea zones are placed among their neighbours (a board not yet drawn by tools/make_real_maps.py
    # is shaded as cells around these points, which must make neighbours touch); their places on the
    # globe (geo) are for that tool.
    placed = {n: project(game, *geo[n][0]) for n in names if n in geo and n not in sea}
    missing_land = [n for n in names if n not in sea and n not in placed]
    if missing_land:
        raise SystemExit(f"layout gives no position for {missing_land}")
    at = place_seas(game, names, sea, adj, placed)

    ids = {n: space_id(space_name(game, n)) for n in names}
    # A board drawn from real geography keeps its drawing (tools/make_real_maps.py made it).
    shipped_path = OUT / "maps" / f"{game}.json"
    shipped = json.loads(shipped_path.read_text(encoding="utf-8")) if shipped_path.exists() else {}
    drawn = {sp["id"]: sp for sp in shipped.get("spaces", []) if "outline" in sp}
    spaces = []
    for n in names:
        kind = "sea" if n in sea else "coast" if any(m in sea for m in adj[n]) else "land"
        entry: dict[str, Any] = {"id": ids[n], "name": space_name(game, n), "kind": kind, "at": at[n]}
        if ids[n] not in drawn and n not in sea and all(m in sea for m in adj[n]):
            entry["radius"] = radii.get(n, radii["island"])  # an island: the sea shows around it
        if n in ALIASES:
            entry["aliases"] = ALIASES[n]
        if n in geo:
            entry["geo"] = geo[n]
        if ids[n] in drawn:
            # In the order the map tool writes them: its point where "at" was, its outline after.
            entry.update({k: v for k, v in drawn[ids[n]].items() if k in mapfile.PLACES and k != "geo"})
        spaces.append(entry)
    army, fleet = [], []
    for c in board.findall("connection"):
        a, b = c.get("t1", ""), c.get("t2", "")
        pair = sorted([ids[a], ids[b]])
        (fleet if a in sea or b in sea else army).append(pair)
    board_data = {
        "format": "interboard-map/1",
        "id": game,
        "title": GAMES[game]["title"],
        "source": f"Spaces and connections transcribed from TripleA's {path.name} (triplea-maps) by "
        "tools/convert_axis_allies.py. "
        + (
            "Drawn by tools/make_real_maps.py from Natural Earth's coastlines and borders (public domain)"
            " and each space's place (geo)."
            if drawn
            else "Drawing positions are the project's own estimate from geography."
        ),
        "drawing": shipped["drawing"]
        if drawn
        else {"width": GAMES[game]["width"], "height": GAMES[game]["height"]},
        "spaces": spaces,
        "adjacency": {"army": sorted(army), "fleet": sorted(fleet)},
    }

    attachments: dict[str, dict[str, str]] = defaultdict(dict)
    for att in root.find("attachmentList"):  # type: ignore[union-attr]
        if att.get("name") in ("territoryAttachment", "canalAttachment"):
            for opt in att:
                attachments[att.get("attachTo", "")][opt.get("name", "")] = opt.get("value", "")
    init = root.find("initialize")
    assert init is not None
    owner = {o.get("territory"): o.get("owner") for o in init.find("ownerInitialize")}  # type: ignore[union-attr]
    territories: dict[str, Any] = {}
    capitals: dict[str, dict[str, str]] = defaultdict(dict)
    for n in names:
        a = attachments.get(n, {})
        player = owner.get(n)
        t: dict[str, Any] = {}
        if n not in sea:
            t["ipc"] = int(a.get("production", "0"))
        elif player is not None and "production" in a and int(a["production"]):
            t["convoy"] = int(a["production"])  # a convoy centre: its owner's income, at sea
        if player is not None:
            power, economy = POWERS[player]
            t["owner"] = power
            if economy:
                t["economy"] = economy
        elif n not in sea:
            t["neutral"] = True
        if a.get("originalOwner"):
            t["original_owner"] = POWERS[a["originalOwner"]][0]
        if a.get("originalFactory") == "true":
            t["factory"] = True
        if a.get("capital"):
            cap_power, cap_economy = POWERS[a["capital"]]
            t["capital"] = cap_power
            capitals[cap_power][cap_economy or "MAIN"] = ids[n]
        if a.get("victoryCity"):
            t["victory_city"] = True
        if a.get("convoyRoute") == "true" and n not in sea:
            t["convoy_route"] = (
                ids[a["convoyAttached"]] if a.get("convoyAttached") in ids else a["convoyAttached"]
            )
        territories[ids[n]] = t
    for n in facts.get("middle_east", []):
        territories[ids[n]]["middle_east"] = True
    for n in facts.get("conversion", []):
        territories[ids[n]]["conversion"] = True
    for n in facts.get("mediterranean_home", []):
        territories[ids[n]]["mediterranean_home"] = True
    for n in facts.get("kamikaze", []):
        territories[ids[n]]["kamikaze"] = True
    for n in facts.get("oil", []):
        territories[ids[n]]["oil"] = True
    canals: dict[str, dict[str, Any]] = {}
    for n, a in attachments.items():
        if "canalName" in a:
            canal = canals.setdefault(a["canalName"], {"name": a["canalName"], "seas": [], "land": []})
            canal["seas"].append(ids[n])
            canal["land"] = sorted({ids[x.strip()] for x in a["landTerritories"].split(":")})

    setup: dict[str, dict[str, dict[str, int]]] = defaultdict(lambda: defaultdict(dict))
    for u in init.find("unitInitialize"):  # type: ignore[union-attr]
        power = POWERS[u.get("owner", "")][0]
        kind = {"aaGun": "aa_gun"}.get(u.get("unitType", ""), u.get("unitType", ""))
        where = setup[power][ids[u.get("territory", "")]]
        where[kind] = where.get(kind, 0) + int(u.get("quantity", "0"))
    treasury: dict[str, dict[str, int]] = defaultdict(dict)
    tokens = {}
    for r in init.find("resourceInitialize"):  # type: ignore[union-attr]
        if r.get("player") not in POWERS:
            continue
        power, economy = POWERS[r.get("player", "")]
        if r.get("resource") == "PUs":
            treasury[power][economy or "MAIN"] = int(r.get("quantity", "0"))
        else:
            tokens[power] = int(r.get("quantity", "0"))
    frontiers = {}
    production = root.find("production")
    assert production is not None
    rules = {
        r.get("name"): r.find("result").get("resourceOrUnit") for r in production.findall("productionRule")
    }  # type: ignore[union-attr]
    by_frontier = {
        f.get("name"): [rules[x.get("name")] for x in f] for f in production.findall("productionFrontier")
    }
    for pp in production.findall("playerProduction"):
        power = POWERS[pp.get("player", "")][0]
        frontiers[power] = sorted({"aa_gun" if u == "aaGun" else u for u in by_frontier[pp.get("frontier")]})  # type: ignore[union-attr]

    order = []
    for step in root.find("gamePlay").find("sequence"):  # type: ignore[union-attr]
        if step.get("name", "").endswith("Purchase") and step.get("player") in POWERS:
            power = POWERS[step.get("player", "")][0]
            if power not in order:
                order.append(power)
    powers = []
    for power in order:
        name, side, colour, short = POWER_INFO[power]
        entry = {"id": power, "name": name, "short": short, "side": side, "colour": colour}
        economies = facts.get("economy_capitals", {}).get(power)
        if economies:
            entry["economies"] = [
                {
                    "id": e,
                    "capital": ids[cap],
                    "ipcs": treasury[power].get("AUSTRALIA" if e == "AUSTRALIA" else "MAIN", 0),
                }
                for e, cap in economies.items()
            ]
        else:
            entry["ipcs"] = treasury[power].get("MAIN", 0)
        if power in tokens:
            entry["kamikaze_tokens"] = tokens[power]
        entry["buys"] = facts.get("buys", {}).get(power, frontiers.get(power, []))
        powers.append(entry)
    game_data = {
        "format": "interboard-axis-allies/1",
        "id": game,
        "title": GAMES[game]["title"],
        "source": f"Facts transcribed from TripleA's {path.name} (triplea-maps) by "
        "tools/convert_axis_allies.py; additions from the rulebook are listed in the script (FACTS).",
        "map": game,
        "powers": powers,
        "units": unit_types(root),
        "territories": territories,
        "canals": sorted(canals.values(), key=lambda c: c["name"]),
        "setup": {p: {t: dict(sorted(u.items())) for t, u in sorted(s.items())} for p, s in setup.items()},
    }
    return board_data, game_data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--europe", type=Path, required=True, help="TripleA's europe_AAE.xml")
    ap.add_argument("--pacific", type=Path, required=True, help="TripleA's pacific.xml")
    args = ap.parse_args(argv)
    for game, path in (("aa_europe_1999", args.europe), ("aa_pacific_2001", args.pacific)):
        board, data = convert(game, path)
        (OUT / "maps").mkdir(parents=True, exist_ok=True)
        (OUT / "maps" / f"{game}.json").write_text(mapfile.dump(board), encoding="utf-8")
        (OUT / f"{game}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"{game}: {len(board['spaces'])} spaces, {len(data['setup'])} powers set up")
    return 0


if __name__ == "__main__":
    sys.exit(main())
