"""The Diplomacy family's commands: ``adjudicate``, its own local ``play``, and its record formats
for the generic ``replay``, ``render`` and ``export`` (``interboard-game/1`` and MILA's saved games),
and MILA's map files for the generic ``map import``.

Imported by the CLI only (it needs Typer, which the engine does not)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ...board import MapDataError
from .. import find_variant
from ..protocol import FamilyError
from ..record import FORMAT as GENERIC_FORMAT
from . import OrderError, Rulebook, parse_power_order
from .engine import step
from .game import Game
from .record import (
    FORMAT,
    RecordError,
    game_from_json,
    load_game,
    position_from_json,
    position_to_json,
    result_to_json,
    save_game,
)
from .text import position_text, results_text
from .validate import check_order
from .variants import VARIANTS, get_variant


class EditionOpt(StrEnum):
    e2023 = "2023"
    e2000 = "2000"


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    return typer.Exit(code)


def adjudicate(
    orders: Annotated[Path, typer.Argument(help="File of 'Power: order' lines ('-' reads standard input).")],
    position: Annotated[
        str | None,
        typer.Option("--position", "-p", help="Position JSON file, or a variant name for its start."),
    ] = None,
    variant: Annotated[str, typer.Option(help="Variant the position belongs to.")] = "standard",
    edition: Annotated[EditionOpt, typer.Option(help="Rulebook edition.")] = EditionOpt.e2023,
    as_json: Annotated[bool, typer.Option("--json", help="Print results and next position as JSON.")] = False,
) -> None:
    """Adjudicate one Diplomacy phase: a position and orders in, results and the next position out."""
    named = position if position is not None and position.lower().replace("-", "_") in VARIANTS else variant
    try:
        family, info = find_variant(named)
    except FamilyError as exc:
        raise _fail(str(exc)) from exc
    if family.name != "diplomacy":
        raise _fail(f"{info.id} is a {family.name} variant: adjudicate reads Diplomacy orders")
    v = get_variant(info.id)
    if position is None or position.lower().replace("-", "_") in VARIANTS:
        pos = v.start()
    else:
        try:
            data = json.loads(Path(position).read_text(encoding="utf-8"))
            pos = position_from_json(v.board, data)
        except OSError as exc:
            raise _fail(f"{position}: cannot be read ({exc.strerror})") from exc
        except json.JSONDecodeError as exc:
            raise _fail(f"{position}: not JSON (line {exc.lineno}: {exc.msg})") from exc
        except (KeyError, TypeError, ValueError) as exc:
            raise _fail(f"{position}: not a {v.id} position: {exc}") from exc
    board = v.board_for(pos)
    try:
        text = sys.stdin.read() if str(orders) == "-" else orders.read_text(encoding="utf-8")
    except OSError as exc:
        raise _fail(f"{orders}: cannot be read ({exc.strerror})") from exc
    parsed = []
    errors = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            po = parse_power_order(board, line, pos.phase.kind)
        except OrderError as exc:
            errors.append(f"{orders}: line {number}: {exc}")
            continue
        if po.power is None:
            errors.append(
                f"{orders}: line {number}: {line.strip()!r}: say which power gives it ('France: A Par - Bur')"
            )
            continue
        parsed.append((po.power, po.order))
    if errors:
        raise _fail("\n".join(errors))
    outcome = step(board, pos, parsed, v.rulebook.with_edition(edition.value))
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "phase": outcome.phase.name,
                    "results": [result_to_json(board, r) for r in outcome.results],
                    "position": position_to_json(board, outcome.position),
                    "winners": list(outcome.winners),
                },
                indent=1,
            )
        )
        return
    typer.echo(f"Results of {outcome.phase.long_name}:")
    typer.echo(results_text(board, outcome.results))
    typer.echo("")
    typer.echo(position_text(board, outcome.position))


def register(app: typer.Typer) -> None:
    app.command()(adjudicate)


# ---------------------------------------------------------------------- local play
play_app = typer.Typer(add_completion=False)


@play_app.command()
def diplomacy(
    variant: Annotated[str, typer.Argument(help="The variant.")],
    edition: Annotated[EditionOpt, typer.Option(help="Rulebook edition.")] = EditionOpt.e2023,
    load: Annotated[Path | None, typer.Option(help="Continue a saved game.")] = None,
    save: Annotated[Path | None, typer.Option(help="Save the game here after every phase.")] = None,
    link_limit: Annotated[
        int | None, typer.Option(help="Twin Earths III optional rule 1: at most this many links.")
    ] = None,
    cut_printed: Annotated[
        bool, typer.Option(help="Twin Earths III optional rule 2: DESTROY may cut a printed adjacency.")
    ] = False,
    cross_board_only: Annotated[
        bool, typer.Option(help="Twin Earths III optional rule 3: links join different boards only.")
    ] = False,
) -> None:
    """Play Diplomacy at one keyboard: each power in turn types its orders.

    Enter one order per line, an empty line to end a power's orders. ':show' prints the position,
    ':save FILE' saves, ':quit' stops.
    """
    try:
        if load:
            game = load_game(load)
        else:
            v = get_variant(variant)
            rulebook = v.rulebook.with_edition(edition.value)
            if link_limit is not None or cut_printed or cross_board_only:
                if rulebook.links is None:
                    raise _fail(f"{v.id} has no link orders: the link options do not apply")
                if link_limit is not None and not 0 <= link_limit <= 1000:
                    raise _fail("--link-limit: from 0 (no limit) to 1000")
                links = replace(
                    rulebook.links,
                    limit=link_limit or rulebook.links.limit,
                    cut_printed=cut_printed or rulebook.links.cut_printed,
                    cross_board_only=cross_board_only or rulebook.links.cross_board_only,
                )
                rulebook = replace(rulebook, links=links)
            game = Game.new(v, rulebook)
    except (RecordError, KeyError, MapDataError) as exc:
        raise _fail(str(exc.args[0]) if isinstance(exc, KeyError) else str(exc)) from exc
    while not game.over:
        board = game.board
        typer.echo("")
        typer.echo(position_text(board, game.position))
        orders = []
        for power in game.acting:
            typer.echo(f"{power.title()} orders (empty line to finish):")
            while True:
                try:
                    line = input("> ").strip()
                except EOFError:
                    typer.echo("")
                    raise typer.Exit(0) from None
                if not line:
                    break
                if line == ":quit":
                    raise typer.Exit(0)
                if line == ":show":
                    typer.echo(position_text(board, game.position))
                    continue
                if line.startswith(":save"):
                    target = line[5:].strip() or (str(save) if save else "")
                    if not target:
                        typer.echo("say where: ':save game.json'")
                        continue
                    save_game(game, target)
                    typer.echo(f"saved to {target}")
                    continue
                try:
                    po = parse_power_order(board, line, game.position.phase.kind)
                    check_order(board, game.position, power, po.order, game.rulebook)
                except OrderError as exc:
                    typer.secho(str(exc), fg=typer.colors.RED)
                    continue
                orders.append((power, po.order))
        outcome = game.process(orders)
        typer.echo(f"\nResults of {outcome.phase.long_name}:")
        typer.echo(results_text(board, outcome.results))
        if save:
            save_game(game, save)
    typer.echo(f"\nGame over: {', '.join(w.title() for w in game.winners)} won.")


def play(variant: str, args: list[str]) -> None:
    """Entry from ``interboard play VARIANT ARGS``."""
    command = typer.main.get_command(play_app)
    command.main(args=[variant, *args], prog_name=f"interboard play {variant}", standalone_mode=True)


# ---------------------------------------------------------------------- record formats
def _edition(options: list[str], default: str) -> Rulebook:
    edition = default
    for pair in options:
        name, _, value = pair.partition("=")
        if name.strip() != "edition":
            raise _fail(f"--option {pair!r}: a Diplomacy replay takes only edition=2023|2000")
        edition = value.strip()
    try:
        return Rulebook.of(edition)
    except ValueError as exc:
        raise _fail(str(exc)) from exc


def replay_game(data: Any, options: list[str], source: str) -> int:
    """Re-adjudicate every phase of an ``interboard-game/1`` record and report where the next
    position differs from the record's."""
    try:
        recorded = game_from_json(data)
    except RecordError as exc:
        raise _fail(f"{source}: {exc}") from exc
    rulebook = recorded.rulebook
    if options:
        rulebook = recorded.rulebook.with_edition(_edition(options, recorded.rulebook.edition.value).edition)
    board = recorded.variant.board
    bad = 0
    nexts = [rec.position for rec in recorded.history[1:]] + [recorded.position]
    for rec, expected in zip(recorded.history, nexts, strict=True):
        out = step(recorded.variant.board_for(rec.position), rec.position, rec.orders, rulebook)
        if position_to_json(board, out.position) != position_to_json(board, expected):
            bad += 1
            typer.echo(f"{rec.position.phase.name}: next position differs from the record")
    typer.echo(f"{len(recorded.history)} phases replayed, {bad} with differences")
    return 1 if bad else 0


