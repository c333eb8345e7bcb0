"""Check one order against a position, raising :class:`IllegalOrderError` with the reason.

The verdict is the adjudicator's own: the order is adjudicated alone (every other unit holds), so
what is refused here is exactly what the adjudicator would treat as illegal.
"""

from __future__ import annotations

from ...board import Board
from .engine import step
from .errors import IllegalOrderError
from .orders import Order, format_order
from .results import Reason
from .rules import Rulebook
from .state import Position


def check_order(
    board: Board, position: Position, power: str, order: Order, rulebook: Rulebook = Rulebook()
) -> None:
    """Raise :class:`IllegalOrderError` if ``power`` may not give ``order`` in ``position``."""
    outcome = step(board, position, [(power, order)], rulebook)
    for result in outcome.results:
        if result.order == order and result.power == power and result.reason is Reason.ILLEGAL:
            raise IllegalOrderError(format_order(board, order), result.message or "illegal in this position")
