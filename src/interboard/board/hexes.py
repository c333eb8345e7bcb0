"""Hex-grid geometry for hex-and-counter maps (no rules, no family).

Hexes are flat-topped, in columns; a map numbers them ``<prefix><CC><RR>`` (``W7005``: column 70,
row 05), as wargame maps do. A column's hexes sit one under another; every other column is shifted
half a hex down. Which columns are shifted, and whether column numbers grow eastward or westward,
is the map's choice (:class:`Grid`); the geometry works in cube coordinates underneath, where the
six neighbours and the distance are simple.

:class:`Bitboard` packs one or more grids into a single integer bit set with a stride wide enough
that no shift wraps from one row, or one map, into another, so that spreading a set of hexes by one
hex (all six neighbours at once, less the hexsides that block) is a dozen integer operations: the
fast path for supply and zones of control over a whole map.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
"""Hexside names of a flat-topped hex, clockwise from the top."""
OPPOSITE = {d: DIRECTIONS[(k + 3) % 6] for k, d in enumerate(DIRECTIONS)}
# Cube offsets of the six neighbours, in DIRECTIONS order (x grows east, z grows south-east... the
# axial convention of Amit Patel's notes: q east, r south-east).
_CUBE_STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


@dataclass(frozen=True, eq=False)
class Grid:
    """One map's numbering: ``prefix``, the column and row ranges, the direction the column numbers
    run (``east=True``: they grow eastward), and which columns are shifted down (odd or even)."""

    prefix: str
    columns: tuple[int, int]
    """First and last column number (inclusive)."""
    rows: tuple[int, int]
    east: bool = True
    shifted_odd: bool = True

    def contains(self, col: int, row: int) -> bool:
        return self.columns[0] <= col <= self.columns[1] and self.rows[0] <= row <= self.rows[1]

    def hex_id(self, col: int, row: int) -> str:
        return f"{self.prefix}{col:02d}{row:02d}"

    def parse(self, hex_id: str) -> tuple[int, int]:
        """(column, row) of an id of this grid; ``ValueError`` names what is wrong."""
        if (
            not hex_id.startswith(self.prefix)
            or len(hex_id) != len(self.prefix) + 4
            or not hex_id[len(self.prefix) :].isdigit()
        ):
            raise ValueError(f"{hex_id!r} is not a hex of map {self.prefix} (write {self.prefix}CCRR)")
        col, row = int(hex_id[-4:-2]), int(hex_id[-2:])
        if not self.contains(col, row):
            raise ValueError(f"{hex_id} is off map {self.prefix} (columns {self.columns}, rows {self.rows})")
        return col, row

    def _x(self, col: int) -> int:
        """The column as a west-to-east index from 0."""
        return col - self.columns[0] if self.east else self.columns[1] - col

    def _col(self, x: int) -> int:
        return self.columns[0] + x if self.east else self.columns[1] - x

    def _shifted(self, col: int) -> bool:
        return (col % 2 == 1) == self.shifted_odd

    @cached_property
    def _first_shifted(self) -> bool:
        """Is the westernmost column one of the shifted ones?"""
        return self._shifted(self._col(0))

    def axial(self, col: int, row: int) -> tuple[int, int]:
        """Axial (q, r): q grows east, r south-east (offset coordinates, odd-q or even-q by which
        columns are shifted)."""
        x = self._x(col)
        if self._first_shifted:
            return x, row - (x + (x & 1)) // 2
        return x, row - (x - (x & 1)) // 2

    def offset(self, q: int, r: int) -> tuple[int, int]:
        """(column, row) of axial (q, r)."""
        if self._first_shifted:
            return self._col(q), r + (q + (q & 1)) // 2
        return self._col(q), r + (q - (q & 1)) // 2

    def neighbour(self, col: int, row: int, direction: str) -> tuple[int, int] | None:
        q, r = self.axial(col, row)
        dq, dr = _CUBE_STEPS[DIRECTIONS.index(direction)]
        c, rr = self.offset(q + dq, r + dr)
        return (c, rr) if self.contains(c, rr) else None

    def neighbours(self, col: int, row: int) -> Iterator[tuple[str, int, int]]:
        for d in DIRECTIONS:
            found = self.neighbour(col, row, d)
            if found is not None:
                yield d, found[0], found[1]

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        qa, ra = self.axial(*a)
        qb, rb = self.axial(*b)
        dq, dr = qa - qb, ra - rb
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def centre(self, col: int, row: int, size: float = 10.0) -> tuple[float, float]:
        """Drawing position of a hex's centre (``size``: centre to corner), x east, y south."""
        x = self._x(col)
        return (
            1.5 * size * x + size,
            size * 3**0.5 * (row - self.rows[0] + (0.5 if self._shifted(col) else 0.0)) + size,
        )

    def cells(self) -> Iterator[tuple[int, int]]:
        for col in range(self.columns[0], self.columns[1] + 1):
            for row in range(self.rows[0], self.rows[1] + 1):
                yield col, row


