"""Hand-run benchmark of the hex wargame family (the Vernian WWI variant on its full maps).

    python bench/bench_hexwar.py [--positions 20] [--games 2] [--repeat 5] [--bot-games 10] [--max-turns N]

1. Supply: the supply state of every ground unit of both sides, as one phase needs it, on positions
   taken from seeded random games; timed for the bit-set search the engine uses and for the naive
   reference (a breadth-first search from every unit over the same hex graph), with their ratio.
   The target: under 5 ms a phase on the full maps.
2. Whole games: seeded random games played to their end through the family protocol, with the time
   of legal-action listing and of processing per operational turn.
3. The heuristic bot against random players, from each side in turn on the same seeds, beside the
   reference (a random player in the bot's seat on those seeds): wins with their 95 % Wilson
   intervals, and the bot's thinking time per operational turn (the target: under two seconds).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bots import wilson
from interboard.bots.random_player import random_submission
from interboard.bots.seats import seat_actions
from interboard.games.hexwar import supply
from interboard.games.hexwar.family import FAMILY
from interboard.games.hexwar.state import World


def positions(count: int, seed: int) -> list[World]:
    """Positions from a seeded random game, one every few decision points."""
    rng = random.Random(seed)
    state = FAMILY.new_state("vernian_wwi", {}, seed)
    out: list[World] = []
    while len(out) < count:
        pending = FAMILY.pending(state)
        if pending.over:
            state = FAMILY.new_state("vernian_wwi", {}, seed + len(out) + 1)
            continue
        state = FAMILY.process(
            state, {s: random_submission(FAMILY, state, s, rng) for s in pending.seats}
        ).state
        if state["stage"] == "play":
            out.append(World.from_json(state))
    return out


def time_supply(worlds: list[World], repeat: int) -> tuple[float, float, int]:
    """(ms a phase by bit sets, ms a phase by the naive search, units a phase on average)."""
    units = statistics.mean(len(supply.unit_states(w)) for w in worlds)
    for w in worlds:  # the two must agree before their times mean anything
        assert supply.unit_states(w) == supply.naive_states(w)
    start = time.perf_counter()
    for _ in range(repeat):
        for w in worlds:
            supply.unit_states(w)
    fast = (time.perf_counter() - start) / (repeat * len(worlds)) * 1000
    start = time.perf_counter()
    for w in worlds:
        supply.naive_states(w)
    naive = (time.perf_counter() - start) / len(worlds) * 1000
    return fast, naive, round(units)


def play_games(games: int) -> None:
    for game in range(games):
        seed = 100 + game
        rng = random.Random(seed)
        state = FAMILY.new_state("vernian_wwi", {}, seed)
        legal_time = process_time = 0.0
        steps = 0
        start = time.perf_counter()
        while not FAMILY.pending(state).over:
            pending = FAMILY.pending(state)
            t0 = time.perf_counter()
            subs = {s: random_submission(FAMILY, state, s, rng) for s in pending.seats}
            t1 = time.perf_counter()
            state = FAMILY.process(state, subs).state
            legal_time += t1 - t0
            process_time += time.perf_counter() - t1
            steps += 1
        turns = max(World.from_json(state).game_turn - 1, 1)
        total = time.perf_counter() - start
        print(
            f"game {seed}: {state['result']}; {steps} decision points in {turns} operational turns, "
            f"{total:.1f} s: per operational turn {legal_time / turns * 1000:.0f} ms choosing legal actions, "
            f"{process_time / turns * 1000:.0f} ms processing"
        )


def duel(seed: int, hero: str, bot: str, max_turns: int | None = None) -> tuple[bool, int, float]:
    """One game: ``bot`` in seat ``hero``, random players elsewhere, stopped unwon after ``max_turns``
    operational turns if given. (won, operational turns, seconds the bot thought)."""
    state = FAMILY.new_state("vernian_wwi", {}, seed)
    thought = 0.0
    while not FAMILY.pending(state).over:
        if max_turns is not None and World.from_json(state).game_turn > max_turns:
            return False, max_turns, thought
        pending = FAMILY.pending(state)
        subs = {}
        for seat in pending.seats:
            start = time.perf_counter()
            subs[seat] = seat_actions(
                "hexwar", state, seat, bot if seat == hero else "random", f"{seed}/{seat}"
            )
            if seat == hero:
                thought += time.perf_counter() - start
        state = FAMILY.process(state, subs).state
    return state["winner"] == hero, World.from_json(state).game_turn, thought


def bot_table(games: int, max_turns: int | None) -> None:
    print(
        f"{'bot side':10} {'heuristic: wins [95 % CI]':34} {'reference: random':22} "
        f"{'op. turns':>9} {'bot s/op. turn':>15}"
    )
    for hero in FAMILY.seats(FAMILY.new_state("vernian_wwi", {}, 1)):
        runs = [duel(500 + k, hero, "heuristic", max_turns) for k in range(games)]
        refs = [duel(500 + k, hero, "random", max_turns) for k in range(games)]
        wins = sum(1 for r in runs if r[0])
        ref_wins = sum(1 for r in refs if r[0])
        lo, hi = wilson(wins, games)
        turns = sum(r[1] for r in runs)
        per_turn = sum(r[2] for r in runs) / max(turns, 1)
        print(
            f"{hero:10} {wins:3}/{games} = {100 * wins / games:5.1f} % [{100 * lo:5.1f}, "
            f"{100 * hi:5.1f}]     "
            f"{ref_wins:3}/{games} = {100 * ref_wins / games:5.1f} %      {turns / games:9.1f} "
            f"{per_turn:15.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--bot-games", type=int, default=10, help="games a side for the bot table (0: none)")
    parser.add_argument(
        "--max-turns", type=int, help="stop a bot-table game unwon after this many operational turns"
    )
    args = parser.parse_args()
    worlds = positions(args.positions, seed=7)
    fast, naive, units = time_supply(worlds, args.repeat)
    print(
        f"supply of every unit of both sides ({units} units a position, {len(worlds)} positions): "
        f"bit sets {fast:.2f} ms a phase, naive search from every unit {naive:.1f} ms: "
        f"{naive / fast:.0f}x faster (target under 5 ms)"
    )
    play_games(args.games)
    if args.bot_games:
        bot_table(args.bot_games, args.max_turns)


if __name__ == "__main__":
    main()
