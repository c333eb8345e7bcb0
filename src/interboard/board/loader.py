"""Load and validate map files in the interboard map format (``interboard-map/1``).

The format, one JSON object per board::

    {
      "format": "interboard-map/1",
      "id": "standard", "title": "Standard Diplomacy", "source": "...",
      "spaces": [{"id": "BUL", "name": "Bulgaria", "kind": "coast", "centre": true,
                  "coasts": ["EC", "SC"], "aliases": ["bulgaria"]}, ...],
      "adjacency": {"army": [["ALB", "GRE"], ...], "fleet": [["AEG", "BUL/SC"], ...]},
      "powers": [{"id": "FRANCE", "name": "France", "adjective": "French", "colour": "#4fa3d9",
                  "home_centres": ["BRE", ...], "homeland": ["BRE", "BUR", ...]}, ...],
      "start": {"year": 1901, "units": {"FRANCE": ["F BRE", ...]}, "centres": {"FRANCE": [...]}},
      "victory_centres": 18,
      "drawing": {"width": 1000, "height": 800},
      "regions": [{"id": "AF", "name": "Africa", "spaces": ["EGY", ...], "bonus": 3}, ...]
    }

Optional parts: ``powers``, ``start`` and ``victory_centres`` belong to the Diplomacy family and may be
left out by maps of other families; ``regions`` group spaces (continents with a bonus). A file may
hold several printed boards of their own sizes, drawn left to right in the order given:
``"boards": [{"id": "Europe", "width": 1800, "height": 1000}, ...]``, each space then naming its
``"board"`` (its ``at`` is in that board's drawing units). With a
``drawing`` size every passable space gives its drawing position ``"at": [x, y]`` and each split
coast its own (``"coast_at": {"EC": [x, y]}``); ``"radius": r`` draws a space no further than ``r``
from its position (an island: the sea shows around it).

A map may instead draw each space as its own polygon, ``"outline": [[x, y], ...]`` (then every
passable space has one, containing its ``at``); a sea may cut its islands out of its outline
(``"holes": [[[x, y], ...], ...]``) and a space may say where its name is written (``"label_at"``)
and, where its name has no room, the short form written instead (``"label"``). Its ``drawing``
then says ``"wrap": true`` when the left and right edges meet (a world map), names seas
(``"seas": [{"name": ..., "at": [x, y]}]``), lists the adjacent pairs joined across the sea
(``"sea_lines": [["ALA", "KAM"], ...]``) and the coasts a sea touches without being adjacent to
(``"walls"``: drawn as walls), may give land that is no space (``"scenery"``: polygons; in a file
of several boards, ``{"board": ..., "polygon": ...}``) and the size its labels were placed for
(``"label_size"``); a region gives where its name goes
(``"at"``). The outlines are checked as :mod:`.outlines` says: what touches on the drawing is what
is adjacent, except the sea lines.

Adjacency pairs are undirected. Army pairs join spaces; fleet pairs join locations (a space, or a
coast written ``SPACE/COAST``). Every check failure raises :class:`MapDataError` naming the file and
the entry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from . import outlines as geo
from .errors import MapDataError
from .model import Board, Location, Point, Power, Region, Space, SpaceKind, StartPosition, UnitKind

FORMAT = "interboard-map/1"


def load_board(path: str | Path) -> Board:
    """Load a map file from disk."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MapDataError(str(p), "file", f"cannot be read ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise MapDataError(str(p), f"line {exc.lineno} column {exc.colno}", f"not JSON: {exc.msg}") from exc
    return board_from_data(data, source=p.name)


