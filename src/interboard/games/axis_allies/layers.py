"""Rule layers: rules a variant adds to the base games (Europe 1999, Pacific 2001), as functions for
the named hooks of the base engine.

A :class:`Layer` fills some of the hooks below; a variant names the layers it plays with
(:data:`.gamedata.LAYERS`: the linked world game names ``linked``, :mod:`.linked`). The family
provides the layers its variants may name (:func:`provide`); the base modules ask :func:`hooks` for
a world's and call only those. With no layer every hook is empty and the base rules stand alone.

Hooks that add (turn start and end, income, closed spaces...) run every layer's function in the
order the variant names the layers; hooks that replace a base rule (the victory at a round's end, an
initial placement, money between purses, free units) take one layer's, and two layers that fill the
same one are an error.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import TypeVar

from ..rule_layers import LayerRegistry
from .actions import Place, Transfer
from .gamedata import Economy, GameData
from .state import Unit, World
from .units import UnitType


@dataclass(frozen=True)
class InitialPlacement:
    """Placement before round 1, power by power, in its own step (``Phase.SETUP``)."""

    order: tuple[str, ...]
    """The powers that place, in their order."""
    begin: Callable[[World], None]
    """Sets a new game in its first power's placement (instead of the first power's turn)."""
    budget: Callable[[World], int]
    """IPCs the mover has left to place."""
    spaces: Callable[[World, str], list[str]]
    """Where the mover may place a unit of a type."""
    place: Callable[[World, Place], None]
    """Plays a place action (raises :class:`~.state.IllegalAction` when refused)."""
    finish_step: Callable[[World], bool]
    """The mover's placement is over: the next power's begins, or (True) round 1 does."""


@dataclass(frozen=True)
class FreeUnits:
    """Units a power places beyond its factories' rules, with no factory and no factory limit."""

    used: Callable[[World, str, str, str, int, int], int]
    """How many of the units placed (economy, space, unit type, count, how many it has to place)
    are free ones; refuses (raises) where they may not go."""
    short: Callable[[World, int, int], str]
    """The refusal when some but not all of the units placed where no factory is are free ones
    (how many are free, how many were placed)."""
    spend: Callable[[World, str, str, int], None]
    """Notes free units of (economy, unit type) placed."""
    spaces: Callable[[World, str, str], Collection[str] | None]
    """Where the free units of (economy, unit type) may go beyond the factories; None: it has none."""


@dataclass(frozen=True)
class Layer:
    """The rules of one layer, as the functions it gives the base engine's hooks (None: not filled)."""

    name: str
    # ------------------------------------------------------------------ the turn
    turn_start: Callable[[World], None] | None = None
    """A power's turn starts (after the base games' own: China's infantry)."""
    turn_end: Callable[[World, str], None] | None = None
    """A power's turn ends, after its income (the power)."""
    out_of_the_war: Callable[[World, str], bool] | None = None
    """A power that takes no more turns and decides nothing more."""
    victory: Callable[[World], bool] | None = None
    """Replaces the base games' victory at a round's end (an enemy capital held a whole round):
    True when the game is over."""
    initial_placement: InitialPlacement | None = None
    # ------------------------------------------------------------------ purchase
    transfer: Callable[[World, Transfer], None] | None = None
    """Moves money between a power's purses (in the purchase step; no base game does)."""
    transfers: Callable[[World], Iterable[Transfer]] | None = None
    """The transfers the mover is offered (the legal actions)."""
    # ------------------------------------------------------------------ movement
    closed: Callable[[World, str], bool] | None = None
    """A space no one enters (aircraft may fly over it)."""
    closed_reason: Callable[[World, str], str] | None = None
    """Why a closed space is closed, for the refusal."""
    stops_ships: Callable[[World, str, str], bool] | None = None
    """(space, power): the power's surface ships may not pass through the space."""
    may_patrol: Callable[[World, Unit], bool] | None = None
    """An aircraft that may end the non-combat move where it cannot land, on patrol."""
    patrol_space: Callable[[World, str, str], bool] | None = None
    """(space, power): where the power's aircraft may patrol."""
    # ------------------------------------------------------------------ capture and income
    capital_taken: Callable[[World, str, str], None] | None = None
    """(capital, the power that lost it): a capital is taken."""
    income: Callable[[World, str, dict[str, int]], dict[str, int]] | None = None
    """(power, what each economy would collect): what each collects."""
    in_exile: Callable[[World, str, Economy], bool] | None = None
    """(power, economy): an economy whose capital the enemy holds collects all the same (True)."""
    # ------------------------------------------------------------------ placement
    ship_spaces: Callable[[World, str, UnitType, str], bool] | None = None
    """(power, unit type, sea zone): a new ship or aircraft may go in a sea zone no factory is next to."""
    free_units: FreeUnits | None = None


