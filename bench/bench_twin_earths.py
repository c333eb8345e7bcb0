"""Hand-run benchmark: the cost of a phase on Twin Earths I against twice the standard board's, same run.

Run from the repository root (no extra dependencies)::

    python bench/bench_twin_earths.py --games 20 --seed 0

1. *step*: ``--games`` seeded random games are played on Twin Earths I and on the standard board
   (seeds ``--seed`` on; ``legal.random_orders`` + ``Game.process``, up to ``--phases`` phases, to
   victory) and every phase is recorded. Then ``step`` alone is timed on the recorded phases of
   each: once on the movement phases, once on all phases (movement, retreats, adjustments). Each
   timing is the best of ``--repeat`` passes, with the garbage collector off. The goal is a Twin
   Earths I phase costing at most 1.1 x 2 standard phases: the board is twice the size, so the
   adjudicator should not cost more than in proportion.
2. *links*: the geography of a link variant is cached per link set. Seeded random Twin Earths III
   games (``random_play.random_phase_orders``) are played and, at each phase whose link set is new,
   ``variant.board_for(position)`` + ``tables(board)`` are timed fresh and then again (cached), and
   so is the first ``legal_orders`` call on the new geography against a second one (the legal-order
   generator builds its own per-geography tables).
3. *click tree*: the order tree a seat's page asks for in Twin Earths III's opening Winter (its
   builds and every legal LINK, ``links.link_choices``) against the standard board's Spring 1901
   tree for the same nation, each from a state object never seen before (best of ``--repeat``):
   time, the JSON's size, and how many LINK pairs it lists.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import random
import statistics
import time
from dataclasses import dataclass

from interboard.board import Board
from interboard.games.diplomacy import Order, PhaseKind, Position, Rulebook, step
from interboard.games.diplomacy.game import Game
from interboard.games.diplomacy.legal import legal_orders, random_orders
from interboard.games.diplomacy.random_play import random_phase_orders
from interboard.games.diplomacy.tables import tables
from interboard.games.diplomacy.variants import Variant, get_variant


@dataclass(frozen=True)
class Recorded:
    board: Board
    position: Position
    orders: tuple[tuple[str, Order], ...]


def record(variant: Variant, games: int, seed: int, phases: int) -> list[Recorded]:
    rows: list[Recorded] = []
    for g in range(games):
        rng = random.Random(seed + g)
        game = Game.new(variant)
        for _ in range(phases):
            if game.over:
                break
            board, position = game.board, game.position
            orders = tuple(random_orders(board, position, rng))
            game.process(orders)
            rows.append(Recorded(board, position, orders))
    return rows


def time_steps(rows: list[Recorded], rulebook: Rulebook, repeat: int) -> float:
    """Best total seconds over ``repeat`` passes of ``step`` on every row."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeat):
            t0 = time.perf_counter()
            for r in rows:
                step(r.board, r.position, r.orders, rulebook)
            best = min(best, time.perf_counter() - t0)
    finally:
        gc.enable()
    return best


def bench_step(args: argparse.Namespace) -> None:
    te1, std = get_variant("twin_earths_1"), get_variant("standard")
    rec = {v.id: record(v, args.games, args.seed, args.phases) for v in (te1, std)}
    counts = ", ".join(
        f"{v.title.split(' (')[0]} {len(rec[v.id]):,} phases "
        f"({sum(r.position.phase.kind is PhaseKind.MOVEMENT for r in rec[v.id]):,} movement, "
        f"{sum(len(r.position.units) for r in rec[v.id]) / len(rec[v.id]):.0f} units a phase)"
        for v in (te1, std)
    )
    print(
        f"recorded: {args.games} random games each (seeds {args.seed}-{args.seed + args.games - 1}, "
        f"up to {args.phases} phases): {counts}"
    )
    for label, keep in (("movement phases", {PhaseKind.MOVEMENT}), ("all phases", set(PhaseKind))):
        per: dict[str, float] = {}
        for v in (te1, std):
            rows = [r for r in rec[v.id] if r.position.phase.kind in keep]
            per[v.id] = time_steps(rows, v.rulebook, args.repeat) / len(rows)
        ratio = per[te1.id] / (2 * per[std.id])
        verdict = "met" if ratio <= 1.1 else "NOT met"
        te, st = per[te1.id], per[std.id]
        print(
            f"step, {label}: twin earths I: {1 / te:,.0f} phases/s ({te * 1e6:,.0f} us/phase); "
            f"standard: {1 / st:,.0f} phases/s ({st * 1e6:,.0f} us/phase); "
            f"ratio TE-I / (2 x standard) = {ratio:.2f} "
            f"(goal <= 1.1, i.e. TE-I at most 2.2x standard: {verdict})"
        )


