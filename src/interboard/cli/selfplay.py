"""``interboard selfplay``: bots play many full games; a progress bar, records, and a table."""

from __future__ import annotations

import time
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ..games import find_variant
from ..games.protocol import FamilyError
from .common import parse_options, variant_or_file

if TYPE_CHECKING:
    from rich.table import Table

    from ..selfplay import Summary


class Backend(StrEnum):
    process = "process"
    ray = "ray"


def selfplay(
    variant: Annotated[str, typer.Option("--variant", "-v", help="Variant to play.")] = "standard",
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 10,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Bots by seat, comma-separated (one per seat, one for all, or a shorter list repeated); "
            "default: the family's own bot against the random player."
        ),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", "-k", help="Games played at once.")] = 1,
    out: Annotated[Path | None, typer.Option(help="Write every game's record into this directory.")] = None,
    max_year: Annotated[
        int | None,
        typer.Option(help="Stop a game after this round: a year, a turn (a draw among the seats left)."),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="NAME=VALUE: a rule option of the variant.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game (game k uses seed + k).")] = 1,
    rotate: Annotated[
        bool, typer.Option(help="Shift the bots one seat each game, so that each plays every seat.")
    ] = True,
    backend: Annotated[
        Backend, typer.Option(help="process (this machine) or ray (a cluster).")
    ] = Backend.process,
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: $RAY_ADDRESS, else a local one).")
    ] = None,
) -> None:
    """Let bots play full games against each other, write each game as a record, and tabulate the
    wins, draws and losses of each bot, the game lengths and the speed."""
    # Imported here, not with the module: ``interboard --help`` lists this command without them.
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..selfplay import GameResult, SelfPlayError, make_specs, run, summarise

    console = Console()
    try:
        variant = variant_or_file(variant)
        fam, info = find_variant(variant)
        names = [b.strip() for b in (bots or f"{fam.default_bot or 'random'},random").split(",") if b.strip()]
        options = parse_options(info, option or [])
        specs = make_specs(
            variant, games, names, seed=seed, options=options, max_year=max_year, out=out, rotate=rotate
        )
    except (SelfPlayError, FamilyError) as exc:
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(2) from None
    started = time.perf_counter()
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
    )
    with progress:
        task = progress.add_task(f"{specs[0].variant} games", total=len(specs))

        def done(_: GameResult) -> None:
            progress.advance(task)

        try:
            results = run(
                specs, workers=workers, backend=backend.value, on_result=done, ray_address=ray_address
            )
        except SelfPlayError as exc:
            typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
            raise typer.Exit(2) from None
    summary = summarise(results, time.perf_counter() - started)
    console.print(summary_table(summary, specs[0].variant))
    if out is not None:
        console.print(f"{len(results)} records written to {out}")


def summary_table(summary: Summary, variant: str) -> Table:
    from rich.table import Table

    table = Table(
        title=f"{summary.games} {variant} games: {summary.mean_years:.1f} rounds, "
        f"{summary.mean_phases:.1f} decision points each on average; "
        f"{summary.phases_per_second:,.0f} per second",
    )
    for column in ("bot", "seats", "wins", "draws", "losses", "win %", "mean size"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for line in sorted(summary.bots.values(), key=lambda b: b.bot):
        table.add_row(
            line.bot,
            str(line.seats),
            str(line.wins),
            str(line.draws),
            str(line.losses),
            f"{100 * line.wins / line.seats:.1f}",
            f"{line.score / line.seats:.1f}",
        )
    return table
