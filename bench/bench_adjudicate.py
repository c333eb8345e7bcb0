"""Hand-run benchmark: interboard against MILA on the same phases, then on whole random games.

Needs the MILA engine (``pip install -e '.[bench]'``). Run from the repository root::

    python bench/bench_adjudicate.py --games 20 --phases 60 --seed 0

1. *adjudicate*: MILA plays ``--games`` random games (seeds ``--seed`` on) and every phase is
   recorded. Both engines then adjudicate exactly those recorded phases. Timed per phase:
   interboard parses the order strings and runs ``step`` from the imported position; MILA loads the
   phase's state (``set_state``), takes the order strings (``set_orders``) and runs ``process``.
   Each engine's result is checked against the record (interboard with ``replay_mila``).
2. *games*: each engine plays complete random games with its own legal-order generator (one
   uniformly random legal order per unit, build site or dislodged unit), timed from the first
   phase to the last: generating the legal orders, choosing, and adjudicating.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from diplomacy.engine.game import Game
from diplomacy.utils.export import to_saved_game_format

from interboard.board import Board
from interboard.games.diplomacy import Order, Position, Rulebook, Waive, parse_power_order, step
from interboard.games.diplomacy.mila import MilaGame, read_mila_game, replay_mila
from interboard.games.diplomacy.variants import get_variant
from make_mila_fixtures import play_random_game

RULEBOOK = Rulebook.of("2000")
"""The edition MILA implements."""


@dataclass
class Recorded:
    state: dict[str, Any]
    orders: dict[str, list[str]]
    next_state: dict[str, Any]
    position: Position
    texts: list[tuple[str, str]]


def _view(state: dict[str, Any]) -> tuple[Any, ...]:
    """What an adjudication decides: phase, units (dislodged included), retreat options, centres."""
    return (
        state["name"],
        {p: sorted(u) for p, u in state["units"].items() if u},
        {p: sorted(c) for p, c in state["centers"].items() if c},
        {p: {u: sorted(r) for u, r in rs.items()} for p, rs in state["retreats"].items() if rs},
    )


def record(games: int, phases: int, seed: int) -> tuple[list[dict[str, Any]], list[MilaGame], list[Recorded]]:
    saved = [to_saved_game_format(play_random_game(seed + g, phases)) for g in range(games)]
    ours = [read_mila_game(s) for s in saved]
    rows = []
    for raw, game in zip(saved, ours, strict=True):
        for k in range(len(raw["phases"]) - 1):
            ph, nxt = raw["phases"][k], raw["phases"][k + 1]
            if ph["name"] == "COMPLETED":
                continue
            rows.append(
                Recorded(
                    ph["state"],
                    {p: o or [] for p, o in ph["orders"].items()},
                    nxt["state"],
                    game.phases[k].position,
                    list(game.phases[k].orders),
                )
            )
    return saved, ours, rows


def time_interboard(board: Board, rows: list[Recorded]) -> float:
    kinds = [r.position.phase.kind for r in rows]
    total = 0.0
    for r, kind in zip(rows, kinds, strict=True):
        t0 = time.perf_counter()
        orders: list[tuple[str, Order]] = []
        for power, text in r.texts:
            try:
                order = parse_power_order(board, text, kind).order
            except ValueError:  # unreadable: dropped, as MILA ignores it
                continue
            orders.append((power, order))
        step(board, r.position, orders, RULEBOOK)
        total += time.perf_counter() - t0
    return total


def time_mila(rows: list[Recorded], check: bool) -> tuple[float, float, int]:
    """Seconds in set_state, seconds in set_orders + process, and MILA's own mismatches with the record."""
    game = Game(game_id="bench", map_name="standard")
    t_state = t_adj = 0.0
    mismatches = 0
    for r in rows:
        t0 = time.perf_counter()
        game.set_state(r.state)
        t1 = time.perf_counter()
        for power, orders in r.orders.items():
            game.set_orders(power, orders)
        game.process()
        t2 = time.perf_counter()
        t_state += t1 - t0
        t_adj += t2 - t1
        if check and _view(game.get_state())[1:] != _view(r.next_state)[1:]:
            mismatches += 1
    return t_state, t_adj, mismatches


def best(repeat: int, fn: Callable[[], float]) -> float:
    return min(fn() for _ in range(repeat))


