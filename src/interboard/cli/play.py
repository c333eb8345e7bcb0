"""Local play of any variant at one keyboard, through the family protocol alone.

The command ``interboard play VARIANT`` comes here for a family without a play of its own. Each
seat that must decide types its actions, one a line, an empty line to send them; bots take the
seats given to them. ``:show`` prints the position, ``:options`` the legal next actions, ``:save
FILE`` saves an ``interboard-record/1``, ``:quit`` stops.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..bots.seats import bot_names, seat_actions
from ..games import find_variant, scenario
from ..games.protocol import FamilyError
from ..games.record import Match, RecordError, load, save
from .common import fail, parse_options

app = typer.Typer(add_completion=False)


def _bot_seats(text: str, seats: list[str]) -> set[str]:
    if text in ("", "none"):
        return set()
    if text == "all":
        return set(seats)
    if text == "others":
        return set(seats[1:])
    chosen = {word for word in text.replace(",", " ").split()}
    unknown = chosen - set(seats)
    if unknown:
        raise fail(
            f"--bots: unknown seats {sorted(unknown)} (seats: {', '.join(seats)}; or all, others, none)"
        )
    return chosen


@app.command()
def generic(
    variant: Annotated[str, typer.Argument(help="The variant.")],
    option: Annotated[list[str] | None, typer.Option("--option", help="NAME=VALUE: a rule option.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of every chance in the game.")] = 1,
    bots: Annotated[str, typer.Option(help="Seats played by bots: all, others, none, or a list.")] = "none",
    bot: Annotated[str, typer.Option(help="The bot in those seats.")] = "random",
    load_from: Annotated[Path | None, typer.Option("--load", help="Continue a saved game.")] = None,
    scenario_file: Annotated[
        Path | None, typer.Option("--scenario", help="Start from a scenario file's position.")
    ] = None,
    save_to: Annotated[
        Path | None, typer.Option("--save", help="Save the game here after every step.")
    ] = None,
    max_steps: Annotated[int, typer.Option(help="Stop after this many steps (0: no limit).")] = 0,
    quiet: Annotated[bool, typer.Option(help="Do not print the bots' actions.")] = False,
) -> None:
    """Play a game at one keyboard; every seat not given to a bot is typed in turn."""
    try:
        _, info = find_variant(variant)
        if load_from:
            match = load(load_from)
        elif scenario_file:
            match = _from_scenario(info.id, scenario_file, option or [], seed)
        else:
            match = Match.new(info.id, parse_options(info, option or []), seed)
    except (FamilyError, RecordError) as exc:
        raise fail(str(exc)) from exc
    fam = match.family
    if bot not in bot_names(fam.name):
        raise fail(f"--bot: no bot {bot!r} in the {fam.name} family (bots: {', '.join(bot_names(fam.name))})")
    seats = fam.seats(match.state)
    robots = _bot_seats(bots, seats)
    played = 0
    while not match.over and (not max_steps or played < max_steps):
        pending = fam.pending(match.state)
        submissions: dict[str, list[str]] = {}
        for seat in pending.seats:
            if seat in robots:
                submissions[seat] = seat_actions(fam.name, match.state, seat, bot, f"{seed}/{seat}")
                continue
            typer.echo("")
            typer.echo(fam.text(match.state))
            typer.echo(
                f"{seat}: {pending.prompts.get(seat, pending.phase)} (one action a line, empty line to send)"
            )
            submissions[seat] = _ask(match, seat, save_to)
        done = match.play(submissions)
        played += 1
        for result in done.results:
            who, order, message = result.get("power", ""), result.get("order", ""), result.get("message", "")
            if quiet and (who in robots or not who):
                continue
            shown = ": ".join(str(x) for x in (who, order, message) if x)
            if shown:
                typer.echo(shown)
        if save_to:
            save(match, save_to)
    winners = fam.winners(match.state)
    typer.echo(f"Game over: {', '.join(winners)} won." if winners else f"Stopped after {played} steps.")


def _from_scenario(variant: str, path: Path, options: list[str], seed: int) -> Match:
    """A game from a scenario file: its variant must be the one asked for; its seed, if it names one,
    stands, as do its options (``--option`` given as well is refused rather than silently merged)."""
    chosen = scenario.load(path)
    if chosen.variant != variant:
        raise FamilyError(f"{path}: the scenario is of {chosen.variant}, not {variant}")
    if options:
        raise FamilyError(f"{path}: a scenario keeps its own options; give them in its 'options'")
    played = chosen.seed if chosen.seed is not None else seed
    state = scenario.start_state(chosen, played)
    fam, info = find_variant(variant)
    return Match(fam, info, chosen.options, played, state, position=chosen.position)


def _ask(match: Match, seat: str, save_to: Path | None) -> list[str]:
    fam = match.family
    chosen: list[str] = []
    while True:
        try:
            line = input(f"{seat}> ").strip()
        except EOFError:
            typer.echo("")
            raise typer.Exit(0) from None
        if not line:
            return chosen
        if line == ":quit":
            raise typer.Exit(0)
        if line == ":show":
            typer.echo(fam.text(match.state))
        elif line == ":options":
            actions = fam.legal(match.state, seat, chosen).actions
            typer.echo(
                "\n".join(actions[:60]) + (f"\n... and {len(actions) - 60} more" if len(actions) > 60 else "")
            )
        elif line.startswith(":save"):
            target = line[5:].strip() or (str(save_to) if save_to else "")
            if target:
                save(match, target)
                typer.echo(f"saved to {target}")
            else:
                typer.echo("say where: ':save game.json'")
        else:
            problem = fam.check(match.state, seat, [*chosen, line])[-1]
            if problem is None:
                chosen.append(line)
            else:
                typer.secho(problem, fg=typer.colors.RED)


def run(variant: str, args: list[str]) -> None:
    """Entry from ``interboard play VARIANT ARGS``."""
    typer.main.get_command(app).main(
        args=[variant, *args], prog_name=f"interboard play {variant}", standalone_mode=True
    )
