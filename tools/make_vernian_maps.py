"""Make the two hex maps of the Vernian WWI variant (a STAND-IN for GWIE's West Front map and the
Southern England map of "Sea Lion", neither of which is public) from real geography.

Run once by hand; the output is committed:

    python tools/make_vernian_maps.py

Every hex is 15 km across (GWIE's 9.5 miles). The West Front map numbers its columns from east to
west so that the Calais crossing hex is W7005, and its rows from north to south; the England map
likewise, with Dover at E0214. A hex takes the terrain of the region its centre lies in (sea,
neutral countries, forests, rough ground, mountains, flood plains; clear elsewhere), the nation of
the country it lies in (the borders of 1914: Alsace-Lorraine is German), and a place (a town, a city
with its victory value, a fortress with its steps) from the nearest named place. Rivers are hexsides:
the sides crossed by each river's course. The outlines below are the project's own rough tracing of
public geography (latitude, longitude), not copied from any map.

Output: ``src/interboard/games/hexwar/data/vernian/west.json`` and ``england.json``
(``interboard-hexmap/1``).
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from interboard.board.hexes import Grid

OUT = Path(__file__).resolve().parents[1] / "src" / "interboard" / "games" / "hexwar" / "data" / "vernian"
HEX_KM = 15.0
DLAT = HEX_KM / 111.32

Point = tuple[float, float]  # (lat, lon)

# ---------------------------------------------------------------------- the West Front
WEST = {
    "grid": Grid("W", (33, 84), (0, 34), east=False, shifted_odd=True),
    "anchor": ("W7005", (50.95, 1.86)),
    "lat0": 49.5,
}
SEA_WEST: list[Point] = [  # the Channel and the North Sea, north-west of the continent's coast
    (52.5, -1.5), (49.33, -1.5), (49.3, -0.6), (49.35, -0.1), (49.49, 0.1), (49.72, 0.3), (49.92, 1.08),
    (50.2, 1.55), (50.72, 1.6), (50.95, 1.85), (51.03, 2.37), (51.22, 2.92), (51.37, 3.35), (51.41, 3.58),
    (51.48, 4.0), (51.6, 4.1), (51.75, 4.2), (52.5, 4.5),
]  # fmt: skip
ENGLAND_IN_WEST: list[Point] = [  # Kent and Sussex: England, drawn on its own map
    (52.5, -1.5), (50.8, -1.5), (50.82, -0.14), (50.77, 0.28), (50.86, 0.57), (50.95, 0.97), (51.08, 1.17),
    (51.13, 1.31), (51.33, 1.45), (51.45, 1.45), (52.5, 1.8),
]  # fmt: skip
NETHERLANDS: list[Point] = [
    (52.5, 3.0), (51.41, 3.38), (51.3, 3.4), (51.35, 4.2), (51.45, 4.5), (51.45, 5.0), (51.25, 5.5),
    (51.1, 5.8), (50.75, 5.68), (50.76, 6.02), (51.05, 6.08), (51.37, 6.2), (51.6, 6.1), (51.85, 5.95),
    (52.5, 6.5),
]  # fmt: skip
BELGIUM: list[Point] = [
    (51.09, 2.55), (51.37, 3.35), (51.3, 3.4), (51.35, 4.2), (51.45, 4.5), (51.45, 5.0), (51.25, 5.5),
    (51.1, 5.8), (50.75, 5.68), (50.7, 6.0), (50.3, 6.2), (50.1, 6.0), (49.8, 5.9), (49.55, 5.8),
    (49.5, 5.45), (49.55, 5.3), (49.8, 4.85), (50.15, 4.85), (50.0, 4.2), (50.3, 4.0), (50.45, 3.6),
    (50.75, 3.2), (50.8, 2.6),
]  # fmt: skip
LUXEMBOURG: list[Point] = [
    (50.15, 6.0),
    (50.1, 6.15),
    (49.75, 6.5),
    (49.45, 6.35),
    (49.5, 5.85),
    (49.8, 5.75),
]
GERMANY: list[Point] = [  # 1914: the Rhineland, the Palatinate and Alsace-Lorraine (the Netherlands,
    # Belgium and Luxembourg are tested first: this outline may overlap them on its western side)
    (52.5, 5.5), (50.5, 5.5), (50.3, 6.2), (50.1, 6.15), (49.75, 6.5), (49.45, 6.35), (49.5, 5.95), (49.25, 6.0), (48.98, 6.02),
    (48.8, 6.35), (48.6, 6.7), (48.45, 7.0), (48.2, 7.05), (47.95, 7.0), (47.7, 6.95), (47.5, 7.05),
    (47.55, 7.6), (47.6, 9.0), (52.5, 9.0),
]  # fmt: skip
SWITZERLAND: list[Point] = [(47.5, 5.9), (47.5, 7.05), (47.55, 7.6), (47.6, 9.0), (46.5, 9.0), (46.5, 5.9)]
FORESTS_WEST: list[list[Point]] = [
    [(49.35, 4.85), (49.35, 5.05), (49.05, 5.05), (49.05, 4.85)],  # the Argonne
    [(49.4, 7.55), (49.35, 8.05), (49.0, 8.05), (49.05, 7.55)],  # the Palatinate forest
    [(49.55, 2.75), (49.45, 3.2), (49.25, 3.2), (49.35, 2.75)],  # Compiègne and Villers-Cotterêts
    [(50.05, 3.7), (50.1, 4.15), (49.95, 4.3), (49.9, 3.85)],  # the Thiérache
]
ROUGH_WEST: list[list[Point]] = [
    [(50.4, 5.3), (50.35, 6.0), (50.0, 6.1), (49.75, 5.5), (49.8, 4.7), (50.05, 4.55)],  # the Ardennes
    [(50.5, 6.3), (50.4, 7.1), (50.05, 7.0), (50.05, 6.3)],  # the Eifel
    [(49.95, 6.9), (50.05, 7.6), (49.7, 7.6), (49.6, 6.9)],  # the Hunsrück
    [(47.9, 5.0), (48.1, 5.6), (47.75, 5.9), (47.55, 5.3)],  # the Langres plateau
]
MOUNTAIN_WEST: list[list[Point]] = [
    [(48.75, 7.0), (48.45, 7.3), (47.9, 7.18), (47.75, 6.8), (48.1, 6.75), (48.5, 6.85)],  # the Vosges
    [(48.9, 8.25), (48.95, 8.6), (47.6, 8.6), (47.6, 7.9), (48.2, 7.95)],  # the Black Forest
]
FLOOD_WEST: list[list[Point]] = [
    [(51.1, 2.5), (51.3, 3.2), (51.1, 3.4), (50.95, 2.7)],  # the Flanders polders
]
RIVERS_WEST: dict[str, list[Point]] = {
    "Meuse": [(47.98, 5.64), (48.36, 5.7), (48.76, 5.59), (48.89, 5.54), (49.16, 5.38), (49.49, 5.19), (49.7, 4.94),
              (49.77, 4.72), (50.14, 4.83), (50.26, 4.91), (50.47, 4.87), (50.52, 5.24), (50.63, 5.57), (50.85, 5.69),
              (51.37, 6.17), (51.8, 6.05)],
    "Sambre": [(50.28, 3.97), (50.41, 4.44), (50.47, 4.87)],
    "Moselle": [(48.17, 6.45), (48.68, 5.89), (48.9, 6.05), (49.12, 6.18), (49.36, 6.17), (49.75, 6.64), (49.92, 7.07),
                (50.15, 7.17), (50.36, 7.6)],
    "Rhine": [(47.56, 7.59), (48.1, 7.58), (48.58, 7.8), (49.0, 8.25), (49.49, 8.46), (50.0, 8.27), (49.97, 7.9),
              (50.36, 7.6), (50.73, 7.1), (50.94, 6.96), (51.23, 6.78), (51.43, 6.76), (51.7, 6.55)],
    "Marne": [(48.11, 5.14), (48.64, 4.95), (48.72, 4.58), (48.96, 4.36), (49.04, 3.96), (49.05, 3.4), (48.96, 2.88),
              (48.82, 2.42)],
    "Aisne": [(49.09, 4.9), (49.51, 4.37), (49.4, 3.9), (49.38, 3.32), (49.42, 2.83)],
    "Oise": [(49.92, 4.08), (49.9, 3.63), (49.61, 3.22), (49.58, 3.0), (49.42, 2.83), (49.26, 2.47), (49.05, 2.1),
             (48.99, 2.08)],
    "Somme": [(49.85, 3.29), (49.93, 2.93), (49.89, 2.3), (50.1, 1.83), (50.2, 1.62)],
    "Seine": [(48.3, 4.08), (48.49, 3.5), (48.39, 2.95), (48.54, 2.66), (48.85, 2.35), (48.99, 1.72), (49.09, 1.49),
              (49.44, 1.1), (49.46, 0.3)],
    "Scheldt": [(50.17, 3.23), (50.36, 3.52), (50.6, 3.39), (51.05, 3.72), (51.22, 4.4), (51.38, 4.25)],
}  # fmt: skip
# (name, lat, lon, place, nation-given victory value or fortress steps)
PLACES_WEST: list[tuple[str, float, float, str, int]] = [
    # French cities (victory hexes) and fortresses
    ("Paris", 48.86, 2.35, "city", 2), ("Lille", 50.63, 3.06, "city", 1), ("Reims", 49.26, 4.03, "city", 1),
    ("Amiens", 49.89, 2.3, "city", 1), ("Rouen", 49.44, 1.1, "city", 1), ("Nancy", 48.69, 6.18, "city", 1),
    ("Le Havre", 49.5, 0.3, "city", 1), ("Orléans", 47.9, 1.9, "city", 1), ("Troyes", 48.3, 4.08, "city", 1),
    ("Dijon", 47.32, 5.04, "city", 1), ("Besançon", 47.24, 6.02, "city", 1),
    ("Verdun", 49.16, 5.38, "fortress", 1), ("Toul", 48.68, 5.89, "fortress", 1), ("Épinal", 48.17, 6.45, "fortress", 1),
    ("Belfort", 47.64, 6.86, "fortress", 1), ("Maubeuge", 50.28, 3.97, "town", 0),
    # French towns
    ("Calais", 50.95, 1.86, "town", 0), ("Boulogne", 50.72, 1.61, "town", 0), ("Dunkirk", 51.03, 2.37, "town", 0),
    ("Dieppe", 49.92, 1.08, "town", 0), ("Abbeville", 50.1, 1.83, "town", 0), ("Beauvais", 49.43, 2.08, "town", 0),
    ("Compiègne", 49.42, 2.83, "town", 0), ("Soissons", 49.38, 3.32, "town", 0), ("Laon", 49.56, 3.62, "town", 0),
    ("St-Quentin", 49.85, 3.29, "town", 0), ("Cambrai", 50.17, 3.23, "town", 0), ("Arras", 50.29, 2.78, "town", 0),
    ("Valenciennes", 50.36, 3.52, "town", 0), ("Mézières", 49.77, 4.72, "town", 0), ("Sedan", 49.7, 4.94, "town", 0),
    ("Rethel", 49.51, 4.37, "town", 0), ("Épernay", 49.04, 3.96, "town", 0), ("Châlons", 48.96, 4.36, "town", 0),
    ("Château-Thierry", 49.05, 3.4, "town", 0), ("Meaux", 48.96, 2.88, "town", 0), ("Melun", 48.54, 2.66, "town", 0),
    ("Chartres", 48.45, 1.49, "town", 0), ("Évreux", 49.02, 1.15, "town", 0), ("St-Dizier", 48.64, 4.95, "town", 0),
    ("Bar-le-Duc", 48.77, 5.16, "town", 0), ("Chaumont", 48.11, 5.14, "town", 0), ("Langres", 47.86, 5.33, "town", 0),
    ("Vitry", 48.72, 4.58, "town", 0), ("Lunéville", 48.59, 6.5, "town", 0), ("St-Mihiel", 48.89, 5.54, "town", 0),
    ("Vesoul", 47.62, 6.15, "town", 0), ("Auxerre", 47.8, 3.57, "town", 0), ("Sens", 48.2, 3.28, "town", 0),
    ("Montargis", 48.0, 2.73, "town", 0),
    # German cities (the Ruhr hexes count two) and fortresses
    ("Essen", 51.45, 7.01, "city", 2), ("Duisburg", 51.43, 6.76, "city", 2), ("Bochum", 51.48, 7.22, "city", 2),
    ("Dortmund", 51.51, 7.47, "city", 2), ("Cologne", 50.94, 6.96, "city", 1), ("Düsseldorf", 51.23, 6.78, "city", 1),
    ("Aachen", 50.78, 6.08, "city", 1), ("Koblenz", 50.36, 7.6, "city", 1), ("Mainz", 50.0, 8.27, "city", 1),
    ("Trier", 49.75, 6.64, "city", 1), ("Saarbrücken", 49.23, 7.0, "city", 1), ("Mannheim", 49.49, 8.47, "city", 1),
    ("Karlsruhe", 49.01, 8.4, "city", 1), ("Metz", 49.12, 6.18, "fortress", 1), ("Strasbourg", 48.58, 7.75, "fortress", 1),
    ("Mulhouse", 47.75, 7.34, "town", 0), ("Colmar", 48.08, 7.36, "town", 0), ("Kaiserslautern", 49.44, 7.77, "town", 0),
    ("Bonn", 50.73, 7.1, "town", 0), ("Krefeld", 51.33, 6.56, "town", 0), ("Thionville", 49.36, 6.17, "town", 0),
    # Belgium
    ("Brussels", 50.85, 4.35, "city", 0), ("Antwerp", 51.22, 4.4, "fortress", 1), ("Liège", 50.63, 5.57, "fortress", 2),
    ("Namur", 50.47, 4.87, "fortress", 1), ("Ghent", 51.05, 3.72, "city", 0), ("Mons", 50.45, 3.95, "city", 0),
    ("Charleroi", 50.41, 4.44, "city", 0), ("Bruges", 51.21, 3.22, "town", 0), ("Ostend", 51.22, 2.92, "town", 0),
    ("Louvain", 50.88, 4.7, "town", 0), ("Ypres", 50.85, 2.89, "town", 0), ("Tournai", 50.6, 3.39, "town", 0),
    ("Luxembourg", 49.61, 6.13, "town", 0),
]  # fmt: skip

# ---------------------------------------------------------------------- Southern England
ENGLAND = {
    "grid": Grid("E", (1, 26), (1, 18), east=False, shifted_odd=False),
    "anchor": ("E0214", (51.13, 1.31)),
    "lat0": 52.0,
}
ENGLAND_LAND: list[Point] = [
    (53.5, -3.6), (50.4, -3.6), (50.62, -2.45), (50.72, -1.88), (50.75, -1.55), (50.8, -1.1), (50.82, -0.14),
    (50.77, 0.28), (50.86, 0.57), (50.95, 0.97), (51.08, 1.17), (51.13, 1.31), (51.33, 1.45), (51.39, 1.38),
    (51.45, 0.9), (51.5, 0.6), (51.6, 0.9), (51.8, 1.15), (51.95, 1.35), (52.1, 1.6), (52.6, 1.75),
    (53.5, 1.75),
]  # fmt: skip
FOREST_ENGLAND: list[list[Point]] = [
    [(51.1, -0.3), (51.1, 0.5), (50.95, 0.6), (50.95, -0.3)],  # the Weald
    [(50.95, -1.75), (50.95, -1.45), (50.82, -1.45), (50.82, -1.75)],  # the New Forest
]
ROUGH_ENGLAND: list[list[Point]] = [
    [(51.95, -2.2), (52.0, -1.7), (51.7, -1.6), (51.65, -2.2)],  # the Cotswolds
    [(51.35, -1.3), (51.3, -0.9), (51.15, -0.9), (51.2, -1.4)],  # the North Downs and Hampshire hills
]
RIVERS_ENGLAND: dict[str, list[Point]] = {
    "Thames": [(51.7, -1.9), (51.75, -1.26), (51.6, -1.15), (51.45, -0.97), (51.5, -0.6), (51.45, -0.3),
               (51.5, -0.1), (51.48, 0.3), (51.5, 0.7)],
    "Severn": [(52.7, -2.5), (52.2, -2.2), (51.86, -2.24), (51.6, -2.6), (51.45, -3.0)],
    "Medway": [(51.1, 0.2), (51.27, 0.52), (51.4, 0.55)],
}  # fmt: skip
PLACES_ENGLAND: list[tuple[str, float, float, str, int]] = [
    ("London", 51.51, -0.13, "city", 1), ("Birmingham", 52.48, -1.9, "city", 1),
    ("Dover", 51.13, 1.31, "town", 0), ("Ramsgate", 51.33, 1.42, "town", 0), ("Folkestone", 51.08, 1.17, "town", 0),
    ("Canterbury", 51.28, 1.08, "town", 0), ("Maidstone", 51.27, 0.52, "town", 0), ("Brighton", 50.83, -0.14, "town", 0),
    ("Portsmouth", 50.8, -1.09, "town", 0), ("Southampton", 50.9, -1.4, "town", 0), ("Reading", 51.45, -0.97, "town", 0),
    ("Oxford", 51.75, -1.26, "town", 0), ("Northampton", 52.24, -0.9, "town", 0), ("Cambridge", 52.2, 0.12, "town", 0),
    ("Bedford", 52.14, -0.47, "town", 0), ("Chelmsford", 51.74, 0.47, "town", 0), ("Colchester", 51.89, 0.9, "town", 0),
    ("Ipswich", 52.06, 1.16, "town", 0), ("Coventry", 52.41, -1.51, "town", 0), ("Leicester", 52.64, -1.13, "town", 0),
    ("Gloucester", 51.86, -2.24, "town", 0), ("Bristol", 51.45, -2.59, "town", 0), ("Swindon", 51.56, -1.78, "town", 0),
    ("Salisbury", 51.07, -1.79, "town", 0), ("Winchester", 51.06, -1.31, "town", 0), ("Hastings", 50.86, 0.57, "town", 0),
    ("Guildford", 51.24, -0.57, "town", 0), ("Luton", 51.88, -0.42, "town", 0), ("Worcester", 52.19, -2.22, "town", 0),
]  # fmt: skip


# ---------------------------------------------------------------------- geometry
def inside(point: Point, poly: list[Point]) -> bool:
    lat, lon = point
    hit = False
    for k in range(len(poly)):
        (a_lat, a_lon), (b_lat, b_lon) = poly[k], poly[(k + 1) % len(poly)]
        if (a_lat > lat) != (b_lat > lat):
            cross = a_lon + (lat - a_lat) / (b_lat - a_lat) * (b_lon - a_lon)
            if lon < cross:
                hit = not hit
    return hit


class Projection:
    """Hex centres to latitude and longitude, anchored on one hex."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.grid: Grid = spec["grid"]
        anchor_id, (self.lat_a, self.lon_a) = spec["anchor"]
        self.col_a, self.row_a = self.grid.parse(anchor_id)
        self.dlon = HEX_KM * 0.75 * 2 / math.sqrt(3) / (111.32 * math.cos(math.radians(spec["lat0"])))
        self.xa, self.ya = self._xy(self.col_a, self.row_a)

    def _xy(self, col: int, row: int) -> tuple[float, float]:
        x, y = self.grid.centre(col, row, 1.0)
        return x / 1.5, y / math.sqrt(3)  # columns and rows, in hex units

    def latlon(self, col: int, row: int) -> Point:
        x, y = self._xy(col, row)
        return (self.lat_a - (y - self.ya) * DLAT, self.lon_a + (x - self.xa) * self.dlon)

    def nearest(self, lat: float, lon: float) -> tuple[int, int]:
        best = None
        for col, row in self.grid.cells():
            a, b = self.latlon(col, row)
            d = ((a - lat) / DLAT) ** 2 + ((b - lon) / self.dlon) ** 2
            if best is None or d < best[0]:
                best = (d, col, row)
        assert best is not None
        return best[1], best[2]


