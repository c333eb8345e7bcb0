"""Hex maps as board data (``interboard-hexmap/1``) and geographies of several hex maps joined by links.

A hex map file::

    {
      "format": "interboard-hexmap/1", "id": "west", "title": "...", "source": "...",
      "grid": {"prefix": "W", "columns": [33, 84], "rows": [0, 34], "east": false, "shifted_odd": true},
      "hexes": {"W7005": {"terrain": "clear", "nation": "FR", "place": "town", "name": "Calais"}, ...},
      "rivers": [["W4106", "W4205"], ...],
      "all_sea": [["E0113", "E0214"], ...]
    }

A hex absent from ``hexes`` is off the playing area (the board's edge). The terrain and every other
field of a hex are the family's words: the board layer only knows where hexes are, which hexside
has a river or is all sea, and which links join the maps. A *geography* puts maps side by side in
one :class:`~.hexes.Bitboard` and adds *links* between hexes of different maps or off-map *boxes*
(a tunnel, a crossing), each saying what it carries; a game closes links by name as it goes.

Every check failure raises :class:`MapDataError` naming the file and the entry.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from typing import Any

from .errors import MapDataError
from .hexes import DIRECTIONS, OPPOSITE, Bitboard, Grid

FORMAT = "interboard-hexmap/1"


@dataclass(frozen=True, slots=True)
class Hex:
    """One hex of a geography. ``index`` is its bit in the geography's :class:`Bitboard`."""

    index: int
    id: str
    map: str
    col: int
    row: int
    terrain: str
    fields: Mapping[str, Any]
    """Every other field of the hex as the map file gives it (``nation``, ``place``, ``name`` ...)."""

    @property
    def name(self) -> str:
        return str(self.fields.get("name", self.id))

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass(frozen=True, slots=True)
class HexMap:
    id: str
    title: str
    source: str
    grid: Grid
    hexes: Mapping[str, Mapping[str, Any]]
    rivers: tuple[tuple[str, str], ...]
    all_sea: tuple[tuple[str, str], ...]
    stand_in: bool = False