def load_packaged_board(package: str, name: str) -> Board:
    """Load a map shipped as a resource of ``package`` (a family's ``data`` package) by its file stem.

    Its outlines are not checked against each other: that check costs a second and a half of every
    server start for the shipped boards, whose outlines the tests check (``tests/board``); every
    other field is checked as for any map."""
    ref = resources.files(package).joinpath(f"{name}.json")
    try:
        text = ref.read_text(encoding="utf-8")
    except OSError as exc:
        raise MapDataError(f"{name}.json", "file", f"is not shipped in {package}") from exc
    return board_from_data(json.loads(text), source=f"{name}.json", check_outlines=False)


def packaged_board_names(package: str) -> list[str]:
    """The maps shipped as resources of ``package``, by file stem."""
    root = resources.files(package)
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".json"))


class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, problem: str) -> MapDataError:
        return MapDataError(self.source, where, problem)

    def field(self, obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
        if key not in obj:
            raise self.fail(where, f"missing field '{key}'")
        value = obj[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(where, f"field '{key}' must be {names}, not {type(value).__name__}")
        return value

    def point(self, value: Any, where: str, size: Point | None) -> Point:
        if not (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(x, int | float) and not isinstance(x, bool) for x in value)
        ):
            raise self.fail(where, "a drawing position is a pair of numbers [x, y]")
        x, y = float(value[0]), float(value[1])
        if size is not None and not (0 <= x <= size[0] and 0 <= y <= size[1]):
            raise self.fail(
                where, f"drawing position [{x:g}, {y:g}] is outside the {size[0]:g}x{size[1]:g} drawing"
            )
        return (x, y)


def board_from_data(data: Any, source: str = "<map>", *, check_outlines: bool = True) -> Board:
    """Validate map data (already parsed from JSON) and build the immutable :class:`Board`.

    ``check_outlines``: that the spaces' outlines touch where they are adjacent and nowhere else
    (:func:`_check_outlines`); off only for maps shipped with interboard, checked by its tests."""
    c = _Checker(source)
    if not isinstance(data, dict):
        raise c.fail("top level", "must be a JSON object")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise c.fail("format", f"expected '{FORMAT}', found {fmt!r}")
    board_id = c.field(data, "id", str, "top level")
    title = c.field(data, "title", str, "top level")
    size: Point | None = None
    # A file of several printed boards gives their sizes in "boards"; its drawing holds the rest.
    drawn_apart = (
        "boards" in data and isinstance(data.get("drawing"), dict) and "width" not in data["drawing"]
    )
    if "drawing" in data and not drawn_apart:
        drawing = c.field(data, "drawing", dict, "top level")
        width = c.field(drawing, "width", (int, float), "drawing")
        height = c.field(drawing, "height", (int, float), "drawing")
        if width <= 0 or height <= 0:
            raise c.fail("drawing", "width and height must be positive")
        size = (float(width), float(height))

    printed = _printed_boards(c, data)
    if printed and size is None:
        size = (max(w for w, _ in printed.values()), max(h for _, h in printed.values()))

    spaces: list[Space] = []
    locations: list[Location] = []
    space_by_id: dict[str, int] = {}
    location_by_id: dict[str, int] = {}
    raw_spaces = c.field(data, "spaces", list, "top level")
    for i, raw in enumerate(raw_spaces):
        where = f"spaces[{i}]"
        if not isinstance(raw, dict):
            raise c.fail(where, "must be an object")
        sid = c.field(raw, "id", str, where).upper()
        where = f"spaces[{i}] ({sid})"
        if sid in space_by_id:
            raise c.fail(where, "duplicate space id")
        try:
            kind = SpaceKind(c.field(raw, "kind", str, where))
        except ValueError:
            raise c.fail(
                where, f"kind must be one of {[k.value for k in SpaceKind]}, not {raw['kind']!r}"
            ) from None
        centre = bool(raw.get("centre", False))
        if centre and kind in (SpaceKind.SEA, SpaceKind.IMPASSABLE):
            raise c.fail(where, f"a {kind.value} space cannot be a supply centre")
        coast_codes = raw.get("coasts", [])
        if coast_codes and kind is not SpaceKind.COAST:
            raise c.fail(where, "only a coast space can have split coasts")
        if not isinstance(coast_codes, list) or not all(isinstance(x, str) for x in coast_codes):
            raise c.fail(where, "coasts must be a list of coast codes")
        aliases = raw.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(x, str) for x in aliases):
            raise c.fail(where, "aliases must be a list of strings")
        space_board = board_id
        space_size = size
        if printed:
            space_board = c.field(raw, "board", str, where)
            if space_board not in printed:
                raise c.fail(where, f"board {space_board!r} is not one of the file's boards {list(printed)}")
            space_size = printed[space_board]
        at: Point | None = None
        if "at" in raw:
            at = c.point(raw["at"], where, space_size)
        elif size is not None and kind is not SpaceKind.IMPASSABLE:
            raise c.fail(where, "missing field 'at': a map with a drawing places every passable space")
        coast_at = raw.get("coast_at", {})
        if not isinstance(coast_at, dict):
            raise c.fail(where, "coast_at must map coast codes to drawing positions")
        coast_at = {str(code).upper(): value for code, value in coast_at.items()}
        if (coast_at or (size is not None and coast_codes)) and set(coast_at) != {
            code.upper() for code in coast_codes
        }:
            raise c.fail(where, f"coast_at must give a drawing position for each of the coasts {coast_codes}")
        outline: tuple[Point, ...] = ()
        if "outline" in raw:
            points = c.field(raw, "outline", list, where)
            outline = tuple(c.point(v, f"{where} outline", space_size) for v in points)
            if at is None:
                raise c.fail(where, "its drawing position 'at' must lie inside its outline")
        holes: tuple[tuple[Point, ...], ...] = ()
        if "holes" in raw:
            if not outline:
                raise c.fail(where, "holes are cut out of an outline: give the space its outline")
            holes = tuple(
                tuple(c.point(v, f"{where} holes[{k}]", space_size) for v in ring)
                for k, ring in enumerate(c.field(raw, "holes", list, where))
            )
        label_at: Point | None = None
        if "label_at" in raw:
            label_at = c.point(raw["label_at"], f"{where} label_at", space_size)
        label: str | None = None
        if "label" in raw:
            label = c.field(raw, "label", str, where).strip()
            if not label:
                raise c.fail(where, "label must be the text to write, not empty")
        radius: float | None = None
        if "radius" in raw:
            radius = c.field(raw, "radius", (int, float), where)
            if at is None or not float(radius) > 0:
                raise c.fail(where, "radius must be a positive number, for a space with a drawing position")
            radius = float(radius)
        space_index = len(spaces)
        space_by_id[sid] = space_index
        coast_locs: list[int] = []
        if kind is not SpaceKind.IMPASSABLE:
            location_by_id[sid] = len(locations)
            locations.append(Location(len(locations), sid, space_index, None, at))
            for code in coast_codes:
                coast_id = f"{sid}/{code.upper()}"
                location_by_id[coast_id] = len(locations)
                coast_locs.append(len(locations))
                coast_point = (
                    c.point(coast_at[code.upper()], f"{where} coast {code}", space_size) if coast_at else at
                )
                locations.append(Location(len(locations), coast_id, space_index, code.upper(), coast_point))
        spaces.append(
            Space(
                index=space_index,
                id=sid,
                name=c.field(raw, "name", str, where),
                kind=kind,
                centre=centre,
                board=space_board if printed else str(data.get("board", board_id)),
                coasts=tuple(coast_locs),
                aliases=tuple(aliases),
                at=at,
                radius=radius,
                outline=outline,
                holes=holes,
                label_at=label_at,
                label=label,
            )
        )

    army_adj: list[set[int]] = [set() for _ in locations]
    fleet_adj: list[set[int]] = [set() for _ in locations]
    adjacency = c.field(data, "adjacency", dict, "top level")
    for kind_name, adj_table in (("army", army_adj), ("fleet", fleet_adj)):
        pairs = c.field(adjacency, kind_name, list, "adjacency")
        for j, pair in enumerate(pairs):
            where = f"adjacency.{kind_name}[{j}]"
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                raise c.fail(where, "must be a pair of location ids")
            ends = []
            for end in pair:
                lid = location_by_id.get(end.upper())
                if lid is None:
                    raise c.fail(where, f"unknown location '{end}'")
                loc = locations[lid]
                space = spaces[loc.space]
                if kind_name == "army":
                    if loc.coast is not None:
                        raise c.fail(where, f"army adjacency joins spaces, not coasts ('{end}')")
                    if space.kind is SpaceKind.SEA:
                        raise c.fail(where, f"army adjacency cannot touch the sea space '{end}'")
                else:
                    if space.kind is SpaceKind.LAND:
                        raise c.fail(where, f"fleet adjacency cannot touch the land space '{end}'")
                    if space.coasts and loc.coast is None:
                        raise c.fail(where, f"'{end}' has split coasts: name the coast")
                ends.append(lid)
            a, b = ends
            if locations[a].space == locations[b].space:
                raise c.fail(where, "a location cannot be adjacent to its own space")
            adj_table[a].add(b)
            adj_table[b].add(a)

    powers: list[Power] = []
    power_by_id: dict[str, Power] = {}
    home_owner: dict[int, str] = {}
    for k, raw in enumerate(c.field(data, "powers", list, "top level") if "powers" in data else []):
        where = f"powers[{k}]"
        if not isinstance(raw, dict):
            raise c.fail(where, "must be an object")
        pid = c.field(raw, "id", str, where).upper()
        where = f"powers[{k}] ({pid})"
        if pid in power_by_id:
            raise c.fail(where, "duplicate power id")

        def space_list(key: str, where: str = where, raw: dict[str, Any] = raw) -> tuple[int, ...]:
            out = []
            for name in c.field(raw, key, list, where):
                idx = space_by_id.get(str(name).upper())
                if idx is None:
                    raise c.fail(where, f"{key}: unknown space '{name}'")
                out.append(idx)
            return tuple(out)

        homes = space_list("home_centres")
        homeland = space_list("homeland")
        for h in homes:
            if not spaces[h].centre:
                raise c.fail(where, f"home centre '{spaces[h].id}' is not a supply centre")
            if h not in homeland:
                raise c.fail(where, f"home centre '{spaces[h].id}' is missing from the homeland")
            if h in home_owner:
                raise c.fail(where, f"home centre '{spaces[h].id}' is also a home centre of {home_owner[h]}")
            home_owner[h] = pid
        power = Power(
            id=pid,
            name=c.field(raw, "name", str, where),
            adjective=str(raw.get("adjective", raw["name"])),
            colour=str(raw.get("colour", "#888888")),
            home_centres=homes,
            homeland=homeland,
        )
        powers.append(power)
        power_by_id[pid] = power

    start_raw = (
        c.field(data, "start", dict, "top level")
        if "start" in data
        else {"year": 0, "units": {}, "centres": {}}
    )
    units: list[tuple[str, UnitKind, int]] = []
    for pid, unit_list in c.field(start_raw, "units", dict, "start").items():
        if pid.upper() not in power_by_id:
            raise c.fail(f"start.units.{pid}", "unknown power")
        for text in unit_list:
            where = f"start.units.{pid} ('{text}')"
            parts = str(text).split()
            if len(parts) != 2 or parts[0].upper() not in ("A", "F"):
                raise c.fail(where, "a unit is written 'A LOC' or 'F LOC'")
            unit_loc = location_by_id.get(parts[1].upper())
            if unit_loc is None:
                raise c.fail(where, f"unknown location '{parts[1]}'")
            unit_kind = UnitKind(parts[0].upper())
            if not _can_stand(unit_kind, locations[unit_loc], spaces[locations[unit_loc].space]):
                raise c.fail(where, f"{unit_kind.with_article} cannot stand at {parts[1]}")
            units.append((pid.upper(), unit_kind, unit_loc))
    centres: list[tuple[int, str]] = []
    for pid, centre_list in c.field(start_raw, "centres", dict, "start").items():
        for name in centre_list:
            idx = space_by_id.get(str(name).upper())
            if idx is None or not spaces[idx].centre:
                raise c.fail(f"start.centres.{pid}", f"'{name}' is not a supply centre")
            centres.append((idx, pid.upper()))
    victory = c.field(data, "victory_centres", int, "top level") if "victory_centres" in data else 0
    regions = _regions(c, data, space_by_id, size) if "regions" in data else ()
    wrap, seas, sea_lines = _sea_drawing(c, data, space_by_id, size)
    walls = _pairs(c, data["drawing"], "walls", space_by_id) if isinstance(data.get("drawing"), dict) else ()
    scenery = _scenery(c, data, size, printed)
    drawing = data.get("drawing")
    label_size = drawing.get("label_size") if isinstance(drawing, dict) else None
    if label_size is not None and (not isinstance(label_size, int | float) or label_size <= 0):
        raise c.fail("drawing", "label_size must be a positive number")
    if check_outlines and (any(sp.outline for sp in spaces) or sea_lines):
        _check_outlines(c, spaces, army_adj, fleet_adj, locations, sea_lines, walls)

    return Board(
        id=board_id,
        title=title,
        spaces=tuple(spaces),
        locations=tuple(locations),
        army_adj=tuple(frozenset(s) for s in army_adj),
        fleet_adj=tuple(frozenset(s) for s in fleet_adj),
        powers=tuple(powers),
        start=StartPosition(c.field(start_raw, "year", int, "start"), tuple(units), tuple(centres)),
        victory_centres=victory,
        source=str(data.get("source", "")),
        space_by_id=space_by_id,
        location_by_id=location_by_id,
        power_by_id=power_by_id,
        regions=regions,
        size=size,
        boards=tuple(printed),
        sizes=tuple(printed.items()),
        wrap=wrap,
        sea_lines=sea_lines,
        walls=walls,
        seas=seas,
        scenery=scenery,
        label_size=float(label_size) if label_size is not None else None,
    )


