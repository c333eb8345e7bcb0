"""Bot self-play: many full games, each saved as a record, summed up per bot.

Any family plays through the family protocol: the registry finds the variant's family, the bots
(the family's own and the generic random player) give each decision point's submissions, and the
game is written as an ``interboard-record/1`` that replays to the same end. :func:`run` plays the
games in this process (one worker), over a process pool (``concurrent.futures``) on one machine,
or over Ray past one machine (``backend="ray"``, the optional extra ``interboard[ray]``, imported
only then).

A game counts as a *win* for the seats that won it, as a *draw* for every seat still in the game
when the round cap (or the step cap) stops it, and as a *loss* for the rest.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bots.seats import bot_names, seat_actions
from .games import add_variant, find_variant
from .games.protocol import FamilyError, OptionValue
from .games.record import Match

BACKENDS = ("process", "ray")
MAX_STEPS = 100_000
"""A game still going after this many decision points is stopped (a draw among the seats left)."""


class SelfPlayError(ValueError):
    """Bad self-play settings (unknown variant, bot or backend); the message says what."""


@dataclass(frozen=True)
class GameSpec:
    """One game to play: everything a worker needs, and nothing that cannot be pickled."""

    variant: str
    seats: tuple[tuple[str, str], ...]
    """(seat, bot name) for every seat, in the variant's seat order."""
    seed: int
    options: tuple[tuple[str, OptionValue], ...] = ()
    max_year: int | None = None
    """Stop after this round (a Diplomacy year, a Global War turn); the game is then drawn among
    the seats still in it."""
    out: str | None = None
    """Directory to write the game's record into."""
    index: int = 0
    definition: str | None = None
    """A variant made from a file: its definition, for a worker process to add it too."""


@dataclass(frozen=True)
class GameResult:
    index: int
    seats: dict[str, str]
    """Seat -> bot name."""
    winners: tuple[str, ...]
    survivors: tuple[str, ...]
    """Seats still in the game at its end."""
    scores: dict[str, int]
    """Seat -> its size at the end (the family's score: supply centres, countries, income)."""
    phases: int
    """Decision points processed."""
    years: int
    """Rounds played."""
    seconds: float
    record: str | None = None
    """Where the game's record was written."""

    def outcome(self, seat: str) -> str:
        if seat in self.winners:
            return "win"
        if not self.winners and seat in self.survivors:
            return "draw"
        return "loss"


def play(spec: GameSpec) -> tuple[GameResult, dict[str, Any]]:
    """Play the game to its end or its cap: its result and its record (JSON-ready)."""
    started = time.perf_counter()
    if spec.definition is not None:
        add_variant(json.loads(spec.definition), spec.variant)
    match = Match.new(spec.variant, dict(spec.options), spec.seed)
    fam = match.family
    bots = dict(spec.seats)
    match.players = {seat: f"bot:{name}" for seat, name in spec.seats}
    first = fam.pending(match.state).round
    last = first
    while len(match.steps) < MAX_STEPS:
        pending = fam.pending(match.state)
        if pending.over or (spec.max_year is not None and pending.round > spec.max_year):
            break
        last = pending.round
        submissions = {
            seat: seat_actions(fam.name, match.state, seat, bots[seat], f"{spec.seed}/{seat}")
            for seat in pending.seats
            if seat in bots
        }
        match.play(submissions)
    state = match.state
    scores = fam.scores(state)
    result = GameResult(
        index=spec.index,
        seats=bots,
        winners=tuple(fam.winners(state)),
        survivors=tuple(fam.alive(state)),
        scores=scores,
        phases=len(match.steps),
        years=last - first + 1 if match.steps else 0,
        seconds=time.perf_counter() - started,
    )
    return result, match.to_json()


def assign_seats(seats: Sequence[str], bots: Sequence[str], rotate: int = 0) -> tuple[tuple[str, str], ...]:
    """Bots to seats: one per seat, a single bot for all, or a shorter list repeated. ``rotate``
    shifts the list by that many seats (game k uses k), so every bot plays every seat in turn."""
    if not bots:
        raise SelfPlayError("name at least one bot")
    if len(bots) > len(seats):
        raise SelfPlayError(f"{len(bots)} bots for {len(seats)} seats")
    n = len(seats)
    return tuple((seat, bots[(i - rotate) % n % len(bots)]) for i, seat in enumerate(seats))