def build(
    spec: dict[str, Any],
    name: str,
    title: str,
    regions: list[tuple[str, list[Point]]],
    off_map: list[list[Point]],
    terrain: list[tuple[str, list[list[Point]]]],
    rivers: dict[str, list[Point]],
    places: list[tuple[str, float, float, str, int]],
    nation_default: str,
    land: list[Point] | None = None,
) -> dict[str, Any]:
    proj = Projection(spec)
    grid = proj.grid
    hexes: dict[str, dict[str, Any]] = {}
    for col, row in grid.cells():
        p = proj.latlon(col, row)
        if any(inside(p, poly) for poly in off_map):
            continue
        entry: dict[str, Any] = {"terrain": "clear", "nation": nation_default}
        if land is not None and not inside(p, land):
            hexes[grid.hex_id(col, row)] = {"terrain": "sea"}
            continue
        for nation, poly in regions:
            if inside(p, poly):
                entry["nation"] = nation
                break
        if entry["nation"] in ("NL", "CH"):
            entry["terrain"] = "neutral"
        elif entry["nation"] == "SEA":
            entry = {"terrain": "sea"}
        else:
            for kind, polys in terrain:
                if any(inside(p, poly) for poly in polys):
                    entry["terrain"] = kind
                    break
        hexes[grid.hex_id(col, row)] = entry
    edge_cols = {grid.columns[0], grid.columns[1]}
    edge_rows = {grid.rows[0], grid.rows[1]}
    for name_, lat, lon, kind, value in places:
        col, row = proj.nearest(lat, lon)
        hid = grid.hex_id(col, row)
        if hid not in hexes or hexes[hid].get("terrain") == "neutral":
            continue
        if hid in hexes and hexes[hid].get("terrain") == "sea" and kind == "town":
            hexes[hid] = {"terrain": "clear", "nation": nation_default}  # a port on the coast is land
        h = hexes[hid]
        if "place" in h and h["place"] in ("city", "fortress") and kind == "town":
            continue  # a town beside a city shares its hex: the city stands
        h["name"] = name_
        h["place"] = kind
        on_edge = col in edge_cols or row in edge_rows
        if kind == "fortress":
            h["fortress"] = value
            if h.get("nation") in ("FR", "GE") and not on_edge:
                h["victory"] = 1  # a fortress city is a city for victory
        elif kind == "city" and value and not on_edge:
            h["victory"] = value  # part II of the seed: board-edge hexes are never victory hexes
    # Paris and London are several hexes: the neighbours of the centre are city hexes too.
    for city, value in (("Paris", 2), ("London", 1)):
        centre = next((k for k, h in hexes.items() if h.get("name") == city), None)
        if centre is None:
            continue
        col, row = grid.parse(centre)
        ring = [grid.hex_id(c, r) for _, c, r in grid.neighbours(col, row)]
        for hid in ring[: 3 if city == "Paris" else 6]:
            if hid in hexes and hexes[hid].get("terrain") not in ("sea", "neutral"):
                hexes[hid].update(place="city", name=f"{city} ({hid})", victory=value)
                hexes[hid]["terrain"] = "clear"
    river_sides: set[tuple[str, str]] = set()
    for course in rivers.values():
        for (a_lat, a_lon), (b_lat, b_lon) in itertools.pairwise(course):
            steps = max(2, int(max(abs(a_lat - b_lat) / DLAT, abs(a_lon - b_lon) / proj.dlon) * 6))
            for k in range(steps + 1):
                t = k / steps
                lat, lon = a_lat + t * (b_lat - a_lat), a_lon + t * (b_lon - a_lon)
                two = _two_nearest(proj, lat, lon)
                a, b = (grid.hex_id(*c) for c in two)
                if (
                    a in hexes
                    and b in hexes
                    and grid.distance(two[0], two[1]) == 1
                    and "sea" not in (hexes[a].get("terrain"), hexes[b].get("terrain"))
                ):
                    river_sides.add((min(a, b), max(a, b)))
    return {
        "format": "interboard-hexmap/1",
        "id": name,
        "title": title,
        "stand_in": True,
        "source": "STAND-IN made by tools/make_vernian_maps.py from real geography (15 km hexes); the published "
        "maps are not public. Replace this file with the real map's data to play on it.",
        "grid": {
            "prefix": grid.prefix,
            "columns": list(grid.columns),
            "rows": list(grid.rows),
            "east": grid.east,
            "shifted_odd": grid.shifted_odd,
        },
        "hexes": dict(sorted(hexes.items())),
        "rivers": sorted([list(pair) for pair in river_sides]),
    }


