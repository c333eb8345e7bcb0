"""Transcribe the standard Diplomacy map from tools/reference/diplomacy into interboard's map format.

Run once by hand; the output, src/interboard/games/diplomacy/data/maps/standard.json, is committed
(tests/render/test_layout.py checks that this script still reproduces it). The facts
(names, aliases, adjacency, centres, 1901 units) come from the DPjudge standard map (MIT); the
homelands (every home province, not only centres) are from the printed board. Where each space lies
(``geo``) and the drawing made from it by tools/make_real_maps.py are not facts of the game: they are
kept from the shipped file as they are.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import mapfile

REF = Path(__file__).resolve().parent / "reference" / "diplomacy"
"""Copies of the DPjudge standard map's facts (MIT, see dpjudge_LICENSE.txt there)."""
OUT = (
    Path(__file__).resolve().parents[1]
    / "src"
    / "interboard"
    / "games"
    / "diplomacy"
    / "data"
    / "maps"
    / "standard.json"
)

HOMELANDS = {
    "AUSTRIA": ["BOH", "BUD", "GAL", "TRI", "TYR", "VIE"],
    "ENGLAND": ["CLY", "EDI", "LON", "LVP", "WAL", "YOR"],
    "FRANCE": ["BRE", "BUR", "GAS", "MAR", "PAR", "PIC"],
    "GERMANY": ["BER", "KIE", "MUN", "PRU", "RUH", "SIL"],
    "ITALY": ["APU", "NAP", "PIE", "ROM", "TUS", "VEN"],
    "RUSSIA": ["FIN", "LVN", "MOS", "SEV", "STP", "UKR", "WAR"],
    "TURKEY": ["ANK", "ARM", "CON", "SMY", "SYR"],
}
COLOURS = {
    "AUSTRIA": "#c8102e",
    "ENGLAND": "#1f4e9c",
    "FRANCE": "#4fa3d9",
    "GERMANY": "#5a5a5a",
    "ITALY": "#2e8b3a",
    "RUSSIA": "#7a4fa0",
    "TURKEY": "#d9a520",
}
# Short names seen in play-by-mail orders that DPjudge does not list.
EXTRA_ALIASES = {"LVP": ["liv"], "IRI": ["iro"]}
KIND = {"sea": "sea", "coastal": "coast", "inland": "land"}


def aliases_from_geography(text: str) -> dict[str, list[str]]:
    """Map each location id (e.g. 'BUL/EC') to its extra aliases from the .geography file."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" not in line or line.lstrip().startswith("#"):
            continue
        _, rhs = line.split("=", 1)
        words = rhs.split()
        ident = words[0].upper()
        out[ident] = [w.replace("+", " ") for w in words[1:] if "(" not in w and "/" not in w]
    return out


def main() -> int:
    derived = json.loads((REF / "standard_derived.json").read_text())
    aliases = aliases_from_geography((REF / "dpjudge_standard.geography").read_text())
    centres = set(derived["supply_centers"])
    spaces = []
    for pid, info in sorted(derived["provinces"].items()):
        space: dict[str, object] = {"id": pid, "name": info["name"], "kind": KIND[info["type"]]}
        if pid in centres:
            space["centre"] = True
        if info.get("coasts"):
            space["coasts"] = [c.split("/")[1] for c in info["coasts"]]
        extra = [a for a in aliases.get(pid, []) if a.upper() != pid] + EXTRA_ALIASES.get(pid, [])
        if extra:
            space["aliases"] = extra
        spaces.append(space)
    spaces.append({"id": "SWI", "name": "Switzerland", "kind": "impassable"})
    shipped = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    placed = {sp["id"]: sp for sp in shipped.get("spaces", [])}
    for space in spaces:
        space.update({k: v for k, v in placed.get(space["id"], {}).items() if k in mapfile.PLACES})

    def edges(adj: dict[str, list[str]]) -> list[list[str]]:
        seen = set()
        for a, bs in adj.items():
            for b in bs:
                seen.add(tuple(sorted((a, b))))
        return [list(e) for e in sorted(seen)]

    powers = []
    for name, info in derived["powers"].items():
        powers.append(
            {
                "id": name,
                "name": name.title(),
                "adjective": info["adjective"].title(),
                "colour": COLOURS[name],
                "home_centres": info["home_centers"],
                "homeland": HOMELANDS[name],
            }
        )
    units = {
        name: [("A " if u["type"] == "army" else "F ") + u["location"] for u in info["units_1901"]]
        for name, info in derived["powers"].items()
    }
    data = {
        "format": "interboard-map/1",
        "id": "standard",
        "title": "Standard Diplomacy",
        "source": "Transcribed from the DPjudge standard map (serrasqueiro/dpjudge, MIT, (c) 2017 Manus Hand)"
        " by tools/transcribe_standard.py; homelands from the printed board. Drawn by tools/make_real_maps.py"
        " from Natural Earth's coastlines and borders (public domain) and each space's place (geo).",
        "spaces": spaces,
        "adjacency": {"army": edges(derived["army_adjacency"]), "fleet": edges(derived["fleet_adjacency"])},
        "powers": powers,
        "start": {
            "year": 1901,
            "units": units,
            "centres": {name: info["home_centers"] for name, info in derived["powers"].items()},
        },
        "victory_centres": 18,
    }
    if "drawing" in shipped:
        data["drawing"] = shipped["drawing"]
    OUT.write_text(mapfile.dump(data), encoding="utf-8")
    print(f"wrote {OUT}: {len(spaces)} spaces")
    return 0


if __name__ == "__main__":
    sys.exit(main())
