"""Team points and standings across finished games: a small pure function over game results."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

POINTS_PER_WIN = 1
"""Points each surviving member of the winning side is awarded."""


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """Who played a finished game (by name) and who won it (the surviving winners, by name)."""

    players: tuple[str, ...]
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    name: str
    points: int
    games: int
    wins: int


def standings(games: Iterable[FinishedGame], points_per_win: int = POINTS_PER_WIN) -> list[Standing]:
    """Points across games: each surviving member of the winning team (or the lone winner) scores;
    a partner eliminated before the end scores nothing. Sorted by points, then name."""
    points: dict[str, int] = {}
    played: dict[str, int] = {}
    wins: dict[str, int] = {}
    for game in games:
        for name in game.players:
            played[name] = played.get(name, 0) + 1
            points.setdefault(name, 0)
        for name in game.winners:
            if name not in game.players:
                raise ValueError(f"winner {name!r} did not play in the game")
            points[name] += points_per_win
            wins[name] = wins.get(name, 0) + 1
    table = [Standing(n, points[n], played[n], wins.get(n, 0)) for n in points]
    return sorted(table, key=lambda st: (-st.points, st.name))
