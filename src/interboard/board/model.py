"""Immutable board data: spaces, locations and per-unit-kind adjacency.

A *space* is a province as printed on a board (land, coast, sea, or impassable). A *location* is a
place a unit can stand: every passable space is one location, and a space with split coasts adds one
location per coast (``BUL/EC``, ``BUL/SC``). Armies stand on the space's own location; fleets in a
split-coast space stand on a coast. The engine works on integer location and space indices; names
exist for the edges (parsing and printing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class SpaceKind(StrEnum):
    LAND = "land"
    COAST = "coast"
    SEA = "sea"
    IMPASSABLE = "impassable"


class UnitKind(StrEnum):
    ARMY = "A"
    FLEET = "F"

    @property
    def noun(self) -> str:
        return "army" if self is UnitKind.ARMY else "fleet"

    @property
    def with_article(self) -> str:
        """``an army`` or ``a fleet``, for messages."""
        return "an army" if self is UnitKind.ARMY else "a fleet"


Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Region:
    """A named group of spaces, such as a continent worth a bonus in Global War."""

    id: str
    name: str
    spaces: tuple[int, ...]
    bonus: int = 0
    at: Point | None = None
    """Where the region's name is drawn, on a map drawn with outlines."""


@dataclass(frozen=True, slots=True)
class Space:
    """One printed province of a board."""

    index: int
    id: str
    """Short upper-case name, unique in the geography (``BUL``; ``MUN-I`` on a board-qualified map)."""
    name: str
    """Full English name (``Bulgaria``)."""
    kind: SpaceKind
    centre: bool
    """True when the space is a supply centre."""
    board: str
    """Name of the board the space is printed on."""
    coasts: tuple[int, ...] = ()
    """Location indices of the split coasts, empty for ordinary spaces."""
    aliases: tuple[str, ...] = ()
    at: Point | None = None
    """Where the space's label and centre marker are drawn, in the board's drawing units."""
    radius: float | None = None
    """At most this far from ``at`` is the space drawn (an island amid the sea); None: no limit."""
    outline: tuple[Point, ...] = ()
    """The space's own polygon in drawing units (empty: the renderer shades a cell around ``at``)."""
    holes: tuple[tuple[Point, ...], ...] = ()
    """Rings cut out of the outline: the islands that lie within a sea."""
    label_at: Point | None = None
    """Where its name is written, inside its outline and clear of ``at`` (None: under ``at``)."""
    label: str | None = None
    """What the board writes there when not its name: a short form the space has room for."""


@dataclass(frozen=True, slots=True)
class Location:
    """A place a unit can stand: a space, or one coast of a split-coast space."""

    index: int
    id: str
    """``BUL`` for the space itself, ``BUL/EC`` for a coast."""
    space: int
    """Index of the space this location belongs to."""
    coast: str | None = None
    """Coast code (``EC``) when the location is a split coast."""
    at: Point | None = None
    """Where a unit standing here is drawn (the space's point, or the coast's own point)."""


@dataclass(frozen=True, slots=True)
class Power:
    """A power (player nation) defined by a map."""

    id: str
    """Upper-case identifier (``FRANCE``)."""
    name: str
    adjective: str
    colour: str
    home_centres: tuple[int, ...]
    """Space indices of the home supply centres, where the power builds."""
    homeland: tuple[int, ...]
    """Space indices of every home province (centres and the rest), used by the 2000 civil-disorder rule."""


@dataclass(frozen=True, slots=True)
class StartPosition:
    year: int
    units: tuple[tuple[str, UnitKind, int], ...]
    """(power, unit kind, location index) of each starting unit."""
    centres: tuple[tuple[int, str], ...]
    """(space index, power) of each owned centre at the start."""


@dataclass(frozen=True, eq=False)
class Board:
    """A loaded map: spaces, locations, adjacency, powers and start position.

    Boards compare by identity (``eq=False``) so derived tables can be cached per board.

    Adjacency lists hold location indices. ``army_adj[l]`` and ``fleet_adj[l]`` are the locations a
    unit of that kind standing at ``l`` can move to directly.
    """

    id: str
    title: str
    spaces: tuple[Space, ...]
    locations: tuple[Location, ...]
    army_adj: tuple[frozenset[int], ...]
    fleet_adj: tuple[frozenset[int], ...]
    powers: tuple[Power, ...]
    start: StartPosition
    victory_centres: int
    source: str = ""
    space_by_id: dict[str, int] = field(default_factory=dict, repr=False)
    location_by_id: dict[str, int] = field(default_factory=dict, repr=False)
    power_by_id: dict[str, Power] = field(default_factory=dict, repr=False)
    boards: tuple[str, ...] = ()
    """Names of the printed boards joined in this geography (empty for a single printed map)."""
    regions: tuple[Region, ...] = ()
    """Named groups of spaces (continents), for the rule families that score them."""
    size: Point | None = None
    """(width, height) of one printed board's drawing, when its spaces have drawing positions."""
    sizes: tuple[tuple[str, Point], ...] = ()
    """(board, (width, height)) of printed boards drawn at their own size (a map file of several
    boards of different sizes); a board not named here is drawn at :attr:`size`."""
    printed: Board | None = field(default=None, repr=False)
    """For a geography with links laid over it: the geography without them."""
    wrap: bool = False
    """The drawing's left and right edges are one meridian (a world map): lines may cross them."""
    sea_lines: tuple[tuple[int, int], ...] = ()
    walls: tuple[tuple[int, int], ...] = ()
    """Pairs of spaces (indices) whose outlines touch though they are not adjacent: a sea and a coast
    the game closes, drawn as a wall."""
    """Pairs of adjacent spaces (indices) whose outlines do not touch, joined by a line over the sea."""
    seas: tuple[tuple[str, Point], ...] = ()
    """Names of seas and oceans and where they are written, on a map drawn with outlines."""
    scenery: tuple[tuple[str, tuple[Point, ...]], ...] = ()
    label_size: float | None = None
    """The size its names are drawn at (drawing units), where the map's labels were placed for it."""
    """(board, polygon) of land drawn for the eye that is no space (islands, land beyond the edge)."""

    # ---- convenience queries used at the edges (parsing, printing, tests) ----
    def space(self, ident: str) -> Space:
        return self.spaces[self.space_by_id[ident.upper()]]

    def location(self, ident: str) -> Location:
        return self.locations[self.location_by_id[ident.upper()]]

    def adjacent(self, kind: UnitKind, a: int, b: int) -> bool:
        adj = self.army_adj if kind is UnitKind.ARMY else self.fleet_adj
        return b in adj[a]

    @property
    def centres(self) -> tuple[int, ...]:
        return tuple(s.index for s in self.spaces if s.centre)

    def size_of(self, printed: str) -> Point | None:
        """The drawing size of one printed board."""
        for name, size in self.sizes:
            if name == printed:
                return size
        return self.size

    @property
    def base(self) -> Board:
        """The geography without its links: itself, unless links were laid over it."""
        return self.printed or self

    def place_name(self, space: int) -> str:
        """``Munich``, or ``Munich Y`` on a geography of several boards."""
        sp = self.spaces[space]
        return f"{sp.name} {sp.board}" if self.boards else sp.name
