"""``interboard render``: draw a variant's start or a phase of a game record as an SVG file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..board import MapDataError
from ..diplomacy.variants import VARIANTS, get_variant
from ..formats.record import RecordError, game_from_json
from ..render import render_position


def _fail(message: str) -> typer.Exit:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    return typer.Exit(2)


def render(
    source: Annotated[
        str, typer.Argument(help="A variant id (draws its start) or an interboard game record.")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="SVG file to write.")],
    phase: Annotated[
        str | None,
        typer.Option(
            help="Phase of a record to draw with its orders and results: its number (1 = the first "
            "played phase) or its name (S1901M). Default: the record's current position."
        ),
    ] = None,
    title: Annotated[str | None, typer.Option(help="Title written above the map.")] = None,
) -> None:
    """Draw a map as SVG: a variant's start, or one phase of a saved game with its orders and results."""
    try:
        if source.lower().replace("-", "_") in VARIANTS:
            if phase is not None:
                raise _fail("--phase applies to a game record, not to a variant's start")
            variant = get_variant(source)
            svg = render_position(variant.board, variant.start(), title=title)
        else:
            svg = _render_record(Path(source), phase, title)
    except (MapDataError, ValueError) as exc:
        raise _fail(str(exc)) from exc
    try:
        output.write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise _fail(f"{output}: cannot write ({exc.strerror})") from exc
    typer.echo(f"wrote {output}")


def _render_record(path: Path, phase: str | None, title: str | None) -> str:
    if not path.exists():
        known = ", ".join(sorted(VARIANTS))
        raise _fail(f"{path}: no such file, and not a variant (known variants: {known})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        game = game_from_json(data)
    except OSError as exc:
        raise _fail(f"{path}: cannot be read ({exc.strerror})") from exc
    except UnicodeDecodeError as exc:
        raise _fail(f"{path}: not a text file ({exc.reason})") from exc
    except json.JSONDecodeError as exc:
        raise _fail(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from exc
    except RecordError as exc:
        raise _fail(f"{path}: {exc}") from exc
    board = game.variant.board
    if phase is None:
        return render_position(board, game.position, title=title)
    history = game.history
    if phase.strip().lstrip("-").isdigit():
        number = int(phase)
        if not 1 <= number <= len(history):
            played = f"1-{len(history)}" if history else "none"
            raise _fail(
                f"phase {number} is out of range: the record has {len(history)} played phases ({played})"
            )
        record = history[number - 1]
    else:
        named = [rec for rec in history if rec.position.phase.name == phase.strip().upper()]
        if not named:
            names = ", ".join(rec.position.phase.name for rec in history[:3])
            more = ", ..." if len(history) > 3 else ""
            raise _fail(f"phase {phase!r} is not a played phase of the record ({names}{more})")
        record = named[0]
    return render_position(board, record.position, results=record.results, title=title)
