"""Make the order of battle of the Vernian WWI variant: a STAND-IN for GWIE's counter mix and set-up,
which are not public.

Run once by hand after the maps (``tools/make_vernian_maps.py``); the output is committed:

    python tools/make_vernian_oob.py

The armies keep the proportions of the West Front in August 1914 (Germany's seven armies against
France's five, the Belgian field army and the BEF) at a scale where an infantry corps is one
two-step counter. Units that start on the map under the base game's normal set-up (code ``S``) get a
hex here: each army's counters fill the hexes nearest its assembly town, two corps a hex, inside its
own country. Units the seed's own set-up rules place (Belgians, French ``G`` and later, British
``K``, German ``B``) get no hex: the players place them.

Output: ``src/interboard/games/hexwar/data/vernian/counters.json``.
"""

from __future__ import annotations

import json
import sys
from collections import deque
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from interboard.board.hexmap import HexGeography, geography_from_data, hexmap_from_data

DATA = Path(__file__).resolve().parents[1] / "src" / "interboard" / "games" / "hexwar" / "data" / "vernian"

# (nation, army, assembly hex name, counters): counters as (type, how many); ``S`` code, on the map.
GERMAN_ARMIES = [
    ("1", "Krefeld", [("GE-corps", 4), ("GE-cav", 1)], "1-3"),
    ("2", "Aachen", [("GE-corps", 4), ("GE-cav", 1)], "2-2"),
    ("3", "Bonn", [("GE-corps", 3), ("GE-div", 1)], "1-3"),
    ("4", "Trier", [("GE-corps", 4), ("GE-cav", 1)], "1-3"),
    ("5", "Thionville", [("GE-corps", 4), ("GE-div", 1), ("GE-cav", 1)], "2-2"),
    ("6", "Saarbrücken", [("GE-corps", 3), ("GE-div", 2), ("GE-cav", 1)], "1-3"),
    ("7", "Colmar", [("GE-corps", 2), ("GE-div", 2)], "1-3"),
]
FRENCH_ARMIES = [
    ("1", "Épinal", [("FR-corps", 4), ("FR-cav", 1)], "1-3"),
    ("2", "Nancy", [("FR-corps", 4), ("FR-cav", 1)], "1-3"),
    ("3", "St-Mihiel", [("FR-corps", 3), ("FR-cav", 1)], "1-3"),
    ("4", "Bar-le-Duc", [("FR-corps", 3)], "0-3"),
    ("5", "Mézières", [("FR-corps", 4), ("FR-cav", 2)], "0-3"),
]
FORTRESS_DIVISIONS = {"FR": ["Verdun", "Toul", "Épinal", "Belfort"], "GE": ["Metz", "Strasbourg"]}

