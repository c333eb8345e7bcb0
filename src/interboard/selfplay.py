"""Bot self-play: many full games, each saved as a record, summed up per bot.

A rule family takes part through a small adapter (:class:`SelfPlayFamily`): its seats, its bots, and
how to play one game to the end (or to a year cap) from a seed. :func:`run` plays the games in this
process (one worker), over a process pool (``concurrent.futures``) on one machine, or over Ray past
one machine (``backend="ray"``, the optional extra ``interboard[ray]``, imported only then).

A game counts as a *win* for the seats that won it (a solo victory), as a *draw* for every seat still
in the game when the year cap stops it, and as a *loss* for the rest.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

BACKENDS = ("process", "ray")


class SelfPlayError(ValueError):
    """Bad self-play settings (unknown variant, bot or backend); the message says what."""


@dataclass(frozen=True)
class GameSpec:
    """One game to play: everything a worker needs, and nothing that cannot be pickled."""

    family: str
    variant: str
    seats: tuple[tuple[str, str], ...]
    """(seat, bot name) for every seat, in the variant's seat order."""
    seed: int
    max_year: int | None = None
    """Stop after this game year (the game is then drawn among the seats still in it)."""
    out: str | None = None
    """Directory to write the game's record into."""
    index: int = 0


@dataclass(frozen=True)
class GameResult:
    index: int
    seats: dict[str, str]
    """Seat -> bot name."""
    winners: tuple[str, ...]
    survivors: tuple[str, ...]
    """Seats still in the game at its end."""
    scores: dict[str, int]
    """Seat -> its size at the end: supply centres (Diplomacy), countries (Global War)."""
    phases: int
    years: int
    seconds: float
    record: str | None = None
    """Where the game's record was written."""

    def outcome(self, seat: str) -> str:
        if seat in self.winners:
            return "win"
        if not self.winners and seat in self.survivors:
            return "draw"
        return "loss"


class SelfPlayFamily(Protocol):
    """What self-play needs of a rule family."""

    name: str

    def variants(self) -> list[str]: ...

    def seats(self, variant: str) -> list[str]: ...

    def bots(self) -> list[str]: ...

    def play(self, spec: GameSpec) -> tuple[GameResult, dict[str, Any]]:
        """Play the game to its end or year cap: its result and its record (JSON-ready)."""
        ...


class DiplomacySelfPlay:
    """The Diplomacy family: bots of :mod:`interboard.bots.diplomacy`, records ``interboard-game/1``."""

    name = "diplomacy"

    def variants(self) -> list[str]:
        from .diplomacy.variants import VARIANTS

        return list(VARIANTS)

    def seats(self, variant: str) -> list[str]:
        from .diplomacy.variants import get_variant

        return [p.id for p in get_variant(variant).board.powers]

    def bots(self) -> list[str]:
        from .bots.diplomacy import BOTS

        return list(BOTS)

    def play(self, spec: GameSpec) -> tuple[GameResult, dict[str, Any]]:
        from .bots.diplomacy import make_bot, phase_orders
        from .diplomacy.game import Game
        from .formats.record import game_to_json

        started = time.perf_counter()
        game = Game.new(spec.variant)
        bots = {seat: make_bot(name, f"{spec.seed}/{seat}") for seat, name in spec.seats}
        first_year = game.position.phase.year
        phases = 0
        while not game.over and (spec.max_year is None or game.position.phase.year <= spec.max_year):
            orders = phase_orders(game.board, game.position, game.rulebook, bots, game.acting)
            game.process(orders)
            phases += 1
        pos = game.position
        scores = {seat: len(pos.centres_of(seat)) for seat, _ in spec.seats}
        survivors = tuple(s for s, _ in spec.seats if pos.units_of(s) or scores[s])
        result = GameResult(
            index=spec.index,
            seats=dict(spec.seats),
            winners=game.winners,
            survivors=survivors,
            scores=scores,
            phases=phases,
            years=game.history[-1].position.phase.year - first_year + 1 if game.history else 0,
            seconds=time.perf_counter() - started,
        )
        record = game_to_json(game)
        record["players"] = {seat: f"bot:{name}" for seat, name in spec.seats}
        return result, record


FAMILIES: dict[str, Callable[[], SelfPlayFamily]] = {"diplomacy": DiplomacySelfPlay}
"""Families that self-play knows, by name; another family registers its adapter here."""


def _register_optional() -> None:
    """Families whose packages may be absent (built separately) join when they import."""
    if "globalwar" in FAMILIES:
        return
    try:
        module = importlib.import_module("interboard.bots.globalwar_selfplay")
    except ImportError:
        return
    FAMILIES["globalwar"] = module.GlobalWarSelfPlay


def get_family(name: str) -> SelfPlayFamily:
    _register_optional()
    try:
        return FAMILIES[name]()
    except KeyError:
        raise SelfPlayError(f"unknown family {name!r} (known: {', '.join(sorted(FAMILIES))})") from None


def family_of(variant: str) -> SelfPlayFamily:
    """The family that has ``variant``."""
    _register_optional()
    for make in FAMILIES.values():
        family = make()
        if variant.lower().replace("-", "_") in family.variants():
            return family
    known = sorted(v for make in FAMILIES.values() for v in make().variants())
    raise SelfPlayError(f"unknown variant {variant!r} (known: {', '.join(known)})")


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
    max_year: int | None = None,
    out: str | Path | None = None,
    rotate: bool = True,
) -> list[GameSpec]:
    """The games to play, checked: the variant and every bot must exist."""
    if games < 1:
        raise SelfPlayError("play at least one game")
    family = family_of(variant)
    known = family.bots()
    unknown = [b for b in bots if b not in known]
    if unknown:
        raise SelfPlayError(f"unknown bot {unknown[0]!r} for {family.name} (known: {', '.join(known)})")
    variant_id = variant.lower().replace("-", "_")
    seats = family.seats(variant_id)
    return [
        GameSpec(
            family=family.name,
            variant=variant_id,
            seats=assign_seats(seats, bots, k if rotate else 0),
            seed=seed + k,
            max_year=max_year,
            out=str(out) if out is not None else None,
            index=k,
        )
        for k in range(games)
    ]


def play_game(spec: GameSpec) -> GameResult:
    """Play one game (in whatever process runs this) and write its record when asked."""
    family = get_family(spec.family)
    result, record = family.play(spec)
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
