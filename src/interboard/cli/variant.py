"""``interboard variant check FILE``: a variant file read, then run through the conformance suite.

A designer checks a new variant as the project checks its own: the file's every error at once, then a
seeded game of random legal orders through the suite (``interboard.conformance``), and a game started
from each of its decision points.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..games import add_variant_file
from ..games.protocol import FamilyError
from .common import fail

app = typer.Typer(add_completion=False, help="Variants defined by files (docs/variants.md).")


@app.command("check")
def check(
    file: Annotated[Path, typer.Argument(help="A variant file (interboard-variant/1).")],
    seed: Annotated[int, typer.Option(help="Seed of the suite's game.")] = 1,
    steps: Annotated[int, typer.Option(help="Decision points the suite's game plays at most.", min=1)] = 80,
) -> None:
    """Read a variant file, report every error in it, then run the conformance suite on it."""
    from ..conformance import ConformanceError, check_liveness, check_scenarios, check_variant

    try:
        _, info = add_variant_file(file)
    except FamilyError as exc:
        raise fail(str(exc), code=1) from exc
    typer.echo(f"{file}: {info.id}, {info.title}: {len(info.seats)} powers ({', '.join(info.seats)})")
    try:
        report = check_variant(info.id, seed=seed, max_steps=steps)
        moved_on = check_liveness(info.id, seed=seed, max_steps=steps)
        started = check_scenarios(info.id, seed=seed, max_steps=steps)
    except ConformanceError as exc:
        raise fail(f"the conformance suite fails: {exc}", code=1) from exc
    end = "to its end" if report.over else f"for {report.steps} decision points"
    typer.echo(
        f"conformance: passed; a seeded random game played {end} ({', '.join(report.phases[:3])}...), "
        f"{report.actions} actions checked, {report.drawings} maps drawn; {moved_on} decisions moved on; "
        f"{started} positions restarted as scenarios"
    )