@dataclass(frozen=True, slots=True)
class Box:
    """An off-map place a link reaches (Munich at the far end of a tunnel)."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Link:
    """A join between two places of a geography (hex ids or box ids)."""

    id: str
    a: str
    b: str
    carries: tuple[str, ...]
    """What may pass (the family's words: ``air``, ``supply``, ``reinforcements``)."""
    closes: bool = False
    """The link may close for good during a game."""


def _fail(source: str, where: str, problem: str) -> MapDataError:
    return MapDataError(source, where, problem)


def hexmap_from_data(data: Any, source: str = "<hexmap>") -> HexMap:
    """A hex map from its JSON data, checked."""
    if not isinstance(data, dict):
        raise _fail(source, "file", "must hold a JSON object")
    if data.get("format") != FORMAT:
        raise _fail(source, "format", f"must be {FORMAT!r}, not {data.get('format')!r}")
    for key, kind in (("id", str), ("title", str), ("grid", dict), ("hexes", dict)):
        if not isinstance(data.get(key), kind):
            raise _fail(source, key, f"is missing or not a {kind.__name__}")
    g = data["grid"]
    try:
        grid = Grid(
            str(g["prefix"]),
            (int(g["columns"][0]), int(g["columns"][1])),
            (int(g["rows"][0]), int(g["rows"][1])),
            east=bool(g.get("east", True)),
            shifted_odd=bool(g.get("shifted_odd", True)),
        )
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise _fail(
            source, "grid", f"needs prefix, columns [first, last], rows [first, last] ({exc})"
        ) from None
    hexes: dict[str, Mapping[str, Any]] = {}
    for hid, entry in data["hexes"].items():
        try:
            grid.parse(hid)
        except ValueError as exc:
            raise _fail(source, f"hexes.{hid}", str(exc)) from None
        if not isinstance(entry, dict) or not isinstance(entry.get("terrain"), str):
            raise _fail(source, f"hexes.{hid}", "must be an object with a terrain")
        hexes[hid] = entry
    sides: dict[str, tuple[tuple[str, str], ...]] = {}
    for key in ("rivers", "all_sea"):
        pairs = []
        for k, pair in enumerate(data.get(key, [])):
            where = f"{key}[{k}]"
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
                raise _fail(source, where, "must be a pair of hex ids")
            a, b = pair
            for h in (a, b):
                if h not in hexes:
                    raise _fail(source, where, f"{h} is not a hex of the map")
            if grid.distance(grid.parse(a), grid.parse(b)) != 1:
                raise _fail(source, where, f"{a} and {b} are not neighbours, so share no hexside")
            pairs.append((a, b))
        sides[key] = tuple(pairs)
    return HexMap(
        id=data["id"],
        title=data["title"],
        source=str(data.get("source", "")),
        grid=grid,
        hexes=hexes,
        rivers=sides["rivers"],
        all_sea=sides["all_sea"],
        stand_in=bool(data.get("stand_in", False)),
    )


def load_packaged_hexmap(package: str, name: str) -> HexMap:
    """A hex map shipped as ``<name>.json`` in ``package``."""
    ref = resources.files(package).joinpath(f"{name}.json")
    try:
        data = json.loads(ref.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _fail(f"{name}.json", "file", f"no hex map {name!r} in {package}") from None
    except json.JSONDecodeError as exc:
        raise _fail(f"{name}.json", f"line {exc.lineno}", f"not JSON: {exc.msg}") from None
    return hexmap_from_data(data, f"{name}.json")


@dataclass(frozen=True, eq=False)
class HexGeography:
    """Hex maps side by side, with boxes and links. Hexes are numbered by their bit."""

    maps: tuple[HexMap, ...]
    boxes: tuple[Box, ...] = ()
    links: tuple[Link, ...] = ()
    by_id: dict[str, Hex] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        board = self.bitboard
        for k, m in enumerate(self.maps):
            for hid, entry in m.hexes.items():
                col, row = m.grid.parse(hid)
                fields = {key: value for key, value in entry.items() if key != "terrain"}
                self.by_id[hid] = Hex(board.bit(k, col, row), hid, m.id, col, row, entry["terrain"], fields)
        known = set(self.by_id) | {b.id for b in self.boxes}
        for link in self.links:
            for end in (link.a, link.b):
                if end not in known:
                    raise _fail("geography", f"link {link.id}", f"{end} is neither a hex nor a box")

    @cached_property
    def bitboard(self) -> Bitboard:
        return Bitboard(m.grid for m in self.maps)

    @cached_property
    def hexes(self) -> dict[int, Hex]:
        """Every hex by its bit."""
        return {h.index: h for h in self.by_id.values()}

    def hex(self, ident: str) -> Hex:
        """The hex called ``ident`` (any case); ``KeyError`` if there is none."""
        return self.by_id[ident.upper()]

    def mask(self, hexes: Iterable[Hex]) -> int:
        out = 0
        for h in hexes:
            out |= 1 << h.index
        return out

    def where(self, **wanted: Any) -> int:
        """The bit set of hexes whose terrain or fields equal every ``wanted`` value (``terrain`` or a
        field name; a tuple value matches any of its items)."""

        def matches(h: Hex) -> bool:
            for key, value in wanted.items():
                got = h.terrain if key == "terrain" else h.fields.get(key)
                options = value if isinstance(value, tuple) else (value,)
                if got not in options:
                    return False
            return True

        return self.mask(h for h in self.by_id.values() if matches(h))

    @cached_property
    def all_hexes(self) -> int:
        return self.mask(self.by_id.values())

    def ids(self, cells: int) -> list[str]:
        return sorted(self.hexes[b].id for b in self.bitboard.bits(cells))

    @cached_property
    def _sides(self) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]:
        rivers: set[tuple[int, int]] = set()
        seas: set[tuple[int, int]] = set()
        for m in self.maps:
            for target, pairs in ((rivers, m.rivers), (seas, m.all_sea)):
                for a, b in pairs:
                    x, y = self.by_id[a].index, self.by_id[b].index
                    target.update(((x, y), (y, x)))
        return frozenset(rivers), frozenset(seas)

    def river(self, a: int, b: int) -> bool:
        """Is the hexside between hexes ``a`` and ``b`` a river?"""
        return (a, b) in self._sides[0]

    def all_sea(self, a: int, b: int) -> bool:
        return (a, b) in self._sides[1]

    @cached_property
    def neighbours(self) -> dict[int, tuple[int, ...]]:
        """Each hex's neighbours on its own map (across any hexside)."""
        out: dict[int, tuple[int, ...]] = {}
        for h in self.by_id.values():
            grid = self.maps[[m.id for m in self.maps].index(h.map)].grid
            near = []
            for _, col, row in grid.neighbours(h.col, h.row):
                other = self.by_id.get(grid.hex_id(col, row))
                if other is not None:
                    near.append(other.index)
            out[h.index] = tuple(near)
        return out

    @cached_property
    def sea_sides(self) -> dict[str, int]:
        """Per direction, the hexes whose side that way is all sea (for :meth:`Bitboard.spread`)."""
        out = {d: 0 for d in DIRECTIONS}
        board = self.bitboard
        for a, b in self._sides[1]:
            for d in DIRECTIONS:
                if board.step(1 << a, d) == 1 << b:
                    out[d] |= 1 << a
                    out[OPPOSITE[d]] |= 1 << b
        return out

    def distance(self, a: int, b: int) -> int | None:
        """Hexes between ``a`` and ``b`` on one map (``None`` across maps)."""
        ha, hb = self.hexes[a], self.hexes[b]
        if ha.map != hb.map:
            return None
        grid = next(m.grid for m in self.maps if m.id == ha.map)
        return grid.distance((ha.col, ha.row), (hb.col, hb.row))

    def link(self, ident: str) -> Link:
        for link in self.links:
            if link.id == ident:
                return link
        raise KeyError(ident)


def geography_from_data(
    maps: Sequence[HexMap],
    boxes: Sequence[Mapping[str, Any]],
    links: Sequence[Mapping[str, Any]],
    source: str,
) -> HexGeography:
    """A geography from loaded maps and the ``boxes`` and ``links`` entries of a family's data file."""
    ids = [m.grid.prefix for m in maps]
    if len(set(ids)) != len(ids):
        raise _fail(source, "maps", "two maps share a hex prefix, so their hex ids would clash")
    out_boxes = []
    for k, b in enumerate(boxes):
        if not isinstance(b.get("id"), str):
            raise _fail(source, f"boxes[{k}]", "needs an id")
        out_boxes.append(Box(b["id"], str(b.get("name", b["id"]))))
    out_links = []
    for k, link in enumerate(links):
        try:
            out_links.append(
                Link(
                    str(link["id"]),
                    str(link["a"]).upper(),
                    str(link["b"]).upper(),
                    tuple(str(c) for c in link.get("carries", ())),
                    bool(link.get("closes", False)),
                )
            )
        except KeyError as exc:
            raise _fail(source, f"links[{k}]", f"needs {exc}") from None
    return HexGeography(tuple(maps), tuple(out_boxes), tuple(out_links))
