"""The Axis & Allies family's commands: ``interboard odds``, the battle calculator.

Imported by the CLI only (it needs Typer, which the engine does not)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated

import typer

from .. import listed_variant
from ..protocol import FamilyError
from .actions import ActionSyntaxError, parse_counts
from .gamedata import game_units
from .odds import Battle, Odds, OddsError, exact, simulate
from .units import UnitType


class Mode(StrEnum):
    exact = "exact"
    low_luck = "low-luck"
    dice = "dice"


class Kind(StrEnum):
    land = "land"
    sea = "sea"
    amphibious = "amphibious"


def _fail(message: str) -> typer.Exit:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    return typer.Exit(2)


def _units(units: Mapping[str, UnitType], text: str, what: str) -> tuple[str, ...]:
    try:
        counts = parse_counts(units, text, what)
    except ActionSyntaxError as exc:
        raise _fail(str(exc)) from None
    return tuple(t for t, n in counts for _ in range(n))


def _order(units: Mapping[str, UnitType], text: str | None, what: str) -> tuple[str, ...]:
    if not text:
        return ()
    return tuple(dict.fromkeys(_units(units, text, what)))


def odds(
    variant: Annotated[str, typer.Argument(help="An Axis & Allies variant (its units are used).")],
    attack: Annotated[str, typer.Option(help="The attacking units: '3 infantry, 1 artillery, 2 armour'.")],
    defend: Annotated[str, typer.Option(help="The defending units: '4 infantry'.")],
    mode: Annotated[
        Mode, typer.Option(help="exact, low-luck (exact under low luck) or dice (sampled).")
    ] = Mode.exact,
    kind: Annotated[
        Kind, typer.Option(help="land, sea, or amphibious (a land battle from the sea).")
    ] = Kind.land,
    aa: Annotated[bool, typer.Option("--aa", help="The defender has an AA gun.")] = False,
    bombard: Annotated[str | None, typer.Option(help="Ships bombarding an amphibious assault.")] = None,
    attacker_order: Annotated[
        str | None, typer.Option(help="Unit types in the order the attacker loses them.")
    ] = None,
    defender_order: Annotated[
        str | None, typer.Option(help="Unit types in the order the defender loses them.")
    ] = None,
    trials: Annotated[int, typer.Option(help="Battles fought in dice mode.", min=1, max=10_000_000)] = 20_000,
    seed: Annotated[int, typer.Option(help="Seed of the dice in dice mode.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="End with one line of JSON.")] = False,
) -> None:
    """The chances of a battle fought to the end: each side's chance to win, the chance both die, and
    the expected losses in IPCs. Casualties are taken cheapest first unless an order is given."""
    try:
        fam, info = listed_variant(variant)  # the family is not loaded: the calculator needs its data alone
    except FamilyError as exc:
        raise _fail(str(exc)) from None
    if fam.name != "axis_allies":
        raise _fail(f"{info.id} is a {fam.name} variant: the battle calculator is for Axis & Allies variants")
    units = game_units(info.id)  # the unit table alone: loading the board would slow the start
    battle = Battle(
        units,
        _units(units, attack, "--attack"),
        _units(units, defend, "--defend"),
        kind=kind.value,
        aa=aa,
        bombard=_units(units, bombard, "--bombard") if bombard else (),
        low_luck=mode is Mode.low_luck,
        attacker_order=_order(units, attacker_order, "--attacker-order"),
        defender_order=_order(units, defender_order, "--defender-order"),
    )
    if kind is not Kind.amphibious and bombard:
        raise _fail("--bombard supports an amphibious assault: add --kind amphibious")
    try:
        result = simulate(battle, trials, seed) if mode is Mode.dice else exact(battle)
    except OddsError as exc:
        raise _fail(str(exc)) from None
    _print(result, mode)
    if as_json:
        typer.echo(json.dumps(result.to_json()))


def _print(o: Odds, mode: Mode) -> None:
    how = (
        f"{o.trials:,} battles sampled"
        if mode is Mode.dice
        else "exact" + (" (low luck)" if mode is Mode.low_luck else "")
    )
    typer.echo(f"attacker wins   {o.attacker_wins:9.6f}")
    typer.echo(f"defender wins   {o.defender_wins:9.6f}")
    typer.echo(f"both destroyed  {o.draw:9.6f}")
    if o.stalemate:
        typer.echo(f"stalemate       {o.stalemate:9.6f}")
    typer.echo(
        f"expected losses: attacker {o.attacker_loss:.2f} IPCs, defender {o.defender_loss:.2f} IPCs ({how})"
    )


def register(app: typer.Typer) -> None:
    app.command()(odds)
