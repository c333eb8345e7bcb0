"""The shipped Global War maps, with the derived tables the engine works on."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...board import Board, SpaceKind, load_packaged_board

MAPS_PACKAGE = "interboard.games.globalwar.data.maps"
"""Where the family's map files are shipped."""


@dataclass(frozen=True, eq=False)
class World:
    """A board seen as countries and continents; every table is indexed by country (space) index."""

    board: Board
    names: tuple[str, ...]
    adjacent: tuple[frozenset[int], ...]
    continents: tuple[tuple[str, str, tuple[int, ...], int], ...]
    """(id, name, countries, bonus) of each continent."""

    @property
    def size(self) -> int:
        return len(self.names)


@cache
def world(map_id: str) -> World:
    board = load_packaged_board(MAPS_PACKAGE, map_id)
    for space in board.spaces:
        if space.kind is not SpaceKind.LAND:
            raise ValueError(f"{map_id}: {space.id} is not a land country")
    loc_of = [board.location_by_id[s.id] for s in board.spaces]
    space_of_loc = {loc: i for i, loc in enumerate(loc_of)}
    adjacent = tuple(frozenset(space_of_loc[x] for x in board.army_adj[loc]) for loc in loc_of)
    continents = tuple((r.id, r.name, r.spaces, r.bonus) for r in board.regions)
    return World(board, tuple(s.name for s in board.spaces), adjacent, continents)