T = TypeVar("T")


def _one(layers: tuple[Layer, ...], hook: str, filled: list[T]) -> T | None:
    if len(filled) > 1:
        raise ValueError(f"layers {', '.join(x.name for x in layers)} each fill the hook {hook!r}")
    return filled[0] if filled else None


class Hooks:
    """The hooks of a variant's layers: for each, the functions the layers give it, in their order."""

    def __init__(self, layers: tuple[Layer, ...]) -> None:
        self.layers = layers
        self.turn_start = tuple(x.turn_start for x in layers if x.turn_start)
        self.turn_end = tuple(x.turn_end for x in layers if x.turn_end)
        self.out_of_the_war = tuple(x.out_of_the_war for x in layers if x.out_of_the_war)
        self.victory = _one(layers, "victory", [x.victory for x in layers if x.victory])
        self.initial_placement = _one(
            layers, "initial_placement", [x.initial_placement for x in layers if x.initial_placement]
        )
        self.transfer = _one(layers, "transfer", [x.transfer for x in layers if x.transfer])
        self.transfers = tuple(x.transfers for x in layers if x.transfers)
        self.closed = tuple(x.closed for x in layers if x.closed)
        self.closed_reason = tuple(x.closed_reason for x in layers if x.closed_reason)
        self.stops_ships = tuple(x.stops_ships for x in layers if x.stops_ships)
        self.may_patrol = tuple(x.may_patrol for x in layers if x.may_patrol)
        self.patrol_space = tuple(x.patrol_space for x in layers if x.patrol_space)
        self.capital_taken = tuple(x.capital_taken for x in layers if x.capital_taken)
        self.income = tuple(x.income for x in layers if x.income)
        self.in_exile = tuple(x.in_exile for x in layers if x.in_exile)
        self.ship_spaces = tuple(x.ship_spaces for x in layers if x.ship_spaces)
        self.free_units = _one(layers, "free_units", [x.free_units for x in layers if x.free_units])
        for layer in layers:
            if bool(layer.closed) != bool(layer.closed_reason):
                raise ValueError(f"layer {layer.name!r} closes spaces without saying why, or the reverse")


BASE = Hooks(())
"""The base games: no layer."""

_registry: LayerRegistry[GameData, Layer, Hooks] = LayerRegistry(
    "Axis & Allies", lambda data, layers: Hooks(layers) if layers else BASE
)
provide = _registry.provide


def hooks(world: World) -> Hooks:
    """The hooks of the layers ``world``'s variant names (asked at every hook point: kept per data)."""
    return _registry.hooks(world.data)


# ---------------------------------------------------------------------- hooks asked in several places
def closed_reason(world: World, space: str) -> str | None:
    """Why no one may enter ``space`` (None: nothing closes it)."""
    h = hooks(world)
    for closed, reason in zip(h.closed, h.closed_reason, strict=True):
        if closed(world, space):
            return reason(world, space)
    return None


def out_of_the_war(world: World, power: str) -> bool:
    return any(f(world, power) for f in hooks(world).out_of_the_war)