# Reinforcements: (nation, type, code, how many). Letters are strategic turns of arrival in the base
# game; the seed moves some (see game.json "arrivals").
REINFORCEMENTS = [
    # Germany: B lands in England at the start, K arrives on B, I/J/O go through the tunnel.
    ("GE", "GE-corps", "B", 4), ("GE", "GE-div", "B", 4), ("GE", "GE-hq-2-2", "B", 1),
    ("GE", "GE-corps", "K", 3),
    ("GE", "GE-corps", "C", 2), ("GE", "GE-corps", "D", 2), ("GE", "GE-corps", "E", 1), ("GE", "GE-div", "E", 2),
    ("GE", "GE-div", "F", 2), ("GE", "GE-corps", "G", 1),
    ("GE", "GE-div", "I", 5), ("GE", "GE-hq-1-3", "I", 1),
    ("GE", "GE-div", "J", 5), ("GE", "GE-hq-1-3", "J", 1),
    ("GE", "GE-div", "O", 5), ("GE", "GE-hq-0-3", "O", 1),
    # France: A to F arrive; G and later start in the cities.
    ("FR", "FR-corps", "A", 2), ("FR", "FR-corps", "B", 2), ("FR", "FR-corps", "C", 1), ("FR", "FR-hq-1-3", "C", 1),
    ("FR", "FR-corps", "D", 2), ("FR", "FR-corps", "E", 1), ("FR", "FR-corps", "F", 1),
    ("FR", "FR-corps", "G", 3), ("FR", "FR-corps", "H", 2), ("FR", "FR-corps", "J", 1), ("FR", "FR-cav", "H", 2),
    # Belgium: the field army, placed by the seed's rule (one a city but Liège, the HQ in Mons).
    ("BE", "BE-corps", "S", 6), ("BE", "BE-hq-0-3", "S", 1),
    # Britain: one corps coded A, K in England at the start, H to J arrive on A, B to F as normal.
    ("BR", "BR-corps", "A", 1),
    ("BR", "BR-corps", "K", 3), ("BR", "BR-cav", "K", 1), ("BR", "BR-hq-1-3", "K", 1),
    ("BR", "BR-corps", "H", 2), ("BR", "BR-corps", "I", 1), ("BR", "BR-cav", "J", 1), ("BR", "BR-hq-0-3", "H", 1),
    ("BR", "BR-corps", "B", 1), ("BR", "BR-corps", "D", 1), ("BR", "BR-corps", "F", 1),
    # The Vernian inventions on the ground: tanks (Allied from B, German from C), the armoured front
    # buster on C, and the two lightning generators Germany may build (code V: built by a roll).
    ("FR", "FR-tank", "B", 2), ("FR", "FR-tank", "C", 2), ("FR", "FR-tank", "D", 2), ("FR", "FR-tank", "E", 2),
    ("FR", "FR-tank", "F", 2), ("GE", "GE-tank", "C", 2), ("GE", "GE-tank", "D", 2), ("GE", "GE-tank", "E", 2),
    ("FR", "FR-afb", "C", 1), ("GE", "GE-generator", "V", 2),
    # In the air: the Über-Zeppelins and the ether flyers, by the seed's schedule (S: at the start).
    ("GE", "GE-zep-3", "S", 5), ("GE", "GE-zep-3", "A", 5), ("GE", "GE-zep-4", "B", 7), ("GE", "GE-zep-6", "C", 4),
    ("GE", "GE-zep-6", "D", 4), ("GE", "GE-zep-6", "E", 3),
    ("FR", "FR-flyer-F", "S", 1), ("BR", "BR-flyer-F", "S", 1),
    ("FR", "FR-flyer-F", "A", 2), ("FR", "FR-flyer-F", "B", 2), ("FR", "FR-flyer-F", "C", 2), ("FR", "FR-flyer-CS", "C", 2),
    ("FR", "FR-flyer-CS", "D", 2), ("FR", "FR-flyer-F", "D", 2), ("FR", "FR-flyer-CS", "E", 2), ("FR", "FR-flyer-B", "E", 1),
    ("FR", "FR-flyer-B", "F", 2), ("FR", "FR-flyer-B", "G", 1),
    ("GE", "GE-flyer-F", "D", 2), ("GE", "GE-flyer-F", "E", 2),
    # The United States, from +3 on.
    ("US", "US-corps", "+3", 2), ("US", "US-hq-1-3", "+3", 1), ("US", "US-corps", "+4", 1),
    ("US", "US-corps", "+5", 2), ("US", "US-corps", "+6", 2), ("US", "US-corps", "+7", 2),
]  # fmt: skip

TYPES: dict[str, dict[str, Any]] = {}


def _type(name: str, kind: str, size: int, sides: list[list[int]], **extra: Any) -> None:
    TYPES[name] = {"kind": kind, "size": size, "sides": sides, **extra}


for nation, full, reduced in (
    ("GE", [5, 5, 4], [3, 3, 4]),
    ("FR", [4, 5, 4], [2, 3, 4]),
    ("BR", [4, 5, 4], [2, 3, 4]),
    ("US", [5, 5, 4], [3, 3, 4]),
    ("BE", [2, 3, 4], [1, 2, 4]),
):
    _type(f"{nation}-corps", "infantry", 2, [full, reduced])
    _type(f"{nation}-cav", "cavalry", 1, [[1, 2, 6]])
    for guns in ("1-3", "2-2", "0-3"):
        dice, kill = (int(x) for x in guns.split("-"))
        _type(f"{nation}-hq-{guns}", "hq", 0, [[0, 1, 3]], guns=[dice, kill])
    _type(f"{nation}-fort", "fortress", 1, [[0, 4, 0]])
_type("GE-div", "infantry", 1, [[3, 3, 4]], yellow=True, crack_side=[5, 3, 5])
_type("FR-tank", "tank", 0, [[0, 0, 4]])
_type("GE-tank", "tank", 0, [[0, 0, 4]])
_type("FR-afb", "afb", 1, [[0, 0, 1]])
_type("GE-generator", "generator", 0, [[0, 0, 0]])
for sortie in (3, 4, 6):  # Zeppelins 0-3-x: base change twice the middle number, sortie twice the third
    _type(f"GE-zep-{sortie}", "zeppelin", 0, [[0, 3, sortie]], improved=[0, 3, sortie + 1])
for nation, roles in (("FR", ("F", "CS", "B")), ("BR", ("F",)), ("GE", ("F",))):
    for role in roles:
        _type(f"{nation}-flyer-{role}", "flyer", 0, [[0, 0, 6]], role=role)
