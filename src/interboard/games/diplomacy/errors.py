"""Errors for bad orders, in the manner of python-chess: one type per kind of fault.

* :class:`OrderSyntaxError`: the text is not an order at all (``A Lvp Edi``).
* :class:`UnknownPlaceError`: a place (or power) name that the map does not know (``A Lvp - Xyz``).
* :class:`AmbiguousPlaceError`: a place several boards have, written without its board.
* :class:`IllegalOrderError`: a well-formed order that the position does not allow (no unit there,
  not your unit, not adjacent, wrong phase).

All are :class:`OrderError`, a :class:`ValueError`; each message names the order text and the fault.
"""

from __future__ import annotations


class OrderError(ValueError):
    def __init__(self, text: str, problem: str) -> None:
        self.text = text
        self.problem = problem
        super().__init__(f"{text!r}: {problem}" if text else problem)


class OrderSyntaxError(OrderError):
    """The text cannot be read as an order."""


class UnknownPlaceError(OrderError):
    """The text names a place, coast or power that the map does not have."""


class AmbiguousPlaceError(UnknownPlaceError):
    """A place name that several boards have, written without its board (``Munich`` for
    ``Munich-Y`` or ``Munich-Z``); the message names the choices."""


class IllegalOrderError(OrderError):
    """The order is well formed but not allowed in this position or phase."""
