"""Every seat's legal orders listed at once (what the game master does at a phase's first request)
beside each seat's listed alone, on the same positions.

The positions are those of seeded random play on the standard board, movement phases only (there
the listing costs most: each listing works out the moves and convoys of every unit on the board).
Run from the repository root::

    python bench/bench_legal.py [--phases 40] [--seed 0] [--repeat 5]

It prints the CPU milliseconds to list every seat's orders of all the positions, both ways (the
best of ``--repeat`` rounds), and their ratio.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

from interboard.games.diplomacy.engine import step
from interboard.games.diplomacy.legal import legal_orders, random_orders
from interboard.games.diplomacy.state import PhaseKind, Position
from interboard.games.diplomacy.variants import get_variant


def positions(phases: int, seed: int) -> list[Position]:
    """The movement positions of ``phases`` phases of seeded random play."""
    standard = get_variant("standard")
    board, position = standard.board, standard.start()
    rng = random.Random(seed)
    out = []
    for _ in range(phases):
        if position.phase.kind is PhaseKind.MOVEMENT:
            out.append(position)
        outcome = step(board, position, random_orders(board, position, rng))
        if outcome.winners:
            break
        position = outcome.position
    return out


def best_ms(work: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=int, default=40, help="phases of random play")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=5, help="rounds (the best is kept)")
    args = ap.parse_args(argv)
    if args.phases < 1 or args.repeat < 1:
        ap.error("--phases and --repeat are at least 1")
    board = get_variant("standard").board
    seats = [p.id for p in board.powers]
    played = positions(args.phases, args.seed)

    def at_once() -> None:
        for position in played:
            legal_orders(board, position)

    def each_alone() -> None:
        for position in played:
            for seat in seats:
                legal_orders(board, position, seat)

    together, alone = best_ms(at_once, args.repeat), best_ms(each_alone, args.repeat)
    print(f"every seat's legal orders in {len(played)} movement positions (best of {args.repeat}, "
          f"Python {sys.version.split()[0]}):")  # fmt: skip
    print(f"  all seats at once          {together:8.1f} ms CPU")
    print(f"  each seat alone            {alone:8.1f} ms CPU")
    print(f"  at once / alone            {together / alone:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