def corners(x: float, y: float, size: float) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex centred at (x, y), clockwise from the east."""
    return [
        (x + size, y),
        (x + size / 2, y + size * 0.8660254037844386),
        (x - size / 2, y + size * 0.8660254037844386),
        (x - size, y),
        (x - size / 2, y - size * 0.8660254037844386),
        (x + size / 2, y - size * 0.8660254037844386),
    ]


# ---------------------------------------------------------------------- bit sets over grids
@dataclass(frozen=True)
class Place:
    grid: int
    """Index of the grid in the bitboard."""
    col: int
    row: int


class Bitboard:
    """Several grids packed into one bit space: bit ``offset[g] + x + stride * y`` for column index
    x (west to east) and row index y of grid g. Each grid keeps a blank column on its east side, so
    that shifting a set east or west never wraps into the next row, and a blank row under it, so that
    shifting south never reaches the next grid."""

    def __init__(self, grids: Iterable[Grid]) -> None:
        self.grids = tuple(grids)
        width = max(g.columns[1] - g.columns[0] + 1 for g in self.grids)
        self.stride = width + 1
        self.offsets: list[int] = []
        row0 = 0
        for g in self.grids:
            self.offsets.append(row0 * self.stride)
            row0 += g.rows[1] - g.rows[0] + 2
        self.size = row0 * self.stride

    def bit(self, grid: int, col: int, row: int) -> int:
        g = self.grids[grid]
        return self.offsets[grid] + g._x(col) + self.stride * (row - g.rows[0])

    def place(self, bit: int) -> Place:
        for k in range(len(self.grids) - 1, -1, -1):
            if bit >= self.offsets[k]:
                g = self.grids[k]
                local = bit - self.offsets[k]
                y, x = divmod(local, self.stride)
                return Place(k, g._col(x), y + g.rows[0])
        raise ValueError(f"bit {bit} is on no grid")

    @cached_property
    def _parity(self) -> tuple[int, int]:
        """(mask of hexes in shifted columns, mask of hexes in the others)."""
        shifted = plain = 0
        for k, g in enumerate(self.grids):
            for col, row in g.cells():
                b = 1 << self.bit(k, col, row)
                if g._shifted(col):
                    shifted |= b
                else:
                    plain |= b
        return shifted, plain

    @cached_property
    def on_map(self) -> int:
        shifted, plain = self._parity
        return shifted | plain

    def step(self, cells: int, direction: str, shifted_moves: bool | None = None) -> int:
        """Every hex one step in ``direction`` from a hex of ``cells`` (bits off the maps dropped).

        East and west steps change the column: from a shifted column the step goes to the same row
        (north-east, north-west) or one row down (south-east, south-west); from a plain column one
        row up or the same row. A grid whose column numbers grow westward is mirrored in the bit
        space (x runs west to east in every grid), so "east" is always the higher bit."""
        shifted, plain = self._parity
        s = self.stride
        if direction == "N":
            out = cells >> s
        elif direction == "S":
            out = cells << s
        else:
            east = direction in ("NE", "SE")
            north = direction in ("NE", "NW")
            a = cells & shifted
            b = cells & plain
            # From a shifted column the northern diagonal stays in the row; the southern one goes down.
            # From a plain column the northern diagonal goes up a row; the southern one stays.
            if north:
                moved_a = a
                moved_b = b >> s
            else:
                moved_a = a << s
                moved_b = b
            moved = moved_a | moved_b
            out = moved << 1 if east else moved >> 1
        return out & self.on_map

    def spread(self, cells: int, allowed: int, blocked: dict[str, int] | None = None) -> int:
        """``cells`` and every hex of ``allowed`` one step from them (``blocked[d]``: hexes whose side
        in direction ``d`` may not be crossed)."""
        out = cells
        for d in DIRECTIONS:
            source = cells & ~blocked[d] if blocked and d in blocked else cells
            out |= self.step(source, d)
        return out & (allowed | cells)

    def reach(
        self, sources: int, allowed: int, limit: int | None = None, blocked: dict[str, int] | None = None
    ) -> int:
        """Every hex reached from ``sources`` through ``allowed`` hexes in at most ``limit`` steps
        (no limit: until nothing new is reached)."""
        seen = sources
        steps = 0
        while limit is None or steps < limit:
            nxt = self.spread(seen, allowed, blocked)
            if nxt == seen:
                break
            seen = nxt
            steps += 1
        return seen

    def bits(self, cells: int) -> Iterator[int]:
        while cells:
            low = cells & -cells
            yield low.bit_length() - 1
            cells ^= low