def replay_mila_game(data: Any, options: list[str], source: str) -> int:
    """Adjudicate every phase of a MILA saved game from MILA's own state of that phase."""
    from .mila import MilaFormatError, read_mila_game, replay_mila

    try:
        game = read_mila_game(data)
        diffs = replay_mila(game, _edition(options, "2000"))
    except MilaFormatError as exc:
        raise _fail(f"{source}: {exc}") from exc
    for diff in diffs:
        typer.echo(str(diff))
    typer.echo(f"{len(game.phases)} phases replayed, {len(diffs)} with differences")
    return 1 if diffs else 0


def to_generic(data: Any) -> dict[str, Any]:
    """An ``interboard-game/1`` record as an ``interboard-record/1``: each phase's orders by power."""
    game = game_from_json(data)
    options: dict[str, Any] = {"edition": game.rulebook.edition.value}
    links = game.rulebook.links
    default_links = game.variant.rulebook.links
    if links is not None and default_links is not None and links != default_links:
        options.update(
            link_limit=links.limit or 0,
            cut_printed=links.cut_printed,
            cross_board_only=links.cross_board_only,
        )
    steps = [
        {"phase": phase["position"]["phase"], "submissions": phase["orders"]} for phase in data["phases"]
    ]
    return {
        "format": GENERIC_FORMAT,
        "family": "diplomacy",
        "variant": game.variant.id,
        "options": options,
        "seed": 0,
        "steps": steps,
    }


def import_mila_map(path: Path, svg: Path | None) -> tuple[dict[str, Any], tuple[str, ...]]:
    """A map in MILA's map format as ``interboard-map/1``, and notes on what was not converted
    (raises :class:`~.mila_map.MilaMapError`, a ``ValueError``, naming the file and line at fault)."""
    from .mila_map import convert_mila_map

    converted = convert_mila_map(path, svg)
    return converted.data, converted.notes


MAP_IMPORTERS = {"mila": import_mila_map}
"""Map formats the generic ``map import`` hands to this family."""
REPLAYERS = {FORMAT: replay_game, "mila": replay_mila_game}
"""Record formats the generic ``replay`` hands to this family."""
CONVERTERS = {FORMAT: to_generic}
"""Record formats the generic ``render`` and ``export`` read, converted to ``interboard-record/1``."""
