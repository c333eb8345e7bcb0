"""``interboard map``: map files. ``map import`` converts a map written for another program into the
project's format (``interboard-map/1``, see ``interboard.board.loader``) through the importers the
families' CLI modules list (``MAP_IMPORTERS``: format -> function of the map file and an optional
SVG, giving the map's data and notes on what was not converted, raising ``ValueError`` with a
message that names the file and line at fault)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ..board import MapDataError, board_from_data
from .common import fail, hooks

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="Map files: import a map from another program."
)


@app.command("import")
def import_map(
    file: Annotated[Path, typer.Argument(help="The map file to convert.")],
    fmt: Annotated[
        str, typer.Option("--format", help="Its format: mila (the .map files of MILA's diplomacy).")
    ],
    svg: Annotated[
        Path | None,
        typer.Option(
            help="An SVG giving the spaces' drawing positions (MILA: jDip's province data). Default: "
            "the map's own SVG, found beside it (in svg/) when it places every space; else the spaces "
            "are laid out from the adjacency."
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="The file to write ('-': standard output). Default: the map's name with .json, in the "
            "current folder, which must not exist yet.",
        ),
    ] = None,
) -> None:
    """Convert a map file of another program to interboard's map format.

    Exit status 1: the map cannot be converted (the message names the file and line).
    Exit status 2: the command is wrong (an unknown format, a missing file, an output not written)."""
    importers = hooks("MAP_IMPORTERS")
    if fmt not in importers:
        raise fail(f"unknown map format {fmt!r} (formats: {', '.join(sorted(importers))})")
    for given in (file, svg):
        if given is not None and not given.is_file():
            raise fail(f"{given}: no such file")
    try:
        data, notes = importers[fmt](file, svg)
    except ValueError as exc:
        raise fail(str(exc), 1) from exc
    target = Path(output) if output not in (None, "-") else Path(f"{data['id']}.json")
    if output is None and target.exists():
        raise fail(f"{target} exists: name the file to write with -o (which replaces it)")
    try:
        board = board_from_data(data, source=target.name)
    except MapDataError as exc:  # the importer's fault, not the map's: say so
        raise fail(f"{file}: the converted map does not load: {exc}", 1) from exc
    text = _map_text(data)
    if output == "-":
        typer.echo(text, nl=False)
    else:
        try:
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise fail(f"{target}: cannot write ({exc.strerror})") from exc
        typer.echo(f"wrote {target}: {board.title}, {len(board.spaces)} spaces, {len(board.powers)} powers")
    for note in notes:
        typer.echo(f"note: {note}", err=True)


def _map_text(data: dict[str, Any]) -> str:
    """The map as JSON, a space or a power a line (as the project's own map files are written)."""
    fields = []
    for key, value in data.items():
        if key in ("spaces", "powers") and isinstance(value, list):
            items = ",\n".join(f"  {json.dumps(item, ensure_ascii=False)}" for item in value)
            fields.append(f" {json.dumps(key)}: [\n{items}\n ]")
        else:
            fields.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"
