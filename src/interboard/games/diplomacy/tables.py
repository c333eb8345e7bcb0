"""Integer tables derived from a board once, for the adjudicator's hot path.

Everything here is indexed by space or location index. Tables are cached per board object
(boards compare by identity); a geography whose link set changes gets a new board and new tables.
"""

from __future__ import annotations

import weakref
from collections import deque

from ...board import Board, SpaceKind


class Tables:
    __slots__ = (
        "army_spaces",
        "coastal",
        "convoy_reach",
        "fleet_space_adj",
        "fleet_spaces",
        "loc_space",
        "main_loc",
        "n_locs",
        "n_spaces",
        "sea",
        "space_locs",
    )

    def __init__(self, board: Board) -> None:
        self.n_spaces = len(board.spaces)
        self.n_locs = len(board.locations)
        self.loc_space: list[int] = [loc.space for loc in board.locations]
        self.main_loc: list[int] = [board.location_by_id.get(s.id, -1) for s in board.spaces]
        self.space_locs: list[tuple[int, ...]] = [
            ((self.main_loc[s.index], *s.coasts) if self.main_loc[s.index] >= 0 else ()) for s in board.spaces
        ]
        self.sea: list[bool] = [s.kind is SpaceKind.SEA for s in board.spaces]
        # A shore: a printed coast, or an inland space that a link joins to a sea.
        self.coastal: list[bool] = [
            s.kind is SpaceKind.COAST
            or (s.kind is SpaceKind.LAND and any(board.fleet_adj[x] for x in self.space_locs[s.index]))
            for s in board.spaces
        ]
        # Spaces a unit standing at a location can move to (or support into).
        self.army_spaces: list[frozenset[int]] = [
            frozenset(self.loc_space[b] for b in adj) for adj in board.army_adj
        ]
        self.fleet_spaces: list[frozenset[int]] = [
            frozenset(self.loc_space[b] for b in adj) for adj in board.fleet_adj
        ]
        fsa: list[set[int]] = [set() for _ in board.spaces]
        for a, adj in enumerate(board.fleet_adj):
            for b in adj:
                fsa[self.loc_space[a]].add(self.loc_space[b])
        self.fleet_space_adj: list[frozenset[int]] = [frozenset(x) for x in fsa]
        # For each coastal space, the coastal spaces an army could reach by some chain of seas.
        self.convoy_reach: list[frozenset[int]] = [self._convoy_reach(s) for s in range(self.n_spaces)]

    def _convoy_reach(self, start: int) -> frozenset[int]:
        if not self.coastal[start]:
            return frozenset()
        reached: set[int] = set()
        seen = {s for s in self.fleet_space_adj[start] if self.sea[s]}
        queue = deque(seen)
        while queue:
            sea = queue.popleft()
            for nxt in self.fleet_space_adj[sea]:
                if self.sea[nxt]:
                    if nxt not in seen:
                        seen.add(nxt)
                        queue.append(nxt)
                elif self.coastal[nxt] and nxt != start:
                    reached.add(nxt)
        return frozenset(reached)


_CACHE: weakref.WeakKeyDictionary[Board, Tables] = weakref.WeakKeyDictionary()


def tables(board: Board) -> Tables:
    t = _CACHE.get(board)
    if t is None:
        t = _CACHE[board] = Tables(board)
    return t