_CACHE: dict[int, list[tuple[tuple[int, int], Point]]] = {}


def _two_nearest(proj: Projection, lat: float, lon: float) -> list[tuple[int, int]]:
    cells = _CACHE.setdefault(id(proj), [(c, proj.latlon(*c)) for c in proj.grid.cells()])
    scored = sorted(
        cells, key=lambda cp: ((cp[1][0] - lat) / DLAT) ** 2 + ((cp[1][1] - lon) / proj.dlon) ** 2
    )
    return [scored[0][0], scored[1][0]]


def dump(data: dict[str, Any]) -> str:
    """The map as JSON with one hex a line, so that a change to a hex is a one-line diff."""
    parts = []
    for key, value in data.items():
        if key == "hexes":
            rows = ",\n".join(
                f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in value.items()
            )
            parts.append(f' "hexes": {{\n{rows}\n }}')
        elif key in ("rivers", "all_sea"):
            rows = ",\n".join(f"  {json.dumps(pair)}" for pair in value)
            parts.append(f' "{key}": [\n{rows}\n ]')
        else:
            parts.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    west = build(
        WEST, "west", "West Front (stand-in for GWIE's West map)",
        [("SEA", SEA_WEST), ("NL", NETHERLANDS), ("CH", SWITZERLAND), ("BE", BELGIUM), ("LU", LUXEMBOURG), ("GE", GERMANY)],
        [ENGLAND_IN_WEST],
        [("mountain", MOUNTAIN_WEST), ("rough", ROUGH_WEST), ("forest", FORESTS_WEST), ("flood_plain", FLOOD_WEST)],
        RIVERS_WEST, PLACES_WEST, "FR",
    )  # fmt: skip
    england = build(
        ENGLAND, "england", "Southern England (stand-in for Sea Lion's map)",
        [], [], [("rough", ROUGH_ENGLAND), ("forest", FOREST_ENGLAND)], RIVERS_ENGLAND, PLACES_ENGLAND, "BR",
        land=ENGLAND_LAND,
    )  # fmt: skip
    for data in (west, england):
        path = OUT / f"{data['id']}.json"
        path.write_text(dump(data), encoding="utf-8")
        counts: dict[str, int] = {}
        for h in data["hexes"].values():
            counts[h["terrain"]] = counts.get(h["terrain"], 0) + 1
        print(f"{path.name}: {len(data['hexes'])} hexes {counts}, {len(data['rivers'])} river hexsides")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
