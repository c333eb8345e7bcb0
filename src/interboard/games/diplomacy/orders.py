"""Typed Diplomacy orders.

Orders name places by location index (see :mod:`interboard.board.model`); the parser in
:mod:`interboard.diplomacy.parse` turns text into these values once, at the edge, and
:func:`format_order` turns them back into text. ``unit`` is the unit kind as written by the player,
``None`` when the text did not say.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...board import Board, UnitKind


@dataclass(frozen=True, slots=True)
class Hold:
    loc: int
    unit: UnitKind | None = None


@dataclass(frozen=True, slots=True)
class Move:
    loc: int
    dest: int
    unit: UnitKind | None = None
    via_convoy: bool = False
    """True when the order says ``via convoy``: the army moves only by a convoy route."""


@dataclass(frozen=True, slots=True)
class SupportHold:
    loc: int
    target: int
    """Location of the supported unit (which holds, supports or convoys)."""
    unit: UnitKind | None = None
    target_unit: UnitKind | None = None


@dataclass(frozen=True, slots=True)
class SupportMove:
    loc: int
    origin: int
    """Location of the supported unit."""
    dest: int
    """Where the supported unit moves (a coast may be named; only the province matters)."""
    unit: UnitKind | None = None
    target_unit: UnitKind | None = None


@dataclass(frozen=True, slots=True)
class Convoy:
    loc: int
    origin: int
    dest: int
    unit: UnitKind | None = None


@dataclass(frozen=True, slots=True)
class Retreat:
    loc: int
    dest: int
    unit: UnitKind | None = None


@dataclass(frozen=True, slots=True)
class Disband:
    """Disband a dislodged unit in a retreat phase."""

    loc: int
    unit: UnitKind | None = None


@dataclass(frozen=True, slots=True)
class Build:
    loc: int
    unit: UnitKind


@dataclass(frozen=True, slots=True)
class Remove:
    """Remove one of one's units in an adjustment phase."""

    loc: int
    unit: UnitKind | None = None


@dataclass(frozen=True, slots=True)
class Waive:
    """Decline one build."""


@dataclass(frozen=True, slots=True)
class Link:
    """Join two locations (Twin Earths III, Hyperspace II)."""

    a: int
    b: int


@dataclass(frozen=True, slots=True)
class DestroyLink:
    """Destroy a link, or (where the rules allow) cut an adjacency of the printed board."""

    a: int
    b: int


@dataclass(frozen=True, slots=True)
class ReinforceLink:
    """Protect a link from destruction this Winter."""

    a: int
    b: int


MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
RetreatOrder = Retreat | Disband
AdjustmentOrder = Build | Remove | Waive
LinkOrder = Link | DestroyLink | ReinforceLink
Order = MovementOrder | RetreatOrder | AdjustmentOrder | LinkOrder


def _unit(board: Board, kind: UnitKind | None, loc: int) -> str:
    name = board.locations[loc].id
    return f"{kind.value} {name}" if kind is not None else name


def format_order(board: Board, order: Order) -> str:
    """Short upper-case text of an order (``A LVP - EDI``, ``F NTH C A LON - BEL``, ``WAIVE``).

    This is also the form MILA writes, so it round-trips through :func:`parse_order`.
    """
    loc_id = board.locations
    match order:
        case Hold(loc, unit):
            return f"{_unit(board, unit, loc)} H"
        case Move(loc, dest, unit, via):
            text = f"{_unit(board, unit, loc)} - {loc_id[dest].id}"
            return text + " VIA" if via else text
        case SupportHold(loc, target, unit, target_unit):
            return f"{_unit(board, unit, loc)} S {_unit(board, target_unit, target)}"
        case SupportMove(loc, origin, dest, unit, target_unit):
            return f"{_unit(board, unit, loc)} S {_unit(board, target_unit, origin)} - {loc_id[dest].id}"
        case Convoy(loc, origin, dest, unit):
            return f"{_unit(board, unit, loc)} C A {loc_id[origin].id} - {loc_id[dest].id}"
        case Retreat(loc, dest, unit):
            return f"{_unit(board, unit, loc)} R {loc_id[dest].id}"
        case Disband(loc, unit):
            return f"{_unit(board, unit, loc)} D"
        case Build(loc, unit):
            return f"{_unit(board, unit, loc)} B"
        case Remove(loc, unit):
            return f"{_unit(board, unit, loc)} D"
        case Waive():
            return "WAIVE"
        case Link(a, b):
            return f"LINK {loc_id[a].id} {loc_id[b].id}"
        case DestroyLink(a, b):
            return f"DESTROY {loc_id[a].id} {loc_id[b].id}"
        case ReinforceLink(a, b):
            return f"REINFORCE {loc_id[a].id} {loc_id[b].id}"
    raise TypeError(f"not an order: {order!r}")


def order_loc(order: Order) -> int | None:
    """The location of the unit (or build site) the order is for; None for a waive or link order."""
    return None if isinstance(order, Waive | Link | DestroyLink | ReinforceLink) else order.loc