def _printed_boards(c: _Checker, data: dict[str, Any]) -> dict[str, Point]:
    """The printed boards of a file that holds several, with their drawing sizes (in order)."""
    if "boards" not in data:
        return {}
    out: dict[str, Point] = {}
    for k, raw in enumerate(c.field(data, "boards", list, "top level")):
        where = f"boards[{k}]"
        if not isinstance(raw, dict):
            raise c.fail(where, "must be an object with id, width and height")
        name = c.field(raw, "id", str, where)
        width = c.field(raw, "width", (int, float), where)
        height = c.field(raw, "height", (int, float), where)
        if name in out:
            raise c.fail(where, f"duplicate board {name!r}")
        if width <= 0 or height <= 0:
            raise c.fail(where, "width and height must be positive")
        out[name] = (float(width), float(height))
    if not out:
        raise c.fail("boards", "must name at least one board")
    return out


def _regions(
    c: _Checker, data: dict[str, Any], space_by_id: dict[str, int], size: Point | None
) -> tuple[Region, ...]:
    regions: list[Region] = []
    seen: set[str] = set()
    for k, raw in enumerate(c.field(data, "regions", list, "top level")):
        where = f"regions[{k}]"
        if not isinstance(raw, dict):
            raise c.fail(where, "must be an object")
        rid = c.field(raw, "id", str, where)
        where = f"regions[{k}] ({rid})"
        if rid in seen:
            raise c.fail(where, "duplicate region id")
        seen.add(rid)
        members: list[int] = []
        for name in c.field(raw, "spaces", list, where):
            idx = space_by_id.get(str(name).upper())
            if idx is None:
                raise c.fail(where, f"unknown space '{name}'")
            members.append(idx)
        bonus = c.field(raw, "bonus", int, where) if "bonus" in raw else 0
        at = c.point(raw["at"], where, size) if "at" in raw else None
        regions.append(Region(rid, c.field(raw, "name", str, where), tuple(members), bonus, at))
    return tuple(regions)


