"""The Diplomacy rule family: orders, adjudication (DATC v3.0), retreats and adjustments."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine import PhaseOutcome, step
    from .errors import (
        AmbiguousPlaceError,
        IllegalOrderError,
        OrderError,
        OrderSyntaxError,
        UnknownPlaceError,
    )
    from .orders import (
        Build,
        Convoy,
        DestroyLink,
        Disband,
        Hold,
        Link,
        Move,
        Order,
        ReinforceLink,
        Remove,
        Retreat,
        SupportHold,
        SupportMove,
        Waive,
        format_order,
    )
    from .parse import parse_order, parse_place, parse_power_order, parse_unit, resolve_power
    from .results import OrderResult, Reason
    from .rules import Edition, LinkRules, Rulebook
    from .state import Dislodged, Phase, PhaseKind, Position, Season, Unit, starting_position
else:
    from ..lazy import exports

    __getattr__ = exports(
        __name__,
        {
            ".engine": "PhaseOutcome step",
            ".errors": "AmbiguousPlaceError IllegalOrderError OrderError OrderSyntaxError UnknownPlaceError",
            ".orders": "Build Convoy DestroyLink Disband Hold Link Move Order ReinforceLink Remove Retreat "
            "SupportHold SupportMove Waive format_order",
            ".parse": "parse_order parse_place parse_power_order parse_unit resolve_power",
            ".results": "OrderResult Reason",
            ".rules": "Edition LinkRules Rulebook",
            ".state": "Dislodged Phase PhaseKind Position Season Unit starting_position",
        },
    )

__all__ = [
    "AmbiguousPlaceError",
    "Build",
    "Convoy",
    "DestroyLink",
    "Disband",
    "Dislodged",
    "Edition",
    "Hold",
    "IllegalOrderError",
    "Link",
    "LinkRules",
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
    "ReinforceLink",
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