def make_specs(
    variant: str,
    games: int,
    bots: Sequence[str],
    *,
    seed: int = 1,
    options: dict[str, OptionValue] | None = None,
    max_year: int | None = None,
    out: str | Path | None = None,
    rotate: bool = True,
) -> list[GameSpec]:
    """The games to play, checked: the variant, its options and every bot must exist."""
    if games < 1:
        raise SelfPlayError("play at least one game")
    try:
        fam, info = find_variant(variant)
        chosen = info.check_options(options or {})
        # The seats of a game with these options (a Global War game may seat fewer than six).
        seats = fam.seats(fam.new_state(info.id, chosen, seed))
    except FamilyError as exc:
        raise SelfPlayError(str(exc)) from None
    known = bot_names(fam.name)
    unknown = [b for b in bots if b not in known]
    if unknown:
        raise SelfPlayError(f"unknown bot {unknown[0]!r} for {fam.name} (known: {', '.join(known)})")
    return [
        GameSpec(
            variant=info.id,
            seats=assign_seats(seats, bots, k if rotate else 0),
            seed=seed + k,
            options=tuple(sorted((options or {}).items())),
            max_year=max_year,
            out=str(out) if out is not None else None,
            index=k,
            definition=info.definition,
        )
        for k in range(games)
    ]


def play_game(spec: GameSpec) -> GameResult:
    """Play one game (in whatever process runs this) and write its record when asked."""
    result, record = play(spec)
    if spec.out is None:
        return result
    path = Path(spec.out) / f"{spec.variant}-{spec.index + 1:05d}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return GameResult(**{**result.__dict__, "record": str(path)})


def run(
    specs: Sequence[GameSpec],
    *,
    workers: int = 1,
    backend: str = "process",
    on_result: Callable[[GameResult], None] | None = None,
    ray_address: str | None = None,
) -> list[GameResult]:
    """Play every game and return the results in game order; ``on_result`` hears of each game as
    it ends (in the order they end)."""
    if backend not in BACKENDS:
        raise SelfPlayError(f"unknown backend {backend!r} (choose {' or '.join(BACKENDS)})")
    if workers < 1:
        raise SelfPlayError("workers must be 1 or more")
    results: list[GameResult] = []
    stream = _ray(specs, workers, ray_address) if backend == "ray" else _local(specs, workers)
    for result in stream:
        results.append(result)
        if on_result is not None:
            on_result(result)
    return sorted(results, key=lambda r: r.index)


def _local(specs: Sequence[GameSpec], workers: int) -> Iterator[GameResult]:
    if workers == 1:
        for spec in specs:
            yield play_game(spec)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_game, spec) for spec in specs]
        for future in as_completed(futures):
            yield future.result()


def _ray(specs: Sequence[GameSpec], workers: int, address: str | None) -> Iterator[GameResult]:
    try:
        import ray
    except ImportError:
        raise SelfPlayError("the ray backend needs its extra: pip install 'interboard[ray]'") from None
    if not ray.is_initialized():
        # An existing cluster (address or $RAY_ADDRESS), else a single-node one on this machine.
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(play_game)
    pending = [remote.remote(spec) for spec in specs]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)


# ---------------------------------------------------------------------- summary
@dataclass
class BotLine:
    """One bot's record over the games."""

    bot: str
    seats: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: int = 0


@dataclass
class Summary:
    games: int
    phases: int
    seconds: float
    """Wall-clock time of the whole run."""
    mean_years: float
    mean_phases: float
    bots: dict[str, BotLine] = field(default_factory=dict)

    @property
    def phases_per_second(self) -> float:
        return self.phases / self.seconds if self.seconds > 0 else 0.0


def summarise(results: Sequence[GameResult], seconds: float) -> Summary:
    n = len(results)
    summary = Summary(
        games=n,
        phases=sum(r.phases for r in results),
        seconds=seconds,
        mean_years=sum(r.years for r in results) / n if n else 0.0,
        mean_phases=sum(r.phases for r in results) / n if n else 0.0,
    )
    for r in results:
        for seat, bot in r.seats.items():
            line = summary.bots.setdefault(bot, BotLine(bot))
            line.seats += 1
            line.score += r.scores.get(seat, 0)
            outcome = r.outcome(seat)
            if outcome == "win":
                line.wins += 1
            elif outcome == "draw":
                line.draws += 1
            else:
                line.losses += 1
    return summary
