"""The Diplomacy rule family: orders, adjudication (DATC v3.0), retreats and adjustments."""

from .engine import PhaseOutcome, step
from .errors import IllegalOrderError, OrderError, OrderSyntaxError, UnknownPlaceError
from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    format_order,
)
from .parse import parse_order, parse_place, parse_power_order, parse_unit, resolve_power
from .results import OrderResult, Reason
from .rules import Edition, Rulebook
from .state import Dislodged, Phase, PhaseKind, Position, Season, Unit, starting_position

__all__ = [
    "Build",
    "Convoy",
    "Disband",
    "Dislodged",
    "Edition",
    "Hold",
    "IllegalOrderError",
    "Move",
    "Order",
    "OrderError",
    "OrderResult",
    "OrderSyntaxError",
    "Phase",
    "PhaseKind",
    "PhaseOutcome",
    "Position",
    "Reason",
    "Remove",
    "Retreat",
    "Rulebook",
    "Season",
    "SupportHold",
    "SupportMove",
    "Unit",
    "UnknownPlaceError",
    "Waive",
    "format_order",
    "parse_order",
    "parse_place",
    "parse_power_order",
    "parse_unit",
    "resolve_power",
    "starting_position",
    "step",
]