def _sea_drawing(
    c: _Checker, data: dict[str, Any], space_by_id: dict[str, int], size: Point | None
) -> tuple[bool, tuple[tuple[str, Point], ...], tuple[tuple[int, int], ...]]:
    """The drawing's wrap, named seas and sea lines (for maps drawn with outlines)."""
    drawing = data.get("drawing")
    if not isinstance(drawing, dict):
        return False, (), ()
    wrap = drawing.get("wrap", False)
    if not isinstance(wrap, bool):
        raise c.fail("drawing", "wrap must be true or false")
    seas: list[tuple[str, Point]] = []
    for k, raw in enumerate(c.field(drawing, "seas", list, "drawing") if "seas" in drawing else []):
        where = f"drawing.seas[{k}]"
        if not isinstance(raw, dict):
            raise c.fail(where, "must be an object with name and at")
        seas.append((c.field(raw, "name", str, where), c.point(raw.get("at"), where, size)))
    return wrap, tuple(seas), _pairs(c, drawing, "sea_lines", space_by_id)


def _pairs(
    c: _Checker, drawing: dict[str, Any], name: str, space_by_id: dict[str, int]
) -> tuple[tuple[int, int], ...]:
    """A drawing's list of space pairs (``sea_lines``, ``walls``), each sorted."""
    pairs: list[tuple[int, int]] = []
    for k, pair in enumerate(c.field(drawing, name, list, "drawing") if name in drawing else []):
        where = f"drawing.{name}[{k}]"
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise c.fail(where, "must be a pair of space ids")
        ends = [space_by_id.get(x.upper()) for x in pair]
        if None in ends:
            raise c.fail(where, f"unknown space in {pair}")
        a, b = sorted(e for e in ends if e is not None)
        if (a, b) in pairs or a == b:
            raise c.fail(where, f"{pair} is listed twice or joins a space to itself")
        pairs.append((a, b))
    return tuple(pairs)


