"""The pure step function of the Diplomacy family: ``step(board, position, orders) -> PhaseOutcome``.

Deterministic, no I/O. Orders are ``(power, order)`` pairs of typed orders; units without orders
hold (movement), are disbanded (retreats), or adjust by the civil-disorder rule (adjustments).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..board import Board
from .adjustments import adjudicate_adjustments, adjustment_counts
from .movement import adjudicate_movement
from .orders import Order
from .results import OrderResult
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
    detail: dict[str, object] = field(default_factory=dict)


def step(
    board: Board, position: Position, orders: Iterable[tuple[str, Order]], rulebook: Rulebook = Rulebook()
) -> PhaseOutcome:
    """Adjudicate ``position``'s phase with ``orders`` and return the results and next position."""
    phase = position.phase
    if phase.kind is PhaseKind.MOVEMENT:
        res = adjudicate_movement(board, position.units, orders, rulebook)
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
            nxt = Position(
                Phase(phase.year, phase.season, PhaseKind.RETREATS),
                res.units,
                position.centres,
                dislodged,
                position.eliminated,
            )
            return PhaseOutcome(phase, res.results, nxt)
        return _after_season(board, phase, res.results, res.units, position)
    if phase.kind is PhaseKind.RETREATS:
        results, moved = adjudicate_retreats(board, position.dislodged, orders)
        units = dict(position.units)
        units.update(moved)
        return _after_season(board, phase, tuple(results), units, position)
    results_a, units_a = adjudicate_adjustments(board, position, orders, rulebook)
    nxt = Position(
        Phase(phase.year + 1, Season.SPRING, PhaseKind.MOVEMENT),
        units_a,
        position.centres,
        (),
        position.eliminated,
    )
    return PhaseOutcome(phase, tuple(results_a), nxt)


def _after_season(
    board: Board, phase: Phase, results: tuple[OrderResult, ...], units: dict[int, Unit], before: Position
) -> PhaseOutcome:
    """End of a season once retreats are done: Fall updates centres, then adjustments if due."""
    if phase.season is Season.SPRING:
        nxt = Position(
            Phase(phase.year, Season.FALL, PhaseKind.MOVEMENT), units, before.centres, (), before.eliminated
        )
        return PhaseOutcome(phase, results, nxt)
    centres = dict(before.centres)
    for space, unit in units.items():
        if board.spaces[space].centre:
            centres[space] = unit.power
    alive = {u.power for u in units.values()} | set(centres.values())
    eliminated = frozenset(p.id for p in board.powers if p.id not in alive)
    owned = Counter(centres.values())
    winners = tuple(p.id for p in board.powers if owned[p.id] >= board.victory_centres)
    adjust = Position(Phase(phase.year, Season.WINTER, PhaseKind.ADJUSTMENTS), units, centres, (), eliminated)
    if adjustment_counts(board, adjust):
        return PhaseOutcome(phase, results, adjust, winners)
    nxt = Position(Phase(phase.year + 1, Season.SPRING, PhaseKind.MOVEMENT), units, centres, (), eliminated)
    return PhaseOutcome(phase, results, nxt, winners)
