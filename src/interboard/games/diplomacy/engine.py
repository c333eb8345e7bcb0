"""The pure step function of the Diplomacy family: ``step(board, position, orders) -> PhaseOutcome``.

Deterministic, no I/O. Orders are ``(power, order)`` pairs of typed orders; units without orders
hold (movement), are disbanded (retreats), or adjust by the civil-disorder rule (adjustments).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ...board import Board
from .adjustments import adjudicate_adjustments, adjustment_counts
from .links import LINK_ORDERS, is_opening, resolve_links
from .movement import adjudicate_movement
from .orders import Order
from .results import OrderResult, Reason
from .retreats import adjudicate_retreats, retreat_options
from .rules import Rulebook
from .state import Dislodged, Phase, PhaseKind, Position, Season, Unit


@dataclass(frozen=True)
class PhaseOutcome:
    """The results of one phase and the position that follows it."""

    phase: Phase
    results: tuple[OrderResult, ...]
    position: Position
    """The next position (its phase is the next phase to play)."""
    winners: tuple[str, ...] = ()
    """Powers that reached the victory threshold at the end of this phase."""


def step(
    board: Board, position: Position, orders: Iterable[tuple[str, Order]], rulebook: Rulebook = Rulebook()
) -> PhaseOutcome:
    """Adjudicate ``position``'s phase with ``orders`` and return the results and next position.

    ``board`` is the geography the position is played on: for variants whose links are game state,
    the printed geography with the position's links laid over it (``Variant.board_for``).
    """
    phase = position.phase
    given = list(orders)
    link_orders = [(p, o) for p, o in given if isinstance(o, LINK_ORDERS)]
    if link_orders:
        given = [(p, o) for p, o in given if not isinstance(o, LINK_ORDERS)]
    links, cuts, makers, link_results = _links(board, position, link_orders, rulebook)
    if phase.kind is PhaseKind.MOVEMENT:
        res = adjudicate_movement(board, position.units, given, rulebook)
        results = res.results + link_results
        occupied = res.units.keys()
        dislodged = tuple(
            Dislodged(
                unit,
                attacker,
                retreat_options(
                    board,
                    unit,
                    attacker,
                    board.locations[unit.loc].space in res.attacker_by_convoy,
                    occupied,
                    res.contested,
                ),
            )
            for unit, attacker in res.dislodged
        )
        if dislodged:
            nxt = replace(
                position,
                phase=Phase(phase.year, phase.season, PhaseKind.RETREATS),
                units=res.units,
                dislodged=dislodged,
                links=links,
                cuts=cuts,
                link_makers=makers,
            )
            return PhaseOutcome(phase, results, nxt)
        return _after_season(
            board,
            phase,
            results,
            res.units,
            replace(position, links=links, cuts=cuts, link_makers=makers),
            rulebook,
        )
    if phase.kind is PhaseKind.RETREATS:
        retreat_results, moved = adjudicate_retreats(board, position.dislodged, given)
        units = dict(position.units)
        units.update(moved)
        return _after_season(board, phase, tuple(retreat_results) + link_results, units, position, rulebook)
    adjust_results, units_a = adjudicate_adjustments(board, position, given, rulebook)
    nxt = replace(
        position,
        phase=Phase(phase.year + 1, Season.SPRING, PhaseKind.MOVEMENT),
        units=units_a,
        dislodged=(),
        links=links,
        cuts=cuts,
        link_makers=makers,
    )
    winners = _unit_winners(board, units_a) if rulebook.victory_by_units else ()
    return PhaseOutcome(phase, tuple(adjust_results) + link_results, nxt, winners)


def _links(
    board: Board, position: Position, orders: Sequence[tuple[str, Order]], rulebook: Rulebook
) -> tuple[tuple[tuple[int, int], ...], frozenset[tuple[int, int]], tuple[str, ...], tuple[OrderResult, ...]]:
    """Resolve the phase's link orders, or refuse them where the rules take none now: the links,
    the cuts, who made each link, and the orders' results."""
    rules = rulebook.links
    if rules is None or rules.phase is not position.phase.kind:
        refused = tuple(
            OrderResult(p, o, False, Reason.ILLEGAL, message="link orders are not given in this phase")
            for p, o in orders
        )
        return position.links, position.cuts, position.link_makers, refused
    out = resolve_links(board.base, position, orders, rules, is_opening(board, position))
    return out.links, out.cuts, out.makers, out.results


def _unit_winners(board: Board, units: dict[int, Unit]) -> tuple[str, ...]:
    counts = Counter(u.power for u in units.values())
    return tuple(p.id for p in board.powers if counts[p.id] >= board.victory_centres)


def _after_season(
    board: Board,
    phase: Phase,
    results: tuple[OrderResult, ...],
    units: dict[int, Unit],
    before: Position,
    rulebook: Rulebook,
) -> PhaseOutcome:
    """End of a season once retreats are done: Fall updates centres, then adjustments if due."""
    if phase.season is Season.SPRING:
        nxt = replace(
            before, phase=Phase(phase.year, Season.FALL, PhaseKind.MOVEMENT), units=units, dislodged=()
        )
        return PhaseOutcome(phase, results, nxt)
    centres = dict(before.centres)
    for space, unit in units.items():
        if board.spaces[space].centre:
            centres[space] = unit.power
    alive = {u.power for u in units.values()} | set(centres.values())
    eliminated = frozenset(p.id for p in board.powers if p.id not in alive)
    adjust = replace(
        before,
        phase=Phase(phase.year, Season.WINTER, PhaseKind.ADJUSTMENTS),
        units=units,
        centres=centres,
        dislodged=(),
        eliminated=eliminated,
    )
    if rulebook.victory_by_units:
        winners: tuple[str, ...] = ()
    else:
        owned = Counter(centres.values())
        winners = tuple(p.id for p in board.powers if owned[p.id] >= board.victory_centres)
    if rulebook.winter_every_year or adjustment_counts(board, adjust):
        return PhaseOutcome(phase, results, adjust, winners)
    if rulebook.victory_by_units:
        winners = _unit_winners(board, units)  # the Winter passes with nothing to do
    nxt = replace(adjust, phase=Phase(phase.year + 1, Season.SPRING, PhaseKind.MOVEMENT))
    return PhaseOutcome(phase, results, nxt, winners)