def bench_links(args: argparse.Namespace) -> None:
    te3 = get_variant("twin_earths_3")
    seen: set[tuple[tuple[tuple[int, int], ...], frozenset[tuple[int, int]]]] = set()
    fresh: list[float] = []
    cached: list[float] = []
    legal_first: list[float] = []
    legal_again: list[float] = []
    sizes: list[int] = []
    phases = 0
    for g in range(args.games):
        rng = random.Random(args.seed + g)
        game = Game.new(te3)
        for _ in range(args.phases):
            if game.over:
                break
            position = game.position
            key = (tuple(sorted(position.links)), position.cuts)
            if (position.links or position.cuts) and key not in seen:
                seen.add(key)
                sizes.append(len(position.links))
                t0 = time.perf_counter()
                board = te3.board_for(position)
                tables(board)
                t1 = time.perf_counter()
                again = te3.board_for(position)
                tables(again)
                t2 = time.perf_counter()
                assert again is board
                legal_orders(board, position)
                t3 = time.perf_counter()
                legal_orders(board, position)
                t4 = time.perf_counter()
                fresh.append(t1 - t0)
                cached.append(t2 - t1)
                legal_first.append(t3 - t2)
                legal_again.append(t4 - t3)
            game.process(random_phase_orders(te3, position, rng, game.rulebook))
            phases += 1
    if not fresh:
        print("links: no link set was made")
        return
    med = statistics.median
    print(
        f"links (twin earths III): {len(fresh)} new link sets in {phases:,} phases "
        f"(median {med(sizes):.0f} links, at most {max(sizes)}); "
        f"board_for + tables: new link set {med(fresh) * 1e3:,.1f} ms, cached {med(cached) * 1e6:,.1f} us "
        f"(medians); first legal_orders on a new geography {med(legal_first) * 1e3:,.1f} ms "
        f"vs {med(legal_again) * 1e3:,.1f} ms on a cached one"
    )


def bench_click_tree(args: argparse.Namespace) -> None:
    from interboard.games import find_variant

    def tree_of(variant_id: str, seat: str) -> tuple[float, dict[str, object]]:
        family, info = find_variant(variant_id)
        state = family.new_state(variant_id, info.check_options({}), args.seed)
        best, tree = float("inf"), {}
        for _ in range(args.repeat):
            # A state object of its own each pass: the family keeps what it works out from a state
            # object (its decoding, the legal lists), as it does for every request of a phase.
            fresh = copy.deepcopy(state)
            t = time.perf_counter()
            tree = family.options(fresh, seat)
            best = min(best, time.perf_counter() - t)
        return best, tree

    te3_s, te3 = tree_of("twin_earths_3", "GERMANY-Y")
    std_s, std = tree_of("standard", "GERMANY")
    links = te3.get("links", {})
    table = links.get("link", {}) if isinstance(links, dict) else {}
    pairs = sum(len(ends) for ends in table.values())
    print(
        f"click tree: Twin Earths III opening Winter (GERMANY-Y, {pairs} LINK pairs)"
        f" {te3_s * 1000:.1f} ms, {len(json.dumps(te3)) / 1000:.0f} kB;"
        f" standard S1901 (GERMANY) {std_s * 1000:.2f} ms, {len(json.dumps(std)) / 1000:.1f} kB;"
        f" ratio {te3_s / std_s:.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Twin Earths I phase cost against twice the standard board's")
    ap.add_argument("--games", type=int, default=20, help="random games per variant (default 20)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    ap.add_argument("--phases", type=int, default=200, help="phases per game at most (default 200)")
    ap.add_argument("--repeat", type=int, default=5, help="timing passes; the best counts (default 5)")
    args = ap.parse_args(argv)
    bench_step(args)
    bench_links(args)
    bench_click_tree(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
