"""The ``interboard`` command: one entry point to every layer."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ..board import MapDataError
from ..diplomacy import OrderError, Rulebook, parse_power_order
from ..diplomacy.engine import step
from ..diplomacy.game import Game
from ..diplomacy.text import position_text, results_text
from ..diplomacy.validate import check_order
from ..diplomacy.variants import VARIANTS, get_variant
from ..formats.record import (
    RecordError,
    game_to_json,
    load_game,
    position_from_json,
    position_to_json,
    save_game,
)
from .render import render as render_svg
from .selfplay import selfplay as selfplay_command

app = typer.Typer(
    add_completion=False, no_args_is_help=True, help="interboard: a game master for linked boards."
)


class EditionOpt(StrEnum):
    e2023 = "2023"
    e2000 = "2000"


class ReplayFormat(StrEnum):
    mila = "mila"
    interboard = "interboard"


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    return typer.Exit(code)


@app.command()
def variants() -> None:
    """List the variants interboard can play."""
    for v in VARIANTS.values():
        typer.echo(f"{v.id:12} {v.title}: {v.description}")


@app.command()
def adjudicate(
    orders: Annotated[Path, typer.Argument(help="File of 'Power: order' lines ('-' reads standard input).")],
    position: Annotated[
        str, typer.Option("--position", "-p", help="Position JSON file, or a variant name for its start.")
    ] = "standard",
    variant: Annotated[str, typer.Option(help="Variant the position belongs to.")] = "standard",
    edition: Annotated[EditionOpt, typer.Option(help="Rulebook edition.")] = EditionOpt.e2023,
    as_json: Annotated[bool, typer.Option("--json", help="Print results and next position as JSON.")] = False,
) -> None:
    """Adjudicate one phase: a position and orders in, results and the next position out."""
    try:
        v = get_variant(get_variant(position).id if position in VARIANTS else variant)
        if position in VARIANTS:
            pos = v.start()
        else:
            pos = position_from_json(v.board, json.loads(Path(position).read_text(encoding="utf-8")))
        board = v.board_for(pos)
        text = sys.stdin.read() if str(orders) == "-" else orders.read_text(encoding="utf-8")
    except (OSError, KeyError, ValueError) as exc:
        raise _fail(str(exc.args[0]) if isinstance(exc, KeyError) else str(exc)) from exc
    parsed = []
    errors = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            po = parse_power_order(board, line, pos.phase.kind)
        except OrderError as exc:
            errors.append(f"line {number}: {exc}")
            continue
        if po.power is None:
            errors.append(
                f"line {number}: {line.strip()!r}: say which power gives it ('France: A Par - Bur')"
            )
            continue
        parsed.append((po.power, po.order))
    if errors:
        raise _fail("\n".join(errors))
    outcome = step(board, pos, parsed, v.rulebook.with_edition(edition.value))
    if as_json:
        from ..formats.record import result_to_json

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


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A saved game.")],
    fmt: Annotated[
        ReplayFormat, typer.Option("--format", help="Format of the saved game.")
    ] = ReplayFormat.interboard,
    edition: Annotated[EditionOpt | None, typer.Option(help="Rulebook edition (MILA games: 2000).")] = None,
) -> None:
    """Re-adjudicate every phase of a saved game and report where the next position differs."""
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise _fail(f"{file}: {exc}") from exc
    if fmt is ReplayFormat.mila:
        from ..formats.mila import MilaFormatError, read_mila_game, replay_mila

        try:
            game = read_mila_game(data)
            diffs = replay_mila(game, Rulebook.of((edition or EditionOpt.e2000).value))
        except MilaFormatError as exc:
            raise _fail(str(exc)) from exc
        for diff in diffs:
            typer.echo(str(diff))
        typer.echo(f"{len(game.phases)} phases replayed, {len(diffs)} with differences")
        if diffs:
            raise typer.Exit(1)
        return
    try:
        recorded = load_game(file)
    except RecordError as exc:
        raise _fail(str(exc)) from exc
    rulebook = recorded.rulebook.with_edition(edition.value) if edition else recorded.rulebook
    board = recorded.variant.board
    bad = 0
    nexts = [rec.position for rec in recorded.history[1:]] + [recorded.position]
    for rec, expected in zip(recorded.history, nexts, strict=True):
        out = step(recorded.variant.board_for(rec.position), rec.position, rec.orders, rulebook)
        if position_to_json(board, out.position) != position_to_json(board, expected):
            bad += 1
            typer.echo(f"{rec.position.phase.name}: next position differs from the record")
    typer.echo(f"{len(recorded.history)} phases replayed, {bad} with differences")
    if bad:
        raise typer.Exit(1)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def play(
    ctx: typer.Context,
    variant: Annotated[
        str, typer.Argument(help="Variant to play, or 'globalwar' (see --help there).")
    ] = "standard",
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
    """Play a local game at one keyboard: each power in turn types its orders.

    Enter one order per line, an empty line to end a power's orders. ':show' prints the position,
    ':save FILE' saves, ':quit' stops.

    Global War: 'interboard play globalwar' with its own options: --teams, --players N (3 to 6),
    --map global_war|classic_world, --fortify limited|unlimited|connected, --non-sequential,
    --auto (placement), --bots all|others|none|P2,P5, --bot greedy|random, --seed S, --load, --save,
    --quiet, --max-steps N.
    """
    if variant == "globalwar":
        from .globalwar import run as play_globalwar

        files = [*(["--load", str(load)] if load else []), *(["--save", str(save)] if save else [])]
        play_globalwar([*ctx.args, *files])
        return
    if ctx.args:
        raise _fail(f"unknown option(s) for {variant}: {' '.join(ctx.args)}")
    try:
        if load:
            game = load_game(load)
        else:
            v = get_variant(variant)
            rulebook = v.rulebook.with_edition(edition.value)
            if link_limit is not None or cut_printed or cross_board_only:
                if rulebook.links is None:
                    raise _fail(f"{v.id} has no link orders: the link options do not apply")
                links = replace(
                    rulebook.links,
                    limit=link_limit if link_limit is not None else rulebook.links.limit,
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


@app.command()
def bench(
    games: Annotated[int, typer.Option(help="Random games to play.")] = 20,
    phases: Annotated[int, typer.Option(help="Phases per game at most.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 1,
) -> None:
    """Time interboard on seeded random games (legal-order generation plus adjudication).

    For the comparison with MILA on the same recorded phases, run bench/bench_adjudicate.py.
    """
    import random

    from ..diplomacy.legal import random_orders

    total = 0
    spent_step = 0.0
    started = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed + g)
        game = Game.new("standard")
        for _ in range(phases):
            if game.over:
                break
            orders = random_orders(game.board, game.position, rng)
            t0 = time.perf_counter()
            game.process(orders)
            spent_step += time.perf_counter() - t0
            total += 1
    elapsed = time.perf_counter() - started
    typer.echo(
        f"{total} phases in {elapsed:.2f} s: {total / elapsed:,.0f} phases/s with order generation, "
        f"{total / spent_step:,.0f} phases/s adjudication alone"
    )


@app.command()
def serve(
    db: Annotated[
        str | None,
        typer.Option(help="Database URL (default: SQLite file interboard.sqlite, or $INTERBOARD_DB)."),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    tick: Annotated[float, typer.Option(help="Seconds between deadline checks.")] = 1.0,
) -> None:
    """Run the game master: the HTTP API (and its web pages) over a database."""
    try:
        import uvicorn

        from ..service.api import create_app
        from ..service.store import default_url
    except ImportError as exc:
        raise _fail(
            f"the server needs its extra: pip install 'interboard[server]' ({exc.name} is missing)"
        ) from exc
    url = db or default_url()
    typer.echo(f"interboard serving on http://{host}:{port} with {url.split('://', 1)[0]} database")
    uvicorn.run(create_app(url, tick=tick), host=host, port=port, log_level="info")


@app.command("export")
def export_record(file: Annotated[Path, typer.Argument(help="interboard game record")]) -> None:
    """Print a saved game record (checks that it loads)."""
    try:
        typer.echo(json.dumps(game_to_json(load_game(file)), indent=1))
    except RecordError as exc:
        raise _fail(str(exc)) from exc


app.command("render")(render_svg)
app.command("selfplay")(selfplay_command)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
