"""Hand-run benchmark: the exact battle calculator against a plain Monte-Carlo of the same battle.

    python bench/bench_odds.py [--size 20] [--error 0.005]

For a land battle of ``size`` mixed units a side (infantry, artillery, armour, fighters, a bomber,
the defender with an AA gun) and a sea battle of as many (battleships, destroyers, submarines,
carriers, fighters, transports), it times the exact calculation and a Monte-Carlo sampling enough
battles for a standard error of ``--error`` on the attacker's chance (the exact figure has none),
and prints both with their ratio. The target: exact odds of 20 against 20 in under half a second.
"""

from __future__ import annotations

import argparse
import time

from interboard.games.axis_allies.gamedata import game_data
from interboard.games.axis_allies.odds import Battle, exact, simulate

LAND_ATTACK = (
    "infantry",
    "artillery",
    "armour",
    "infantry",
    "armour",
    "fighter",
    "infantry",
    "artillery",
    "armour",
    "bomber",
)
LAND_DEFEND = (
    "infantry",
    "infantry",
    "armour",
    "artillery",
    "fighter",
    "infantry",
    "armour",
    "infantry",
    "fighter",
    "infantry",
)
SEA_ATTACK = (
    "destroyer",
    "submarine",
    "battleship",
    "fighter",
    "submarine",
    "destroyer",
    "carrier",
    "fighter",
    "submarine",
    "battleship",
)
SEA_DEFEND = (
    "destroyer",
    "transport",
    "submarine",
    "battleship",
    "fighter",
    "carrier",
    "destroyer",
    "fighter",
    "submarine",
    "transport",
)


def side(pattern: tuple[str, ...], size: int) -> tuple[str, ...]:
    return tuple(pattern[k % len(pattern)] for k in range(size))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=20, help="units a side (default 20)")
    ap.add_argument("--error", type=float, default=0.005, help="Monte-Carlo standard error (default 0.005)")
    args = ap.parse_args(argv)
    table = game_data("aa_europe_1999").units
    trials = max(100, round(0.25 / args.error**2))
    print(
        f"{args.size} against {args.size}; Monte-Carlo: {trials:,} battles (standard error "
        f"{args.error} or less)"
    )
    for name, battle in (
        ("land", Battle(table, side(LAND_ATTACK, args.size), side(LAND_DEFEND, args.size), aa=True)),
        ("sea", Battle(table, side(SEA_ATTACK, args.size), side(SEA_DEFEND, args.size), kind="sea")),
    ):
        t0 = time.perf_counter()
        odds = exact(battle)
        t_exact = time.perf_counter() - t0
        t0 = time.perf_counter()
        sampled = simulate(battle, trials, seed=1)
        t_mc = time.perf_counter() - t0
        print(
            f"{name:5} exact {t_exact:7.3f} s (attacker wins {odds.attacker_wins:.6f})   "
            f"Monte-Carlo {t_mc:7.3f} s ({sampled.attacker_wins:.4f})   ratio {t_mc / t_exact:6.1f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
