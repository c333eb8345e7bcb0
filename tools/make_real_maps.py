"""Draw a board's spaces from real geography: the outlines in its map file, made from Natural Earth.

    pip install -e '.[maps]'
    python tools/make_real_maps.py standard            # one board, by its recipe's name
    python tools/make_real_maps.py --all               # every recipe in tools/maps/

Run by hand; the output is committed, so the project never needs this tool or its dependencies.

What goes in:

- **The world's geography**: Natural Earth's 1:50m land and countries (public domain), as the npm
  package ``world-atlas`` carries them (TopoJSON). The tool downloads that release once from the
  npm registry, checks the archive against the SHA-512 the registry publishes, and keeps it under
  ``tools/maps/.cache``.
- **The board's facts**, in its map file: each space's ``geo``, a list of ``[longitude, latitude]``
  points. The first is where the space is (its unit and its label go near it); any others shape it
  (the space reaches them). A split coast's ``coast_geo`` says where a fleet on that coast stands.
  The adjacency is the game's; nothing is traced from a printed board.
- **A recipe**, ``tools/maps/<name>.json``: the map file; the projection (Lambert's conformal
  conic, or Miller's cylindrical with ``"kind": "miller"``) and an optional ``magnify`` (a fisheye
  that draws the crowded middle larger, as printed boards do); the places the board must show
  (``extent``: the drawing is the smallest rectangle around them) and its width; which
  countries bound which spaces (``groups``: France's real borders around the six French
  provinces); land added where the board closes a strait (``bridges``, owned by a space or by
  whichever is nearest); islands too small to show, drawn as discs of a given radius
  (``islands``); places that belong to no space (``neutral``); adjacent pairs drawn as passages
  (``passages``); a sea and a coast that touch though the game makes them not adjacent, drawn as
  a wall (``walls``); and the labels' size.

How a board is cut: land and sea are parted by the real coastline, simplified to what shows at the
drawing's scale. Each group's countries are split among its spaces as the Voronoi cells of their
points; the rest of the land among the other land spaces the same way, and the sea among the sea
spaces. A piece of a space cut off from its first point (a cape across a bay) joins the neighbour
it shares most border with; land that no space keeps (an island) is drawn as scenery. Borders
are then noded and simplified as one coverage, so neighbours share their points. Each space's
unit spot and label spot are chosen last: the label inside the space, clear of the unit's spot,
of split coasts and of every other label.

The tool ends by listing what the loader would refuse: spaces that touch without being adjacent,
or are adjacent without touching; it then writes nothing (``--force`` writes it all the same, to
look at). Each is fixed by moving or adding points in the space's ``geo``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import math
import sys
import tarfile
import urllib.request
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mapfile

from interboard.board.outlines import MIN_BORDER, coverage, within
from interboard.render.base import label_lines

try:
    import shapely
    import shapely.affinity
    import shapely.ops
    import shapely.prepared
    from shapely.geometry import MultiPoint, MultiPolygon, Point, Polygon, box
    from shapely.ops import unary_union
except ImportError:  # pragma: no cover - a hint for people without the maps extra
    sys.exit("this tool needs shapely: pip install -e '.[maps]'")

ROOT = Path(__file__).resolve().parents[1]
RECIPES = Path(__file__).resolve().parent / "maps"
CACHE = RECIPES / ".cache"
ATLAS = "world-atlas"
ATLAS_VERSION = "2.0.2"
ATLAS_SHA512 = "IXfV0qwlKXpckz1FhwXVwKRjiIhOnWttOskm5CtxMsjgE/MXAYRHWJqgXOpM8IkcPBoXnyTU5lFHcYa5ChG0LQ=="
"""The ``dist.integrity`` the npm registry publishes for world-atlas 2.0.2."""
PRECISION = 1
"""Decimals kept in the drawing units of the committed outlines."""


class RecipeError(Exception):
    pass


# --- Natural Earth, as world-atlas carries it -------------------------------------------------


def atlas_file(name: str) -> dict[str, Any]:
    """One TopoJSON file of world-atlas (downloaded once, checked against the registry's hash)."""
    path = CACHE / f"{ATLAS}-{ATLAS_VERSION}" / name
    if not path.exists():
        url = f"https://registry.npmjs.org/{ATLAS}/-/{ATLAS}-{ATLAS_VERSION}.tgz"
        print(f"downloading {url}", file=sys.stderr)
        with urllib.request.urlopen(url, timeout=60) as response:
            archive = response.read()
        digest = base64.b64encode(hashlib.sha512(archive).digest()).decode()
        if digest != ATLAS_SHA512:
            raise RecipeError(f"{url}: the archive's SHA-512 is not the one the registry publishes")
        path.parent.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            for member in tar.getmembers():
                if member.isfile() and member.name.endswith(".json"):
                    extracted = tar.extractfile(member)
                    assert extracted is not None
                    (path.parent / Path(member.name).name).write_bytes(extracted.read())
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _decode_arcs(topology: dict[str, Any]) -> list[list[tuple[float, float]]]:
    """TopoJSON's quantised, delta-encoded arcs as longitude and latitude."""
    (sx, sy), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs


def _ring(arcs: list[list[tuple[float, float]]], indexes: Sequence[int]) -> list[tuple[float, float]]:
    points: list[tuple[float, float]] = []
    for i in indexes:
        arc = arcs[i] if i >= 0 else arcs[~i][::-1]
        points.extend(arc[1:] if points else arc)
    return points


def topo_geometries(
    topology: dict[str, Any], collection: str
) -> list[tuple[dict[str, Any], list[list[Any]]]]:
    """(properties, polygons as lists of lon/lat rings) of each geometry of a TopoJSON collection."""
    arcs = _decode_arcs(topology)
    out = []
    for geometry in topology["objects"][collection]["geometries"]:
        kind = geometry.get("type")
        polygons = (
            [geometry["arcs"]]
            if kind == "Polygon"
            else geometry.get("arcs", [])
            if kind == "MultiPolygon"
            else []
        )
        rings = [[_ring(arcs, ring) for ring in polygon] for polygon in polygons]
        out.append((geometry.get("properties", {}), rings))
    return out


# --- Projections -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Projection:
    """Lambert's conformal conic projection (a sphere), the usual one for maps of Europe."""

    lon0: float
    lat0: float
    parallels: tuple[float, float]

    def __post_init__(self) -> None:
        p1, p2 = (math.radians(p) for p in self.parallels)
        n = (
            math.sin(p1)
            if abs(p1 - p2) < 1e-9
            else math.log(math.cos(p1) / math.cos(p2))
            / math.log(math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
        )
        f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
        object.__setattr__(self, "_n", n)
        object.__setattr__(self, "_f", f)
        object.__setattr__(self, "_rho0", self._rho(self.lat0))

    def _rho(self, lat: float) -> float:
        lat = max(-89.9, min(89.9, lat))
        return float(self._f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** self._n)  # type: ignore[attr-defined]

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        """Projected (x east, y north), in earth radii."""
        dlon = (lon - self.lon0 + 180) % 360 - 180
        theta = self._n * math.radians(dlon)  # type: ignore[attr-defined]
        rho = self._rho(lat)
        return rho * math.sin(theta), self._rho0 - rho * math.cos(theta)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Magnifier:
    """A graphical fisheye (Sarkar and Brown's): distances from ``centre`` grow by ``1 + power``
    there and shrink towards ``reach``, as printed boards draw the crowded middle of a map larger
    than its edges. Points keep their direction from the centre, so the map stays recognisable."""

    centre: tuple[float, float]
    power: float
    reach: float

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        dx, dy = x - self.centre[0], y - self.centre[1]
        d = math.hypot(dx, dy)
        if d == 0 or self.power == 0:
            return x, y
        t = min(d / self.reach, 1.0)
        grown = (self.power + 1) * t / (self.power * t + 1) * self.reach
        if d > self.reach:
            grown += d - self.reach
        return self.centre[0] + dx * grown / d, self.centre[1] + dy * grown / d


@dataclass(frozen=True)
class Frame:
    """Where the board's rectangle lies in the projection, and its size in drawing units."""

    projection: Projection | Miller
    magnifier: Magnifier | None
    window: Polygon | None
    """The part of the globe the board shows, in longitude and latitude (with a margin)."""
    left: float
    top: float
    scale: float
    width: float
    height: float

    def plane(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = self.projection(lon, lat)
        return self.magnifier(x, y) if self.magnifier else (x, y)

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = self.plane(lon, lat)
        return (x - self.left) * self.scale, (self.top - y) * self.scale

    def geometry(self, rings: Iterable[Sequence[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
        return [[self(lon, lat) for lon, lat in ring] for ring in rings]


@dataclass(frozen=True)
class Miller:
    """Miller's cylindrical projection: meridians straight and evenly spaced, as the printed Axis &
    Allies boards draw a third of the world."""

    lon0: float

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        dlon = (lon - self.lon0 + 180) % 360 - 180
        lat = max(-85.0, min(85.0, lat))
        return math.radians(dlon), 1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat)))


def make_frame(recipe: dict[str, Any]) -> Frame:
    p = recipe["projection"]
    projection: Projection | Miller = (
        Miller(p["lon0"])
        if p.get("kind") == "miller"
        else Projection(p["lon0"], p["lat0"], tuple(p["parallels"]))
    )
    magnifier = None
    if "magnify" in recipe:
        m = recipe["magnify"]
        centre = projection(*m["centre"])
        reach = max(math.dist(centre, projection(lon, lat)) for lon, lat in recipe["extent"])
        magnifier = Magnifier(centre, float(m["power"]), reach)
    lons = [lon for lon, _ in recipe["extent"]]
    lats = [lat for _, lat in recipe["extent"]]
    margin = float(recipe.get("window_margin", 25))
    window = box(
        min(lons) - margin, max(-90, min(lats) - margin), max(lons) + margin, min(90, max(lats) + margin)
    )
    bare = Frame(projection, magnifier, window, 0.0, 0.0, 1.0, 0.0, 0.0)
    # The drawing is the smallest rectangle around the places the board must show.
    xs, ys = zip(*(bare.plane(lon, lat) for lon, lat in recipe["extent"]), strict=True)
    width = float(recipe["width"])
    scale = width / (max(xs) - min(xs))
    return Frame(
        projection, magnifier, window, min(xs), max(ys), scale, width, round((max(ys) - min(ys)) * scale)
    )


# --- Cutting the board -------------------------------------------------------------------------


def _polygons(geometry: Any) -> list[Polygon]:
    if geometry.is_empty:
        return []
    if isinstance(geometry, Polygon):
        return [geometry]
    if isinstance(geometry, MultiPolygon):
        return list(geometry.geoms)
    return [g for part in getattr(geometry, "geoms", []) for g in _polygons(part)]


def _unwrapped(ring: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """A ring whose longitudes run on across the 180th meridian (179, 181) instead of jumping back
    (179, -179): Natural Earth's Eurasia reaches round to Chukotka that way."""
    out: list[tuple[float, float]] = []
    shift = 0.0
    for lon, lat in ring:
        if out:
            step = lon + shift - out[-1][0]
            if step > 180:
                shift -= 360
            elif step < -180:
                shift += 360
        out.append((lon + shift, lat))
    return out


def _projected(frame: Frame, polygons: list[list[Any]], where: Polygon) -> Any:
    """Natural Earth polygons (longitude and latitude rings) in the drawing, cut to ``where``.

    They are first cut to the part of the globe the board shows (``frame.window``): a continent
    that reaches round to the far side of the world (Eurasia, past the 180th meridian) would
    otherwise wrap across the whole drawing."""
    parts = []
    for rings in polygons:
        outer, *holes = (_unwrapped(ring) for ring in rings)
        if len(outer) < 4:
            continue
        geographic = Polygon(outer, [h for h in holes if len(h) >= 4]).buffer(0)
        if frame.window is not None:
            # The same land, a turn of the globe either way, may be what the window shows.
            turns = [shapely.affinity.translate(geographic, xoff=360.0 * k) for k in (-1, 0, 1)]
            geographic = unary_union(
                [t.intersection(frame.window) for t in turns if t.intersects(frame.window)]
            )
        for piece in _polygons(geographic):
            outline = frame.geometry([piece.exterior.coords])[0]
            inner = frame.geometry([r.coords for r in piece.interiors])
            poly = Polygon(outline, [h for h in inner if len(h) >= 4]).buffer(0)
            if poly.intersects(where):
                parts.append(poly.intersection(where))
    return unary_union(parts)


@dataclass
class Site:
    space: str
    point: tuple[float, float]


def _cells(sites: list[Site], domain: Any, frame_box: Polygon) -> dict[str, Any]:
    """Each space's share of ``domain``: the union of its sites' Voronoi cells, cut to the domain."""
    if not sites:
        return {}
    if len(sites) == 1:
        return {sites[0].space: domain}
    cells = shapely.voronoi_polygons(MultiPoint([s.point for s in sites]), extend_to=frame_box, ordered=True)
    by_space: dict[str, list[Any]] = defaultdict(list)
    for site, cell in zip(sites, cells.geoms, strict=True):
        by_space[site.space].append(cell)
    return {space: unary_union(parts).intersection(domain) for space, parts in by_space.items()}


@dataclass
class Piece:
    space: str | None
    """None for scenery: land no space claims."""
    polygon: Polygon
    sea: bool


def _shared(a: Polygon, b: Polygon) -> float:
    if not a.intersects(b):
        return 0.0
    return float(a.boundary.intersection(b.boundary).length)


def _resolve(pieces: list[Piece], first_point: dict[str, tuple[float, float]]) -> list[Piece]:
    """One polygon per space: a piece away from its space's first point joins the neighbour of its
    own kind it shares most border with (land no neighbour touches becomes scenery)."""
    mains: dict[str, Piece] = {}
    orphans: list[Piece] = []
    for piece in pieces:
        if piece.space is None:
            continue
        if piece.space not in mains and piece.polygon.distance(Point(first_point[piece.space])) < 1e-6:
            mains[piece.space] = piece
        else:
            orphans.append(piece)
    missing = set(first_point) - set(mains)
    if missing:
        raise RecipeError(
            f"the first point of {sorted(missing)} is not in its own kind of ground (land or sea)"
        )
    orphans.sort(key=lambda p: p.polygon.area)
    changed = True
    while orphans and changed:
        changed = False
        for orphan in list(orphans):
            bounds = orphan.polygon.bounds
            best, best_length = None, 0.0
            for main in mains.values():
                mb = main.polygon.bounds
                if (
                    main.sea != orphan.sea
                    or mb[0] > bounds[2]
                    or mb[2] < bounds[0]
                    or mb[1] > bounds[3]
                    or mb[3] < bounds[1]
                ):
                    continue
                length = _shared(main.polygon, orphan.polygon)
                if length > best_length + 1e-9:
                    best, best_length = main, length
            if best is None or best_length < 0.5:
                continue
            merged = _polygons(unary_union([best.polygon, orphan.polygon]))
            merged.sort(key=lambda p: -p.area)
            best.polygon = merged[0]
            orphans.remove(orphan)
            changed = True
    scenery = [p.polygon for p in pieces if p.space is None]
    for orphan in orphans:
        if orphan.polygon.area > 20:
            c = orphan.polygon.representative_point()
            what = "kept as scenery" if not orphan.sea else "left as open water"
            print(
                f"note: a piece of {orphan.space} at [{c.x:.0f}, {c.y:.0f}] touches none of its kind: {what}",
                file=sys.stderr,
            )
        if not orphan.sea:
            scenery.append(orphan.polygon)
    # Scenery is one colour: pieces of it that touch are drawn as one.
    merged = [Piece(None, p, False) for p in _polygons(unary_union(scenery))] if scenery else []
    return merged + list(mains.values())


def cut_board(
    recipe: dict[str, Any], board: dict[str, Any], frame: Frame
) -> tuple[list[Piece], dict[str, tuple[float, float]]]:
    topology = atlas_file("countries-50m.json")
    frame_box = box(0, 0, frame.width, frame.height)
    land_rings = [rings for _, polys in topo_geometries(topology, "land") for rings in polys]
    land = _projected(frame, land_rings, frame_box)
    for bridge in recipe.get("bridges", []):
        land = land.union(
            Polygon([frame(lon, lat) for lon, lat in bridge["polygon"]]).intersection(frame_box)
        )
    tolerance = float(recipe.get("simplify", 0.5))
    land = land.simplify(tolerance, preserve_topology=True).buffer(0)
    countries = {props.get("name"): polys for props, polys in topo_geometries(topology, "countries")}
    kinds = {sp["id"]: sp["kind"] for sp in board["spaces"]}
    sites: dict[str, list[Site]] = {}
    first_point: dict[str, tuple[float, float]] = {}
    for sp in board["spaces"]:
        geo = sp.get("geo")
        if geo is None:
            raise RecipeError(f"space {sp['id']} has no 'geo': give its longitude and latitude")
        points = [geo] if isinstance(geo[0], (int, float)) else geo
        sites[sp["id"]] = [Site(sp["id"], frame(lon, lat)) for lon, lat in points]
        first_point[sp["id"]] = sites[sp["id"]][0].point
    pieces: list[Piece] = []
    grouped: set[str] = set()
    claimed = Polygon()
    # An island too small to see (or to click) at the board's scale is drawn as a disc around its
    # point, as printed boards draw their atolls: the disc is the space's own.
    for space, radius in recipe.get("islands", {}).items():
        if space not in first_point:
            raise RecipeError(f"islands: no space {space} on the board")
        disc = Point(first_point[space]).buffer(float(radius), quad_segs=3).intersection(frame_box)
        land = land.union(disc)
        area = disc.difference(claimed)
        claimed = claimed.union(area)
        grouped.add(space)
        pieces.extend(Piece(space, p, False) for p in _polygons(area))
    free_land = land.difference(claimed)
    for group in recipe.get("groups", []):
        names = group["countries"]
        unknown = [n for n in names if n not in countries]
        if unknown:
            raise RecipeError(f"group {group['spaces']}: no country named {unknown} in Natural Earth")
        area = _projected(frame, [rings for n in names for rings in countries[n]], frame_box)
        area = area.intersection(land)
        # A strait the board closes belongs to the space it names, not to the nearest point.
        owned = [b["polygon"] for b in recipe.get("bridges", []) if b.get("space") in group["spaces"]]
        if owned:
            area = unary_union([area, *(Polygon([frame(lon, lat) for lon, lat in poly]) for poly in owned)])
            area = area.intersection(land)
        area = area.difference(claimed)  # groups never overlap: the first to claim keeps it
        claimed = claimed.union(area)
        free_land = free_land.difference(area)
        group_sites = [s for space in group["spaces"] for s in sites[space]]
        grouped.update(group["spaces"])
        for space, shape in _cells(group_sites, area, frame_box).items():
            pieces.extend(Piece(space, p, False) for p in _polygons(shape))
    land_sites = [
        s for space, ss in sites.items() if kinds[space] != "sea" and space not in grouped for s in ss
    ]
    # Land the board leaves to no one (beyond its edge in all but the drawing) is scenery.
    land_sites += [Site(f"~{k}", frame(lon, lat)) for k, (lon, lat) in enumerate(recipe.get("neutral", []))]
    sea_sites = [s for space, ss in sites.items() if kinds[space] == "sea" for s in ss]
    for space, shape in _cells(land_sites, free_land, frame_box).items():
        owner = None if space.startswith("~") else space
        pieces.extend(Piece(owner, p, False) for p in _polygons(shape))
    pieces, land = _archipelagos(recipe.get("archipelagos", {}), pieces, land, first_point)
    sea = frame_box.difference(land)
    for space, shape in _cells(sea_sites, sea, frame_box).items():
        pieces.extend(Piece(space, p, True) for p in _polygons(shape))
    pieces = [p for p in pieces if p.polygon.area > 1e-3]
    return _resolve(pieces, first_point), first_point


def _archipelagos(
    radii: dict[str, float], pieces: list[Piece], land: Any, first_point: dict[str, tuple[float, float]]
) -> tuple[list[Piece], Any]:
    """A space that is a group of islands (Japan, the Philippines, New Zealand) drawn as one, as a
    printed board joins an archipelago into one territory: the narrow water between its islands
    becomes its land (a morphological closing: a strait is closed where a disc of ``radius``
    cannot pass, so capes facing each other across it need a radius well over half its width)."""
    for space, radius in radii.items():
        if space not in first_point:
            raise RecipeError(f"archipelagos: no space {space} on the board")
        own = [p for p in pieces if p.space == space]
        joined = unary_union([p.polygon for p in own])
        closed = joined.buffer(float(radius), quad_segs=4).buffer(-float(radius), quad_segs=4)
        # Only water is filled: the closing never takes another space's land. A second, small
        # closing fills the hair-thin water the first leaves where a disc just passes (rounded to
        # the file's precision it would fold the coast across itself).
        others = land.difference(joined)
        grown = unary_union([joined, closed.difference(land)])
        grown = grown.buffer(1.0, quad_segs=2).buffer(-1.0, quad_segs=2).difference(others)
        land = land.union(grown)
        pieces = [p for p in pieces if p.space != space]
        pieces.extend(Piece(space, p, False) for p in _polygons(grown))
    return pieces, land


# --- Shared borders, as the loader wants them --------------------------------------------------


Ring = list[tuple[float, float]]


def tidy(pieces: list[Piece], min_scenery: float, tolerance: float) -> list[tuple[Piece, list[Ring]]]:
    """Each piece as simplified rings (its outline, then a sea's holes where its island spaces lie)
    that share their points along shared borders (no vertex of one in the middle of another's
    edge), rounded to the committed precision."""
    kept = [p for p in pieces if p.space is not None or p.polygon.area >= min_scenery]
    islands = shapely.STRtree(
        [Polygon(p.polygon.exterior) for p in kept if p.space is not None and not p.sea]
    )
    shapes = []
    for piece in kept:
        holes = []
        if piece.sea:
            # A sea keeps the holes its island spaces fill; scenery islands are drawn over it.
            holes = [
                r
                for r in piece.polygon.interiors
                if len(islands.query(Polygon(r).representative_point(), predicate="within"))
            ]
        shapes.append(Polygon(piece.polygon.exterior, holes))
    # Node every border with every other (a vertex of one on another's edge becomes a vertex of
    # both), then give each face back to the smallest piece it lies in: a coverage whose
    # neighbours share their vertices.
    rings = [ring for g in shapes for ring in (g.exterior, *g.interiors)]
    lines = shapely.unary_union(rings)
    faces = list(shapely.polygonize(list(getattr(lines, "geoms", [lines]))).geoms)
    tree = shapely.STRtree(shapes)
    owned: dict[int, list[Any]] = defaultdict(list)
    for face in faces:
        found = [int(k) for k in tree.query(face.representative_point(), predicate="within")]
        # A space first (the smallest: an island before its sea); else scenery (land beyond the
        # board's edge); scenery islands lie over their sea and take no part of it.
        spaces = [k for k in found if kept[k].space is not None]
        if spaces or found:
            owned[min(spaces or found, key=lambda k: shapes[k].area)].append(face)
    covered = [k for k in range(len(shapes)) if k in owned]
    simplified = list(shapes)
    for k, geometry in zip(
        covered, shapely.coverage_simplify([unary_union(owned[k]) for k in covered], tolerance), strict=True
    ):
        simplified[k] = geometry
    for k in range(len(shapes)):
        if k not in owned:
            simplified[k] = shapes[k].simplify(tolerance, preserve_topology=True)
    factor = 10**PRECISION

    def rounded(coords: Any) -> Ring:
        ring = [(round(x * factor) / factor, round(y * factor) / factor) for x, y in list(coords)[:-1]]
        return _unspiked([p for k, p in enumerate(ring) if p != ring[k - 1]])

    out = []
    for piece, geometry in zip(kept, simplified, strict=True):
        main = max(_polygons(geometry), key=lambda g: g.area)
        # Only a sea has holes (its island spaces): a sliver of water that simplifying left inside
        # a land space is that space's.
        holes = [rounded(r.coords) for r in main.interiors] if piece.sea else []
        out.append((piece, [rounded(main.exterior.coords), *holes]))
    return _split_edges(out)


def _split_edges(shaped: list[tuple[Piece, list[Ring]]]) -> list[tuple[Piece, list[Ring]]]:
    """Rounding can leave a vertex of one ring on the middle of a neighbour's edge: add it there."""
    cells: dict[tuple[int, int], set[tuple[float, float]]] = defaultdict(set)
    for _, rings in shaped:
        for ring in rings:
            for p in ring:
                cells[(int(p[0] // 4), int(p[1] // 4))].add(p)
    return [(piece, [_unspiked(_split_ring(ring, cells)) for ring in rings]) for piece, rings in shaped]


def _unspiked(ring: Ring) -> Ring:
    """Rounding can fold an edge back on itself (a, b, a): a spike of no area, which makes the ring
    cross itself. Its tip and the repeated point go, until no spike is left."""
    ring = list(ring)
    k = 0
    while len(ring) > 3 and k < len(ring):
        if ring[k - 1] == ring[(k + 1) % len(ring)]:
            del ring[k]
            ring.pop(k % len(ring))
            k = max(0, k - 2)
        else:
            k += 1
    return ring


def _split_ring(ring: Ring, cells: dict[tuple[int, int], set[tuple[float, float]]]) -> Ring:
    fixed: Ring = []
    for k, a in enumerate(ring):
        b = ring[(k + 1) % len(ring)]
        fixed.append(a)
        length2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2
        if length2 == 0:
            continue
        found = []
        for cx in range(int(min(a[0], b[0]) // 4), int(max(a[0], b[0]) // 4) + 1):
            for cy in range(int(min(a[1], b[1]) // 4), int(max(a[1], b[1]) // 4) + 1):
                for p in cells.get((cx, cy), ()):
                    if p in (a, b):
                        continue
                    t = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / length2
                    if 0 < t < 1:
                        foot = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
                        if math.dist(foot, p) <= 0.06:
                            found.append((t, p))
        fixed.extend(p for _, p in sorted(found))
    return fixed


# --- Labels ------------------------------------------------------------------------------------


UNIT_CLEARANCE = 12.5
"""Drawing units around a space's point kept free of its label: the supply centre's ring and the
unit drawn there."""


def unit_spot(polygon: Polygon, wanted: tuple[float, float]) -> tuple[float, float]:
    """Where a space's unit and centre go: its first point, unless that is too near its edge for
    them; then the nearest spot that is far enough in (as far in as the space allows)."""
    pole = shapely.ops.polylabel(polygon, 0.5)
    room = min(UNIT_CLEARANCE - 2, 0.9 * polygon.exterior.distance(pole))
    if polygon.contains(Point(wanted)) and polygon.exterior.distance(Point(wanted)) >= room:
        return wanted
    deep = polygon.buffer(-room)
    if deep.is_empty:
        return (pole.x, pole.y)
    spot = shapely.ops.nearest_points(deep, Point(wanted))[0]
    return (spot.x, spot.y)


BOLD_WIDTHS = {
    **dict(
        zip(
            "ABCDEFGHIJKLM",
            (0.774, 0.762, 0.734, 0.830, 0.683, 0.683, 0.821, 0.837, 0.372, 0.372, 0.775, 0.637, 0.995),
            strict=True,
        )
    ),
    **dict(
        zip(
            "NOPQRSTUVWXYZ",
            (0.837, 0.850, 0.733, 0.850, 0.770, 0.720, 0.682, 0.812, 0.774, 1.103, 0.771, 0.724, 0.725),
            strict=True,
        )
    ),
}
"""Advance widths (in ems) of the capitals of DejaVu Sans Bold, the labels' first font."""


def label_box(at: tuple[float, float], lines: list[str], size: float) -> Any:
    """The box a label of ``size`` units takes, centred on ``at`` as the renderer writes it (one
    line with its baseline at ``at``; two lines half a line above and below), with the light halo
    drawn around its letters."""
    width = max(size * sum(_width(ch) for ch in line) for line in lines) + 3
    top, bottom = (-0.78, 0.25) if len(lines) == 1 else (-1.28, 0.75)
    return box(at[0] - width / 2, at[1] + top * size, at[0] + width / 2, at[1] + bottom * size)


def _width(ch: str) -> float:
    if ch == " ":
        return 0.35
    if ch.islower():
        return 0.64
    return BOLD_WIDTHS.get(ch, 0.7)


def _best_label(
    polygon: Polygon,
    at: tuple[float, float],
    clear: Any,
    text: list[str],
    size: float,
    step: float,
    reach: float = 0.0,
) -> tuple[float, tuple[float, float], Any] | None:
    """The best spot for a label in ``polygon`` (or up to ``reach`` around it) whose box misses
    ``clear`` and, unless it may go beside the polygon (``reach``), is centred in it (a name
    centred over a bay or a neighbour reads as theirs): the most inside, then the nearest to just
    under ``at``. Returns (share of the box inside, spot, box)."""
    inner = shapely.prepared.prep(polygon.buffer(-0.8))
    middle = shapely.prepared.prep(polygon.buffer(-3.0))
    blocked = shapely.prepared.prep(clear)
    x0, y0, x1, y1 = polygon.buffer(reach).bounds if reach else polygon.bounds
    best: tuple[tuple[float, float], tuple[float, float], Any] | None = None
    y = y0
    while y <= y1 + size:
        x = x0
        while x <= x1:
            candidate = label_box((x, y), text, size)
            if not blocked.intersects(candidate):
                inside = (
                    1.0
                    if inner.contains(candidate)
                    else candidate.intersection(polygon).area / candidate.area
                )
                # (The centre a few units in: a browser's box around the text is not quite this.)
                centred = inside == 1.0 or reach > 0 or middle.contains(candidate.centroid)
                score = (round(inside, 2), -math.dist((x, y), (at[0], at[1] + 4)))
                if centred and (best is None or score > best[0]):
                    best = (score, (x, y), candidate)
            x += step
        y += step
    return None if best is None else (best[0][0], best[1], best[2])


def _place_one(
    polygon: Polygon,
    wanted: tuple[float, float],
    clear_of: Any,
    text: list[str],
    size: float,
    clearance: float,
) -> tuple[tuple[float, tuple[float, float], Any] | None, tuple[float, float]]:
    """The best spot for ``text`` in ``polygon`` near ``wanted`` (see :func:`place_labels`), and
    where the space's point goes then."""
    best = _best_label(polygon, wanted, clear_of(wanted), text, size, 1.5)
    point = wanted
    if best is None or best[0] < 1.0:
        room = min(clearance - 2, 0.9 * polygon.exterior.distance(shapely.ops.polylabel(polygon, 0.5)))
        deep = polygon.buffer(-room)
        spots = []
        x0, y0, x1, y1 = deep.bounds if not deep.is_empty else (0, 0, -1, -1)
        y = y0
        while y <= y1:
            x = x0
            while x <= x1:
                if deep.contains(Point(x, y)):
                    spots.append((x, y))
                x += 2.0
            y += 2.0
        spots.sort(key=lambda p: math.dist(p, wanted))
        for at in spots[:60]:
            found = _best_label(polygon, at, clear_of(at), text, size, 2.0)
            if found is not None and (best is None or found[0] > best[0]):
                best, point = found, at
                if found[0] >= 1.0:
                    break
    if best is None or best[0] < 0.5:
        # An island too small for its name: the name goes beside it, as printed boards do.
        beside = _best_label(polygon, wanted, clear_of(point), text, size, 1.5, reach=2.5 * size)
        if beside is not None and (best is None or beside[0] >= best[0]):
            best = beside
    return best, point


def place_labels(
    spaces: list[dict[str, Any]],
    polygons: dict[str, Polygon],
    size: float,
    frame_box: Polygon,
    short: dict[str, str] | None = None,
) -> dict[str, tuple[float, float]]:
    """A spot for each space's label: its box inside the space, clear of the space's point (where
    the unit and the centre ring go), of split coasts' marks and of every label already placed;
    the nearest such spot to the point. The smallest spaces choose first (they have least room).
    Where the label cannot fit whole beside the point, the point moves (within the space) to where
    it can; failing that, the label goes where most of it lies inside."""
    short = short or {}
    placed: list[Any] = []
    out: dict[str, tuple[float, float]] = {}
    outside = frame_box.buffer(1000).difference(frame_box.buffer(-1))  # a name stays on the board
    for sp in sorted(spaces, key=lambda sp: polygons[sp["id"]].area):
        polygon = polygons[sp["id"]]
        sp.pop("label", None)
        text = label_text(sp)
        wanted = (sp["at"][0], sp["at"][1])
        clearance = UNIT_CLEARANCE if sp.get("centre") else UNIT_CLEARANCE - 3
        coasts = [Point(c).buffer(9) for c in sp.get("coast_at", {}).values()]

        def clear_of(
            at: tuple[float, float], clearance: float = clearance, coasts: list[Any] = coasts
        ) -> Any:
            return unary_union([Point(at).buffer(clearance), *coasts, *placed, outside])

        best, spot = _place_one(polygon, wanted, clear_of, text, size, clearance)
        if (best is None or best[0] < 1.0) and sp["id"] in short:
            # The name has no room: the board writes the short form the recipe gives, if it fits
            # better.
            shorter = label_lines(sp["id"], short[sp["id"]])
            best_short, spot_short = _place_one(polygon, wanted, clear_of, shorter, size, clearance)
            if best_short is not None and (best is None or best_short[0] > best[0]):
                best, spot = best_short, spot_short
                sp["label"] = short[sp["id"]]
        sp["at"] = [round(spot[0], 1), round(spot[1], 1)]
        if best is None:
            print(f"warning: no room for the label of {sp['id']}", file=sys.stderr)
            continue
        if best[0] < 1.0:
            print(f"warning: the label of {sp['id']} lies {best[0]:.0%} inside it", file=sys.stderr)
        out[sp["id"]] = (round(best[1][0], 1), round(best[1][1], 1))
        placed.append(best[2].buffer(1.0))
    return out


def label_text(sp: dict[str, Any]) -> list[str]:
    """What the board writes in a space, as the renderer writes it: its id (``BUL``) or its name,
    on two lines if long (:func:`interboard.render.base.label_lines`)."""
    return label_lines(sp["id"], sp.get("label") or sp["name"])


# --- The board file ----------------------------------------------------------------------------


def make(recipe_path: Path, labels: bool = True, force: bool = False) -> list[str]:
    """Draw the board a recipe names and say what the loader would refuse (see :func:`report`);
    write it into its map file if nothing (or ``force``: to look at a drawing still being placed)."""
    recipe = json.loads(recipe_path.read_text(encoding="utf-8"))
    map_path = ROOT / recipe["map"]
    board = json.loads(map_path.read_text(encoding="utf-8"))
    draw(recipe, board, labels)
    problems = report(board)
    if problems and not force:
        return problems
    map_path.write_text(mapfile.dump(board), encoding="utf-8")
    scenery = len(board["drawing"]["scenery"])
    print(f"{recipe['map']}: {len(board['spaces'])} outlines, {scenery} pieces of scenery")
    return problems


def draw(recipe: dict[str, Any], board: dict[str, Any], labels: bool = True) -> None:
    """Give a map file's spaces their outlines, points and label spots, and its drawing its size,
    scenery and passages, from the recipe and the spaces' ``geo``."""
    frame = make_frame(recipe)
    pieces, first_point = cut_board(recipe, board, frame)
    min_scenery = float(recipe.get("min_scenery", 6.0))
    shaped = tidy(pieces, min_scenery, float(recipe.get("simplify", 0.5)))
    outline = {piece.space: rings for piece, rings in shaped if piece.space is not None}
    font = float(recipe.get("label_size", 10))
    for sp in board["spaces"]:
        ring, *holes = outline[sp["id"]]
        sp["outline"] = [list(p) for p in ring]
        sp.pop("holes", None)
        if holes:
            sp["holes"] = [[list(p) for p in hole] for hole in holes]
        polygon = Polygon(ring, holes)
        at = unit_spot(polygon, first_point[sp["id"]])
        sp["at"] = [round(at[0], 1), round(at[1], 1)]
        for coast, (lon, lat) in sp.get("coast_geo", {}).items():
            sp.setdefault("coast_at", {})[coast] = [round(v, 1) for v in frame(lon, lat)]
    polygons = {
        sp["id"]: max(_polygons(Polygon(sp["outline"], sp.get("holes", [])).buffer(0)), key=lambda g: g.area)
        for sp in board["spaces"]
    }
    spots = (
        place_labels(
            board["spaces"], polygons, font, box(0, 0, frame.width, frame.height), recipe.get("short")
        )
        if labels
        else {}
    )
    for sp in board["spaces"]:
        sp.pop("label_at", None)
        if sp["id"] in spots:
            sp["label_at"] = list(spots[sp["id"]])
    drawing = board.setdefault("drawing", {})
    drawing["label_size"] = font
    drawing["width"], drawing["height"] = frame.width, frame.height
    drawing["sea_lines"] = recipe.get("passages", [])
    if recipe.get("walls"):
        drawing["walls"] = recipe["walls"]
    drawing["scenery"] = [[list(p) for p in rings[0]] for piece, rings in shaped if piece.space is None]


def report(board: dict[str, Any]) -> list[str]:
    """What the loader would refuse, all at once (its own check, :func:`coverage`, on the written
    outlines): outlines that cross or overlap, spaces that touch without being adjacent (but for
    the listed walls), and adjacent spaces that do not touch (a passage, ``sea_lines``, may join two
    that do not)."""
    spaces = [sp for sp in board["spaces"] if sp["kind"] != "impassable"]
    ids = [sp["id"] for sp in spaces]
    shared, crossings = coverage(
        [[tuple(p) for p in sp["outline"]] for sp in spaces],
        [[[tuple(p) for p in hole] for hole in sp.get("holes", [])] for sp in spaces],
    )
    adjacent: set[tuple[str, str]] = set()
    for table in board["adjacency"].values():
        for a, b in table:
            a, b = a.split("/")[0], b.split("/")[0]
            adjacent.add((min(a, b), max(a, b)))
    lines = {(min(a, b), max(a, b)) for a, b in board.get("drawing", {}).get("sea_lines", [])}
    walls = {(min(a, b), max(a, b)) for a, b in board.get("drawing", {}).get("walls", [])}
    touching = {(min(ids[i], ids[j]), max(ids[i], ids[j])): length for (i, j), length in shared.items()}
    problems = [f"{ids[i]}{'' if j is None else ' and ' + ids[j]}: {why}" for i, j, why in crossings]
    for sp in spaces:
        outline = [tuple(p) for p in sp["outline"]]
        holes = [[tuple(p) for p in hole] for hole in sp.get("holes", [])]
        if not within(outline, holes, tuple(sp["at"])):
            problems.append(f"{sp['id']}: its point {sp['at']} is not inside its outline")
    for pair, length in sorted(touching.items()):
        if length >= MIN_BORDER and pair not in adjacent and pair not in walls:
            problems.append(f"{pair[0]} and {pair[1]} touch ({length:.1f} units) but are not adjacent")
        if length >= MIN_BORDER and pair in lines:
            problems.append(f"{pair[0]} and {pair[1]} touch: they need no passage")
    drawn = set(ids)
    for pair in sorted(adjacent - lines):
        if pair[0] in drawn and pair[1] in drawn and touching.get(pair, 0.0) < MIN_BORDER:
            problems.append(
                f"{pair[0]} and {pair[1]} are adjacent but touch along {touching.get(pair, 0.0):.1f} units"
            )
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="recipes in tools/maps/ (without .json)")
    parser.add_argument("--all", action="store_true", help="every recipe")
    parser.add_argument(
        "--no-labels", action="store_true", help="leave the names unplaced (a quick run while placing spaces)"
    )
    parser.add_argument(
        "--force", action="store_true", help="write the map file even if the loader would refuse it"
    )
    args = parser.parse_args(argv)
    names = sorted(p.stem for p in RECIPES.glob("*.json")) if args.all else args.names
    if not names:
        parser.error("name a recipe, or --all")
    failed = False
    try:
        for name in names:
            for problem in make(RECIPES / f"{name}.json", labels=not args.no_labels, force=args.force):
                print(f"problem: {problem}", file=sys.stderr)
                failed = True
    except RecipeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
