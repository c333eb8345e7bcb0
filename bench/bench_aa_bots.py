"""Hand-run benchmark of the Axis & Allies family's calculator bot.

    python bench/bench_aa_bots.py [--games 10] [--rounds 15] [--variants aa_europe_1999,...]
                                  [--opponents random,turtle] [--sides axis,allies]

For each variant and each side, the calculator bot plays every seat of that side against an opponent
bot in every other seat (the generic random player, or the turtle, which buys infantry and never
moves), on seeded games capped at ``--rounds`` rounds (a game not won by then is not a win). Beside it
the reference: the random player in the same seats, against the same opponents, on the same seeds.
Printed: wins with their 95 % Wilson intervals, rounds played, and the bot's thinking time for one
power's whole turn (the target: under two seconds on the linked map).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bots import wilson
from interboard.bots.seats import seat_actions
from interboard.games.axis_allies.family import FAMILY
from interboard.games.axis_allies.gamedata import game_data
from interboard.games.axis_allies.state import SEAT_OF

VARIANTS = ("aa_europe_1999", "aa_pacific_2001", "aa_linked_world")


def side_seats(variant: str, side: str) -> set[str]:
    data = game_data(variant)
    return {SEAT_OF.get(p.id, p.id) for p in data.powers if p.side == side}


def duel(
    variant: str, seed: int, side: str, bot: str, opponent: str, rounds: int
) -> tuple[bool, int, float, int]:
    """One game: ``bot`` in the seats of ``side``, ``opponent`` elsewhere. (won, rounds, seconds the
    bot thought, power turns it played)."""
    state = FAMILY.new_state(variant, {"max_rounds": rounds}, seed)
    mine = side_seats(variant, side)
    thought = 0.0
    turns = 0
    while not FAMILY.pending(state).over:
        pending = FAMILY.pending(state)
        subs = {}
        for seat in pending.seats:
            start = time.perf_counter()
            subs[seat] = seat_actions(
                "axis_allies", state, seat, bot if seat in mine else opponent, f"{seed}/{seat}"
            )
            if seat in mine:
                thought += time.perf_counter() - start
                turns += ".purchase." in pending.phase  # one a power turn
        state = FAMILY.process(state, subs).state
    return state.get("winner") == side, int(state["round"]), thought, turns


def table(variants: list[str], opponents: list[str], games: int, rounds: int, sides: list[str]) -> None:
    print(
        f"{'variant':16} {'bot side':8} {'opponent':9} {'calculator: wins [95 % CI]':32} "
        f"{'reference: random':20} {'rounds':>6} {'bot s/turn':>10}"
    )
    for variant in variants:
        for side in sides:
            for opponent in opponents:
                runs = [duel(variant, 900 + k, side, "calculator", opponent, rounds) for k in range(games)]
                refs = [duel(variant, 900 + k, side, "random", opponent, rounds) for k in range(games)]
                wins = sum(1 for r in runs if r[0])
                ref_wins = sum(1 for r in refs if r[0])
                lo, hi = wilson(wins, games)
                per_turn = sum(r[2] for r in runs) / max(sum(r[3] for r in runs), 1)
                print(
                    f"{variant:16} {side:8} {opponent:9} {wins:3}/{games} = {100 * wins / games:5.1f} % "
                    f"[{100 * lo:5.1f}, {100 * hi:5.1f}]   "
                    f"{ref_wins:3}/{games} = {100 * ref_wins / games:5.1f} %   "
                    f"{sum(r[1] for r in runs) / games:6.1f} {per_turn:10.2f}",
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--opponents", default="random,turtle")
    parser.add_argument("--sides", default="axis,allies", help="the sides the bot plays")
    args = parser.parse_args()
    table(args.variants.split(","), args.opponents.split(","), args.games, args.rounds, args.sides.split(","))


if __name__ == "__main__":
    main()
