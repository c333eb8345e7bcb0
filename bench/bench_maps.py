"""Hand-run benchmark: drawing a seat's map on the boards drawn from real geography, against the
same board drawn as today's cells around each space's point, in the same run.

Run from the repository root (no extra dependencies)::

    python bench/bench_maps.py --repeat 50

For each board whose spaces have outlines (tools/make_real_maps.py), a game of its variant is
started and one seat's legal orders taken (``Family.legal``), so the drawing carries a seat's
arrows as the game page asks for it (``Family.draw``, what ``GET /api/games/{id}/map.svg`` calls;
Axis & Allies draws the position with every stack of pieces).
The reference is the same position drawn on the same board with its outlines taken away: the
renderer then shades Voronoi cells around the spaces' points, as it drew every Diplomacy board
before. Each figure is the median of ``--repeat`` drawings after one to warm the caches; the SVG's
size is given as sent plain and gzipped (the route gzips for clients that accept it). Goal: a
seat's map in under 50 ms.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import statistics
import time
from collections.abc import Callable

from interboard.board import Board
from interboard.games import family as get_family
from interboard.games.axis_allies import drawing as aa_drawing
from interboard.games.axis_allies.gamedata import game_data
from interboard.games.diplomacy import variants as diplomacy_variants

VARIANTS = [
    ("diplomacy", "standard"),
    ("diplomacy", "twin_earths_1"),
    ("axis_allies", "aa_europe_1999"),
    ("axis_allies", "aa_pacific_2001"),
    ("axis_allies", "aa_linked_world"),
]


def timed(draw: Callable[[], str], repeat: int) -> tuple[float, str]:
    svg = draw()  # warm: the board's static parts are cached after the first drawing
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        svg = draw()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, svg


def without_outlines(board: Board) -> Board:
    spaces = tuple(dataclasses.replace(sp, outline=(), label_at=None) for sp in board.spaces)
    return dataclasses.replace(board, spaces=spaces, scenery=(), sea_lines=(), label_size=None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    print(f"{'variant':<18} {'real map':>10} {'cells':>10} {'ratio':>7} {'SVG':>9} {'gzipped':>9}")
    for family_id, variant in VARIANTS:
        fam = get_family(family_id)
        state = fam.new_state(variant, {}, seed=1)
        seat = fam.seats(state)[0]
        if family_id == "diplomacy":
            position = fam.position(state)
            orders = {seat: [str(o) for o in list(fam.legal(state, seat, ()).actions)[:6]]}
        else:
            position, orders = fam.view(state), {}  # its map draws the pieces, not orders

        def draw(fam=fam, variant=variant, position=position, orders=orders) -> str:  # type: ignore[no-untyped-def]
            return fam.draw(variant, position, orders, [], "bench")

        real_ms, svg = timed(draw, args.repeat)
        if family_id == "diplomacy":
            info = diplomacy_variants.get_variant(variant)
            real = info.board
            info.__dict__["board"] = without_outlines(real)  # the variant's cached geography
            try:
                cells_ms, cells_svg = timed(draw, args.repeat)
            finally:
                info.__dict__["board"] = real
        else:
            # The same position through the same drawing, its game's board without outlines.
            data = game_data(variant)
            cells = dataclasses.replace(data, board=without_outlines(data.board))

            def draw_cells(cells=cells, position=position) -> str:  # type: ignore[no-untyped-def]
                return aa_drawing.draw_position(cells, position, "bench")

            cells_ms, cells_svg = timed(draw_cells, args.repeat)
        assert 'class="scenery"' in svg and 'class="scenery"' not in cells_svg
        packed = len(gzip.compress(svg.encode(), 6))
        print(
            f"{variant:<18} {real_ms:>8.1f}ms {cells_ms:>8.1f}ms {real_ms / cells_ms:>7.2f}"
            f" {len(svg) / 1024:>7.0f}kB {packed / 1024:>7.0f}kB"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
