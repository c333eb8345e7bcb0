"""``interboard render``: draw a variant's start, or a phase of a game record, as an SVG file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..games import find_variant
from ..games.protocol import FamilyError
from .common import fail, is_variant_file, load_any_record, parse_options, variant_or_file


def render(
    source: Annotated[
        str, typer.Argument(help="A variant id (draws its start) or a game record (any known format).")
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
    option: Annotated[
        list[str] | None, typer.Option("--option", help="NAME=VALUE: a rule option of the variant's start.")
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of a variant's start (Global War's deal).")] = 1,
) -> None:
    """Draw a map as SVG: a variant's start, or one phase of a saved game with its orders and results."""
    from ..games.record import Match

    if is_variant_file(source):  # drawn as its variant's start; any other file is a game record
        try:
            source = variant_or_file(source)
        except FamilyError as exc:
            raise fail(str(exc)) from exc
    path = Path(source)
    try:
        if not path.exists():
            fam, info = find_variant(source)  # not a file: it must be a variant
            if phase is not None:
                raise fail("--phase applies to a game record, not to a variant's start")
            match = Match.new(info.id, parse_options(info, option or []), seed)
            svg = fam.draw(info.id, fam.view(match.state), {}, [], title or info.title)
        else:
            if option:
                raise fail("--option applies to a variant's start; a record keeps its own options")
            svg = _render_record(path, phase, title)
    except FamilyError as exc:
        message = str(exc)
        if not path.exists() and message.startswith("unknown variant"):
            message = f"{source}: no such file, and {message}"
        raise fail(message) from exc
    try:
        output.write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise fail(f"{output}: cannot write ({exc.strerror})") from exc
    typer.echo(f"wrote {output}")


def _render_record(path: Path, phase: str | None, title: str | None) -> str:
    from ..games.record import Match

    played = load_any_record(path)
    fam, variant = played.family, played.info.id
    if phase is None:
        return fam.draw(variant, fam.view(played.state), {}, [], title or fam.pending(played.state).phase)
    steps = played.steps
    wanted = phase.strip()
    if wanted.lstrip("-").isdigit():
        number = int(wanted)
        if not 1 <= number <= len(steps):
            span = f"1-{len(steps)}" if steps else "none"
            raise fail(f"phase {number} is out of range: the record has {len(steps)} played phases ({span})")
    else:
        named = [k for k, s in enumerate(steps, start=1) if s.phase.upper() == wanted.upper()]
        if not named:
            names = ", ".join(s.phase for s in steps[:3])
            more = ", ..." if len(steps) > 3 else ""
            raise fail(f"phase {phase!r} is not a played phase of the record ({names}{more})")
        number = named[0]
    again = Match.new(variant, played.options, played.seed)
    for step in steps[: number - 1]:
        again.play(step.submissions)
    chosen = steps[number - 1]
    done = again.play(chosen.submissions)
    return fam.draw(variant, done.position, chosen.submissions, done.results, title or chosen.phase)