for nation in ("FR", "BR", "BE", "US"):
    del TYPES[f"{nation}-hq-2-2"]
for nation in ("BR", "BE", "US"):
    del TYPES[f"{nation}-fort"]
del TYPES["BE-cav"], TYPES["US-cav"]


def load() -> HexGeography:
    maps = [
        hexmap_from_data(json.loads((DATA / f"{n}.json").read_text(encoding="utf-8")), n)
        for n in ("west", "england")
    ]
    return geography_from_data(maps, [], [], "oob")


def fill(geo: HexGeography, anchor: str, nation: str, sizes: list[int], used: dict[int, int]) -> list[int]:
    """Hexes for counters of ``sizes`` (stacking sizes), nearest ``anchor`` first, inside ``nation``,
    at most four division-equivalents a hex (room left for the HQ and for manoeuvre)."""
    start = next(h for h in geo.by_id.values() if h.name == anchor)
    order: list[int] = []
    seen = {start.index}
    queue = deque([start.index])
    while queue:
        cell = queue.popleft()
        order.append(cell)
        for nxt in geo.neighbours[cell]:
            h = geo.hexes[nxt]
            if nxt not in seen and h.get("nation") == nation and h.terrain not in ("sea", "neutral"):
                seen.add(nxt)
                queue.append(nxt)
    out = []
    for size in sizes:
        cell = next(c for c in order if used.get(c, 0) + size <= 4)
        used[cell] = used.get(cell, 0) + size
        out.append(cell)
    return out


def main() -> int:
    geo = load()
    units: list[dict[str, Any]] = []
    counters: dict[str, int] = {}

    def unit(nation: str, type_: str, code: str, where: int | None = None, army: str = "") -> None:
        kind = TYPES[type_]["kind"]
        letter = {
            "infantry": "D" if TYPES[type_]["size"] == 1 else "C",
            "cavalry": "K",
            "hq": "H",
            "fortress": "F",
            "tank": "T",
            "afb": "A",
            "generator": "G",
            "zeppelin": "Z",
            "flyer": "E",
        }[kind]
        counters[f"{nation}{letter}"] = counters.get(f"{nation}{letter}", 0) + 1
        entry: dict[str, Any] = {"id": f"{nation}-{letter}{counters[f'{nation}{letter}']:02d}", "type": type_}
        entry["code"] = code
        if army:
            entry["army"] = army
        if where is not None:
            entry["start"] = geo.hexes[where].id
        units.append(entry)

    for nation, armies in (("GE", GERMAN_ARMIES), ("FR", FRENCH_ARMIES)):
        used: dict[int, int] = {}
        for army, anchor, mix, guns in armies:
            types = [t for t, n in mix for _ in range(n)]
            cells = fill(geo, anchor, nation, [TYPES[t]["size"] for t in types], used)
            hq_hex = cells[0]
            unit(nation, f"{nation}-hq-{guns}", "S", hq_hex, army)
            for t, cell in zip(types, cells, strict=True):
                unit(nation, t, "S", cell, army)
        for town in FORTRESS_DIVISIONS[nation]:
            unit(
                nation,
                f"{nation}-fort",
                "S",
                geo.by_id[next(k for k, h in geo.by_id.items() if h.name == town)].index,
            )
    air_start = {"GE-zep-3": "Aachen", "FR-flyer-F": "Paris", "BR-flyer-F": "London"}
    for nation, type_, code, count in REINFORCEMENTS:
        for _ in range(count):
            where = None
            if code == "S" and type_ in air_start:
                where = next(h.index for h in geo.by_id.values() if h.name == air_start[type_])
            unit(nation, type_, code, where)
    out = {
        "format": "interboard-hexwar-counters/1",
        "stand_in": True,
        "source": "STAND-IN made by tools/make_vernian_oob.py: GWIE's counters and set-up are not public. "
        "Values follow docs/rules/vernian.md; replace this file with the real counter mix to play it.",
        "types": TYPES,
        "units": units,
    }
    text = "{\n" + ",\n".join(
        [
            f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
            for k, v in out.items()
            if k not in ("types", "units")
        ]
        + [
            ' "types": {\n'
            + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in TYPES.items())
            + "\n }",
            ' "units": [\n' + ",\n".join(f"  {json.dumps(u, ensure_ascii=False)}" for u in units) + "\n ]",
        ]
    )
    (DATA / "counters.json").write_text(text + "\n}\n", encoding="utf-8")
    by_nation: dict[str, int] = {}
    for u in units:
        by_nation[u["id"][:2]] = by_nation.get(u["id"][:2], 0) + 1
    print(f"counters.json: {len(units)} units {by_nation}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