def _scenery(
    c: _Checker, data: Mapping[str, Any], size: Point | None, printed: dict[str, Point]
) -> tuple[tuple[str, tuple[Point, ...]], ...]:
    """Land drawn for the eye (``drawing.scenery``: polygons that are no space). In a file of several
    printed boards each piece names its board: ``{"board": "Europe", "polygon": [[x, y], ...]}``."""
    drawing = data.get("drawing")
    if not isinstance(drawing, dict) or "scenery" not in drawing:
        return ()
    out = []
    for k, raw in enumerate(c.field(drawing, "scenery", list, "drawing")):
        where = f"drawing.scenery[{k}]"
        board, piece_size = str(data.get("board", data.get("id", ""))), size
        if isinstance(raw, dict):
            board = c.field(raw, "board", str, where)
            if board not in printed:
                raise c.fail(where, f"board {board!r} is not one of the file's boards {list(printed)}")
            piece_size = printed[board]
            raw = raw.get("polygon")
        elif printed:
            raise c.fail(
                where, 'in a file of several boards, a piece of scenery is {"board": ..., "polygon": ...}'
            )
        if not isinstance(raw, list) or len(raw) < 3:
            raise c.fail(where, "a piece of scenery is a polygon of at least 3 points [x, y]")
        out.append((board, tuple(c.point(v, where, piece_size) for v in raw)))
    return tuple(out)


