"""Geographies of several boards, and link sets laid over them.

A *geography* is a :class:`Board` like any other, so rules and tables work on it unchanged. It is
made in two steps:

1. :func:`join_boards` puts copies of printed boards side by side. Space ids gain the board's name
   (``MUN-Y``, ``SPA/NC-Y``); names stay (``Munich``) and :attr:`Space.board` tells the boards apart.
   With ``corresponding=True`` (Twin Earths I) each space is also joined to the same space on every
   other board, for the units that can stand on both ends: armies between land spaces, fleets
   between sea spaces and between the same coast.
2. :func:`with_links` lays a link set and a set of cut adjacencies over a joined geography. A link
   carries what the terrain of its ends permits: two land ends carry armies; an end at sea carries
   fleets, whatever the other end (an inland end becomes a shore through that link alone); a split
   coast at the land end names where a fleet arrives. A cut removes every adjacency between two
   spaces. The result is cached per (geography, links, cuts), so tables built from it are reused
   until the link set changes.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from .model import Board, Location, Power, Region, Space, SpaceKind, StartPosition


@dataclass(frozen=True, slots=True)
class PowerSpec:
    """A power of a joined geography, from a power of one printed map."""

    id: str
    name: str
    adjective: str
    colour: str
    source_power: str
    """Id of the power on the printed map whose homes and homeland it takes."""
    boards: tuple[str, ...]
    """Boards on which its homes lie (both, for Twin Earths I; its own, for Twin Earths III)."""


def join_boards(
    parts: Sequence[tuple[str, Board]],
    powers: Sequence[PowerSpec],
    *,
    id: str,
    title: str,
    victory: int,
    start_year: int,
    corresponding: bool = False,
) -> Board:
    """Printed boards side by side, with no units on them and every home centre owned."""
    spaces: list[Space] = []
    locations: list[Location] = []
    space_by_id: dict[str, int] = {}
    location_by_id: dict[str, int] = {}
    loc_offset: dict[str, int] = {}
    space_offset: dict[str, int] = {}
    army: list[set[int]] = []
    fleet: list[set[int]] = []
    for name, board in parts:
        space_offset[name] = so = len(spaces)
        loc_offset[name] = lo = len(locations)
        for sp in board.spaces:
            sid = f"{sp.id}-{name}"
            space_by_id[sid] = len(spaces)
            spaces.append(
                Space(
                    index=len(spaces),
                    id=sid,
                    name=sp.name,
                    kind=sp.kind,
                    centre=sp.centre,
                    board=name,
                    coasts=tuple(c + lo for c in sp.coasts),
                    aliases=sp.aliases,
                    at=sp.at,
                    radius=sp.radius,
                    outline=sp.outline,
                    holes=sp.holes,
                    label_at=sp.label_at,
                    label=sp.label,
                )
            )
        for loc in board.locations:
            lid = f"{loc.id}-{name}"
            location_by_id[lid] = len(locations)
            locations.append(Location(len(locations), lid, loc.space + so, loc.coast, loc.at))
        army.extend({b + lo for b in adj} for adj in board.army_adj)
        fleet.extend({b + lo for b in adj} for adj in board.fleet_adj)
    if corresponding:
        for (name_a, board_a), (name_b, _) in combinations(parts, 2):
            for loc in board_a.locations:
                a, b = loc.index + loc_offset[name_a], loc.index + loc_offset[name_b]
                kind = board_a.spaces[loc.space].kind
                if kind is not SpaceKind.SEA and loc.coast is None:
                    army[a].add(b)
                    army[b].add(a)
                split = bool(board_a.spaces[loc.space].coasts)
                if kind is SpaceKind.SEA or (
                    kind is SpaceKind.COAST and (loc.coast is not None or not split)
                ):
                    fleet[a].add(b)
                    fleet[b].add(a)
    regions = tuple(
        Region(f"{r.id}-{name}", f"{r.name} {name}", tuple(i + space_offset[name] for i in r.spaces), r.bonus)
        for name, board in parts
        for r in board.regions
    )
    out_powers: list[Power] = []
    start_centres: list[tuple[int, str]] = []
    by_name = dict(parts)
    for spec in powers:
        homes: list[int] = []
        homeland: list[int] = []
        for board_name in spec.boards:
            src = by_name[board_name].power_by_id[spec.source_power]
            homes.extend(h + space_offset[board_name] for h in src.home_centres)
            homeland.extend(h + space_offset[board_name] for h in src.homeland)
        power = Power(spec.id, spec.name, spec.adjective, spec.colour, tuple(homes), tuple(homeland))
        out_powers.append(power)
        start_centres.extend((h, spec.id) for h in homes)
    sea_lines = tuple(
        (a + space_offset[name], b + space_offset[name]) for name, board in parts for a, b in board.sea_lines
    )
    scenery = tuple((name, polygon) for name, board in parts for _, polygon in board.scenery)
    walls = tuple(
        (a + space_offset[name], b + space_offset[name]) for name, board in parts for a, b in board.walls
    )
    return Board(
        id=id,
        title=title,
        spaces=tuple(spaces),
        locations=tuple(locations),
        army_adj=tuple(frozenset(x) for x in army),
        fleet_adj=tuple(frozenset(x) for x in fleet),
        powers=tuple(out_powers),
        start=StartPosition(start_year, (), tuple(start_centres)),
        victory_centres=victory,
        source="; ".join(f"board {n}: {b.title}" for n, b in parts),
        space_by_id=space_by_id,
        location_by_id=location_by_id,
        power_by_id={p.id: p for p in out_powers},
        boards=tuple(n for n, _ in parts),
        regions=regions,
        size=parts[0][1].size if parts else None,
        sea_lines=sea_lines,
        walls=walls,
        scenery=scenery,
        label_size=parts[0][1].label_size if parts else None,
    )


def link_carries(board: Board, a: int, b: int) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """The (army, fleet) location pairs a link between locations ``a`` and ``b`` adds."""
    la, lb = board.locations[a], board.locations[b]
    sa, sb = board.spaces[la.space], board.spaces[lb.space]
    if sa.kind is SpaceKind.SEA or sb.kind is SpaceKind.SEA:
        return None, (a, b)
    main_a = board.location_by_id[sa.id]
    main_b = board.location_by_id[sb.id]
    return (main_a, main_b), None


_LinkKey = tuple[tuple[tuple[int, int], ...], frozenset[tuple[int, int]]]
_LINKED: weakref.WeakKeyDictionary[Board, dict[_LinkKey, Board]] = weakref.WeakKeyDictionary()
_MAX_CACHED = 256


def with_links(base: Board, links: Iterable[tuple[int, int]], cuts: Iterable[tuple[int, int]] = ()) -> Board:
    """``base`` with links (location pairs) added and cut adjacencies (space pairs) removed."""
    cache = _LINKED.setdefault(base, {})
    if isinstance(links, tuple) and isinstance(cuts, frozenset):
        # Positions hold their links as a tuple of sorted pairs: look that up as it is first.
        found = cache.get((links, cuts))
        if found is not None:
            return found
    link_key = tuple(sorted((min(a, b), max(a, b)) for a, b in links))
    cut_key = frozenset((min(a, b), max(a, b)) for a, b in cuts)
    if not link_key and not cut_key:
        return base
    key = (link_key, cut_key)
    found = cache.get(key)
    if found is not None:
        if isinstance(links, tuple) and isinstance(cuts, frozenset):
            cache[(links, cuts)] = found
        return found
    army = [set(x) for x in base.army_adj]
    fleet = [set(x) for x in base.fleet_adj]
    space_locs: dict[int, list[int]] = {}
    for loc in base.locations:
        space_locs.setdefault(loc.space, []).append(loc.index)
    for sa, sb in cut_key:
        for a in space_locs.get(sa, ()):
            for b in space_locs.get(sb, ()):
                army[a].discard(b)
                army[b].discard(a)
                fleet[a].discard(b)
                fleet[b].discard(a)
    for a, b in link_key:
        by_army, by_fleet = link_carries(base, a, b)
        for table, pair in ((army, by_army), (fleet, by_fleet)):
            if pair is not None:
                x, y = pair
                table[x].add(y)
                table[y].add(x)
    # Everything but the adjacency is the geography's own (its drawing included).
    linked = replace(
        base,
        army_adj=tuple(frozenset(x) for x in army),
        fleet_adj=tuple(frozenset(x) for x in fleet),
        printed=base,
    )
    if len(cache) >= _MAX_CACHED:
        cache.clear()
    cache[key] = linked
    if isinstance(links, tuple) and isinstance(cuts, frozenset):
        cache[(links, cuts)] = linked
    return linked