def bench_adjudicate(args: argparse.Namespace) -> None:
    board = get_variant("standard").board
    t0 = time.perf_counter()
    saved, games, rows = record(args.games, args.phases, args.seed)
    n = len(rows)
    print(
        f"recorded: {args.games} games, {n:,} phases of MILA random play "
        f"(seeds {args.seed}-{args.seed + args.games - 1}) in {time.perf_counter() - t0:.1f} s"
    )

    t_ours = best(args.repeat, lambda: time_interboard(board, rows))
    t_import = best(args.repeat, lambda: _time_import(saved))
    mila_runs = [time_mila(rows, check=k == 0) for k in range(args.repeat)]
    t_state = min(r[0] for r in mila_runs)
    t_mila_adj = min(r[1] for r in mila_runs)
    t_mila = min(r[0] + r[1] for r in mila_runs)
    mila_self = mila_runs[0][2]

    print(
        f"adjudicate: interboard {n / t_ours:,.0f} phases/s  MILA {n / t_mila:,.0f} phases/s  "
        f"ratio {t_mila / t_ours:.1f}x"
    )
    print(
        "  timed per phase: interboard = parse order strings + step; MILA = set_state + set_orders + process"
    )
    print(
        f"  without state set-up: MILA set_orders + process {n / t_mila_adj:,.0f} phases/s "
        f"(ratio {t_mila_adj / t_ours:.1f}x); state loading alone: MILA set_state {n / t_state:,.0f} "
        f"phases/s, interboard read_mila_game {n / t_import:,.0f} phases/s"
    )

    diffs = [(g, d) for g, game in enumerate(games) for d in replay_mila(game, RULEBOOK)]
    print(
        f"agreement: {n:,} phases, {len(diffs)} disagreement(s) between interboard and the MILA record; "
        f"MILA re-adjudicating from set_state disagrees with its own record {mila_self} time(s)"
    )
    for g, d in diffs:
        text = str(d).replace("\n", "\n  ")
        print(f"  game seed {args.seed + g}: {text}")


def _time_import(saved: list[dict[str, Any]]) -> float:
    texts = [json.dumps(s) for s in saved]
    data = [json.loads(t) for t in texts]
    t0 = time.perf_counter()
    for d in data:
        read_mila_game(d)
    return time.perf_counter() - t0


# ---- whole games ----------------------------------------------------------------------------


def mila_games(games: int, phases: int, seed: int) -> tuple[int, float]:
    done = 0
    t0 = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed + g)
        game = Game(game_id=f"bench-{g}")
        for _ in range(phases):
            if game.is_game_done:
                break
            possible = game.get_all_possible_orders()
            for power in game.powers:
                locs = [loc for loc in game.get_orderable_locations(power) if possible[loc]]
                # Sorted: MILA's option lists come from sets, whose order changes between runs.
                game.set_orders(power, [rng.choice(sorted(possible[loc])) for loc in locs])
            game.process()
            done += 1
    return done, time.perf_counter() - t0


def interboard_games(games: int, phases: int, seed: int) -> tuple[int, float] | None:
    try:
        legal_orders = importlib.import_module("interboard.games.diplomacy.legal").legal_orders
    except (ImportError, AttributeError):
        return None
    variant = get_variant("standard")
    board = variant.board
    done = 0
    t0 = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed + g)
        position = variant.start()
        for _ in range(phases):
            orders: list[tuple[str, Order]] = []
            for power, opts in legal_orders(board, position).items():
                for choices in opts.orders.values():
                    # Like MILA's list for a build site, a waive is one of the choices.
                    pick = rng.randrange(len(choices) + (opts.due > 0))
                    orders.append((power, choices[pick] if pick < len(choices) else Waive()))
            outcome = step(board, position, orders, RULEBOOK)
            position = outcome.position
            done += 1
            if outcome.winners:
                break
    return done, time.perf_counter() - t0


def bench_games(args: argparse.Namespace) -> None:
    ours = interboard_games(args.games, args.phases, args.seed)
    if ours is None:
        print("games: skipped: no legal-order generator yet (interboard.games.diplomacy.legal.legal_orders)")
        return
    n_ours, t_ours = ours
    n_mila, t_mila = mila_games(args.games, args.phases, args.seed)
    r_ours, r_mila = n_ours / t_ours, n_mila / t_mila
    print(
        f"games: interboard {r_ours:,.0f} phases/s  MILA {r_mila:,.0f} phases/s  ratio {r_ours / r_mila:.1f}x"
    )
    print(
        f"  {args.games} random games each, up to {args.phases} phases: interboard {n_ours:,} phases, "
        f"MILA {n_mila:,} phases; timed: legal orders + random choice + adjudication"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="interboard vs MILA adjudication speed (needs MILA installed)")
    ap.add_argument("--games", type=int, default=20, help="random games per figure (default 20)")
    ap.add_argument("--phases", type=int, default=60, help="phases per game at most (default 60)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    ap.add_argument("--repeat", type=int, default=3, help="timing runs; the best is reported (default 3)")
    args = ap.parse_args(argv)
    bench_adjudicate(args)
    bench_games(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
