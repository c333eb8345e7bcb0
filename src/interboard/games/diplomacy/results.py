"""Typed results: for every order, whether it succeeded and, if not, why."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .orders import Order


class Reason(StrEnum):
    """Why an order did not succeed."""

    ILLEGAL = "illegal"
    """Not a legal order in this position; the unit held."""
    VOID = "void"
    """A support or convoy that matches no order of the unit it names."""
    NO_CONVOY = "no convoy"
    """A convoyed move with no unbroken chain of convoying fleets."""
    BOUNCED = "bounced"
    """A move or retreat that was not strong enough (``by``: the units it bounced against)."""
    CUT = "cut"
    """A support cut by an attack (``by``: the attackers' spaces)."""
    DISLODGED = "dislodged"
    """The unit was dislodged (``dislodged_by``: the attacker's space)."""
    NOT_ORDERED = "not ordered"
    """A default: the unit had no order (holds, is disbanded, or the build is waived)."""


class OrderResult(NamedTuple):
    """The result of one order (a named tuple: immutable and cheap to make on the hot path)."""

    power: str
    order: Order
    succeeded: bool
    reason: Reason | None = None
    by: tuple[int, ...] = ()
    """Space indices of the units responsible (bounced with, cut by)."""
    dislodged_by: int | None = None
    """Space index the dislodging unit came from, when this order's unit was dislodged."""
    message: str = ""
    """For an illegal order: what was wrong with it."""
