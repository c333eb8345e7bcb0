"""Rule layers: rules a variant adds to the base game (ground movement, supply, combat, bombardment,
attrition), as functions for the named hooks of the engine.

A variant's data names the layers it plays with, in order (``game.json``: ``"layers"``; the Vernian
variant's are ``inventions``, ``air`` and ``armour``). The family provides the layers its variants may
name (:func:`provide`); the engine and the rules ask :func:`hooks` for a world's and call only those,
each hook's functions in the order the data names the layers. A variant with no layer plays the base
game alone, and its sequence of play holds only the base phases (:data:`BASE_PHASES`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..rule_layers import LayerRegistry
from .gamedata import GameData
from .state import Unit, World

PhaseHook = Callable[[World], None]
BASE_PHASES = ("new_units", "movement", "bombard", "combat", "attrition")
"""The phases the base game plays; a layer names those it adds (:attr:`Layer.phases`)."""


@dataclass(frozen=True)
class SpecialMover:
    """A counter kind that moves by rules of its own."""

    steps: Callable[[World, Unit], dict[int, int]]
    """The hexes it may enter with their costs (its own at 0)."""
    enter: Callable[[World, Unit, int], None]
    """It moves into a hex (checked)."""


@dataclass(frozen=True)
class Layer:
    """The rules of one layer, as the functions it gives the engine's hooks (None or empty: not filled)."""

    name: str
    phases: tuple[str, ...] = ()
    """The phases of the sequence of play that are the layer's."""
    # ------------------------------------------------------------------ the turn
    strategic: PhaseHook | None = None
    """The start of each strategic turn, after the arrivals."""
    operational: PhaseHook | None = None
    """The start of each operational turn, before anything else."""
    operational_asks: Callable[[World, str, str], str | None] | None = None
    """(position at an operational turn's start, side, "its"/"their"): what the layer asks the side
    there, in words ("placing its storm markers"), or None."""
    player_turn: PhaseHook | None = None
    """The start of each player-turn."""
    on_entry: Mapping[str, tuple[PhaseHook, ...]] = field(default_factory=dict)
    """Entering a phase, by its name."""
    automatic: Mapping[str, PhaseHook] = field(default_factory=dict)
    """Phases played without a decision, by name (while no decision is asked)."""
    attrition: PhaseHook | None = None
    """The phasing side's Attrition phase, before the supply rolls."""
    on_change: PhaseHook | None = None
    """After a change of the position (a move, a placement, a battle), first."""
    after_change: PhaseHook | None = None
    """After a change of the position, once lone tanks have been dropped, before the tunnel and
    victory checks."""
    # ------------------------------------------------------------------ movement, combat, supply
    allowance: Callable[[World, Unit, int], int] | None = None
    """A unit's movement points this turn, from those the base rules give."""
    entry_cost: Callable[[World, int], int] | None = None
    """Movement points added to the cost of entering a hex."""
    movers: Mapping[str, SpecialMover] = field(default_factory=dict)
    """Counter kinds that move by rules of their own, by kind."""
    shifts: Callable[[World, int, list[Unit]], int] | None = None
    """(hex attacked, attackers): odds columns shifted left in the defender's favour."""
    interdicted: Callable[[World, str], int] | None = None
    """Hexes (a bit set) no supply line of the side may enter."""
    adjacent_sources: Callable[[World, str], int] | None = None
    """Hexes (a bit set) that supply the side's units in them and the adjacent hexes, with no trace."""


class Hooks:
    """The hooks of a variant's layers: for each, the functions the layers give it, in their order."""

    def __init__(self, data: GameData, layers: tuple[Layer, ...]) -> None:
        self.layers = layers
        self.strategic = tuple(x.strategic for x in layers if x.strategic)
        self.operational = tuple(x.operational for x in layers if x.operational)
        self.operational_asks = tuple(x.operational_asks for x in layers if x.operational_asks)
        self.player_turn = tuple(x.player_turn for x in layers if x.player_turn)
        self.on_entry: dict[str, tuple[PhaseHook, ...]] = {}
        self.automatic: dict[str, PhaseHook] = {}
        self.movers: dict[str, SpecialMover] = {}
        for x in layers:
            for phase, entry in x.on_entry.items():
                self.on_entry[phase] = (*self.on_entry.get(phase, ()), *entry)
            for phase, play in x.automatic.items():
                if phase in self.automatic:
                    raise ValueError(f"two layers of {data.id} each play the phase {phase!r}")
                self.automatic[phase] = play
            for kind, mover in x.movers.items():
                if kind in self.movers:
                    raise ValueError(f"two layers of {data.id} each move the counter kind {kind!r}")
                self.movers[kind] = mover
        self.attrition = tuple(x.attrition for x in layers if x.attrition)
        self.on_change = tuple(x.on_change for x in layers if x.on_change)
        self.after_change = tuple(x.after_change for x in layers if x.after_change)
        self.allowance = tuple(x.allowance for x in layers if x.allowance)
        self.entry_cost = tuple(x.entry_cost for x in layers if x.entry_cost)
        self.shifts = tuple(x.shifts for x in layers if x.shifts)
        self.interdicted = tuple(x.interdicted for x in layers if x.interdicted)
        self.adjacent_sources = tuple(x.adjacent_sources for x in layers if x.adjacent_sources)
        known = {*BASE_PHASES, *(p for x in layers for p in x.phases)}
        for side, phases in data.sequence.items():
            unknown = [p for p in phases if p not in known]
            if unknown:
                raise ValueError(
                    f"{data.id}: the sequence of {side} names {', '.join(unknown)}, a phase of no layer it "
                    f"plays with (its layers: {', '.join(x.name for x in layers) or 'none'})"
                )


_registry: LayerRegistry[GameData, Layer, Hooks] = LayerRegistry(
    "hex wargame", lambda data, layers: Hooks(data, layers)
)
provide = _registry.provide


def hooks(world: World) -> Hooks:
    """The hooks of the layers ``world``'s variant names (asked at every hook point: kept per data)."""
    return _registry.hooks(world.data)
