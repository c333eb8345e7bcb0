"""The Global War family's commands: its own local play (``interboard play global_war [OPTIONS]``,
bots filling any seats) and the replay of its own records (``interboard-globalwar/1``).

Imported by the CLI only (it needs Typer, which the engine does not)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from . import (
    MAPS,
    Fortification,
    GlobalWarError,
    Match,
    Rules,
    action_text,
    legal_actions,
    parse_action,
    player_id,
)
from .bots import GlobalWarBot, GreedyBot, RandomBot
from .legal import bounds_only
from .record import FORMAT, RecordError, load_match, replay, save_match
from .state import player_index
from .text import hand_text, phase_text, position_text, result_text

app = typer.Typer(add_completion=False, help="Play Global War locally.")


class BotKind(StrEnum):
    greedy = "greedy"
    random = "random"


HELP = (
    "Type an action ('deploy 3 Alaska', 'attack Alaska Kamchatka 3', 'move 2', 'end attack', "
    "'fortify Alaska Alberta 4', 'exchange X Y', 'give X', 'give continent Africa', 'trade cards 1 2 3', "
    "'end turn', 'surrender to P2'), or ':show', ':cards', ':options', ':save FILE', ':quit'."
)


def _fail(message: str) -> typer.Exit:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    return typer.Exit(2)


def _bot_seats(text: str, players: int) -> set[int]:
    if text in ("", "none"):
        return set()
    if text == "all":
        return set(range(players))
    if text == "others":
        return set(range(1, players))
    seats = set()
    for word in text.replace(",", " ").split():
        rules = Rules(players=players)
        p = player_index(rules, word)
        if p is None:
            raise _fail(f"--bots: unknown seat {word!r} (seats P1..P{players}, 'all', 'others', 'none')")
        seats.add(p)
    return seats


@app.command()
def globalwar(
    board: Annotated[str, typer.Argument(help=f"The variant (its map): {', '.join(MAPS)}.")],
    teams: Annotated[
        bool, typer.Option("--teams", help="Team play: 3 teams of 2 (P1+P4, P2+P5, P3+P6).")
    ] = False,
    players: Annotated[int, typer.Option(help="Players, 3 to 6 (a team game has 6).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the deal and the dice.")] = 1,
    fortify: Annotated[Fortification, typer.Option(help="Fortification rule.")] = Fortification.LIMITED,
    non_sequential: Annotated[
        bool, typer.Option(help="Mix deploying and attacking (Global War 2.40).")
    ] = False,
    auto: Annotated[bool, typer.Option(help="Place the starting armies automatically.")] = False,
    bots: Annotated[
        str, typer.Option(help="Seats played by bots: 'all', 'others', 'none' or 'P2,P5'.")
    ] = "none",
    bot: Annotated[BotKind, typer.Option(help="Kind of bot.")] = BotKind.greedy,
    load: Annotated[Path | None, typer.Option(help="Continue a saved game.")] = None,
    save: Annotated[
        Path | None, typer.Option(help="Save the game here after every action (bots: every turn).")
    ] = None,
    quiet: Annotated[bool, typer.Option(help="Do not print the bots' actions.")] = False,
    max_steps: Annotated[int, typer.Option(help="Stop after this many actions (0: no limit).")] = 0,
) -> None:
    """Play Global War at one keyboard; every seat not given to a bot is typed in turn."""
    try:
        if load:
            match = load_match(load)
        else:
            count = (players or 6) if teams else (players or 4)
            rules = Rules(
                map=board,
                players=count,
                teams=teams,
                fortification=fortify,
                non_sequential=non_sequential,
                auto_placement=auto,
            )
            match = Match.new(rules, seed)
    except (GlobalWarError, RecordError) as exc:
        raise _fail(str(exc)) from exc
    rules = match.rules
    bot_seats = _bot_seats(bots, rules.players)
    players_bots: dict[int, GlobalWarBot] = {
        p: (GreedyBot(seed + p) if bot is BotKind.greedy else RandomBot(seed + p)) for p in bot_seats
    }
    if len(bot_seats) < rules.players:
        typer.echo(HELP)
    steps = 0
    shown_for: tuple[int, int] | None = None
    while not match.over and (not max_steps or steps < max_steps):
        state = match.state
        me = state.current
        if me in players_bots:
            action = players_bots[me].choose(state)
            text = action_text(state, action)
        else:
            if shown_for != (me, state.turn):
                typer.echo("")
                typer.echo(position_text(state, viewer=me))
                shown_for = (me, state.turn)
            else:
                typer.echo(phase_text(state))
            try:
                line = input(f"{player_id(me)}> ").strip()
            except EOFError:
                typer.echo("")
                raise typer.Exit(0) from None
            if not line:
                continue
            if line == ":quit":
                raise typer.Exit(0)
            if line in (":show", ":cards", ":options", ":help") or line.startswith(":save"):
                _command(match, line, save)
                continue
            try:
                action = parse_action(state, line)
            except GlobalWarError as exc:
                typer.secho(str(exc), fg=typer.colors.RED)
                continue
            text = line
        try:
            result = match.play(action)
        except GlobalWarError as exc:
            typer.secho(f"refused: {exc}", fg=typer.colors.RED)
            continue
        steps += 1
        if me not in players_bots or not quiet:
            typer.echo(f"{player_id(me)}: {text}")
            typer.echo(result_text(state, result))
        # Bots' steps are saved once per turn: a record rewritten after every roll costs O(n^2).
        if save and (me not in players_bots or match.state.current != me or match.over):
            save_match(match, save)
    if match.over:
        names = ", ".join(player_id(p) for p in match.state.winners)
        typer.echo(f"Game over after {len(match.log)} actions, turn {match.state.turn}: {names} won.")
    else:
        typer.echo(f"Stopped after {steps} actions: {phase_text(match.state)}")


def _command(match: Match, line: str, save: Path | None) -> None:
    state = match.state
    if line == ":show":
        typer.echo(position_text(state, viewer=state.current))
    elif line == ":cards":
        typer.echo(hand_text(state, state.current))
    elif line == ":options":
        texts = [action_text(state, a) for a in legal_actions(state, counts=bounds_only)]
        typer.echo("\n".join(texts[:60]) + (f"\n... and {len(texts) - 60} more" if len(texts) > 60 else ""))
    elif line == ":help":
        typer.echo(HELP)
    else:
        target = line[5:].strip() or (str(save) if save else "")
        if not target:
            typer.echo("say where: ':save game.json'")
            return
        save_match(match, target)
        typer.echo(f"saved to {target}")


def play(variant: str, args: list[str]) -> None:
    """Entry from ``interboard play VARIANT ARGS``."""
    command = typer.main.get_command(app)
    command.main(args=[variant, *args], prog_name=f"interboard play {variant}", standalone_mode=True)


def replay_match(data: Any, options: list[str], source: str) -> int:
    """Replay an ``interboard-globalwar/1`` record from its seeded deal, reporting where it differs."""
    if options:
        raise _fail("a Global War record keeps its own options")
    try:
        match, differences = replay(data)
    except (RecordError, GlobalWarError) as exc:
        raise _fail(f"{source}: {exc}") from exc
    for line in differences:
        typer.echo(line)
    typer.echo(f"{len(match.log)} actions replayed, {len(differences)} with differences")
    return 1 if differences else 0


REPLAYERS = {FORMAT: replay_match}
"""Record formats the generic ``replay`` hands to this family."""
