"""Hand-run benchmark: how strong the bots are, as win rates with Wilson 95 % confidence intervals.

Run from the repository root (no extra dependencies beyond the package)::

    python bench/bench_bots.py --games 35 --workers 2 --max-year 1935

For each board (standard, Twin Earths I, Twin Earths III) one heuristic bot plays against random bots
and against hold bots (six of them on the seven-power boards, thirteen on Twin Earths III). The bot
under test takes each seat in turn (game k: seat k mod seats), and game k is seeded k on every line.
A *win* is a solo victory (the board's victory condition: 18 centres on the standard board, 35 or 23
units after a Winter on the Twin Earths boards) reached by the end of ``--max-year``; a game still
going then counts as no win. Each figure is printed beside its reference: a random bot in the same
seat, against the same opponents, on the same seeds. With ``--globalwar``, the greedy Global War bot
against five random bots on both maps, and a team of two greedy bots against two random teams; there
``--turns`` caps a game and a win is holding all 42 countries (alone, or as a team).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence

from interboard.games import find_variant
from interboard.selfplay import GameResult, make_specs, run

BOARDS = ("standard", "twin_earths_1", "twin_earths_3")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95 % for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def hero_wins(results: Sequence[GameResult], seats: Sequence[str]) -> tuple[int, float]:
    """Wins of the bot in seat k mod seats of game k, and its mean centres at the end."""
    wins = 0
    score = 0
    for r in results:
        hero = seats[r.index % len(seats)]
        wins += hero in r.winners
        score += r.scores.get(hero, 0)
    return wins, score / len(results) if results else 0.0


def line(
    variant: str, hero: str, opponent: str, args: argparse.Namespace, teams: bool = False
) -> tuple[int, float, float]:
    seats = list(find_variant(variant)[1].seats)
    bots = [hero] + [opponent] * (len(seats) - 1)
    options = {"teams": True} if teams else {}
    if teams:
        bots[len(seats) // 2] = hero  # the partner of seat k is seat k + 3
    specs = make_specs(variant, args.games, bots, seed=args.seed, options=options, max_year=args.max_year)
    started = time.perf_counter()
    results = run(specs, workers=args.workers)
    wins, centres = hero_wins(results, seats)
    return wins, centres, time.perf_counter() - started


def fmt(wins: int, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{wins:3d}/{n} = {100 * wins / n:5.1f} % [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=35, help="games per line (default 35)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--max-year", type=int, default=1935, help="last year played (default 1935)")
    parser.add_argument("--seed", type=int, default=1, help="seed of game 0 (default 1)")
    parser.add_argument("--boards", default=",".join(BOARDS), help="comma-separated variants")
    parser.add_argument("--globalwar", action="store_true", help="also the Global War bots")
    parser.add_argument("--turns", type=int, default=300, help="Global War: last turn played (default 300)")
    args = parser.parse_args(argv)
    print(f"{args.games} games a line, seeds {args.seed}..{args.seed + args.games - 1}, to {args.max_year}")
    print(f"{'board':14} {'opponents':10} {'heuristic: solo wins [95 % CI]':38} {'reference: random bot':38}")
    for variant in args.boards.split(","):
        for opponent in ("random", "hold"):
            wins, centres, spent = line(variant, "heuristic", opponent, args)
            ref, ref_centres, ref_spent = line(variant, "random", opponent, args)
            print(
                f"{variant:14} {opponent:10} {fmt(wins, args.games):38} {fmt(ref, args.games):38}"
                f" centres {centres:4.1f} vs {ref_centres:4.1f}; {spent + ref_spent:5.1f} s",
                flush=True,
            )
    if args.globalwar:
        for variant, teams in (("classic_world", False), ("global_war", False), ("global_war", True)):
            # In the team game the greedy bot's partner (seat k + 3) is greedy too: a team is judged.
            turns = argparse.Namespace(**{**vars(args), "max_year": args.turns})
            wins, countries, spent = line(variant, "greedy", "random", turns, teams)
            ref, ref_countries, ref_spent = line(variant, "random", "random", turns, teams)
            label = variant + (" teams" if teams else "")
            print(
                f"{label:14} {'random':10} {fmt(wins, args.games):38} {fmt(ref, args.games):38}"
                f" countries {countries:4.1f} vs {ref_countries:4.1f}; {spent + ref_spent:5.1f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
