"""``interboard scenario``: scenario files (``interboard-scenario/1``, ``docs/scenarios.md``) checked,
and any decision point of a game record written out as one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..games import find_variant, scenario
from ..games.protocol import FamilyError
from .common import fail, load_any_record

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Scenario files: a game from any position."
)


@app.command()
def check(file: Annotated[Path, typer.Argument(help="A scenario file.")]) -> None:
    """Check a scenario file: every field, and every rule its position breaks; print where it starts."""
    try:
        chosen = scenario.load(file)
        state = scenario.start_state(chosen, chosen.seed if chosen.seed is not None else 1)
    except FamilyError as exc:
        raise fail(str(exc)) from exc
    fam, info = find_variant(chosen.variant)
    pending = fam.pending(state)
    typer.echo(
        f"{file}: {info.title}, at {pending.phase}"
        + (f" ({', '.join(pending.seats)} to decide)" if pending.seats else "")
    )


@app.command("export")
def export(
    record: Annotated[Path, typer.Argument(help="A game record (interboard-record/1 or a family's own).")],
    at: Annotated[
        str,
        typer.Option(
            "--at", help="The decision point: its name (R2.GERMANY.purchase.9) or its number from 0."
        ),
    ],
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the scenario here (else standard output).")
    ] = None,
    title: Annotated[str, typer.Option(help="The scenario's title.")] = "",
) -> None:
    """Write a decision point of a game record as a scenario file: a game started from it is at that
    decision point, with the same position."""
    match = load_any_record(record, int(at) if at.isdigit() else at)
    written = scenario.written(
        match.info.id, match.options, match.seed, match.family.position(match.state), title
    )
    text = json.dumps(written, indent=1, ensure_ascii=False) + "\n"
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        typer.echo(f"wrote {out}: {match.info.id} at {match.family.pending(match.state).phase}")