def _check_outlines(
    c: _Checker,
    spaces: list[Space],
    army_adj: list[set[int]],
    fleet_adj: list[set[int]],
    locations: list[Location],
    sea_lines: tuple[tuple[int, int], ...],
    walls: tuple[tuple[int, int], ...] = (),
) -> None:
    """What touches on the drawing is what is adjacent: see :mod:`.outlines`. A wall lets a sea touch
    a space it is not adjacent to (a coast the game closes), drawn as a wall; two land spaces that
    touch are always adjacent."""
    drawn = [sp for sp in spaces if sp.kind is not SpaceKind.IMPASSABLE]
    for sp in drawn:
        if not sp.outline:
            raise c.fail(
                f"space {sp.id}", "missing field 'outline': a map with outlines draws every space so"
            )
    adjacent: set[tuple[int, int]] = set()
    for table in (army_adj, fleet_adj):
        for loc, others in enumerate(table):
            for other in others:
                a, b = locations[loc].space, locations[other].space
                adjacent.add((min(a, b), max(a, b)))
    lines = set(sea_lines)
    for a, b in sea_lines:
        if (a, b) not in adjacent:
            raise c.fail("drawing.sea_lines", f"{spaces[a].id} and {spaces[b].id} are not adjacent")
    for a, b in walls:
        if (a, b) in adjacent:
            raise c.fail(
                "drawing.walls", f"{spaces[a].id} and {spaces[b].id} are adjacent: no wall between them"
            )
        if SpaceKind.SEA not in (spaces[a].kind, spaces[b].kind):
            raise c.fail(
                "drawing.walls", f"{spaces[a].id} and {spaces[b].id} are land: land that touches is adjacent"
            )
    boards: dict[str, list[Space]] = {}
    for sp in spaces:
        if sp.outline:
            boards.setdefault(sp.board, []).append(sp)
    for members in boards.values():
        shared, problems = geo.coverage([sp.outline for sp in members], [sp.holes for sp in members])
        for i, j, why in sorted(problems, key=lambda p: (p[1] is not None, p[0], p[1] or 0)):
            if j is None:
                raise c.fail(f"space {members[i].id}", why)
            raise c.fail(f"outlines of {members[i].id} and {members[j].id}", why)
        for sp in members:
            if sp.at is None or not geo.within(sp.outline, sp.holes, sp.at):
                raise c.fail(f"space {sp.id}", "its drawing position 'at' must lie inside its outline")
        drawn_here = [k for k, sp in enumerate(members) if sp.kind is not SpaceKind.IMPASSABLE]
        for u, i in enumerate(drawn_here):
            for j in drawn_here[u + 1 :]:
                sa, sb = members[i], members[j]
                pair = (min(sa.index, sb.index), max(sa.index, sb.index))
                where = f"outlines of {sa.id} and {sb.id}"
                length = shared.get((i, j), 0.0)
                touching = length >= geo.MIN_BORDER
                if touching and pair in lines:
                    raise c.fail(where, "they share a border: they need no sea line")
                if touching and pair not in adjacent and pair not in walls:
                    raise c.fail(where, "they share a border but are not adjacent")
                if not touching and pair in walls:
                    raise c.fail(where, "they do not touch: they need no wall")
                if not touching and pair in adjacent and pair not in lines:
                    raise c.fail(
                        where,
                        f"adjacent, but their outlines share no border (only {length:.1f} units): "
                        "join them with a border, or list them in drawing.sea_lines",
                    )


def _can_stand(kind: UnitKind, loc: Location, space: Space) -> bool:
    if kind is UnitKind.ARMY:
        return space.kind in (SpaceKind.LAND, SpaceKind.COAST) and loc.coast is None
    if space.kind is SpaceKind.SEA:
        return True
    if space.kind is SpaceKind.COAST:
        return (loc.coast is not None) == bool(space.coasts)
    return False


def can_stand(board: Board, kind: UnitKind, loc: int) -> bool:
    """True when a unit of ``kind`` may stand at location ``loc``."""
    location = board.locations[loc]
    return _can_stand(kind, location, board.spaces[location.space])
